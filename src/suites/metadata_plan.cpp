#include "suites/metadata_plan.h"

#include <fmt/format.h>

#include <limits>

#include "common/error.h"

namespace sluice {
namespace {

constexpr std::uint64_t kSaturated = std::numeric_limits<std::uint64_t>::max();

std::uint64_t saturating_mul(std::uint64_t a, std::uint64_t b) {
  if (a != 0 && b > kSaturated / a) return kSaturated;
  return a * b;
}

void select_phases(const MetadataOptions& o, MetadataPlan& plan) {
  const bool all = !o.only_create && !o.only_stat && !o.only_read && !o.only_remove;
  const auto set = [&](MetadataPhase p, bool runs, bool reported) {
    plan.runs[static_cast<std::size_t>(p)] = runs;
    plan.reported[static_cast<std::size_t>(p)] = runs && reported;
  };
  const bool create = all || o.only_create;
  const bool remove = all || o.only_remove;
  // Creation and removal always run: the items must exist to be stat'ed, and nothing may be left behind.
  set(MetadataPhase::kDirCreate, plan.dir_test, create);
  set(MetadataPhase::kDirStat, plan.dir_test && (all || o.only_stat), true);
  set(MetadataPhase::kDirRename, false, false);
  set(MetadataPhase::kDirRemove, plan.dir_test, remove);
  set(MetadataPhase::kFileCreate, plan.file_test, create);
  set(MetadataPhase::kFileStat, plan.file_test && (all || o.only_stat), true);
  set(MetadataPhase::kFileRead, plan.file_test && (all || o.only_read), true);
  set(MetadataPhase::kFileRemove, plan.file_test, remove);
  set(MetadataPhase::kTreeCreate, true, create);
  set(MetadataPhase::kTreeRemove, true, remove);
}

}  // namespace

std::string_view metadata_phase_name(MetadataPhase phase) {
  static constexpr std::array<std::string_view, kMetadataPhaseCount> kNames = {
      "Directory creation", "Directory stat", "Directory rename", "Directory removal", "File creation",
      "File stat",          "File read",      "File removal",     "Tree creation",     "Tree removal"};
  return kNames[static_cast<std::size_t>(phase)];
}

std::string_view metadata_phase_key(MetadataPhase phase) {
  static constexpr std::array<std::string_view, kMetadataPhaseCount> kKeys = {
      "dir_create", "dir_stat",  "dir_rename",  "dir_remove",  "file_create",
      "file_stat",  "file_read", "file_remove", "tree_create", "tree_remove"};
  return kKeys[static_cast<std::size_t>(phase)];
}

std::uint64_t metadata_tree_dirs(std::uint32_t depth, std::uint32_t branching) {
  if (depth == 0 || branching == 0) return 1;
  if (branching == 1) return std::uint64_t{depth} + 1;
  // 1 + b + b^2 + ... + b^z, saturating.
  std::uint64_t total = 1;
  std::uint64_t level = 1;
  for (std::uint32_t d = 1; d <= depth; ++d) {
    level = saturating_mul(level, branching);
    if (level == kSaturated || total > kSaturated - level) return kSaturated;
    total += level;
  }
  return total;
}

MetadataPlan make_metadata_plan(const MetadataOptions& o, std::uint32_t processes) {
  MetadataPlan plan;
  plan.workers = (o.threads == 0 ? 1 : o.threads) * (processes == 0 ? 1 : processes);
  plan.dir_test = !o.files_only || o.dirs_only;
  plan.file_test = !o.dirs_only || o.files_only;
  plan.tree_dirs = metadata_tree_dirs(o.depth, o.branching);
  if (plan.tree_dirs > kMaxMetadataTreeDirs) {
    throw UserError(
        fmt::format("-z/--depth={} with -b/--branching={}: the tree would have {} directories, sluice stops at {}; "
                    "use a smaller depth or branching factor",
                    o.depth, o.branching,
                    plan.tree_dirs == kSaturated ? std::string("more than 2^64") : std::to_string(plan.tree_dirs),
                    kMaxMetadataTreeDirs));
  }
  if (o.items == 0 && o.items_per_dir == 0) {
    throw UserError("metadata: no items; give -n/--items N (items per worker) or -I/--items-per-dir N");
  }
  if (o.items > 0 && o.items_per_dir > 0) {
    if (o.unique_dir) {
      throw UserError(
          "-n/--items and -I/--items-per-dir with -u/--unique-dir: only specify the number of items or the number "
          "of items per directory (as mdtest requires)");
    }
    if (o.items % o.items_per_dir != 0) {
      throw UserError(fmt::format(
          "-n/--items={} is not a multiple of -I/--items-per-dir={} (mdtest requires it); use -n {} or give only "
          "one of them",
          o.items, o.items_per_dir, o.items / o.items_per_dir * o.items_per_dir));
    }
    if (o.items != saturating_mul(o.items_per_dir, plan.tree_dirs)) {
      throw UserError(fmt::format(
          "-n/--items={} with -I/--items-per-dir={}: mdtest then loops over {} test directories, which sluice does "
          "not implement; give only -I {} (it makes -n {} on this tree of {} directories) or only -n",
          o.items, o.items_per_dir, o.items / o.items_per_dir, o.items_per_dir,
          saturating_mul(o.items_per_dir, plan.tree_dirs), plan.tree_dirs));
    }
  }
  plan.requested_items = o.items;
  if (o.items_per_dir > 0) {
    plan.items_per_dir = o.items_per_dir;
    plan.items = saturating_mul(o.items_per_dir, plan.tree_dirs);
  } else {
    plan.items_per_dir = o.items / plan.tree_dirs;
    plan.items = plan.items_per_dir * plan.tree_dirs;
    if (plan.items == 0) {
      throw UserError(fmt::format(
          "-n/--items={} is fewer than the {} directories of the tree (-z {} -b {}): mdtest would place 0 items "
          "in each; use -n {} or more, or a smaller tree",
          o.items, plan.tree_dirs, o.depth, o.branching, plan.tree_dirs));
    }
    if (plan.items != o.items) {
      plan.notes.push_back(
          fmt::format("-n {} rounded down to {} ({} per directory of the {}-directory tree), as mdtest rounds it",
                      o.items, plan.items, plan.items_per_dir, plan.tree_dirs));
    }
  }
  const std::uint64_t all_items = saturating_mul(plan.items, plan.workers);
  if (all_items > kMaxMetadataItems) {
    throw UserError(fmt::format(
        "{} items per worker x {} workers = {} items, sluice stops at {}; use a smaller -n/--items or "
        "-I/--items-per-dir, or fewer --threads",
        plan.items, plan.workers, all_items == kSaturated ? std::string("more than 2^64") : std::to_string(all_items),
        kMaxMetadataItems));
  }
  if (o.write_bytes > kMaxMetadataBytes || o.read_bytes > kMaxMetadataBytes) {
    throw UserError(fmt::format(
        "{}={}: sluice metadata writes and reads each file with one call from a buffer per task, of at most 1 GiB; "
        "use at most 1g (for large files, sluice run)",
        o.write_bytes > kMaxMetadataBytes ? "-w/--write-bytes" : "-e/--read-bytes",
        o.write_bytes > kMaxMetadataBytes ? o.write_bytes : o.read_bytes));
  }
  const bool all_phases = !o.only_create && !o.only_stat && !o.only_read && !o.only_remove;
  if (plan.file_test && (all_phases || (o.only_create && o.only_read)) && o.read_bytes > o.write_bytes) {
    throw UserError(fmt::format(
        "-e/--read-bytes={} is more than -w/--write-bytes={}: when writing and reading files, read bytes must be "
        "smaller than write bytes (as mdtest requires); use -e {}",
        o.read_bytes, o.write_bytes, o.write_bytes));
  }
  select_phases(o, plan);
  if (plan.reported[static_cast<std::size_t>(MetadataPhase::kFileRead)] && o.read_bytes == 0) {
    plan.notes.push_back("Read bytes is 0, thus, a read test will actually just open/close (as mdtest warns)");
  }
  return plan;
}

std::string metadata_tree_path(std::uint64_t index, std::uint32_t branching, const std::string& base) {
  std::vector<std::uint64_t> chain;
  for (std::uint64_t c = index;; c = (c - 1) / (branching == 0 ? 1 : branching)) {
    chain.push_back(c);
    if (c == 0) break;
  }
  std::string path;
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    if (!path.empty()) path += '/';
    path += fmt::format("{}.{}", base, *it);
  }
  return path;
}

std::vector<std::uint64_t> metadata_tree_preorder(std::uint32_t depth, std::uint32_t branching) {
  std::vector<std::uint64_t> order;
  struct Frame {
    std::uint64_t dir;
    std::uint32_t level;
  };
  std::vector<Frame> stack = {{0, 0}};
  while (!stack.empty()) {
    const Frame f = stack.back();
    stack.pop_back();
    order.push_back(f.dir);
    if (f.level == depth || branching == 0) continue;
    for (std::uint32_t i = branching; i-- > 0;) stack.push_back({f.dir * branching + 1 + i, f.level + 1});
  }
  return order;
}

std::string metadata_tree_base(bool unique_dir, std::uint32_t rank) {
  return unique_dir ? fmt::format("mdtest_tree.{}", rank) : std::string("mdtest_tree");
}

}  // namespace sluice
