#include "suites/postmark_report.h"

#include <fmt/format.h>

#include <algorithm>

#include "observe/environment.h"
#include "report/environment_summary.h"

namespace sluice {
namespace {

// PostMark's diff_time: a difference of whole seconds, at least 1.
std::int64_t seconds_between(std::int64_t later, std::int64_t earlier) {
  const std::int64_t d = later - earlier;
  return d != 0 ? d : 1;
}

// The numbers of PostMark's report, computed as PostMark computes them.
struct PostmarkFigures {
  std::int64_t elapsed, t_elapsed, creation_interval, deletion_interval;
  std::int64_t created, created_mixed, deleted, deleted_alone, deleted_mixed, read, appended, number, transactions;
  float bytes_read, bytes_written;
};

PostmarkFigures figures_of(const PostmarkRunResult& r) {
  PostmarkFigures f{};
  f.elapsed = seconds_between(r.end_s, r.start_s);
  f.t_elapsed = seconds_between(r.transactions_end_s, r.transactions_start_s);
  f.creation_interval = seconds_between(r.transactions_start_s, r.start_s);
  f.deletion_interval = seconds_between(r.end_s, r.transactions_end_s);
  f.number = r.config.number;
  f.transactions = r.config.transactions;
  f.created = r.counts.created;
  f.created_mixed = r.counts.created - r.config.number;
  f.deleted = r.counts.deleted;
  f.deleted_alone = r.deleted_alone;
  f.deleted_mixed = r.counts.deleted - r.deleted_alone;
  f.read = r.counts.read;
  f.appended = r.counts.appended;
  f.bytes_read = r.counts.bytes_read_float;
  f.bytes_written = r.counts.bytes_written_float;
  return f;
}

float per(std::int64_t count, std::int64_t seconds) { return static_cast<float>(count) / static_cast<float>(seconds); }
float per(float amount, std::int64_t seconds) { return amount / static_cast<float>(seconds); }

std::string verbose_report(const PostmarkFigures& f) {
  std::string o = "Time:\n";
  o += fmt::format("\t{} seconds total\n", f.elapsed);
  o += fmt::format("\t{} seconds of transactions ({} per second)\n", f.t_elapsed, f.transactions / f.t_elapsed);
  o += "\nFiles:\n";
  o += fmt::format("\t{} created ({} per second)\n", f.created, f.created / f.elapsed);
  o += fmt::format("\t\tCreation alone: {} files ({} per second)\n", f.number, f.number / f.creation_interval);
  o += fmt::format("\t\tMixed with transactions: {} files ({} per second)\n", f.created_mixed,
                   f.created_mixed / f.t_elapsed);
  o += fmt::format("\t{} read ({} per second)\n", f.read, f.read / f.t_elapsed);
  o += fmt::format("\t{} appended ({} per second)\n", f.appended, f.appended / f.t_elapsed);
  // PostMark prints the number created on the deleted line; they are equal after a complete run.
  o += fmt::format("\t{} deleted ({} per second)\n", f.created, f.created / f.elapsed);
  o += fmt::format("\t\tDeletion alone: {} files ({} per second)\n", f.deleted_alone,
                   f.deleted_alone / f.deletion_interval);
  o += fmt::format("\t\tMixed with transactions: {} files ({} per second)\n", f.deleted_mixed,
                   f.deleted_mixed / f.t_elapsed);
  o += "\nData:\n";
  o += fmt::format("\t{} read ({} per second)\n", postmark_scalef(f.bytes_read),
                   postmark_scalef(per(f.bytes_read, f.elapsed)));
  o += fmt::format("\t{} written ({} per second)\n", postmark_scalef(f.bytes_written),
                   postmark_scalef(per(f.bytes_written, f.elapsed)));
  return o;
}

// PostMark's terse line; its "deleted alone" rate divides by the creation interval, as the original does.
std::string terse_report(const PostmarkFigures& f) {
  auto d = [](float v) { return static_cast<double>(v); };
  return fmt::format("{} {} {:.2f} {:.2f} {:.2f} {:.2f} {:.2f} {:.2f} {:.2f} {:.2f} {:.2f} {:.2f} {:.2f}\n", f.elapsed,
                     f.t_elapsed, d(per(f.transactions, f.t_elapsed)), d(per(f.created, f.elapsed)),
                     d(per(f.number, f.creation_interval)), d(per(f.created_mixed, f.t_elapsed)),
                     d(per(f.read, f.t_elapsed)), d(per(f.appended, f.t_elapsed)), d(per(f.created, f.elapsed)),
                     d(per(f.deleted_alone, f.creation_interval)), d(per(f.deleted_mixed, f.t_elapsed)),
                     d(per(f.bytes_read, f.elapsed)), d(per(f.bytes_written, f.elapsed)));
}

double seconds(std::uint64_t ns) { return static_cast<double>(ns) / 1e9; }
double rate(double count, std::uint64_t ns) { return ns ? count / seconds(ns) : 0.0; }

const char* end_name(PostmarkRunResult::End e) {
  switch (e) {
    case PostmarkRunResult::End::kComplete:
      return "complete";
    case PostmarkRunResult::End::kOutOfFiles:
      return "out of files";
    case PostmarkRunResult::End::kInterrupted:
      return "interrupted";
  }
  return "";
}

struct NamedLatency {
  const char* name;
  const LatencyStat* stat;
};

std::vector<NamedLatency> latencies_of(const PostmarkRunResult& r) {
  return {{"create", &r.latencies.create},
          {"read", &r.latencies.read},
          {"append", &r.latencies.append},
          {"delete", &r.latencies.remove}};
}

// A histogram percentile is its bucket's midpoint, which can lie past the largest sample: shown within
// [min, max].
std::uint64_t percentile_of(const LatencyStat& s, double p) {
  const auto v = static_cast<double>(s.histogram.percentile(p));
  return static_cast<std::uint64_t>(std::clamp(v, s.moments.min(), s.moments.max()));
}

const std::vector<double> kJsonPercentiles = {1,  5,  10, 20, 30,   40,   50,    60,   70,
                                              80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99};

nlohmann::json postmark_latency_json(const LatencyStat& s) {
  nlohmann::json j = {{"min", static_cast<std::uint64_t>(s.moments.min())},
                      {"max", static_cast<std::uint64_t>(s.moments.max())},
                      {"mean", s.moments.mean()},
                      {"stddev", s.moments.stddev()},
                      {"N", s.count()}};
  if (s.count() > 0) {
    nlohmann::json p = nlohmann::json::object();
    for (double q : kJsonPercentiles) p[fmt::format("{:.6f}", q)] = percentile_of(s, q);
    j["percentile"] = std::move(p);
  }
  return j;
}

}  // namespace

std::string render_postmark_report(const PostmarkRunResult& run) {
  if (run.end != PostmarkRunResult::End::kComplete) return "";
  const PostmarkFigures f = figures_of(run);
  return run.config.terse ? terse_report(f) : verbose_report(f);
}

std::string render_postmark_progress(const PostmarkRunResult& run) {
  std::string o;
  if (run.config.subdirectories > 1) o += "Creating subdirectories...Done\n";
  o += "Creating files...";
  if (run.pool_created == run.config.number) {
    o += "Done\nPerforming transactions" + std::string(static_cast<std::size_t>(run.progress_ticks), '.');
  }
  if (run.end == PostmarkRunResult::End::kComplete) o += "Done\n";
  if (run.end == PostmarkRunResult::End::kOutOfFiles) {
    o += "out of files!\nFor this workload, either increase the number of files or\ndecrease the number of "
         "transactions.\n";
  }
  if (run.end == PostmarkRunResult::End::kInterrupted) o += "interrupted\n";
  o += "Deleting files...Done\n";
  if (run.config.subdirectories > 1) o += "Deleting subdirectories...Done\n";
  return o;
}

std::string render_postmark_extras(const PostmarkRunResult& r) {
  const std::uint64_t total = r.creation_ns + r.transactions_ns + r.deletion_ns;
  std::string o = "\nsluice (to the microsecond; PostMark's clock counts whole seconds, at least 1):\n";
  if (r.end != PostmarkRunResult::End::kComplete) {
    o += fmt::format("\trun {} after {} of {} transactions: the figures are what was measured until then\n",
                     end_name(r.end), r.transactions_done, r.config.transactions);
  }
  o += fmt::format("\t{:.6f} seconds total: creation alone {:.6f}, transactions {:.6f}, deletion alone {:.6f}\n",
                   seconds(total), seconds(r.creation_ns), seconds(r.transactions_ns), seconds(r.deletion_ns));
  const double created_mixed = static_cast<double>(r.counts.created - r.pool_created);
  const double deleted_mixed = static_cast<double>(r.counts.deleted - r.deleted_alone);
  o += fmt::format("\t{:.1f} transactions per second\n",
                   rate(static_cast<double>(r.transactions_done), r.transactions_ns));
  o += fmt::format("\tcreated {:.1f}/s (alone {:.1f}/s, mixed {:.1f}/s), read {:.1f}/s, appended {:.1f}/s\n",
                   rate(static_cast<double>(r.counts.created), total),
                   rate(static_cast<double>(r.pool_created), r.creation_ns), rate(created_mixed, r.transactions_ns),
                   rate(static_cast<double>(r.counts.read), r.transactions_ns),
                   rate(static_cast<double>(r.counts.appended), r.transactions_ns));
  o += fmt::format("\tdeleted {:.1f}/s (alone {:.1f}/s, mixed {:.1f}/s)\n",
                   rate(static_cast<double>(r.counts.deleted), total),
                   rate(static_cast<double>(r.deleted_alone), r.deletion_ns), rate(deleted_mixed, r.transactions_ns));
  o += fmt::format("\t{} bytes read ({:.2f} MiB/s), {} bytes written ({:.2f} MiB/s)\n", r.counts.bytes_read,
                   rate(static_cast<double>(r.counts.bytes_read), total) / 1048576.0, r.counts.bytes_written,
                   rate(static_cast<double>(r.counts.bytes_written), total) / 1048576.0);
  o += "\tlatency (us)    count      min     mean      p50      p90      p99    p99.9      max\n";
  for (const NamedLatency& l : latencies_of(r)) {
    const LatencyStat& s = *l.stat;
    auto us = [](double ns) { return ns / 1000.0; };
    if (s.count() == 0) {
      o += fmt::format("\t{:<10} {:>10}\n", l.name, 0);
      continue;
    }
    o +=
        fmt::format("\t{:<10} {:>10} {:>8.1f} {:>8.1f} {:>8.1f} {:>8.1f} {:>8.1f} {:>8.1f} {:>8.1f}\n", l.name,
                    s.count(), us(s.moments.min()), us(s.moments.mean()), us(static_cast<double>(percentile_of(s, 50))),
                    us(static_cast<double>(percentile_of(s, 90))), us(static_cast<double>(percentile_of(s, 99))),
                    us(static_cast<double>(percentile_of(s, 99.9))), us(s.moments.max()));
  }
  if (!r.environment.is_null()) o += "\t" + environment_summary(r.environment) + "\n";
  return o;
}

nlohmann::json postmark_run_json(const PostmarkRunResult& r) {
  nlohmann::json j;
  j["config"] = postmark_config_json(r.config);
  j["working_directory"] = r.cwd;
  j["timestamp_ms"] = r.timestamp_ms;
  j["end"] = end_name(r.end);
  if (r.end == PostmarkRunResult::End::kComplete) {
    const PostmarkFigures f = figures_of(r);
    j["postmark"] = {
        {"seconds_total", f.elapsed},
        {"seconds_transactions", f.t_elapsed},
        {"transactions_per_second", f.transactions / f.t_elapsed},
        {"created", f.created},
        {"created_per_second", f.created / f.elapsed},
        {"creation_alone", f.number},
        {"creation_alone_per_second", f.number / f.creation_interval},
        {"created_mixed", f.created_mixed},
        {"created_mixed_per_second", f.created_mixed / f.t_elapsed},
        {"read", f.read},
        {"read_per_second", f.read / f.t_elapsed},
        {"appended", f.appended},
        {"appended_per_second", f.appended / f.t_elapsed},
        {"deleted", f.created},
        {"deleted_per_second", f.created / f.elapsed},
        {"deletion_alone", f.deleted_alone},
        {"deletion_alone_per_second", f.deleted_alone / f.deletion_interval},
        {"deleted_mixed", f.deleted_mixed},
        {"deleted_mixed_per_second", f.deleted_mixed / f.t_elapsed},
        {"bytes_read", static_cast<double>(f.bytes_read)},
        {"bytes_read_per_second", static_cast<double>(per(f.bytes_read, f.elapsed))},
        {"bytes_written", static_cast<double>(f.bytes_written)},
        {"bytes_written_per_second", static_cast<double>(per(f.bytes_written, f.elapsed))},
    };
  }
  const std::uint64_t total = r.creation_ns + r.transactions_ns + r.deletion_ns;
  j["measured"] = {
      {"seconds",
       {{"total", seconds(total)},
        {"creation", seconds(r.creation_ns)},
        {"transactions", seconds(r.transactions_ns)},
        {"deletion", seconds(r.deletion_ns)}}},
      {"transactions", r.transactions_done},
      {"transactions_per_second", rate(static_cast<double>(r.transactions_done), r.transactions_ns)},
      {"created", r.counts.created},
      {"creation_alone", r.pool_created},
      {"created_mixed", r.counts.created - r.pool_created},
      {"read", r.counts.read},
      {"appended", r.counts.appended},
      {"deleted", r.counts.deleted},
      {"deletion_alone", r.deleted_alone},
      {"deleted_mixed", r.counts.deleted - r.deleted_alone},
      {"bytes_read", r.counts.bytes_read},
      {"bytes_written", r.counts.bytes_written},
      {"bytes_read_per_second", rate(static_cast<double>(r.counts.bytes_read), total)},
      {"bytes_written_per_second", rate(static_cast<double>(r.counts.bytes_written), total)},
  };
  nlohmann::json lat = nlohmann::json::object();
  for (const NamedLatency& l : latencies_of(r)) lat[l.name] = postmark_latency_json(*l.stat);
  j["latency_ns"] = std::move(lat);
  j["environment"] = r.environment;
  return j;
}

}  // namespace sluice
