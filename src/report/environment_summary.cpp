#include "report/environment_summary.h"

#include <fmt/format.h>

#include <cstdint>

namespace sluice {
namespace {

using json = nlohmann::json;

std::string str_or(const json& j, const char* key, const char* fallback) {
  const auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string(fallback);
}

const json* find_device(const json& env, const std::string& name) {
  const auto it = env.find("devices");
  if (it == env.end() || !it->is_array()) return nullptr;
  for (const auto& d : *it) {
    if (d.is_object() && d.value("name", std::string()) == name) return &d;
  }
  return nullptr;
}

std::string target_summary(const json& env, const json& t) {
  std::string s = str_or(t, "path", "?") + " on " + str_or(t, "filesystem", "unknown filesystem");
  if (t.contains("device") && t["device"].is_string()) {
    const std::string name = t["device"].get<std::string>();
    const json* d = find_device(env, name);
    s += " (" + name;
    if (d && d->contains("scheduler") && (*d)["scheduler"].is_string())
      s += ", " + (*d)["scheduler"].get<std::string>();
    s += ")";
  }
  return s;
}

}  // namespace

std::string environment_summary(const json& env) {
  if (!env.is_object()) return "environment unknown";
  std::string s = "host " + str_or(env, "host", "?") + ", Linux " + str_or(env, "kernel_release", "?");
  if (const auto cpu = env.find("cpu"); cpu != env.end() && cpu->is_object()) {
    const json count = cpu->value("count", json(nullptr));
    if (count.is_number()) s += fmt::format(", {} CPUs", count.get<std::uint64_t>());
    const json model = cpu->value("model", json(nullptr));
    if (model.is_string()) s += " (" + model.get<std::string>() + ")";
  }
  if (const auto mem = env.find("memory_bytes"); mem != env.end() && mem->is_number()) {
    s += fmt::format(", {:.1f} GiB RAM", mem->get<double>() / (1024.0 * 1024.0 * 1024.0));
  }
  if (const auto virt = env.find("virtualization"); virt != env.end() && virt->is_object()) {
    const std::string summary = str_or(*virt, "summary", "none");
    if (summary != "none") s += ", " + summary;
  }
  if (const auto targets = env.find("targets"); targets != env.end() && targets->is_array()) {
    for (const auto& t : *targets) s += "; " + target_summary(env, t);
  }
  return s;
}

}  // namespace sluice
