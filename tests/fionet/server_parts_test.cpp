// The parts of sluice's fio server that need no second process: addresses, allow-lists, and a session over a
// socket pair (probe, a job that does not parse, a client of another protocol version).
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <thread>

#include "common/error.h"
#include "fionet/bytes.h"
#include "fionet/client.h"
#include "fionet/endpoint.h"
#include "fionet/pdu.h"
#include "fionet/server.h"
#include "fionet/server_session.h"
#include "fionet/wire.h"
#include "session_fixture.h"

namespace sluice::fionet {
namespace {

using namespace std::chrono_literals;

TEST(FioEndpoint, FiosFormsAndLoopbackDefault) {
  Endpoint e = parse_endpoint("");
  EXPECT_EQ(e.host, "127.0.0.1");
  EXPECT_EQ(e.port, 8765);
  e = parse_endpoint("127.0.0.3,8799");
  EXPECT_EQ(e.host, "127.0.0.3");
  EXPECT_EQ(e.port, 8799);
  EXPECT_EQ(describe(e), "127.0.0.3,8799");
  e = parse_endpoint(":9000");
  EXPECT_EQ(e.host, "127.0.0.1");
  EXPECT_EQ(e.port, 9000);
  e = parse_endpoint("ip:localhost,9001");
  EXPECT_EQ(e.kind, Endpoint::Kind::kIpv4);
  EXPECT_EQ(e.port, 9001);
  e = parse_endpoint("ip6:::1,9002");
  EXPECT_EQ(e.kind, Endpoint::Kind::kIpv6);
  EXPECT_EQ(e.port, 9002);
  e = parse_endpoint("sock:/tmp/x.sock");
  EXPECT_EQ(e.kind, Endpoint::Kind::kUnix);
  EXPECT_EQ(describe(e), "sock:/tmp/x.sock");
  EXPECT_THROW(parse_endpoint("127.0.0.1,70000"), UserError);
  EXPECT_THROW(parse_endpoint("127.0.0.1,x"), UserError);
}

sockaddr_storage v4(const char* text) {
  sockaddr_storage s{};
  auto* in = reinterpret_cast<sockaddr_in*>(&s);
  in->sin_family = AF_INET;
  ::inet_pton(AF_INET, text, &in->sin_addr);
  return s;
}

TEST(FioServerAllow, NetworksMatchByPrefix) {
  const Cidr net = parse_cidr("10.1.0.0/16");
  EXPECT_TRUE(cidr_contains(net, v4("10.1.200.3")));
  EXPECT_FALSE(cidr_contains(net, v4("10.2.0.1")));
  const Cidr host = parse_cidr("127.0.0.2");
  EXPECT_TRUE(cidr_contains(host, v4("127.0.0.2")));
  EXPECT_FALSE(cidr_contains(host, v4("127.0.0.3")));
  EXPECT_TRUE(cidr_contains(parse_cidr("0.0.0.0/0"), v4("192.0.2.1")));
  EXPECT_FALSE(cidr_contains(parse_cidr("fd00::/8"), v4("10.0.0.1")));
  EXPECT_THROW(parse_cidr("10.0.0.0/33"), UserError);
  EXPECT_THROW(parse_cidr("nonsense"), UserError);
}

TEST_F(SessionOverSocketPair, ProbeIsAnsweredWithTheTag) {
  ASSERT_TRUE(send_message(client_, Op::kProbe, 77, encode_probe("127.0.0.1"), 1s));
  const Message reply = next();
  EXPECT_EQ(reply.op, static_cast<std::uint16_t>(Op::kProbe));
  EXPECT_EQ(reply.tag, 77u);
  const auto probe = decode_probe_reply(reply.payload);
  ASSERT_TRUE(probe);
  EXPECT_EQ(probe->fio_version.rfind("sluice-", 0), 0u) << probe->fio_version;
  EXPECT_EQ(probe->os, 1);
  EXPECT_GT(probe->cpus, 0u);
  ASSERT_TRUE(send_message(client_, Op::kQuit, 0, {}, 1s));
  server_.join();
  EXPECT_EQ(code_, 0);
}

TEST_F(SessionOverSocketPair, BadJobGivesTextThenStopWithAnError) {
  ASSERT_TRUE(send_message(client_, Op::kJob, 0, encode_job_file("[a]\nrw=sideways\n", 0), 1s));
  const Message text = next();
  ASSERT_EQ(text.op, static_cast<std::uint16_t>(Op::kText));
  EXPECT_NE(decode_text(text.payload).find("sideways"), std::string::npos) << decode_text(text.payload);
  const Message stop = next();
  ASSERT_EQ(stop.op, static_cast<std::uint16_t>(Op::kStop));
  EXPECT_NE(decode_stop(stop.payload).error, 0u);
  EXPECT_EQ(next().op, static_cast<std::uint16_t>(Op::kQuit));
  server_.join();
  EXPECT_EQ(code_, 1);
}

TEST_F(SessionOverSocketPair, OtherVersionGetsOneLineInItsOwnVersion) {
  std::vector<std::uint8_t> frame = encode_message(static_cast<std::uint16_t>(Op::kProbe), 0, encode_probe("x"));
  put_u16(frame.data(), 0, 120);
  put_u16(frame.data(), 20, crc16({frame.data(), 20}));
  ASSERT_TRUE(write_all(client_, frame, 1s));
  const ReadResult r = read_message(client_, 10s);
  ASSERT_EQ(r.status, ReadStatus::kVersion);  // the answer is in version 120, which this side does not speak
  EXPECT_EQ(r.peer_version, 120);
  EXPECT_EQ(r.message.op, static_cast<std::uint16_t>(Op::kText));
  server_.join();
  EXPECT_NE(log_.find("version 120"), std::string::npos) << log_;
  EXPECT_NE(log_.find("version 97"), std::string::npos) << log_;
}

}  // namespace
}  // namespace sluice::fionet

namespace sluice::fionet {
namespace {

TEST(FioPdu, EtaCarriesThreadsRunStringAndTimeLeft) {
  EtaInfo eta;
  eta.running = 2;
  eta.elapsed_s = 5;
  eta.eta_s = 7;
  eta.run_str = "RR";
  const std::vector<std::uint8_t> p = encode_eta(eta);
  ASSERT_GE(p.size(), 171u);
  EXPECT_EQ(get_u32(p.data(), 0), 2u);    // nr_running
  EXPECT_EQ(get_u64(p.data(), 128), 5u);  // elapsed_sec
  EXPECT_EQ(get_u64(p.data(), 136), 7u);  // eta_sec
  EXPECT_EQ(get_u32(p.data(), 160), 2u);  // nr_threads
  EXPECT_EQ(get_text(p.data(), 168, 8), "RR");
}

TEST(FioClientArguments, JobFilesRightAfterAClientAreItsOwn) {
  const ClientOptions o =
      parse_client_arguments({"--client=127.0.0.1,9001", "a.fio", "--client=127.0.0.2", "--remote-config=/srv/b.fio",
                              "--bs=8k", "--output-format=json", "common.fio"});
  ASSERT_EQ(o.servers.size(), 2u);
  EXPECT_EQ(o.servers[0].endpoint.port, 9001);
  ASSERT_EQ(o.servers[0].files.size(), 1u);
  EXPECT_EQ(o.servers[0].files[0].path, "a.fio");
  EXPECT_FALSE(o.servers[0].files[0].remote);
  EXPECT_EQ(o.servers[1].endpoint.port, kDefaultPort);
  ASSERT_EQ(o.servers[1].files.size(), 1u);
  EXPECT_TRUE(o.servers[1].files[0].remote);
  EXPECT_EQ(o.servers[1].arguments, std::vector<std::string>{"--bs=8k"});
  EXPECT_EQ(o.common_files, std::vector<std::string>{"common.fio"});
  EXPECT_TRUE(o.json);
  EXPECT_FALSE(o.normal);
}

TEST(FioClientArguments, HostFileListsServers) {
  char path[] = "/tmp/sluice-hosts-XXXXXX";
  const int fd = ::mkstemp(path);
  ASSERT_GE(fd, 0);
  const std::string text = "# load hosts\n127.0.0.2\n\n127.0.0.3,9100\n";
  ASSERT_EQ(::write(fd, text.data(), text.size()), static_cast<ssize_t>(text.size()));
  ::close(fd);
  const ClientOptions o = parse_client_arguments({std::string("--client=") + path, "job.fio"});
  ::unlink(path);
  ASSERT_EQ(o.servers.size(), 2u);
  EXPECT_EQ(o.servers[0].endpoint.host, "127.0.0.2");
  EXPECT_EQ(o.servers[1].endpoint.port, 9100);
  EXPECT_TRUE(o.servers[1].files.empty());  // a host file's servers share the common job files
  EXPECT_EQ(o.common_files, std::vector<std::string>{"job.fio"});
}

TEST(FioClientArguments, ClientSideOptionsAreTakenAnywhere) {
  const ClientOptions o = parse_client_arguments(
      {"--eta=never", "--output=/tmp/r.json", "--minimal", "--terse-version=5", "--client=127.0.0.1", "job.fio"});
  EXPECT_EQ(o.output_path, "/tmp/r.json");
  EXPECT_TRUE(o.terse);
  EXPECT_FALSE(o.normal);
  EXPECT_EQ(o.terse_version, 5);
  EXPECT_TRUE(o.servers[0].arguments.empty());
  EXPECT_THROW(parse_client_arguments({"--terse-version=9", "--client=127.0.0.1"}), UserError);
}

TEST(FioClientArguments, OptionBeforeAnyClientIsRefused) {
  EXPECT_THROW(parse_client_arguments({"--bs=4k", "--client=127.0.0.1"}), UserError);
  EXPECT_THROW(parse_client_arguments({"--output-format=xml", "--client=127.0.0.1"}), UserError);
}

}  // namespace
}  // namespace sluice::fionet
