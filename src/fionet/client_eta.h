#pragma once
// The client's ETA line, as fio 3.33's client prints it: every --eta-interval it asks each running server for
// its status (SEND_ETA), adds the replies (struct jobs_eta) together and prints one line for all servers,
// "Jobs: 2 (f=2): [RR][33.3%][r=4093k][r=1023 IOPS][eta 00m:02s]", rewritten in place (ended by "\r") on
// stdout. Read from fio 3.33's client.c (request_client_etas, fio_client_sum_jobs_eta) and eta.c
// (display_thread_status, gen_eta_str, eta_to_str) and lib/num2str.c; written anew.
// Where sluice's client differs on purpose (docs/multi-host.md): --eta=auto prints only when stdout is a terminal
// (fio's client prints into a pipe too), the percentage is the longest-running server's elapsed time over that
// plus the largest ETA (fio adds the servers' elapsed times, so with N servers its percentage runs ahead), the
// run strings of all servers are joined (fio keeps the last reply's), and the rate limits are shown with 4
// significant digits (fio's client adds the replies into a zeroed struct whose sig_figs 0 makes them "0B/s").
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

namespace sluice::fionet {

// struct jobs_eta of protocol version 97 (168 bytes, then the run string).
struct JobsEta {
  std::uint32_t nr_running = 0;
  std::uint32_t nr_ramp = 0;
  std::uint32_t nr_pending = 0;
  std::uint32_t nr_setting_up = 0;
  std::uint64_t m_rate[3] = {0, 0, 0};  // rate limits (rate_min, rate), bytes/s per direction
  std::uint64_t t_rate[3] = {0, 0, 0};
  std::uint64_t rate[3] = {0, 0, 0};  // KiB/s of the last interval, per direction (read, write, trim)
  std::uint32_t m_iops[3] = {0, 0, 0};
  std::uint32_t t_iops[3] = {0, 0, 0};
  std::uint32_t iops[3] = {0, 0, 0};
  std::uint64_t elapsed_sec = 0;
  std::uint64_t eta_sec = 0;
  std::uint32_t is_pow2 = 0;
  std::uint32_t unit_base = 0;
  std::uint32_t sig_figs = 0;
  std::uint32_t files_open = 0;
  std::uint32_t nr_threads = 0;
  std::string run_str;
};
inline constexpr std::uint64_t kEtaUnknown = 0x7fffffff;  // fio's INT_MAX: no estimate

std::optional<JobsEta> decode_jobs_eta(const std::vector<std::uint8_t>& payload);

// Adds one server's reply to the sum of a round (see the header comment for where this differs from fio).
void add_jobs_eta(JobsEta& sum, const JobsEta& reply);

// fio's num2str: `num` (in units of `base`) in at most `maxlen` digits with an SI (pow2: IEC) prefix and the
// unit's suffix; units: 0 none, 4 "B/s" (fio's N2S_NONE, N2S_BYTEPERSEC; the others are not needed here).
std::string fio_num2str(std::uint64_t num, int maxlen, int base, bool pow2, int units);

// fio's eta_to_str: "01m:05s", "02h:00m:10s", "01d:00h:00m:00s".
std::string fio_eta_text(std::uint64_t seconds);

enum class EtaMode { kNever, kAuto, kAlways };

// The line of one round, as fio's display_thread_status lays it out, without the padding and the "\r".
// `eta_good` is fio's: once a percentage was shown, an ETA of 0 still shows one.
std::string format_eta_line(const JobsEta& je, bool& eta_good);

// The rounds and the printing. Not thread-safe; the client's loop owns it.
class ClientEta {
 public:
  // json: fio's client prints no ETA line when JSON is among the output formats. newline: --eta-newline (0:
  // none). out: where the line goes (stdout; a test passes a file).
  ClientEta(EtaMode mode, bool json, std::chrono::nanoseconds newline, std::FILE* out);
  bool printing() const noexcept { return printing_; }
  // A new round of requests to `servers` servers (each sends SEND_ETA with the returned tag). A round still
  // waiting for replies is printed with what it has first.
  std::uint64_t begin_round(std::size_t servers);
  // A server's ETA reply; the round is printed once every server asked has answered. Replies of older rounds
  // are dropped.
  void on_reply(std::uint64_t tag, const std::vector<std::uint8_t>& payload);
  // Text is about to be printed on the same stream (a server's TEXT, the report): a shown line is ended first.
  void end_line();

 private:
  void print_round();
  bool printing_ = false;
  std::chrono::nanoseconds newline_{0};
  std::FILE* out_ = nullptr;
  std::uint64_t tag_ = 0;
  std::size_t pending_ = 0;
  std::size_t replies_ = 0;
  JobsEta sum_;
  bool eta_good_ = false;
  bool line_shown_ = false;
  std::size_t last_length_ = 0;
  bool newline_pending_ = false;
  std::optional<std::chrono::steady_clock::time_point> last_newline_;
};

}  // namespace sluice::fionet
