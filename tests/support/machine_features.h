#pragma once
// What this kernel and machine offer the tests. Each feature is probed at most once per test binary and the
// answer cached; a test that needs one starts with SLUICE_REQUIRE(kX) and skips, naming the feature
// and why it is absent, instead of failing where a kernel or a package lacks it (liburing's exit 77).
// docs/reliability.md lists the probes and the tests that need each.
//
// SLUICE_TEST_WITHOUT=name,name (the names of feature_name(), e.g. "fio,ext4_move_ext") makes those probes
// answer "absent" whatever the machine has: scripts/fresh-check.sh uses it to run the skip paths themselves.
#include <gtest/gtest.h>

#include <array>
#include <cstdlib>
#include <mutex>
#include <optional>
#include <sstream>
#include <string>

#include "support/feature_probes.h"

namespace sluice::testing {

enum class Feature {
  kRoot,
  kODirectTmp,
  kExt4MoveExt,
  kIoUring,
  kIoUringOps,
  kCgroupV1Blkio,
  kCgroupV2Io,
  kNuma,
  kLoopDevices,
  kFuse,
  kNetNamespaces,
  kMkfsExt4,
  kMkfsXfs,
  kMpirun,
  kChromium,
  kFio,
  kFioExamples,
  kSysbench,
  kPostmark,
  kBonnie,
  kWrk,
  kAb,
  kNginx,
  kPostal,
  kAiosmtpd,
  kStrace,
  kStressNg,
  kNbdkit,
  kCount
};

// Whether a feature is there; when not, `reason` says which and why ("EXT4_IOC_MOVE_EXT: Operation not
// permitted on this kernel").
struct FeatureProbe {
  bool available = false;
  std::string reason;
};

// The feature's short name, as SLUICE_TEST_WITHOUT and docs/reliability.md spell it.
inline const char* feature_name(Feature f) {
  static constexpr std::array<const char*, static_cast<std::size_t>(Feature::kCount)> kNames = {
      "root",     "odirect_tmp", "ext4_move_ext", "io_uring", "io_uring_ops", "cgroup_v1_blkio", "cgroup_v2_io",
      "numa",     "loop",        "fuse",          "netns",    "mkfs_ext4",    "mkfs_xfs",        "mpirun",
      "chromium", "fio",         "fio_examples",  "sysbench", "postmark",     "bonnie++",        "wrk",
      "ab",       "nginx",       "postal",        "aiosmtpd", "strace",       "stress-ng",       "nbdkit"};
  return kNames[static_cast<std::size_t>(f)];
}

namespace detail {

// "" when present, else why not. Runs the probe itself (uncached).
inline std::string run_probe(Feature f) {
  switch (f) {
    case Feature::kRoot:
      return probe_root();
    case Feature::kODirectTmp:
      return probe_o_direct_tmp();
    case Feature::kExt4MoveExt:
      return probe_ext4_move_ext();
    case Feature::kIoUring:
      return probe_io_uring();
    case Feature::kIoUringOps:
      return probe_io_uring_ops();
    case Feature::kCgroupV1Blkio:
      return probe_cgroup_v1_blkio();
    case Feature::kCgroupV2Io:
      return probe_cgroup_v2_io();
    case Feature::kNuma:
      return probe_numa();
    case Feature::kLoopDevices:
      return probe_loop_devices();
    case Feature::kFuse:
      return probe_fuse();
    case Feature::kNetNamespaces:
      return probe_net_namespaces();
    case Feature::kMkfsExt4:
      return probe_program("mkfs.ext4", "e2fsprogs");
    case Feature::kMkfsXfs:
      return probe_program("mkfs.xfs", "xfsprogs");
    case Feature::kMpirun:
      return probe_program("mpirun", "openmpi-bin");
    case Feature::kChromium:
      return probe_program("chromium", "chromium");
    case Feature::kFio:
      return probe_fio();
    case Feature::kFioExamples:
      return probe_path("/usr/share/doc/fio/examples", "fio-examples");
    case Feature::kSysbench:
      return probe_program("sysbench", "sysbench");
    case Feature::kPostmark:
      return probe_program("postmark", "postmark");
    case Feature::kBonnie:
      return probe_program("bonnie++", "bonnie++");
    case Feature::kWrk:
      return probe_program("wrk", "wrk");
    case Feature::kAb:
      return probe_program("ab", "apache2-utils");
    case Feature::kNginx:
      return probe_nginx();
    case Feature::kPostal:
      return probe_program("postal", "postal");
    case Feature::kAiosmtpd:
      return probe_python_module("aiosmtpd", "python3-aiosmtpd");
    case Feature::kStrace:
      return probe_program("strace", "strace");
    case Feature::kStressNg:
      return probe_program("stress-ng", "stress-ng");
    case Feature::kNbdkit:
      return probe_nbdkit();
    case Feature::kCount:
      break;
  }
  return "unknown feature";
}

// True when SLUICE_TEST_WITHOUT names the feature.
inline bool withheld(Feature f) {
  const char* list = std::getenv("SLUICE_TEST_WITHOUT");
  if (list == nullptr) return false;
  std::istringstream names(list);
  for (std::string name; std::getline(names, name, ',');) {
    if (name == feature_name(f)) return true;
  }
  return false;
}

}  // namespace detail

// Probes `f` once per process (thread-safe) and returns the cached answer.
inline const FeatureProbe& probe(Feature f) {
  static std::mutex mutex;
  static std::array<std::optional<FeatureProbe>, static_cast<std::size_t>(Feature::kCount)> cache;
  const std::lock_guard lock(mutex);
  std::optional<FeatureProbe>& slot = cache[static_cast<std::size_t>(f)];
  if (!slot) {
    FeatureProbe answer;
    if (detail::withheld(f)) {
      answer.reason = std::string(feature_name(f)) + ": withheld by SLUICE_TEST_WITHOUT";
    } else {
      const std::string why = detail::run_probe(f);
      answer.available = why.empty();
      answer.reason = why.empty() ? "" : std::string(feature_name(f)) + ": " + why;
    }
    slot = answer;
  }
  return *slot;
}

inline bool have(Feature f) { return probe(f).available; }

}  // namespace sluice::testing

// Skips the current test (from a TEST body or a fixture's SetUp) unless the feature is there, naming it and
// why it is not. `feature` is an enumerator of Feature: SLUICE_REQUIRE(kFio).
#define SLUICE_REQUIRE(feature)                                         \
  do {                                                                  \
    const ::sluice::testing::FeatureProbe& sluice_probe_ =              \
        ::sluice::testing::probe(::sluice::testing::Feature::feature);  \
    if (!sluice_probe_.available) GTEST_SKIP() << sluice_probe_.reason; \
  } while (false)
