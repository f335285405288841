// fio's numa_cpu_nodes and numa_mem_policy next to fio 3.33 (built with libnuma, as Debian's): the jobs of
// fio's numa.fio run on this machine's nodes in both tools, and the node lists and policies fio refuses while
// parsing (a node the machine lacks, 'prefer' with two nodes, 'bind' without nodes, an unknown mode) are
// refused by both. Where the placement lands is checked on the thread itself (thread_placement_test).
// Skips without fio.
#include <gtest/gtest.h>
#include <numa.h>

#include <string>
#include <vector>

#include "support/it_test_util.h"
#include "support/machine_features.h"
#include "support/temp_dir.h"

namespace sluice::testing {
namespace {

class NumaRun : public ::testing::Test {
 protected:
  void SetUp() override {
    SLUICE_REQUIRE(kFio);
    SLUICE_REQUIRE(kNuma);
  }

  // The exit status of `program` on a small libaio read job with `extra`.
  int exit_of(const std::string& program, const std::vector<std::string>& extra, std::string* err = nullptr) {
    std::vector<std::string> args = {
        "--name=numa", "--filename=" + tmp_.file("f"), "--size=1m", "--rw=randread", "--ioengine=libaio",
        "--iodepth=4", "--output-format=json"};
    args.insert(args.end(), extra.begin(), extra.end());
    RunOptions options;
    if (program == "fio")
      options.program = "fio";
    else
      args.insert(args.begin(), "run");
    const RunOutput r = run_binary(args, options);
    if (err != nullptr) *err = r.err;
    return r.exit_code;
  }

  TempDir tmp_;
};

TEST_F(NumaRun, NodesOfThisMachineRunInBoth) {
  const std::string all = "0-" + std::to_string(numa_max_node());
  const std::vector<std::vector<std::string>> jobs = {
      {"--numa_cpu_nodes=0", "--numa_mem_policy=bind:0"},                  // numa.fio's job1
      {"--numa_cpu_nodes=" + all, "--numa_mem_policy=interleave:" + all},  // job2, on this machine's nodes
      {"--numa_cpu_nodes=all", "--numa_mem_policy=prefer:0"},
      {"--numa_mem_policy=local"},
      {"--numa_mem_policy=interleave"},
  };
  for (const auto& extra : jobs) {
    for (const std::string program : {"fio", "sluice"}) {
      std::string err;
      EXPECT_EQ(exit_of(program, extra, &err), 0) << program << " " << extra[0] << ": " << err;
    }
  }
}

TEST_F(NumaRun, WhatFioRefusesIsRefused) {
  const std::string missing = std::to_string(numa_max_node() + 1);
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"--numa_cpu_nodes=" + missing, "is not a list of this machine's NUMA nodes"},
      {"--numa_mem_policy=bind:" + missing, "is not a list of this machine's NUMA nodes"},
      {"--numa_mem_policy=prefer:0-1", "'prefer' takes one node"},
      {"--numa_mem_policy=bind", "'bind' needs a node list"},
      {"--numa_mem_policy=local:0", "'local' takes no node list"},
      {"--numa_mem_policy=bogus:0", "'bogus' is not a policy"},
  };
  for (const auto& [option, message] : cases) {
    EXPECT_NE(exit_of("fio", {option}), 0) << "fio " << option;
    std::string err;
    EXPECT_EQ(exit_of("sluice", {option}, &err), 1) << option;
    EXPECT_NE(err.find(option.substr(2)), std::string::npos) << option << ": " << err;
    EXPECT_NE(err.find(message), std::string::npos) << option << ": " << err;
  }
}

}  // namespace
}  // namespace sluice::testing
