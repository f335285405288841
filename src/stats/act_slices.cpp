// ACT slices (act_slices.h), as fio's profiles/act.c counts and prints them.
#include "stats/act_slices.h"

#include <fmt/format.h>

namespace sluice {
namespace {

double percent_over(const ActSlice& slice, std::size_t criterion) noexcept {
  if (slice[0] == 0) return 0.0;
  return 100.0 * static_cast<double>(slice[1 + criterion]) / static_cast<double>(slice[0]);
}

// fio's show_slice: a criterion fails when its share x 10 reaches the allowed permille.
std::size_t failed_criteria(const ActSlice& slice) noexcept {
  std::size_t failed = 0;
  for (std::size_t i = 0; i < kActCriteria.size(); ++i) {
    if (percent_over(slice, i) * 10.0 >= kActCriteria[i].max_permille) ++failed;
  }
  return failed;
}

}  // namespace

ActSlices::ActSlices(std::uint64_t slice_ns, std::uint64_t duration_ns, std::uint64_t start_ns)
    : slice_ns_(slice_ns), slice_start_ns_(start_ns) {
  slices_.resize(static_cast<std::size_t>((duration_ns + slice_ns - 1) / slice_ns));
}

void ActSlices::count(std::uint64_t lat_ns) noexcept {
  if (current_ >= slices_.size()) return;
  ActSlice& slice = slices_[current_];
  ++slice[0];
  const std::uint64_t us = lat_ns / 1000;
  for (std::size_t i = kActCriteria.size(); i-- > 0;) {
    if (us > kActCriteria[i].max_us) {
      ++slice[1 + i];
      break;
    }
  }
}

std::optional<std::string> ActSlices::advance(std::uint64_t now_ns) {
  if (current_ >= slices_.size() || now_ns - slice_start_ns_ < slice_ns_) return std::nullopt;
  const ActSlice& slice = slices_[current_];
  std::optional<std::string> failure;
  for (std::size_t i = 0; i < kActCriteria.size() && slice[0] != 0; ++i) {
    const double permille = 1000.0 * static_cast<double>(slice[1 + i]) / static_cast<double>(slice[0]);
    if (permille < kActCriteria[i].max_permille) continue;
    failure =
        fmt::format("act: {:f}% exceeds pass criteria of {:f}%", permille / 10.0, kActCriteria[i].max_permille / 10.0);
    break;
  }
  slice_start_ns_ = now_ns;
  ++current_;
  return failure;
}

bool act_passed(const std::vector<ActSlice>& slices) noexcept {
  for (const ActSlice& slice : slices) {
    if (failed_criteria(slice) != 0) return false;
  }
  return true;
}

std::string act_report(const std::vector<ActSlice>& slices) {
  std::string out = "        trans                   device\n        %>(ms)                  %>(ms)\n slice";
  for (int column = 0; column < 2; ++column) {
    for (const ActCriterion& c : kActCriteria) out += fmt::format("\t {:2}", c.max_us / 1000);
  }
  out += "\n -----  -----   -----  ------   -----   -----  ------\n";
  for (std::size_t s = 0; s < slices.size(); ++s) {
    out += fmt::format("   {:2}", s + 1);
    for (int column = 0; column < 2; ++column) {
      for (std::size_t i = 0; i < kActCriteria.size(); ++i) out += fmt::format("\t{:2.2f}", percent_over(slices[s], i));
    }
    out += "\n";
  }
  out += fmt::format("\nact: test complete, device(s): {}\n", act_passed(slices) ? "PASSED" : "FAILED");
  return out;
}

}  // namespace sluice
