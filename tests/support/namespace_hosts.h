#pragma once
// Hosts on one machine: network namespaces joined by veth pairs to a bridge, each with its own address on a
// private /24 (SUBNET.2, SUBNET.3, ...; the bridge, which the test's own namespace reaches them through, is
// SUBNET.1) and, through the launcher (`launcher ADDRESS COMMAND...`, which runs COMMAND in that host's
// namespace under `unshare --uts`), its own host name. mpirun uses the launcher as its ssh (Open MPI's
// plm_rsh_agent); the client/server tests start servers with it. Needs root and ip (SLUICE_REQUIRE(
// kNetNamespaces)) and unshare. Everything is removed when the object goes (stop the processes in the
// namespaces first).
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace sluice::testing {

class NamespaceHosts {
 public:
  // `count` hosts (at most 9) in `dir` (the launcher script goes there); `network` is the first two octets of
  // the subnet, distinct per test binary so that binaries running at once do not share one.
  explicit NamespaceHosts(const std::string& dir, int count = 3, const std::string& network = "10.78") {
    // Names unique per object too: a deleted namespace's veth goes a moment after `ip netns del` returns, so
    // the next test's could not take its name.
    static int made = 0;
    const std::string tag = std::to_string(::getpid() % 100000) + "n" + std::to_string(made++ % 100);
    subnet_ = network + "." + std::to_string(20 + ::getpid() % 200);
    bridge_ = "slbr" + tag;
    std::string launcher =
        "#!/bin/sh\n# launcher HOST COMMAND...: COMMAND in HOST's network namespace\nhost=\"$1\"; shift\ncase "
        "\"$host\" in\n";
    ok_ = sh("ip link add " + bridge_ + " type bridge && ip addr add " + subnet_ + ".1/24 dev " + bridge_ +
             " && ip link set " + bridge_ + " up");
    for (int i = 1; ok_ && i <= count; ++i) {
      const std::string ns = "sl" + tag + "-" + std::to_string(i);
      const std::string veth = "slv" + tag + "x" + std::to_string(i);
      const std::string address = subnet_ + "." + std::to_string(i + 1);
      namespaces_.push_back(ns);
      ok_ = sh("ip netns add " + ns + " && ip link add " + veth + " type veth peer name eth0 netns " + ns +
               " && ip link set " + veth + " master " + bridge_ + " up && ip netns exec " + ns + " ip addr add " +
               address + "/24 dev eth0 && ip netns exec " + ns + " ip link set eth0 up" + " && ip netns exec " + ns +
               " ip link set lo up");
      addresses_.push_back(address);
      hosts_ += (hosts_.empty() ? "" : ",") + address;
      launcher += "  " + address + ") ns=" + ns + " ;;\n";
    }
    launcher +=
        "  *) echo \"launcher: unknown host $host\" >&2; exit 1 ;;\nesac\n"
        "exec ip netns exec \"$ns\" unshare --uts sh -c \"hostname $ns; $*\"\n";
    launcher_ = dir + "/launcher.sh";
    std::ofstream(launcher_) << launcher;
    std::filesystem::permissions(launcher_, std::filesystem::perms::owner_all);
  }
  ~NamespaceHosts() {
    for (const std::string& ns : namespaces_) sh("ip netns del " + ns);
    sh("ip link del " + bridge_);
  }
  NamespaceHosts(const NamespaceHosts&) = delete;
  NamespaceHosts& operator=(const NamespaceHosts&) = delete;

  bool ok() const { return ok_; }
  const std::vector<std::string>& names() const { return namespaces_; }
  const std::vector<std::string>& addresses() const { return addresses_; }
  // An address on the hosts' subnet that no host has (nothing answers there).
  std::string absent_address() const { return subnet_ + ".200"; }
  const std::string& launcher() const { return launcher_; }
  // mpirun's arguments that place one rank on each namespace.
  std::vector<std::string> mpirun_args() const {
    return {"--mca",
            "plm_rsh_agent",
            launcher_,
            "--mca",
            "plm_rsh_no_tree_spawn",
            "1",
            "--mca",
            "oob_tcp_if_include",
            subnet_ + ".0/24",
            "--mca",
            "btl_tcp_if_include",
            subnet_ + ".0/24",
            "--host",
            hosts_,
            "-n",
            std::to_string(namespaces_.size())};
  }

 private:
  static bool sh(const std::string& command) { return std::system((command + " >/dev/null 2>&1").c_str()) == 0; }
  std::string subnet_, bridge_, hosts_, launcher_;
  std::vector<std::string> namespaces_, addresses_;
  bool ok_ = false;
};

}  // namespace sluice::testing
