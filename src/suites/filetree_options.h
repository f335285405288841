#pragma once
// What `sluice filetree` was asked to do: the tree's shape, the threads, whether to drop the page cache.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace sluice {

// One part of a file-size distribution: files of `size` bytes, chosen with relative `weight`.
struct FileSizePart {
  std::uint64_t size = 0;
  std::uint32_t weight = 0;
};

struct FiletreeOptions {
  std::string directory = ".";            // sluice works in a new subdirectory of it
  std::uint64_t total_size = 1ull << 30;  // bytes of file data in the tree
  std::uint32_t dirs = 16;
  std::uint32_t files_per_dir = 64;  // used when file_sizes is empty
  bool files_per_dir_given = false;
  std::vector<FileSizePart> file_sizes;  // empty: every file is total_size / (dirs * files_per_dir)
  std::uint32_t threads = 1;             // for create, read, copy and delete
  std::optional<bool> drop_caches;       // unset: drop when running as root
  std::uint64_t seed = 0x5eed;           // file sizes of a distribution and file contents
  std::string keep_archive;              // test hook (SLUICE_FILETREE_KEEP_ARCHIVE): move the tar here
};

// Parses --file-size: "SIZE" (every file) or "SIZE/WEIGHT:SIZE/WEIGHT:..." (fio's bssplit form, e.g.
// "4k/50:64k/30:1m/20"). Sizes use the shared size parser. Throws UserError naming --file-size.
std::vector<FileSizePart> parse_file_size_spec(const std::string& text);

}  // namespace sluice
