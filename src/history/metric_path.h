#pragma once
// Metric paths: how `sluice history trend` and the --repeat spread name one number of a result document.
//
//   DIR.FIELD[.FIELD...]   a field of one job's read/write/trim section: read.iops, write.bw_bytes,
//                          read.lat_ns.mean, read.clat_ns.max. The job is the first one unless `job` names it.
//   ...pNN                 a percentile as the last part: read.clat_ns.p99, read.lat_ns.p99.9. It reads
//                          "percentile"/"NN.000000" of that section; lat_ns without percentiles (fio prints
//                          them under clat_ns unless lat_percentiles=1) falls back to clat_ns.
//   /a/b/c                 a JSON pointer into the whole document: /sluice/capacity/iops.
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sluice {

// The number at `path` in `document`, or nothing when the document has no such number. Throws UserError
// when `path` itself is malformed (empty, an unknown direction, a bad percentile).
std::optional<double> metric_value(const nlohmann::json& document, std::string_view path, std::string_view job = {});

// One headline metric of a job's direction, for the --repeat spread.
struct HeadlineMetric {
  std::string job;     // the job name ("jobname")
  std::string path;    // metric path: read.iops
  std::string name;    // for tables: "read IOPS"
  std::string unit;    // "", "MiB/s", "us"
  double scale = 1.0;  // value * scale is shown in `unit`
};

// The headline metrics of a document: per job (with a name) and per direction that did I/O (total_ios > 0),
// IOPS, bandwidth, mean latency (lat_ns) and p99 completion latency. In the document's order.
std::vector<HeadlineMetric> headline_metrics(const nlohmann::json& document);

}  // namespace sluice
