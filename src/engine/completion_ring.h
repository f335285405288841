#pragma once
// CompletionRing: a fixed-capacity FIFO of finished IoUnits, used by engines that complete ios inside
// submit() (or synchronously on a side path) and hand them back from reap(). Sized once in open(); push and
// pop never allocate. Not thread-safe (one engine per thread).
#include <cstddef>
#include <span>
#include <vector>

#include "engine/engine.h"

namespace sluice::detail {

class CompletionRing {
 public:
  void reset(std::size_t capacity) {
    slots_.assign(capacity == 0 ? 1 : capacity, nullptr);
    head_ = 0;
    count_ = 0;
  }
  std::size_t size() const noexcept { return count_; }
  std::size_t free() const noexcept { return slots_.size() - count_; }

  // Precondition: free() > 0.
  void push(IoUnit* unit) noexcept {
    std::size_t tail = head_ + count_;
    if (tail >= slots_.size()) tail -= slots_.size();
    slots_[tail] = unit;
    ++count_;
  }

  // Moves up to out.size() units (oldest first) into out; returns how many.
  [[nodiscard]] std::size_t pop_into(std::span<IoUnit*> out) noexcept {
    std::size_t n = out.size() < count_ ? out.size() : count_;
    for (std::size_t i = 0; i < n; ++i) {
      out[i] = slots_[head_];
      if (++head_ == slots_.size()) head_ = 0;
    }
    count_ -= n;
    return n;
  }

 private:
  std::vector<IoUnit*> slots_;
  std::size_t head_ = 0;
  std::size_t count_ = 0;
};

}  // namespace sluice::detail
