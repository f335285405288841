#include "suites/metadata_comm.h"

#include <algorithm>
#include <barrier>
#include <vector>

namespace sluice {

// Each rank writes its own slot, a barrier publishes the slots, every rank reduces them, and a second
// barrier keeps the slots until all have read them.
struct ThreadTeamState {
  explicit ThreadTeamState(std::uint32_t n) : size(n), gate(n), counts(n), times(n) {}
  std::uint32_t size;
  std::barrier<> gate;
  std::vector<std::uint64_t> counts;
  std::vector<double> times;
};

namespace {

class ThreadComm final : public WorkerComm {
 public:
  ThreadComm(ThreadTeamState& state, std::uint32_t rank) : state_(state), rank_(rank) {}
  std::uint32_t rank() const noexcept override { return rank_; }
  std::uint32_t size() const noexcept override { return state_.size; }
  void barrier() override { state_.gate.arrive_and_wait(); }
  std::uint64_t sum(std::uint64_t value) override {
    state_.counts[rank_] = value;
    state_.gate.arrive_and_wait();
    std::uint64_t total = 0;
    for (const std::uint64_t c : state_.counts) total += c;
    state_.gate.arrive_and_wait();
    return total;
  }
  double max(double value) override {
    state_.times[rank_] = value;
    state_.gate.arrive_and_wait();
    const double top = *std::max_element(state_.times.begin(), state_.times.end());
    state_.gate.arrive_and_wait();
    return top;
  }

 private:
  ThreadTeamState& state_;
  std::uint32_t rank_;
};

}  // namespace

ThreadTeam::ThreadTeam(std::uint32_t size) : state_(std::make_unique<ThreadTeamState>(size == 0 ? 1 : size)) {}

ThreadTeam::~ThreadTeam() = default;

std::unique_ptr<WorkerComm> ThreadTeam::member(std::uint32_t rank) {
  return std::make_unique<ThreadComm>(*state_, rank);
}

}  // namespace sluice
