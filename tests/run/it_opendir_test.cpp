// opendir next to fio 3.33: every regular file below the directory (recursively, symbolic links skipped) is
// a file of the job, each read whole when no size is given, so both tools move the same bytes.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "support/it_test_util.h"
#include "support/machine_features.h"
#include "support/temp_dir.h"

namespace sluice::testing {
namespace {

void make_tree(const TempDir& tmp) {
  std::filesystem::create_directories(tmp.file("tree/sub"));
  std::ofstream(tmp.file("tree/a"), std::ios::binary) << std::string(1 << 20, 'a');
  std::ofstream(tmp.file("tree/sub/b"), std::ios::binary) << std::string(512 << 10, 'b');
  std::ofstream(tmp.file("tree/sub/c"), std::ios::binary) << std::string(256 << 10, 'c');
  std::filesystem::create_symlink(tmp.file("tree/a"), tmp.file("tree/link"));
}

TEST(Opendir, EveryRegularFileBelowIsReadAsFio) {
  TempDir tmp;
  make_tree(tmp);
  for (const std::string program : {"fio", "sluice"}) {
    if (program == "fio" && !::sluice::testing::have(::sluice::testing::Feature::kFio)) continue;
    const RunOutput r = run_as(
        program, {"--name=tree", "--opendir=" + tmp.file("tree"), "--rw=read", "--bs=4k", "--output-format=json"});
    // fio prints "fio: opendir added 3 files" before its JSON; sluice's JSON is the whole output.
    const std::string document_text = program == "fio" ? r.out.substr(r.out.find('{')) : r.out;
    const auto doc = parse_document(document_text);
    ASSERT_TRUE(doc) << program << ": " << r.out;
    EXPECT_EQ((*doc)["jobs"][0]["read"]["io_bytes"].get<std::int64_t>(), (1 << 20) + (512 << 10) + (256 << 10))
        << program;
  }
}

TEST(Opendir, AddsToTheFilenamesAndRefusesWhatIsNotADirectory) {
  TempDir tmp;
  make_tree(tmp);
  std::ofstream(tmp.file("extra"), std::ios::binary) << std::string(64 << 10, 'e');
  const RunOutput r = run_as("sluice", {"--name=t", "--filename=" + tmp.file("extra"), "--opendir=" + tmp.file("tree"),
                                        "--rw=read", "--bs=4k", "--output-format=json"});
  const auto doc = parse_document(r.out);
  ASSERT_TRUE(doc);
  EXPECT_EQ((*doc)["jobs"][0]["read"]["io_bytes"].get<std::int64_t>(),
            (1 << 20) + (512 << 10) + (256 << 10) + (64 << 10));
  for (const std::string& bad : {tmp.file("missing"), tmp.file("extra")}) {
    const RunOutput refused = run_binary({"run", "--name=t", "--opendir=" + bad, "--rw=read"});
    EXPECT_EQ(refused.exit_code, 1) << describe(refused);
    EXPECT_NE(refused.err.find("opendir=" + bad + ": not a directory"), std::string::npos) << refused.err;
  }
  std::filesystem::create_directory(tmp.file("empty"));
  const RunOutput empty = run_binary({"run", "--name=t", "--opendir=" + tmp.file("empty"), "--rw=read"});
  EXPECT_NE(empty.err.find("holds no regular file"), std::string::npos) << empty.err;
}

}  // namespace
}  // namespace sluice::testing
