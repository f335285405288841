#include "suites/filetree_report.h"

#include <fmt/format.h>

#include <algorithm>

#include "job/units.h"
#include "observe/environment.h"
#include "report/environment_summary.h"
#include "report/result_document.h"

namespace sluice {
namespace {

const std::vector<double> kPercentiles = {1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99};

nlohmann::json latency_json(const OpRecorder& recorder) {
  nlohmann::json out = nlohmann::json::object();
  for (std::size_t i = 0; i < kFileOpCount; ++i) {
    const FileOp op = static_cast<FileOp>(i);
    const OpLatency& l = recorder.of(op);
    const std::uint64_t count = l.histogram.total();
    if (count == 0) continue;
    nlohmann::json percentiles = nlohmann::json::object();
    const std::vector<std::uint64_t> values = l.histogram.percentiles(kPercentiles);
    for (std::size_t p = 0; p < kPercentiles.size(); ++p) {
      percentiles[fmt::format("{:.6f}", kPercentiles[p])] = std::min(values[p], l.max_ns);
    }
    out[std::string(file_op_name(op))] = {{"count", count},
                                          {"mean", static_cast<double>(l.sum_ns) / static_cast<double>(count)},
                                          {"max", l.max_ns},
                                          {"percentile", percentiles}};
  }
  return out;
}

// A percentile as the histogram gives it (its bucket's midpoint), never above the largest value seen.
double at(const OpLatency& l, double p) { return static_cast<double>(std::min(l.histogram.percentile(p), l.max_ns)); }

std::string thread_text(std::uint32_t threads) { return fmt::format("{} thread{}", threads, threads == 1 ? "" : "s"); }

std::string drop_text(const FiletreeResult& r) {
  if (!r.drop_caches) return "page cache not dropped between steps";
  std::size_t done = 0;
  for (const CacheDrop& d : r.cache_drops) done += d.done ? 1 : 0;
  if (done == r.cache_drops.size()) return "page cache dropped before each step after create";
  return fmt::format("page cache dropped before {} of {} steps after create", done, r.cache_drops.size());
}

}  // namespace

double step_mb_per_second(const StepResult& step) {
  return step.seconds > 0 ? static_cast<double>(step.bytes) / 1e6 / step.seconds : 0.0;
}

double step_files_per_second(const StepResult& step) {
  return step.seconds > 0 ? static_cast<double>(step.files) / step.seconds : 0.0;
}

nlohmann::json filetree_json(const FiletreeResult& r) {
  nlohmann::json steps = nlohmann::json::array();
  for (const StepResult& s : r.steps) {
    steps.push_back({{"name", s.name},
                     {"bytes", s.bytes},
                     {"files", s.files},
                     {"seconds", s.seconds},
                     {"MB/s", step_mb_per_second(s)},
                     {"files/s", step_files_per_second(s)},
                     {"completed", s.completed},
                     {"latency_ns", latency_json(s.latency)}});
  }
  nlohmann::json drops = nlohmann::json::array();
  for (const CacheDrop& d : r.cache_drops) drops.push_back(d.done ? nlohmann::json(true) : nlohmann::json(d.reason));
  nlohmann::json sizes = nlohmann::json::array();
  for (const FileSizePart& p : r.options.file_sizes) sizes.push_back({{"size", p.size}, {"weight", p.weight}});
  nlohmann::json filetree = {{"directory", r.options.directory},
                             {"work_dir", r.work_dir},
                             {"size", r.plan.total_bytes},
                             {"dirs", r.plan.dirs},
                             {"files", r.plan.files.size()},
                             {"file_size", sizes},
                             {"threads", r.options.threads},
                             {"seed", r.options.seed},
                             {"drop_caches", r.drop_caches},
                             {"cache_drops", drops},
                             {"interrupted", r.interrupted},
                             {"notes", r.notes},
                             {"steps", steps}};
  return result_document(
      ResultEnvelope{"filetree", r.timestamp_ms, "", std::nullopt}, nlohmann::json::object(),
      {{"environment", r.environment.is_null() ? nlohmann::json::object() : r.environment}, {"filetree", filetree}});
}

std::string render_filetree_text(const FiletreeResult& r) {
  const double per_file =
      r.plan.files.empty() ? 0 : static_cast<double>(r.plan.total_bytes) / static_cast<double>(r.plan.files.size());
  std::string out =
      fmt::format("sluice filetree: {} files in {} directories, {} of data ({} per file{}), {}, in {}\n{}\n\n",
                  r.plan.files.size(), r.plan.dirs, format_bytes(static_cast<double>(r.plan.total_bytes)),
                  format_bytes(per_file), r.options.file_sizes.empty() ? "" : " on average",
                  thread_text(r.options.threads), r.options.directory, drop_text(r));
  if (r.environment.is_object() && !r.environment.empty()) {
    out.insert(out.find('\n') + 1, "environment: " + environment_summary(r.environment) + "\n");
  }
  out +=
      fmt::format("{:<9} {:>10} {:>10} {:>11} {:>14} {:>9}\n", "step", "time (s)", "MB/s", "files/s", "bytes", "files");
  for (const StepResult& s : r.steps) {
    out += fmt::format("{:<9} {:>10.3f} {:>10.1f} {:>11.1f} {:>14} {:>9}{}\n", s.name, s.seconds, step_mb_per_second(s),
                       step_files_per_second(s), s.bytes, s.files, s.completed ? "" : "  (interrupted)");
  }
  out += fmt::format("\nlatency per operation (usec)\n{:<9} {:<8} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9}\n", "step", "op",
                     "count", "mean", "p50", "p99", "p99.9", "max");
  for (const StepResult& s : r.steps) {
    for (std::size_t i = 0; i < kFileOpCount; ++i) {
      const FileOp op = static_cast<FileOp>(i);
      const OpLatency& l = s.latency.of(op);
      const std::uint64_t n = l.histogram.total();
      if (n == 0) continue;
      const auto us = [](double ns) { return ns / 1000.0; };
      out += fmt::format("{:<9} {:<8} {:>9} {:>9.1f} {:>9.1f} {:>9.1f} {:>9.1f} {:>9.1f}\n", s.name, file_op_name(op),
                         n, us(static_cast<double>(l.sum_ns) / static_cast<double>(n)), us(at(l, 50)), us(at(l, 99)),
                         us(at(l, 99.9)), us(static_cast<double>(l.max_ns)));
    }
  }
  if (r.interrupted)
    out += "\ninterrupted: the steps above are what was measured; everything sluice created was removed\n";
  for (const std::string& note : r.notes) out += "note: " + note + "\n";
  return out;
}

}  // namespace sluice
