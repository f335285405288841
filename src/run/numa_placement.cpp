#include <numa.h>
#include <numaif.h>

#include <cerrno>
#include <cstring>
#include <memory>

#include "run/thread_placement.h"

namespace sluice {
namespace {

using NodeMask = std::unique_ptr<bitmask, decltype(&numa_free_nodemask)>;

NodeMask parse_nodes(const std::string& nodes) { return {numa_parse_nodestring(nodes.c_str()), &numa_free_nodemask}; }

std::string failure(const std::string& what) { return what + ": " + std::strerror(errno); }

int kernel_mode(NumaMemPolicy::Mode mode) {
  switch (mode) {
    case NumaMemPolicy::Mode::kPrefer:
      return MPOL_PREFERRED;
    case NumaMemPolicy::Mode::kBind:
      return MPOL_BIND;
    case NumaMemPolicy::Mode::kInterleave:
      return MPOL_INTERLEAVE;
    case NumaMemPolicy::Mode::kLocal:
      return MPOL_LOCAL;
    default:
      return MPOL_DEFAULT;
  }
}

}  // namespace

std::string apply_numa_cpu_nodes(const PlacementOptions& placement) {
  if (placement.numa_cpu_nodes.empty()) return "";
  const NodeMask mask = parse_nodes(placement.numa_cpu_nodes);
  if (!mask) return "numa_cpu_nodes=" + placement.numa_cpu_nodes + ": not a list of this machine's NUMA nodes";
  if (numa_run_on_node_mask(mask.get()) != 0) return failure("numa_cpu_nodes=" + placement.numa_cpu_nodes);
  return "";
}

std::string apply_numa_mem_policy(const PlacementOptions& placement, void* buffers, std::size_t bytes) {
  const NumaMemPolicy& policy = placement.numa_mem_policy;
  if (policy.mode == NumaMemPolicy::Mode::kNotSet) return "";
  const std::string option = "numa_mem_policy";
  NodeMask mask(nullptr, &numa_free_nodemask);
  if (!policy.nodes.empty()) {
    mask = parse_nodes(policy.nodes);
    if (!mask) return option + ": '" + policy.nodes + "' is not a list of this machine's NUMA nodes";
  }
  const unsigned long* nodes = mask ? mask->maskp : nullptr;
  const unsigned long max_node = mask ? mask->size + 1 : 0;  // as libnuma passes it
  const int mode = kernel_mode(policy.mode);
  if (set_mempolicy(mode, nodes, max_node) != 0) return failure(option + ": set_mempolicy");
  // The buffers were allocated and filled before this thread had its policy: move their pages (mbind with
  // MPOL_MF_MOVE), so the ios use memory where the policy puts it, as fio's buffers allocated afterwards.
  if (buffers != nullptr && bytes != 0 && mbind(buffers, bytes, mode, nodes, max_node, MPOL_MF_MOVE) != 0) {
    return failure(option + ": mbind of the io buffers");
  }
  return "";
}

}  // namespace sluice
