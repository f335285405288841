// `sluice interfere` verifies its flood on a model device (issue 35): on ext4 over a lab whose writes drain at
// 40 MiB/s, the background writer outruns the device whatever the machine's load (one writer of 1 MiB blocks
// fills the page cache at 150-1000 MiB/s here), so Dirty + Writeback must reach the kernel's throttle point and
// the report must say "flood verified"; the same run with the background files held below that point
// (--bg-size, with the default limits) must say plainly that it "does not test writeback interference", and why.
//
// The dirty limits are lowered for the test (vm.dirty_bytes = 128 MiB, vm.dirty_background_bytes = 64 MiB:
// throttle point 96 MiB) through a KnobSession, journalled and restored on every way out: with the default
// limits (20% of ~23 GiB here) a flood needs gigabytes of lab and tens of seconds of writeback after each
// phase. The lab's backing file is on tmpfs (/dev/shm), as in it_lab_writeback_test.cpp: with a small dirty
// limit, a daemon writing its backing file through a disk's page cache is throttled by the limit that the loop
// device's pages under writeback hold up. About 35 s.
#include <gtest/gtest.h>
#include <linux/magic.h>
#include <stdlib.h>
#include <sys/statfs.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "observe/knobs.h"
#include "support/it_test_util.h"
#include "support/machine_features.h"
#include "support/run_binary.h"
#include "support/tmpfs_lab.h"

namespace sluice::testing {
namespace interfere_lab_it {

// A device whose writes drain at 40 MiB/s, 4 at a time: any bulk writer outruns it.
constexpr const char* kSlowModel =
    "description = a slow write-through device for the flood test\n"
    "read_time = 500us\n"
    "servers = 4\n"
    "bandwidth = 40MiB/s\n";

// The lab's place on tmpfs, with the slow model's file.
class FloodLab : public TmpfsLab {
 public:
  FloodLab() { std::ofstream(model()) << kSlowModel; }
  std::string model() const { return file("slow40.model"); }
};

nlohmann::json interference(const RunOutput& r) {
  const std::optional<nlohmann::json> doc = parse_document(r.out);
  if (!doc || !doc->contains("sluice")) return nlohmann::json();
  return (*doc)["sluice"].value("interference", nlohmann::json());
}

const nlohmann::json* loaded_phase(const nlohmann::json& i) {
  for (const nlohmann::json& p : i["phases"]) {
    if (p["name"] == "loaded") return &p;
  }
  return nullptr;
}

TEST(LabInterfere, TheFloodIsVerifiedOnASlowDeviceAndRefusedWhenTheFilesAreTooSmall) {
  SLUICE_REQUIRE(kRoot);
  SLUICE_REQUIRE(kLoopDevices);
  SLUICE_REQUIRE(kFuse);
  SLUICE_REQUIRE(kMkfsExt4);
  FloodLab lab;
  if (!lab.on_tmpfs()) GTEST_SKIP() << "no tmpfs at /dev/shm for the lab's backing file (see the top of the file)";
  const RunOutput up = lab.sluice({"lab", "up", lab.model(), lab.dir(), "--fs=ext4", "--size=2g"});
  ASSERT_EQ(up.exit_code, 0) << describe(up);

  // With the default limits (gigabytes) and 32 MiB of background files: never reached, and said why. Dirty and
  // Writeback are machine-wide, so this half runs before the limits are lowered: other processes' dirty data (a
  // build beside) cannot make up the difference to a throttle point of gigabytes.
  const RunOutput small = lab.sluice(
      {"interfere", "--filename=" + lab.dir() + "/fg", "--size=32m", "--threads=1", "--budget=6s", "--bg-size=32m"});
  ASSERT_EQ(small.exit_code, 0) << describe(small);
  EXPECT_NE(small.out.find("the background writer never reached the dirty limit (peak Dirty"), std::string::npos)
      << small.out;
  EXPECT_NE(small.out.find("this run does not test writeback interference. Why: --bg-size=32 MiB is below the"),
            std::string::npos)
      << small.out;

  KnobSession knobs;  // restores both pairs on every way out of the test, failures included
  knobs.set("vm.dirty_bytes", "134217728");
  knobs.set("vm.dirty_background_bytes", "67108864");

  const RunOutput flood = lab.sluice({"interfere", "--filename=" + lab.dir() + "/fg", "--size=32m", "--threads=1",
                                      "--budget=16s", "--output-format=json"});
  ASSERT_EQ(flood.exit_code, 0) << describe(flood);
  const nlohmann::json i = interference(flood);
  ASSERT_TRUE(i.is_object()) << flood.out;
  const nlohmann::json* loaded = loaded_phase(i);
  ASSERT_NE(loaded, nullptr) << flood.out;
  const nlohmann::json& verdict = (*loaded)["flood"];
  RecordProperty("peak_dirty_plus_writeback",
                 std::to_string(verdict.value("peak_dirty_plus_writeback_bytes", std::uint64_t{0})));
  RecordProperty("writer_bps", std::to_string(verdict.value("writer_bytes_per_s", 0.0)));
  RecordProperty("device_bps", std::to_string(verdict.value("device_write_bytes_per_s", 0.0)));
  EXPECT_EQ(i["flood"]["verified"], true) << i["flood"].dump() << "\n" << verdict.dump();
  EXPECT_EQ(verdict["reached_dirty_limit"], true) << verdict.dump();
  EXPECT_GT(verdict.value("seconds_at_limit", 0.0), 0.0) << verdict.dump();
  // The throttle point is the midpoint of the limits the test set: (128 + 64) / 2 MiB.
  EXPECT_EQ(verdict["throttle_point_bytes"], 96ull << 20) << verdict.dump();
  EXPECT_EQ(verdict["device_wrote"], true) << verdict.dump();

  EXPECT_TRUE(knobs.restore_all().empty());
  const RunOutput down = lab.sluice({"lab", "down", lab.dir()});
  EXPECT_EQ(down.exit_code, 0) << describe(down);
}

}  // namespace interfere_lab_it
}  // namespace sluice::testing
