#pragma once
// The arithmetic of an mdtest run (hpc/ior 4.0.0, mdtest.c): the directory tree, how the items spread over
// it, which phases run and which are reported, and the bounds sluice refuses to go beyond. Pure functions.
//
// Tree: directories are numbered breadth-first as a heap, root 0, the children of c are b*c+1 .. b*c+b, so
// the tree holds (b^(z+1)-1)/(b-1) directories (z+1 when b = 1, 1 when z = 0). Directory c is named
// "<base>.<c>" and nests under its parent: mdtest_tree.0/mdtest_tree.1/mdtest_tree.3.
// Items: with -n only, items_per_dir = n / dirs and n is rounded down to items_per_dir * dirs (as mdtest
// does); with -I only, n = I * dirs. Item k lives in directory k / items_per_dir.
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "suites/metadata_options.h"

namespace sluice {

// mdtest 4.0.0's phases in its enum order ("Directory read" is never run nor printed, so it is left out).
enum class MetadataPhase {
  kDirCreate,
  kDirStat,
  kDirRename,
  kDirRemove,
  kFileCreate,
  kFileStat,
  kFileRead,
  kFileRemove,
  kTreeCreate,
  kTreeRemove,
  kCount
};
inline constexpr std::size_t kMetadataPhaseCount = static_cast<std::size_t>(MetadataPhase::kCount);

// mdtest's row label: "Directory creation", ..., "Tree removal".
std::string_view metadata_phase_name(MetadataPhase phase);
// A JSON key: "dir_create", ..., "tree_remove".
std::string_view metadata_phase_key(MetadataPhase phase);

inline constexpr std::uint64_t kMaxMetadataTreeDirs = 1ull << 20;  // directories in one tree
inline constexpr std::uint64_t kMaxMetadataItems = 1ull << 26;     // items of all workers together
inline constexpr std::uint64_t kMaxMetadataBytes = 1ull << 30;     // -w and -e: one buffer per worker

struct MetadataPlan {
  std::uint64_t tree_dirs = 1;  // num_dirs_in_tree
  std::uint64_t items_per_dir = 0;
  std::uint64_t items = 0;            // per worker, after mdtest's rounding
  std::uint64_t requested_items = 0;  // -n as given (0 with -I)
  std::uint32_t workers = 1;
  bool dir_test = true;   // directory phases run (not -F)
  bool file_test = true;  // file phases run (not -D)
  // Reported phases; the others that run do so only to set up or clean up (a -T run still creates and
  // removes its items, untimed), and print 0 as mdtest prints phases it did not run.
  std::array<bool, kMetadataPhaseCount> reported{};
  std::array<bool, kMetadataPhaseCount> runs{};
  std::vector<std::string> notes;  // e.g. the rounding of -n
};

// Directories in a tree of depth z and branching b; saturates at UINT64_MAX instead of overflowing.
std::uint64_t metadata_tree_dirs(std::uint32_t depth, std::uint32_t branching);

// Checks the options as mdtest does (and sluice's bounds) and computes the plan. Throws UserError naming the
// option (mdtest's letter and sluice's name) before anything is created. `processes`: the MPI ranks that
// each run options.threads workers (workers = threads x processes).
MetadataPlan make_metadata_plan(const MetadataOptions& options, std::uint32_t processes = 1);

// The path of tree directory `index` relative to the test directory: "mdtest_tree.0/mdtest_tree.2".
std::string metadata_tree_path(std::uint64_t index, std::uint32_t branching, const std::string& base);

// Tree directory indices in mdtest's creation order (depth-first, parents before children).
std::vector<std::uint64_t> metadata_tree_preorder(std::uint32_t depth, std::uint32_t branching);

// The tree's base name: "mdtest_tree" shared, "mdtest_tree.<rank>" with -u.
std::string metadata_tree_base(bool unique_dir, std::uint32_t rank);

}  // namespace sluice
