// IoPattern implementation. Choices worth knowing (fio semantics unless said):
//  - Files are served as fio's file_service_type says: round robin (default), sequential (one file to the end
//    of its pass, then the next), random (a random file whose pass is not done), with ':N' ios per file before
//    switching, or by a zipf/pareto/normal distribution over the files (one io each).
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
//  - Seeds: direction, size and offset choices use independent streams, so changing rwmixread or bs does
//    not change the offset sequence's randomness.
//  The offset choices live beside this file: io_pattern_sequential.cpp, io_pattern_random.cpp (map, LFSR,
//  runs), io_pattern_sprandom.cpp, io_pattern_sequence.cpp; the shared state in io_pattern_impl.h.
#include "workload/io_pattern.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <numeric>

#include "common/error.h"
#include "workload/io_pattern_impl.h"

namespace sluice {

IoPattern::Impl::Impl(const PatternJob& job, std::vector<FileRegion> regions, std::uint64_t seed)
    : direction_rng(pattern_stream_seed(seed, 1)),
      size_rng(pattern_stream_seed(seed, 2)),
      offset_rng(pattern_stream_seed(seed, 3)),
      file_rng(pattern_stream_seed(seed, 4)) {
  random = job.is_random();
  mixed = job.is_mixed();
  only_direction = job.does_trims() ? Direction::kTrim : (job.does_writes() ? Direction::kWrite : Direction::kRead);
  rwmixread = std::min<std::uint32_t>(job.workload.rwmixread, 100);
  active[index_of(Direction::kRead)] = job.does_reads();
  active[index_of(Direction::kWrite)] = job.does_writes();
  active[index_of(Direction::kTrim)] = job.does_trims();
  configure_choosers(job);

  use_distribution = random && job.workload.random_distribution.kind != DistributionKind::kRandom;
  use_sprandom = random && job.workload.sprandom;
  if (use_sprandom) use_distribution = false;
  use_sequence = use_distribution && job.workload.random_distribution.kind == DistributionKind::kSequence;
  if (use_sequence)
    sequence = BlockSequence(job.workload.random_distribution.sequence, job.workload.random_sequence_stride);
  use_lfsr = random && job.workload.lfsr_offsets && !use_distribution && !use_sprandom;
  use_map = random && !job.workload.norandommap && !use_distribution && !use_lfsr && !use_sprandom;
  if (use_lfsr || use_sprandom) {
    std::uint64_t smallest = UINT64_MAX;
    for (Direction d : kAllDirections) {
      if (active[index_of(d)]) smallest = std::min<std::uint64_t>(smallest, choosers[index_of(d)].min());
    }
    lfsr_block = smallest == UINT64_MAX || smallest == 0 ? granularity : smallest;
  }
  if (random)
    run_length = std::max<std::uint32_t>(job.workload.rw_sequential_run, 1);
  else if (job.workload.rw_backwards)
    step_back = job.workload.rw_sequential_run;
  else
    hole = job.workload.rw_sequential_run;
  identical_runs = job.workload.rw_sequencer_identical;
  percentage_random = std::min<std::uint32_t>(job.workload.percentage_random, 100);
  strided = job.zones.zone_strided && job.zones.zone_size != 0 && regions.size() == 1;
  if (strided) {
    zone_size = job.zones.zone_size;
    zone_range = job.zones.zone_range != 0 ? job.zones.zone_range : job.zones.zone_size;
    zone_skip = job.zones.zone_skip;
  }
  wrap = job.time.time_based || job.time.io_size != 0 || strided;
  loops = std::max<std::uint32_t>(job.time.loops, 1);
  max_ios = job.time.number_ios;

  std::uint64_t total = 0;
  for (std::size_t i = 0; i < regions.size(); ++i) {
    FileState file;
    file.region = regions[i];
    file.window = regions[i];
    file.file_end = std::max(regions[i].start + regions[i].length, regions[i].file_size);
    file.units = (strided ? zone_range : regions[i].length) / granularity;
    if (use_map) file.map = RandomMap(file.units);
    if (use_lfsr)
      file.lfsr = Lfsr((strided ? zone_range : regions[i].length) / lfsr_block, pattern_stream_seed(seed, 300 + i));
    if (use_sequence) check_sequence_fits(job, strided ? zone_range : regions[i].length, i);
    if (use_distribution && !use_sequence) {
      file.distribution = BlockDistribution(job.workload.random_distribution, file.units,
                                            pattern_stream_seed(seed, 100 + i), granularity);
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
    file_distribution = BlockDistribution(job.target.file_distribution, files.size(), pattern_stream_seed(seed, 5), 1);
  }
  if (!job.time.time_based) budget = (job.time.io_size != 0 ? job.time.io_size : total) * loops;
  // With io_size a loop is its bytes (positions go on across loops).
  if (!job.time.time_based && job.time.io_size != 0 && loops > 1) loop_bytes = next_loop_at = job.time.io_size;
  if (!job.time.time_based && budget == 0) finished = true;
  if (files.empty()) finished = true;
  if (use_sprandom) set_up_sprandom(job, seed);
  compute_planned(job);
}

void IoPattern::Impl::configure_choosers(const PatternJob& job) {
  std::uint64_t g = 0;
  for (Direction d : kAllDirections) {
    const int i = index_of(d);
    choosers[i] = BlockSizeChooser(job.workload.bs[i], job.workload.bsrange[i], job.workload.bssplit[i],
                                   job.workload.blockalign[i], job.workload.bs_unaligned);
    if (active[i]) g = std::gcd(g, std::uint64_t{choosers[i].granularity()});
  }
  granularity = g == 0 ? 4096 : g;
  if (std::has_single_bit(granularity)) granularity_shift = std::countr_zero(granularity);
}

void IoPattern::Impl::compute_planned(const PatternJob& job) {
  if ((job.time.time_based && !use_sprandom) || finished) return;
  planned = use_sprandom ? sprandom_bytes : budget;
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

// ---- IoPattern

IoPattern::IoPattern(const PatternJob& job, std::vector<FileRegion> regions, std::uint64_t seed)
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

void IoPattern::restart_io_numbers(NextIo* drawn) noexcept { impl_->restart_io_numbers(drawn); }

std::uint64_t IoPattern::planned_bytes() const noexcept { return impl_->planned; }

std::uint32_t IoPattern::max_block_size() const noexcept {
  std::uint32_t largest = 0;
  for (Direction d : kAllDirections) {
    if (impl_->active[index_of(d)]) largest = std::max(largest, impl_->choosers[index_of(d)].max());
  }
  return largest;
}

}  // namespace sluice
