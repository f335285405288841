#include "observe/environment.h"

#include <fmt/format.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <optional>
#include <sstream>
#include <system_error>

#include "observe/disk_stats.h"
#include "observe/virtualization.h"

namespace sluice {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// The first line of a small pseudo-file, without trailing whitespace; nullopt when unreadable.
std::optional<std::string> read_line(const fs::path& path) {
  std::ifstream in(path);
  std::string line;
  if (!in || !std::getline(in, line)) return std::nullopt;
  while (!line.empty() && (line.back() == '\n' || line.back() == ' ' || line.back() == '\t')) line.pop_back();
  return line;
}

json string_or_null(const fs::path& path) {
  auto s = read_line(path);
  return s ? json(*s) : json(nullptr);
}

json u64_or_null(const fs::path& path) {
  auto s = read_line(path);
  if (!s) return nullptr;
  try {
    std::size_t used = 0;
    const auto v = std::stoull(*s, &used);
    return used > 0 ? json(v) : json(nullptr);
  } catch (const std::exception&) {
    return nullptr;
  }
}

json host_name(const std::string& proc_root) {
  if (auto s = read_line(fs::path(proc_root) / "sys" / "kernel" / "hostname")) return *s;
  char buf[256] = {};
  if (::gethostname(buf, sizeof buf - 1) == 0) return std::string(buf);
  return nullptr;
}

void add_kernel(json& env, const std::string& proc_root) {
  auto release = read_line(fs::path(proc_root) / "sys" / "kernel" / "osrelease");
  auto version = read_line(fs::path(proc_root) / "sys" / "kernel" / "version");
  utsname uts{};
  if ((!release || !version) && ::uname(&uts) == 0) {
    if (!release) release = uts.release;
    if (!version) version = uts.version;
  }
  env["kernel"] = release ? json(*release + (version ? " " + *version : std::string())) : json(nullptr);
  env["kernel_release"] = release ? json(*release) : json(nullptr);
}

json cpu_info(const std::string& proc_root) {
  json cpu = {{"model", nullptr}, {"count", nullptr}};
  std::ifstream in(fs::path(proc_root) / "cpuinfo");
  if (!in) return cpu;
  std::uint64_t count = 0;
  for (std::string line; std::getline(in, line);) {
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string key = line.substr(0, colon);
    while (!key.empty() && (key.back() == ' ' || key.back() == '\t')) key.pop_back();
    std::string value = line.substr(colon + 1);
    value.erase(0, value.find_first_not_of(" \t"));
    if (key == "processor") ++count;
    if (cpu["model"].is_null() && (key == "model name" || key == "Model" || key == "cpu model")) cpu["model"] = value;
  }
  if (count > 0) cpu["count"] = count;
  return cpu;
}

json memory_bytes(const std::string& proc_root) {
  std::ifstream in(fs::path(proc_root) / "meminfo");
  for (std::string key; in >> key;) {
    std::uint64_t kib = 0;
    if (key == "MemTotal:" && in >> kib) return kib * 1024;
    in.ignore(std::numeric_limits<std::streamsize>::max(), '\n');
  }
  return nullptr;
}

json vm_knobs(const std::string& proc_root) {
  json vm = json::object();
  for (const char* knob : {"dirty_ratio", "dirty_background_ratio", "dirty_bytes", "dirty_background_bytes",
                           "dirty_expire_centisecs", "dirty_writeback_centisecs"}) {
    vm[knob] = u64_or_null(fs::path(proc_root) / "sys" / "vm" / knob);
  }
  return vm;
}

// mountinfo escapes space, tab, newline and backslash as \ooo octal.
std::string unescape_mount_field(const std::string& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 3 < s.size()) {
      const std::string oct = s.substr(i + 1, 3);
      if (oct.find_first_not_of("01234567") == std::string::npos) {
        out.push_back(static_cast<char>(std::stoi(oct, nullptr, 8)));
        i += 3;
        continue;
      }
    }
    out.push_back(s[i]);
  }
  return out;
}

struct Mount {
  std::string mount_point, options, fstype, source, super_options;
};

std::vector<Mount> read_mounts(const std::string& proc_root) {
  std::vector<Mount> mounts;
  std::ifstream in(fs::path(proc_root) / "self" / "mountinfo");
  for (std::string line; std::getline(in, line);) {
    std::istringstream fields(line);
    std::string id, parent, devno, root, mount_point, options, word;
    if (!(fields >> id >> parent >> devno >> root >> mount_point >> options)) continue;
    while (fields >> word && word != "-") {
    }  // optional fields end at "-"
    Mount m;
    m.mount_point = unescape_mount_field(mount_point);
    m.options = options;
    if (!(fields >> m.fstype >> m.source)) continue;
    fields >> m.super_options;
    m.source = unescape_mount_field(m.source);
    mounts.push_back(std::move(m));
  }
  return mounts;
}

bool is_under(const std::string& path, const std::string& mount_point) {
  if (mount_point == "/") return true;
  if (path.compare(0, mount_point.size(), mount_point) != 0) return false;
  return path.size() == mount_point.size() || path[mount_point.size()] == '/';
}

// The mount holding path: the longest matching mount point, and of equal ones the last (it covers the others).
const Mount* mount_of(const std::string& path, const std::vector<Mount>& mounts) {
  const Mount* best = nullptr;
  for (const auto& m : mounts) {
    if (is_under(path, m.mount_point) && (!best || m.mount_point.size() >= best->mount_point.size())) best = &m;
  }
  return best;
}

json target_info(const std::string& path, const std::vector<Mount>& mounts, const std::string& sys_root) {
  std::error_code ec;
  // The target may not exist yet (sluice lays it out later): resolve what exists of it.
  const std::string real = fs::weakly_canonical(fs::absolute(path, ec), ec).string();
  json t = {{"path", path},
            {"realpath", ec ? json(nullptr) : json(real)},
            {"filesystem", nullptr},
            {"mount_point", nullptr},
            {"mount_options", nullptr},
            {"mount_source", nullptr},
            {"device", nullptr}};
  if (const Mount* m = ec ? nullptr : mount_of(real, mounts)) {
    t["filesystem"] = m->fstype;
    t["mount_point"] = m->mount_point;
    t["mount_options"] = m->options;
    t["mount_source"] = m->source;
  }
  fs::path probe = real.empty() ? fs::path(path) : fs::path(real);
  while (!probe.empty() && !fs::exists(probe, ec) && probe.has_parent_path() && probe != probe.parent_path()) {
    probe = probe.parent_path();
  }
  const auto devices = devices_under({probe.string()}, sys_root);
  if (!devices.empty()) t["device"] = devices.front();
  return t;
}

// The active scheduler is the bracketed one: "mq-deadline kyber [bfq] none" -> "bfq".
json active_scheduler(const fs::path& path) {
  auto s = read_line(path);
  if (!s) return nullptr;
  const auto open = s->find('[');
  const auto close = s->find(']', open);
  if (open != std::string::npos && close != std::string::npos) return s->substr(open + 1, close - open - 1);
  return *s;  // a single scheduler ("none") is printed without brackets
}

// The cache a device reports of itself, in bytes; null when unknown (sysfs has no size for most devices). A
// sluice lab's loop device reports its model's: its backing file is the lab daemon's MOUNT/device, whose
// MOUNT/stats (JSON) names the model and its cache (docs/lab.md).
json reported_cache_bytes(const fs::path& dev) {
  const std::optional<std::string> backing = read_line(dev / "loop" / "backing_file");
  if (!backing || fs::path(*backing).filename() != "device") return nullptr;
  std::ifstream in(fs::path(*backing).parent_path() / "stats");
  std::stringstream text;
  text << in.rdbuf();
  const json stats = json::parse(text.str(), nullptr, false);
  if (stats.is_discarded() || !stats.is_object() || !stats.contains("model") || !stats.contains("cache"))
    return nullptr;
  const json& cache = stats["cache"];
  if (!cache.is_object() || !cache.contains("bytes") || !cache["bytes"].is_number_unsigned()) return nullptr;
  return cache["bytes"].get<std::uint64_t>() > 0 ? cache["bytes"] : json(nullptr);
}

json device_info(const std::string& name, const std::string& sys_root) {
  const fs::path dev = fs::path(sys_root) / "block" / name;
  const fs::path queue = dev / "queue";
  json size = u64_or_null(dev / "size");
  if (!size.is_null()) size = size.get<std::uint64_t>() * 512;  // always 512-byte sectors in sysfs
  json rotational = u64_or_null(queue / "rotational");
  if (!rotational.is_null()) rotational = rotational.get<std::uint64_t>() != 0;
  return {{"name", name},
          {"model", string_or_null(dev / "device" / "model")},
          {"size_bytes", size},
          {"rotational", rotational},
          {"logical_block_size", u64_or_null(queue / "logical_block_size")},
          {"physical_block_size", u64_or_null(queue / "physical_block_size")},
          {"scheduler", active_scheduler(queue / "scheduler")},
          {"nr_requests", u64_or_null(queue / "nr_requests")},
          {"queue_depth", u64_or_null(dev / "device" / "queue_depth")},
          {"write_cache", string_or_null(queue / "write_cache")},
          {"read_ahead_kb", u64_or_null(queue / "read_ahead_kb")},
          {"wbt_lat_usec", u64_or_null(queue / "wbt_lat_usec")},
          {"cache_bytes", reported_cache_bytes(dev)}};
}

// The machine's own CPUID is asked only for the real /proc (tests pass synthetic trees); the container
// markers are looked for beside the synthetic proc_root, so a test tree never sees the real /.dockerenv.
json virtualization_json(const std::string& proc_root, const std::string& sys_root) {
  const bool real = proc_root == "/proc";
  const Virtualization v =
      detect_virtualization(proc_root, sys_root, real ? "/" : fs::path(proc_root).parent_path().string(), real);
  return {{"kind", v.kind},           {"what", v.what},         {"vm", v.vm},
          {"container", v.container}, {"evidence", v.evidence}, {"summary", v.describe()}};
}

}  // namespace

// The targets the environment describes: each path when there are few; beyond kListedTargets (thousands of
// files of nrfiles, filecreate), one path per directory with the count of its files (the files of one
// directory share its filesystem and device), so the report stays small. files = 0: the path itself.
namespace {

constexpr std::size_t kListedTargets = 64;

std::vector<std::pair<std::string, std::size_t>> listed_targets(const std::vector<std::string>& paths) {
  std::vector<std::pair<std::string, std::size_t>> listed;
  if (paths.size() <= kListedTargets) {
    for (const std::string& p : paths) listed.emplace_back(p, 0);
    return listed;
  }
  std::map<std::string, std::size_t> index_of_directory;
  for (const std::string& p : paths) {
    if (p.rfind("/dev/", 0) == 0) {  // a device is its own target, never folded into /dev
      listed.emplace_back(p, 0);
      continue;
    }
    std::error_code ec;
    const std::string dir = fs::absolute(p, ec).parent_path().string();
    const auto [it, added] = index_of_directory.emplace(dir, listed.size());
    if (added) listed.emplace_back(p, 0);
    listed[it->second].second++;
  }
  return listed;
}

}  // namespace

json capture_environment(const std::vector<std::string>& target_paths, const std::string& proc_root,
                         const std::string& sys_root) {
  json env = json::object();
  env["host"] = host_name(proc_root);
  add_kernel(env, proc_root);
  env["cpu"] = cpu_info(proc_root);
  env["memory_bytes"] = memory_bytes(proc_root);
  env["vm"] = vm_knobs(proc_root);
  env["virtualization"] = virtualization_json(proc_root, sys_root);
  const auto mounts = read_mounts(proc_root);
  json targets = json::array();
  std::vector<std::string> device_names;
  for (const auto& [path, files] : listed_targets(target_paths)) {
    json t = target_info(path, mounts, sys_root);
    if (files > 0) {  // a directory standing for its files
      std::error_code ec;
      t["path"] = fs::absolute(path, ec).parent_path().string();
      if (t["realpath"].is_string()) t["realpath"] = fs::path(t["realpath"].get<std::string>()).parent_path().string();
      t["files"] = files;
    }
    if (t["device"].is_string()) {
      const auto name = t["device"].get<std::string>();
      if (std::find(device_names.begin(), device_names.end(), name) == device_names.end()) device_names.push_back(name);
    }
    targets.push_back(std::move(t));
  }
  env["targets"] = std::move(targets);
  json devices = json::array();
  for (const auto& name : device_names) devices.push_back(device_info(name, sys_root));
  env["devices"] = std::move(devices);
  return env;
}

}  // namespace sluice
