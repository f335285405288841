// The verify state's version 2 (verify_policy=fsynced): the "fsynced" line round-trips and is checked.
#include <gtest/gtest.h>

#include <fstream>

#include "common/error.h"
#include "run/verify_state.h"
#include "support/temp_dir.h"

namespace sluice {
namespace {

std::string fsynced_load_error(const std::string& path) {
  try {
    load_verify_state(path, "w");
  } catch (const UserError& e) {
    return e.what();
  }
  return "";
}

TEST(VerifyStateFsynced, RoundTripsAndSaysVersion2) {
  testing::TempDir dir;
  const std::string path = dir.file("s");
  save_verify_state(path, {"w", 16, {3}, 15});
  std::ifstream in(path);
  std::string first;
  std::getline(in, first);
  EXPECT_EQ(first, "sluice verify state 2");
  const VerifyState back = load_verify_state(path, "w");
  EXPECT_EQ(back.writes_issued, 16u);
  EXPECT_EQ(back.fsynced_writes, 15u);
  EXPECT_EQ(back.incomplete, (std::vector<std::uint64_t>{3}));
}

TEST(VerifyStateFsynced, Version1HasNoThreshold) {
  testing::TempDir dir;
  save_verify_state(dir.file("s"), {"w", 16, {}});
  EXPECT_FALSE(load_verify_state(dir.file("s"), "w").fsynced_writes.has_value());
  std::ofstream(dir.file("v1")) << "sluice verify state 1\njob w\nwrites 16\nincomplete\nfsynced 3\n";
  EXPECT_NE(fsynced_load_error(dir.file("v1")).find("unknown line 'fsynced 3'"), std::string::npos);
}

TEST(VerifyStateFsynced, RefusesAThresholdBeyondTheWritesOrMissing) {
  testing::TempDir dir;
  std::ofstream(dir.file("big")) << "sluice verify state 2\njob w\nwrites 16\nincomplete\nfsynced 17\n";
  EXPECT_NE(fsynced_load_error(dir.file("big")).find("'fsynced 17' is more than the 16 writes"), std::string::npos);
  std::ofstream(dir.file("none")) << "sluice verify state 2\njob w\nwrites 16\nincomplete\n";
  EXPECT_NE(fsynced_load_error(dir.file("none")).find("without its 'fsynced' line"), std::string::npos);
}

}  // namespace
}  // namespace sluice
