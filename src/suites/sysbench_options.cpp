#include "suites/sysbench_options.h"

#include <fmt/format.h>

#include <cmath>

namespace sluice {

void normalise_sysbench_options(SysbenchOptions& o) noexcept {
  if (o.fsync_all) {
    o.fsync_end = false;
    o.fsync_freq = 0;
  }
}

bool sysbench_mode_writes(SysbenchMode mode) noexcept {
  return mode != SysbenchMode::kSeqrd && mode != SysbenchMode::kRndrd;
}

bool sysbench_mode_sequential(SysbenchMode mode) noexcept {
  return mode == SysbenchMode::kSeqwr || mode == SysbenchMode::kSeqrewr || mode == SysbenchMode::kSeqrd;
}

const char* sysbench_mode_name(SysbenchMode mode) noexcept {
  switch (mode) {
    case SysbenchMode::kSeqwr:
      return "seqwr";
    case SysbenchMode::kSeqrewr:
      return "seqrewr";
    case SysbenchMode::kSeqrd:
      return "seqrd";
    case SysbenchMode::kRndrd:
      return "rndrd";
    case SysbenchMode::kRndwr:
      return "rndwr";
    case SysbenchMode::kRndrw:
      return "rndrw";
  }
  return "";
}

const char* sysbench_mode_title(SysbenchMode mode) noexcept {
  switch (mode) {
    case SysbenchMode::kSeqwr:
      return "sequential write (creation)";
    case SysbenchMode::kSeqrewr:
      return "sequential rewrite";
    case SysbenchMode::kSeqrd:
      return "sequential read";
    case SysbenchMode::kRndrd:
      return "random read";
    case SysbenchMode::kRndwr:
      return "random write";
    case SysbenchMode::kRndrw:
      return "random r/w";
  }
  return "";
}

const char* sysbench_io_mode_title(SysbenchIoMode mode) noexcept {
  switch (mode) {
    case SysbenchIoMode::kSync:
      return "synchronous";
    case SysbenchIoMode::kAsync:
      return "asynchronous";
    case SysbenchIoMode::kMmap:
      return "fast mmaped";
  }
  return "";
}

std::string sysbench_file_path(const SysbenchOptions& o, std::uint64_t i) {
  return fmt::format("{}/test_file.{}", o.dir, i);
}

std::string sysbench_size_text(double bytes) {
  static constexpr const char* kUnits[] = {"", "Ki", "Mi", "Gi", "Ti"};
  std::size_t unit = 0;
  while (bytes >= 1024.0 && unit + 1 < std::size(kUnits)) {
    bytes /= 1024.0;
    ++unit;
  }
  if (bytes == std::floor(bytes)) return fmt::format("{:.0f}{}", bytes, kUnits[unit]);
  return fmt::format("{:.2f}{}", bytes, kUnits[unit]);
}

}  // namespace sluice
