// cpus_allowed / cpus_allowed_policy and prio / prioclass applied to the calling thread (thread_placement).
#include "run/thread_placement.h"

#include <gtest/gtest.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <thread>

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
  job.cpus_allowed = {0};
  on_thread([&] {
    EXPECT_EQ(apply_thread_placement(job, 0), "");
    EXPECT_EQ(allowed_cpus_of_this_thread(), (std::vector<std::uint32_t>{0}));
  });
}

TEST(ThreadPlacement, SplitPolicyGivesEachCloneOneCpuRoundRobin) {
  JobSpec job;
  job.cpus_allowed = {0, 1, 5};
  job.cpus_allowed_split = true;
  EXPECT_EQ(cpus_for_clone(job, 0), (std::vector<std::uint32_t>{0}));
  EXPECT_EQ(cpus_for_clone(job, 2), (std::vector<std::uint32_t>{5}));
  EXPECT_EQ(cpus_for_clone(job, 3), (std::vector<std::uint32_t>{0}));
  job.cpus_allowed_split = false;
  EXPECT_EQ(cpus_for_clone(job, 2), job.cpus_allowed);
}

TEST(ThreadPlacement, ACpuThatDoesNotExistIsAnErrorNamingTheOption) {
  JobSpec job;
  job.cpus_allowed = {4000};
  on_thread([&] { EXPECT_NE(apply_thread_placement(job, 0).find("cpus_allowed"), std::string::npos); });
}

TEST(ThreadPlacement, PrioAndPrioclassSetTheThreadsIoPriority) {
  JobSpec job;
  job.ioprio_class = 2;  // best effort
  job.ioprio = 6;
  on_thread([&] {
    ASSERT_EQ(apply_thread_placement(job, 0), "");
    const long value = syscall(SYS_ioprio_get, 1, 0);  // IOPRIO_WHO_PROCESS, the calling thread
    EXPECT_EQ(value >> 13, 2);
    EXPECT_EQ(value & 0x1fff, 6);
  });
}

// fio's ioprio_value: a class alone means level 0 (fio 3.33 logs 0x4000 for prioclass=2), a level alone the
// best-effort class.
TEST(ThreadPlacement, AClassAloneMeansLevelZeroAsFio) {
  JobSpec job;
  job.ioprio_class = 3;  // idle
  EXPECT_EQ(job.default_ioprio(), 0x6000);
  on_thread([&] {
    ASSERT_EQ(apply_thread_placement(job, 0), "");
    EXPECT_EQ(syscall(SYS_ioprio_get, 1, 0), 0x6000);
  });
  JobSpec level_only;
  level_only.ioprio = 5;
  EXPECT_EQ(level_only.default_ioprio(), 0x4005);
  EXPECT_EQ(JobSpec{}.default_ioprio(), 0);
}

TEST(ThreadPlacement, NiceSetsTheThreadsNiceValue) {
  JobSpec job;
  job.nice = 7;
  on_thread([&] {
    ASSERT_EQ(apply_thread_placement(job, 0), "");
    EXPECT_EQ(getpriority(PRIO_PROCESS, static_cast<id_t>(gettid())), 7);
  });
  EXPECT_NE(getpriority(PRIO_PROCESS, static_cast<id_t>(gettid())), 7);  // the test's own thread kept its own
}

}  // namespace
}  // namespace sluice
