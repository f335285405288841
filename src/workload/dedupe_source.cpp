#include "workload/dedupe_source.h"

#include <algorithm>
#include <utility>

namespace sluice {

DedupeSource::DedupeSource(DedupeConfig config, std::uint64_t seed)
    : config_(std::move(config)),
      choice_rng_(mix64(seed ^ 0x6a09e667f3bcc909ull)),
      page_rng_(mix64(seed ^ 0xbb67ae8584caa73bull)) {
  config_.working_set_pages = std::max<std::uint64_t>(config_.working_set_pages, 1);
}

Rng DedupeSource::unique_buffer(std::uint64_t stream, std::uint64_t index) noexcept {
  return Rng(mix64(stream ^ ((index + 1) * 0x9e3779b97f4a7c15ull)));
}

Rng DedupeSource::next() noexcept {
  if (config_.percentage >= 100) {
    ++dedupes_;
    return unique_buffer(config_.stream, 0);
  }
  if (choice_rng_.below(100) < config_.percentage) {
    ++dedupes_;
    if (config_.working_set) return working_set_page();
    return unique_buffer(config_.stream, uniques_ == 0 ? 0 : uniques_ - 1);
  }
  return unique_buffer(config_.stream, uniques_++);
}

Rng DedupeSource::working_set_page() noexcept {
  const std::uint64_t page = page_rng_.below(config_.working_set_pages);
  const auto& streams = config_.shared_streams;
  if (streams.empty()) return unique_buffer(config_.stream, page);
  const std::uint64_t per_stream = std::max<std::uint64_t>(config_.working_set_pages / streams.size(), 1);
  const std::size_t owner = (config_.own_index + page / per_stream) % streams.size();
  return unique_buffer(streams[owner], page % per_stream);
}

}  // namespace sluice
