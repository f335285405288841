#pragma once
// fio's ACT profile (--profile=act, its profiles/act.c): the test is cut in slices of an hour; in each, every
// io of the act jobs is counted, and the ios slower than each of ACT's limits (1, 8 and 64 ms of latency). A
// slice fails when more than 5%, 1% or 0.1% of its ios exceed the respective limit; the first failed slice
// ends the test, and the report is fio's table of the slices with the verdict.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace sluice {

struct ActCriterion {
  std::uint64_t max_us;        // latency limit
  std::uint32_t max_permille;  // share of ios allowed over it, per thousand
};
inline constexpr std::array<ActCriterion, 3> kActCriteria = {{{1000, 50}, {8000, 10}, {64000, 1}}};
inline constexpr std::uint64_t kActSliceNs = 3600ull * 1'000'000'000ull;  // fio's SAMPLE_SEC

// [0]: the slice's ios; [1 + i]: those over kActCriteria[i] (each io counts once, at the highest limit).
using ActSlice = std::array<std::uint64_t, 4>;

// One job's slices as its ios complete.
class ActSlices {
 public:
  // duration_ns: the test's length (the slices: duration rounded up to whole slices).
  ActSlices(std::uint64_t slice_ns, std::uint64_t duration_ns, std::uint64_t start_ns);
  // An io of `lat_ns`, into the current slice (past the last slice: not counted, as fio).
  void count(std::uint64_t lat_ns) noexcept;
  // At `now_ns`: when the current slice is over, it is checked and the next begins. Returns fio's message
  // when the slice failed ("act: 6.2% exceeds pass criteria of 5.0%").
  std::optional<std::string> advance(std::uint64_t now_ns);
  const std::vector<ActSlice>& slices() const noexcept { return slices_; }

 private:
  std::uint64_t slice_ns_;
  std::uint64_t slice_start_ns_;
  std::size_t current_ = 0;
  std::vector<ActSlice> slices_;
};

// fio's act_show_all_stats: the slices' shares over each limit (fio prints them twice, as "trans" and
// "device") and the verdict, "act: test complete, device(s): PASSED" or FAILED.
std::string act_report(const std::vector<ActSlice>& slices);
// Whether every slice passes.
bool act_passed(const std::vector<ActSlice>& slices) noexcept;

}  // namespace sluice
