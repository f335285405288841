#pragma once
// What a sluice client adds when its servers are sluice's (fio's servers send none of it): the start skew (from
// when each server said its measurement began, on the client's clock) and each host's environment with what
// differs from the first sluice server's, compared as sluice's MPI mode compares its ranks
// (compare/environment_diff.h).
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "fionet/client_report.h"

namespace sluice::fionet {

// Latest minus earliest measurement start of the servers that reported one; nullopt when none did.
std::optional<std::int64_t> start_skew_ns(const std::vector<ClientReport>& reports);

// sluice.clients: {"start_skew_ns", "hosts": [{hostname, port, server_name, version, start_offset_ns,
// differences, sluice}]} over the sluice servers; null when no server is sluice's.
nlohmann::ordered_json sluice_clients_json(const std::vector<ClientReport>& reports);

// The same for the normal output: the start skew and each host's differences from the first sluice server's;
// empty when no server is sluice's.
std::string sluice_clients_text(const std::vector<ClientReport>& reports);

}  // namespace sluice::fionet
