#pragma once
// What a sluice client prints once its servers are done, in fio's client layout: each server's job sections
// and group status (normal), a "client_stats" array with "hostname" and "port" (JSON), one terse line per job,
// and "All clients" (every server's jobs merged, histograms exact) when more than one server reported.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "fionet/thread_stat_decode.h"

namespace sluice::fionet {

struct ClientReport {
  std::string hostname;  // as the client was given it
  std::uint16_t port = 0;
  std::vector<DecodedStat> stats;                                     // TS messages, in arrival order
  std::map<std::uint32_t, std::map<std::string, std::string>> options;  // JOB_OPT by report index
  std::map<std::string, std::string> global_options;
  int groups = 0;  // GS messages
};

std::string render_client_reports(const std::vector<ClientReport>& reports, bool normal, bool json, bool terse,
                                  int terse_version);

}  // namespace sluice::fionet
