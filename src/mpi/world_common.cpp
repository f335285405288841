// The parts of the MPI world that do not depend on MPI: detection and the time limit.
#include <atomic>
#include <string_view>

#include "mpi/world.h"

namespace sluice::mpi {
namespace {
std::atomic<std::int64_t> g_time_limit_ns{0};
std::atomic<bool> g_wearout{false};
}  // namespace

bool launched_by_mpi(const std::function<const char*(const char*)>& getenv) {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_SIZE"}) {
    const char* value = getenv(name);
    if (value != nullptr && *value != '\0') return true;
  }
  return false;
}

std::string where() { return hostname() + ":" + std::to_string(rank()); }

void set_time_limit(std::chrono::nanoseconds limit) noexcept { g_time_limit_ns.store(limit.count()); }
std::chrono::nanoseconds time_limit() noexcept { return std::chrono::nanoseconds(g_time_limit_ns.load()); }

void set_wearout(bool on) noexcept { g_wearout.store(on); }
bool wearout() noexcept { return g_wearout.load(); }

}  // namespace sluice::mpi
