#pragma once
// Buffers from std::aligned_alloc (O_DIRECT needs them aligned), owned by a std::unique_ptr.
#include <cstddef>
#include <cstdlib>
#include <memory>

namespace sluice {

// O_DIRECT's buffer alignment: the largest logical block size sluice expects.
inline constexpr std::size_t kDirectIoAlignment = 4096;

// Frees what malloc or aligned_alloc returned.
struct FreeDeleter {
  void operator()(void* p) const noexcept { std::free(p); }
};

// `bytes` rounded up to a multiple of kDirectIoAlignment (aligned_alloc wants a multiple of the alignment).
inline constexpr std::size_t round_to_direct_alignment(std::size_t bytes) noexcept {
  return (bytes + kDirectIoAlignment - 1) / kDirectIoAlignment * kDirectIoAlignment;
}

}  // namespace sluice
