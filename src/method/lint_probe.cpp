// The facts the lint needs from real targets (stat, SEEK_HOLE, FIEMAP), and its checks of a run.
#include <fcntl.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <vector>

#include "common/unique_fd.h"
#include "method/lint.h"

namespace sluice {
namespace {

// Unwritten (preallocated, reading as zeros) extents in [start, end), per FIEMAP; nullopt if unsupported.
std::optional<bool> has_unwritten_extents(int fd, std::uint64_t start, std::uint64_t end) {
  constexpr std::uint32_t kBatch = 64;
  std::vector<std::uint8_t> buffer(sizeof(fiemap) + kBatch * sizeof(fiemap_extent));
  auto* map = reinterpret_cast<fiemap*>(buffer.data());
  std::uint64_t pos = start;
  while (pos < end) {
    std::fill(buffer.begin(), buffer.end(), std::uint8_t{0});
    map->fm_start = pos;
    map->fm_length = end - pos;
    map->fm_extent_count = kBatch;
    if (::ioctl(fd, FS_IOC_FIEMAP, map) != 0) return std::nullopt;
    if (map->fm_mapped_extents == 0) return false;
    for (std::uint32_t i = 0; i < map->fm_mapped_extents; ++i) {
      const fiemap_extent& e = map->fm_extents[i];
      if (e.fe_flags & FIEMAP_EXTENT_UNWRITTEN) return true;
      pos = std::max<std::uint64_t>(pos, e.fe_logical + e.fe_length);
      if (e.fe_flags & FIEMAP_EXTENT_LAST) return false;
    }
  }
  return false;
}

LintTarget lint_target_of(const TargetFile& t) {
  LintTarget out;
  out.path = t.path;
  out.is_block_device = t.is_block_device;
  out.region_length = t.region_length;
  struct stat st {};
  out.exists = ::stat(t.path.c_str(), &st) == 0;
  if (out.exists && S_ISREG(st.st_mode)) {
    out.has_unwritten = region_has_unwritten(t.path, t.region_start, t.region_length);
  }
  return out;
}

}  // namespace

std::optional<bool> region_has_unwritten(const std::string& path, std::uint64_t start, std::uint64_t length) {
  const UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  struct stat st {};
  if (fd.get() < 0 || ::fstat(fd.get(), &st) != 0) return std::nullopt;
  // What lies beyond the end of the file is laid out with data by sluice before the run.
  const std::uint64_t end = std::min<std::uint64_t>(start + length, static_cast<std::uint64_t>(st.st_size));
  if (start >= end) return false;
  const off_t hole = ::lseek(fd.get(), static_cast<off_t>(start), SEEK_HOLE);
  if (hole < 0) return std::nullopt;
  if (static_cast<std::uint64_t>(hole) < end) return true;
  const std::optional<bool> unwritten = has_unwritten_extents(fd.get(), start, end);
  // No FIEMAP (tmpfs, some network file systems): SEEK_HOLE found no hole, which is what can be known.
  return unwritten.value_or(false);
}

std::vector<Problem> lint_plan(const std::vector<GroupPlan>& plan,
                               const std::vector<std::vector<std::vector<TargetFile>>>& targets,
                               const nlohmann::json& environment, const LintNotice& notice) {
  std::vector<LintJob> jobs;
  for (std::size_t g = 0; g < plan.size() && g < targets.size(); ++g) {
    for (std::size_t i = 0; i < plan[g].jobs.size() && i < targets[g].size(); ++i) {
      LintJob job;
      job.spec = &plan[g].jobs[i].spec;
      if (engine_traits(job.spec->engine.ioengine).moves_data) {
        for (const TargetFile& t : targets[g][i]) job.targets.push_back(lint_target_of(t));
      }
      jobs.push_back(std::move(job));
    }
  }
  std::vector<Problem> warnings = lint_before_run(jobs, facts_from_environment(environment));
  if (notice && !warnings.empty()) notice(render_lint_block(warnings));
  return warnings;
}

std::vector<Problem> lint_result(const std::vector<JobSpec>& jobs, const RunResult& result, const LintNotice& notice) {
  std::vector<Problem> warnings = lint_after_run(jobs, result);
  if (notice && !warnings.empty()) notice(render_lint_block(warnings));
  return warnings;
}

void install_lint(RunnerOptions& options) {
  LintNotice notice = options.notice;
  if (!notice) notice = [](const std::string& text) { std::fprintf(stderr, "%s\n", text.c_str()); };
  options.before_run = [notice](const RunPreview& preview) {
    return lint_plan(preview.plan, preview.targets, preview.environment, notice);
  };
  options.after_run = [notice](const std::vector<JobSpec>& jobs, const RunResult& result) {
    return lint_result(jobs, result, notice);
  };
}

}  // namespace sluice
