// Every command's result document against its contract, docs/schema/sluice-result.schema.json: each command that
// writes one runs here cheaply through build/sluice (the null engine, files of a few hundred KiB, a loopback
// server of the test's own), and its document is checked field by field (the envelope; the command it names; its
// time, the run's start) and against the schema by scripts/validate-result.py (python3-jsonschema: without it the
// schema half skips, saying so). Every registered command is either run here or listed with why it is not.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <ostream>
#include <string>
#include <thread>
#include <vector>

#include "cli/command_registry.h"
#include "common/clock.h"
#include "common/result_schema.h"
#include "support/it_test_util.h"
#include "support/temp_dir.h"

namespace sluice::testing {
namespace {

// A loopback HTTP server that answers every request "200 OK" with a two-byte body and closes the connection,
// until destroyed.
class TinyHttpServer {
 public:
  TinyHttpServer() {
    fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    if (fd_ < 0 || ::bind(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 || ::listen(fd_, 16) != 0 ||
        ::getsockname(fd_, reinterpret_cast<sockaddr*>(&a), &len) != 0) {
      return;
    }
    port_ = ntohs(a.sin_port);
    thread_ = std::thread([this] { serve(); });
  }
  ~TinyHttpServer() {
    stop_ = true;
    if (thread_.joinable()) thread_.join();
    if (fd_ >= 0) ::close(fd_);
  }
  TinyHttpServer(const TinyHttpServer&) = delete;
  TinyHttpServer& operator=(const TinyHttpServer&) = delete;
  std::uint16_t port() const { return port_; }  // 0 when it could not listen

 private:
  void serve() {
    while (!stop_) {
      pollfd p{fd_, POLLIN, 0};
      if (::poll(&p, 1, 50) <= 0) continue;
      const int c = ::accept4(fd_, nullptr, nullptr, SOCK_CLOEXEC);
      if (c < 0) continue;
      std::string request;
      char buf[4096];
      while (request.find("\r\n\r\n") == std::string::npos) {
        pollfd q{c, POLLIN, 0};
        if (::poll(&q, 1, 2000) <= 0) break;
        const ssize_t n = ::read(c, buf, sizeof buf);
        if (n <= 0) break;
        request.append(buf, static_cast<std::size_t>(n));
      }
      const char reply[] = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok";
      ::send(c, reply, sizeof reply - 1, MSG_NOSIGNAL);
      ::close(c);
    }
  }

  int fd_ = -1;
  std::uint16_t port_ = 0;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

// A loopback port nobody listens on (bound, read and closed again).
std::uint16_t unused_loopback_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  (void)::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);  // if it fails, the port read back is 0
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
  ::close(fd);
  return ntohs(a.sin_port);
}

// What a case's arguments may refer to.
struct Place {
  const TempDir& dir;
  std::uint16_t http_port;
};

struct DocumentCase {
  std::string name;                                            // the test's name
  std::string command;                                         // the "sluice"."command" its document names
  std::function<std::vector<std::string>(const Place&)> args;  // the command line after `sluice`
  std::vector<std::string> before;  // run first, in the same directory (sysbench's prepare); {DIR} is replaced
};

void PrintTo(const DocumentCase& c, std::ostream* out) { *out << c.name; }

const std::vector<DocumentCase>& document_cases() {
  static const std::vector<DocumentCase> kCases = {
      {"Run",
       "run",
       [](const Place&) {
         return std::vector<std::string>{"run",       "--name=j",      "--ioengine=null",
                                         "--size=1m", "--rw=randread", "--output-format=json"};
       },
       {}},
      {"Capacity",
       "capacity",
       [](const Place&) {
         return std::vector<std::string>{
             "capacity",    "--ioengine=null",     "--size=1m", "--budget=1s", "--max-concurrency=2",
             "--no-status", "--output-format=json"};
       },
       {}},
      {"CapacityHttp",
       "capacity",
       [](const Place& p) {
         return std::vector<std::string>{"capacity",
                                         "--target=http",
                                         "--url=http://127.0.0.1:" + std::to_string(p.http_port) + "/",
                                         "--no-keepalive",
                                         "--budget=1s",
                                         "--max-concurrency=2",
                                         "--output-format=json"};
       },
       {}},
      {"Precondition",
       "precondition",
       [](const Place& p) {
         return std::vector<std::string>{"precondition", "--filename=" + p.dir.file("f"), "--size=1m", "--passes=1",
                                         "--no-status",  "--output-format=json"};
       },
       {}},
      {"Sysbench",
       "sysbench fileio run",
       [](const Place& p) {
         return std::vector<std::string>{"sysbench",
                                         "fileio",
                                         "--dir=" + p.dir.path(),
                                         "--file-num=2",
                                         "--file-total-size=512K",
                                         "--file-test-mode=rndrw",
                                         "--time=0",
                                         "--events=200",
                                         "--output-format=json",
                                         "run"};
       },
       {"sysbench", "fileio", "--dir={DIR}", "--file-num=2", "--file-total-size=512K", "prepare"}},
      {"Postmark",
       "postmark",
       [](const Place& p) {
         return std::vector<std::string>{"postmark",
                                         "--set",
                                         "location=" + p.dir.path(),
                                         "--set=number=20",
                                         "--set=transactions=50",
                                         "--set=seed=7",
                                         "--output-format=json"};
       },
       {}},
      {"Iozone",
       "iozone",
       [](const Place& p) {
         return std::vector<std::string>{
             "iozone", "-i", "0", "-s", "64k", "-r", "4k", "-f", p.dir.file("iozone.tmp"), "--output-format=json"};
       },
       {}},
      {"Metadata",
       "metadata",
       [](const Place& p) {
         return std::vector<std::string>{
             "metadata", "-d",          p.dir.path(),          "-n", "20", "-z", "1", "-b", "2", "-i",
             "1",        "--threads=1", "--output-format=json"};
       },
       {}},
      {"Filetree",
       "filetree",
       [](const Place& p) {
         // --drop-caches=off: as root it would drop the machine's page cache before each step.
         return std::vector<std::string>{"filetree",          p.dir.path(),          "--size=256k",
                                         "--dirs=2",          "--files-per-dir=4",   "--threads=1",
                                         "--drop-caches=off", "--output-format=json"};
       },
       {}},
      {"Bonnie",
       "bonnie",
       [](const Place& p) {
         return std::vector<std::string>{
             "bonnie", "-d", p.dir.path(), "-s", "4:8192:100", "-r", "2",
             "-f",     "-n", "0",          "-m", "testhost",   "-q", "--output-format=json"};
       },
       {}},
      {"Http",
       "http",
       [](const Place& p) {
         return std::vector<std::string>{
             "http",           "--url=http://127.0.0.1:" + std::to_string(p.http_port) + "/",
             "--fetches=3",    "--parallel=1",
             "--no-keepalive", "--output-format=json"};
       },
       {}},
      {"Smtp",
       "smtp",
       [](const Place&) {
         // Refused connections are counted, not fatal: a document without a server (the sink is a peer tool).
         return std::vector<std::string>{"smtp", "--server=127.0.0.1:" + std::to_string(unused_loopback_port()),
                                         "--messages=2", "--timeout=2s", "--output-format=json"};
       },
       {}},
      {"Scale",
       "scale",
       [](const Place& p) {
         return std::vector<std::string>{
             "scale", "--values=1", "--log=" + p.dir.file("log"), "--output-format=json", "--", "sh", "-c",
             "true",  "{N}"};
       },
       {}},
  };
  return kCases;
}

// Registered commands this test does not run, and why. A new command goes into document_cases() or here.
const std::map<std::string, std::string>& not_run_here() {
  static const std::map<std::string, std::string> kReasons = {
      {"quick",
       "seven tests with capacity searches on the disk, 1.5 s at --budget=1s --size=1m; its document is "
       "render_json's, as run's, and QuickDriverTest checks the command it names"},
      {"interfere",
       "two phases of at least 2 s each with a write flood; its document is render_json's, as run's, "
       "and InterfereReport.DocumentNamesItsCommand checks the command it names"},
      {"selftest", "brings up lab devices (FUSE daemons, loop devices) for minutes (SelftestQuick)"},
      {"lab", "writes no result document (its JSON describes models and labs)"},
      {"compare", "writes no result document (a comparison of them)"},
      {"report", "writes HTML"},
      {"history", "writes no result document (lists and exports of stored ones)"},
      {"restore", "writes no JSON"},
      {"help", "writes no JSON"},
      {"version", "writes no JSON"},
      {"server",
       "serves fio's clients until stopped and writes no result document (the client prints the "
       "results; tests/fionet)"},
  };
  return kReasons;
}

// The envelope as the code promises it; the schema says the same in JSON Schema (checked by validate()).
void expect_envelope(const nlohmann::json& doc, const std::string& command, std::uint64_t started_ms,
                     std::uint64_t ended_ms) {
  ASSERT_TRUE(doc.is_object());
  ASSERT_TRUE(doc.contains("sluice")) << doc.dump().substr(0, 400);
  const nlohmann::json& s = doc["sluice"];
  EXPECT_EQ(s.value("command", ""), command);
  EXPECT_EQ(s.value("schema_version", -1), kResultSchemaVersion);
  EXPECT_EQ(doc.value("fio version", ""), "sluice-" + s.value("version", "?"));
  const std::uint64_t ms = doc.value("timestamp_ms", std::uint64_t{0});
  EXPECT_EQ(doc.value("timestamp", std::uint64_t{1}), ms / 1000);
  // The measurement's start, between this test starting the command and the command ending (second accuracy:
  // the wall clock of two processes).
  EXPECT_GE(ms + 1000, started_ms) << "timestamp_ms is not when the command ran";
  EXPECT_LE(ms, ended_ms + 1000) << "timestamp_ms is not when the command ran";
  EXPECT_FALSE(doc.value("time", "").empty());
}

// Runs scripts/validate-result.py on `path`: "" when valid, "skip: ..." when python3-jsonschema is missing, else
// the validator's complaints.
std::string validate(const std::string& path) {
  RunOptions o;
  o.program = "python3";
  o.timeout = std::chrono::seconds(60);
  const RunOutput r = run_binary({std::string(SLUICE_SOURCE_DIR) + "/scripts/validate-result.py", path}, o);
  if (r.exit_code == 0) return "";
  if (r.exit_code == 77) return "skip: " + r.err;
  return describe(r);
}

class ResultDocuments : public ::testing::TestWithParam<DocumentCase> {};

TEST_P(ResultDocuments, EnvelopeAndSchemaHold) {
  const DocumentCase& c = GetParam();
  TempDir dir;
  TinyHttpServer http;
  ASSERT_NE(http.port(), 0) << "no loopback listener";
  const Place place{dir, http.port()};
  RunOptions options;
  options.timeout = std::chrono::seconds(60);
  if (!c.before.empty()) {
    std::vector<std::string> before = c.before;
    for (std::string& arg : before) {
      if (const std::size_t at = arg.find("{DIR}"); at != std::string::npos) arg.replace(at, 5, dir.path());
    }
    const RunOutput prepared = run_binary(before, options);
    ASSERT_EQ(prepared.exit_code, 0) << describe(prepared);
  }
  const std::uint64_t started_ms = wall_clock_ms();
  const RunOutput r = run_binary(c.args(place), options);
  const std::uint64_t ended_ms = wall_clock_ms();
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const auto doc = parse_document(r.out);
  ASSERT_TRUE(doc);
  expect_envelope(*doc, c.command, started_ms, ended_ms);
  const std::string path = dir.file("result.json");
  std::ofstream(path) << r.out;
  const std::string problems = validate(path);
  if (problems.rfind("skip: ", 0) == 0) GTEST_SKIP() << "the schema half: " << problems.substr(6);
  EXPECT_EQ(problems, "") << "docs/schema/sluice-result.schema.json";
}

INSTANTIATE_TEST_SUITE_P(Commands, ResultDocuments, ::testing::ValuesIn(document_cases()),
                         [](const ::testing::TestParamInfo<DocumentCase>& document) { return document.param.name; });

TEST(ResultDocumentCommands, EveryCommandIsRunOrHasAReasonNotTo) {
  std::map<std::string, int> run;  // by the registered name: a case's first argument
  const TempDir dir;
  for (const DocumentCase& c : document_cases()) ++run[c.args(Place{dir, 1}).front()];
  for (const CommandEntry& e : command_registry()) {
    EXPECT_TRUE(run.count(e.name) != 0 || not_run_here().count(e.name) != 0)
        << e.name << ": run it in document_cases() or say in not_run_here() why not";
    EXPECT_FALSE(run.count(e.name) != 0 && not_run_here().count(e.name) != 0) << e.name << ": run and excused";
  }
}

}  // namespace
}  // namespace sluice::testing
