#include "method/quick_plan.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>

#include "job/units.h"
#include "method/lint.h"

namespace sluice {
namespace {

struct StepInfo {
  QuickStep step;
  double weight;
  std::string_view name;
};

constexpr std::array<StepInfo, kQuickStepCount> kSteps = {{
    {QuickStep::kLayout, 15, "layout"},
    {QuickStep::kSeqWrite, 10, "sequential write"},
    {QuickStep::kSeqRead, 10, "sequential read"},
    {QuickStep::kRandReadCapacity, 20, "random read capacity"},
    {QuickStep::kRandWriteCapacity, 20, "random write capacity"},
    {QuickStep::kRandReadDepth1, 5, "random read depth 1"},
    {QuickStep::kRandWriteDepth1, 5, "random write depth 1"},
    {QuickStep::kFsyncWrite, 15, "fsync write"},
}};

std::uint64_t align_down(std::uint64_t bytes) { return bytes / kQuickSizeAlign * kQuickSizeAlign; }

Problem size_warning(std::string message) {
  Problem p;
  p.severity = Problem::Severity::kWarning;
  p.option = "size";
  p.message = std::move(message);
  return p;
}

std::string cache_words(const SizingInputs& in) {
  if (!in.direct) return "RAM (buffered I/O: the page cache holds the file)";
  return in.device_cache_bytes > 0 ? "the device's cache" : "the caches";
}

SizingDecision requested_size(const SizingInputs& in, SizingDecision d) {
  const std::uint64_t size = std::max(align_down(*in.requested), kQuickSizeAlign);
  if (size > in.free_bytes) {
    throw UserError(fmt::format("--size={}: only {} free on the filesystem", format_bytes(double(size)),
                                format_bytes(double(in.free_bytes))));
  }
  d.size = size;
  d.limited_by = SizeLimit::kRequested;
  if (double(size) > double(in.free_bytes) * kQuickFreeShare) {
    d.warnings.push_back(size_warning(fmt::format("--size={} takes more than half of the {} free",
                                                  format_bytes(double(size)), format_bytes(double(in.free_bytes)))));
  }
  return d;
}

}  // namespace

SizingDecision decide_size(const SizingInputs& in) {
  SizingDecision d;
  d.cache_bytes = in.device_cache_bytes + (in.direct ? 0 : in.ram_bytes);
  d.wanted = align_down(std::max<std::uint64_t>(kLintCacheFactor * d.cache_bytes, kQuickPreferredSize));
  if (in.requested) {
    d = requested_size(in, std::move(d));
  } else {
    const std::uint64_t free_cap = align_down(static_cast<std::uint64_t>(double(in.free_bytes) * kQuickFreeShare));
    if (free_cap < kQuickMinimumSize) {
      throw UserError(fmt::format("only {} free: quick needs at least {} free for its test file",
                                  format_bytes(double(in.free_bytes)),
                                  format_bytes(double(kQuickMinimumSize) / kQuickFreeShare)));
    }
    d.size = d.wanted;
    if (free_cap < d.size) {
      d.size = free_cap;
      d.limited_by = SizeLimit::kFreeSpace;
    }
    if (in.layout_bytes_per_second > 0 && in.layout_time.count() > 0) {
      const double seconds = std::chrono::duration<double>(in.layout_time).count();
      const auto budget_cap = align_down(static_cast<std::uint64_t>(in.layout_bytes_per_second * seconds));
      if (budget_cap < d.size) {
        d.size = std::min(std::max(budget_cap, kQuickMinimumSize), free_cap);
        d.limited_by = SizeLimit::kBudget;
      }
    }
    if (d.limited_by == SizeLimit::kFreeSpace) {
      d.warnings.push_back(size_warning(fmt::format(
          "test file shrunk to {} (wanted {}): only {} free, and quick "
          "takes at most half of it",
          format_bytes(double(d.size)), format_bytes(double(d.wanted)), format_bytes(double(in.free_bytes)))));
    } else if (d.limited_by == SizeLimit::kBudget) {
      d.warnings.push_back(size_warning(fmt::format(
          "test file limited to {} (wanted {}) so its layout fits the budget (writes at {}); the device's caches "
          "may flatter the results: use a larger --budget or --size",
          format_bytes(double(d.size)), format_bytes(double(d.wanted)), format_bandwidth(in.layout_bytes_per_second))));
    }
  }
  if (d.cache_bytes > 0 && d.size < kLintCacheFactor * d.cache_bytes) {
    d.warnings.push_back(
        size_warning(fmt::format("test area {} is smaller than 10x {} ({}): reads may be served "
                                 "from cache",
                                 format_bytes(double(d.size)), cache_words(in), format_bytes(double(d.cache_bytes)))));
    d.warnings.back().code = std::string(kLintSmallTestArea);
  }
  return d;
}

double step_weight(QuickStep step) noexcept { return kSteps[static_cast<std::size_t>(step)].weight; }
std::string_view step_name(QuickStep step) noexcept { return kSteps[static_cast<std::size_t>(step)].name; }

std::chrono::nanoseconds step_slot(QuickStep step, std::chrono::nanoseconds remaining) noexcept {
  if (remaining.count() <= 0) return std::chrono::nanoseconds(0);
  double rest = 0;
  for (std::size_t i = static_cast<std::size_t>(step); i < kSteps.size(); ++i) rest += kSteps[i].weight;
  const double share = rest > 0 ? step_weight(step) / rest : 0;
  return std::chrono::nanoseconds(std::llround(double(remaining.count()) * share));
}

TestTiming timing_for_slot(std::chrono::nanoseconds slot) noexcept {
  using std::chrono::milliseconds;
  using std::chrono::nanoseconds;
  TestTiming t;
  t.ramp = std::min<nanoseconds>(nanoseconds(slot.count() * 15 / 100), std::chrono::seconds(1));
  t.runtime = std::max<nanoseconds>(slot - t.ramp, milliseconds(200));
  return t;
}

}  // namespace sluice
