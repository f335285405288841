#include "lab/truth_report.h"

#include <fmt/format.h>

#include <cmath>

#include "job/units.h"

namespace sluice {
namespace {

double rounded(double value, double step) { return std::round(value / step) * step; }

std::string truth_depth_text(const TruthRow& r) {
  if (r.what == "open_capacity") return "open";
  if (r.iodepth == 0) return "-";
  return std::to_string(r.iodepth);
}

std::string truth_row_text(const TruthRow& r) {
  const std::string mark = r.exact ? " " : "~";
  const std::string what = r.fsync ? "fsync" : r.what;
  if (r.iops == 0) {
    return fmt::format("{:<14}{:<10}{:>8}{:>6}  {:<12}{}  cannot meet the limit: one request alone takes {}\n", what,
                       r.rw, format_bytes(static_cast<double>(r.bs)), truth_depth_text(r), r.phase, mark,
                       format_duration_ns(r.mean_latency.count() * 1e9));
  }
  return fmt::format("{:<14}{:<10}{:>8}{:>6}  {:<12}{}{:>11.1f}{:>12}{:>14}\n", what, r.rw,
                     format_bytes(static_cast<double>(r.bs)), truth_depth_text(r), r.phase, mark, r.iops,
                     format_duration_ns(r.mean_latency.count() * 1e9), format_bytes(r.bw_bytes) + "/s");
}

}  // namespace

std::string render_truth_text(const Truth& truth) {
  std::string out = fmt::format("model {}: {}\n", truth.model, truth.description);
  if (!truth.validity.empty()) out += fmt::format("validity: {}\n", truth.validity);
  out += fmt::format(
      "\nwhat a correct benchmark must measure on the raw device (direct I/O, the whole device); capacity at a "
      "mean latency of {}\n\n",
      format_duration_ns(static_cast<double>(truth.latency_limit.count())));
  out += fmt::format("{:<14}{:<10}{:>8}{:>6}  {:<12} {:>11}{:>12}{:>14}\n", "what", "rw", "bs", "depth", "phase",
                     "IOPS", "mean lat", "bandwidth");
  for (const TruthRow& r : truth.rows) out += truth_row_text(r);
  if (!truth.notes.empty()) out += "\n";
  for (const std::string& note : truth.notes) out += "- " + note + "\n";
  return out;
}

nlohmann::json truth_json(const Truth& truth) {
  nlohmann::json rows = nlohmann::json::array();
  for (const TruthRow& r : truth.rows) {
    rows.push_back({{"what", r.what},
                    {"rw", r.rw},
                    {"bs", r.bs},
                    {"iodepth", r.iodepth},
                    {"phase", r.phase},
                    {"fsync", r.fsync ? 1u : 0u},
                    {"iops", rounded(r.iops, 0.001)},
                    {"mean_lat_ns", rounded(r.mean_latency.count() * 1e9, 0.1)},
                    {"bw_bytes", static_cast<std::uint64_t>(std::llround(r.bw_bytes))},
                    {"exact", r.exact}});
  }
  return {{"model", truth.model},       {"description", truth.description},
          {"validity", truth.validity}, {"latency_limit_ns", truth.latency_limit.count()},
          {"expect", std::move(rows)},  {"notes", truth.notes}};
}

}  // namespace sluice
