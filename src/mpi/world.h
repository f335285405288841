#pragma once
// The MPI world a sluice process runs in: which rank it is, how many there are, and the few collective
// operations a many-host run needs (barrier, a status vote, gather to rank 0, broadcast, clock offsets,
// abort). world_mpi.cpp implements it on the MPI C API when sluice is built with MPI (SLUICE_MPI);
// world_single.cpp is the single-process world otherwise. Nothing here calls MPI until init(): a normal run
// pays no start-up cost and behaves as before.
//
// Threads: init(), finalize() and the collectives are called from the main thread; abort() from any thread.
#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace sluice::mpi {

// A rank's monotonic clock relative to rank 0's: its clock reads offset_ns more than rank 0's at the same
// instant, give or take uncertainty_ns (half the round trip of the best of several ping-pongs).
struct ClockOffset {
  std::int64_t offset_ns = 0;
  std::uint64_t uncertainty_ns = 0;
};

// True when this sluice was built with MPI.
bool built_with_mpi() noexcept;

// True when the environment says the process was started by mpirun / mpiexec / srun: OMPI_COMM_WORLD_SIZE
// (Open MPI), PMIX_RANK (PMIx) or PMI_SIZE (PMI-1/2, MPICH, Slurm). `getenv` is std::getenv or a test's map.
bool launched_by_mpi(const std::function<const char*(const char*)>& getenv);

// Joins the MPI world (MPI_Init_thread). On ranks other than 0, stdout is sent to /dev/null (rank 0 prints
// the report). Throws UserError when sluice was built without MPI. Idempotent.
void init();
// True between init() and finalize().
bool active() noexcept;
int rank() noexcept;  // 0 when not active
int size() noexcept;  // 1 when not active
// This host's name (MPI_Get_processor_name, else gethostname).
std::string hostname();
// "host:rank", the prefix of this rank's messages on stderr.
std::string where();

// Collectives: every rank must call them in the same order.
void barrier();
// True when every rank passes `mine` true (a barrier that also tells whether some rank failed).
bool all_ok(bool mine);
// Rank 0 receives every rank's string, in rank order (its own first); the other ranks receive {}.
std::vector<std::string> gather(const std::string& mine);
// Every rank receives rank 0's `text`.
std::string broadcast(const std::string& text);
// Every rank receives the sum / the maximum of every rank's `mine`.
std::uint64_t sum(std::uint64_t mine);
double max(double mine);
// Element by element: every rank receives, for each i, the largest mine[i] of all ranks. Every rank must
// pass as many elements.
std::vector<std::uint64_t> max_each(const std::vector<std::uint64_t>& mine);
// Rank 0 receives each rank's clock offset against its own (its own entry is {0, 0}); others receive {}.
std::vector<ClockOffset> clock_offsets();

// While a run measures, a rank stopped by a signal (SIGINT, SIGTERM, SIGHUP to that rank alone) stops every
// other rank (request_stop) within a few tens of milliseconds: a thread of each rank takes part in a
// non-blocking vote on a communicator of its own every 20 ms. Both calls are collective: start once the
// ranks are joined, end once this rank's run (and its meeting points) are over; end returns when every
// rank's run is over. Without MPI, or when MPI grants less than MPI_THREAD_MULTIPLE, they do nothing.
void start_stop_relay();
void end_stop_relay();

// Ends every rank at once (MPI_Abort) with exit status `code`; when not active, exits the process.
[[noreturn]] void abort(int code);
// Leaves the MPI world (MPI_Finalize) when active.
void finalize();

// The longest an MPI run may take before its ranks are ended as hung (--mpi-timeout; 0 = computed from the
// jobs' runtime). Set by the command line, read by the run.
void set_time_limit(std::chrono::nanoseconds limit) noexcept;
std::chrono::nanoseconds time_limit() noexcept;

// Stonewall wear-out (--mpi-wearout, IOR's stoneWallingWearOut): after a time-based run's deadline every rank
// goes on until each of its job clones has done as many ios as that clone did on the busiest rank.
void set_wearout(bool on) noexcept;
bool wearout() noexcept;

}  // namespace sluice::mpi
