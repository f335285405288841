// The metadata workers' communicator: threads of one process, and threads of several processes (a fake
// ProcessGroup standing in for MPI ranks) reducing as one team.
#include "suites/metadata_comm.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <barrier>
#include <mutex>
#include <thread>
#include <vector>

namespace sluice {
namespace {

// Two "processes" in one test: their collectives meet at a two-party barrier and reduce shared slots.
struct FakeWorld {
  std::barrier<> gate{2};
  std::uint64_t counts[2] = {};
  double times[2] = {};
  std::string texts[2];
};

class FakeProcess final : public ProcessGroup {
 public:
  FakeProcess(FakeWorld& world, std::uint32_t rank) : world_(world), rank_(rank) {}
  std::uint32_t rank() const noexcept override { return rank_; }
  std::uint32_t size() const noexcept override { return 2; }
  std::string host() const override { return "h" + std::to_string(rank_); }
  void barrier() override { world_.gate.arrive_and_wait(); }
  std::uint64_t sum(std::uint64_t value) override {
    world_.counts[rank_] = value;
    world_.gate.arrive_and_wait();
    const std::uint64_t total = world_.counts[0] + world_.counts[1];
    world_.gate.arrive_and_wait();
    return total;
  }
  double max(double value) override {
    world_.times[rank_] = value;
    world_.gate.arrive_and_wait();
    const double top = std::max(world_.times[0], world_.times[1]);
    world_.gate.arrive_and_wait();
    return top;
  }
  std::string broadcast(const std::string& text) override {
    if (rank_ == 0) world_.texts[0] = text;
    world_.gate.arrive_and_wait();
    std::string out = world_.texts[0];
    world_.gate.arrive_and_wait();
    return out;
  }
  std::vector<std::string> gather(const std::string& text) override {
    world_.texts[rank_] = text;
    world_.gate.arrive_and_wait();
    std::vector<std::string> out;
    if (rank_ == 0) out = {world_.texts[0], world_.texts[1]};
    world_.gate.arrive_and_wait();
    return out;
  }

 private:
  FakeWorld& world_;
  std::uint32_t rank_;
};

TEST(MetadataComm, ThreadsOfOneProcessReduceTogether) {
  ThreadTeam team(3);
  std::vector<std::uint64_t> sums(3);
  std::vector<double> maxima(3);
  {
    std::vector<std::jthread> threads;
    for (std::uint32_t t = 0; t < 3; ++t) {
      threads.emplace_back([&, t] {
        const auto comm = team.member(t);
        EXPECT_EQ(comm->rank(), t);
        EXPECT_EQ(comm->size(), 3u);
        comm->barrier();
        sums[t] = comm->sum(t + 1);
        maxima[t] = comm->max(static_cast<double>(t) * 1.5);
      });
    }
  }
  for (std::uint32_t t = 0; t < 3; ++t) {
    EXPECT_EQ(sums[t], 6u);
    EXPECT_DOUBLE_EQ(maxima[t], 3.0);
  }
}

// Two processes of two threads each are one team of four: ranks 0..3, sums and maxima over all four, and
// repeated collectives stay in step (each result read before the next is written).
TEST(MetadataComm, ThreadsOfSeveralProcessesAreOneTeam) {
  FakeWorld world;
  FakeProcess first(world, 0);
  FakeProcess second(world, 1);
  ThreadTeam team0(2, &first);
  ThreadTeam team1(2, &second);
  std::mutex lock;
  std::vector<std::uint32_t> ranks;
  std::vector<std::uint64_t> sums;
  std::vector<double> maxima;
  {
    std::vector<std::jthread> threads;
    for (ThreadTeam* team : {&team0, &team1}) {
      for (std::uint32_t t = 0; t < 2; ++t) {
        threads.emplace_back([&, team, t] {
          const auto comm = team->member(t);
          EXPECT_EQ(comm->size(), 4u);
          for (int round = 0; round < 50; ++round) {
            comm->barrier();
            const std::uint64_t sum = comm->sum(comm->rank() + 1 + round);
            const double top = comm->max(static_cast<double>(comm->rank() * 10 + round));
            std::lock_guard guard(lock);
            if (round == 49) {
              ranks.push_back(comm->rank());
              sums.push_back(sum);
              maxima.push_back(top);
            }
            EXPECT_EQ(sum, 10u + 4u * static_cast<std::uint64_t>(round));
            EXPECT_DOUBLE_EQ(top, 30.0 + round);
          }
        });
      }
    }
  }
  std::sort(ranks.begin(), ranks.end());
  EXPECT_EQ(ranks, (std::vector<std::uint32_t>{0, 1, 2, 3}));
  EXPECT_EQ(sums, (std::vector<std::uint64_t>(4, 10u + 4u * 49u)));
}

}  // namespace
}  // namespace sluice
