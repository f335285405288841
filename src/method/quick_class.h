#pragma once
// sluice quick's "behaves like" line: which of the practitioners' reference classes of storage the measured
// device is nearest to. Pure functions of two figures (no I/O), so tests check the rule with made-up devices.
//
// The rule (docs/guide.md, "sluice quick"): the distance from the device to a class is measured in decades
// (powers of ten), since the classes span four of them:
//   distance = sqrt( log10(lat / class_lat)^2 + (kQuickClassIopsWeight * log10(iops / class_iops))^2 )
// lat is the depth-1 4 KiB random read mean latency, iops the highest 4 KiB random read IOPS quick measured
// (its capacity search's curve, or depth 1 if higher). Latency counts fully and IOPS half: depth-1 latency is
// the device's own property, while peak IOPS also depends on how many requests it serves at once (a one-queue
// 0.1 ms device reaches 10k IOPS, not 200k, and is still a ramdisk; an 8-way 0.8 ms one reaches 10k and is an
// SSD). The nearest class is the answer; beyond kQuickClassPoorMatch decades it is a poor match, and said so.
#include <array>
#include <chrono>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace sluice {

struct QuickRow;

struct ReferenceClass {
  std::string_view name;  // ramdisk | ssd | sas15k | sata7k
  double iops = 0;        // 4 KiB random read IOPS at high depth
  double lat_ns = 0;      // 4 KiB random read latency at depth 1
};

// ramdisk 200k IOPS / 0.1 ms, ssd 40k / 0.8 ms, sas15k 180 / 9 ms, sata7k 100 / 12 ms: fastest first.
inline constexpr std::array<ReferenceClass, 4> kQuickReferenceClasses = {{
    {"ramdisk", 200000, 100e3},
    {"ssd", 40000, 800e3},
    {"sas15k", 180, 9e6},
    {"sata7k", 100, 12e6},
}};
inline constexpr double kQuickClassIopsWeight = 0.5;  // a decade of IOPS counts as half a decade of latency
inline constexpr double kQuickClassPoorMatch = 0.5;   // decades: beyond this the nearest class is a poor match

struct ClassDistance {
  std::string_view name;
  double distance = 0;  // decades
};

struct BehavesLike {
  std::string class_name;  // the nearest class; empty when a figure is missing
  std::string missing;     // why there is no class (which figure quick did not measure), else empty
  double iops = 0;         // the figures matched on
  double lat_ns = 0;
  double distance = 0;                   // to the nearest class, decades
  bool poor = false;                     // distance > kQuickClassPoorMatch
  std::string beyond;                    // poor matches outside the classes' span: "faster" / "slower" than every class
  std::vector<ClassDistance> distances;  // to every class, in kQuickReferenceClasses' order
  bool buffered = false;                 // the figures came through the page cache (no O_DIRECT)
};

// The distance in decades from a device of `iops` and `lat_ns` to `cls` (the rule above). Both figures > 0.
double class_distance(double iops, double lat_ns, const ReferenceClass& cls) noexcept;

// The nearest class to a device of `iops` and `lat_ns` (both > 0), with every distance; ties go to the
// faster class.
BehavesLike match_reference_class(double iops, double lat_ns);

// The figures from quick's rows and their match: IOPS = the highest of the "randread_capacity" row, its
// capacity curve (so a device whose concurrency 1 already exceeds --slo still has its figure) and the
// "randread_qd1" row; latency = the "randread_qd1" row's mean. A missing row or a figure of 0 gives no class and
// `missing` says which and why
// (`interrupted`: the run was stopped; otherwise the budget ran out first, or the test failed).
BehavesLike behaves_like_of(const std::vector<QuickRow>& rows, bool interrupted, bool direct);

// "sluice.quick.behaves_like": class (null when missing), the figures and where they came from, the distance,
// match (close | poor), beyond, the rule, and every class with its distance.
nlohmann::json behaves_like_json(const BehavesLike& b);

// The classes in a few words, fastest first: "ramdisk 200k IOPS / 100 us, ssd 40k / 800 us, ...".
std::string reference_classes_text();

// The table's line, e.g. "behaves like: ssd (distance 0.31 decades): 9800 IOPS (0.25x the class's 40000), ...".
std::string behaves_like_line(const BehavesLike& b);

}  // namespace sluice
