#include "compare/metrics.h"

#include <fmt/format.h>

#include <map>

#include "common/json_read.h"

namespace sluice {
namespace {

using json = nlohmann::json;

double number_at(const json& object, std::string_view key, double fallback = 0) {
  if (!object.is_object()) return fallback;
  const auto it = object.find(key);
  return it != object.end() && it->is_number() ? it->get<double>() : fallback;
}

const json* percentiles_of(const json& direction) {
  for (const char* key : {"lat_ns", "clat_ns"}) {
    const auto stat = direction.find(key);
    if (stat == direction.end() || !stat->is_object()) continue;
    const auto p = stat->find("percentile");
    if (p != stat->end() && p->is_object() && !p->empty()) return &*p;
  }
  return nullptr;
}

void add(std::vector<Metric>& out, const std::string& job, const std::string& direction, const char* name,
         MetricUnit unit, bool higher_is_better, double value) {
  out.push_back(Metric{job, direction, name, unit, higher_is_better, value});
}

void direction_metrics(std::vector<Metric>& out, const std::string& job, const std::string& dir, const json& d) {
  if (number_at(d, "total_ios") <= 0) return;
  add(out, job, dir, "iops", MetricUnit::kIops, true, number_at(d, "iops"));
  add(out, job, dir, "bw", MetricUnit::kBytesPerSecond, true, number_at(d, "bw_bytes"));
  const auto lat = d.find("lat_ns");
  if (lat != d.end()) add(out, job, dir, "mean", MetricUnit::kNanoseconds, false, number_at(*lat, "mean"));
  if (const json* p = percentiles_of(d)) {
    const std::pair<const char*, const char*> wanted[] = {
        {"50.000000", "p50"}, {"99.000000", "p99"}, {"99.900000", "p99.9"}};
    for (const auto& [key, name] : wanted) {
      if (p->contains(key) && p->at(key).is_number())
        add(out, job, dir, name, MetricUnit::kNanoseconds, false, p->at(key).get<double>());
    }
  }
}

void capacity_metrics(std::vector<Metric>& out, const json& capacity) {
  if (capacity.contains("iops") && capacity.at("iops").is_number()) {
    add(out, "capacity", "", "capacity", MetricUnit::kIops, true, capacity.at("iops").get<double>());
  }
  if (capacity.contains("knee") && capacity.at("knee").is_object()) {
    add(out, "capacity", "", "knee", MetricUnit::kIops, true, number_at(capacity.at("knee"), "iops"));
  }
}

// Slowdown = foreground IOPS idle / loaded at the same thread count, as interfere reports it.
void interference_metrics(std::vector<Metric>& out, const json& interference) {
  if (!interference.contains("phases") || !interference.at("phases").is_array()) return;
  std::map<double, double> idle;
  for (const json& phase : interference.at("phases")) {
    if (text_or(phase, "name", "") == "idle") idle[number_at(phase, "threads")] = number_at(phase, "iops");
  }
  for (const json& phase : interference.at("phases")) {
    if (text_or(phase, "name", "") != "loaded") continue;
    const double threads = number_at(phase, "threads");
    const double loaded = number_at(phase, "iops");
    const auto base = idle.find(threads);
    if (base == idle.end() || loaded <= 0) continue;
    add(out, fmt::format("interference {} threads", threads), "", "slowdown", MetricUnit::kFactor, false,
        base->second / loaded);
  }
}

}  // namespace

const std::vector<std::string>& metric_names() {
  static const std::vector<std::string> kNames = {"iops",  "bw",       "mean", "p50",     "p99",
                                                  "p99.9", "capacity", "knee", "slowdown"};
  return kNames;
}

std::vector<Metric> extract_metrics(const json& doc) {
  std::vector<Metric> out;
  std::map<std::string, int> seen;
  if (doc.contains("jobs") && doc.at("jobs").is_array()) {
    for (const json& job : doc.at("jobs")) {
      if (!job.is_object()) continue;
      std::string name = text_or(job, "jobname", "job");
      if (++seen[name] > 1) name += fmt::format(" #{}", seen[name]);  // fio allows repeated names
      for (const char* dir : {"read", "write", "trim"}) {
        if (job.contains(dir) && job.at(dir).is_object()) direction_metrics(out, name, dir, job.at(dir));
      }
    }
  }
  const auto sluice = doc.find("sluice");
  if (sluice != doc.end() && sluice->is_object()) {
    if (sluice->contains("capacity") && sluice->at("capacity").is_object())
      capacity_metrics(out, sluice->at("capacity"));
    if (sluice->contains("interference") && sluice->at("interference").is_object()) {
      interference_metrics(out, sluice->at("interference"));
    }
  }
  return out;
}

std::string metric_key(const Metric& metric) { return metric.job + "/" + metric.direction + "/" + metric.name; }

}  // namespace sluice
