// The capacity report: the curve table with the answer, knee and thrashing lines, and the JSON block
// "sluice.capacity". Pure functions of a request and its result.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "common/error.h"
#include "job/units.h"
#include "method/capacity.h"

namespace sluice {
namespace {

constexpr std::pair<SloStat, std::string_view> kStats[] = {{SloStat::kMean, "mean"},
                                                           {SloStat::kP50, "p50"},
                                                           {SloStat::kP95, "p95"},
                                                           {SloStat::kP99, "p99"},
                                                           {SloStat::kP999, "p99.9"}};
constexpr std::pair<ConcurrencyScale, std::string_view> kScales[] = {{ConcurrencyScale::kIodepth, "iodepth"},
                                                                     {ConcurrencyScale::kNumjobs, "numjobs"},
                                                                     {ConcurrencyScale::kBoth, "both"}};

std::string ms(double ns) { return format_duration_ns(ns); }

bool has_transactions(const CapacityResult& result) {
  return std::any_of(result.curve.begin(), result.curve.end(),
                     [](const CapacityPoint& p) { return p.transactions_per_s > 0; });
}

std::string point_label(const CapacityPoint& p) {
  if (p.hosts > 1) {
    return fmt::format("concurrency {} ({} x {} on each of {} hosts)", p.concurrency(), p.iodepth, p.numjobs, p.hosts);
  }
  return fmt::format("concurrency {} ({} x {})", p.concurrency(), p.iodepth, p.numjobs);
}

// What ran: the streams' workloads, and for several streams that they are independent, not randrw.
std::string workload_line(const CapacityRequest& request) {
  if (!request.workload.empty()) return request.workload + "\n";
  if (request.streams.empty()) return "no stream";
  const JobSpec& first = request.streams.front();
  std::string modes;
  for (const JobSpec& s : request.streams)
    modes += (modes.empty() ? "" : " + ") + std::string(rw_mode_name(s.workload.rw));
  std::string target = !first.target.filenames.empty()   ? first.target.filenames.front()
                       : !first.target.directory.empty() ? "files in " + first.target.directory
                                                         : std::string("(no file)");
  std::string line =
      fmt::format("sluice capacity: {} {}, {} {}, {}\n", modes, format_bytes(static_cast<double>(first.workload.bs[0])),
                  engine_name(first.engine.ioengine), first.target.direct ? "direct" : "buffered", target);
  if (request.streams.size() > 1) {
    line += fmt::format(
        "{} independent streams side by side, scaled together (not randrw, where reads and writes "
        "share one queue and depend on each other)\n",
        request.streams.size());
  }
  return line;
}

// "trans/s" and "scaling" columns for dependent io: transactions/s and its scaling efficiency.
std::string transactions_cells(const CapacityResult& result, const CapacityPoint& p) {
  const std::optional<double> efficiency = scaling_efficiency(result.curve, p);
  return fmt::format(" {:>9.0f} {:>7}", p.transactions_per_s, efficiency ? fmt::format("{:.2f}", *efficiency) : "-");
}

std::string curve_table(const CapacityResult& result) {
  const bool tps = has_transactions(result);
  const std::string tps_header = tps ? fmt::format(" {:>9} {:>7}", "trans/s", "scaling") : "";
  std::string out =
      fmt::format("{:>6} {:>8} {:>8} {:>11}{} {:>10} {:>10} {:>10} {:>10} {:>6} {:>6}\n", "conc", "iodepth", "numjobs",
                  "IOPS", tps_header, "lat mean", "lat p50", "lat p99", "lat p99.9", "limit", "steady");
  for (const CapacityPoint& p : result.curve) {
    out += fmt::format("{:>6} {:>8} {:>8} {:>11.0f}{} {:>10} {:>10} {:>10} {:>10} {:>6} {:>6}\n", p.concurrency(),
                       p.iodepth, p.numjobs, p.iops, tps ? transactions_cells(result, p) : "", ms(p.lat_mean_ns),
                       ms(static_cast<double>(p.lat_p50_ns)), ms(static_cast<double>(p.lat_p99_ns)),
                       ms(static_cast<double>(p.lat_p999_ns)), p.within_slo ? "ok" : "over", p.steady ? "yes" : "no");
  }
  return out;
}

nlohmann::json point_json(const CapacityPoint& p) {
  nlohmann::json j = {{"concurrency", p.concurrency()},
                      {"iodepth", p.iodepth},
                      {"numjobs", p.numjobs},
                      {"hosts", p.hosts},
                      {"iops", p.iops},
                      {"lat_mean_ns", p.lat_mean_ns},
                      {"lat_p50_ns", p.lat_p50_ns},
                      {"lat_p95_ns", p.lat_p95_ns},
                      {"lat_p99_ns", p.lat_p99_ns},
                      {"lat_p999_ns", p.lat_p999_ns},
                      {"runtime_s", p.runtime_s},
                      {"steady", p.steady},
                      {"within_slo", p.within_slo}};
  if (p.transactions_per_s > 0) j["transactions_per_s"] = p.transactions_per_s;
  return j;
}

// Where c streams stop giving c times one stream's transactions/s.
std::string scaling_line(const CapacityResult& result) {
  const std::optional<CapacityPoint> limit = scaling_limit(result.curve);
  if (limit) {
    return fmt::format(
        "scaling: below {:.0f}% from {}: {:.0f} transactions/s = {:.2f} x (concurrency x the rate at "
        "one stream per host)\n",
        kScalingFloor * 100, point_label(*limit), limit->transactions_per_s,
        scaling_efficiency(result.curve, *limit).value_or(0));
  }
  const bool has_one = std::any_of(result.curve.begin(), result.curve.end(), [&](const CapacityPoint& p) {
    return scaling_efficiency(result.curve, p).has_value();
  });
  return has_one ? fmt::format(
                       "scaling: at least {:.0f}% at every measured concurrency (transactions/s grow with "
                       "the streams)\n",
                       kScalingFloor * 100)
                 : std::string("scaling: unknown (concurrency 1 was not measured)\n");
}

nlohmann::json optional_point_json(const std::optional<CapacityPoint>& p) {
  return p ? point_json(*p) : nlohmann::json(nullptr);
}

}  // namespace

std::uint64_t slo_stat_value(const CapacityPoint& point, SloStat stat) {
  switch (stat) {
    case SloStat::kMean:
      return static_cast<std::uint64_t>(std::llround(point.lat_mean_ns));
    case SloStat::kP50:
      return point.lat_p50_ns;
    case SloStat::kP95:
      return point.lat_p95_ns;
    case SloStat::kP99:
      return point.lat_p99_ns;
    case SloStat::kP999:
      return point.lat_p999_ns;
  }
  return 0;
}

std::string_view slo_stat_name(SloStat stat) {
  for (const auto& [value, name] : kStats) {
    if (value == stat) return name;
  }
  return "mean";
}

std::string_view scale_name(ConcurrencyScale scale) {
  for (const auto& [value, name] : kScales) {
    if (value == scale) return name;
  }
  return "iodepth";
}

SloStat parse_slo_stat(std::string_view text) {
  for (const auto& [value, name] : kStats) {
    if (name == text) return value;
  }
  throw UserError(fmt::format("--slo-stat={}: not one of mean, p50, p95, p99, p99.9", text));
}

ConcurrencyScale parse_scale(std::string_view text) {
  for (const auto& [value, name] : kScales) {
    if (name == text) return value;
  }
  throw UserError(fmt::format("--scale={}: not one of iodepth, numjobs, both", text));
}

// The run's warnings (validation and the methodology lint), at the top of the table as `sluice run` shows them.
std::string warnings_block(const RunResult& run) {
  if (run.warnings.empty()) return {};
  std::string out = "Warnings:\n";
  for (const Problem& w : run.warnings) {
    out += "  " + w.where.describe() + ": " + (w.option.empty() ? "" : w.option + ": ") + w.message + "\n";
  }
  return out + "\n";
}

std::string render_capacity_table(const CapacityRequest& request, const CapacityResult& result) {
  const std::string stat(slo_stat_name(request.slo_stat));
  const double slo = static_cast<double>(request.slo.count());
  std::string out = warnings_block(result.final_run) + workload_line(request);
  out += fmt::format("limit: {} lat <= {}; concurrency = iodepth x numjobs{} (scale: {}); budget {:.0f} s\n", stat,
                     ms(slo), request.hosts > 1 ? " x hosts" : "", scale_name(request.scale),
                     std::chrono::duration<double>(request.budget).count());
  if (request.hosts > 1) {
    out += fmt::format(
        "{} hosts (MPI ranks) ran each point in step; IOPS are all hosts' ios over the common window, "
        "latencies those of every io (merged histograms)\n",
        request.hosts);
  }
  out += "\n";
  out += curve_table(result);
  out += "\n";
  if (result.answer) {
    const CapacityPoint& a = *result.answer;
    out += fmt::format("capacity: {:.0f} IOPS at {}, {} lat {} <= limit {}\n", a.iops, point_label(a), stat,
                       ms(static_cast<double>(slo_stat_value(a, request.slo_stat))), ms(slo));
    if (a.transactions_per_s > 0)
      out += fmt::format("          {:.0f} read-modify-write transactions/s\n", a.transactions_per_s);
  } else if (!result.curve.empty()) {
    out += fmt::format("capacity: none: even concurrency {} exceeds the limit ({} lat {} > {})\n",
                       result.curve.front().concurrency(), stat,
                       ms(static_cast<double>(slo_stat_value(result.curve.front(), request.slo_stat))), ms(slo));
  } else {
    out += "capacity: nothing was measured\n";
  }
  if (result.knee) {
    out += fmt::format(
        "knee: {}: {:.0f} IOPS, mean lat {}; the most IOPS per latency: beyond it, concurrency adds "
        "more latency than IOPS\n",
        point_label(*result.knee), result.knee->iops, ms(result.knee->lat_mean_ns));
  } else {
    out += "knee: not reached\n";
  }
  if (result.thrashing) {
    out += fmt::format("thrashing: {}: {:.0f} IOPS, more than {:.0f}% below the best at lower concurrency\n",
                       point_label(*result.thrashing), result.thrashing->iops, kThrashingLoss * 100);
  } else {
    out += "thrashing: not reached\n";
  }
  if (has_transactions(result)) out += scaling_line(result);
  out += fmt::format("search: {} points in {:.1f} s; ramp ended: {}\n", result.curve.size(), result.elapsed_s,
                     result.stop_reason.empty() ? "-" : result.stop_reason);
  if (result.interrupted) out += "interrupted: the table shows the points measured so far\n";
  out +=
      "lat = issue to completion of each I/O; percentiles within 0.78%. steady = the per-interval IOPS of the\n"
      "last 5 samples stayed within 20% of their mean with a trend under 10% (SNIA's rule).\n";
  return out;
}

nlohmann::json capacity_json(const CapacityRequest& request, const CapacityResult& result) {
  nlohmann::json curve = nlohmann::json::array();
  for (const CapacityPoint& p : result.curve) {
    nlohmann::json point = point_json(p);
    const std::optional<double> efficiency = scaling_efficiency(result.curve, p);
    if (efficiency) point["scaling_efficiency"] = *efficiency;
    curve.push_back(std::move(point));
  }
  const std::optional<CapacityPoint> limit = scaling_limit(result.curve);
  nlohmann::json streams = nlohmann::json::array();
  for (const JobSpec& s : request.streams) streams.push_back(std::string(rw_mode_name(s.workload.rw)));
  const std::optional<CapacityPoint>& a = result.answer;
  return {
      {"slo_ns", request.slo.count()},
      {"stat", std::string(slo_stat_name(request.slo_stat))},
      {"scale", std::string(scale_name(request.scale))},
      {"streams", streams},
      {"independent_streams", request.streams.size() > 1},
      {"iops", a ? nlohmann::json(a->iops) : nlohmann::json(nullptr)},
      {"concurrency", a ? nlohmann::json(a->concurrency()) : nlohmann::json(nullptr)},
      {"iodepth", a ? nlohmann::json(a->iodepth) : nlohmann::json(nullptr)},
      {"numjobs", a ? nlohmann::json(a->numjobs) : nlohmann::json(nullptr)},
      {"hosts", request.hosts},
      {"lat_ns", a ? nlohmann::json(slo_stat_value(*a, request.slo_stat)) : nlohmann::json(nullptr)},
      {"transactions_per_s",
       a && a->transactions_per_s > 0 ? nlohmann::json(a->transactions_per_s) : nlohmann::json(nullptr)},
      {"scaling",
       has_transactions(result)
           ? nlohmann::json{{"floor", kScalingFloor},
                            {"below_floor_at", limit ? nlohmann::json(limit->concurrency()) : nlohmann::json(nullptr)}}
           : nlohmann::json(nullptr)},
      {"knee", optional_point_json(result.knee)},
      {"thrashing", optional_point_json(result.thrashing)},
      {"curve", curve},
      {"elapsed_s", result.elapsed_s},
      {"budget_s", std::chrono::duration<double>(request.budget).count()},
      {"budget_exhausted", result.budget_exhausted},
      {"interrupted", result.interrupted},
      {"stop_reason", result.stop_reason},
      {"rules",
       {{"knee",
         "the point of highest power, IOPS / mean latency (Kleinrock), unless it is the last point: where the "
         "curve's asymptotes meet (N* = max IOPS x latency alone)"},
        {"thrashing", fmt::format("first point whose IOPS is more than {:.0f}% below the best at lower concurrency",
                                  kThrashingLoss * 100)},
        {"steady",
         "per-interval IOPS of the last window samples: max - min <= 20% of the mean and the fitted "
         "line's excursion <= 10% of the mean"}}},
  };
}

}  // namespace sluice
