// The one --output writer of every command (cli/output.h).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "cli/output.h"
#include "common/error.h"
#include "support/temp_dir.h"

namespace sluice {
namespace {

using ::testing::HasSubstr;

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(Output, DocumentsFollowEachOtherAndReplaceTheFile) {
  testing::TempDir dir;
  const std::string path = dir.file("out");
  std::ofstream(path) << "old content that must go\n";
  write_documents({"table\n", "{}\n"}, path);
  EXPECT_EQ(slurp(path), "table\n{}\n");
}

TEST(Output, UnwritableFileNamesTheOption) {
  testing::TempDir dir;
  try {
    write_documents({"x"}, dir.file("missing/out"));
    FAIL() << "no error";
  } catch (const UserError& e) {
    EXPECT_THAT(e.what(), HasSubstr("--output=" + dir.file("missing/out")));
  }
}

TEST(Output, JsonPlusReplacesJsonAndRepeatsCollapse) {
  using Format = RunOptions::OutputFormat;
  EXPECT_EQ(output_formats_of({"json", "normal", "json+", "normal"}), (std::vector<Format>{Format::kNormal, Format::kJsonPlus}));
  EXPECT_EQ(output_formats_of({"json"}), std::vector<Format>{Format::kJson});
}

}  // namespace
}  // namespace sluice
