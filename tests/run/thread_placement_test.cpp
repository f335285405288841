// cpus_allowed / cpus_allowed_policy and prio / prioclass applied to the calling thread (thread_placement).
#include "run/thread_placement.h"

#include <gtest/gtest.h>
#include <numa.h>
#include <numaif.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

#include "job/job_spec.h"
#include "support/machine_features.h"

namespace sluice {
namespace {

// Runs `body` on a fresh thread so the test's own thread keeps its affinity and priority.
template <typename Body>
void on_thread(Body body) {
  std::thread t(body);
  t.join();
}

std::vector<std::uint32_t> allowed_cpus_of_this_thread() {
  cpu_set_t set;
  CPU_ZERO(&set);
  EXPECT_EQ(sched_getaffinity(0, sizeof set, &set), 0);
  std::vector<std::uint32_t> cpus;
  for (std::uint32_t c = 0; c < CPU_SETSIZE; ++c) {
    if (CPU_ISSET(c, &set)) cpus.push_back(c);
  }
  return cpus;
}

TEST(ThreadPlacement, CpusAllowedPinsTheThread) {
  JobSpec job;
  job.placement.cpus_allowed = {0};
  on_thread([&] {
    EXPECT_EQ(apply_thread_placement(job.placement, 0), "");
    EXPECT_EQ(allowed_cpus_of_this_thread(), (std::vector<std::uint32_t>{0}));
  });
}

TEST(ThreadPlacement, SplitPolicyGivesEachCloneOneCpuRoundRobin) {
  JobSpec job;
  job.placement.cpus_allowed = {0, 1, 5};
  job.placement.cpus_allowed_split = true;
  EXPECT_EQ(cpus_for_clone(job.placement, 0), (std::vector<std::uint32_t>{0}));
  EXPECT_EQ(cpus_for_clone(job.placement, 2), (std::vector<std::uint32_t>{5}));
  EXPECT_EQ(cpus_for_clone(job.placement, 3), (std::vector<std::uint32_t>{0}));
  job.placement.cpus_allowed_split = false;
  EXPECT_EQ(cpus_for_clone(job.placement, 2), job.placement.cpus_allowed);
}

TEST(ThreadPlacement, ACpuThatDoesNotExistIsAnErrorNamingTheOption) {
  JobSpec job;
  job.placement.cpus_allowed = {4000};
  on_thread([&] { EXPECT_NE(apply_thread_placement(job.placement, 0).find("cpus_allowed"), std::string::npos); });
}

TEST(ThreadPlacement, PrioAndPrioclassSetTheThreadsIoPriority) {
  JobSpec job;
  job.placement.ioprio_class = 2;  // best effort
  job.placement.ioprio = 6;
  on_thread([&] {
    ASSERT_EQ(apply_thread_placement(job.placement, 0), "");
    const long value = syscall(SYS_ioprio_get, 1, 0);  // IOPRIO_WHO_PROCESS, the calling thread
    EXPECT_EQ(value >> 13, 2);
    EXPECT_EQ(value & 0x1fff, 6);
  });
}

// fio's ioprio_value: a class alone means level 0 (fio 3.33 logs 0x4000 for prioclass=2), a level alone the
// best-effort class.
TEST(ThreadPlacement, AClassAloneMeansLevelZeroAsFio) {
  JobSpec job;
  job.placement.ioprio_class = 3;  // idle
  EXPECT_EQ(job.default_ioprio(), 0x6000);
  on_thread([&] {
    ASSERT_EQ(apply_thread_placement(job.placement, 0), "");
    EXPECT_EQ(syscall(SYS_ioprio_get, 1, 0), 0x6000);
  });
  JobSpec level_only;
  level_only.placement.ioprio = 5;
  EXPECT_EQ(level_only.default_ioprio(), 0x4005);
  EXPECT_EQ(JobSpec{}.default_ioprio(), 0);
}

TEST(ThreadPlacement, NumaCpuNodesRunTheThreadOnTheNodesCpus) {
  SLUICE_REQUIRE(kNuma);
  JobSpec job;
  job.placement.cpus_allowed = {0};  // numa_cpu_nodes comes after cpus_allowed and wins, as in fio
  job.placement.numa_cpu_nodes = "0";
  bitmask* cpus = numa_allocate_cpumask();
  ASSERT_EQ(numa_node_to_cpus(0, cpus), 0);
  std::vector<std::uint32_t> node_cpus;
  for (std::uint32_t c = 0; c < cpus->size; ++c) {
    if (numa_bitmask_isbitset(cpus, c) && c < CPU_SETSIZE) node_cpus.push_back(c);
  }
  numa_free_cpumask(cpus);
  on_thread([&] {
    ASSERT_EQ(apply_thread_placement(job.placement, 0), "");
    EXPECT_EQ(allowed_cpus_of_this_thread(), node_cpus);
  });
}

// The thread's policy, and the policy of the memory the buffers already had (moved by mbind).
TEST(ThreadPlacement, NumaMemPolicyBindsTheThreadAndItsBuffers) {
  SLUICE_REQUIRE(kNuma);
  const std::size_t bytes = 4 * 4096;
  void* buffers = std::aligned_alloc(4096, bytes);
  ASSERT_NE(buffers, nullptr);
  std::memset(buffers, 1, bytes);  // the pages exist before the policy, as sluice's io buffers do
  struct Case {
    NumaMemPolicy::Mode mode;
    const char* nodes;
    int kernel_mode;
  };
  const Case cases[] = {{NumaMemPolicy::Mode::kBind, "0", MPOL_BIND},
                        {NumaMemPolicy::Mode::kInterleave, "all", MPOL_INTERLEAVE},
                        {NumaMemPolicy::Mode::kPrefer, "0", MPOL_PREFERRED},
                        {NumaMemPolicy::Mode::kLocal, "", MPOL_LOCAL}};
  for (const Case& c : cases) {
    JobSpec job;
    job.placement.numa_mem_policy = {c.mode, c.nodes};
    const int kernel_mode = c.kernel_mode;
    const std::string nodes = c.nodes;
    on_thread([&] {
      ASSERT_EQ(apply_numa_mem_policy(job.placement, buffers, bytes), "");
      int thread_mode = -1;
      ASSERT_EQ(get_mempolicy(&thread_mode, nullptr, 0, nullptr, 0), 0);
      EXPECT_EQ(thread_mode, kernel_mode) << nodes;
      int buffer_mode = -1;
      ASSERT_EQ(get_mempolicy(&buffer_mode, nullptr, 0, buffers, MPOL_F_ADDR), 0);
      EXPECT_EQ(buffer_mode, kernel_mode) << nodes;
    });
  }
  std::free(buffers);
  JobSpec none;
  EXPECT_EQ(apply_numa_mem_policy(none.placement, nullptr, 0), "");  // not set: nothing to do
}

TEST(ThreadPlacement, NiceSetsTheThreadsNiceValue) {
  JobSpec job;
  job.placement.nice = 7;
  on_thread([&] {
    ASSERT_EQ(apply_thread_placement(job.placement, 0), "");
    EXPECT_EQ(getpriority(PRIO_PROCESS, static_cast<id_t>(gettid())), 7);
  });
  EXPECT_NE(getpriority(PRIO_PROCESS, static_cast<id_t>(gettid())), 7);  // the test's own thread kept its own
}

}  // namespace
}  // namespace sluice
