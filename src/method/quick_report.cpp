// sluice quick's outputs: the table (normal format) and the "sluice.quick" JSON section. Pure functions of a
// QuickReport.
#include <fmt/format.h>

#include "job/units.h"
#include "method/quick.h"
#include "method/quick_class.h"
#include "observe/environment.h"
#include "report/environment_summary.h"

namespace sluice {
namespace {

std::string seconds_text(std::chrono::nanoseconds d) {
  return fmt::format("{:g} s", std::chrono::duration<double>(d).count());
}

std::string concurrency_text(const QuickRow& row) {
  if (!row.within_slo) return "none";
  if (row.numjobs <= 1) return std::to_string(row.iodepth);
  return fmt::format("{}x{}", row.iodepth, row.numjobs);
}

std::string_view limit_name(SizeLimit limit) {
  switch (limit) {
    case SizeLimit::kNone:
      return "cache rules";
    case SizeLimit::kFreeSpace:
      return "free space";
    case SizeLimit::kBudget:
      return "budget";
    case SizeLimit::kRequested:
      return "--size";
  }
  return "";
}

std::string header(const QuickReport& r) {
  std::string out = fmt::format("sluice quick: {} ({}, sized by {}), {}, {} I/O, budget {}, took {:.1f} s\n", r.file,
                                format_bytes(double(r.file_size)), limit_name(r.sizing.limited_by), r.engine,
                                r.direct ? "direct" : "buffered", seconds_text(r.budget), r.elapsed_seconds);
  if (!r.run.environment.empty()) out += environment_summary(r.run.environment) + "\n";
  return out;
}

std::string rows(const QuickReport& r) {
  std::string out = fmt::format("\n{:<36} {:>11} {:>10} {:>26} {:>10} {:>10} {:>10}\n", "test", "concurrency", "IOPS",
                                "bandwidth", "lat mean", "lat p99", "lat p99.9");
  for (const QuickRow& row : r.rows) {
    out += fmt::format("{:<36} {:>11} {:>10.0f} {:>26} {:>10} {:>10} {:>10}\n", row.test, concurrency_text(row),
                       row.iops, format_bandwidth(row.bytes_per_second), format_duration_ns(row.lat_mean_ns),
                       format_duration_ns(double(row.lat_p99_ns)), format_duration_ns(double(row.lat_p999_ns)));
  }
  if (r.rows.empty()) out += "(nothing measured)\n";
  out += "\n" + behaves_like_line(behaves_like_of(r.rows, r.run.interrupted, r.direct)) + "\n";
  return out;
}

std::string notes(const QuickReport& r) {
  std::string out =
      "\nconcurrency = I/Os in flight (iodepth, or iodepth x jobs). lat = issue to completion of each "
      "I/O;\npercentiles within 0.78%.";
  out += fmt::format(" The capacity rows are the highest IOPS whose mean latency stays within {}.\n",
                     format_duration_ns(double(r.slo.count())));
  for (const QuickRow& row : r.rows) {
    if (!row.within_slo) {
      out += fmt::format("{}: even concurrency 1 exceeded the limit; the row shows concurrency 1.\n", row.test);
    }
    if (row.capacity.is_object() && row.capacity.contains("knee") && row.capacity["knee"].is_object()) {
      const auto& knee = row.capacity["knee"];
      out +=
          fmt::format("{}: knee at concurrency {} ({:.0f} IOPS, mean {}).\n", row.test, knee.value("concurrency", 0u),
                      knee.value("iops", 0.0), format_duration_ns(knee.value("lat_mean_ns", 0.0)));
    }
    if (row.key == "fsync_write") {
      out +=
          "fsync row: IOPS = writes per second, each followed by fsync; lat mean = write + fsync, p99 and p99.9 "
          "of the fsync.\n";
    }
  }
  out += fmt::format(
      "behaves like: the nearest reference class ({}) by depth-1\nrandom read latency and peak "
      "random read IOPS, in decades, IOPS counting {:g}; beyond {:g} decades a poor match.\n",
      reference_classes_text(), kQuickClassIopsWeight, kQuickClassPoorMatch);
  return out;
}

std::string quick_warnings_block(const QuickReport& r) {
  if (r.run.warnings.empty()) return {};
  std::string out = "\nwarnings (what could make these numbers lie):\n";
  for (const Problem& w : r.run.warnings) {
    out += w.option.empty() ? fmt::format("  {}\n", w.message) : fmt::format("  {}: {}\n", w.option, w.message);
  }
  return out;
}

}  // namespace

std::string render_quick_table(const QuickReport& report) {
  std::string out = header(report) + rows(report) + notes(report) + quick_warnings_block(report);
  if (report.run.interrupted) out += "\ninterrupted: the table shows the tests measured so far.\n";
  out += report.kept ? fmt::format("\nThe test file was kept: {}\n", report.file)
                     : std::string("\nThe test file was removed.\n");
  return out;
}

nlohmann::json quick_summary_json(const QuickReport& report) {
  nlohmann::json tests = nlohmann::json::array();
  for (const QuickRow& row : report.rows) {
    tests.push_back({{"key", row.key},
                     {"test", row.test},
                     {"direction", std::string(direction_name(row.direction))},
                     {"iodepth", row.iodepth},
                     {"numjobs", row.numjobs},
                     {"concurrency", row.iodepth * row.numjobs},
                     {"iops", row.iops},
                     {"bw_bytes", row.bytes_per_second},
                     {"lat_mean_ns", row.lat_mean_ns},
                     {"lat_p99_ns", row.lat_p99_ns},
                     {"lat_p999_ns", row.lat_p999_ns},
                     {"within_slo", row.within_slo},
                     {"capacity", row.capacity}});
  }
  return {{"directory", report.directory},
          {"file", report.file},
          {"file_size", report.file_size},
          {"size_wanted", report.sizing.wanted},
          {"cache_bytes", report.sizing.cache_bytes},
          {"size_limited_by", std::string(limit_name(report.sizing.limited_by))},
          {"engine", report.engine},
          {"direct", report.direct},
          {"budget_s", std::chrono::duration<double>(report.budget).count()},
          {"elapsed_s", report.elapsed_seconds},
          {"layout_s", report.layout_seconds},
          {"slo_ns", report.slo.count()},
          {"slo_stat", "mean"},
          {"kept", report.kept},
          {"interrupted", report.run.interrupted},
          {"behaves_like", behaves_like_json(behaves_like_of(report.rows, report.run.interrupted, report.direct))},
          {"tests", tests}};
}

}  // namespace sluice
