#pragma once
// fio's block_error_percentiles: for each trim-sized block of a job's file, how many trims it went through
// and how its life ended (fio's block_infos: the trim count in the low 29 bits, the state above), and the
// summary fio prints: percentiles of the trim counts over the blocks that were used, and a count per state.
#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

namespace sluice {

enum class BlockState : std::uint32_t { kUnwritten, kTrimmed, kWritten, kTrimFailure, kWriteFailure };
inline constexpr std::size_t kBlockStates = 5;

// fio's names for the states, in BlockState order.
std::string_view block_state_name(BlockState state) noexcept;

// One block's info word.
inline constexpr int kBlockStateShift = 29;
inline std::uint32_t block_trims(std::uint32_t info) noexcept { return info & ((1u << kBlockStateShift) - 1); }
inline BlockState block_state(std::uint32_t info) noexcept { return static_cast<BlockState>(info >> kBlockStateShift); }

// A completed trim of the block: trimmed once more, unless a failure already ended its life.
void note_block_trimmed(std::uint32_t& info) noexcept;
// A failed trim or write of the block: its life ends in that failure (the first failure stays).
void note_block_failed(std::uint32_t& info, bool trim) noexcept;

struct BlockLifetimeSummary {
  std::vector<std::pair<double, std::uint32_t>> percentiles;  // (percentile, trims), ascending
  std::array<std::uint64_t, kBlockStates> states{};           // blocks per state
};

// fio's calc_block_percentiles: the blocks sorted by (ended in a failure, trims, state), the unwritten ones
// left out of the percentiles. Without any block that was used the percentiles are empty.
BlockLifetimeSummary summarize_block_lifetimes(std::vector<std::uint32_t> infos, std::vector<double> percentile_list);

}  // namespace sluice
