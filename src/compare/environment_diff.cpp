#include "compare/environment_diff.h"

#include <map>
#include <set>

#include "common/json_read.h"

namespace sluice {
namespace {

using json = nlohmann::json;
using Fields = std::map<std::string, std::string>;

std::string text_of(const json& value) {
  if (value.is_string()) return value.get<std::string>();
  if (value.is_null()) return "-";
  return value.dump();
}

const json* environment_of(const json& doc) {
  const auto sluice = doc.find("sluice");
  if (sluice == doc.end() || !sluice->is_object()) return nullptr;
  const auto env = sluice->find("environment");
  return env != sluice->end() && env->is_object() ? &*env : nullptr;
}

void copy_fields(Fields& out, const std::string& prefix, const json& object, const std::set<std::string>& keys) {
  if (!object.is_object()) return;
  for (const auto& [key, value] : object.items()) {
    if (keys.empty() || keys.count(key)) out[prefix + key] = text_of(value);
  }
}

std::string version_of(const json& doc) {
  const auto sluice = doc.find("sluice");
  if (sluice != doc.end() && sluice->is_object() && sluice->contains("version")) return text_of(sluice->at("version"));
  return doc.contains("fio version") ? text_of(doc.at("fio version")) : "-";
}

Fields environment_fields(const json& doc) {
  Fields out;
  out["version"] = version_of(doc);
  const json* env = environment_of(doc);
  if (env == nullptr) return out;
  copy_fields(out, "", *env, {"host", "kernel_release", "memory_bytes"});
  if (env->contains("cpu")) copy_fields(out, "cpu ", env->at("cpu"), {"model", "count"});
  if (env->contains("vm")) copy_fields(out, "vm.", env->at("vm"), {});
  if (env->contains("targets") && env->at("targets").is_array()) {
    for (const json& t : env->at("targets")) {
      copy_fields(out, "target " + text_or(t, "path", "?") + " ", t,
                  {"filesystem", "mount_options", "mount_source", "device"});
    }
  }
  if (env->contains("devices") && env->at("devices").is_array()) {
    for (const json& d : env->at("devices")) {
      copy_fields(out, "device " + text_or(d, "name", "?") + " ", d,
                  {"model", "scheduler", "wbt_lat_usec", "nr_requests", "queue_depth", "write_cache", "read_ahead_kb",
                   "rotational", "logical_block_size", "physical_block_size", "size_bytes"});
    }
  }
  return out;
}

// fio leaves flags (time_based) out of "job options"; sluice writes them with an empty value.
bool is_fio_flag_gap(const std::string& value_a, const std::string& value_b, bool fio_side) {
  return fio_side && ((value_a == "-" && value_b.empty()) || (value_b == "-" && value_a.empty()));
}

std::vector<Difference> differences(const Fields& a, const Fields& b, bool missing_counts, bool fio_side = false) {
  std::set<std::string> keys;
  for (const auto& [k, v] : a) keys.insert(k);
  for (const auto& [k, v] : b) keys.insert(k);
  std::vector<Difference> out;
  for (const std::string& k : keys) {
    const auto ia = a.find(k);
    const auto ib = b.find(k);
    if ((ia == a.end() || ib == b.end()) && !missing_counts) continue;
    const std::string va = ia == a.end() ? "-" : ia->second;
    const std::string vb = ib == b.end() ? "-" : ib->second;
    if (va != vb && !is_fio_flag_gap(va, vb, fio_side)) out.push_back(Difference{k, va, vb});
  }
  return out;
}

bool output_only(const std::string& option) {
  static const std::set<std::string> kNames = {"output",        "output-format", "log_avg_msec",
                                               "log_hist_msec", "per_job_logs",  "status-interval",
                                               "eta",           "interval-log",  "metrics-file"};
  return kNames.count(option) > 0 || (option.starts_with("write_") && option.ends_with("_log"));
}

Fields option_fields(const json& doc) {
  Fields out;
  auto copy = [&out](const std::string& prefix, const json& options) {
    if (!options.is_object()) return;
    for (const auto& [key, value] : options.items()) {
      if (!output_only(key)) out[prefix + key] = text_of(value);
    }
  };
  if (doc.contains("global options")) copy("global: ", doc.at("global options"));
  std::map<std::string, int> seen;
  for (const json& job : doc.at("jobs")) {
    if (!job.is_object()) continue;
    std::string name = text_or(job, "jobname", "job");
    if (++seen[name] > 1) name += " #" + std::to_string(seen[name]);
    out["job " + name] = "present";  // a job only one side has is a difference too
    if (job.contains("job options")) copy("job " + name + ": ", job.at("job options"));
  }
  return out;
}

}  // namespace

bool has_environment(const json& doc) { return environment_of(doc) != nullptr; }

std::vector<Difference> environment_differences(const json& old_doc, const json& new_doc) {
  const bool both = has_environment(old_doc) && has_environment(new_doc);
  return differences(environment_fields(old_doc), environment_fields(new_doc), both);
}

std::vector<Difference> job_option_differences(const json& old_doc, const json& new_doc) {
  const bool fio_side = !old_doc.contains("sluice") || !new_doc.contains("sluice");
  return differences(option_fields(old_doc), option_fields(new_doc), true, fio_side);
}

}  // namespace sluice
