#pragma once
// The methodology lint: before a run, what could make its numbers lie (a test area the page cache holds,
// buffered I/O, reads of blocks never written, compressible buffers, a run too short to be steady), as
// warnings with stable codes. lint_before_run and lint_after_run are pure functions of their inputs, so
// tests drive them with synthetic jobs and facts; gather_target_facts and facts_from_environment collect
// the facts of a real run.
//
// A sync engine asked for iodepth > 1 is checked by validate() (job/validate.cpp, code
// kLintSyncEngineIodepth), so that --parse-only shows it too; the lint does not repeat it. The codes live in
// job/warning_codes.h for that reason.
#include <cstdint>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/error.h"
#include "job/job_spec.h"
#include "job/warning_codes.h"
#include "run/plan.h"
#include "run/runner.h"
#include "stats/result.h"
#include "targets/target_file.h"

namespace sluice {

// Runs shorter than this (measured) give too few per-second samples for a steady-state judgement.
inline constexpr std::uint64_t kLintMinSteadyRuntimeNs = 10'000'000'000ull;
// The test area should be at least this many times the caches that can hold it.
inline constexpr std::uint64_t kLintCacheFactor = 10;

// What is known of one target before the run.
struct LintTarget {
  std::string path;
  bool is_block_device = false;
  bool exists = false;              // existed before the run (sluice did not create it)
  std::uint64_t region_length = 0;  // bytes of the job's I/O region in it
  // Existing regular files: whether the region holds holes or unwritten (fallocated) extents, where the
  // file system says; nullopt when unknown or not checked.
  std::optional<bool> has_unwritten;
};

// One job (clone) with its resolved targets. The spec must outlive the call.
struct LintJob {
  const JobSpec* spec = nullptr;
  std::vector<LintTarget> targets;
};

// What is known of the machine. Device caches: sysfs gives no size for most devices, so a missing entry
// means "unknown" and never produces a warning on its own.
struct LintFacts {
  std::optional<std::uint64_t> memory_bytes;                // MemTotal
  std::map<std::string, std::uint64_t> device_cache_bytes;  // target path -> its device's cache size
};

// Warnings (severity kWarning, code set, where = the job's position) for the jobs of a run, at most one
// per code and job name (numjobs clones share one warning). Jobs of the null engine get none.
std::vector<Problem> lint_before_run(const std::vector<LintJob>& jobs, const LintFacts& facts);

// After the run: jobs whose measured time was under kLintMinSteadyRuntimeNs without the runtime having
// been set that short (that case is reported before the run). None for interrupted runs or null jobs.
std::vector<Problem> lint_after_run(const std::vector<JobSpec>& jobs, const RunResult& result);

// The facts of a real run from a captured environment (observe/environment.h schema): memory, and each
// target's device cache where the device reports one (a sluice lab's model; no portable source exists for
// real devices).
LintFacts facts_from_environment(const nlohmann::json& environment);

// Probes an existing regular file for holes or unwritten extents in [start, start + length) (lseek
// SEEK_HOLE and FIEMAP); nullopt when the file system does not say.
std::optional<bool> region_has_unwritten(const std::string& path, std::uint64_t start, std::uint64_t length);

// Runner hooks. lint_plan: after targets are resolved and before anything is laid out, probes the targets,
// lints the plan, passes the block to `notice` (when there is one) and returns the warnings. lint_result:
// the same after the run, from the measured times.
using LintNotice = std::function<void(const std::string&)>;
std::vector<Problem> lint_plan(const std::vector<GroupPlan>& plan,
                               const std::vector<std::vector<std::vector<TargetFile>>>& targets,
                               const nlohmann::json& environment, const LintNotice& notice);
std::vector<Problem> lint_result(const std::vector<JobSpec>& jobs, const RunResult& result, const LintNotice& notice);

// Installs the methodology lint as options' before_run and after_run checks; each block of warnings is also
// passed to options.notice (stderr when it has none). Replaces checks installed before.
void install_lint(RunnerOptions& options);

// The lint block for stderr: a heading and one line per warning; empty when there is none.
std::string render_lint_block(const std::vector<Problem>& warnings);

}  // namespace sluice
