// The normal (human) report: job sections, "Run status group", "Disk stats", sluice's own lines.
#include <fmt/format.h>

#include "report/environment_summary.h"
#include "report/report_format.h"
#include "report/reporters.h"
#include "report/sluice_extras.h"
#include "report/text_parts.h"
#include "report/unified.h"

namespace sluice {
namespace {

using report::compact_number;
using report::NumUnit;

// "   READ: bw=42.7MiB/s (44.8MB/s), 42.7MiB/s-42.7MiB/s (44.8MB/s-44.8MB/s), io=85.5MiB (89.6MB), run=2001-2001msec"
// The group's numbers use its first job's kb_base, significant_figures and unit_base.
void append_group_status(std::string& out, const GroupResult& group, int kb_base) {
  static constexpr std::array<std::string_view, kNumDirections> kLabels = {"   READ", "  WRITE", "   TRIM"};
  const int base = kb_base == 1000 ? 1000 : 1024;
  const int alt = base == 1000 ? 1024 : 1000;
  const JobReportSettings format = group.jobs.empty() ? JobReportSettings{} : group.jobs.front().settings;
  const int digits = format.significant_figures;
  const NumUnit rate_unit = format.bandwidth_in_bits ? NumUnit::kBits : NumUnit::kBytes;
  const auto rate = [&](std::uint64_t v, int b) {
    return compact_number(static_cast<double>(v), digits, b, rate_unit) + "/s";
  };
  // unified_rw_reporting (every job of the group): one "MIXED" line over all directions, as fio.
  bool unified = !group.jobs.empty();
  for (const JobResult& job : group.jobs) unified = unified && job.settings.unified_rw_reporting;
  // Not `group_totals(unified ? merge_directions(group) : group)`: the conditional would copy the whole
  // group, every job's series with it, to make both branches one type.
  const PerDirection<report::GroupDirectionTotals> totals =
      unified ? report::group_totals(report::merge_directions(group)) : report::group_totals(group);
  out += fmt::format("\nRun status group {} (all jobs):\n", group.groupid);
  for (Direction d : kAllDirections) {
    const report::GroupDirectionTotals& t = totals[static_cast<std::size_t>(index_of(d))];
    if (!t.active) continue;
    out += fmt::format("{}: bw={} ({}), {}-{} ({}-{}), io={} ({}), run={}-{}msec\n",
                       unified ? std::string_view("  MIXED") : kLabels[static_cast<std::size_t>(index_of(d))],
                       rate(t.agg_bw_bytes, base), rate(t.agg_bw_bytes, alt), rate(t.min_bw_bytes, base),
                       rate(t.max_bw_bytes, base), rate(t.min_bw_bytes, alt), rate(t.max_bw_bytes, alt),
                       compact_number(static_cast<double>(t.io_bytes), digits, base, NumUnit::kBytes),
                       compact_number(static_cast<double>(t.io_bytes), digits, alt, NumUnit::kBytes), t.min_run_ms,
                       t.max_run_ms);
  }
}

// role=background jobs, after their group's status: throughput and its per-second series.
void append_background(std::string& out, const GroupResult& group, int kb_base) {
  const std::vector<report::ReportedJob> jobs = report::background_jobs(group, report::SeriesCopy::kBorrow);
  if (jobs.empty()) return;
  const int base = kb_base == 1000 ? 1000 : 1024;
  const char* unit = base == 1000 ? "MB/s" : "MiB/s";
  out += fmt::format("\nBackground jobs of group {} (not in the group's results):\n", group.groupid);
  for (const report::ReportedJob& entry : jobs) {
    const JobResult& job = entry.job;
    for (Direction d : kAllDirections) {
      const report::DirectionRates r = report::direction_rates(job, d);
      if (r.io_bytes == 0) continue;
      out += fmt::format("  {}: {} bw={}/s, iops={}, io={}, run={}msec\n", job.name, direction_name(d),
                         compact_number(static_cast<double>(r.bw_bytes), 4, base, NumUnit::kBytes),
                         compact_number(r.iops, 4, 1000, NumUnit::kNone),
                         compact_number(static_cast<double>(r.io_bytes), 4, base, NumUnit::kBytes), r.runtime_ms);
      const double interval_s = static_cast<double>(entry.series().interval_ns()) / 1e9;
      if (entry.series().size() == 0 || interval_s <= 0) continue;
      out += fmt::format("    per {:g} s ({}):", interval_s, unit);
      const double scale = base == 1000 ? 1e6 : 1048576.0;
      for (const auto& sample : entry.series().samples()) {
        const double bw = static_cast<double>(sample[static_cast<std::size_t>(index_of(d))].bytes) / interval_s;
        out += fmt::format(" {:.1f}", bw / scale);
      }
      out += "\n";
    }
  }
}

void append_disk_stats(std::string& out, const std::vector<DiskUtilization>& disks) {
  if (disks.empty()) return;
  out += "\nDisk stats (read/write):\n";
  for (const DiskUtilization& d : disks) {
    out += fmt::format("  {}: ios={}/{}, merge={}/{}, ticks={}/{}, in_queue={}, util={:3.2f}%\n", d.name, d.read_ios,
                       d.write_ios, d.read_merges, d.write_merges, d.read_ticks_ms, d.write_ticks_ms, d.in_queue_ms,
                       report::finite_or_zero(d.util_percent));
  }
}

void append_sluice_lines(std::string& out, const RunResult& result) {
  out += "\n";
  if (result.interrupted) out += "sluice: run interrupted; results cover the time measured before the stop\n";
  out += fmt::format("sluice: clock={}\n", result.clock_source.empty() ? "unknown" : result.clock_source);
  if (!result.environment.empty()) out += "sluice: environment: " + environment_summary(result.environment) + "\n";
}

// The head of the report: what the run did besides measuring, then its warnings, then a blank line.
void append_notes_and_warnings(std::string& out, const RunResult& result) {
  for (const std::string& note : result.notes) out += note + "\n";
  if (!result.warnings.empty()) {
    out += "Warnings:\n";
    for (const Problem& w : result.warnings) {
      out += "  " + w.where.describe() + ": ";
      if (!w.option.empty()) out += w.option + ": ";
      out += w.message + "\n";
    }
  }
  if (!out.empty()) out += "\n";
}

int kb_base_of(const GroupResult& group) {
  return group.jobs.empty() ? 1024 : static_cast<int>(group.jobs.front().settings.kb_base);
}

}  // namespace

std::string render_job_banner(const JobResult& job) {
  const JobReportSettings& s = job.settings;
  const int base = s.kb_base == 1000 ? 1000 : 1024;
  const auto size = [&](std::uint64_t v) { return compact_number(static_cast<double>(v), 4, base, NumUnit::kBytes); };
  return fmt::format("{}: (g={}): rw={}, bs=(R) {}-{}, (W) {}-{}, (T) {}-{}, ioengine={}, iodepth={}", job.name,
                     job.groupid, s.rw, size(s.bs_min[0]), size(s.bs_max[0]), size(s.bs_min[1]), size(s.bs_max[1]),
                     size(s.bs_min[2]), size(s.bs_max[2]), s.ioengine, s.iodepth);
}

std::string render_normal(const RunResult& result) { return render_normal(result, NormalReportOptions{}); }

std::string render_normal_jobs(const RunResult& result) {
  std::string out;
  for (const GroupResult& group : result.groups) {
    const PerDirection<report::GroupDirectionTotals> totals = report::group_totals(group);
    for (const report::ReportedJob& entry : report::reported_jobs(group, report::SeriesCopy::kBorrow)) {
      report::append_job_section(out, entry, totals);
    }
  }
  return out;
}

std::string render_normal(const RunResult& result, const NormalReportOptions& options) {
  std::string out;
  if (options.show_warnings) append_notes_and_warnings(out, result);
  // --profile=act: fio's table of the slices and its verdict, before the jobs (fio prints it as its last act
  // job ends).
  if (const std::vector<ActSlice> act = report::act_slices_of(result); !act.empty()) out += act_report(act) + "\n";
  for (const GroupResult& group : result.groups) {
    const PerDirection<report::GroupDirectionTotals> totals = report::group_totals(group);
    // The series stay in `result` (a long run's largest part): the sections read none of them.
    for (const report::ReportedJob& entry : report::reported_jobs(group, report::SeriesCopy::kBorrow)) {
      report::append_job_section(out, entry, totals);
    }
  }
  for (const GroupResult& group : result.groups) {
    append_group_status(out, group, kb_base_of(group));
    append_background(out, group, kb_base_of(group));
  }
  append_disk_stats(out, result.disks);
  if (options.sluice_lines) append_sluice_lines(out, result);
  return out;
}

}  // namespace sluice
