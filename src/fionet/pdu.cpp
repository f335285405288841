// The small payloads of fio's protocol, field by field at fio 3.33's offsets.
#include "fionet/pdu.h"

#include <algorithm>

#include "fionet/bytes.h"

namespace sluice::fionet {
namespace {
constexpr std::size_t kProbeReplyBytes = 112;  // hostname[64] be fio_version[32] os arch bpp, cpus@100, flags@104
constexpr std::size_t kProbeBytes = 136;       // flags u64, server[128]
constexpr std::size_t kTextHeader = 24;        // level, buf_len (u32), log_sec, log_usec (u64)
constexpr std::size_t kJobHeader = 8;          // buf_len, client_type (u32)
constexpr std::size_t kLineHeader = 4;         // lines, client_type (u16)
constexpr std::size_t kJobOptionBytes = 200;   // global, truncated (u16), groupid (u32), name[64], value[128]
constexpr std::size_t kEtaBytes = 168;
constexpr std::size_t kJobTextSlack = 2048;  // fio sends the file with room for its expansion (OPT_LEN_MAX)
}  // namespace

std::vector<std::uint8_t> encode_probe_reply(const ProbeReply& r) {
  std::vector<std::uint8_t> out(kProbeReplyBytes, 0);
  std::uint8_t* p = out.data();
  put_text(p, 0, 64, r.hostname);
  put_u8(p, 64, r.big_endian ? 1 : 0);
  put_text(p, 65, 32, r.fio_version);
  put_u8(p, 97, r.os);
  put_u8(p, 98, r.arch);
  put_u8(p, 99, r.bits_per_pointer_bytes);
  put_u32(p, 100, r.cpus);
  put_u64(p, 104, r.flags);
  return out;
}

std::optional<ProbeReply> decode_probe_reply(const std::vector<std::uint8_t>& payload) {
  if (payload.size() < kProbeReplyBytes) return std::nullopt;
  const std::uint8_t* p = payload.data();
  ProbeReply r;
  r.hostname = std::string(get_text(p, 0, 64));
  r.big_endian = p[64] != 0;
  r.fio_version = std::string(get_text(p, 65, 32));
  r.os = p[97];
  r.arch = p[98];
  r.bits_per_pointer_bytes = p[99];
  r.cpus = get_u32(p, 100);
  r.flags = get_u64(p, 104);
  return r;
}

std::vector<std::uint8_t> encode_probe(const std::string& server_name, bool offer_zlib) {
  std::vector<std::uint8_t> out(kProbeBytes, 0);
  // Without zlib offered (fio's client always offers it), fio 3.33's server sends logs plain, since its
  // compressed stream lacks its end (its final deflate output goes to a piece already sent) and may lose its last
  // few samples; but it sends a histogram log's bins only compressed, so the caller offers zlib for those.
  if (offer_zlib) put_u64(out.data(), 0, kProbeFlagZlib);
  put_text(out.data(), 8, 128, server_name);
  return out;
}

bool probe_offers_zlib(const std::vector<std::uint8_t>& payload) {
  return payload.size() >= 8 && (get_u64(payload.data(), 0) & kProbeFlagZlib) != 0;
}

std::vector<std::uint8_t> encode_start(std::uint32_t jobs, std::uint32_t stat_outputs) {
  std::vector<std::uint8_t> out(8, 0);
  put_u32(out.data(), 0, jobs);
  put_u32(out.data(), 4, stat_outputs);
  return out;
}

std::vector<std::uint8_t> encode_stop(std::uint32_t error, std::uint32_t signal) {
  std::vector<std::uint8_t> out(8, 0);
  put_u32(out.data(), 0, error);
  put_u32(out.data(), 4, signal);
  return out;
}

StopInfo decode_stop(const std::vector<std::uint8_t>& payload) {
  StopInfo s;
  if (payload.size() >= 8) {
    s.error = get_u32(payload.data(), 0);
    s.signal = get_u32(payload.data(), 4);
  }
  return s;
}

std::vector<std::uint8_t> encode_text(const std::string& text) {
  std::vector<std::uint8_t> out(kTextHeader + text.size() + 1, 0);
  put_u32(out.data(), 0, 6);  // fio's FIO_LOG_INFO
  put_u32(out.data(), 4, static_cast<std::uint32_t>(text.size()));
  std::copy(text.begin(), text.end(), out.begin() + kTextHeader);
  return out;
}

std::string decode_text(const std::vector<std::uint8_t>& payload) {
  if (payload.size() < kTextHeader) return {};
  const std::size_t len = std::min<std::size_t>(get_u32(payload.data(), 4), payload.size() - kTextHeader);
  return std::string(get_text(payload.data(), kTextHeader, len));
}

std::vector<std::uint8_t> encode_job_file(const std::string& text, std::uint32_t client_type) {
  const std::size_t length = text.size() + kJobTextSlack;
  std::vector<std::uint8_t> out(kJobHeader + length, 0);
  put_u32(out.data(), 0, static_cast<std::uint32_t>(length));
  put_u32(out.data(), 4, client_type);
  std::copy(text.begin(), text.end(), out.begin() + kJobHeader);
  return out;
}

std::string decode_job_file(const std::vector<std::uint8_t>& payload) {
  if (payload.size() < kJobHeader) return {};
  const std::size_t len = std::min<std::size_t>(get_u32(payload.data(), 0), payload.size() - kJobHeader);
  return std::string(get_text(payload.data(), kJobHeader, len));
}

std::vector<std::uint8_t> encode_job_line(const std::vector<std::string>& args, std::uint16_t client_type) {
  std::vector<std::uint8_t> out(kLineHeader, 0);
  put_u16(out.data(), 0, static_cast<std::uint16_t>(args.size()));
  put_u16(out.data(), 2, client_type);
  for (const std::string& a : args) {
    const std::size_t at = out.size();
    out.resize(at + 2 + a.size() + 1, 0);
    put_u16(out.data(), at, static_cast<std::uint16_t>(a.size() + 1));
    std::copy(a.begin(), a.end(), out.begin() + static_cast<std::ptrdiff_t>(at + 2));
  }
  return out;
}

std::optional<std::vector<std::string>> decode_job_line(const std::vector<std::uint8_t>& payload) {
  if (payload.size() < kLineHeader) return std::nullopt;
  const std::size_t lines = get_u16(payload.data(), 0);
  std::vector<std::string> args;
  std::size_t at = kLineHeader;
  for (std::size_t i = 0; i < lines; ++i) {
    if (at + 2 > payload.size()) return std::nullopt;
    const std::size_t len = get_u16(payload.data(), at);
    if (at + 2 + len > payload.size()) return std::nullopt;
    args.emplace_back(get_text(payload.data(), at + 2, len));
    at += 2 + len;
  }
  return args;
}

std::vector<std::uint8_t> encode_load_file(const std::string& path, std::uint16_t client_type) {
  std::vector<std::uint8_t> out(4 + path.size() + 1, 0);
  put_u16(out.data(), 0, static_cast<std::uint16_t>(path.size()));
  put_u16(out.data(), 2, client_type);
  std::copy(path.begin(), path.end(), out.begin() + 4);
  return out;
}

std::optional<std::string> decode_load_file(const std::vector<std::uint8_t>& payload) {
  if (payload.size() < 5) return std::nullopt;
  return std::string(get_text(payload.data(), 4, payload.size() - 4));
}

std::vector<std::uint8_t> encode_job_option(const std::string& name, const std::string& value, bool global,
                                            std::uint32_t index) {
  std::vector<std::uint8_t> out(kJobOptionBytes, 0);
  put_u16(out.data(), 0, global ? 1 : 0);
  put_u16(out.data(), 2, value.size() >= 128 ? 1 : 0);
  put_u32(out.data(), 4, index);
  put_text(out.data(), 8, 64, name);
  put_text(out.data(), 72, 128, value);
  return out;
}

std::vector<std::uint8_t> encode_eta(const EtaInfo& eta) {
  std::vector<std::uint8_t> out(kEtaBytes + eta.run_str.size() + 8, 0);  // run_str, NUL-terminated
  put_u32(out.data(), 0, eta.running);
  put_u32(out.data(), 160, static_cast<std::uint32_t>(eta.run_str.size()));  // nr_threads
  std::copy(eta.run_str.begin(), eta.run_str.end(), out.begin() + kEtaBytes);
  for (int d = 0; d < 3; ++d) {
    put_u64(out.data(), 64 + 8 * static_cast<std::size_t>(d), eta.rate_kib_s[d]);  // rate[]: KiB/s
    put_u32(out.data(), 112 + 4 * static_cast<std::size_t>(d), eta.iops[d]);
    put_u64(out.data(), 16 + 8 * static_cast<std::size_t>(d), eta.rate_min[d]);     // m_rate
    put_u64(out.data(), 40 + 8 * static_cast<std::size_t>(d), eta.rate_limit[d]);   // t_rate
    put_u32(out.data(), 88 + 4 * static_cast<std::size_t>(d), eta.iops_min[d]);     // m_iops
    put_u32(out.data(), 100 + 4 * static_cast<std::size_t>(d), eta.iops_limit[d]);  // t_iops
  }
  put_u32(out.data(), 156, eta.files_open);
  put_u64(out.data(), 128, eta.elapsed_s);
  put_u64(out.data(), 136, eta.eta_s);
  put_u32(out.data(), 152, 4);  // sig_figs
  return out;
}

}  // namespace sluice::fionet
