// sluice as fio's client: connect and probe every server, send the jobs, run, collect, report.
#include "fionet/client.h"

#include <fmt/format.h>
#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "common/error.h"
#include "fionet/bytes.h"
#include "fionet/client_logs.h"
#include "fionet/client_report.h"
#include "fionet/client_trigger.h"
#include "fionet/disk_util_pdu.h"
#include "fionet/pdu.h"
#include "fionet/shared_secret.h"
#include "fionet/thread_stat_decode.h"
#include "fionet/trigger.h"
#include "fionet/verify_state_transfer.h"
#include "fionet/wire.h"
#include "job/fio_global_options.h"
#include "job/units.h"

namespace sluice::fionet {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;
constexpr std::uint16_t kClientTypeCli = 1;  // fio's FIO_CLIENT_TYPE_CLI
constexpr std::chrono::milliseconds kWriteTimeout = 30s;
// After its trigger answer a silent server is given up this soon, without an error (fio's client timeout, 5 s).
constexpr std::chrono::milliseconds kSilenceAfterTrigger = 5s;

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UserError(fmt::format("cannot read job file {}", path));
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// fio's --client=FILE: a file of hosts, one a line (blank lines and # comments skipped).
std::vector<std::string> hosts_of(const std::string& value) {
  std::error_code ec;
  if (value.find(',') != std::string::npos || !std::filesystem::is_regular_file(value, ec)) return {value};
  std::vector<std::string> hosts;
  std::ifstream in(value);
  for (std::string line; std::getline(in, line);) {
    const std::size_t start = line.find_first_not_of(" \t");
    if (start == std::string::npos || line[start] == '#') continue;
    hosts.push_back(line.substr(start, line.find_last_not_of(" \t\r") - start + 1));
  }
  if (hosts.empty()) throw UserError(fmt::format("--client={}: the host file lists no host", value));
  return hosts;
}

void apply_output_format(const std::string& list, ClientOptions& o) {
  o.normal = o.json = o.terse = false;
  std::istringstream in(list);
  for (std::string f; std::getline(in, f, ',');) {
    if (f == "normal")
      o.normal = true;
    else if (f == "json" || f == "json+")
      o.json = true;
    else if (f == "terse")
      o.terse = true;
    else
      throw UserError(
          fmt::format("--output-format={}: unknown format '{}'; formats are normal, json, json+, terse", list, f));
  }
}

}  // namespace

bool asks_for_client(const std::vector<std::string>& args) {
  for (const std::string& a : args) {
    // --client-secret alone is client mode too, so that it is told to give a --client (not "unknown option").
    if (a.rfind("--client=", 0) == 0 || a == "--client" || a.rfind("--client-secret", 0) == 0) return true;
  }
  return false;
}

ClientOptions parse_client_arguments(const std::vector<std::string>& args) {
  ClientOptions o;
  bool after_client = false;  // the previous argument was a --client (or one of its job files)
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    std::string value;
    const std::size_t eq = a.find('=');
    const std::string name =
        a.rfind("--", 0) == 0 ? a.substr(2, eq == std::string::npos ? std::string::npos : eq - 2) : "";
    if (eq != std::string::npos) value = a.substr(eq + 1);
    if (name == "client") {
      if (eq == std::string::npos) {
        if (i + 1 >= args.size()) throw UserError("--client: give a host: --client=HOST[,PORT] or a file of hosts");
        value = args[++i];
      }
      const std::vector<std::string> hosts = hosts_of(value);
      for (const std::string& h : hosts) o.servers.push_back({h, parse_endpoint(h), {}, {}});
      after_client = hosts.size() == 1 && value == hosts.front();  // a host file takes no job files of its own
      continue;
    }
    if (name == "remote-config") {
      if (o.servers.empty()) throw UserError("--remote-config=" + value + ": give it after the --client it is for");
      o.servers.back().files.push_back({value, true});
      continue;
    }
    if (name == "output-format") {
      apply_output_format(value, o);
    } else if (name == "minimal") {
      o.normal = o.json = false;
      o.terse = true;
    } else if (name == "append-terse") {
      o.terse = true;
    } else if (name == "terse-version") {
      if (value != "2" && value != "3" && value != "4" && value != "5") {
        throw UserError("--terse-version=" + value + ": terse versions are 2, 3, 4 and 5");
      }
      o.terse_version = value[0] - '0';
    } else if (name == "client-secret") {
      if (value.empty()) throw UserError("--client-secret: give the secret file: --client-secret=FILE");
      o.secret = read_secret_file(value, "--client-secret");
    } else if (name == "output") {
      if (value.empty()) throw UserError("--output: give a file: --output=FILE");
      o.output_path = value;
    } else if (name == "status-interval") {
      const auto interval = parse_duration(value, std::chrono::seconds(1));
      if (!interval || *interval < std::chrono::milliseconds(1)) {
        throw UserError(a + ": not a duration of at least 1ms; e.g. 1, 500ms, 10s");
      }
      o.report_interval = *interval;
      o.report_interval_text = value;
    } else if (name == "trigger-file") {
      o.trigger.file = value;
    } else if (name == "trigger-timeout") {
      const auto timeout = parse_duration(value, std::chrono::seconds(1));
      if (!timeout || timeout->count() <= 0) throw UserError(a + ": not a positive duration; e.g. 30, 500ms, 2m");
      o.trigger.timeout = *timeout;
    } else if (name == "trigger") {
      o.trigger.command = value;
    } else if (name == "trigger-remote") {
      o.trigger.remote_command = value;
    } else if (name == "eta") {
      if (value == "never")
        o.eta = EtaMode::kNever;
      else if (value == "auto")
        o.eta = EtaMode::kAuto;
      else if (value == "always")
        o.eta = EtaMode::kAlways;
      else
        throw UserError(a + ": --eta is never, auto or always");
    } else if (name == "eta-newline") {
      o.eta_newline = fio_eta_newline(a, value);
    } else if (name == "eta-interval") {
      o.eta_interval = fio_eta_interval(a, value);
    } else if (!name.empty()) {
      if (o.servers.empty()) {
        throw UserError(a + ": before any --client; in client mode options go after the --client they are for");
      }
      o.servers.back().arguments.push_back(a);
      after_client = false;
      continue;
    } else if (after_client) {
      o.servers.back().files.push_back({a, false});  // right after --client: this server's own job file
      continue;
    } else {
      o.common_files.push_back(a);
    }
    after_client = false;
  }
  if (o.servers.empty()) throw UserError("client mode needs at least one --client=HOST");
  return o;
}

namespace {

struct Connection {
  const ClientServer* server = nullptr;
  int fd = -1;
  std::string name;  // the server's host name from its probe (fio's client prints "<name> " before its text)
  std::string version;
  bool sluice = false;  // the server is sluice's (its probe says "sluice-..."): sluice's extras are asked for
  bool running = false;
  bool done = false;
  std::uint32_t stop_error = 0;
  std::string failure;  // why this server failed, empty if it did not
  Clock::time_point last_heard = Clock::now();
  Clock::time_point run_sent;  // when RUN went out (the base of a sluice server's measurement start)
  bool eta_asked = false;      // a SEND_ETA of this server is unanswered
  bool text_line_open = false;
  ClientReport report;  // the statistics being received (the final ones once the server is done)
  // --status-interval: the server's last complete periodic set of statistics, how many it sent, and how many TS
  // a set holds (its START messages' sum: a fio server's sets are counted so, a sluice server's end with
  // SLUICE_INTERIM).
  ClientReport latest;
  std::size_t sets = 0;
  std::uint32_t announced_stats = 0;
  bool trigger_answered = false;  // it answered VTRIGGER: silence or a hang-up after it is what a power cut does
};

std::string where(const Connection& c) { return describe(c.server->endpoint); }

// The next message of a server that is not TEXT (whose lines are kept in `text`), within `timeout`.
ReadResult read_skipping_text(int fd, std::chrono::milliseconds timeout, std::string& text) {
  for (;;) {
    ReadResult r = read_message(fd, timeout);
    if (r.status != ReadStatus::kOk || r.message.op != static_cast<std::uint16_t>(Op::kText)) return r;
    text += decode_text(r.message.payload);
  }
}

// sluice's hello to a sluice server: the shared secret proven both ways when either side has one. Returns why
// the server cannot be used, empty when it can.
std::string greet_sluice_server(Connection& c, const ClientOptions& options) {
  const Nonce mine = random_nonce();
  if (!send_message(c.fd, Op::kSluiceHello, 2, mine, kWriteTimeout)) return "the connection broke at sluice's hello";
  std::string text;
  ReadResult r = read_skipping_text(c.fd, options.connect_timeout, text);
  if (r.status != ReadStatus::kOk || r.message.op != static_cast<std::uint16_t>(Op::kSluiceChallenge) ||
      r.message.payload.size() != 4 + kNonceBytes + kProofBytes) {
    if (r.status == ReadStatus::kTimeout && options.secret.empty()) {
      // A sluice server older than sluice's hello ignores it: it is used as a fio server (fio's report only).
      std::fprintf(stderr,
                   "sluice: server %s did not answer sluice's hello (an older sluice?): no start skew or "
                   "environment from it\n",
                   where(c).c_str());
      c.sluice = false;
      return {};
    }
    return "no answer to sluice's hello (a sluice server older than the shared secret?)" + text;
  }
  const std::vector<std::uint8_t>& p = r.message.payload;
  const bool required = (p[0] & 1) != 0;
  if (!required) {
    if (options.secret.empty()) return {};
    return "it has no shared secret (started without --server-secret), so it cannot prove it knows this client's "
           "--client-secret: not used";
  }
  if (options.secret.empty()) {
    return "it requires a shared secret (started with --server-secret): give --client-secret=FILE with a copy of "
           "its secret file";
  }
  const std::span<const std::uint8_t> server_nonce(p.data() + 4, kNonceBytes);
  const std::span<const std::uint8_t> server_proof(p.data() + 4 + kNonceBytes, kProofBytes);
  if (!proof_matches(server_proof, secret_proof(options.secret, ProofRole::kServer, mine))) {
    return "its shared secret is not this client's (its --server-secret file differs from --client-secret): "
           "not used";
  }
  const Proof proof = secret_proof(options.secret, ProofRole::kClient, server_nonce);
  if (!send_message(c.fd, Op::kSluiceProof, 3, proof, kWriteTimeout)) return "the connection broke at the proof";
  r = read_skipping_text(c.fd, options.connect_timeout, text);
  if (r.status == ReadStatus::kOk && r.message.op == static_cast<std::uint16_t>(Op::kSluiceAccepted)) return {};
  while (!text.empty() && text.back() == '\n') text.pop_back();
  return "it refused this client's proof of the shared secret" + (text.empty() ? std::string() : ": " + text);
}

void close_all(std::vector<Connection>& connections) {
  for (Connection& c : connections) {
    if (c.fd >= 0) ::close(c.fd);
    c.fd = -1;
  }
}

// Whether the job files or options this client sends to the server mention write_hist_log: fio 3.33's server
// sends a histogram log's bins only compressed, so zlib is offered to it then (and only then: see encode_probe).
// A --remote-config file is on the server, out of sight.
bool names_hist_log(const ClientServer& s, const ClientOptions& options) {
  constexpr std::string_view kOption = "write_hist_log";
  for (const std::string& a : s.arguments) {
    if (a.find(kOption) != std::string::npos) return true;
  }
  std::vector<std::string> paths;  // the files send_jobs sends: the server's own, else the common ones
  for (const ClientJobFile& f : s.files) {
    if (!f.remote) paths.push_back(f.path);
  }
  if (s.files.empty()) paths = options.common_files;
  for (const std::string& path : paths) {
    std::ifstream in(path, std::ios::binary);  // one that cannot be read is named when the jobs are sent
    std::ostringstream text;
    text << in.rdbuf();
    if (text.str().find(kOption) != std::string::npos) return true;
  }
  return false;
}

// Connects and probes every server; throws UserError naming each one that does not answer (nothing has run).
void connect_all(std::vector<Connection>& connections, const ClientOptions& options) {
  std::string problems;
  for (Connection& c : connections) {
    std::string why;
    c.fd = connect_to(c.server->endpoint, options.connect_timeout, why);
    if (c.fd < 0) {
      problems += fmt::format("\n  {}: {}", where(c), why);
      continue;
    }
    const bool offer_zlib = names_hist_log(*c.server, options);
    if (!send_message(c.fd, Op::kProbe, 1, encode_probe(state_file_prefix(c.server->endpoint), offer_zlib),
                      kWriteTimeout)) {
      problems += fmt::format("\n  {}: the connection broke while probing", where(c));
      continue;
    }
    const ReadResult r = read_message(c.fd, options.connect_timeout);
    if (r.status == ReadStatus::kVersion) {
      problems += "\n  " + version_mismatch_text(fmt::format("server {}", where(c)), r.peer_version);
      continue;
    }
    std::optional<ProbeReply> probe;
    if (r.status == ReadStatus::kOk && r.message.op == static_cast<std::uint16_t>(Op::kProbe)) {
      probe = decode_probe_reply(r.message.payload);
    }
    if (!probe) {
      problems += fmt::format("\n  {}: no answer to fio's probe within {} ms (is it a fio server?)", where(c),
                              options.connect_timeout.count());
      continue;
    }
    c.name = probe->hostname;
    c.version = probe->fio_version;
    c.sluice = c.version.rfind("sluice-", 0) == 0;
    if (!c.sluice && !options.secret.empty()) {
      problems += fmt::format("\n  {}: it is {}, which has no shared secret; --client-secret needs sluice servers",
                              where(c), c.version);
      continue;
    }
    if (c.sluice) {
      if (const std::string refusal = greet_sluice_server(c, options); !refusal.empty()) {
        problems += fmt::format("\n  {}: {}", where(c), refusal);
        continue;
      }
    }
    c.report.hostname = c.server->endpoint.host;
    c.report.port = c.server->endpoint.port;
    c.report.sluice = c.sluice;
    c.report.server_name = c.name;
    c.report.version = c.version;
    if (options.normal) {
      const char* arch = probe->arch == 1 ? "x86-64" : probe->arch == 13 ? "aarch64" : "other";
      std::printf("hostname=%s, be=%u, %u-bit, os=%s, arch=%s, fio=%s\n", probe->hostname.c_str(),
                  probe->big_endian ? 1u : 0u, probe->bits_per_pointer_bytes * 8u, probe->os == 1 ? "Linux" : "other",
                  arch, probe->fio_version.c_str());
    }
  }
  if (!problems.empty()) {
    close_all(connections);
    throw UserError(
        "not started: these servers do not answer as fio servers or cannot be used (no job was sent to any):" +
        problems);
  }
}

void send_jobs(Connection& c, const ClientOptions& options) {
  const ClientServer& s = *c.server;
  bool ok = true;
  if (!s.arguments.empty() || options.report_interval) {
    std::vector<std::string> argv = {"fio"};
    argv.insert(argv.end(), s.arguments.begin(), s.arguments.end());
    if (options.report_interval) argv.push_back("--status-interval=" + options.report_interval_text);
    ok = send_message(c.fd, Op::kJobLine, 0, encode_job_line(argv, kClientTypeCli), kWriteTimeout);
  }
  std::vector<ClientJobFile> files = s.files;
  if (files.empty()) {
    for (const std::string& path : options.common_files) files.push_back({path, false});
  }
  for (const ClientJobFile& f : files) {
    if (!ok) break;
    ok = f.remote ? send_message(c.fd, Op::kLoadFile, 0, encode_load_file(f.path, kClientTypeCli), kWriteTimeout)
                  : send_message(c.fd, Op::kJob, 0, encode_job_file(read_file(f.path), kClientTypeCli), kWriteTimeout);
  }
  if (files.empty() && s.arguments.empty() && !options.report_interval) c.failure = "no job file for this server";
  if (ok) ok = send_message(c.fd, Op::kRun, 0, {}, kWriteTimeout);
  c.run_sent = Clock::now();
  if (!ok && c.failure.empty()) c.failure = "the connection broke while sending the jobs";
}

void print_text(Connection& c, const std::string& text, bool normal, ClientEta& eta) {
  if (!normal) return;
  eta.end_line();
  if (!c.text_line_open) std::fputs(("<" + c.name + "> ").c_str(), stdout);
  std::fputs(text.c_str(), stdout);
  c.text_line_open = text.empty() || text.back() != '\n';
}

// The statistics received so far form a complete periodic set: kept as the server's latest, and the next set
// starts empty.
void complete_set(Connection& c) {
  c.latest.stats = std::move(c.report.stats);
  c.latest.options = std::move(c.report.options);
  c.latest.global_options = std::move(c.report.global_options);
  c.latest.disks = std::move(c.report.disks);
  c.report.disks.clear();
  c.report.stats.clear();
  c.report.options.clear();
  c.report.global_options.clear();
  c.report.groups = 0;
  ++c.sets;
}

// Handles one message of a running server; false when the server is done (QUIT, or the connection ended).
bool handle(Connection& c, const Message& m, const ClientOptions& options, ClientEta& eta) {
  c.last_heard = Clock::now();
  switch (static_cast<Op>(m.op)) {
    case Op::kText:
      print_text(c, decode_text(m.payload), options.normal, eta);
      break;
    case Op::kEta:
      c.eta_asked = false;
      eta.on_reply(m.tag, m.payload);
      break;
    case Op::kServerStart:
      c.running = true;
      break;
    case Op::kJobOption:
      if (const auto o = decode_job_option(m.payload)) {
        if (o->global)
          c.report.global_options[o->name] = o->value;
        else
          c.report.options[o->index][o->name] = o->value;
      }
      break;
    case Op::kThreadStat:
      // A fio server's set is known to be periodic when the next one begins (the last is followed by STOP).
      if (options.report_interval && !c.sluice && c.announced_stats > 0 && c.report.stats.size() >= c.announced_stats) {
        complete_set(c);
      }
      if (auto ts = decode_thread_stat(m.payload)) c.report.stats.push_back(std::move(*ts));
      break;
    case Op::kStart:
      if (m.payload.size() >= 8) c.announced_stats += get_u32(m.payload.data(), 4);
      break;
    case Op::kSluiceInterim:
      complete_set(c);
      break;
    case Op::kGroupStat:
      c.report.groups += 1;
      break;
    case Op::kIoLog: {  // a job's log: written here as NAME.HOST, as fio's client writes it
      std::string problem;
      if (const auto log = decode_iolog(m.payload))
        save_client_log(*log, c.server->endpoint.host, !c.sluice, problem);
      else
        problem = "a malformed IOLOG message";
      if (!problem.empty()) std::fprintf(stderr, "sluice: server %s: %s\n", where(c).c_str(), problem.c_str());
      break;
    }
    case Op::kDiskUtil:
      if (auto disk = decode_disk_util(m.payload)) c.report.disks.push_back(std::move(*disk));
      break;
    case Op::kStop:
      c.stop_error = decode_stop(m.payload).error;
      break;
    case Op::kQuit:
      return false;
    case Op::kSendFile:  // the server runs a job with verify_state_load: the state file from here, as fio's client
      if (const auto path = decode_sendfile_request(m.payload)) {
        const std::string refusal = refuse_requested_file(*path);
        SendFileReply reply;
        if (refusal.empty()) {
          reply = read_requested_file(*path);
        } else {
          reply.error = EACCES;
          std::fprintf(stderr, "sluice: server %s asked for the file %s: refused: %s\n", where(c).c_str(),
                       path->c_str(), refusal.c_str());
        }
        if (reply.error != 0 && refusal.empty()) {  // fio's server only logs why it stops: say it here
          std::fprintf(stderr, "sluice: server %s asked for the verify state %s (verify_state_load=1): %s\n",
                       where(c).c_str(), path->c_str(), std::strerror(static_cast<int>(reply.error)));
        }
        send_message(c.fd, Op::kSendFile, m.tag, encode_sendfile_reply(reply), kWriteTimeout);
      }
      break;
    case Op::kSluiceStarted:  // only sluice servers send these, and only to a client that said hello
      // When RUN was sent, plus the server's time from RUN to its measurement start (no common clock needed).
      if (m.payload.size() >= 8) {
        c.report.measure_start_ns =
            std::chrono::duration_cast<std::chrono::nanoseconds>(c.run_sent.time_since_epoch()).count() +
            static_cast<std::int64_t>(get_u64(m.payload.data(), 0));
      }
      break;
    case Op::kVerifyTrigger: {  // fio's client: save the server's write state, then run --trigger here
      c.trigger_answered = true;
      std::string problem;
      save_trigger_states(m.payload, state_file_prefix(c.server->endpoint), problem);
      if (!problem.empty()) std::fprintf(stderr, "sluice: server %s: %s\n", where(c).c_str(), problem.c_str());
      if (const std::string failure = run_trigger_command(options.trigger.command); !failure.empty())
        std::fprintf(stderr, "sluice: %s\n", failure.c_str());
      break;
    }
    case Op::kSluiceHost: {
      nlohmann::json section = nlohmann::json::parse(m.payload.begin(), m.payload.end(), nullptr, false);
      if (!section.is_discarded() && section.is_object()) c.report.sluice_section = std::move(section);
      break;
    }
    default:
      break;  // ADD_JOB (gfio's): nothing to keep
  }
  return true;
}

// Where the reports go: stdout, or --output (emptied by the first report, the later ones added to it).
class ReportSink {
 public:
  explicit ReportSink(const ClientOptions& options) : path_(options.output_path) {}
  // False when --output could not be written (the text then went to stdout).
  bool write(const std::string& text) {
    if (path_.empty()) {
      std::fputs(text.c_str(), stdout);
      std::fflush(stdout);
      return true;
    }
    std::ofstream out(path_, started_ ? std::ios::app : std::ios::trunc);
    started_ = true;
    out << text;
    out.close();
    if (out) return true;
    std::fputs(text.c_str(), stdout);
    std::fprintf(stderr, "sluice: cannot write %s; the report went to stdout\n", path_.c_str());
    return false;
  }

 private:
  std::string path_;
  bool started_ = false;
};

// --status-interval on the client: report k is printed once every running server sent its k-th periodic set
// of statistics (a sluice server marks each; a fio server's is known when its next set begins, so its sets
// come one interval late), so that servers that started apart (fio's take a second or more to set up) still
// give one report per interval of the run; a server later than two intervals (a group laying out its files)
// holds the others back no longer: its previous set, if any, is used. Each report has every server's latest
// set; a server that is done is in it with its final statistics.
class PeriodicReports {
 public:
  PeriodicReports(const ClientOptions& options, ReportSink& sink, ClientEta& eta)
      : options_(options), sink_(sink), eta_(eta) {}

  void print_when_due(const std::vector<Connection>& connections, Clock::time_point now) {
    if (!options_.report_interval) return;
    std::size_t running = 0, ready = 0, fewest = SIZE_MAX;
    for (const Connection& c : connections) {
      if (c.done) continue;
      ++running;
      if (c.sets > printed_) ++ready;
      fewest = std::min(fewest, c.sets);
    }
    if (running == 0 || ready == 0) {
      first_ready_.reset();
      return;
    }
    if (!first_ready_) first_ready_ = now;
    const auto patience = std::max<Clock::duration>(*options_.report_interval * 2, std::chrono::seconds(1));
    if (ready < running && now - *first_ready_ < patience) return;
    std::vector<ClientReport> reports;
    for (const Connection& c : connections) {
      ClientReport r = c.report;  // who the server is; its statistics below
      if (!c.done) {
        r.stats = c.latest.stats;
        r.options = c.latest.options;
        r.global_options = c.latest.global_options;
        r.disks = c.latest.disks;
      }
      reports.push_back(std::move(r));
    }
    eta_.end_line();
    sink_.write(render_client_reports(reports, options_.normal, options_.json, options_.terse, options_.terse_version));
    printed_ = std::max(printed_ + 1, fewest);
    first_ready_.reset();
  }

 private:
  const ClientOptions& options_;
  ReportSink& sink_;
  ClientEta& eta_;
  std::size_t printed_ = 0;
  std::optional<Clock::time_point> first_ready_;
};

// The trigger fired: every server still running is sent the remote command (fio's fio_clients_send_trigger).
void send_trigger(std::vector<Connection>& connections, const ClientOptions& options) {
  const std::vector<std::uint8_t> payload = encode_vtrigger(options.trigger.remote_command);
  for (Connection& c : connections) {
    if (!c.done) send_message(c.fd, Op::kVerifyTrigger, 0, payload, kWriteTimeout);
  }
}

// A server that answered the trigger and then went silent or hung up without results: its trigger command may
// have cut its power, which is what the test is for (fio's client: "ignoring timeout due to vtrigger").
void note_gone_after_trigger(Connection& c) {
  std::fprintf(stderr,
               "sluice: server %s: no results after it ran its trigger command (not an error: a power-cut "
               "test's command ends its host)\n",
               where(c).c_str());
  c.failure.clear();
}

// As fio's client: every --eta-interval a status request (SEND_ETA) to each running server that answered the
// last one; the replies make one ETA line. The requests also keep a silent server from going unnoticed.
void ask_for_status(std::vector<Connection>& connections, ClientEta& eta) {
  std::size_t asked = 0;
  for (const Connection& c : connections) asked += c.running && !c.done && !c.eta_asked ? 1 : 0;
  if (asked == 0) return;
  const std::uint64_t tag = eta.begin_round(asked);
  for (Connection& c : connections) {
    if (!c.running || c.done || c.eta_asked) continue;
    c.eta_asked = send_message(c.fd, Op::kSendEta, tag, {}, kWriteTimeout);
  }
}

void run_all(std::vector<Connection>& connections, const ClientOptions& options, PeriodicReports& periodic,
             ClientEta& eta) {
  auto last_round = Clock::now();
  TriggerClock trigger(options.trigger, options.genesis);
  for (;;) {
    std::vector<pollfd> fds;
    std::vector<Connection*> owners;
    for (Connection& c : connections) {
      if (c.done) continue;
      fds.push_back({c.fd, POLLIN, 0});
      owners.push_back(&c);
    }
    if (fds.empty()) return;
    ::poll(fds.data(), fds.size(), options.trigger.armed() ? 100 : 200);  // fio checks its trigger every 100 ms
    const auto now = Clock::now();
    if (options.trigger.armed() && trigger.due(now)) send_trigger(connections, options);
    for (std::size_t i = 0; i < fds.size(); ++i) {
      Connection& c = *owners[i];
      if (fds[i].revents & (POLLIN | POLLHUP | POLLERR)) {
        const ReadResult r = read_message(c.fd, kWriteTimeout);
        if (r.status != ReadStatus::kOk || !handle(c, r.message, options, eta)) {
          if (r.status != ReadStatus::kOk && c.report.stats.empty() && c.failure.empty()) {
            c.failure = r.status == ReadStatus::kVersion ? version_mismatch_text("server " + where(c), r.peer_version)
                                                         : "the server disconnected before it sent results";
          }
          c.done = true;
          ::close(c.fd);  // at once: the server waits for this client to hang up before its session ends
          c.fd = -1;
          if (c.trigger_answered && c.report.stats.empty()) note_gone_after_trigger(c);
          continue;
        }
      }
      if (c.trigger_answered && now - c.last_heard > kSilenceAfterTrigger) {
        c.done = true;
        note_gone_after_trigger(c);
      } else if (now - c.last_heard > options.silence_limit) {
        c.failure = fmt::format("no message for {} s: given up", options.silence_limit.count() / 1000);
        c.done = true;
      }
    }
    // fio asks when 95 % of the interval passed (eta_time_within_slack), so that a poll's lateness loses no round.
    if (Clock::now() - last_round >= options.eta_interval * 95 / 100) {
      ask_for_status(connections, eta);
      last_round = Clock::now();
    }
    periodic.print_when_due(connections, Clock::now());
  }
}

}  // namespace

int run_clients(const ClientOptions& options) {
  std::vector<Connection> connections(options.servers.size());
  for (std::size_t i = 0; i < connections.size(); ++i) connections[i].server = &options.servers[i];
  connect_all(connections, options);
  for (Connection& c : connections) {
    send_jobs(c, options);
    if (!c.failure.empty()) c.done = true;
  }
  ReportSink sink(options);
  ClientEta eta(options.eta, options.json, options.eta_newline, stdout);
  PeriodicReports periodic(options, sink, eta);
  run_all(connections, options, periodic, eta);
  eta.end_line();  // the report begins on a line of its own
  close_all(connections);
  std::vector<ClientReport> reports;
  int exit_code = 0;
  for (Connection& c : connections) {
    if (c.text_line_open) std::fputs("\n", stdout);
    for (const DecodedStat& s : c.report.stats) {
      if (c.failure.empty() && s.job.error != 0) {
        c.failure = fmt::format("job {} failed: error {} ({})", s.job.name, s.job.error, s.job.error_message);
      }
    }
    if (c.failure.empty() && c.stop_error != 0) {
      c.failure = fmt::format(
          "its run ended with error {} ({}: a job failed or could not be set up; its messages "
          "are above)",
          c.stop_error, std::strerror(static_cast<int>(c.stop_error)));
    }
    reports.push_back(std::move(c.report));
  }
  const std::string text =
      render_client_reports(reports, options.normal, options.json, options.terse, options.terse_version);
  if (!sink.write(text)) exit_code = 1;
  for (const Connection& c : connections) {
    if (c.failure.empty()) continue;
    std::fprintf(stderr, "sluice: server %s: %s\n", where(c).c_str(), c.failure.c_str());
    exit_code = 1;
  }
  return exit_code;
}

}  // namespace sluice::fionet
