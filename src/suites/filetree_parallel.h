#pragma once
// Spreads a step's items over threads: item i goes to thread i % threads, each thread with its own
// OpRecorder, merged into `into` after all threads joined. Items are skipped once stop_requested().
// The first exception thrown by any thread is rethrown after the join (the others stop at their next item).
#include <cstdint>
#include <functional>

#include "suites/filetree_ops.h"

namespace sluice {

using ItemWork = std::function<void(OpRecorder& recorder, std::uint64_t item)>;

// Returns false when a stop was requested before every item was done.
bool run_parallel(std::uint32_t threads, std::uint64_t count, const ItemWork& work, OpRecorder& into);

}  // namespace sluice
