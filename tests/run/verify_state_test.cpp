#include "run/verify_state.h"

#include <gtest/gtest.h>

#include <fstream>

#include "common/error.h"
#include "support/temp_dir.h"

namespace sluice {
namespace {

TEST(VerifyState, NamedAsFioNamesItsStateFiles) {
  EXPECT_EQ(verify_state_path("", "w", 0), "local-w-0-verify.state");
  EXPECT_EQ(verify_state_path("/tmp/aux", "job a", 3), "/tmp/aux/local-job a-3-verify.state");
  EXPECT_EQ(verify_state_path("/tmp/aux/", "w", 1), "/tmp/aux/local-w-1-verify.state");
}

TEST(VerifyState, RoundTrips) {
  testing::TempDir dir;
  const std::string path = dir.file("s");
  save_verify_state(path, {"w", 2000, {17, 1999}});
  const VerifyState back = load_verify_state(path, "w");
  EXPECT_EQ(back.writes_issued, 2000u);
  EXPECT_EQ(back.incomplete, (std::vector<std::uint64_t>{17, 1999}));
}

std::string load_error(const std::string& path, const std::string& job) {
  try {
    load_verify_state(path, job);
  } catch (const UserError& e) {
    return e.what();
  }
  return "";
}

TEST(VerifyState, RefusesMissingForeignAndDamagedFiles) {
  testing::TempDir dir;
  EXPECT_NE(load_error(dir.file("none"), "w").find("cannot read"), std::string::npos);
  save_verify_state(dir.file("s"), {"other", 1, {}});
  EXPECT_NE(load_error(dir.file("s"), "w").find("the state of job 'other', not of job 'w'"), std::string::npos);
  std::ofstream(dir.file("fio")) << std::string("\x01\x00\x00\x00", 4);
  EXPECT_NE(load_error(dir.file("fio"), "w").find(":1: not a sluice verify state"), std::string::npos);
  std::ofstream(dir.file("bad")) << "sluice verify state 1\njob w\nwrites 12x\n";
  EXPECT_NE(load_error(dir.file("bad"), "w").find(":3: '12x' is not a number"), std::string::npos);
}

}  // namespace
}  // namespace sluice
