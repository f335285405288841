#include "suites/metadata_comm.h"

#include <algorithm>
#include <barrier>
#include <vector>

namespace sluice {

// Each thread writes its own slot, a barrier publishes the slots, thread 0 reduces them (and across the
// processes, if any) into `result_*`, and a second barrier publishes the result. Thread 0 writes the result
// of the next collective only after its first barrier, which every thread reaches after reading this one.
struct ThreadTeamState {
  ThreadTeamState(std::uint32_t n, ProcessGroup* group) : size(n), processes(group), gate(n), counts(n), times(n) {}
  std::uint32_t size;
  ProcessGroup* processes;
  std::barrier<> gate;
  std::vector<std::uint64_t> counts;
  std::vector<double> times;
  std::uint64_t result_count = 0;
  double result_time = 0;
};

namespace {

class ThreadComm final : public WorkerComm {
 public:
  ThreadComm(ThreadTeamState& state, std::uint32_t rank) : state_(state), rank_(rank) {}
  std::uint32_t rank() const noexcept override {
    return state_.processes == nullptr ? rank_ : state_.processes->rank() * state_.size + rank_;
  }
  std::uint32_t size() const noexcept override {
    return state_.processes == nullptr ? state_.size : state_.processes->size() * state_.size;
  }
  void barrier() override {
    state_.gate.arrive_and_wait();
    if (state_.processes == nullptr) return;
    if (rank_ == 0) state_.processes->barrier();
    state_.gate.arrive_and_wait();
  }
  std::uint64_t sum(std::uint64_t value) override {
    state_.counts[rank_] = value;
    state_.gate.arrive_and_wait();
    if (rank_ == 0) {
      std::uint64_t total = 0;
      for (const std::uint64_t c : state_.counts) total += c;
      state_.result_count = state_.processes == nullptr ? total : state_.processes->sum(total);
    }
    state_.gate.arrive_and_wait();
    return state_.result_count;
  }
  double max(double value) override {
    state_.times[rank_] = value;
    state_.gate.arrive_and_wait();
    if (rank_ == 0) {
      const double top = *std::max_element(state_.times.begin(), state_.times.end());
      state_.result_time = state_.processes == nullptr ? top : state_.processes->max(top);
    }
    state_.gate.arrive_and_wait();
    return state_.result_time;
  }

 private:
  ThreadTeamState& state_;
  std::uint32_t rank_;
};

}  // namespace

ThreadTeam::ThreadTeam(std::uint32_t size, ProcessGroup* processes)
    : state_(std::make_unique<ThreadTeamState>(size == 0 ? 1 : size, processes)) {}

ThreadTeam::~ThreadTeam() = default;

std::unique_ptr<WorkerComm> ThreadTeam::member(std::uint32_t rank) {
  return std::make_unique<ThreadComm>(*state_, rank);
}

}  // namespace sluice
