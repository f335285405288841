#include "smtp/smtp_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "report/result_document.h"

namespace sluice {
namespace {

const std::vector<double> kPercentiles = {1, 5, 10, 50, 90, 95, 99, 99.5, 99.9, 99.99};

bool is_code(const std::string& key) {
  return key.size() == 3 &&
         std::all_of(key.begin(), key.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

// A percentile as the histogram gives it, never above the largest value seen.
double at(const LatencyStat& l, double p) {
  return std::min(static_cast<double>(l.histogram.percentile(p)), l.moments.max());
}

nlohmann::json latency_json(const LatencyStat& l) {
  nlohmann::json percentiles = nlohmann::json::object();
  for (const double p : kPercentiles) percentiles[fmt::format("{:.6f}", p)] = l.count() ? at(l, p) : 0.0;
  return {{"count", l.count()},       {"min", l.moments.min()},       {"max", l.moments.max()},
          {"mean", l.moments.mean()}, {"stddev", l.moments.stddev()}, {"percentile", percentiles}};
}

std::string ms(double ns) { return fmt::format("{:.3f}", ns / 1e6); }

}  // namespace

double messages_per_minute(const SmtpResult& r) {
  return r.elapsed_s > 0 ? static_cast<double>(r.counters.delivered) * 60.0 / r.elapsed_s : 0.0;
}

double bytes_per_minute(const SmtpResult& r) {
  return r.elapsed_s > 0 ? static_cast<double>(r.counters.bytes) * 60.0 / r.elapsed_s : 0.0;
}

nlohmann::json smtp_json(const SmtpResult& r) {
  const SmtpCounters& c = r.counters;
  nlohmann::json by_code = nlohmann::json::object();
  nlohmann::json by_kind = nlohmann::json::object();
  for (const auto& [key, n] : c.errors) (is_code(key) ? by_code : by_kind)[key] = n;
  nlohmann::json latency = nlohmann::json::object();
  for (std::size_t i = 0; i < kSmtpPhaseCount; ++i) {
    latency[smtp_phase_name(static_cast<SmtpPhase>(i))] = latency_json(c.latency[i]);
  }
  const SmtpOptions& o = r.options;
  nlohmann::json smtp = {
      {"server", fmt::format("{}:{}", o.host, o.port)},
      {"parallel", o.parallel},
      {"loop", o.rate != 0 ? "open" : "closed"},
      {"rate_per_s", o.rate},
      {"arrivals", o.rate == 0 ? ""
                   : o.poisson ? "poisson"
                               : "constant"},
      {"size_bytes", {{"min", o.size_min}, {"max", o.size_max}}},
      {"messages_per_connection", o.per_connection},
      {"recipients_per_message", o.recipients},
      {"messages_delivered", c.delivered},
      {"messages_attempted", c.attempted},
      {"connections", c.connections},
      {"elapsed_s", r.elapsed_s},
      {"messages_per_minute", messages_per_minute(r)},
      {"bytes_per_minute", bytes_per_minute(r)},
      {"bytes_delivered", c.bytes},
      {"errors", {{"total", c.error_count()}, {"by_code", by_code}, {"by_kind", by_kind}, {"first", c.first_errors}}},
      {"latency_ns", latency},
      {"interrupted", r.interrupted}};
  return result_document(ResultEnvelope{"smtp", r.timestamp_ms, "", std::nullopt}, nlohmann::json::object(),
                         {{"smtp", std::move(smtp)}});
}

std::string render_smtp_text(const SmtpResult& r) {
  const SmtpCounters& c = r.counters;
  const SmtpOptions& o = r.options;
  std::string out = fmt::format(
      "sluice smtp: {}:{}, {} connection{}, {} loop{}, bodies {}-{} bytes, {} message{} per connection{}\n\n", o.host,
      o.port, o.parallel, o.parallel == 1 ? "" : "s", o.rate ? "open" : "closed",
      o.rate ? fmt::format(" at {} messages/s ({} arrivals)", o.rate, o.poisson ? "Poisson" : "constant") : "",
      o.size_min, o.size_max, o.per_connection == 1 ? "1" : fmt::format("1-{}", o.per_connection),
      o.per_connection == 1 ? "" : "s", r.interrupted ? " (interrupted)" : "");
  out += fmt::format("delivered   {} of {} messages in {:.2f} s over {} connections\n", c.delivered, c.attempted,
                     r.elapsed_s, c.connections);
  out += fmt::format("rate        {:.1f} messages/minute, {:.1f} KiB/minute ({:.1f} messages/s)\n",
                     messages_per_minute(r), bytes_per_minute(r) / 1024.0, messages_per_minute(r) / 60.0);
  out += fmt::format("errors      {}", c.error_count());
  if (!c.errors.empty()) {
    std::string parts;
    for (const auto& [key, n] : c.errors) parts += fmt::format("{}{} {}", parts.empty() ? "" : ", ", key, n);
    out += " (" + parts + ")";
  }
  out += "\n";
  for (const std::string& e : c.first_errors) out += "  " + e + "\n";
  if (c.latency[static_cast<int>(SmtpPhase::kConnect)].count() == 0) return out;
  out += fmt::format("\n{:<8} {:>9} {:>10} {:>10} {:>10} {:>10} {:>10} {:>10}\n", "latency", "count", "mean ms",
                     "p50 ms", "p90 ms", "p99 ms", "p99.9 ms", "max ms");
  for (std::size_t i = 0; i < kSmtpPhaseCount; ++i) {
    const LatencyStat& l = c.latency[i];
    if (l.count() == 0) continue;
    out += fmt::format("{:<8} {:>9} {:>10} {:>10} {:>10} {:>10} {:>10} {:>10}\n",
                       smtp_phase_name(static_cast<SmtpPhase>(i)), l.count(), ms(l.moments.mean()), ms(at(l, 50)),
                       ms(at(l, 90)), ms(at(l, 99)), ms(at(l, 99.9)), ms(l.moments.max()));
  }
  out +=
      "connect: TCP connect, greeting and EHLO; mail: MAIL FROM; rcpt: every RCPT TO; data: DATA to the reply "
      "after the final dot; total: the message";
  out += o.rate ? " from when it was due (queue wait included)\n"
                : " from MAIL FROM (from the connect when it opened one)\n";
  return out;
}

}  // namespace sluice
