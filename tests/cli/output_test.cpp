// The one --output writer of every command (cli/output.h).
#include "cli/output.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "common/error.h"
#include "job/job_spec.h"
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

TEST(Output, UnwritableFileNamesTheOptionAndTheReportGoesToStdout) {
  testing::TempDir dir;
  ::testing::internal::CaptureStdout();
  try {
    write_documents({"the measurements\n"}, dir.file("missing/out"));
    ::testing::internal::GetCapturedStdout();
    FAIL() << "no error";
  } catch (const UserError& e) {
    EXPECT_EQ(::testing::internal::GetCapturedStdout(), "the measurements\n");
    EXPECT_EQ(std::string(e.what()), "--output=" + dir.file("missing/out") +
                                         ": cannot write the file: No such file or directory; the report was "
                                         "written to stdout instead");
  }
}

TEST(Output, ReplacedFileKeepsItsModeAndNoTemporaryFileStays) {
  testing::TempDir dir;
  const std::string path = dir.file("out");
  std::ofstream(path) << "old\n";
  ASSERT_EQ(::chmod(path.c_str(), 0640), 0);
  struct stat before {};
  ASSERT_EQ(::stat(path.c_str(), &before), 0);
  write_report_documents({Document{{}, [](std::ostream& out) { out << "streamed\n"; }}}, path);
  EXPECT_EQ(slurp(path), "streamed\n");
  struct stat after {};
  ASSERT_EQ(::stat(path.c_str(), &after), 0);
  EXPECT_EQ(after.st_mode & 07777, 0640u);
  EXPECT_NE(after.st_ino, before.st_ino);  // a new file renamed over the old one, not the old one truncated
  for (const auto& entry : std::filesystem::directory_iterator(dir.path())) {
    EXPECT_EQ(entry.path().filename(), "out") << "left behind: " << entry.path();
  }
}

TEST(Output, SymlinkAndDeviceAreWrittenInPlace) {
  testing::TempDir dir;
  std::ofstream(dir.file("target")) << "old\n";
  std::filesystem::create_symlink(dir.file("target"), dir.file("link"));
  write_documents({"through the link\n"}, dir.file("link"));
  EXPECT_TRUE(std::filesystem::is_symlink(dir.file("link")));
  EXPECT_EQ(slurp(dir.file("target")), "through the link\n");
  write_documents({"discarded\n"}, "/dev/null");  // a rename would have replaced the device node
  EXPECT_TRUE(std::filesystem::is_character_file("/dev/null"));
}

TEST(Output, FullDeviceIsAnErrorNotASilentlyTruncatedReport) {
  ::testing::internal::CaptureStdout();
  try {
    write_documents({std::string(1 << 16, 'x')}, "/dev/full");
    ::testing::internal::GetCapturedStdout();
    FAIL() << "no error";
  } catch (const UserError& e) {
    EXPECT_EQ(::testing::internal::GetCapturedStdout().size(), 1u << 16);  // the report went to stdout
    EXPECT_THAT(e.what(), HasSubstr("--output=/dev/full: cannot write the file: No space left on device"));
  }
}

TEST(Output, JsonPlusReplacesJsonAndRepeatsCollapse) {
  using Format = RunOptions::OutputFormat;
  EXPECT_EQ(output_formats_of({"json", "normal", "json+", "normal"}),
            (std::vector<Format>{Format::kNormal, Format::kJsonPlus}));
  EXPECT_EQ(output_formats_of({"json"}), std::vector<Format>{Format::kJson});
}

}  // namespace
}  // namespace sluice
