// IoPattern implementation. Choices worth knowing (fio semantics unless said):
//  - Files are served as fio's file_service_type says: round robin (default), sequential (one file to the end
//    of its pass, then the next), random (a random file whose pass is not done), with ':N' ios per file before
//    switching, or by a zipf/pareto/normal distribution over the files (one io each).
//  - Sequential: each file keeps a position per direction (fio's last_pos[ddir]), so in rw/readwrite the
//    reads and the writes each walk the file from its start. An io never crosses the region end: when the
//    next one would, a shorter configured size that fits is used, else that file's pass ends.
//  - rw_sequential_run ("rw=...:N", fio's offset modifier): for sequential modes N is a byte count added
//    after each io, making holes ("rw=write:4k" skips 4 KiB after every write; the parser stores the size).
//    As fio's get_next_seq_offset: when an io ends before the file's end but the hole carries the position
//    (relative to the region) to or past the file's size, the walk starts over at the region start in the
//    same pass (so size bytes may still move); otherwise the pass ends where the next io no longer fits
//    (bs=1m with read:512k over 128 MiB reads 85 ios, 87,040 KiB, as fio 3.33; over 16 MiB, 11 ios).
//    for random modes a new random offset is drawn every N ios and the N-1 between continue sequentially
//    from it (fio's default rw_sequencer=sequential); with rw_sequencer=identical the N-1 reuse the random
//    offset itself (fio's last_start), so each random block is read or written N times in a row.
//  - random_generator=lfsr (uniform random only): as fio, offsets are block numbers from a full-period LFSR
//    over window length / the smallest block size (workload/lfsr.h), times the direction's alignment; each
//    block comes once per pass and no map is kept, norandommap or not. A pass ends when the LFSR's period is
//    used up (or an io no longer fits); a new pass replays the same order, as fio's lfsr_reset.
//  - Random with the map (default): the region is cut in units of the granularity g (gcd of every length
//    and alignment); each unit is used once per pass. As in fio, an io that would overlap used units is
//    shortened to the free run at its start. norandommap: uniform offsets, repeats allowed. Non-uniform
//    distributions never use the map (fio turns norandommap on for them).
//  - random_distribution=sequence (workload/block_sequence.h): the direction's io number picks the block, in
//    units of its smallest size, placed at its alignment (fio: b * ba); a block past the region ends the pass.
//  - End (not time_based): after `loops` passes over all files, after (io_size or the sum of the regions)
//    x loops bytes, or after number_ios ios, whichever comes first. The last io is shortened to a
//    configured size that keeps the byte total exact. With io_size (or time_based) a file whose pass ends
//    starts over at once, so io_size may exceed the region, as in fio.
//  - zonemode=strided (one file only, as fio): the ios of both kinds above stay in a window of zone_range
//    bytes (the random map and distributions cover one window) until zone_size bytes were transferred; then
//    the window moves zone_range + zone_skip on, back to the region start once it starts past the file's
//    end, with fresh positions and map. Inside a window positions and the map start over as with
//    time_based; only the byte budget ends the job. A window cut by the file's end is used as far as it goes
//    (fio ends the job at the first io that does not fit there).
//  - The first io of each later pass over a file (a wrap, a new loop) says so (starts_pass): fio drops the
//    file's cached pages then, so buffered reads of every pass come from the storage. The first io of each
//    later loop says so too (starts_loop: a new pass of all files, or with io_size the first io past each
//    io_size bytes, where positions carry on as in fio), for unlink_each_loop.
//  - sprandom (one file; workload/sprandom.h): the writes' blocks come from the file's sprandom plan, other
//    directions' (randrw) from the same LFSR, as fio. The job ends when the plan is written: the budget is the
//    physical capacity (fio sets io_size to it), with one pass and one loop, time_based or not.
//  - Seeds: direction, size and offset choices use independent streams, so changing rwmixread or bs does
//    not change the offset sequence's randomness.
#include "workload/io_pattern.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <numeric>

#include "common/error.h"
#include "common/rng.h"
#include "workload/block_sequence.h"
#include "workload/block_size_chooser.h"
#include "workload/distributions.h"
#include "workload/lfsr.h"
#include "workload/random_map.h"
#include "workload/sprandom.h"

namespace sluice {

namespace {
std::uint64_t derive_seed(std::uint64_t seed, std::uint64_t stream) noexcept {
  return mix64(seed ^ (stream * 0xd1b54a32d192ed03ull));
}
}  // namespace

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
  bool use_sequence = false;  // random_distribution=sequence
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

  Impl(const JobSpec& job, std::vector<FileRegion> regions, std::uint64_t seed);
  void configure_choosers(const JobSpec& job);
  void compute_planned(const JobSpec& job);
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
  void set_up_sprandom(const JobSpec& job, std::uint64_t seed);
  bool pick_from_sprandom(FileState& file, Direction direction, std::uint32_t length, NextIo& out) noexcept;
  bool pick_from_sequence(FileState& file, Direction direction, std::uint32_t length, NextIo& out) noexcept;
  bool place_in_window(const FileState& file, Direction direction, std::uint64_t offset, std::uint32_t length,
                       NextIo& out) const noexcept;
  void check_sequence_fits(const JobSpec& job, std::uint64_t length, std::size_t file) const;
  void pick_free_offset(FileState& file, Direction direction, std::uint32_t length, NextIo& out) noexcept;
};

IoPattern::Impl::Impl(const JobSpec& job, std::vector<FileRegion> regions, std::uint64_t seed)
    : direction_rng(derive_seed(seed, 1)),
      size_rng(derive_seed(seed, 2)),
      offset_rng(derive_seed(seed, 3)),
      file_rng(derive_seed(seed, 4)) {
  random = job.is_random();
  mixed = job.is_mixed();
  only_direction = job.does_trims() ? Direction::kTrim : (job.does_writes() ? Direction::kWrite : Direction::kRead);
  rwmixread = std::min<std::uint32_t>(job.rwmixread, 100);
  active[index_of(Direction::kRead)] = job.does_reads();
  active[index_of(Direction::kWrite)] = job.does_writes();
  active[index_of(Direction::kTrim)] = job.does_trims();
  configure_choosers(job);

  use_distribution = random && job.random_distribution.kind != DistributionKind::kRandom;
  use_sprandom = random && job.sprandom;
  if (use_sprandom) use_distribution = false;
  use_sequence = use_distribution && job.random_distribution.kind == DistributionKind::kSequence;
  if (use_sequence) sequence = BlockSequence(job.random_distribution.sequence, job.random_sequence_stride);
  use_lfsr = random && job.lfsr_offsets && !use_distribution && !use_sprandom;
  use_map = random && !job.norandommap && !use_distribution && !use_lfsr && !use_sprandom;
  if (use_lfsr || use_sprandom) {
    std::uint64_t smallest = UINT64_MAX;
    for (Direction d : kAllDirections) {
      if (active[index_of(d)]) smallest = std::min<std::uint64_t>(smallest, choosers[index_of(d)].min());
    }
    lfsr_block = smallest == UINT64_MAX || smallest == 0 ? granularity : smallest;
  }
  if (random)
    run_length = std::max<std::uint32_t>(job.rw_sequential_run, 1);
  else if (job.rw_backwards)
    step_back = job.rw_sequential_run;
  else
    hole = job.rw_sequential_run;
  identical_runs = job.rw_sequencer_identical;
  percentage_random = std::min<std::uint32_t>(job.percentage_random, 100);
  strided = job.zones.zone_strided && job.zones.zone_size != 0 && regions.size() == 1;
  if (strided) {
    zone_size = job.zones.zone_size;
    zone_range = job.zones.zone_range != 0 ? job.zones.zone_range : job.zones.zone_size;
    zone_skip = job.zones.zone_skip;
  }
  wrap = job.time_based || job.io_size != 0 || strided;
  loops = std::max<std::uint32_t>(job.loops, 1);
  max_ios = job.number_ios;

  std::uint64_t total = 0;
  for (std::size_t i = 0; i < regions.size(); ++i) {
    FileState file;
    file.region = regions[i];
    file.window = regions[i];
    file.file_end = std::max(regions[i].start + regions[i].length, regions[i].file_size);
    file.units = (strided ? zone_range : regions[i].length) / granularity;
    if (use_map) file.map = RandomMap(file.units);
    if (use_lfsr) file.lfsr = Lfsr((strided ? zone_range : regions[i].length) / lfsr_block, derive_seed(seed, 300 + i));
    if (use_sequence) check_sequence_fits(job, strided ? zone_range : regions[i].length, i);
    if (use_distribution && !use_sequence) {
      file.distribution =
          BlockDistribution(job.random_distribution, file.units, derive_seed(seed, 100 + i), granularity);
      if (file.distribution.zones_end() > file.units) {
        throw UserError(fmt::format(
            "job {}: random_distribution=zoned_abs: the zones end at {} bytes, beyond the {} bytes of the region "
            "of file {} (fio: zoned_abs sizes exceed file size); make the zones smaller or the file larger",
            job.name, file.distribution.zones_end() * granularity, file.units * granularity, i + 1));
      }
    }
    total += regions[i].length;
    if (strided) enter_zone(file, file.region.start);
    files.push_back(std::move(file));
  }
  file_service = job.target.file_service;
  file_service_ios = std::max<std::uint32_t>(job.target.file_service_ios, 1);
  if (file_service == FileService::kDistribution && !files.empty()) {
    file_distribution = BlockDistribution(job.target.file_distribution, files.size(), derive_seed(seed, 5), 1);
  }
  if (!job.time_based) budget = (job.io_size != 0 ? job.io_size : total) * loops;
  // With io_size a loop is its bytes (positions go on across loops).
  if (!job.time_based && job.io_size != 0 && loops > 1) loop_bytes = next_loop_at = job.io_size;
  if (!job.time_based && budget == 0) finished = true;
  if (files.empty()) finished = true;
  if (use_sprandom) set_up_sprandom(job, seed);
  compute_planned(job);
}

void IoPattern::Impl::configure_choosers(const JobSpec& job) {
  std::uint64_t g = 0;
  for (Direction d : kAllDirections) {
    const int i = index_of(d);
    choosers[i] = BlockSizeChooser(job.bs[i], job.bsrange[i], job.bssplit[i], job.blockalign[i], job.bs_unaligned);
    if (active[i]) g = std::gcd(g, std::uint64_t{choosers[i].granularity()});
  }
  granularity = g == 0 ? 4096 : g;
  if (std::has_single_bit(granularity)) granularity_shift = std::countr_zero(granularity);
}

void IoPattern::Impl::compute_planned(const JobSpec& job) {
  if ((job.time_based && !use_sprandom) || finished) return;
  planned = budget;
  if (!wrap && !use_sprandom) {
    // A pass covers whole units only: a tail shorter than the granularity is never used.
    std::uint64_t pass = 0;
    for (const auto& file : files) pass += file.units * granularity;
    planned = std::min(planned, pass * loops);
  }
  if (max_ios != 0) {
    double mean = choosers[index_of(only_direction)].mean();
    if (mixed) {
      mean = (rwmixread * choosers[index_of(Direction::kRead)].mean() +
              (100 - rwmixread) * choosers[index_of(Direction::kWrite)].mean()) /
             100.0;
    }
    planned = std::min<std::uint64_t>(planned, static_cast<std::uint64_t>(static_cast<double>(max_ios) * mean));
  }
}

Direction IoPattern::Impl::pick_direction() noexcept {
  if (!mixed) return only_direction;
  return direction_rng.below(100) < rwmixread ? Direction::kRead : Direction::kWrite;
}

void IoPattern::Impl::reset_file(FileState& file) noexcept {
  file.position = {};
  file.run_left = {};
  file.done = false;
  file.restarted = true;
  if (use_map) reset_map(file);
  if (use_lfsr) file.lfsr.restart();
}

// An empty map, with the units past a window cut short by the file's end marked as used.
void IoPattern::Impl::reset_map(FileState& file) noexcept {
  file.map.reset();
  const std::uint64_t usable = to_units(file.window.length);
  if (usable < file.map.blocks()) file.map.take(usable, file.map.blocks() - usable);
}

void IoPattern::Impl::enter_zone(FileState& file, std::uint64_t start) noexcept {
  file.window = {start, std::min(zone_range, file.file_end - start), file.region.file_size};
  file.zone_bytes = 0;
  file.position = {};
  file.run_left = {};
  if (use_map) reset_map(file);
  if (use_lfsr) file.lfsr.restart();
}

void IoPattern::Impl::next_zone(FileState& file) noexcept {
  const std::uint64_t start = file.window.start + zone_range + zone_skip;
  enter_zone(file, start >= file.file_end ? file.region.start : start);
}

// One io in `file`: in its region, or in its current strided zone (moving on when zone_size bytes are done,
// or when the zone, cut by the file's end, has no room for the io).
IoPattern::Impl::Outcome IoPattern::Impl::issue(FileState& file, Direction direction, std::uint32_t length,
                                                NextIo& out) noexcept {
  if (!strided) return random ? random_io(file, direction, length, out) : sequential(file, direction, length, out);
  if (file.zone_bytes >= zone_size) next_zone(file);
  for (int tries = 0; tries < 2; ++tries) {
    out.length = length;
    const Outcome outcome = random ? random_io(file, direction, length, out) : sequential(file, direction, length, out);
    if (outcome == Outcome::kIssued) {
      file.zone_bytes += out.length;
      return outcome;
    }
    next_zone(file);
  }
  return Outcome::kPassDone;
}

bool IoPattern::Impl::start_new_pass() noexcept {
  ++passes_done;
  if (!wrap && passes_done >= loops) return false;
  for (auto& file : files) reset_file(file);
  files_done = 0;
  loop_started = !wrap;
  return true;
}

bool IoPattern::Impl::next(NextIo& out) noexcept {
  if (finished) return false;
  if ((max_ios != 0 && ios_done >= max_ios) || (budget != 0 && bytes_done >= budget)) {
    finished = true;
    return false;
  }
  const Direction direction = pick_direction();
  const auto& chooser = choosers[index_of(direction)];
  std::uint32_t length = chooser.choose(size_rng);
  if (budget != 0 && length > budget - bytes_done) length = chooser.largest_fitting(budget - bytes_done);
  // Each file gets at most two tries (once before and once after a new pass starts).
  for (std::size_t attempt = 0; length != 0 && attempt < 2 * files.size() + 1; ++attempt) {
    const std::size_t index = pick_file();
    FileState& file = files[index];
    out.length = length;
    const Outcome outcome = issue(file, direction, length, out);
    if (outcome == Outcome::kIssued) {
      out.direction = direction;
      out.file_index = static_cast<int>(index);
      out.starts_pass = file.restarted;
      if (loop_bytes != 0 && bytes_done >= next_loop_at) {  // the first io past a loop's io_size bytes
        loop_started = true;
        next_loop_at += loop_bytes;
      }
      out.starts_loop = loop_started;
      file.restarted = false;
      loop_started = false;
      bytes_done += out.length;
      ++ios_done;
      ++issued[index_of(direction)];
      return true;
    }
    file.done = true;
    if (++files_done == files.size() && !start_new_pass()) break;
  }
  finished = true;
  return false;
}

// The file of the next io (one whose pass is not done; the caller makes sure there is one).
std::size_t IoPattern::Impl::pick_file() noexcept {
  // One file: every service type picks it (the file generator's draws and counts concern only the choice).
  if (files.size() == 1) return 0;
  if (file_service == FileService::kDistribution) {
    next_file = static_cast<std::size_t>(file_distribution(file_rng));
  } else if (file_service == FileService::kRandom && ios_on_file == 0) {
    next_file = static_cast<std::size_t>(file_rng.below(files.size()));
  }
  if (files[next_file].done) ios_on_file = 0;
  while (files[next_file].done) advance_file();  // fio: a done file is passed over
  const std::size_t index = next_file;
  if (file_service == FileService::kSequential) return index;
  if (++ios_on_file >= file_service_ios) {
    ios_on_file = 0;
    if (file_service == FileService::kRoundRobin) advance_file();
  }
  return index;
}

// The relative position of the io after one that ended at `end` (relative): `end` plus the hole. As fio's
// get_next_seq_offset: an io that ended at the file's end ends the pass (no wrap); else the position with the
// hole, counted from the region start, is compared with the file's size, and at or past it the walk wraps to
// the region start. (fio sets the position to the region's offset and then adds the offset again, landing at
// twice it; sluice starts at the region start, the same place for a region at offset 0.)
std::uint64_t IoPattern::Impl::after_hole(const FileState& file, std::uint64_t end) const noexcept {
  if (hole == 0 || end == 0 || file.window.start + end >= file.file_end) return end;
  const std::uint64_t next = end + hole;
  return next >= file.file_end ? 0 : next;
}

IoPattern::Impl::Outcome IoPattern::Impl::sequential(FileState& file, Direction direction, std::uint32_t length,
                                                     NextIo& out) noexcept {
  const int d = index_of(direction);
  const std::uint64_t region_length = file.window.length;
  if (step_back != 0) return backwards(file, d, length, out);
  for (int tries = 0; tries < 2; ++tries) {
    const std::uint64_t position = file.position[d];
    const std::uint64_t room = position < region_length ? region_length - position : 0;
    const std::uint32_t fitting = length <= room ? length : choosers[d].largest_fitting(room);
    if (fitting != 0) {
      out.offset = file.window.start + position;
      out.length = fitting;
      file.position[d] = after_hole(file, position + fitting);
      return Outcome::kIssued;
    }
    if (!wrap || position == 0) break;
    // time_based / io_size: this direction starts over (fio resets last_pos).
    file.position[d] = 0;
    file.restarted = !strided;  // going over a strided zone again is not a new pass over the file
  }
  return Outcome::kPassDone;
}

// fio's negative offset modifier: position holds the end of the last io (0 = none yet, as fio's last_pos at
// the file start). The next io starts step_back before it; at 0, or when that would fall below the start,
// it starts step_back before the region end. The pass never ends by position: size / io_size bounds it.
IoPattern::Impl::Outcome IoPattern::Impl::backwards(FileState& file, int d, std::uint32_t length,
                                                    NextIo& out) noexcept {
  const std::uint64_t region_length = file.window.length;
  if (region_length < step_back) return Outcome::kPassDone;
  const std::uint64_t last_end = file.position[d] == 0 ? region_length : file.position[d];
  const std::uint64_t position = last_end >= step_back ? last_end - step_back : region_length - step_back;
  const std::uint64_t room = region_length - position;
  const std::uint32_t fitting = length <= room ? length : choosers[d].largest_fitting(room);
  if (fitting == 0) return Outcome::kPassDone;
  out.offset = file.window.start + position;
  out.length = fitting;
  file.position[d] = position + fitting;
  return Outcome::kIssued;
}

IoPattern::Impl::Outcome IoPattern::Impl::random_io(FileState& file, Direction direction, std::uint32_t length,
                                                    NextIo& out) noexcept {
  const int d = index_of(direction);
  // percentage_random: the other ios continue right after the previous one (fio's mix of sequential ios).
  if (percentage_random < 100 && offset_rng.next() % 100 >= percentage_random &&
      continue_run(file, direction, length, out)) {
    return Outcome::kIssued;
  }
  if (run_length > 1 && file.run_left[d] > 0) {
    --file.run_left[d];
    if (identical_runs ? repeat_run_start(file, direction, length, out) : continue_run(file, direction, length, out)) {
      return Outcome::kIssued;
    }
  }
  if (use_sprandom) {
    if (!pick_from_sprandom(file, direction, length, out)) return Outcome::kPassDone;
  } else if (use_lfsr) {
    if (!pick_from_lfsr(file, direction, length, out)) return Outcome::kPassDone;
  } else if (use_map) {
    if (!pick_from_map(file, direction, length, out)) {
      if (!wrap || file.map.free_blocks() == to_units(file.window.length)) return Outcome::kPassDone;
      reset_map(file);  // a full map starts a new pass at once (time_based, io_size, a strided zone)
      file.restarted = !strided;
      if (!pick_from_map(file, direction, length, out)) return Outcome::kPassDone;
    }
  } else if (use_sequence) {
    if (!pick_from_sequence(file, direction, length, out)) return Outcome::kPassDone;
  } else {
    const std::uint64_t region_length = file.window.length;
    if (length > region_length) length = choosers[d].largest_fitting(region_length);
    if (length == 0) return Outcome::kPassDone;
    pick_free_offset(file, direction, length, out);
  }
  file.run_left[d] = run_length - 1;
  file.run_start[d] = out.offset - file.window.start;
  file.position[d] = out.offset - file.window.start + out.length;
  return Outcome::kIssued;
}

// Next io of a sequential run inside a random mode: right after the previous one, if it fits (and, with
// the map, if its start is still free). Returns false to fall back to a new random offset.
bool IoPattern::Impl::continue_run(FileState& file, Direction direction, std::uint32_t length, NextIo& out) noexcept {
  const std::uint64_t position = file.position[index_of(direction)];
  if (position + length > file.window.length) return false;
  if (use_map) {
    const std::uint64_t unit = to_units(position);
    const std::uint64_t needed = units_covering(length);
    const std::uint64_t run = file.map.free_run(unit, needed);
    if (run == 0) return false;
    file.map.take(unit, run);
    if (run < needed) length = static_cast<std::uint32_t>(run * granularity);
  }
  out.offset = file.window.start + position;
  out.length = length;
  file.position[index_of(direction)] = position + length;
  return true;
}

// Next io of an identical run (rw_sequencer=identical): the run's random offset again, whatever the map
// says (fio lets such an io use a busy block), with a size that fits before the window's end.
bool IoPattern::Impl::repeat_run_start(FileState& file, Direction direction, std::uint32_t length,
                                       NextIo& out) noexcept {
  return place_in_window(file, direction, file.run_start[index_of(direction)], length, out);
}

// An io at `offset` of the file's window, shortened to the direction's largest size that fits before the
// window's end; false when the offset is past the end or no size fits.
bool IoPattern::Impl::place_in_window(const FileState& file, Direction direction, std::uint64_t offset,
                                      std::uint32_t length, NextIo& out) const noexcept {
  if (offset >= file.window.length) return false;
  const std::uint64_t room = file.window.length - offset;
  if (length > room) length = choosers[index_of(direction)].largest_fitting(room);
  if (length == 0) return false;
  out.offset = file.window.start + offset;
  out.length = length;
  return true;
}

// Uniform random (norandommap) or distribution-driven offset, aligned, never crossing the region end.
void IoPattern::Impl::pick_free_offset(FileState& file, Direction direction, std::uint32_t length,
                                       NextIo& out) noexcept {
  const std::uint64_t align = choosers[index_of(direction)].alignment();
  const std::uint64_t last_start = (file.window.length - length) / align * align;
  std::uint64_t offset;
  if (use_distribution) {
    offset = file.distribution(offset_rng, direction) * granularity / align * align;
    offset = std::min(offset, last_start);
  } else {
    offset = offset_rng.below(last_start / align + 1) * align;
  }
  out.offset = file.window.start + offset;
  out.length = length;
}

// The LFSR's next block, at the direction's alignment, with a size that fits before the window's end. When
// the period is used up: a new pass at once when the pattern wraps (time_based, io_size, a strided zone, as
// fio resets the LFSR), else false (the pass is done; fio marks the file done).
bool IoPattern::Impl::pick_from_lfsr(FileState& file, Direction direction, std::uint32_t length, NextIo& out) noexcept {
  std::uint64_t block = 0;
  if (!file.lfsr.next(block)) {
    if (!wrap) return false;
    file.lfsr.restart();
    file.restarted = !strided;
    if (!file.lfsr.next(block)) return false;
  }
  // fio: an offset past the region ends the file's pass
  return place_in_window(file, direction, block * choosers[index_of(direction)].alignment(), length, out);
}

// Each file's sprandom plan (the sizes checked here: they need the file's), and a budget of their physical
// capacities with no wrap and one loop, replacing io_size, loops and time_based as in fio.
void IoPattern::Impl::set_up_sprandom(const JobSpec& job, std::uint64_t seed) {
  const std::uint64_t block = choosers[index_of(Direction::kWrite)].min();
  budget = 0;
  for (std::size_t i = 0; i < files.size(); ++i) {
    FileState& file = files[i];
    const SprandomPlan plan = job_sprandom_plan(job, file.region.length, block);
    file.sprandom = SprandomOffsets(plan, job.spr_cs, file.region.length / lfsr_block, derive_seed(seed, 500 + i));
    budget += plan.physical_bytes;
  }
  wrap = false;
  loops = 1;
  loop_bytes = next_loop_at = 0;
  finished = files.empty() || budget == 0;
}

// The next block of the file's sprandom plan (writes) or of its LFSR (other directions), placed as
// pick_from_lfsr places the LFSR's; false when the plan is written or the LFSR used up.
bool IoPattern::Impl::pick_from_sprandom(FileState& file, Direction direction, std::uint32_t length,
                                         NextIo& out) noexcept {
  std::uint64_t block = 0;
  const bool more = direction == Direction::kWrite ? file.sprandom.next_write(block) : file.sprandom.next_other(block);
  if (!more) return false;
  return place_in_window(file, direction, block * choosers[index_of(direction)].alignment(), length, out);
}

// The sequence's block for the direction's next io, at the direction's alignment, with a size that fits before
// the window's end (fio: max_blocks counts the smallest size, the offset the alignment). False: no io there.
bool IoPattern::Impl::pick_from_sequence(FileState& file, Direction direction, std::uint32_t length,
                                         NextIo& out) noexcept {
  const BlockSizeChooser& chooser = choosers[index_of(direction)];
  std::uint64_t block = 0;
  if (!sequence.block_of(issued[index_of(direction)], file.window.length / chooser.min(), block)) return false;
  return place_in_window(file, direction, block * chooser.alignment(), length, out);
}

// fio fails the job with EINVAL when an io reaches an index past a file's blocks; sluice refuses it up front.
void IoPattern::Impl::check_sequence_fits(const JobSpec& job, std::uint64_t length, std::size_t file) const {
  for (Direction d : kAllDirections) {
    if (!active[index_of(d)]) continue;
    const std::uint64_t blocks = length / choosers[index_of(d)].min();
    if (const auto index = sequence.first_out_of(blocks)) {
      throw UserError(fmt::format(
          "job {}: random_distribution=sequence: block index {} is past the {} blocks of {} bytes in the region "
          "of file {} (fio: sequence access block out of bounds); use indices below {} or a larger size",
          job.name, *index, blocks, choosers[index_of(d)].min(), file + 1, blocks));
    }
  }
}

// A random free unit (fio: pick a random block, and if it is taken, the next free one after it), aligned
// for the direction; the io is shortened to the free run there. False when no aligned unit is free.
bool IoPattern::Impl::pick_from_map(FileState& file, Direction direction, std::uint32_t length, NextIo& out) noexcept {
  RandomMap& map = file.map;
  if (map.free_blocks() == 0) return false;
  const std::uint64_t step = to_units(choosers[index_of(direction)].alignment());  // no division per io
  std::uint64_t unit = offset_rng.below(map.blocks());
  if (step > 1) unit -= unit % step;
  const std::uint64_t needed = std::max<std::uint64_t>(units_covering(length), 1);
  for (int wraps = 0; wraps < 2;) {
    unit = map.next_free(unit);
    if (unit == RandomMap::kNone) {
      unit = 0;
      ++wraps;
      continue;
    }
    if (step > 1 && unit % step != 0) {
      unit += step - unit % step;
      continue;
    }
    // next_free found `unit` free: a one-unit io takes it without measuring the run.
    const std::uint64_t run = needed == 1 ? 1 : map.free_run(unit, needed);
    if (run == 1) {
      map.take_one(unit);
    } else {
      map.take(unit, run);
    }
    out.offset = file.window.start + unit * granularity;
    // Shortened to the free run (fio), else the length drawn (bs_unaligned: its last unit partly used).
    out.length = run < needed ? static_cast<std::uint32_t>(run * granularity) : length;
    return true;
  }
  return false;
}

// ---- IoPattern

IoPattern::IoPattern(const JobSpec& job, std::vector<FileRegion> regions, std::uint64_t seed)
    : impl_(std::make_unique<Impl>(job, std::move(regions), seed)) {}
IoPattern::~IoPattern() = default;
IoPattern::IoPattern(IoPattern&&) noexcept = default;
IoPattern& IoPattern::operator=(IoPattern&&) noexcept = default;

bool IoPattern::next(NextIo& out) noexcept { return impl_->next(out); }

void IoPattern::redirect_last(const NextIo& drawn, Direction direction, std::uint64_t resume_at,
                              std::uint32_t length) noexcept {
  Impl& p = *impl_;
  Impl::FileState& file = p.files[static_cast<std::size_t>(drawn.file_index)];
  p.bytes_done = p.bytes_done - drawn.length + length;
  const std::uint64_t relative = resume_at > file.window.start ? resume_at - file.window.start : 0;
  file.position[index_of(direction)] = p.after_hole(file, relative);
}

std::uint64_t IoPattern::planned_bytes() const noexcept { return impl_->planned; }

std::uint32_t IoPattern::max_block_size() const noexcept {
  std::uint32_t largest = 0;
  for (Direction d : kAllDirections) {
    if (impl_->active[index_of(d)]) largest = std::max(largest, impl_->choosers[index_of(d)].max());
  }
  return largest;
}

}  // namespace sluice
