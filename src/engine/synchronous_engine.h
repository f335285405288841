#pragma once
// SynchronousEngine: the shared body of the engines that finish an io inside submit() (psync, sync, mmap,
// null). They differ only in how one io is performed: Derived provides
//   std::int64_t perform(const IoUnit&) noexcept   // bytes transferred, or -errno (IoUnit& to set timed)
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

  int reap(unsigned /*min_events*/, std::span<IoUnit*> out) override { return static_cast<int>(done_.pop_into(out)); }

 protected:
  void reset_completions(std::uint32_t depth) { done_.reset(depth); }

 private:
  CompletionRing done_;
};

}  // namespace sluice::detail

namespace sluice {

// Non-virtual entry points into the synchronous engines, for a run loop that finds its engine's concrete
// type once per job and instantiates its per-io path for it (no virtual call per io). Each provides
//   static bool is(const Engine&) noexcept;                        // the engine is of this kind
//   static std::int64_t perform(Engine&, const IoUnit&) noexcept;  // does the io now: bytes or -errno
// perform() is what submit() does for one io, without the completion ring: the caller completes the io.
struct NullPerform {
  static bool is(const Engine& engine) noexcept;
  static std::int64_t perform(Engine&, const IoUnit& u) noexcept { return u.length; }
};
struct PsyncPerform {
  static bool is(const Engine& engine) noexcept;
  static std::int64_t perform(Engine& engine, const IoUnit& u) noexcept;
};
struct SyncPerform {
  static bool is(const Engine& engine) noexcept;
  static std::int64_t perform(Engine& engine, const IoUnit& u) noexcept;
};
struct MmapPerform {
  static bool is(const Engine& engine) noexcept;
  static std::int64_t perform(Engine& engine, const IoUnit& u) noexcept;
};

}  // namespace sluice
