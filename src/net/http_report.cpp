// The JSON block and text report of sluice http.
#include "net/http_report.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

namespace sluice {
namespace {

const std::vector<double> kPercentiles = {1, 5, 10, 25, 50, 75, 90, 95, 99, 99.5, 99.9, 99.99};

std::string percentile_key(double p) { return fmt::format("{:.6f}", p); }  // fio's "99.000000"

nlohmann::json stat_json(const LatencyHistogram& h, std::uint64_t sum, std::uint64_t min, std::uint64_t max) {
  nlohmann::json j;
  const std::uint64_t n = h.total();
  j["N"] = n;
  j["min"] = n == 0 ? 0 : min;
  j["max"] = max;
  j["mean"] = n == 0 ? 0.0 : static_cast<double>(sum) / static_cast<double>(n);
  nlohmann::json pct = nlohmann::json::object();
  for (double p : kPercentiles) pct[percentile_key(p)] = h.percentile(p);
  j["percentile"] = pct;
  return j;
}

double ms(const nlohmann::json& stat, const char* key) { return stat[key].get<double>() / 1e6; }

std::string stat_row(const char* name, const nlohmann::json& s) {
  if (s["N"].get<std::uint64_t>() == 0) return fmt::format("  {:<10} (none)\n", name);
  const nlohmann::json& p = s["percentile"];
  return fmt::format("  {:<10} {:>9.3f} {:>9.3f} {:>9.3f} {:>9.3f} {:>9.3f} {:>9.3f} {:>9.3f}\n", name, ms(s, "mean"),
                     ms(s, "min"), p[percentile_key(50)].get<double>() / 1e6, p[percentile_key(90)].get<double>() / 1e6,
                     p[percentile_key(99)].get<double>() / 1e6, p[percentile_key(99.9)].get<double>() / 1e6,
                     ms(s, "max"));
}

}  // namespace

nlohmann::json http_json(const HttpLoadOptions& o, const HttpLoadResult& r) {
  nlohmann::json j;
  const double t = r.elapsed_s > 0 ? r.elapsed_s : 1e-9;
  j["mode"] = o.rate > 0 ? "open" : "closed";
  j["parallel"] = o.parallel;
  j["rate"] = o.rate;
  j["arrivals"] = o.rate > 0 ? (o.poisson ? "poisson" : "constant") : "closed";
  j["keepalive"] = o.keepalive;
  j["method"] = o.method;
  j["threads"] = o.threads;
  nlohmann::json urls = nlohmann::json::array();
  for (const HttpUrl& u : o.urls) urls.push_back(u.text);
  j["urls"] = urls;
  j["requests"] = r.requests;
  j["fetches"] = r.responses;
  j["connections"] = r.connections;
  j["max_parallel"] = r.max_parallel;
  j["body_bytes"] = r.body_bytes;
  j["received_bytes"] = r.received_bytes;
  j["elapsed_s"] = r.elapsed_s;
  j["requests_per_s"] = static_cast<double>(r.responses) / t;
  j["bytes_per_s"] = static_cast<double>(r.body_bytes) / t;
  j["cpu_s"] = r.cpu_s;
  j["cpu_us_per_request"] = r.responses == 0 ? 0.0 : r.cpu_s * 1e6 / static_cast<double>(r.responses);
  nlohmann::json errors;
  for (int i = 0; i < static_cast<int>(HttpErrorKind::kCount); ++i) {
    errors[http_error_name(static_cast<HttpErrorKind>(i))] = r.errors[i];
  }
  errors["total"] = r.error_total();
  errors["first"] = r.first_errors;
  j["errors"] = errors;
  nlohmann::json codes = nlohmann::json::object();
  for (const auto& [code, n] : r.status_codes) codes[std::to_string(code)] = n;
  j["status_codes"] = codes;
  j["connect_ns"] = stat_json(r.connect_ns, r.connect_sum_ns, r.connect_min_ns, r.connect_max_ns);
  j["ttfb_ns"] = stat_json(r.ttfb_ns, r.ttfb_sum_ns, r.ttfb_min_ns, r.ttfb_max_ns);
  j["latency_ns"] = stat_json(r.latency_ns, r.latency_sum_ns, r.latency_min_ns, r.latency_max_ns);
  j["interrupted"] = r.interrupted;
  return j;
}

std::string render_http_report(const nlohmann::json& h) {
  std::string out;
  const bool open = h["mode"] == "open";
  out += fmt::format("sluice http: {} loop, {} {} {} over {} URL(s), keep-alive {}\n", open ? "open" : "closed",
                     open ? fmt::format("{}/s", h["rate"].get<std::uint64_t>()) : std::string("parallel"),
                     open ? fmt::format("({}, up to {} connections)", h["arrivals"].get<std::string>(),
                                        h["parallel"].get<std::uint32_t>())
                          : std::to_string(h["parallel"].get<std::uint32_t>()),
                     h["method"].get<std::string>(), h["urls"].size(), h["keepalive"].get<bool>() ? "on" : "off");
  out += fmt::format("  requests/s: {:.1f}   bandwidth: {:.2f} MiB/s   fetches: {}   errors: {}   in {:.3f} s\n",
                     h["requests_per_s"].get<double>(), h["bytes_per_s"].get<double>() / 1048576.0,
                     h["fetches"].get<std::uint64_t>(), h["errors"]["total"].get<std::uint64_t>(),
                     h["elapsed_s"].get<double>());
  out += fmt::format("  CPU: {:.3f} s, {:.2f} us per request\n", h["cpu_s"].get<double>(),
                     h["cpu_us_per_request"].get<double>());
  out += fmt::format("  {:<10} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9}   (ms{})\n", "", "mean", "min", "p50", "p90",
                     "p99", "p99.9", "max", open ? "; from the scheduled arrival" : "");
  out += stat_row("connect", h["connect_ns"]);
  out += stat_row("ttfb", h["ttfb_ns"]);
  out += stat_row("latency", h["latency_ns"]);
  out += "  status codes:";
  for (const auto& [code, n] : h["status_codes"].items()) out += fmt::format(" {}={}", code, n.get<std::uint64_t>());
  out += h["status_codes"].empty() ? " none\n" : "\n";
  if (h["errors"]["total"].get<std::uint64_t>() > 0) {
    out += "  errors:";
    for (const auto& [kind, n] : h["errors"].items()) {
      if (kind != "total" && kind != "first" && n.get<std::uint64_t>() > 0)
        out += fmt::format(" {}={}", kind, n.get<std::uint64_t>());
    }
    out += "\n";
    for (const auto& e : h["errors"]["first"]) out += "    " + e.get<std::string>() + "\n";
  }
  // http_load's summary block, for comparison with its published numbers.
  const double t = h["elapsed_s"].get<double>();
  const double fetches = static_cast<double>(h["fetches"].get<std::uint64_t>());
  const double bytes = static_cast<double>(h["body_bytes"].get<std::uint64_t>());
  const nlohmann::json& c = h["connect_ns"];
  const nlohmann::json& f = h["ttfb_ns"];
  out += "\nhttp_load-style summary:\n";
  out += fmt::format("{} fetches, {} max parallel, {} bytes, in {:.6g} seconds\n", h["fetches"].get<std::uint64_t>(),
                     h["max_parallel"].get<std::uint32_t>(), h["body_bytes"].get<std::uint64_t>(), t);
  out += fmt::format("{:.6g} mean bytes/connection\n", fetches > 0 ? bytes / fetches : 0.0);
  out += fmt::format("{:.6g} fetches/sec, {:.6g} bytes/sec\n", h["requests_per_s"].get<double>(),
                     h["bytes_per_s"].get<double>());
  if (c["N"].get<std::uint64_t>() > 0) {
    out +=
        fmt::format("msecs/connect: {:.6g} mean, {:.6g} max, {:.6g} min\n", ms(c, "mean"), ms(c, "max"), ms(c, "min"));
  }
  if (f["N"].get<std::uint64_t>() > 0) {
    out += fmt::format("msecs/first-response: {:.6g} mean, {:.6g} max, {:.6g} min\n", ms(f, "mean"), ms(f, "max"),
                       ms(f, "min"));
  }
  if (!h["status_codes"].empty()) out += "HTTP response codes:\n";
  for (const auto& [code, n] : h["status_codes"].items())
    out += fmt::format("  code {} -- {}\n", code, n.get<std::uint64_t>());
  return out;
}

}  // namespace sluice
