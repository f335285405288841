// `sluice restore` and the start-up replay, through the binary. The journals here point at files in a
// temporary directory, so no root and no real knob is involved.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "observe/knob_journal.h"
#include "support/temp_dir.h"

namespace sluice {
namespace {

using ::testing::HasSubstr;

struct Outcome {
  int exit_code = -1;
  std::string output;  // stdout and stderr
};

Outcome run_sluice(const std::string& state_dir, const std::string& args) {
  const std::string command = "SLUICE_STATE_DIR='" + state_dir + "' '" SLUICE_BINARY "' " + args + " 2>&1";
  Outcome out;
  std::FILE* pipe = ::popen(command.c_str(), "r");
  if (!pipe) return out;
  char buffer[4096];
  std::size_t n = 0;
  while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) out.output.append(buffer, n);
  const int status = ::pclose(pipe);
  out.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return out;
}

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::string text;
  std::getline(in, text);
  return text;
}

class RestoreCommand : public ::testing::Test {
 protected:
  void SetUp() override {
    knob_ = dir_.file("dirty_expire_centisecs");
    std::ofstream(knob_) << "100\n";  // what a killed run left
    journal_ = dir_.file("knobs.journal");
  }
  void write_journal() {
    std::ofstream(journal_) << format_journal({{"vm.dirty_expire_centisecs", "", knob_, "3000"}});
  }
  testing::TempDir dir_;
  std::string knob_;
  std::string journal_;
};

TEST_F(RestoreCommand, SaysNothingToRestoreWithoutAJournal) {
  const Outcome out = run_sluice(dir_.path(), "restore");
  EXPECT_EQ(out.exit_code, 0);
  EXPECT_EQ(out.output, "nothing to restore (no journal at " + journal_ + ")\n");
}

TEST_F(RestoreCommand, RestoresFromALeftoverJournal) {
  write_journal();
  const Outcome out = run_sluice(dir_.path(), "restore");
  EXPECT_EQ(out.exit_code, 0) << out.output;
  EXPECT_THAT(out.output, HasSubstr("restored vm.dirty_expire_centisecs = 3000"));
  EXPECT_EQ(slurp(knob_), "3000");
  EXPECT_FALSE(std::filesystem::exists(journal_));
}

TEST_F(RestoreCommand, AnyCommandReplaysALeftoverJournalFirst) {
  write_journal();
  const Outcome out = run_sluice(dir_.path(), "run --help");
  EXPECT_EQ(out.exit_code, 0);
  EXPECT_THAT(out.output, HasSubstr("a previous run left kernel knobs changed"));
  EXPECT_EQ(slurp(knob_), "3000");
  EXPECT_FALSE(std::filesystem::exists(journal_));
}

}  // namespace
}  // namespace sluice
