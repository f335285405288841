// The start skew and the hosts' environments of a sluice client's sluice servers.
#include "fionet/client_sluice.h"

#include <fmt/format.h>

#include <algorithm>

#include "compare/environment_diff.h"

namespace sluice::fionet {
namespace {

using ordered_json = nlohmann::ordered_json;

std::vector<const ClientReport*> sluice_servers(const std::vector<ClientReport>& reports) {
  std::vector<const ClientReport*> out;
  for (const ClientReport& r : reports) {
    if (r.sluice) out.push_back(&r);
  }
  return out;
}

bool has_section(const ClientReport& r) {
  return r.sluice_section.is_object() && r.sluice_section.contains("environment");
}

// What differs in `other`'s environment from `first`'s (the host name aside: hosts differ by name). A server that
// sent no environment has nothing to compare.
std::vector<Difference> differences_from(const ClientReport& first, const ClientReport& other) {
  std::vector<Difference> out;
  if (!has_section(first) || !has_section(other)) return out;
  // In the shape of a result document, as environment_differences reads it (sluice's version compared too).
  const auto document = [](const ClientReport& r) {
    return nlohmann::json{{"sluice",
                           {{"version", r.sluice_section.value("version", r.version)},
                            {"environment", r.sluice_section["environment"]}}}};
  };
  const nlohmann::json a = document(first);
  const nlohmann::json b = document(other);
  for (Difference& d : environment_differences(a, b)) {
    if (d.what != "host") out.push_back(std::move(d));
  }
  return out;
}

std::string server_label(const ClientReport& r) { return fmt::format("{},{}", r.hostname, r.port); }

std::string duration_text(std::int64_t ns) {
  if (ns < 1000) return fmt::format("{} ns", ns);
  if (ns < 1000000) return fmt::format("{:.1f} us", static_cast<double>(ns) / 1e3);
  if (ns < 1000000000) return fmt::format("{:.2f} ms", static_cast<double>(ns) / 1e6);
  return fmt::format("{:.3f} s", static_cast<double>(ns) / 1e9);
}

std::optional<std::int64_t> earliest_start(const std::vector<ClientReport>& reports) {
  std::optional<std::int64_t> earliest;
  for (const ClientReport& r : reports) {
    if (r.measure_start_ns) earliest = earliest ? std::min(*earliest, *r.measure_start_ns) : *r.measure_start_ns;
  }
  return earliest;
}

}  // namespace

std::optional<std::int64_t> start_skew_ns(const std::vector<ClientReport>& reports) {
  std::optional<std::int64_t> latest;
  for (const ClientReport& r : reports) {
    if (r.measure_start_ns) latest = latest ? std::max(*latest, *r.measure_start_ns) : *r.measure_start_ns;
  }
  const std::optional<std::int64_t> earliest = earliest_start(reports);
  if (!earliest) return std::nullopt;
  return *latest - *earliest;
}

ordered_json sluice_clients_json(const std::vector<ClientReport>& reports) {
  const std::vector<const ClientReport*> servers = sluice_servers(reports);
  if (servers.empty()) return nullptr;
  const std::optional<std::int64_t> skew = start_skew_ns(reports);
  const std::optional<std::int64_t> earliest = earliest_start(reports);
  ordered_json hosts = ordered_json::array();
  for (const ClientReport* r : servers) {
    ordered_json differences = ordered_json::array();
    if (r != servers.front()) {
      for (const Difference& d : differences_from(*servers.front(), *r)) {
        differences.push_back({{"what", d.what}, {"value", d.new_value}, {"first_value", d.old_value}});
      }
    }
    hosts.push_back({{"hostname", r->hostname},
                     {"port", r->port},
                     {"server_name", r->server_name},
                     {"version", r->version},
                     {"start_offset_ns",
                      r->measure_start_ns ? ordered_json(*r->measure_start_ns - *earliest) : ordered_json(nullptr)},
                     {"differences", std::move(differences)},
                     {"sluice", ordered_json::parse(r->sluice_section.is_null() ? "null" : r->sluice_section.dump())}});
  }
  return {{"servers", servers.size()},
          {"start_skew_ns", skew ? ordered_json(*skew) : ordered_json(nullptr)},
          {"hosts", std::move(hosts)}};
}

std::string sluice_clients_text(const std::vector<ClientReport>& reports) {
  const std::vector<const ClientReport*> servers = sluice_servers(reports);
  if (servers.empty()) return {};
  std::string out;
  const std::optional<std::int64_t> skew = start_skew_ns(reports);
  const std::optional<std::int64_t> earliest = earliest_start(reports);
  if (skew) {
    const ClientReport* first = nullptr;
    const ClientReport* last = nullptr;
    for (const ClientReport* r : servers) {
      if (!r->measure_start_ns) continue;
      if (first == nullptr || *r->measure_start_ns < *first->measure_start_ns) first = r;
      if (last == nullptr || *r->measure_start_ns > *last->measure_start_ns) last = r;
    }
    out += fmt::format(
        "Start skew of the sluice servers: {} (first {}, last {}; each start is when this client "
        "sent it RUN plus its own time from RUN to releasing its first group)\n",
        duration_text(*skew), server_label(*first), server_label(*last));
    for (const ClientReport* r : servers) {
      if (r->measure_start_ns) {
        out += fmt::format("  {}: +{}\n", server_label(*r), duration_text(*r->measure_start_ns - *earliest));
      }
    }
  }
  std::string differences;
  for (const ClientReport* r : servers) {
    if (r == servers.front()) continue;
    if (!has_section(*r)) {
      differences += fmt::format("  {}: its environment was not received\n", server_label(*r));
      continue;
    }
    for (const Difference& d : differences_from(*servers.front(), *r)) {
      differences += fmt::format("  {}: {}: {} ({}: {})\n", server_label(*r), d.what, d.new_value,
                                 server_label(*servers.front()), d.old_value);
    }
  }
  if (servers.size() > 1) {
    out += differences.empty()
               ? fmt::format("Hosts' environments: no differences from {}\n", server_label(*servers.front()))
               : fmt::format("Hosts' environments differ from {}:\n", server_label(*servers.front())) + differences;
  }
  return out;
}

}  // namespace sluice::fionet
