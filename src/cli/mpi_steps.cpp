#include "cli/mpi_steps.h"

#include "mpi/world.h"

namespace sluice {
namespace {
constexpr const char* kMore = "more";
constexpr const char* kDone = "done";
}  // namespace

std::uint32_t MpiProcessGroup::rank() const noexcept { return static_cast<std::uint32_t>(mpi::rank()); }
std::uint32_t MpiProcessGroup::size() const noexcept { return static_cast<std::uint32_t>(mpi::size()); }
std::string MpiProcessGroup::host() const { return mpi::hostname(); }
void MpiProcessGroup::barrier() { mpi::barrier(); }
std::uint64_t MpiProcessGroup::sum(std::uint64_t value) { return mpi::sum(value); }
double MpiProcessGroup::max(double value) { return mpi::max(value); }
std::string MpiProcessGroup::broadcast(const std::string& text) { return mpi::broadcast(text); }
std::vector<std::string> MpiProcessGroup::gather(const std::string& text) { return mpi::gather(text); }

void MpiRepetitions::next() {
  if (!mpi::active()) return;
  if (started_) mpi::broadcast(kMore);
  started_ = true;
}

void MpiRepetitions::done() {
  if (mpi::active()) mpi::broadcast(kDone);
}

int MpiRepetitions::follow(const std::function<int()>& measure) {
  int code = measure();
  while (mpi::broadcast("") == kMore) code = measure();
  return code;
}

}  // namespace sluice
