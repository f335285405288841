// The methodology lint's rules (pure) and its rendering. Facts of real targets: lint_probe.cpp.
#include "method/lint.h"

#include <fmt/format.h>

#include <set>
#include <utility>

#include "common/json_read.h"
#include "job/units.h"

namespace sluice {
namespace {

// Collects findings, one per (code, job name), positioned where the option was set or the job began.
class Findings {
 public:
  void add(const JobSpec& job, std::string_view code, const std::string& option, std::string message) {
    if (!seen_.insert({std::string(code), job.name}).second) return;
    Problem p;
    p.severity = Problem::Severity::kWarning;
    const auto it = job.option_pos.find(option);
    p.where = it != job.option_pos.end() ? it->second : job.where;
    p.option = option;
    p.code = std::string(code);
    p.message = fmt::format("job {}: {}", job.name, message);
    problems_.push_back(std::move(p));
  }
  std::vector<Problem> take() { return std::move(problems_); }

 private:
  std::set<std::pair<std::string, std::string>> seen_;
  std::vector<Problem> problems_;
};

std::uint64_t area_of(const LintJob& job) {
  std::set<std::string> seen;
  std::uint64_t area = 0;
  for (const LintTarget& t : job.targets) {
    if (seen.insert(t.path).second) area += t.region_length;
  }
  return area;
}

std::string bytes_text(std::uint64_t bytes) { return format_bytes(static_cast<double>(bytes)); }

void check_test_area(const LintJob& job, const LintFacts& facts, Findings& out) {
  const JobSpec& spec = *job.spec;
  const std::uint64_t area = area_of(job);
  if (!spec.target.direct) {
    if (!facts.memory_bytes || area >= kLintCacheFactor * *facts.memory_bytes) return;
    out.add(spec, kLintSmallTestArea, "size",
            fmt::format("the test area ({}) is under {}x RAM ({}): buffered I/O is served largely from the page "
                        "cache; use --direct=1, or a test area of at least {}",
                        bytes_text(area), kLintCacheFactor, bytes_text(*facts.memory_bytes),
                        bytes_text(kLintCacheFactor * *facts.memory_bytes)));
    return;
  }
  for (const LintTarget& t : job.targets) {
    const auto cache = facts.device_cache_bytes.find(t.path);
    if (cache == facts.device_cache_bytes.end() || area >= kLintCacheFactor * cache->second) continue;
    out.add(spec, kLintSmallTestArea, "size",
            fmt::format("the test area ({}) is under {}x the device cache ({}) under {}: the cache, not the media, "
                        "serves much of it; use a test area of at least {}",
                        bytes_text(area), kLintCacheFactor, bytes_text(cache->second), t.path,
                        bytes_text(kLintCacheFactor * cache->second)));
    return;
  }
}

void check_buffered(const LintJob& job, Findings& out) {
  const JobSpec& spec = *job.spec;
  if (spec.target.direct || !engine_traits(spec.engine.ioengine).direct)
    return;  // mmap: the page cache whatever direct says
  const bool device = !job.targets.empty() && job.targets.front().is_block_device;
  out.add(
      spec, kLintBufferedIo, "direct",
      fmt::format("buffered I/O (direct=0) on {}: the page cache absorbs writes and serves rereads, so the "
                  "numbers describe memory as much as the {}; add --direct=1 to measure the {}",
                  device ? "a block device" : "a file", device ? "device" : "storage", device ? "device" : "storage"));
}

void check_unwritten_reads(const LintJob& job, Findings& out) {
  const JobSpec& spec = *job.spec;
  if (!spec.does_reads()) return;
  for (const LintTarget& t : job.targets) {
    if (t.is_block_device) {
      out.add(spec, kLintUnwrittenReads, "filename",
              fmt::format("reads {}, a block device sluice does not lay out: blocks never written (or trimmed) "
                          "may be answered without touching the media; write the area first "
                          "(sluice precondition)",
                          t.path));
      return;
    }
    if (!t.exists || t.has_unwritten == std::optional<bool>(false)) continue;
    out.add(spec, kLintUnwrittenReads, "filename",
            t.has_unwritten ? fmt::format("{} has holes or unwritten extents in the test area: reads of them never "
                                          "touch the media; write the area first (sluice precondition)",
                                          t.path)
                            : fmt::format("{} existed before this run and its file system does not say whether the "
                                          "test area was ever written; reads of holes never touch the media",
                                          t.path));
    return;
  }
}

void check_buffers(const JobSpec& spec, Findings& out) {
  if (!spec.does_writes()) return;
  if (!spec.buffers.buffer_pattern.empty()) {
    out.add(spec, kLintCompressibleBuffers, "buffer_pattern",
            "writes one repeated pattern (buffer_pattern): storage that compresses or deduplicates makes these "
            "writes look faster than real data");
  } else if (spec.buffers.zero_buffers) {
    out.add(spec, kLintCompressibleBuffers, "zero_buffers",
            "writes zeros (zero_buffers): storage that compresses, deduplicates or detects zeros makes them "
            "look faster than real data");
  } else if (spec.buffers.buffer_compress_percentage > 0) {
    out.add(spec, kLintCompressibleBuffers, "buffer_compress_percentage",
            fmt::format("writes buffers {}% compressible: storage that compresses makes them look faster than "
                        "incompressible data",
                        spec.buffers.buffer_compress_percentage));
  }
}

void check_times(const LintJob& job, Findings& out) {
  const JobSpec& spec = *job.spec;
  if (spec.control.role == JobRole::kBackground) return;  // it runs as long as the group's foreground jobs
  const auto runtime = static_cast<std::uint64_t>(spec.time.runtime.count());
  if (runtime > 0 && runtime < kLintMinSteadyRuntimeNs) {
    out.add(spec, kLintShortRuntime, "runtime",
            fmt::format("runtime={} gives fewer than {} per-second samples, too few to tell whether the result "
                        "is steady; use --runtime=60 or more",
                        format_duration_ns(static_cast<double>(runtime)), kLintMinSteadyRuntimeNs / 1'000'000'000ull));
  }
  const bool device = !job.targets.empty() && job.targets.front().is_block_device;
  if (device && spec.target.direct && spec.time.ramp_time.count() == 0 &&
      spec.time.ramp_size == 0) {  // ramp_size ramps too
    out.add(spec, kLintNoRampTime, "ramp_time",
            "ramp_time=0 on a device: the first seconds (queues filling, device caches and write state settling) "
            "count in the result; use --ramp_time=5 or more");
  }
}

}  // namespace

std::vector<Problem> lint_before_run(const std::vector<LintJob>& jobs, const LintFacts& facts) {
  Findings out;
  for (const LintJob& job : jobs) {
    if (job.spec == nullptr || !engine_traits(job.spec->engine.ioengine).moves_data)
      continue;  // null, falloc, ...: no data
    check_test_area(job, facts, out);
    check_buffered(job, out);
    check_unwritten_reads(job, out);
    check_buffers(*job.spec, out);
    check_times(job, out);
  }
  return out.take();
}

std::vector<Problem> lint_after_run(const std::vector<JobSpec>& jobs, const RunResult& result) {
  Findings out;
  if (result.interrupted) return out.take();
  for (const GroupResult& group : result.groups) {
    for (const JobResult& r : group.jobs) {
      if (r.interrupted || r.error != 0 || r.runtime_ns >= kLintMinSteadyRuntimeNs) continue;
      for (const JobSpec& spec : jobs) {
        if (spec.name != r.name || !engine_traits(spec.engine.ioengine).moves_data ||
            spec.control.role == JobRole::kBackground) {
          continue;
        }
        const auto runtime = static_cast<std::uint64_t>(spec.time.runtime.count());
        if (runtime > 0 && runtime < kLintMinSteadyRuntimeNs) continue;  // said before the run
        out.add(spec, kLintShortRuntime, "runtime",
                fmt::format("measured for {} only: fewer than {} per-second samples, too few to tell whether the "
                            "result is steady; use --time_based --runtime=60, or a larger size",
                            format_duration_ns(static_cast<double>(r.runtime_ns)),
                            kLintMinSteadyRuntimeNs / 1'000'000'000ull));
        break;
      }
    }
  }
  return out.take();
}

LintFacts facts_from_environment(const nlohmann::json& environment) {
  LintFacts facts;
  if (environment.is_object()) {
    const auto it = environment.find("memory_bytes");
    if (it != environment.end() && it->is_number_unsigned() && it->get<std::uint64_t>() > 0) {
      facts.memory_bytes = it->get<std::uint64_t>();
    }
    // Each target's device cache, where its device reports one (observe/environment.h: cache_bytes).
    std::map<std::string, std::uint64_t> cache_of_device;
    for (const nlohmann::json& d : field_or(environment, "devices", nlohmann::json::array())) {
      const nlohmann::json bytes = field_or(d, "cache_bytes", nullptr);
      if (bytes.is_number_unsigned() && bytes.get<std::uint64_t>() > 0) {
        cache_of_device[text_or(d, "name", "")] = bytes.get<std::uint64_t>();
      }
    }
    for (const nlohmann::json& t : field_or(environment, "targets", nlohmann::json::array())) {
      const auto cache = cache_of_device.find(text_or(t, "device", ""));
      if (cache != cache_of_device.end()) facts.device_cache_bytes[text_or(t, "path", "")] = cache->second;
    }
  }
  return facts;
}

std::string render_lint_block(const std::vector<Problem>& warnings) {
  if (warnings.empty()) return {};
  std::string out = "sluice: what could make these numbers mislead:";
  for (const Problem& w : warnings) out += fmt::format("\n  [{}] {}", w.code, w.message);
  return out;
}

}  // namespace sluice
