// fio's client output from the servers' decoded statistics, through sluice's own reporters.
#include "fionet/client_report.h"

#include <fmt/format.h>

#include <ctime>
#include <nlohmann/json.hpp>

#include "fionet/client_sluice.h"
#include "report/reporters.h"

namespace sluice::fionet {
namespace {

// One server's jobs as a run: a group per groupid, each TS one entry (the server merged group_reporting).
RunResult run_of(const ClientReport& report) {
  RunResult run;
  for (const DecodedStat& s : report.stats) {
    JobResult job = s.job;
    const auto found = report.options.find(s.thread_number ? s.thread_number - 1 : 0);
    if (found != report.options.end()) job.options = found->second;
    GroupResult* group = nullptr;
    for (GroupResult& g : run.groups) {
      if (g.groupid == job.groupid) group = &g;
    }
    if (group == nullptr) {
      run.groups.push_back(GroupResult{});
      group = &run.groups.back();
      group->groupid = job.groupid;
    }
    group->jobs.push_back(std::move(job));
  }
  return run;
}

// Every server's jobs as one group_reporting entry named "All clients" (fio's client sums them so).
RunResult all_clients_of(const std::vector<ClientReport>& reports) {
  RunResult run;
  GroupResult group;
  group.group_reporting = true;
  for (const ClientReport& r : reports) {
    for (const DecodedStat& s : r.stats) {
      JobResult job = s.job;
      job.name = "All clients";
      job.groupid = 0;
      job.options.clear();
      group.jobs.push_back(std::move(job));
    }
  }
  run.groups.push_back(std::move(group));
  return run;
}

std::size_t reporting_servers(const std::vector<ClientReport>& reports) {
  std::size_t n = 0;
  for (const ClientReport& r : reports) n += r.stats.empty() ? 0 : 1;
  return n;
}

// fio's client: each DU message is one entry of the top-level "disk_util", with the server's "hostname" and
// "port" (its handle_du with json_object_add_client_info).
nlohmann::ordered_json disk_util_json(const std::vector<ClientReport>& reports) {
  nlohmann::ordered_json disks = nlohmann::ordered_json::array();
  for (const ClientReport& r : reports) {
    if (r.disks.empty()) continue;
    RunResult run;
    run.disks = r.disks;
    const nlohmann::ordered_json doc = render_json_ordered(run, false);
    if (!doc.contains("disk_util")) continue;
    for (nlohmann::ordered_json entry : doc.at("disk_util")) {
      entry["hostname"] = r.hostname;
      entry["port"] = r.port;
      disks.push_back(std::move(entry));
    }
  }
  return disks;
}

// fio's client prints each DU message after the server's group status: the heading before every device (its
// handle_du), and in terse output one line of the device's fields per device (terse versions 3 and up).
std::string disk_stats_text(const ClientReport& r) {
  std::string out;
  for (const DiskUtilization& d : r.disks) {
    out += fmt::format(
        "\nDisk stats (read/write):\n  {}: ios={}/{}, merge={}/{}, ticks={}/{}, in_queue={}, util={:3.2f}%\n", d.name,
        d.read_ios, d.write_ios, d.read_merges, d.write_merges, d.read_ticks_ms, d.write_ticks_ms, d.in_queue_ms,
        d.util_percent);
  }
  return out;
}

std::string disk_stats_terse(const ClientReport& r) {
  std::string out;
  for (const DiskUtilization& d : r.disks) {
    out += fmt::format(";{};{};{};{};{};{};{};{};{:3.2f}%\n", d.name, d.read_ios, d.write_ios, d.read_merges,
                       d.write_merges, d.read_ticks_ms, d.write_ticks_ms, d.in_queue_ms, d.util_percent);
  }
  return out;
}

std::string render_json_document(const std::vector<ClientReport>& reports) {
  nlohmann::ordered_json root = nlohmann::ordered_json::object();
  const std::time_t now = std::time(nullptr);
  char when[64] = {};
  ::ctime_r(&now, when);
  std::string time_text = when;
  if (!time_text.empty() && time_text.back() == '\n') time_text.pop_back();
  root["fio version"] = "fio-3.33";
  root["timestamp"] = static_cast<std::int64_t>(now);
  root["time"] = time_text;
  nlohmann::ordered_json globals = nlohmann::ordered_json::object();
  for (const ClientReport& r : reports) {
    for (const auto& [k, v] : r.global_options) globals[k] = v;
  }
  root["global options"] = globals;
  nlohmann::ordered_json clients = nlohmann::ordered_json::array();
  const auto add_entries = [&clients](const RunResult& run, const std::string& host, std::uint16_t port) {
    const nlohmann::ordered_json doc = render_json_ordered(run, false);
    for (nlohmann::ordered_json entry : doc.at("jobs")) {
      entry["hostname"] = host;
      entry["port"] = port;
      clients.push_back(std::move(entry));
    }
  };
  for (const ClientReport& r : reports) add_entries(run_of(r), r.hostname, r.port);
  if (reporting_servers(reports) > 1)
    add_entries(all_clients_of(reports), reports.front().hostname, reports.front().port);
  root["client_stats"] = std::move(clients);
  root["disk_util"] = disk_util_json(reports);
  if (nlohmann::ordered_json sluice_clients = sluice_clients_json(reports); !sluice_clients.is_null()) {
    root["sluice"] = {{"clients", std::move(sluice_clients)}};
  }
  return root.dump(2) + "\n";
}

}  // namespace

std::string render_client_reports(const std::vector<ClientReport>& reports, bool normal, bool json, bool terse,
                                  int terse_version) {
  std::string out;
  const bool all = reporting_servers(reports) > 1;
  if (normal) {
    for (const ClientReport& r : reports) {
      if (r.stats.empty()) continue;
      std::string text = render_normal(run_of(r), NormalReportOptions{.show_warnings = false, .sluice_lines = false});
      if (!r.disks.empty()) {
        while (!text.empty() && text.back() == '\n') text.pop_back();
        text += "\n" + disk_stats_text(r);
      }
      out += text + "\n";
    }
    if (all) out += render_normal_jobs(all_clients_of(reports));
    if (const std::string extras = sluice_clients_text(reports); !extras.empty()) out += "\n" + extras;
  }
  if (terse) {
    for (const ClientReport& r : reports) {
      out += render_terse(run_of(r), terse_version);
      if (terse_version >= 3) out += disk_stats_terse(r);
    }
    if (all) out += render_terse(all_clients_of(reports), terse_version);
  }
  if (json) out += render_json_document(reports);
  return out;
}

}  // namespace sluice::fionet
