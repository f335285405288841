// End-to-end tests of `sluice http` and `sluice capacity --target=http` through build/sluice against Debian's
// nginx (started on a free 127.0.0.1 port in a temp dir) and tiny in-test servers. Skipped without nginx.
#include <arpa/inet.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <fstream>
#include <thread>

#include "support/it_test_util.h"
#include "support/machine_features.h"
#include "support/nginx_server.h"

namespace sluice::testing {
namespace {

using ::testing::HasSubstr;

#define REQUIRE_NGINX(server) \
  SLUICE_REQUIRE(kNginx);     \
  if (!(server).available()) GTEST_SKIP() << "nginx is not installed or did not start"

TEST(CliHttp, ClosedLoopFetchesEveryRequestAndReportsJson) {
  NginxServer nginx;
  REQUIRE_NGINX(nginx);
  const std::string url = nginx.serve_file("4k.bin", 4096);
  const RunOutput r = run_binary({"http", "--url=" + url, "--parallel=10", "--fetches=2000", "--output-format=json"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const auto doc = parse_document(r.out);
  ASSERT_TRUE(doc);
  const nlohmann::json& h = (*doc)["sluice"]["http"];
  EXPECT_EQ(h["fetches"], 2000);
  EXPECT_EQ(h["body_bytes"], 2000 * 4096);
  EXPECT_EQ(h["status_codes"]["200"], 2000);
  EXPECT_EQ(h["errors"]["total"], 0);
  EXPECT_EQ(h["connections"], 10);  // keep-alive
  EXPECT_LE(h["max_parallel"], 10);
  EXPECT_GT(h["requests_per_s"].get<double>(), 0);
  EXPECT_GT(h["bytes_per_s"].get<double>(), 0);
  for (const char* stat : {"connect_ns", "ttfb_ns", "latency_ns"}) {
    EXPECT_TRUE(h[stat]["percentile"].contains("99.000000")) << stat;
    EXPECT_GT(h[stat]["mean"].get<double>(), 0) << stat;
  }
  EXPECT_EQ(h["latency_ns"]["N"], 2000);
  EXPECT_LE(h["ttfb_ns"]["mean"].get<double>(), h["latency_ns"]["mean"].get<double>());
  EXPECT_EQ((*doc)["jobs"][0]["read"]["total_ios"], 2000);
}

TEST(CliHttp, TextReportHasTheHttpLoadSummary) {
  NginxServer nginx;
  REQUIRE_NGINX(nginx);
  const std::string a = nginx.serve_file("a.html", 100);
  std::ofstream(nginx.root() + "/../urls.txt") << a << "\n" << nginx.url("missing.html") << "\n";
  const RunOutput r =
      run_binary({"http", "--urls=" + nginx.root() + "/../urls.txt", "--parallel=2", "--fetches=20", "--no-keepalive"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_THAT(r.out, HasSubstr("20 fetches, "));
  EXPECT_THAT(r.out, HasSubstr("fetches/sec, "));
  EXPECT_THAT(r.out, HasSubstr("msecs/connect: "));
  EXPECT_THAT(r.out, HasSubstr("code 200 -- 10"));
  EXPECT_THAT(r.out, HasSubstr("code 404 -- 10"));
}

TEST(CliHttp, OpenLoopHoldsTheRate) {
  NginxServer nginx;
  REQUIRE_NGINX(nginx);
  const std::string url = nginx.serve_file("1k.bin", 1024);
  const RunOutput r = run_binary({"http", "--url=" + url, "--rate=500", "--arrivals=poisson", "--duration=1s",
                                  "--parallel=20", "--output-format=json"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const auto doc = parse_document(r.out);
  ASSERT_TRUE(doc);
  const nlohmann::json& h = (*doc)["sluice"]["http"];
  EXPECT_EQ(h["mode"], "open");
  EXPECT_EQ(h["errors"]["total"], 0);
  // Poisson arrivals at 500/s for 1 s: 500 expected, the count's standard deviation is ~22.
  EXPECT_NEAR(h["fetches"].get<double>(), 500.0, 110.0);
}

TEST(CliHttp, RefusedPortIsCountedAndExitsOne) {
  const std::uint16_t port = free_loopback_port();
  const RunOutput r = run_binary({"http", "--url=http://127.0.0.1:" + std::to_string(port) + "/", "--fetches=5"});
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_THAT(r.out, HasSubstr("connect_refused=5"));
  EXPECT_THAT(r.out, HasSubstr("Connection refused"));
}

TEST(CliHttp, GarbageServerIsABadResponseNotAHang) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
  ASSERT_EQ(::listen(fd, 16), 0);
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
  std::thread server([fd] {
    for (int i = 0; i < 3; ++i) {
      const int c = ::accept(fd, nullptr, nullptr);
      if (c < 0) return;
      const char garbage[] = "\x01\x02 not http at all\r\n\r\n";
      ::send(c, garbage, sizeof garbage - 1, MSG_NOSIGNAL);
      ::close(c);
    }
  });
  const RunOutput r = run_binary({"http", "--url=http://127.0.0.1:" + std::to_string(ntohs(a.sin_port)) + "/",
                                  "--fetches=3", "--parallel=1", "--output-format=json"});
  server.join();
  ::close(fd);
  ASSERT_EQ(r.exit_code, 1) << describe(r);
  const auto doc = parse_document(r.out);
  ASSERT_TRUE(doc);
  EXPECT_EQ((*doc)["sluice"]["http"]["errors"]["bad_response"], 3);
  EXPECT_THAT((*doc)["sluice"]["http"]["errors"]["first"][0].get<std::string>(), HasSubstr("status line"));
}

TEST(CliHttp, BadInputIsRefusedBeforeAnyRequest) {
  const RunOutput https = run_binary({"http", "--url=https://127.0.0.1/", "--fetches=1"});
  EXPECT_EQ(https.exit_code, 1);
  EXPECT_THAT(https.err, HasSubstr("no TLS"));
  const RunOutput no_end = run_binary({"http", "--url=http://127.0.0.1:1/"});
  EXPECT_EQ(no_end.exit_code, 1);
  EXPECT_THAT(no_end.err, HasSubstr("--duration"));
  const RunOutput bad = run_binary({"http", "--url=127.0.0.1:80", "--fetches=1"});
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_THAT(bad.err, HasSubstr("http://"));
}

TEST(CliHttp, CapacityFindsTheHighestRateWithinTheLimit) {
  NginxServer nginx;
  REQUIRE_NGINX(nginx);
  const std::string url = nginx.serve_file("4k.bin", 4096);
  const RunOutput r = run_binary({"capacity", "--target=http", "--url=" + url, "--slo=50ms", "--budget=4s",
                                  "--max-concurrency=8", "--output-format=json"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const auto doc = parse_document(r.out);
  ASSERT_TRUE(doc);
  const nlohmann::json& c = (*doc)["sluice"]["capacity"];
  ASSERT_TRUE(c["iops"].is_number()) << c.dump(2);
  EXPECT_GT(c["iops"].get<double>(), 0);
  EXPECT_GE(c["curve"].size(), 2u);
  EXPECT_LE(c["concurrency"].get<int>(), 8);
  EXPECT_THAT(r.err, HasSubstr("capacity http: 1 connections"));
}

}  // namespace
}  // namespace sluice::testing
