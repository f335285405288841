#pragma once
// What a sluice client prints once its servers are done, in fio's client layout: each server's job sections
// and group status (normal), a "client_stats" array with "hostname" and "port" (JSON), one terse line per job,
// and "All clients" (every server's jobs merged, histograms exact) when more than one server reported. When
// some servers are sluice's: the start skew and what differs between their hosts (client_sluice.h) in the text,
// and "sluice": {"clients": ...} in the JSON.
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "fionet/thread_stat_decode.h"
#include "stats/result.h"

namespace sluice::fionet {

struct ClientReport {
  std::string hostname;  // as the client was given it
  std::uint16_t port = 0;
  std::vector<DecodedStat> stats;                                       // TS messages, in arrival order
  std::map<std::uint32_t, std::map<std::string, std::string>> options;  // JOB_OPT by report index
  std::map<std::string, std::string> global_options;
  int groups = 0;                      // GS messages
  std::vector<DiskUtilization> disks;  // DU messages: the server's block devices over its run
  // From a sluice server only (fio's servers send none of it; the report of fio servers is exactly fio's):
  bool sluice = false;                           // its probe said "sluice-..."
  std::string server_name;                       // its host name, from its probe
  std::string version;                           // "sluice-..."
  std::optional<std::int64_t> measure_start_ns;  // its measurement start on the client's clock (client_sluice.h)
  nlohmann::json sluice_section;                 // its run's "sluice" JSON section (null when it sent none)
};

std::string render_client_reports(const std::vector<ClientReport>& reports, bool normal, bool json, bool terse,
                                  int terse_version);

}  // namespace sluice::fionet
