// The MPI world on the MPI C API (Open MPI from Debian, or any MPI-3 implementation). Compiled only when
// sluice is built with MPI (SLUICE_MPI); world_single.cpp stands in otherwise.
#include <mpi.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <limits>
#include <thread>

#include "common/clock.h"
#include "common/error.h"
#include "common/stop_signal.h"
#include "mpi/world.h"

namespace sluice::mpi {
namespace {

bool g_active = false;
int g_rank = 0;
int g_size = 1;
int g_thread_level = MPI_THREAD_SINGLE;  // what MPI_Init_thread granted

constexpr int kPingTag = 7301;
constexpr int kPongTag = 7302;
constexpr int kPingRounds = 8;  // the round trip with the least delay gives the offset

int checked_int(std::size_t n) {
  if (n > static_cast<std::size_t>(std::numeric_limits<int>::max())) throw UserError("MPI message over 2 GiB");
  return static_cast<int>(n);
}

}  // namespace

bool built_with_mpi() noexcept { return true; }

void init() {
  if (g_active) return;
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized) {
    // Multiple: the hang watchdog may call MPI_Abort, and the stop relay votes, while the main thread waits
    // in a collective.
    if (MPI_Init_thread(nullptr, nullptr, MPI_THREAD_MULTIPLE, &g_thread_level) != MPI_SUCCESS) {
      throw UserError("MPI_Init failed: is this process started by a working mpirun?");
    }
  } else {
    MPI_Query_thread(&g_thread_level);
  }
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_size);
  g_active = true;
  if (g_rank != 0) {
    std::fflush(stdout);
    if (std::freopen("/dev/null", "w", stdout) == nullptr) std::fclose(stdout);
  }
}

bool active() noexcept { return g_active; }
int rank() noexcept { return g_active ? g_rank : 0; }
int size() noexcept { return g_active ? g_size : 1; }

std::string hostname() {
  char name[MPI_MAX_PROCESSOR_NAME] = {};
  int length = 0;
  if (g_active && MPI_Get_processor_name(name, &length) == MPI_SUCCESS && length > 0) return std::string(name, length);
  char buf[256] = {};
  if (::gethostname(buf, sizeof buf - 1) != 0) return "localhost";
  return buf;
}

void barrier() {
  if (g_active) MPI_Barrier(MPI_COMM_WORLD);
}

bool all_ok(bool mine) {
  if (!g_active) return mine;
  int in = mine ? 1 : 0;
  int out = 0;
  MPI_Allreduce(&in, &out, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  return out != 0;
}

std::vector<std::string> gather(const std::string& mine) {
  if (!g_active) return {mine};
  const int length = checked_int(mine.size());
  std::vector<int> lengths(g_rank == 0 ? static_cast<std::size_t>(g_size) : 0);
  MPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  std::vector<int> displacements(lengths.size());
  std::size_t total = 0;
  for (std::size_t i = 0; i < lengths.size(); ++i) {
    displacements[i] = checked_int(total);
    total += static_cast<std::size_t>(lengths[i]);
  }
  std::string all(total, '\0');
  MPI_Gatherv(mine.data(), length, MPI_CHAR, all.data(), lengths.data(), displacements.data(), MPI_CHAR, 0,
              MPI_COMM_WORLD);
  std::vector<std::string> out;
  for (std::size_t i = 0; i < lengths.size(); ++i) {
    out.push_back(all.substr(static_cast<std::size_t>(displacements[i]), static_cast<std::size_t>(lengths[i])));
  }
  return out;
}

std::string broadcast(const std::string& text) {
  if (!g_active) return text;
  int length = g_rank == 0 ? checked_int(text.size()) : 0;
  MPI_Bcast(&length, 1, MPI_INT, 0, MPI_COMM_WORLD);
  std::string out = g_rank == 0 ? text : std::string(static_cast<std::size_t>(length), '\0');
  MPI_Bcast(out.data(), length, MPI_CHAR, 0, MPI_COMM_WORLD);
  return out;
}

std::uint64_t sum(std::uint64_t mine) {
  if (!g_active) return mine;
  std::uint64_t out = 0;
  MPI_Allreduce(&mine, &out, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
  return out;
}

double max(double mine) {
  if (!g_active) return mine;
  double out = 0;
  MPI_Allreduce(&mine, &out, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return out;
}

std::vector<std::uint64_t> max_each(const std::vector<std::uint64_t>& mine) {
  if (!g_active || mine.empty()) return mine;
  std::vector<std::uint64_t> out(mine.size());
  MPI_Allreduce(mine.data(), out.data(), checked_int(mine.size()), MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);
  return out;
}

std::vector<ClockOffset> clock_offsets() {
  init_clock();
  if (!g_active) return {ClockOffset{}};
  barrier();
  if (g_rank != 0) {
    for (int round = 0; round < kPingRounds; ++round) {
      char ping = 0;
      MPI_Recv(&ping, 1, MPI_CHAR, 0, kPingTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      const std::uint64_t now = monotonic_ns();
      MPI_Send(&now, 1, MPI_UINT64_T, 0, kPongTag, MPI_COMM_WORLD);
    }
    return {};
  }
  std::vector<ClockOffset> offsets(static_cast<std::size_t>(g_size));
  for (int peer = 1; peer < g_size; ++peer) {
    std::uint64_t best_rtt = std::numeric_limits<std::uint64_t>::max();
    for (int round = 0; round < kPingRounds; ++round) {
      const char ping = 0;
      const std::uint64_t sent = monotonic_ns();
      MPI_Send(&ping, 1, MPI_CHAR, peer, kPingTag, MPI_COMM_WORLD);
      std::uint64_t theirs = 0;
      MPI_Recv(&theirs, 1, MPI_UINT64_T, peer, kPongTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      const std::uint64_t received = monotonic_ns();
      const std::uint64_t rtt = received - sent;
      if (rtt < best_rtt) {
        best_rtt = rtt;
        const std::uint64_t midpoint = sent + rtt / 2;
        offsets[static_cast<std::size_t>(peer)] = {static_cast<std::int64_t>(theirs - midpoint), (rtt + 1) / 2};
      }
    }
  }
  return offsets;
}

namespace {

// The stop relay's state: its communicator (so its votes never match the main thread's collectives), its
// thread, and whether this rank's run is over.
struct StopRelay {
  MPI_Comm comm = MPI_COMM_NULL;
  std::atomic<bool> done{false};
  std::thread thread;
};
StopRelay* g_relay = nullptr;

// Each round every rank says whether a signal stopped it and whether its run is still going; the round's
// maximum stops this rank when another was signalled, and ends the relay once no run is going. Polled with
// MPI_Test and short sleeps: a blocking collective would spin on a CPU the jobs need.
void relay_rounds(StopRelay& relay) {
  using namespace std::chrono_literals;
  while (true) {
    int mine[2] = {stop_signal_number() != 0 ? 1 : 0, relay.done.load(std::memory_order_acquire) ? 0 : 1};
    int all[2] = {0, 0};
    MPI_Request request = MPI_REQUEST_NULL;
    MPI_Iallreduce(mine, all, 2, MPI_INT, MPI_MAX, relay.comm, &request);
    int complete = 0;
    while (MPI_Test(&request, &complete, MPI_STATUS_IGNORE) == MPI_SUCCESS && complete == 0) {
      std::this_thread::sleep_for(5ms);
    }
    if (all[0] != 0 && !stop_requested()) request_stop();
    if (all[1] == 0) return;
    std::this_thread::sleep_for(20ms);
  }
}

}  // namespace

void start_stop_relay() {
  if (!g_active || g_relay != nullptr) return;
  // Collective: every rank must agree (MPI_Comm_dup is collective, and each rank's library granted its own level).
  if (!all_ok(g_thread_level >= MPI_THREAD_MULTIPLE)) return;
  g_relay = new StopRelay;
  MPI_Comm_dup(MPI_COMM_WORLD, &g_relay->comm);
  g_relay->thread = std::thread(relay_rounds, std::ref(*g_relay));
}

void end_stop_relay() {
  if (g_relay == nullptr) return;
  g_relay->done.store(true, std::memory_order_release);
  g_relay->thread.join();
  MPI_Comm_free(&g_relay->comm);
  delete g_relay;
  g_relay = nullptr;
}

void abort(int code) {
  std::fflush(stdout);
  std::fflush(stderr);
  if (g_active) MPI_Abort(MPI_COMM_WORLD, code);
  std::_Exit(code);
}

void finalize() {
  if (!g_active) return;
  g_active = false;
  MPI_Finalize();
}

}  // namespace sluice::mpi
