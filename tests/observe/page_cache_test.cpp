#include "observe/page_cache.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "support/temp_dir.h"

namespace sluice {
namespace {

TEST(PageCache, WritesThreeToDropCachesUnderTheRoot) {
  testing::TempDir dir;
  std::filesystem::create_directories(dir.file("sys/vm"));
  dir.make_file("sys/vm/drop_caches", 0);
  const CacheDrop drop = drop_page_cache(SystemRoots{dir.path(), dir.path()});
  EXPECT_TRUE(drop.done) << drop.reason;
  EXPECT_TRUE(drop.reason.empty());
  std::ifstream in(dir.file("sys/vm/drop_caches"));
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}), "3\n");
}

TEST(PageCache, SaysWhyWhenTheKnobCannotBeWritten) {
  testing::TempDir dir;
  const CacheDrop drop = drop_page_cache(SystemRoots{dir.path(), dir.path()});
  EXPECT_FALSE(drop.done);
  EXPECT_NE(drop.reason.find(dir.path() + "/sys/vm/drop_caches"), std::string::npos) << drop.reason;
}

}  // namespace
}  // namespace sluice
