// IoPattern's uniform random offsets (fio semantics unless said):
//  - rw_sequential_run ("rw=randread:N"): a new random offset is drawn every N ios and the N-1 between continue
//    sequentially from it (fio's default rw_sequencer=sequential); with rw_sequencer=identical the N-1 reuse the
//    random offset itself (fio's last_start), so each random block is read or written N times in a row.
//  - random_generator=lfsr (uniform random only): as fio, offsets are block numbers from a full-period LFSR
//    over window length / the smallest block size (workload/lfsr.h), times the direction's alignment; each
//    block comes once per pass and no map is kept, norandommap or not. A pass ends when the LFSR's period is
//    used up (or an io no longer fits); a new pass replays the same order, as fio's lfsr_reset.
//  - Random with the map (default): the region is cut in units of the granularity g (gcd of every length
//    and alignment); each unit is used once per pass. As in fio, an io that would overlap used units is
//    shortened to the free run at its start. norandommap: uniform offsets, repeats allowed. Non-uniform
//    distributions never use the map (fio turns norandommap on for them).
#include <algorithm>

#include "workload/io_pattern_impl.h"

namespace sluice {

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

}  // namespace sluice
