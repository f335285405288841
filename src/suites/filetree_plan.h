#pragma once
// The tree `sluice filetree` creates: which files, in which directory, of which size and mode. A pure
// function of the options, so tests check the shape without touching a disk.
#include <sys/types.h>

#include <cstdint>
#include <string>
#include <vector>

#include "suites/filetree_options.h"

namespace sluice {

struct PlannedFile {
  std::uint32_t dir = 0;
  std::uint32_t index = 0;  // index in FiletreePlan::files
  std::uint64_t size = 0;
  mode_t mode = 0644;
};

struct FiletreePlan {
  std::uint32_t dirs = 0;
  std::vector<PlannedFile> files;
  std::uint64_t total_bytes = 0;

  // Paths relative to a tree's root: "d0003" and "d0003/f000012".
  static std::string dir_name(std::uint32_t dir);
  std::string file_path(const PlannedFile& file) const;
};

// Lays out the tree. Without file sizes: dirs x files_per_dir files sharing total_size (the first
// total_size % count files get one byte more). With sizes: files drawn from the distribution (seeded) until
// the total reaches total_size, the last one cut to fit, dealt round-robin over the directories.
// Modes vary (0644, with every 7th file 0600 and every 11th 0755) so a copy that drops modes shows.
// Throws UserError when the options make no tree (no files, more than kMaxFiles).
FiletreePlan make_filetree_plan(const FiletreeOptions& options);

inline constexpr std::uint64_t kMaxFiletreeFiles = 10'000'000;

}  // namespace sluice
