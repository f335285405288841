#pragma once
// What a command needs to run in step on every MPI rank: the ranks as a ProcessGroup (the metadata workers'
// collectives) and --repeat followed by the other ranks (rank 0's repetitions decide how many there are).
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "suites/metadata_comm.h"

namespace sluice {

// The MPI world (mpi/world.h) as a ProcessGroup.
class MpiProcessGroup final : public ProcessGroup {
 public:
  std::uint32_t rank() const noexcept override;
  std::uint32_t size() const noexcept override;
  std::string host() const override;
  void barrier() override;
  std::uint64_t sum(std::uint64_t value) override;
  double max(double value) override;
  std::string broadcast(const std::string& text) override;
  std::vector<std::string> gather(const std::string& text) override;
};

// --repeat under MPI. Rank 0 calls next() at the start of each repetition and done() once run_measured has
// returned; every other rank calls follow(), which runs `measure` once per repetition of rank 0 (however
// many it ran: a failed or interrupted repetition ends the repetitions early) and returns the last exit code.
class MpiRepetitions {
 public:
  void next();
  void done();
  static int follow(const std::function<int()>& measure);

 private:
  bool started_ = false;
};

}  // namespace sluice
