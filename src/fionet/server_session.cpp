// One client's session on a sluice server: the protocol exchange around one run of sluice's runner.
#include "fionet/server_session.h"

#include <arpa/inet.h>
#include <fmt/format.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <thread>

#include "common/error.h"
#include "common/stop_signal.h"
#include "fionet/bytes.h"
#include "fionet/disk_util_pdu.h"
#include "fionet/iolog_pdu.h"
#include "fionet/job_update.h"
#include "fionet/pdu.h"
#include "fionet/received_jobs.h"
#include "fionet/server_logs.h"
#include "fionet/shared_secret.h"
#include "fionet/thread_stat.h"
#include "fionet/trigger.h"
#include "fionet/verify_state_transfer.h"
#include "fionet/wire.h"
#include "report/reporters.h"
#include "run/runner.h"
#include "run/trigger_watch.h"
#include "version.h"

namespace sluice::fionet {
namespace {

using namespace std::chrono_literals;
constexpr std::chrono::milliseconds kIdleTimeout = 10min;  // a client that says nothing for this long is dropped
constexpr std::chrono::milliseconds kPartTimeout = 30s;    // the rest of a message once it started, a write
constexpr std::chrono::milliseconds kRunPoll = 200ms;

std::uint8_t fio_arch_code() {
#if defined(__x86_64__)
  return 1;
#elif defined(__aarch64__)
  return 13;
#else
  return 14;  // fio's arch_generic
#endif
}

// The run's length when every job is time-bound (time_based with a runtime): the groups one after another, each
// as long as its longest job (startdelay + ramp_time + runtime); 0 when some job ends by its size instead.
std::uint64_t planned_seconds(const std::vector<JobSpec>& jobs) {
  std::vector<std::chrono::nanoseconds> groups;
  for (const JobSpec& job : jobs) {
    if (!job.time.time_based || job.time.runtime.count() == 0) return 0;
    if (groups.empty() || job.control.stonewall || job.control.new_group) groups.emplace_back(0);
    groups.back() = std::max(groups.back(), job.time.startdelay + job.time.ramp_time + job.time.runtime);
  }
  std::chrono::nanoseconds total{0};
  for (auto g : groups) total += g;
  return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::seconds>(total).count());
}

// This end's address on the connection ("10.0.0.11"), what fio's $clientuid names; empty for a Unix socket.
std::string local_address(int fd) {
  sockaddr_storage address{};
  socklen_t length = sizeof(address);
  if (::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) != 0) return {};
  char text[INET6_ADDRSTRLEN] = {};
  if (address.ss_family == AF_INET) {
    ::inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in*>(&address)->sin_addr, text, sizeof(text));
  } else if (address.ss_family == AF_INET6) {
    ::inet_ntop(AF_INET6, &reinterpret_cast<const sockaddr_in6*>(&address)->sin6_addr, text, sizeof(text));
  }
  return text;
}

class Session {
 public:
  Session(int fd, std::string peer, const SessionLog& log, std::string secret)
      : fd_(fd), peer_(std::move(peer)), log_(log), secret_(std::move(secret)), authenticated_(secret_.empty()) {
    received_.clientuid = local_address(fd_);
  }

  int serve() {
    for (;;) {
      const ReadResult r = read_message(fd_, kIdleTimeout);
      if (r.status == ReadStatus::kVersion) return refuse_version(r);
      if (r.status != ReadStatus::kOk) {
        if (r.status != ReadStatus::kClosed)
          log(fmt::format("{}: connection given up ({})", peer_, describe(r)));
        else if (!authenticated_)
          log(fmt::format("{}: left without proving the shared secret", peer_));
        return failed_ ? 1 : 0;
      }
      const Op op = static_cast<Op>(r.message.op);
      if (!authenticated_ &&
          (op == Op::kJobLine || op == Op::kJob || op == Op::kLoadFile || op == Op::kRun || op == Op::kSendEta)) {
        refuse_unproven();
        drain_until_closed();
        return 1;
      }
      switch (op) {
        case Op::kProbe:
          answer_probe(r.message);
          break;
        case Op::kSluiceHello:
          answer_hello(r.message);
          break;
        case Op::kSluiceProof:
          check_proof(r.message);
          break;
        case Op::kJobLine:
          add_job_line(r.message);
          break;
        case Op::kJob:
          add_job_file(r.message);
          break;
        case Op::kLoadFile:
          add_remote_file(r.message);
          break;
        case Op::kRun:
          run();
          return failed_ ? 1 : 0;
        case Op::kSendEta:
          send(Op::kEta, encode_eta({}), r.message.tag);
          break;
        case Op::kVerifyTrigger:
          answer_trigger(r.message, false);
          break;
        case Op::kUpdateJob:  // gfio's edited options: refused by name (job_update.h says why)
          answer_update_job(r.message);
          break;
        case Op::kQuit:
        case Op::kExit:
          return failed_ ? 1 : 0;
        default:
          log(fmt::format("{}: {} is not supported by sluice's server; ignored", peer_, op_name(r.message.op)));
      }
      if (ended_) {
        if (!authenticated_ || refused_proof_) drain_until_closed();
        return 1;
      }
    }
  }

  // After a refusal: what the client still sends (fio's client sends its job files and RUN without waiting) is
  // read and dropped until it hangs up, for at most 3 s, so that closing does not reset the connection before
  // the client read the reason (a reset discards it, and fio's client dies of SIGPIPE writing to it).
  void drain_until_closed() {
    const auto deadline = std::chrono::steady_clock::now() + 3s;
    for (auto now = std::chrono::steady_clock::now(); now < deadline; now = std::chrono::steady_clock::now()) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now);
      if (read_message(fd_, left).status != ReadStatus::kOk) return;
    }
  }

 private:
  static std::string describe(const ReadResult& r) {
    switch (r.status) {
      case ReadStatus::kTimeout:
        return "no message within the time limit";
      case ReadStatus::kBadCrc:
        return "a message with a bad checksum";
      case ReadStatus::kTooLarge:
        return "a message over the size limit";
      case ReadStatus::kFragmentMismatch:
        return "fragments of different messages";
      default:
        return r.detail.empty() ? "connection error" : r.detail;
    }
  }

  void log(const std::string& line) {
    if (log_.line) log_.line(line);
  }

  // Whole messages only: the runner's thread sends SLUICE_STARTED while this one answers SEND_ETA.
  bool send(Op op, const std::vector<std::uint8_t>& payload, std::uint64_t tag = 0) {
    const std::lock_guard<std::mutex> lock(send_mutex_);
    return send_message(fd_, op, tag, payload, kPartTimeout);
  }
  // One TEXT per line, as fio's server logs them: fio's client puts "<host> " before each.
  void text(const std::string& lines) {
    std::istringstream in(lines);
    for (std::string line; std::getline(in, line);) send(Op::kText, encode_text(line + "\n"));
  }

  // A client of another protocol version: it cannot read our frames, so the one line goes out in its version
  // (the frame header is the same in every version fio has had), then QUIT.
  int refuse_version(const ReadResult& r) {
    const std::string line = version_mismatch_text(fmt::format("client {}", peer_), r.peer_version);
    log(line);
    std::vector<std::uint8_t> frames =
        encode_message(static_cast<std::uint16_t>(Op::kText), 0, encode_text("sluice server: " + line + "\n"));
    std::vector<std::uint8_t> quit = encode_message(static_cast<std::uint16_t>(Op::kQuit), 0, {});
    frames.insert(frames.end(), quit.begin(), quit.end());
    for (std::size_t at = 0; at + kHeaderBytes <= frames.size();) {
      // Rewrite version and header CRC of every frame.
      frames[at] = static_cast<std::uint8_t>(r.peer_version);
      frames[at + 1] = static_cast<std::uint8_t>(r.peer_version >> 8);
      const std::uint16_t crc = crc16({frames.data() + at, kHeaderBytes - 4});
      frames[at + 20] = static_cast<std::uint8_t>(crc);
      frames[at + 21] = static_cast<std::uint8_t>(crc >> 8);
      const std::uint32_t length = frames[at + 16] | (frames[at + 17] << 8) | (frames[at + 18] << 16) |
                                   (static_cast<std::uint32_t>(frames[at + 19]) << 24);
      at += kHeaderBytes + length;
    }
    write_all(fd_, frames, kPartTimeout);
    return 1;
  }

  void answer_probe(const Message& m) {
    // The name the client knows this server by: fio's server names the verify states it asks for after it.
    if (m.payload.size() >= 8 + 128) server_name_ = std::string(get_text(m.payload.data(), 8, 128));
    ProbeReply reply;
    char host[256] = {};
    ::gethostname(host, sizeof(host) - 1);
    reply.hostname = host;
    reply.fio_version = "sluice-" SLUICE_VERSION;
    reply.arch = fio_arch_code();
    reply.bits_per_pointer_bytes = sizeof(void*);
    reply.cpus = static_cast<std::uint32_t>(std::max(1u, std::thread::hardware_concurrency()));
    // As fio's server: logs go compressed when the client offers zlib (fio's client always does).
    logs_compressed_ = probe_offers_zlib(m.payload);
    if (logs_compressed_) reply.flags = kProbeFlagZlib;
    send(Op::kProbe, encode_probe_reply(reply), m.tag);
  }

  // A sluice client's hello: the server's challenge, and its own proof over the client's nonce (so that a client
  // with a secret knows it reached a server with the same one).
  void answer_hello(const Message& m) {
    if (m.payload.size() != kNonceBytes) return fail("the sluice hello is malformed");
    sluice_client_ = true;  // from here sluice's own messages may be sent: the client is sluice's
    std::vector<std::uint8_t> challenge(4 + kNonceBytes + kProofBytes, 0);
    if (!secret_.empty()) {
      challenge[0] = 1;  // flags: a proof of the shared secret is required
      nonce_ = random_nonce();
      challenged_ = true;
      const Proof mine = secret_proof(secret_, ProofRole::kServer, m.payload);
      std::copy(nonce_.begin(), nonce_.end(), challenge.begin() + 4);
      std::copy(mine.begin(), mine.end(), challenge.begin() + 4 + kNonceBytes);
    }
    send(Op::kSluiceChallenge, challenge, m.tag);
  }

  void check_proof(const Message& m) {
    if (secret_.empty()) return void(send(Op::kSluiceAccepted, {}, m.tag));
    if (!challenged_) return fail("a proof of the shared secret came before the challenge (SLUICE_HELLO)");
    if (!proof_matches(m.payload, secret_proof(secret_, ProofRole::kClient, nonce_))) {
      refused_proof_ = true;
      return fail(
          "refused: the client's shared secret is not this server's (the client's --client-secret file "
          "differs from the server's --server-secret file)",
          EACCES);
    }
    authenticated_ = true;
    log(fmt::format("{}: proved the shared secret", peer_));
    send(Op::kSluiceAccepted, {}, m.tag);
  }

  // A client that asks for work before proving the secret: fio's client (it cannot), or a sluice client
  // started without --client-secret.
  void refuse_unproven() {
    fail(
        "refused: this server requires a shared secret (it was started with --server-secret) and the client "
        "did not prove it; fio's client cannot: use `sluice --client=HOST --client-secret=FILE` with a copy of "
        "the server's secret file",
        EACCES);
  }

  void add_job_line(const Message& m) {
    const auto args = decode_job_line(m.payload);
    if (!args) return fail("the command line sent (JOBLINE) is malformed");
    received_.args.assign(args->empty() ? args->begin() : args->begin() + 1, args->end());  // argv[0] is "fio"
    accept_jobs();
  }

  void add_job_file(const Message& m) {
    received_.files.push_back(
        {fmt::format("job file {} from {}", received_.files.size() + 1, peer_), decode_job_file(m.payload)});
    accept_jobs();
  }

  void add_remote_file(const Message& m) {
    const auto path = decode_load_file(m.payload);
    if (!path) return fail("the remote job file's name (LOAD_FILE) is malformed");
    std::ifstream in(*path, std::ios::binary);
    if (!in) return fail(fmt::format("cannot read job file {} on this server: {}", *path, std::strerror(errno)));
    std::ostringstream text;
    text << in.rdbuf();
    received_.files.push_back({*path, text.str()});
    accept_jobs();
  }

  // Parses what was received so far and answers START with the jobs and reports added since the last START.
  void accept_jobs() {
    try {
      PreparedJobs prepared = prepare_jobs(received_);
      jobs_ = std::move(prepared.jobs);
      normal_output_ = prepared.normal_output;
      report_interval_ = prepared.report_interval;
    } catch (const UserError& e) {
      return fail(e.what());
    }
    const JobCounts counts = count_jobs(jobs_);
    send(Op::kStart, encode_start(counts.clones, counts.reports - announced_reports_));
    announced_reports_ = counts.reports;
  }

  // What fio's server does with a job it cannot take (its message as TEXT, then QUIT), with STOP carrying an
  // error first so that the client counts the failure.
  void fail(const std::string& what, int error = EINVAL) {
    log(fmt::format("{}: {}", peer_, what));
    std::string lines;
    std::istringstream in(what);
    for (std::string line; std::getline(in, line);) lines += "sluice: " + line + "\n";
    text(lines);  // each line names sluice, as fio's name fio
    send(Op::kStop, encode_stop(static_cast<std::uint32_t>(error), 0));
    send(Op::kQuit, {});
    failed_ = true;
    ended_ = true;
  }

  void run() {
    if (jobs_.empty()) return fail("no job was sent (neither a job file nor --name on the command line)");
    if (loads_verify_state(jobs_) && !fetch_verify_states_from_client()) return;
    const auto run_received = std::chrono::steady_clock::now();
    // The logs this run writes are those changed since (a margin for file systems' coarse timestamps).
    logs_since_ = std::filesystem::file_time_type::clock::now() - std::chrono::seconds(2);
    send(Op::kServerStart, {});
    log(fmt::format("{}: running {} job(s)", peer_, jobs_.size()));
    std::atomic<bool> done{false};
    RunResult result;
    std::string error;
    int error_number = EINVAL;  // what fio's server sends for a job it cannot take
    clear_stop_request();
    {
      const std::lock_guard<std::mutex> lock(rates_mutex_);
      sampled_ = true;  // the first rate (after the runner's first status refresh) counts from here
      last_sample_ = run_received;
    }
    std::thread runner([&] {
      try {
        RunnerOptions options;
        options.status_line = false;
        options.notice = [](const std::string&) {};
        // A sluice client measures the servers' start skew from when each says its measurement began.
        bool started_sent = false;
        if (sluice_client_) {
          // The time from RUN's arrival to the release of the first group's workers: the client adds it to when
          // it sent RUN, so the skew needs no common clock (its error is the difference of RUN's one-way delays).
          options.before_measure = [this, &started_sent, run_received] {
            if (started_sent) return;
            started_sent = true;
            std::vector<std::uint8_t> payload(8);
            put_u64(payload.data(), 0,
                    static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                                   std::chrono::steady_clock::now() - run_received)
                                                   .count()));
            send(Op::kSluiceStarted, payload);
          };
        }
        options.live_progress = [this](const LiveTotals& totals) { sample_rates(totals); };
        if (report_interval_) {
          options.report_interval = *report_interval_;
          options.report_progress = [this](const RunResult& progress) { send_progress(progress); };
        }
        result = run_jobs(jobs_, options);
      } catch (const IoError& e) {  // a job that could not be set up: its errno goes to the client, as fio's
        error = e.what();
        error_number = e.error_number() != 0 ? e.error_number() : EIO;
      } catch (const std::exception& e) {
        error = e.what();
      }
      done.store(true, std::memory_order_release);
    });
    const auto started = std::chrono::steady_clock::now();
    bool client_gone = false;
    while (!done.load(std::memory_order_acquire)) {
      if (client_gone) {
        std::this_thread::sleep_for(kRunPoll);
        continue;
      }
      pollfd_wait_and_answer(started, client_gone);
    }
    runner.join();
    remove_fetched_states();
    if (client_gone) return;
    if (!error.empty()) return fail(error, error_number);
    report(result);
  }

  // verify_state_load: each state comes from the client, as fio's server fetches it (SENDFILE), into a directory
  // of this session's own. False when one did not come (the run was failed with the reason).
  bool fetch_verify_states_from_client() {
    std::string pattern = (std::filesystem::temp_directory_path() / "sluice-vstate-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) {
      fail(fmt::format("verify_state_load: cannot make a directory for the client's verify states: {}",
                       std::strerror(errno)),
           errno);
      return false;
    }
    fetched_states_dir_ = pattern;
    SendFileIo io;
    io.send = [this](Op op, const std::vector<std::uint8_t>& payload, std::uint64_t tag) {
      return send(op, payload, tag);
    };
    io.read = [this](std::chrono::milliseconds timeout) { return read_message(fd_, timeout); };
    io.other = [this](const Message& m) {  // a status request before the run: nothing runs yet
      if (m.op == static_cast<std::uint16_t>(Op::kSendEta)) send(Op::kEta, encode_eta({}), m.tag);
    };
    std::string failure;
    const int error = fetch_verify_states(jobs_, server_name_, fetched_states_dir_, io, failure);
    if (error == 0) return true;
    remove_fetched_states();
    fail(failure, error);
    return false;
  }

  void remove_fetched_states() {
    if (fetched_states_dir_.empty()) return;
    std::error_code ignored;
    std::filesystem::remove_all(fetched_states_dir_, ignored);
    fetched_states_dir_.clear();
  }

  void answer_update_job(const Message& m) {
    const UpdateJobAnswer answer = answer_update_job_request(m.payload, count_jobs(jobs_).clones);
    if (!answer.text.empty()) text(answer.text);
    send(Op::kUpdateJob, encode_update_job_reply(answer.error), m.tag);
  }

  // Waits up to kRunPoll for a message during the run: SEND_ETA is answered, QUIT (or a lost client) stops it.
  void pollfd_wait_and_answer(std::chrono::steady_clock::time_point started, bool& client_gone) {
    const ReadResult r = read_message(fd_, kRunPoll);
    if (r.status == ReadStatus::kTimeout) return;
    if (r.status != ReadStatus::kOk || r.message.op == static_cast<std::uint16_t>(Op::kQuit) ||
        r.message.op == static_cast<std::uint16_t>(Op::kExit)) {
      request_stop();
      client_gone = r.status != ReadStatus::kOk;
      return;
    }
    if (r.message.op == static_cast<std::uint16_t>(Op::kVerifyTrigger)) return answer_trigger(r.message, true);
    if (r.message.op == static_cast<std::uint16_t>(Op::kSendEta)) {
      EtaInfo eta;
      eta.running = count_jobs(jobs_).clones;
      for (const JobSpec& job : jobs_) {  // as fio's calc_thread_status adds them up over its running jobs
        const auto files = job.target.filenames.empty() ? job.target.nrfiles : job.target.filenames.size();
        eta.files_open += static_cast<std::uint32_t>(files * job.control.numjobs);
        const bool moves[3] = {job.does_reads(), job.does_writes(), job.does_trims()};
        for (int d = 0; d < 3; ++d) {
          if (!moves[d]) continue;  // fio's rate=N sets every direction; only those the job does count
          eta.rate_limit[d] += job.pacing.rate[d] * job.control.numjobs;
          eta.rate_min[d] += job.pacing.rate_min[d] * job.control.numjobs;
          eta.iops_limit[d] += static_cast<std::uint32_t>(job.pacing.rate_iops[d] * job.control.numjobs);
          eta.iops_min[d] += static_cast<std::uint32_t>(job.pacing.rate_iops_min[d] * job.control.numjobs);
        }
      }
      eta.run_str.assign(eta.running, 'R');
      eta.elapsed_s = static_cast<std::uint64_t>(
          std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - started).count());
      if (const std::uint64_t planned = planned_seconds(jobs_); planned > 0) {
        eta.eta_s = planned > eta.elapsed_s ? planned - eta.elapsed_s : 0;
      }
      {
        const std::lock_guard<std::mutex> lock(rates_mutex_);
        for (int d = 0; d < 3; ++d) {
          eta.rate_kib_s[d] = rates_.rate_kib_s[d];
          eta.iops[d] = rates_.iops[d];
        }
      }
      send(Op::kEta, encode_eta(eta), r.message.tag);
    }
  }

  // fio's IOLOG: the logs the run wrote go to the client (which writes NAME.HOST) and leave this host, as
  // fio's server never writes them.
  void send_job_logs() {
    for (const JobLogFile& file : job_log_files(jobs_)) {
      // A histogram log is large plain (14.9 KB a window): sluice's client, which inflates whatever comes, gets
      // it compressed even when its probe did not offer zlib (it offers it for the jobs it sees write one).
      const bool compressed = logs_compressed_ || (sluice_client_ && file.type == IoLogType::kHist);
      std::string problem;
      const std::optional<IoLog> log = log_for_client(file, logs_since_, compressed, problem);
      if (!problem.empty()) text("sluice: " + problem + "\n");
      if (!log) continue;
      std::error_code ec;
      if (send(Op::kIoLog, encode_iolog(*log))) std::filesystem::remove(file.path, ec);
    }
  }

  // fio's handle_trigger_cmd: the answer (the write state: none from sluice, see trigger.h), every job stopped,
  // then the client's command run here (a power-cut test's command may end this host; nothing after it counts).
  void answer_trigger(const Message& m, bool running) {
    const std::optional<std::string> command = decode_vtrigger(m.payload);
    if (!command) return log(fmt::format("{}: a malformed VTRIGGER; ignored", peer_));
    send(Op::kVerifyTrigger, encode_empty_io_list());
    if (running) request_trigger_stop();
    log(fmt::format("{}: trigger{}{}", peer_, running ? ": jobs stopped" : "",
                    command->empty() ? std::string() : fmt::format(", running `{}`", *command)));
    if (const std::string failure = run_trigger_command(*command); !failure.empty()) log(peer_ + ": " + failure);
  }

  // fio's server logs the job banners and "Starting N processes" once, before the first statistics.
  void send_banners(const RunResult& result) {
    if (banners_sent_ || !normal_output_) return;
    banners_sent_ = true;
    std::string banners;
    std::uint32_t clones = 0;
    for (const GroupResult& g : result.groups) {
      for (const JobResult& j : g.jobs) {
        ++clones;
        if (j.jobnum == 0) banners += render_job_banner(j) + "\n";
      }
    }
    text(banners + fmt::format("Starting {} process{}\n", clones, clones == 1 ? "" : "es"));
  }

  // One set of statistics as fio's server sends it (its __show_run_stats): each report's JOB_OPTs and TS, then
  // a GS per group; a START first when there are more reports than announced. Used for the final result and
  // for each periodic report of --status-interval (the run so far, cumulative). Returns the first job error.
  std::uint32_t send_statistics(const RunResult& result) {
    send_banners(result);
    std::uint32_t clones = 0;
    for (const GroupResult& g : result.groups) clones += static_cast<std::uint32_t>(g.jobs.size());
    std::uint32_t reports = 0;
    std::vector<std::vector<std::uint8_t>> thread_stats, group_stats;
    std::vector<std::vector<std::vector<std::uint8_t>>> options;
    std::uint32_t error = 0;
    for (const GroupResult& g : result.groups) {
      const auto totals = report::group_totals(g);
      const std::vector<report::ReportedJob> entries = report::reported_jobs(g);
      for (const report::ReportedJob& entry : entries) {
        std::vector<std::vector<std::uint8_t>> opts;
        for (const auto& [name, value] : entry.job.options)
          opts.push_back(encode_job_option(name, value, false, reports));
        options.push_back(std::move(opts));
        thread_stats.push_back(
            encode_thread_stat(entry, totals, {reports + 1, static_cast<std::uint32_t>(::getpid())}));
        ++reports;
      }
      for (const JobResult& j : g.jobs) {
        if (j.error != 0 && error == 0) error = static_cast<std::uint32_t>(j.error);
      }
      if (!g.jobs.empty())
        group_stats.push_back(encode_group_stat(
            totals, g.groupid, entries.empty() ? g.jobs.front().settings : entries.front().job.settings));
    }
    if (reports > announced_reports_) {
      send(Op::kStart, encode_start(std::max(clones, reports), reports - announced_reports_));
      announced_reports_ = reports;
    }
    for (std::size_t i = 0; i < thread_stats.size(); ++i) {
      for (const auto& opt : options[i]) send(Op::kJobOption, opt);
      send(Op::kThreadStat, thread_stats[i]);
    }
    for (const auto& gs : group_stats) send(Op::kGroupStat, gs);
    for (const DiskUtilization& disk : result.disks) send(Op::kDiskUtil, encode_disk_util(disk));  // after GS, as fio
    return error;
  }

  // --status-interval: the run so far, on the runner's thread. A sluice client is told where the set ends
  // (SLUICE_INTERIM); fio's client gets exactly what fio's server sends.
  void send_progress(const RunResult& progress) {
    send_statistics(progress);
    if (sluice_client_) send(Op::kSluiceInterim, {});
  }

  // The runner's totals at each status refresh (about every second, on its thread): the rates since the
  // previous sample, which the ETA replies carry. A new group's counters start from zero again.
  void sample_rates(const LiveTotals& totals) {
    const auto now = std::chrono::steady_clock::now();
    const std::lock_guard<std::mutex> lock(rates_mutex_);
    if (sampled_) {
      const double seconds = std::chrono::duration<double>(now - last_sample_).count();
      for (int d = 0; d < 3; ++d) {
        const std::uint64_t bytes =
            totals.bytes[d] >= last_totals_.bytes[d] ? totals.bytes[d] - last_totals_.bytes[d] : totals.bytes[d];
        const std::uint64_t ios =
            totals.ios[d] >= last_totals_.ios[d] ? totals.ios[d] - last_totals_.ios[d] : totals.ios[d];
        rates_.rate_kib_s[d] =
            seconds > 0 ? static_cast<std::uint64_t>(static_cast<double>(bytes) / seconds / 1024) : 0;
        rates_.iops[d] = seconds > 0 ? static_cast<std::uint32_t>(static_cast<double>(ios) / seconds) : 0;
      }
    }
    sampled_ = true;
    last_sample_ = now;
    last_totals_ = totals;
  }

  void report(const RunResult& result) {
    send_job_logs();  // as fio's server: each log as its job ends, before the statistics
    std::uint32_t error = send_statistics(result);
    for (const GroupResult& g : result.groups) {
      for (const JobResult& j : g.jobs) {
        if (j.error != 0) text(fmt::format("sluice: job {}: {}\n", j.name, j.error_message));
      }
    }
    if (error == 0 && result.interrupted) error = EINTR;
    if (sluice_client_) send_sluice_section(result);
    send(Op::kStop, encode_stop(error, 0));
    send(Op::kQuit, {});
    failed_ = error != 0;
    log(fmt::format("{}: run finished{}", peer_, error ? fmt::format(" with error {}", error) : ""));
  }

  // The run's "sluice" JSON section (environment, warnings, notes; the per-job part stays in the TS messages).
  void send_sluice_section(const RunResult& result) {
    nlohmann::json section = render_json(result, false)["sluice"];
    section.erase("jobs");
    const std::string text = section.dump();
    send(Op::kSluiceHost, std::vector<std::uint8_t>(text.begin(), text.end()));
  }

  int fd_;
  std::string peer_;
  const SessionLog& log_;
  ReceivedJobs received_;
  std::vector<JobSpec> jobs_;
  std::uint32_t announced_reports_ = 0;
  bool normal_output_ = true;
  bool banners_sent_ = false;
  std::optional<std::chrono::nanoseconds> report_interval_;  // the client's --status-interval
  bool failed_ = false;
  bool ended_ = false;
  std::string secret_;              // empty: no proof is asked for
  std::string server_name_;         // from the client's probe: what the client calls this server
  std::string fetched_states_dir_;  // the verify states fetched from the client for this run (removed after)
  bool authenticated_ = true;
  bool challenged_ = false;
  bool refused_proof_ = false;
  bool sluice_client_ = false;  // it sent SLUICE_HELLO
  std::mutex send_mutex_;
  std::mutex rates_mutex_;  // the runner's thread samples, the session's answers SEND_ETA
  bool sampled_ = false;
  std::chrono::steady_clock::time_point last_sample_;
  LiveTotals last_totals_;
  EtaInfo rates_;  // only its rates are used
  std::filesystem::file_time_type logs_since_;
  bool logs_compressed_ = false;  // the client's probe offered zlib
  Nonce nonce_{};
};

}  // namespace

int serve_connection(int fd, const std::string& peer, const SessionLog& log, const std::string& secret) {
  Session session(fd, peer, log, secret);
  return session.serve();
}

}  // namespace sluice::fionet
