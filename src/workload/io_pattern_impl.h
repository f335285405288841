#pragma once
// IoPattern's private state (IoPattern::Impl), shared by the files that implement it, one kind of choice each:
// io_pattern.cpp (construction, files, passes, loops, zones, the end), io_pattern_sequential.cpp (sequential and
// holed/backward walks), io_pattern_random.cpp (uniform random: the coverage map, the LFSR, runs),
// io_pattern_sprandom.cpp (fio's sprandom plan), io_pattern_sequence.cpp (random_distribution=sequence).
// Include it only from those files.
#include <cstdint>
#include <vector>

#include "common/direction.h"
#include "common/rng.h"
#include "workload/block_sequence.h"
#include "workload/block_size_chooser.h"
#include "workload/distributions.h"
#include "workload/io_pattern.h"
#include "workload/lfsr.h"
#include "workload/random_map.h"
#include "workload/sprandom.h"

namespace sluice {

// An independent random stream `stream` of the job clone's `seed` (direction, sizes, offsets, each file's...).
inline std::uint64_t pattern_stream_seed(std::uint64_t seed, std::uint64_t stream) noexcept {
  return mix64(seed ^ (stream * 0xd1b54a32d192ed03ull));
}

struct IoPattern::Impl {
  enum class Outcome { kIssued, kPassDone };

  struct FileState {
    FileRegion region;
    FileRegion window;                        // where ios go: the region, or the current strided zone
    std::uint64_t file_end = 0;               // absolute end of the file (strided zones wrap there)
    std::uint64_t zone_bytes = 0;             // bytes transferred in the current zone
    std::uint64_t units = 0;                  // window capacity / granularity (the map's size)
    PerDirection<std::uint64_t> position{};   // relative offset of the next sequential io
    PerDirection<std::uint32_t> run_left{};   // random: ios left in the current sequential run
    PerDirection<std::uint64_t> run_start{};  // random: relative offset of the run's random io (identical)
    bool done = false;
    bool restarted = false;  // the file starts over: its next io has starts_pass
    RandomMap map;
    Lfsr lfsr;
    SprandomOffsets sprandom;
    BlockDistribution distribution;
  };

  // --- configuration
  bool random = false;
  bool mixed = false;
  Direction only_direction = Direction::kRead;
  std::uint32_t rwmixread = 50;
  bool use_map = false;
  bool use_distribution = false;
  bool use_lfsr = false;
  bool use_sprandom = false;
  bool sprandom_time_based = false;  // the plan's end, not a byte budget, ends the job (one more write after it)
  std::uint64_t sprandom_bytes = 0;  // the files' physical capacities (the budget unless time_based)
  bool use_sequence = false;         // random_distribution=sequence
  BlockSequence sequence;
  PerDirection<std::uint64_t> issued{};  // ios given per direction (the sequence's position, fio's io_issues)
  std::uint64_t lfsr_block = 4096;       // the bytes one LFSR value counts for (fio's rw_min_bs)
  std::uint64_t hole = 0;                // sequential: bytes skipped after each io
  std::uint64_t step_back = 0;   // sequential "rw=read:-8k": the next io starts this far before the last one's end
  std::uint32_t run_length = 1;  // random: ios per random offset
  bool identical_runs = false;   // rw_sequencer=identical: a run repeats its random offset
  std::uint32_t percentage_random = 100;  // random: share of ios at a new random offset (the rest sequential)
  bool strided = false;                   // zonemode=strided
  std::uint64_t zone_size = 0;
  std::uint64_t zone_range = 0;
  std::uint64_t zone_skip = 0;
  bool wrap = false;             // a file whose pass ends starts over at once
  bool loop_started = false;     // a new loop began and its first io is not out yet
  std::uint64_t loop_bytes = 0;  // io_size with loops: a loop is io_size bytes (positions go on across loops)
  std::uint64_t next_loop_at = 0;
  std::uint32_t loops = 1;
  std::uint64_t budget = 0;   // bytes; 0 = unlimited
  std::uint64_t max_ios = 0;  // 0 = unlimited
  std::uint64_t granularity = 4096;
  int granularity_shift = -1;  // log2(granularity) when a power of two: the hot path avoids divisions
  PerDirection<BlockSizeChooser> choosers;
  PerDirection<bool> active{};
  std::uint64_t planned = 0;

  // --- state
  Rng direction_rng;
  Rng size_rng;
  Rng offset_rng;
  std::vector<FileState> files;
  std::size_t next_file = 0;
  FileService file_service = FileService::kRoundRobin;
  std::uint32_t file_service_ios = 1;
  std::uint32_t ios_on_file = 0;  // ios sent to next_file since it was picked
  Rng file_rng;                   // random and distribution file choices
  BlockDistribution file_distribution;
  std::size_t files_done = 0;
  std::uint32_t passes_done = 0;
  std::uint64_t bytes_done = 0;
  std::uint64_t ios_done = 0;
  bool finished = false;

  Impl(const PatternJob& job, std::vector<FileRegion> regions, std::uint64_t seed);
  void configure_choosers(const PatternJob& job);
  void compute_planned(const PatternJob& job);
  bool next(NextIo& out) noexcept;
  Direction pick_direction() noexcept;
  void advance_file() noexcept {
    if (++next_file == files.size()) next_file = 0;
  }
  std::size_t pick_file() noexcept;
  std::uint64_t to_units(std::uint64_t bytes) const noexcept {
    return granularity_shift >= 0 ? bytes >> granularity_shift : bytes / granularity;
  }
  // The units an io of `length` bytes touches from a unit boundary (bs_unaligned lengths end inside one).
  std::uint64_t units_covering(std::uint64_t length) const noexcept { return to_units(length + granularity - 1); }
  bool start_new_pass() noexcept;
  void reset_file(FileState& file) noexcept;
  void reset_map(FileState& file) noexcept;
  void enter_zone(FileState& file, std::uint64_t start) noexcept;
  void next_zone(FileState& file) noexcept;
  Outcome issue(FileState& file, Direction direction, std::uint32_t length, NextIo& out) noexcept;
  std::uint64_t after_hole(const FileState& file, std::uint64_t end) const noexcept;
  Outcome sequential(FileState& file, Direction direction, std::uint32_t length, NextIo& out) noexcept;
  Outcome backwards(FileState& file, int d, std::uint32_t length, NextIo& out) noexcept;
  Outcome random_io(FileState& file, Direction direction, std::uint32_t length, NextIo& out) noexcept;
  bool continue_run(FileState& file, Direction direction, std::uint32_t length, NextIo& out) noexcept;
  bool repeat_run_start(FileState& file, Direction direction, std::uint32_t length, NextIo& out) noexcept;
  bool pick_from_map(FileState& file, Direction direction, std::uint32_t length, NextIo& out) noexcept;
  bool pick_from_lfsr(FileState& file, Direction direction, std::uint32_t length, NextIo& out) noexcept;
  void set_up_sprandom(const PatternJob& job, std::uint64_t seed);
  bool pick_from_sprandom(FileState& file, Direction direction, std::uint32_t length, NextIo& out) noexcept;
  bool pick_from_sequence(FileState& file, Direction direction, std::uint32_t length, NextIo& out) noexcept;
  void restart_io_numbers(NextIo* drawn) noexcept;
  bool place_in_window(const FileState& file, Direction direction, std::uint64_t offset, std::uint32_t length,
                       NextIo& out) const noexcept;
  void check_sequence_fits(const PatternJob& job, std::uint64_t length, std::size_t file) const;
  void pick_free_offset(FileState& file, Direction direction, std::uint32_t length, NextIo& out) noexcept;
};

}  // namespace sluice
