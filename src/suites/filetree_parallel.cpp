#include "suites/filetree_parallel.h"

#include <atomic>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "common/stop_signal.h"

namespace sluice {

bool run_parallel(std::uint32_t threads, std::uint64_t count, const ItemWork& work, OpRecorder& into) {
  if (threads == 0) threads = 1;
  std::vector<std::unique_ptr<OpRecorder>> recorders;
  for (std::uint32_t t = 0; t < threads; ++t) recorders.push_back(std::make_unique<OpRecorder>());
  std::atomic<bool> failed{false};
  std::atomic<bool> stopped{false};
  std::exception_ptr error;
  std::mutex error_mutex;
  const auto body = [&](std::uint32_t t) {
    try {
      for (std::uint64_t i = t; i < count; i += threads) {
        if (failed.load(std::memory_order_relaxed)) return;
        if (stop_requested()) {
          stopped = true;
          return;
        }
        work(*recorders[t], i);
      }
    } catch (...) {
      const std::lock_guard lock(error_mutex);
      if (!error) error = std::current_exception();
      failed = true;
    }
  };
  if (threads == 1) {
    body(0);
  } else {
    std::vector<std::jthread> pool;
    for (std::uint32_t t = 0; t < threads; ++t) pool.emplace_back(body, t);
  }
  for (const auto& r : recorders) into.merge(*r);
  if (error) std::rethrow_exception(error);
  return !stopped && !stop_requested();
}

}  // namespace sluice
