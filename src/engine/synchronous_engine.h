#pragma once
// SynchronousEngine: the shared body of the engines that finish an io inside submit() (psync, sync, mmap,
// null). They differ only in how one io is performed: Derived provides
//   std::int64_t perform(const IoUnit&) noexcept   // bytes transferred, or -errno
// and calls reset_completions(depth) from open(). Completed units come back from the next reap().
#include <cstdint>
#include <span>

#include "engine/completion_ring.h"
#include "engine/engine.h"

namespace sluice::detail {

template <typename Derived>
class SynchronousEngine : public Engine {
 public:
  int submit(std::span<IoUnit* const> batch) override {
    const std::size_t n = batch.size() < done_.free() ? batch.size() : done_.free();
    for (std::size_t i = 0; i < n; ++i) {
      IoUnit& u = *batch[i];
      u.result = static_cast<Derived*>(this)->perform(u);
      done_.push(&u);
    }
    return static_cast<int>(n);
  }

  int reap(unsigned /*min_events*/, std::span<IoUnit*> out) override {
    return static_cast<int>(done_.pop_into(out));
  }

 protected:
  void reset_completions(std::uint32_t depth) { done_.reset(depth); }

 private:
  CompletionRing done_;
};

}  // namespace sluice::detail
