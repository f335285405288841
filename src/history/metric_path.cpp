#include "history/metric_path.h"

#include <fmt/format.h>

#include <charconv>

#include "common/error.h"
#include "common/json_read.h"

namespace sluice {
namespace {

std::vector<std::string> split_dots(std::string_view path) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (start <= path.size()) {
    std::size_t dot = path.find('.', start);
    if (dot == std::string_view::npos) dot = path.size();
    parts.emplace_back(path.substr(start, dot - start));
    start = dot + 1;
  }
  return parts;
}

// "p99", "p99.9" (the dot was split off: joined back by the caller) -> "99.900000".
std::optional<std::string> percentile_key(const std::string& text) {
  if (text.size() < 2 || text[0] != 'p') return std::nullopt;
  double value = 0;
  const char* first = text.data() + 1;
  const char* last = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(first, last, value);
  if (ec != std::errc() || ptr != last || value <= 0 || value >= 100) return std::nullopt;
  return fmt::format("{:.6f}", value);
}

const nlohmann::json* find_job(const nlohmann::json& document, std::string_view job) {
  if (!document.contains("jobs") || !document["jobs"].is_array() || document["jobs"].empty()) return nullptr;
  if (job.empty()) return &document["jobs"].front();
  for (const nlohmann::json& j : document["jobs"]) {
    if (j.contains("jobname") && j["jobname"].is_string() && j["jobname"].get<std::string>() == job) return &j;
  }
  return nullptr;
}

std::optional<double> number_at(const nlohmann::json* node) {
  if (node == nullptr || !node->is_number()) return std::nullopt;
  return node->get<double>();
}

const nlohmann::json* child(const nlohmann::json* node, const std::string& key) {
  if (node == nullptr || !node->is_object() || !node->contains(key)) return nullptr;
  return &(*node)[key];
}

}  // namespace

std::optional<double> metric_value(const nlohmann::json& document, std::string_view path, std::string_view job) {
  if (path.empty()) throw UserError("metric: empty; e.g. read.iops, write.bw_bytes, read.lat_ns.p99, /sluice/...");
  if (path.front() == '/') {
    try {
      const nlohmann::json::json_pointer pointer{std::string(path)};
      if (!document.contains(pointer)) return std::nullopt;
      return number_at(&document.at(pointer));
    } catch (const nlohmann::json::exception&) {
      throw UserError(fmt::format("metric '{}': not a JSON pointer (e.g. /sluice/capacity/iops)", path));
    }
  }
  std::vector<std::string> parts = split_dots(path);
  if (parts.front() != "read" && parts.front() != "write" && parts.front() != "trim") {
    throw UserError(
        fmt::format("metric '{}': starts with read, write or trim (read.iops, write.lat_ns.p99) or is a "
                    "JSON pointer (/sluice/...)",
                    path));
  }
  // A percentile with a fraction ("p99.9") was split at its dot: join it back.
  if (parts.size() >= 2 && parts[parts.size() - 2].size() > 1 && parts[parts.size() - 2][0] == 'p' &&
      percentile_key(parts[parts.size() - 2]) && !parts.back().empty() &&
      parts.back().find_first_not_of("0123456789") == std::string::npos) {
    parts[parts.size() - 2] += "." + parts.back();
    parts.pop_back();
  }
  if (parts.size() < 2)
    throw UserError(fmt::format("metric '{}': names a section, not a number; e.g. {}.iops", path, parts.front()));
  const nlohmann::json* node = find_job(document, job);
  const std::optional<std::string> percentile = percentile_key(parts.back());
  if (parts.back().size() > 1 && parts.back()[0] == 'p' && !percentile &&
      parts.back().find_first_not_of("0123456789.", 1) == std::string::npos) {
    throw UserError(fmt::format("metric '{}': '{}' is not a percentile between 0 and 100", path, parts.back()));
  }
  const std::size_t fields = percentile ? parts.size() - 1 : parts.size();
  for (std::size_t i = 0; i < fields; ++i) node = child(node, parts[i]);
  if (!percentile) return number_at(node);
  const nlohmann::json* value = child(child(node, "percentile"), *percentile);
  if (value == nullptr && fields >= 2 && parts[fields - 1] == "lat_ns") {
    const nlohmann::json* direction = find_job(document, job);
    for (std::size_t i = 0; i + 1 < fields; ++i) direction = child(direction, parts[i]);
    value = child(child(child(direction, "clat_ns"), "percentile"), *percentile);
  }
  return number_at(value);
}

std::vector<HeadlineMetric> headline_metrics(const nlohmann::json& document) {
  std::vector<HeadlineMetric> out;
  if (!document.contains("jobs") || !document["jobs"].is_array()) return out;
  for (const nlohmann::json& job : document["jobs"]) {
    const std::string name = text_or(job, "jobname", "");
    for (const char* dir : {"read", "write", "trim"}) {
      const nlohmann::json* section = child(&job, dir);
      const std::optional<double> ios = number_at(child(section, "total_ios"));
      if (!ios || *ios <= 0) continue;
      const std::string d = dir;
      out.push_back({name, d + ".iops", d + " IOPS", "", 1.0});
      out.push_back({name, d + ".bw_bytes", d + " bandwidth", "MiB/s", 1.0 / (1024.0 * 1024.0)});
      out.push_back({name, d + ".lat_ns.mean", d + " mean latency", "us", 1e-3});
      out.push_back({name, d + ".clat_ns.p99", d + " p99 latency", "us", 1e-3});
    }
  }
  return out;
}

}  // namespace sluice
