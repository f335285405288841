// The client's ETA line: the servers' SEND_ETA replies added up and printed as fio's client prints them.
#include "fionet/client_eta.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>

#include "fionet/bytes.h"

namespace sluice::fionet {
namespace {

constexpr std::size_t kJobsEtaBytes = 168;
constexpr std::uint64_t kTagBase = 0x5e7a000000000000;  // ETA rounds' tags: apart from every other tag sent

}  // namespace

std::optional<JobsEta> decode_jobs_eta(const std::vector<std::uint8_t>& payload) {
  if (payload.size() < kJobsEtaBytes) return std::nullopt;
  const std::uint8_t* p = payload.data();
  JobsEta je;
  je.nr_running = get_u32(p, 0);
  je.nr_ramp = get_u32(p, 4);
  je.nr_pending = get_u32(p, 8);
  je.nr_setting_up = get_u32(p, 12);
  for (std::size_t d = 0; d < 3; ++d) {
    je.m_rate[d] = get_u64(p, 16 + 8 * d);
    je.t_rate[d] = get_u64(p, 40 + 8 * d);
    je.rate[d] = get_u64(p, 64 + 8 * d);
    je.m_iops[d] = get_u32(p, 88 + 4 * d);
    je.t_iops[d] = get_u32(p, 100 + 4 * d);
    je.iops[d] = get_u32(p, 112 + 4 * d);
  }
  je.elapsed_sec = get_u64(p, 128);
  je.eta_sec = get_u64(p, 136);
  je.is_pow2 = get_u32(p, 144);
  je.unit_base = get_u32(p, 148);
  je.sig_figs = get_u32(p, 152);
  je.files_open = get_u32(p, 156);
  je.nr_threads = get_u32(p, 160);
  je.run_str = std::string(get_text(p, kJobsEtaBytes, payload.size() - kJobsEtaBytes));
  return je;
}

void add_jobs_eta(JobsEta& sum, const JobsEta& reply) {
  sum.nr_running += reply.nr_running;
  sum.nr_ramp += reply.nr_ramp;
  sum.nr_pending += reply.nr_pending;
  sum.nr_setting_up += reply.nr_setting_up;
  sum.files_open += reply.files_open;
  for (int d = 0; d < 3; ++d) {
    sum.m_rate[d] += reply.m_rate[d];
    sum.t_rate[d] += reply.t_rate[d];
    sum.m_iops[d] += reply.m_iops[d];
    sum.t_iops[d] += reply.t_iops[d];
    sum.rate[d] += reply.rate[d];
    sum.iops[d] += reply.iops[d];
  }
  sum.elapsed_sec = std::max(sum.elapsed_sec, reply.elapsed_sec);
  // fio starts the sum at 0 and keeps the largest ETA; "unknown" (INT_MAX) is the largest, as in fio.
  sum.eta_sec = std::max(sum.eta_sec, reply.eta_sec);
  sum.nr_threads += reply.nr_threads;
  sum.run_str += reply.run_str;
}

std::string fio_num2str(std::uint64_t num, int maxlen, int base, bool pow2, int units) {
  static const char* const kSi[] = {"", "k", "M", "G", "T", "P", "E"};
  static const char* const kIec[] = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
  const char* const* prefix = pow2 ? kIec : kSi;
  const char* unit = units == 4 ? "B/s" : "";
  const unsigned thousand = pow2 ? 1024 : 1000;
  int post = 0;
  for (; base > 1; ++post) base /= static_cast<int>(thousand);
  constexpr int kPrefixes = 7;
  std::uint64_t modulo = UINT64_MAX;
  bool carry = false;
  while (post < kPrefixes) {
    if (static_cast<int>(std::to_string(num).size()) <= maxlen) break;
    modulo = num % thousand;
    num /= thousand;
    carry = modulo >= thousand / 2;
    ++post;
  }
  if (post >= kPrefixes) post = 0;
  if (modulo == UINT64_MAX) return fmt::format("{}{}{}", num, prefix[post], unit);
  const int digits = static_cast<int>(std::to_string(num).size());
  if (maxlen - digits <= 1) return fmt::format("{}{}{}", num + (carry ? 1 : 0), prefix[post], unit);
  // The decimals of modulo / thousand that fit, rounded; a rounding up to 1.0 carries into the number.
  std::string fraction =
      fmt::format("{:.{}f}", static_cast<double>(modulo) / static_cast<double>(thousand), maxlen - digits - 1);
  if (fraction[0] == '1') ++num;
  return fmt::format("{}.{}{}{}", num, fraction.substr(2), prefix[post], unit);
}

std::string fio_eta_text(std::uint64_t seconds) {
  const std::uint64_t s = seconds % 60, m = seconds / 60 % 60, h = seconds / 3600 % 24, d = seconds / 86400;
  std::string text;
  if (d) text += fmt::format("{:02}d:", d);
  if (h || d) text += fmt::format("{:02}h:", h);
  return text + fmt::format("{:02}m:{:02}s", m, s);
}

std::string format_eta_line(const JobsEta& je, bool& eta_good) {
  std::string line = fmt::format("Jobs: {} (f={})", je.nr_running, je.files_open);
  const std::uint64_t m_rate = je.m_rate[0] + je.m_rate[1] + je.m_rate[2];
  const std::uint64_t t_rate = je.t_rate[0] + je.t_rate[1] + je.t_rate[2];
  const std::uint64_t m_iops = std::uint64_t{je.m_iops[0]} + je.m_iops[1] + je.m_iops[2];
  const std::uint64_t t_iops = std::uint64_t{je.t_iops[0]} + je.t_iops[1] + je.t_iops[2];
  if (m_rate || t_rate) {
    const int figures = je.sig_figs != 0 ? static_cast<int>(je.sig_figs) : 4;
    line += fmt::format(", {}-{}", fio_num2str(m_rate, figures, 1, je.is_pow2 != 0, 4),
                        fio_num2str(t_rate, figures, 1, je.is_pow2 != 0, 4));
  } else if (m_iops || t_iops) {
    line += fmt::format(", {}-{} IOPS", m_iops, t_iops);
  }
  if (je.eta_sec == kEtaUnknown || je.nr_running == 0) return line;
  std::string percent = "-.-%";
  if (!((je.eta_sec == 0 && !eta_good) || je.nr_ramp == je.nr_running || je.eta_sec == UINT64_MAX)) {
    double fraction =
        je.elapsed_sec ? static_cast<double>(je.elapsed_sec) / static_cast<double>(je.elapsed_sec + je.eta_sec) : 0.0;
    double mult = 100.0;
    if (je.nr_setting_up && je.nr_running) mult *= 1.0 - static_cast<double>(je.nr_setting_up) / je.nr_running;
    eta_good = true;
    percent = fmt::format("{:3.1f}%", fraction * mult);
  }
  line += fmt::format(": [{}][{}]", je.run_str, percent);
  static constexpr char kDirection[3] = {'r', 'w', 't'};
  std::string rates, iops;
  for (int d = 0; d < 3; ++d) {
    if (!je.rate[d] && !je.iops[d]) continue;
    const char* separator = rates.empty() ? "" : ",";
    // fio's client formats the sum, whose is_pow2 and unit_base stay 0: SI prefixes, no unit ("r=4093k").
    rates += fmt::format("{}{}={}", separator, kDirection[d], fio_num2str(je.rate[d], 4, 1024, false, 0));
    iops += fmt::format("{}{}={}", separator, kDirection[d], fio_num2str(je.iops[d], 4, 1, false, 0));
  }
  if (!rates.empty()) line += fmt::format("[{}][{} IOPS]", rates, iops);
  return line + fmt::format("[eta {}]", je.eta_sec == UINT64_MAX ? "--" : fio_eta_text(je.eta_sec));
}

ClientEta::ClientEta(EtaMode mode, bool json, std::chrono::nanoseconds newline, std::FILE* out)
    : printing_(!json && (mode == EtaMode::kAlways || (mode == EtaMode::kAuto && ::isatty(::fileno(out)) == 1))),
      newline_(newline),
      out_(out) {}

std::uint64_t ClientEta::begin_round(std::size_t servers) {
  if (pending_ > 0 && replies_ > 0) print_round();
  ++tag_;
  pending_ = servers;
  replies_ = 0;
  sum_ = JobsEta{};
  return kTagBase + tag_;
}

void ClientEta::on_reply(std::uint64_t tag, const std::vector<std::uint8_t>& payload) {
  if (tag != kTagBase + tag_ || pending_ == 0) return;
  const auto je = decode_jobs_eta(payload);
  if (!je) return;
  add_jobs_eta(sum_, *je);
  ++replies_;
  if (--pending_ == 0) print_round();
}

void ClientEta::print_round() {
  pending_ = 0;
  if (!printing_ || replies_ == 0) return;
  std::string text;
  if (newline_pending_) {
    newline_pending_ = false;
    last_length_ = 0;
    text += '\n';
  }
  std::string line = format_eta_line(sum_, eta_good_);
  if (line.size() < last_length_) line.append(last_length_ - line.size(), ' ');  // covers a longer line's end
  last_length_ = line.size();
  text += line + '\r';
  std::fputs(text.c_str(), out_);
  std::fflush(out_);
  line_shown_ = true;
  const auto now = std::chrono::steady_clock::now();
  if (!last_newline_) {
    last_newline_ = now;
  } else if (newline_.count() > 0 && now - *last_newline_ > newline_) {
    last_newline_ = now;
    newline_pending_ = true;
  }
}

void ClientEta::end_line() {
  if (!line_shown_) return;
  std::fputc('\n', out_);
  std::fflush(out_);
  line_shown_ = false;
  last_length_ = 0;
  newline_pending_ = false;
}

}  // namespace sluice::fionet
