// The journals' shared file helpers (common/durable_files.h): a directory that cannot be synced is an error
// with its name for the journal being written, and a `false` for a best-effort cleanup.
#include "common/durable_files.h"

#include <gtest/gtest.h>

#include <string>

#include "common/error.h"
#include "support/temp_dir.h"

namespace sluice {
namespace {

TEST(DurableFiles, DirectoryOfABareNameIsTheCurrentOne) {
  EXPECT_EQ(directory_of("journal"), ".");
  EXPECT_EQ(directory_of("/var/lib/sluice/knobs.journal"), "/var/lib/sluice");
}

TEST(DurableFiles, AnExistingDirectorySyncs) {
  testing::TempDir dir;
  EXPECT_NO_THROW(fsync_directory(dir.path()));
  EXPECT_TRUE(try_fsync_directory(dir.path()));
}

TEST(DurableFiles, AMissingDirectoryThrowsWithItsNameOrIsFalse) {
  testing::TempDir dir;
  const std::string missing = dir.file("gone");
  try {
    fsync_directory(missing);
    FAIL() << "no error for " << missing;
  } catch (const UserError& e) {
    EXPECT_NE(std::string(e.what()).find(missing), std::string::npos) << e.what();
  }
  EXPECT_FALSE(try_fsync_directory(missing));
}

}  // namespace
}  // namespace sluice
