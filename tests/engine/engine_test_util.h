#pragma once
// Helpers for engine tests: a temporary directory, aligned buffers, and a driver that pushes a set of
// IoUnits through an engine keeping up to `depth` in flight.
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "common/aligned_buffer.h"
#include "engine/engine.h"
#include "support/temp_dir.h"

namespace sluice::testing {

// 4 KiB-aligned memory, as O_DIRECT needs.
inline std::unique_ptr<char, FreeDeleter> aligned_buffer(std::size_t length) {
  void* p = nullptr;
  if (posix_memalign(&p, kDirectIoAlignment, length) != 0) std::abort();
  std::memset(p, 0, length);
  return std::unique_ptr<char, FreeDeleter>(static_cast<char*>(p));
}

// Opens path (creating it) with O_DIRECT when asked and the filesystem allows; sets `direct` to what was used.
inline int open_test_file(const std::string& path, int flags, bool& direct) {
  if (direct) {
    int fd = ::open(path.c_str(), flags | O_CREAT | O_DIRECT, 0644);
    if (fd >= 0) return fd;
    direct = false;
  }
  return ::open(path.c_str(), flags | O_CREAT, 0644);
}

// Submits every unit (never more than depth in flight) and reaps them all. Returns the completion order.
inline std::vector<IoUnit*> run_all(Engine& engine, std::vector<IoUnit>& units, unsigned depth) {
  std::vector<IoUnit*> order;
  std::vector<IoUnit*> out(depth);
  std::size_t next = 0;
  std::size_t in_flight = 0;
  int idle_rounds = 0;
  while (order.size() < units.size() && idle_rounds < 1000) {
    std::vector<IoUnit*> batch;
    while (next + batch.size() < units.size() && in_flight + batch.size() < depth) {
      batch.push_back(&units[next + batch.size()]);
    }
    int accepted = batch.empty() ? 0 : engine.submit(batch);
    next += static_cast<std::size_t>(accepted);
    in_flight += static_cast<std::size_t>(accepted);
    int n = engine.reap(in_flight > 0 ? 1 : 0, out);
    for (int i = 0; i < n; ++i) order.push_back(out[static_cast<std::size_t>(i)]);
    in_flight -= static_cast<std::size_t>(n);
    idle_rounds = (accepted == 0 && n == 0) ? idle_rounds + 1 : 0;
  }
  return order;
}

}  // namespace sluice::testing
