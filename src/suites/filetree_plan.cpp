#include "suites/filetree_plan.h"

#include <fmt/format.h>

#include "common/error.h"
#include "common/rng.h"
#include "job/units.h"

namespace sluice {

std::vector<FileSizePart> parse_file_size_spec(const std::string& text) {
  std::vector<FileSizePart> parts;
  if (text.empty()) return parts;
  const auto fail = [&](const std::string& why) {
    throw UserError(
        fmt::format("--file-size={}: {}; give a size (64k) or sizes with weights (4k/50:64k/30:1m/20)", text, why));
  };
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = std::min(text.find(':', start), text.size());
    const std::string item = text.substr(start, end - start);
    const std::size_t slash = item.find('/');
    const std::optional<std::uint64_t> size = parse_size(item.substr(0, slash));
    if (!size || *size == 0) fail("'" + item.substr(0, slash) + "' is not a size above 0");
    FileSizePart part{*size, 1};
    if (slash != std::string::npos) {
      const std::optional<std::uint64_t> weight = parse_unsigned(item.substr(slash + 1));
      if (!weight || *weight == 0 || *weight > 1'000'000)
        fail("'" + item.substr(slash + 1) + "' is not a weight from 1 to 1000000");
      part.weight = static_cast<std::uint32_t>(*weight);
    } else if (text.find(':') != std::string::npos) {
      fail("'" + item + "' has no /WEIGHT");
    }
    parts.push_back(part);
    start = end + 1;
  }
  return parts;
}

std::string FiletreePlan::dir_name(std::uint32_t dir) { return fmt::format("d{:04}", dir); }

std::string FiletreePlan::file_path(const PlannedFile& file) const {
  return fmt::format("{}/f{:06}", dir_name(file.dir), file.index);
}

namespace {

mode_t mode_of(std::uint32_t index) {
  if (index % 11 == 10) return 0755;
  if (index % 7 == 6) return 0600;
  return 0644;
}

std::uint64_t draw_size(const std::vector<FileSizePart>& parts, std::uint64_t total_weight, Rng& rng) {
  std::uint64_t pick = rng.below(total_weight);
  for (const FileSizePart& p : parts) {
    if (pick < p.weight) return p.size;
    pick -= p.weight;
  }
  return parts.back().size;
}

void check_count(std::uint64_t count) {
  if (count > kMaxFiletreeFiles) {
    throw UserError(
        fmt::format("filetree: {} files are more than the {} sluice creates; use a larger --file-size or a "
                    "smaller --size",
                    count, kMaxFiletreeFiles));
  }
}

}  // namespace

FiletreePlan make_filetree_plan(const FiletreeOptions& options) {
  if (options.dirs == 0) throw UserError("--dirs=0: the tree needs at least one directory; use --dirs=1");
  if (options.total_size == 0) throw UserError("--size=0: the tree needs some data; use --size=1m or more");
  FiletreePlan plan;
  plan.dirs = options.dirs;
  if (options.file_sizes.empty()) {
    const std::uint64_t count = std::uint64_t{options.dirs} * options.files_per_dir;
    if (count == 0) throw UserError("--files-per-dir=0: the tree needs files; use --files-per-dir=1");
    check_count(count);
    const std::uint64_t each = options.total_size / count;
    const std::uint64_t extra = options.total_size % count;
    plan.files.reserve(count);
    for (std::uint32_t i = 0; i < count; ++i) {
      plan.files.push_back({i / options.files_per_dir, i, each + (i < extra ? 1 : 0), mode_of(i)});
    }
  } else {
    std::uint64_t total_weight = 0;
    std::uint64_t smallest = options.file_sizes.front().size;
    for (const FileSizePart& p : options.file_sizes) {
      total_weight += p.weight;
      smallest = std::min(smallest, p.size);
    }
    check_count(options.total_size / smallest);
    Rng rng(options.seed);
    std::uint64_t sum = 0;
    for (std::uint32_t i = 0; sum < options.total_size; ++i) {
      const std::uint64_t size = std::min(draw_size(options.file_sizes, total_weight, rng), options.total_size - sum);
      plan.files.push_back({i % options.dirs, i, size, mode_of(i)});
      sum += size;
    }
  }
  for (const PlannedFile& f : plan.files) plan.total_bytes += f.size;
  return plan;
}

}  // namespace sluice
