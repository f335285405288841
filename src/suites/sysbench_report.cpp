#include "suites/sysbench_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>

#include "engine/engine_traits.h"
#include "observe/environment.h"
#include "report/environment_summary.h"

namespace sluice {
namespace {

constexpr double kBytesPerMiB = 1024.0 * 1024.0;
// sb_logger.c: OPER_LOG_GRANULARITY, OPER_LOG_MIN_VALUE, OPER_LOG_MAX_VALUE (ms).
constexpr int kSysbenchBuckets = 1024;
constexpr double kSysbenchMinMs = 1e-3;
constexpr double kSysbenchMaxMs = 1e5;
// The exact percentiles sluice adds after sysbench's one.
const std::vector<double> kSluicePercentiles = {50, 90, 95, 99, 99.9, 99.99};

double per_second(std::uint64_t n, double seconds) { return seconds > 0 ? static_cast<double>(n) / seconds : 0; }

std::string percentile_key(double p) { return fmt::format("p{}", p); }

}  // namespace

namespace {

// sluice's histogram re-binned into sysbench's 1024 log buckets (sb_histogram_update's index).
struct SysbenchGrid {
  std::array<std::uint64_t, kSysbenchBuckets> counts{};
  double deduct = std::log(kSysbenchMinMs);
  double mult = (kSysbenchBuckets - 1) / (std::log(kSysbenchMaxMs) - std::log(kSysbenchMinMs));
  double value_ms(std::size_t i) const { return std::exp(static_cast<double>(i) / mult + deduct); }
};

SysbenchGrid sysbench_grid(const LatencyHistogram& h) {
  SysbenchGrid g;
  for (int b = 0; b < LatencyHistogram::kNumBuckets; ++b) {
    const std::uint64_t n = h.count_at(b);
    if (n == 0) continue;
    const double ms =
        std::clamp(static_cast<double>(LatencyHistogram::bucket_value(b)) / 1e6, kSysbenchMinMs, kSysbenchMaxMs);
    const auto i = static_cast<std::size_t>(std::floor((std::log(ms) - g.deduct) * g.mult + 0.5));
    g.counts[std::min<std::size_t>(i, kSysbenchBuckets - 1)] += n;
  }
  return g;
}

}  // namespace

double sysbench_percentile_ms(const LatencyHistogram& h, unsigned percentile) {
  if (percentile == 0 || h.total() == 0) return 0;
  const SysbenchGrid g = sysbench_grid(h);
  const auto wanted = static_cast<std::uint64_t>(std::floor(static_cast<double>(h.total()) * percentile / 100.0 + 0.5));
  std::uint64_t seen = 0;
  std::size_t i = 0;
  for (; i < g.counts.size(); ++i) {
    seen += g.counts[i];
    if (seen >= wanted) break;
  }
  return g.value_ms(i);
}

std::string render_sysbench_histogram(const LatencyHistogram& h) {
  const SysbenchGrid g = sysbench_grid(h);
  std::uint64_t most = 0;
  for (std::uint64_t n : g.counts) most = std::max(most, n);
  std::string s = "Latency histogram (values are in milliseconds)\n";
  if (most == 0) return s;
  s += "       value  ------------- distribution ------------- count\n";
  for (std::size_t i = 0; i < g.counts.size(); ++i) {
    if (g.counts[i] == 0) continue;
    const auto width =
        static_cast<std::size_t>(std::floor(static_cast<double>(g.counts[i]) * 40.0 / static_cast<double>(most) + 0.5));
    s += fmt::format("{:12.3f} |{:<40} {}\n", g.value_ms(i), std::string(width, '*'), g.counts[i]);
  }
  return s + " \n";
}

std::string render_sysbench_prepare_intro(const SysbenchOptions& o) {
  return fmt::format("{} files, {}Kb each, {}Mb total\nCreating files for the test...\n", o.file_num,
                     o.file_size() / 1024, o.file_size() * o.file_num / 1024 / 1024);
}

std::string render_sysbench_prepare(const SysbenchOptions& o, const SysbenchPrepareResult& r) {
  std::string s = fmt::format("Extra file open flags: {}\n", sysbench_extra_flags_text(o));
  for (const std::string& line : r.lines) s += line + "\n";
  s += fmt::format("{} bytes written in {:.2f} seconds ({:.2f} MiB/sec).\n", r.bytes_written, r.seconds,
                   r.seconds > 0 ? static_cast<double>(r.bytes_written) / kBytesPerMiB / r.seconds : 0.0);
  return s;
}

std::string render_sysbench_header(const SysbenchOptions& o) {
  std::string s = "Running the test with following options:\n";
  s += fmt::format("Number of threads: {}\n", o.threads);
  if (o.report_interval_s > 0)
    s += fmt::format("Report intermediate results every {} second(s)\n", o.report_interval_s);
  s += o.rand_seed == 0 ? std::string("Initializing random number generator from current time\n")
                        : fmt::format("Initializing random number generator from seed ({}).\n", o.rand_seed);
  s += "\n\n";
  s += fmt::format("Extra file open flags: {}\n", sysbench_extra_flags_text(o));
  s += fmt::format("{} files, {}B each\n", o.file_num, sysbench_size_text(static_cast<double>(o.file_size())));
  s += fmt::format("{}B total file size\n", sysbench_size_text(static_cast<double>(o.file_size() * o.file_num)));
  s += fmt::format("Block size {}B\n", sysbench_size_text(static_cast<double>(o.block_size)));
  if (o.merged_requests > 0) {
    s += fmt::format("Merging requests up to {}B for sequential IO.\n",
                     sysbench_size_text(static_cast<double>(o.seq_request_size())));
  }
  if (!sysbench_mode_sequential(*o.mode)) {
    s += fmt::format("Number of IO requests: {}\n", o.events);
    s += fmt::format("Read/Write ratio for combined random IO test: {:.2f}\n", o.rw_ratio);
  }
  if (o.fsync_freq > 0) s += fmt::format("Periodic FSYNC enabled, calling fsync() each {} requests.\n", o.fsync_freq);
  if (o.fsync_end) s += "Calling fsync() at the end of test, Enabled.\n";
  if (o.fsync_all) s += "Calling fsync() after each write operation.\n";
  s += fmt::format("Using {} I/O mode\n", sysbench_io_mode_title(o.io_mode));
  s += fmt::format("Doing {} test\n", sysbench_mode_title(*o.mode));
  s += "Initializing worker threads...\n\nThreads started!\n\n";
  return s;
}

nlohmann::json sysbench_interval_json(const SysbenchInterval& iv, unsigned percentile) {
  nlohmann::json j;
  j["time_s"] = iv.end_s;
  j["seconds"] = iv.seconds;
  j["reads_MiB_per_s"] = iv.seconds > 0 ? static_cast<double>(iv.counts.bytes_read) / kBytesPerMiB / iv.seconds : 0.0;
  j["writes_MiB_per_s"] =
      iv.seconds > 0 ? static_cast<double>(iv.counts.bytes_written) / kBytesPerMiB / iv.seconds : 0.0;
  j["fsyncs_per_s"] = per_second(iv.counts.fsyncs, iv.seconds);
  j["events"] = iv.counts.events;
  j["latency_ms_percentile"] = sysbench_percentile_ms(iv.histogram, percentile);
  j["sluice_latency_ms_percentile"] =
      iv.histogram.total() == 0 ? 0.0 : static_cast<double>(iv.histogram.percentile(percentile)) / 1e6;
  return j;
}

std::string render_sysbench_interval(const nlohmann::json& iv, unsigned percentile) {
  return fmt::format(
      "[ {:.0f}s ] reads: {:4.2f} MiB/s writes: {:4.2f} MiB/s fsyncs: {:4.2f}/s latency (ms,{}%): {:4.3f}\n",
      iv["time_s"].get<double>(), iv["reads_MiB_per_s"].get<double>(), iv["writes_MiB_per_s"].get<double>(),
      iv["fsyncs_per_s"].get<double>(), percentile, iv["latency_ms_percentile"].get<double>());
}

nlohmann::json sysbench_json(const SysbenchOptions& o, const SysbenchRunResult& r) {
  nlohmann::json j;
  const double t = r.total_time_s;
  std::string flags;
  for (auto [on, name] :
       {std::pair{o.o_sync, "sync"}, std::pair{o.o_dsync, "dsync"}, std::pair{o.o_direct, "direct"}}) {
    if (on) flags += (flags.empty() ? "" : ",") + std::string(name);
  }
  j["options"] = {{"file-num", o.file_num},
                  {"file-total-size", o.total_size},
                  {"file-size", o.file_size()},
                  {"file-block-size", o.block_size},
                  {"file-test-mode", sysbench_mode_name(*o.mode)},
                  {"file-io-mode", o.io_mode == SysbenchIoMode::kSync    ? "sync"
                                   : o.io_mode == SysbenchIoMode::kAsync ? "async"
                                                                         : "mmap"},
                  {"file-async-backlog", o.async_backlog},
                  {"file-extra-flags", flags},
                  {"file-fsync-freq", o.fsync_freq},
                  {"file-fsync-all", o.fsync_all},
                  {"file-fsync-end", o.fsync_end},
                  {"file-fsync-mode", o.fsync_mode == SysbenchFsyncMode::kFsync ? "fsync" : "fdatasync"},
                  {"file-merged-requests", o.merged_requests},
                  {"file-rw-ratio", o.rw_ratio},
                  {"threads", o.threads},
                  {"time", o.time_s},
                  {"events", o.events},
                  {"report-interval", o.report_interval_s},
                  {"percentile", o.percentile},
                  {"rand-seed", o.rand_seed},
                  {"histogram", o.histogram},
                  {"dir", o.dir}};
  j["seed_used"] = r.seed;
  j["engine"] = std::string(engine_name(r.engine));
  j["file_operations"] = {{"reads_per_s", per_second(r.counts.reads, t)},
                          {"writes_per_s", per_second(r.counts.writes, t)},
                          {"fsyncs_per_s", per_second(r.counts.fsyncs, t)}};
  j["throughput"] = {
      {"read_MiB_per_s", t > 0 ? static_cast<double>(r.counts.bytes_read) / kBytesPerMiB / t : 0.0},
      {"written_MiB_per_s", t > 0 ? static_cast<double>(r.counts.bytes_written) / kBytesPerMiB / t : 0.0}};
  j["general_statistics"] = {{"total_time_s", t}, {"total_number_of_events", r.counts.events}};
  const double events = static_cast<double>(r.counts.events);
  j["latency_ms"] = {{"min", static_cast<double>(r.latency_min_ns) / 1e6},
                     {"avg", events > 0 ? static_cast<double>(r.latency_sum_ns) / 1e6 / events : 0.0},
                     {"max", static_cast<double>(r.latency_max_ns) / 1e6},
                     {"percentile", o.percentile},
                     {"percentile_value", sysbench_percentile_ms(r.histogram, o.percentile)},
                     {"sum", static_cast<double>(r.latency_sum_ns) / 1e6}};
  // Threads fairness: mean and population standard deviation over the threads.
  double ev_mean = 0, ex_mean = 0;
  for (const SysbenchThreadResult& th : r.threads) {
    ev_mean += static_cast<double>(th.events);
    ex_mean += static_cast<double>(th.busy_ns) / 1e9;
  }
  const double n = r.threads.empty() ? 1.0 : static_cast<double>(r.threads.size());
  ev_mean /= n;
  ex_mean /= n;
  double ev_var = 0, ex_var = 0;
  for (const SysbenchThreadResult& th : r.threads) {
    ev_var += std::pow(static_cast<double>(th.events) - ev_mean, 2);
    ex_var += std::pow(static_cast<double>(th.busy_ns) / 1e9 - ex_mean, 2);
  }
  j["threads_fairness"] = {{"events_avg", ev_mean},
                           {"events_stddev", std::sqrt(ev_var / n)},
                           {"execution_time_avg_s", ex_mean},
                           {"execution_time_stddev_s", std::sqrt(ex_var / n)}};
  j["counts"] = {{"reads", r.counts.reads},
                 {"writes", r.counts.writes},
                 {"fsyncs", r.counts.fsyncs},
                 {"bytes_read", r.counts.bytes_read},
                 {"bytes_written", r.counts.bytes_written},
                 {"events", r.counts.events}};
  nlohmann::json pct = nlohmann::json::object();
  for (double p : kSluicePercentiles) {
    pct[percentile_key(p)] = r.histogram.total() == 0 ? 0.0 : static_cast<double>(r.histogram.percentile(p)) / 1e6;
  }
  j["sluice_latency_ms"] = pct;
  j["sluice_histogram"] = r.histogram.to_json();
  nlohmann::json intervals = nlohmann::json::array();
  for (const SysbenchInterval& iv : r.intervals) intervals.push_back(sysbench_interval_json(iv, o.percentile));
  j["intervals"] = intervals;
  j["interrupted"] = r.interrupted;
  return j;
}

std::string render_sysbench_report(const nlohmann::json& b, const nlohmann::json& environment) {
  const auto& ops = b["file_operations"];
  const auto& tp = b["throughput"];
  const auto& gs = b["general_statistics"];
  const auto& lat = b["latency_ms"];
  const auto& fair = b["threads_fairness"];
  std::string s;
  if (b.contains("options") && b["options"].value("histogram", false)) {
    s += render_sysbench_histogram(LatencyHistogram::from_json(b["sluice_histogram"]));
  }
  s += "\n";
  s += "File operations:\n";
  s += fmt::format("    reads/s:                      {:.2f}\n", ops["reads_per_s"].get<double>());
  s += fmt::format("    writes/s:                     {:.2f}\n", ops["writes_per_s"].get<double>());
  s += fmt::format("    fsyncs/s:                     {:.2f}\n", ops["fsyncs_per_s"].get<double>());
  s += "\nThroughput:\n";
  s += fmt::format("    read, MiB/s:                  {:.2f}\n", tp["read_MiB_per_s"].get<double>());
  s += fmt::format("    written, MiB/s:               {:.2f}\n", tp["written_MiB_per_s"].get<double>());
  s += "\nGeneral statistics:\n";
  s += fmt::format("    total time:                          {:.4f}s\n", gs["total_time_s"].get<double>());
  s += fmt::format("    total number of events:              {}\n", gs["total_number_of_events"].get<std::uint64_t>());
  s += "\nLatency (ms):\n";
  s += fmt::format("         min: {:39.2f}\n", lat["min"].get<double>());
  s += fmt::format("         avg: {:39.2f}\n", lat["avg"].get<double>());
  s += fmt::format("         max: {:39.2f}\n", lat["max"].get<double>());
  const unsigned p = lat["percentile"].get<unsigned>();
  if (p > 0) {
    s += fmt::format("        {:3}th percentile: {:27.2f}\n", p, lat["percentile_value"].get<double>());
  } else {
    s += "         percentile stats:               disabled\n";
  }
  s += fmt::format("         sum: {:39.2f}\n", lat["sum"].get<double>());
  s += "\nThreads fairness:\n";
  s += fmt::format("    events (avg/stddev):           {:.4f}/{:3.2f}\n", fair["events_avg"].get<double>(),
                   fair["events_stddev"].get<double>());
  s += fmt::format("    execution time (avg/stddev):   {:.4f}/{:3.2f}\n", fair["execution_time_avg_s"].get<double>(),
                   fair["execution_time_stddev_s"].get<double>());
  s += "\n";
  // sluice's additions, after sysbench's report so a parser of the original stops before them.
  s += "sluice latency percentiles (ms, exact within 1%):\n   ";
  for (const auto& [key, value] : b["sluice_latency_ms"].items())
    s += fmt::format(" {}={:.3f}", key, value.get<double>());
  s += "\n";
  s +=
      fmt::format("sluice engine: {}, seed {}{}\n", b["engine"].get<std::string>(), b["seed_used"].get<std::uint64_t>(),
                  b["interrupted"].get<bool>() ? ", interrupted: what was measured until the stop" : "");
  if (environment.is_object()) s += "sluice environment: " + environment_summary(environment) + "\n";
  return s;
}

std::vector<Problem> sysbench_warnings(const SysbenchOptions& o, const nlohmann::json& environment) {
  std::vector<Problem> out;
  auto warn = [&out](std::string option, std::string message, std::string code) {
    Problem p;
    p.severity = Problem::Severity::kWarning;
    p.option = std::move(option);
    p.message = std::move(message);
    p.code = std::move(code);
    out.push_back(std::move(p));
  };
  const bool reads =
      *o.mode == SysbenchMode::kSeqrd || *o.mode == SysbenchMode::kRndrd || *o.mode == SysbenchMode::kRndrw;
  const auto mem = environment.is_object() ? environment.find("memory_bytes") : environment.end();
  if (reads && !o.o_direct && environment.is_object() && mem != environment.end() && mem->is_number() &&
      static_cast<double>(o.file_size() * o.file_num) < mem->get<double>()) {
    warn("file-total-size",
         fmt::format("--file-total-size: the {}B file set fits in the {}B of RAM, so reads may come from the page "
                     "cache, not the disk; use --file-extra-flags=direct or a set larger than RAM",
                     sysbench_size_text(static_cast<double>(o.file_size() * o.file_num)),
                     sysbench_size_text(mem->get<double>())),
         "sysbench-page-cache");
  }
  if (o.io_mode == SysbenchIoMode::kAsync) {
    warn("file-io-mode",
         "--file-io-mode=async: as in sysbench, an event's latency is its submission (io_submit), not the device's "
         "completion time",
         "sysbench-async-latency");
  }
  if (o.fsync_freq == 0 && !o.fsync_all && !o.fsync_end && sysbench_mode_writes(*o.mode) && !o.o_sync && !o.o_dsync &&
      !o.o_direct) {
    warn("file-fsync-end", "no fsync and no sync/direct flags: writes may measure the page cache only",
         "sysbench-no-sync");
  }
  return out;
}

}  // namespace sluice
