#include "workload/sprandom.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "common/error.h"
#include "workload/pattern_job.h"

namespace sluice {
namespace {

// `count` values evenly spaced from `first` to `last` (both included); {first} when count is 1.
std::vector<double> evenly_spaced(double first, double last, std::uint32_t count) {
  std::vector<double> values(count, first);
  if (count < 2) return values;
  const double step = (last - first) / (static_cast<double>(count) - 1.0);
  for (std::uint32_t i = 0; i < count; ++i) values[i] = first + static_cast<double>(i) * step;
  return values;
}

// Blocks a region is expected to remember, with room for six standard deviations (fio's estimate).
std::uint64_t remembered_estimate(std::uint64_t region_writes, double validity) {
  const double writes = static_cast<double>(region_writes);
  const double sigma = std::sqrt(writes * validity * (1.0 - validity));
  return static_cast<std::uint64_t>(std::ceil(writes * (1.0 - validity) + 6.0 * sigma));
}

}  // namespace

std::vector<double> sprandom_validity(std::uint32_t regions, double op) {
  const double write_amplification = 0.5 / op + 0.7;
  const double gc_validity = 1.0 - 1.0 / write_amplification;
  // The curve: validity falling evenly from 1 to the collected block's, each point taking space 1/validity;
  // x is the space taken so far.
  const std::vector<double> curve_validity = evenly_spaced(1.0, gc_validity, regions);
  std::vector<double> space(regions);
  double taken = 0;
  for (std::uint32_t i = 0; i < regions; ++i) {
    taken += 1.0 / curve_validity[i];
    space[i] = taken;
  }
  // Resampled at equal steps of space: linear interpolation, the end values outside the curve.
  const std::vector<double> at = evenly_spaced(space.front(), space.back(), regions);
  std::vector<double> validity(regions);
  std::size_t segment = 0;
  for (std::uint32_t i = 0; i < regions; ++i) {
    const double x = at[i];
    if (regions == 1 || x <= space.front()) {
      validity[i] = curve_validity.front();
      continue;
    }
    if (x >= space.back()) {
      validity[i] = curve_validity.back();
      continue;
    }
    while (x > space[segment + 1]) ++segment;  // the first segment whose end is at or past x
    const double x0 = space[segment];
    const double x1 = space[segment + 1];
    const double y0 = curve_validity[segment];
    const double y1 = curve_validity[segment + 1];
    validity[i] = std::fabs(x1 - x0) < 1e-9 ? y0 : y0 + (y1 - y0) * ((x - x0) / (x1 - x0));
  }
  std::reverse(validity.begin(), validity.end());  // written first: the least valid region
  return validity;
}

std::uint64_t sprandom_physical_bytes(std::uint64_t logical_bytes, double op, std::uint64_t block_bytes) noexcept {
  const std::uint64_t bytes =
      logical_bytes + static_cast<std::uint64_t>(std::ceil(static_cast<double>(logical_bytes) * op));
  return (bytes + block_bytes - 1) / block_bytes * block_bytes;
}

SprandomPlan plan_sprandom(std::uint64_t logical_bytes, std::uint64_t block_bytes, std::uint32_t regions, double op) {
  SprandomPlan plan;
  plan.logical_bytes = logical_bytes;
  plan.block_bytes = block_bytes;
  plan.physical_bytes = sprandom_physical_bytes(logical_bytes, op, block_bytes);
  plan.region_bytes = plan.physical_bytes / regions;
  plan.region_writes = plan.region_bytes / block_bytes;
  plan.regions = regions;
  if (plan.region_writes == 0) return plan;
  plan.validity = sprandom_validity(regions, op);
  plan.invalid_per_10000.reserve(regions);
  for (double v : plan.validity) {
    plan.invalid_per_10000.push_back(
        static_cast<std::uint32_t>(std::lround((1.0 - v) * static_cast<double>(kSprandomPrecision))));
  }
  return plan;
}

std::string sprandom_plan_problem(const SprandomPlan& plan, std::uint64_t cache_bytes) {
  const std::uint32_t regions = plan.regions;
  if (plan.region_writes == 0) {
    return fmt::format(
        "spr_num_regions={} makes regions of {} bytes, less than one {}-byte block of the {}-byte physical "
        "capacity; use at most {} regions",
        regions, plan.region_bytes, plan.block_bytes, plan.physical_bytes, plan.physical_bytes / plan.block_bytes);
  }
  if (cache_bytes != 0 && cache_bytes > plan.region_bytes) {
    return fmt::format(
        "spr_cs={} is larger than a region ({} bytes: {} physical bytes / spr_num_regions={}); use at most {} "
        "regions or a smaller spr_cs (fio: spr_cs must be smaller than region_sz)",
        cache_bytes, plan.region_bytes, plan.physical_bytes, regions, plan.physical_bytes / cache_bytes);
  }
  return "";
}

SprandomPlan job_sprandom_plan(const PatternJob& job, std::uint64_t logical_bytes, std::uint64_t block_bytes) {
  SprandomPlan plan = plan_sprandom(logical_bytes, block_bytes, job.workload.spr_num_regions, job.workload.spr_op);
  const std::string problem = sprandom_plan_problem(plan, job.workload.spr_cs);
  if (problem.empty()) return plan;
  const SourcePos& pos = plan.region_writes == 0 ? job.spr_num_regions_pos : job.spr_cs_pos;
  throw UserError(
      fmt::format("{}: job {}: sprandom over {} bytes: {}", pos.describe(), job.name, logical_bytes, problem));
}

SprandomOffsets::SprandomOffsets(const SprandomPlan& plan, std::uint64_t cache_bytes, std::uint64_t lfsr_blocks,
                                 std::uint64_t seed)
    : invalid_per_10000_(plan.invalid_per_10000),
      region_writes_(plan.region_writes),
      deferred_(cache_bytes != 0),
      lfsr_(std::max<std::uint64_t>(lfsr_blocks, 1), seed),
      rng_(mix64(seed ^ 0x5350524e44ull)),
      new_left_(plan.region_writes) {
  if (lfsr_blocks == 0) finished_ = empty_ = true;
  // Deferred repeats of one region are written while the next region remembers its own.
  const double least_valid = plan.validity.empty() ? 1.0 : plan.validity.front();
  const std::uint64_t estimate = remembered_estimate(region_writes_, least_valid) * (deferred_ ? 2 : 1);
  due_.reserve(estimate);
  remembered_.reserve(estimate);
}

bool SprandomOffsets::pop_due(std::uint64_t& block) noexcept {
  if (due_next_ >= due_.size()) return false;
  block = due_[due_next_++];
  return true;
}

// fio draws v from 0..10000 and keeps the block when v <= the region's invalid share (so a region meant to stay
// fully valid still loses one block in 10001 on average); the region past the plan keeps nothing more.
void SprandomOffsets::maybe_remember(std::uint64_t block) noexcept {
  const std::uint32_t share = region_ < invalid_per_10000_.size() ? invalid_per_10000_[region_] : 0;
  if (rng_.below(kSprandomPrecision + 1) <= share) remembered_.push_back(block);
}

// Every due block was written: the blocks this region remembered become the next region's repeats, and the
// LFSR fills the rest of it.
void SprandomOffsets::start_next_region() noexcept {
  ++region_;
  due_.swap(remembered_);
  remembered_.clear();
  due_next_ = 0;
  new_left_ = region_writes_ > due_.size() ? region_writes_ - due_.size() : 0;
}

bool SprandomOffsets::next_write(std::uint64_t& block) noexcept {
  if (finished_) return false;
  if (!deferred_ && pop_due(block)) {  // repeats first: the new region begins by invalidating the last one
    maybe_remember(block);
    return true;
  }
  if (new_left_ == 0) {
    if (deferred_ && pop_due(block)) {  // with a cache: the last region's repeats after this one's new blocks
      maybe_remember(block);
      return true;
    }
    if (region_ >= invalid_per_10000_.size()) {
      finished_ = true;
      return false;
    }
    start_next_region();
  }
  if (!lfsr_.next(block)) {
    if (deferred_ && pop_due(block)) return true;  // repeats already due still go out
    finished_ = true;
    return false;
  }
  if (new_left_ > 0) --new_left_;
  maybe_remember(block);
  return true;
}

bool SprandomOffsets::next_other(std::uint64_t& block) noexcept { return !finished_ && lfsr_.next(block); }

void SprandomOffsets::restart_lfsr() noexcept {
  lfsr_.restart();
  finished_ = empty_;
}

}  // namespace sluice
