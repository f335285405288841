// fio's numa_cpu_nodes and numa_mem_policy, parsed as fio parses them: node lists through libnuma's
// numa_parse_nodestring ("0", "0-1,3", "all"), which knows this machine's nodes, so a node it lacks is
// refused while parsing, as in fio. Applied by the worker on its own thread (run/numa_placement.cpp).
#include <numa.h>

#include <algorithm>
#include <string>

#include "job/option_builders.h"

// libnuma prints its warnings and errors on stderr unless the program defines these two (numa(3): they "can
// be overridden by the user program"); sluice reports each failure itself, naming the option.
extern "C" void numa_warn(int, char*, ...) {}
extern "C" void numa_error(char*) {}

namespace sluice::detail {
namespace {

// Refuses a node list libnuma does not accept on this machine.
void check_node_list(std::string_view option, std::string_view value, const std::string& nodes,
                     const SourcePos& where) {
  if (numa_available() < 0) value_error(where, option, value, "this kernel has no NUMA support (numa_available)");
  bitmask* mask = numa_parse_nodestring(nodes.c_str());
  if (mask == nullptr) {
    value_error(where, option, value,
                "'" + nodes + "' is not a list of this machine's NUMA nodes (0-" + std::to_string(numa_max_node()) +
                    ", ranges and 'all' as numactl)");
  }
  numa_free_nodemask(mask);
}

NumaMemPolicy parse_mem_policy(std::string_view value, const SourcePos& where) {
  static const std::vector<std::string> kModes = {"default", "prefer", "bind", "interleave", "local"};
  const std::size_t colon = value.find(':');
  const std::string_view mode_text = value.substr(0, colon);
  const auto known = std::find(kModes.begin(), kModes.end(), mode_text);
  if (known == kModes.end()) {
    value_error(
        where, "numa_mem_policy", value,
        "'" + std::string(mode_text) + "' is not a policy: default, prefer, bind, interleave or local (as fio)");
  }
  NumaMemPolicy policy;
  policy.mode = static_cast<NumaMemPolicy::Mode>(known - kModes.begin() + 1);
  const bool has_nodes = colon != std::string_view::npos;
  policy.nodes = has_nodes ? std::string(value.substr(colon + 1)) : "";
  switch (policy.mode) {
    case NumaMemPolicy::Mode::kPrefer:
      if (policy.nodes.empty() ||
          !std::all_of(policy.nodes.begin(), policy.nodes.end(), [](char c) { return c >= '0' && c <= '9'; })) {
        value_error(where, "numa_mem_policy", value, "'prefer' takes one node (prefer:0)");
      }
      break;
    case NumaMemPolicy::Mode::kInterleave:
      if (policy.nodes.empty()) policy.nodes = "all";  // fio: every node
      break;
    case NumaMemPolicy::Mode::kBind:
      if (policy.nodes.empty()) value_error(where, "numa_mem_policy", value, "'bind' needs a node list (bind:0)");
      break;
    default:
      if (has_nodes) {
        value_error(where, "numa_mem_policy", value, "'" + std::string(mode_text) + "' takes no node list");
      }
      return policy;
  }
  check_node_list("numa_mem_policy", value, policy.nodes, where);
  return policy;
}

}  // namespace

void add_numa_options(std::vector<OptionDef>& table) {
  table.insert(
      table.end(),
      {{
           .name = "numa_cpu_nodes",
           .type = OptionType::kString,
           .range = "node list (0, 0-1,3, all)",
           .category = "placement",
           .help = "Run the job's thread on the CPUs of these NUMA nodes (libnuma's numa_run_on_node_mask, as "
                   "fio); applied after cpus_allowed, so it wins. A node this machine lacks is refused.",
           .reason = "any CPU",
           .apply =
               [](JobSpec& job, std::string_view value, const SourcePos& where) {
                 job.placement.numa_cpu_nodes = std::string(value);
                 check_node_list("numa_cpu_nodes", value, job.placement.numa_cpu_nodes, where);
               },
       },
       {
           .name = "numa_mem_policy",
           .type = OptionType::kString,
           .range = "default|prefer:N|bind:NODES|interleave[:NODES]|local",
           .category = "placement",
           .help = "The NUMA memory policy of the job's thread (set_mempolicy), which its io buffers are also "
                   "moved to follow (mbind), as fio allocates them after setting it: prefer one node, bind to "
                   "or interleave over a node list (interleave alone: every node), or local.",
           .reason = "the kernel's default policy",
           .apply = [](JobSpec& job, std::string_view value,
                       const SourcePos& where) { job.placement.numa_mem_policy = parse_mem_policy(value, where); },
       }});
}

}  // namespace sluice::detail
