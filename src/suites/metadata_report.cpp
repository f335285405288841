#include "suites/metadata_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <set>

#include "report/result_document.h"

namespace sluice {
namespace {

const std::vector<double> kMetadataPercentiles = {1, 5, 10, 50, 90, 95, 99, 99.9, 99.99};

bool is_tree(MetadataPhase p) { return p == MetadataPhase::kTreeCreate || p == MetadataPhase::kTreeRemove; }

// mdtest 4.0.0 prints the directory rows unless -F, the file rows unless -D, and the tree rows always.
std::vector<MetadataPhase> printed_rows(const MetadataPlan& plan) {
  std::vector<MetadataPhase> rows;
  for (std::size_t i = 0; i < kMetadataPhaseCount; ++i) {
    const auto p = static_cast<MetadataPhase>(i);
    const bool dir_row = i < static_cast<std::size_t>(MetadataPhase::kFileCreate);
    const bool file_row = !dir_row && !is_tree(p);
    if ((dir_row && !plan.dir_test) || (file_row && !plan.file_test)) continue;
    rows.push_back(p);
  }
  return rows;
}

double phase_percentile(const OpLatency& l, double p) {
  return static_cast<double>(std::min(l.histogram.percentile(p), l.max_ns));
}

std::string quoted_command_line(const std::vector<std::string>& args) {
  std::string out = "sluice metadata";
  for (const std::string& a : args) out += " '" + a + "'";
  return out;
}

// The host of each task (worker): process p runs tasks p x threads ... (p + 1) x threads - 1.
std::vector<std::string> task_hosts(const MetadataResult& r) {
  std::vector<std::string> hosts;
  for (std::uint32_t task = 0; task < r.plan.workers; ++task) {
    const std::size_t process = task / std::max<std::uint32_t>(r.threads_per_process, 1);
    hosts.push_back(process < r.hosts.size() ? r.hosts[process] : std::string());
  }
  return hosts;
}

// mdtest's "Nodemap": per task, 1 when it is the first task on its node, else 0.
std::string metadata_nodemap(const MetadataResult& r) {
  std::set<std::string> seen;
  std::string map;
  for (const std::string& host : task_hosts(r)) map += seen.insert(host).second ? '1' : '0';
  return map;
}

std::size_t metadata_node_count(const MetadataResult& r) {
  const std::vector<std::string> hosts = task_hosts(r);
  return std::max<std::size_t>(std::set<std::string>(hosts.begin(), hosts.end()).size(), 1);
}

std::string header(const MetadataResult& r) {
  const MetadataFsUsage& fs = r.fs;
  const double gib = static_cast<double>(fs.total_bytes) / (1ull << 30);
  const double used =
      fs.total_bytes ? 100.0 * static_cast<double>(fs.total_bytes - fs.free_bytes) / static_cast<double>(fs.total_bytes)
                     : 0;
  const double inodes = static_cast<double>(fs.total_inodes) / (1ull << 20);
  const double used_inodes = fs.total_inodes ? 100.0 * static_cast<double>(fs.total_inodes - fs.free_inodes) /
                                                   static_cast<double>(fs.total_inodes)
                                             : 0;
  const char* what = r.plan.dir_test && r.plan.file_test ? "files/directories"
                     : r.plan.file_test                  ? "files"
                                                         : "directories";
  std::string out = fmt::format("-- started at {} --\n\n", r.started);
  out += fmt::format(
      "sluice-metadata (mdtest-4.0.0 semantics and layout) was launched with {} total task(s) on {} "
      "node(s)\n",
      r.plan.workers, metadata_node_count(r));
  out += fmt::format("Command line used: {}\n", quoted_command_line(r.command_line));
  out += fmt::format("Path: {}\n", r.path);
  out += fmt::format("FS: {:.1f} GiB   Used FS: {:2.1f}%   Inodes: {:.1f} Mi   Used Inodes: {:2.1f}%\n\n", gib, used,
                     inodes, used_inodes);
  out += fmt::format("Nodemap: {}\n", metadata_nodemap(r));
  out += fmt::format("{} tasks, {} {}\n", r.plan.workers, r.plan.items * r.plan.workers, what);
  return out;
}

std::string summary_table(const MetadataResult& r) {
  std::string out = fmt::format("\nSUMMARY rate: (of {} iterations)\n", r.iterations.size());
  // The same pieces as mdtest 4.0.0's summarize_results_rank0 prints them.
  out += std::string("   Operation     ") + "               " + " Max            Min           Mean        Std Dev\n";
  out += std::string("   ---------      ") + "               ---            ---           ----        -------\n";
  for (const MetadataPhase p : printed_rows(r.plan)) {
    const MetadataSummary s = summarize_metadata(metadata_phase_rates(r, p));
    const std::string label = is_tree(p) ? fmt::format("   {:<22} ", metadata_phase_name(p))
                                         : fmt::format("   {:<18}     ", metadata_phase_name(p));
    out += fmt::format("{}{:14.3f} {:14.3f} {:14.3f} {:14.3f}\n", label, s.max, s.min, s.mean, s.stddev);
  }
  return out;
}

std::string latency_table(const MetadataResult& r) {
  std::string out = "\nsluice: latency per item (usec), all tasks and iterations\n";
  out += fmt::format("   {:<22} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9}\n", "Operation", "count", "mean", "p50",
                     "p90", "p99", "p99.9", "max");
  for (const MetadataPhase p : printed_rows(r.plan)) {
    const OpLatency& l = r.latency[static_cast<std::size_t>(p)];
    const std::uint64_t n = l.histogram.total();
    if (n == 0 || !r.plan.reported[static_cast<std::size_t>(p)]) continue;
    const auto us = [](double ns) { return ns / 1000.0; };
    out += fmt::format("   {:<22} {:>9} {:>9.1f} {:>9.1f} {:>9.1f} {:>9.1f} {:>9.1f} {:>9.1f}\n",
                       metadata_phase_name(p), n, us(static_cast<double>(l.sum_ns) / static_cast<double>(n)),
                       us(phase_percentile(l, 50)), us(phase_percentile(l, 90)), us(phase_percentile(l, 99)),
                       us(phase_percentile(l, 99.9)), us(static_cast<double>(l.max_ns)));
  }
  return out;
}

}  // namespace

double metadata_rate(const MetadataSample& sample) {
  if (sample.items == 0 || sample.seconds <= 0) return 0;
  return static_cast<double>(sample.items) / sample.seconds;
}

MetadataSummary summarize_metadata(const std::vector<double>& values) {
  MetadataSummary s;
  if (values.empty()) return s;
  s.max = *std::max_element(values.begin(), values.end());
  s.min = *std::min_element(values.begin(), values.end());
  double sum = 0;
  for (const double v : values) sum += v;
  s.mean = sum / static_cast<double>(values.size());
  if (values.size() > 1) {
    double var = 0;
    for (const double v : values) var += (v - s.mean) * (v - s.mean);
    s.stddev = std::sqrt(var / static_cast<double>(values.size() - 1));
  }
  return s;
}

std::vector<double> metadata_phase_rates(const MetadataResult& r, MetadataPhase phase) {
  std::vector<double> rates;
  for (const MetadataIteration& it : r.iterations) {
    if (const auto& s = it.phases[static_cast<std::size_t>(phase)]) rates.push_back(metadata_rate(*s));
  }
  if (rates.empty()) rates.push_back(0);
  return rates;
}

std::string render_metadata_text(const MetadataResult& r) {
  std::string out = header(r) + summary_table(r) + latency_table(r);
  if (r.interrupted) {
    out += "\ninterrupted: the phases above are what was measured; everything sluice created was removed\n";
  }
  for (const std::string& note : r.notes) out += "note: " + note + "\n";
  out += fmt::format("\n-- finished at {} --\n", r.finished);
  return out;
}

nlohmann::json metadata_json(const MetadataResult& r) {
  const MetadataOptions& o = r.options;
  nlohmann::json iterations = nlohmann::json::array();
  for (const MetadataIteration& it : r.iterations) {
    nlohmann::json phases = nlohmann::json::object();
    for (std::size_t i = 0; i < kMetadataPhaseCount; ++i) {
      if (!it.phases[i]) continue;
      const MetadataSample& s = *it.phases[i];
      phases[std::string(metadata_phase_key(static_cast<MetadataPhase>(i)))] = {
          {"items", s.items}, {"seconds", s.seconds}, {"rate", metadata_rate(s)}};
    }
    iterations.push_back({{"complete", it.complete}, {"phases", phases}});
  }
  nlohmann::json summary = nlohmann::json::object();
  nlohmann::json latency = nlohmann::json::object();
  for (const MetadataPhase p : printed_rows(r.plan)) {
    const std::string key(metadata_phase_key(p));
    const MetadataSummary s = summarize_metadata(metadata_phase_rates(r, p));
    summary[key] = {{"name", metadata_phase_name(p)},
                    {"reported", r.plan.reported[static_cast<std::size_t>(p)]},
                    {"max", s.max},
                    {"min", s.min},
                    {"mean", s.mean},
                    {"stddev", s.stddev}};
    const OpLatency& l = r.latency[static_cast<std::size_t>(p)];
    const std::uint64_t n = l.histogram.total();
    if (n == 0 || !r.plan.reported[static_cast<std::size_t>(p)]) continue;
    nlohmann::json percentiles = nlohmann::json::object();
    for (const double q : kMetadataPercentiles)
      percentiles[fmt::format("{:.6f}", q)] = static_cast<std::uint64_t>(phase_percentile(l, q));
    latency[key] = {{"count", n},
                    {"mean", static_cast<double>(l.sum_ns) / static_cast<double>(n)},
                    {"max", l.max_ns},
                    {"percentile", percentiles}};
  }
  nlohmann::json metadata = {{"directory", r.path},
                             {"work_dir", r.work_dir},
                             {"command_line", r.command_line},
                             {"started", r.started},
                             {"finished", r.finished},
                             {"options",
                              {{"items", o.items},
                               {"depth", o.depth},
                               {"branching", o.branching},
                               {"items_per_dir", o.items_per_dir},
                               {"unique_dir", o.unique_dir},
                               {"write_bytes", o.write_bytes},
                               {"read_bytes", o.read_bytes},
                               {"files_only", o.files_only},
                               {"dirs_only", o.dirs_only},
                               {"iterations", o.iterations},
                               {"fsync", o.fsync_files},
                               {"sync_phases", o.sync_phases},
                               {"threads", o.threads}}},
                             {"plan",
                              {{"tree_dirs", r.plan.tree_dirs},
                               {"items_per_dir", r.plan.items_per_dir},
                               {"items_per_task", r.plan.items},
                               {"tasks", r.plan.workers},
                               {"threads_per_process", r.threads_per_process},
                               {"hosts", r.hosts},
                               {"items_total", r.plan.items * r.plan.workers}}},
                             {"iterations", iterations},
                             {"summary", summary},
                             {"latency_ns", latency},
                             {"interrupted", r.interrupted},
                             {"notes", r.notes}};
  return result_document(ResultEnvelope{"metadata", r.timestamp_ms, "", std::nullopt}, nlohmann::json::object(),
                         {{"metadata", metadata}});
}

}  // namespace sluice
