#include "scale/scale_report.h"

#include <fmt/format.h>

#include <algorithm>

#include "observe/environment.h"
#include "report/environment_summary.h"
#include "report/result_document.h"

namespace sluice {
namespace {

std::string command_text(const ScaleOptions& o) {
  std::string out;
  for (const std::string& w : o.command) out += (out.empty() ? "" : " ") + w;
  return out;
}

std::string knee_text(const std::optional<std::uint32_t>& knee, const std::vector<ScaleRowStats>& stats) {
  if (stats.size() < 2) return "knee: needs two values of N";
  if (!knee)
    return fmt::format("knee: not reached; every step up to N={} made the command at least 10% faster", stats.back().n);
  return fmt::format("knee: N={} (the next step made the command less than 10% faster)", *knee);
}

nlohmann::json failure_json(const ScaleResult& r) {
  if (!r.failed) return nullptr;
  const ChildRun& c = r.failure.child;
  return {{"n", r.failure.n},
          {"run", r.failure.run},
          {"in_prepare", r.failure.in_prepare},
          {"command", r.failure.command},
          {"exit_status", c.exit_status},
          {"signal", c.term_signal},
          {"timed_out", c.timed_out},
          {"interrupted", c.interrupted},
          {"message", describe_failure(c)}};
}

}  // namespace

std::vector<ScaleRowStats> scale_stats(const std::vector<ScaleRow>& rows, unsigned cpus) {
  std::vector<ScaleRowStats> out;
  for (const ScaleRow& row : rows) {
    if (row.runs.empty()) continue;
    ScaleRowStats s;
    s.n = row.n;
    s.wall_min = row.runs.front().wall_s;
    s.wall_max = row.runs.front().wall_s;
    for (const ChildRun& r : row.runs) {
      s.wall_mean += r.wall_s;
      s.cpu_user_s += r.user_s;
      s.cpu_sys_s += r.sys_s;
      s.wall_min = std::min(s.wall_min, r.wall_s);
      s.wall_max = std::max(s.wall_max, r.wall_s);
    }
    const double k = static_cast<double>(row.runs.size());
    s.wall_mean /= k;
    s.cpu_user_s /= k;
    s.cpu_sys_s /= k;
    s.busy_cpus = s.wall_mean > 0 ? (s.cpu_user_s + s.cpu_sys_s) / s.wall_mean : 0;
    s.utilization = cpus > 0 ? s.busy_cpus / cpus : 0;
    out.push_back(s);
  }
  if (out.empty()) return out;
  const ScaleRowStats base = out.front();
  for (ScaleRowStats& s : out) {
    s.speedup = s.wall_mean > 0 ? base.wall_mean / s.wall_mean : 0;
    s.efficiency = s.n > 0 ? s.speedup * base.n / s.n : 0;
  }
  return out;
}

std::optional<std::uint32_t> scale_knee(const std::vector<ScaleRowStats>& stats) {
  for (std::size_t i = 0; i + 1 < stats.size(); ++i) {
    if (stats[i + 1].speedup < stats[i].speedup * kKneeGain) return stats[i].n;
  }
  return std::nullopt;
}

nlohmann::json scale_json(const ScaleResult& r) {
  const std::vector<ScaleRowStats> stats = scale_stats(r.rows, r.cpus);
  const std::optional<std::uint32_t> knee = scale_knee(stats);
  nlohmann::json rows = nlohmann::json::array();
  for (const ScaleRowStats& s : stats) {
    rows.push_back({{"n", s.n},
                    {"wall_s", {{"mean", s.wall_mean}, {"min", s.wall_min}, {"max", s.wall_max}}},
                    {"speedup", s.speedup},
                    {"efficiency", s.efficiency},
                    {"cpu_user_s", s.cpu_user_s},
                    {"cpu_sys_s", s.cpu_sys_s},
                    {"busy_cpus", s.busy_cpus},
                    {"utilization", s.utilization}});
  }
  nlohmann::json values = scale_values(r.options, r.cpus);
  nlohmann::json environment = r.environment.is_object() ? r.environment : nlohmann::json::object();
  environment["virtualization"] = {{"kind", r.virtualization.kind},
                                   {"what", r.virtualization.what},
                                   {"vm", r.virtualization.vm},
                                   {"container", r.virtualization.container},
                                   {"evidence", r.virtualization.evidence},
                                   {"summary", r.virtualization.describe()}};
  nlohmann::json scale = {{"command", r.options.command},
                          {"shell", r.options.shell},
                          {"prepare", r.options.prepare},
                          {"values", values},
                          {"runs", r.options.runs},
                          {"log", r.options.log_path},
                          {"cpus", r.cpus},
                          {"rows", rows},
                          {"knee", knee ? nlohmann::json(*knee) : nlohmann::json(nullptr)},
                          {"knee_rule", "the first N whose next step is less than 10% faster (speedup ratio < 1.10)"},
                          {"failure", failure_json(r)},
                          {"interrupted", r.interrupted}};
  return result_document(ResultEnvelope{"scale", r.timestamp_ms, "", std::nullopt}, nlohmann::json::object(),
                         {{"environment", std::move(environment)}, {"scale", std::move(scale)}});
}

std::string render_scale_text(const ScaleResult& r) {
  const std::vector<ScaleRowStats> stats = scale_stats(r.rows, r.cpus);
  std::string out = fmt::format("sluice scale: {}\n{} run{} per N; output in {}\n", command_text(r.options),
                                r.options.runs, r.options.runs == 1 ? "" : "s", r.options.log_path);
  if (r.environment.is_object() && !r.environment.empty()) {
    out += "environment: " + environment_summary(r.environment) + "\n";
  }
  out += fmt::format("virtualization: {}\n\n", r.virtualization.describe());
  out += fmt::format("{:>5} {:>10} {:>10} {:>10} {:>8} {:>10} {:>10} {:>10} {:>9} {:>6}\n", "N", "wall (s)", "min",
                     "max", "speedup", "efficiency", "user (s)", "sys (s)", "busy CPUs", "util");
  for (const ScaleRowStats& s : stats) {
    out +=
        fmt::format("{:>5} {:>10.3f} {:>10.3f} {:>10.3f} {:>8.2f} {:>9.0f}% {:>10.3f} {:>10.3f} {:>9.2f} {:>5.0f}%\n",
                    s.n, s.wall_mean, s.wall_min, s.wall_max, s.speedup, s.efficiency * 100, s.cpu_user_s, s.cpu_sys_s,
                    s.busy_cpus, s.utilization * 100);
  }
  out += knee_text(scale_knee(stats), stats) + "\n";
  if (r.failed) {
    out += fmt::format("stopped: N={} run {} {}{}: {} (see {})\n", r.failure.n, r.failure.run,
                       r.failure.in_prepare ? "--prepare " : "", r.failure.command, describe_failure(r.failure.child),
                       r.options.log_path);
  }
  return out;
}

}  // namespace sluice
