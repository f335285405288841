// The single-process world of a sluice built without MPI (SLUICE_MPI=OFF): one rank, and a clear error when
// MPI is asked for.
#include <unistd.h>

#include <cstdlib>

#include "common/error.h"
#include "mpi/world.h"

namespace sluice::mpi {

bool built_with_mpi() noexcept { return false; }

void init() {
  throw UserError(
      "this sluice was built without MPI, so it cannot run under mpirun or with --mpi; install libopenmpi-dev "
      "and rebuild (cmake -DSLUICE_MPI=ON), or run without mpirun and --mpi");
}

bool active() noexcept { return false; }
int rank() noexcept { return 0; }
int size() noexcept { return 1; }

std::string hostname() {
  char buf[256] = {};
  if (::gethostname(buf, sizeof buf - 1) != 0) return "localhost";
  return buf;
}

void barrier() {}
bool all_ok(bool mine) { return mine; }
std::vector<std::string> gather(const std::string& mine) { return {mine}; }
std::string broadcast(const std::string& text) { return text; }
std::uint64_t sum(std::uint64_t mine) { return mine; }
double max(double mine) { return mine; }
std::vector<std::uint64_t> max_each(const std::vector<std::uint64_t>& mine) { return mine; }
std::vector<ClockOffset> clock_offsets() { return {ClockOffset{}}; }
void start_stop_relay() {}
void end_stop_relay() {}
void abort(int code) { std::_Exit(code); }
void finalize() {}

}  // namespace sluice::mpi
