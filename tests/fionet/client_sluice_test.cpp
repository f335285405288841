// What a sluice client adds for sluice servers: the start skew from each server's measurement start, and the
// hosts' environment differences, from synthetic reports (the end-to-end runs are in it_sluice_extras_test).
#include "fionet/client_sluice.h"

#include <gtest/gtest.h>

namespace sluice::fionet {
namespace {

ClientReport sluice_report(const std::string& host, std::optional<std::int64_t> start, const std::string& kernel) {
  ClientReport r;
  r.hostname = host;
  r.port = 8765;
  r.sluice = true;
  r.server_name = host + "-name";
  r.version = "sluice-1";
  r.measure_start_ns = start;
  r.sluice_section = {{"version", "1"}, {"environment", {{"host", host}, {"kernel_release", kernel}}}};
  return r;
}

TEST(SluiceClients, StartSkewIsLatestMinusEarliest) {
  std::vector<ClientReport> reports = {sluice_report("a", 5'000'000, "6.1"), sluice_report("b", 2'000'000, "6.1"),
                                       sluice_report("c", std::nullopt, "6.1")};
  EXPECT_EQ(start_skew_ns(reports), 3'000'000);
  const nlohmann::ordered_json j = sluice_clients_json(reports);
  EXPECT_EQ(j["start_skew_ns"], 3'000'000);
  EXPECT_EQ(j["hosts"][0]["start_offset_ns"], 3'000'000);
  EXPECT_EQ(j["hosts"][1]["start_offset_ns"], 0);
  EXPECT_TRUE(j["hosts"][2]["start_offset_ns"].is_null());
  EXPECT_EQ(j["hosts"][1]["server_name"], "b-name");
  EXPECT_EQ(j["hosts"][0]["sluice"]["environment"]["kernel_release"], "6.1");
  const std::string text = sluice_clients_text(reports);
  EXPECT_NE(text.find("Start skew of the sluice servers: 3.00 ms (first b,8765, last a,8765"), std::string::npos)
      << text;
  EXPECT_NE(text.find("no differences from a,8765"), std::string::npos) << text;  // host names aside
}

TEST(SluiceClients, DifferencesAreThoseFromTheFirstSluiceServer) {
  ClientReport fio_server;
  fio_server.hostname = "f";
  fio_server.version = "fio-3.33";
  std::vector<ClientReport> reports = {fio_server, sluice_report("a", 1, "6.1"), sluice_report("b", 1, "6.2")};
  const nlohmann::ordered_json j = sluice_clients_json(reports);
  ASSERT_EQ(j["hosts"].size(), 2u);  // fio's server is not among them
  EXPECT_TRUE(j["hosts"][0]["differences"].empty());
  ASSERT_EQ(j["hosts"][1]["differences"].size(), 1u);
  EXPECT_EQ(j["hosts"][1]["differences"][0]["what"], "kernel_release");
  EXPECT_EQ(j["hosts"][1]["differences"][0]["value"], "6.2");
  EXPECT_EQ(j["hosts"][1]["differences"][0]["first_value"], "6.1");
  const std::string text = sluice_clients_text(reports);
  EXPECT_NE(text.find("b,8765: kernel_release: 6.2 (a,8765: 6.1)"), std::string::npos) << text;
}

TEST(SluiceClients, NothingForFioServers) {
  ClientReport fio_server;
  fio_server.hostname = "f";
  EXPECT_TRUE(sluice_clients_json({fio_server}).is_null());
  EXPECT_EQ(sluice_clients_text({fio_server}), "");
  EXPECT_FALSE(start_skew_ns({fio_server}));
}

}  // namespace
}  // namespace sluice::fionet
