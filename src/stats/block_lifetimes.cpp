// Block lifetimes of block_error_percentiles (block_lifetimes.h).
#include "stats/block_lifetimes.h"

#include <algorithm>
#include <tuple>

namespace sluice {
namespace {

std::uint32_t make_info(BlockState state, std::uint32_t trims) noexcept {
  return trims | (static_cast<std::uint32_t>(state) << kBlockStateShift);
}

bool ended(BlockState state) noexcept {
  return state == BlockState::kTrimFailure || state == BlockState::kWriteFailure;
}

// fio's block_state_category: unused, used, failed.
int category(BlockState state) noexcept {
  if (state == BlockState::kUnwritten) return 0;
  return ended(state) ? 2 : 1;
}

}  // namespace

std::string_view block_state_name(BlockState state) noexcept {
  static constexpr std::string_view kNames[kBlockStates] = {"unwritten", "trimmed", "written", "trim failure",
                                                            "write failure"};
  return kNames[static_cast<std::size_t>(state)];
}

void note_block_trimmed(std::uint32_t& info) noexcept {
  if (ended(block_state(info))) return;
  info = make_info(BlockState::kTrimmed, block_trims(info) + 1);
}

void note_block_failed(std::uint32_t& info, bool trim) noexcept {
  if (ended(block_state(info))) return;
  info = make_info(trim ? BlockState::kTrimFailure : BlockState::kWriteFailure, block_trims(info));
}

BlockLifetimeSummary summarize_block_lifetimes(std::vector<std::uint32_t> infos, std::vector<double> percentile_list) {
  BlockLifetimeSummary summary;
  for (std::uint32_t info : infos) summary.states[static_cast<std::size_t>(block_state(info))]++;
  std::sort(infos.begin(), infos.end(), [](std::uint32_t a, std::uint32_t b) {
    return std::make_tuple(category(block_state(a)), block_trims(a), static_cast<std::uint32_t>(block_state(a))) <
           std::make_tuple(category(block_state(b)), block_trims(b), static_cast<std::uint32_t>(block_state(b)));
  });
  const auto unused = static_cast<std::size_t>(std::count_if(
      infos.begin(), infos.end(), [](std::uint32_t i) { return block_state(i) == BlockState::kUnwritten; }));
  if (unused == infos.size()) return summary;
  std::sort(percentile_list.begin(), percentile_list.end());
  const std::size_t used = infos.size() - unused;
  for (double p : percentile_list) {
    if (p <= 0) continue;  // fio's list ends at its first 0
    // fio: index p x used / 100 past the unused blocks (its 100th would read one past the end: the last).
    const auto index =
        std::min(unused + static_cast<std::size_t>(p * static_cast<double>(used) / 100.0), infos.size() - 1);
    summary.percentiles.emplace_back(p, block_trims(infos[index]));
  }
  return summary;
}

}  // namespace sluice
