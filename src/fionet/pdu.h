#pragma once
// The small payloads of fio 3.33's protocol (server.h): probe and its reply, start, stop, text, job file,
// command line, job option, ETA. Encoders and decoders, field by field (fionet/bytes.h).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace sluice::fionet {

// cmd_probe_reply_pdu (112 bytes): what a server says about itself.
struct ProbeReply {
  std::string hostname;  // at most 63 characters
  bool big_endian = false;
  std::string fio_version;  // at most 31 characters ("fio-3.33"; sluice says "sluice-VERSION")
  std::uint8_t os = 1;      // fio's os_linux
  std::uint8_t arch = 0;    // fio's arch_x86_64 = 1, arch_aarch64 = 13
  std::uint8_t bits_per_pointer_bytes = 8;
  std::uint32_t cpus = 0;
  std::uint64_t flags = 0;  // kProbeFlagZlib: logs go compressed for the transfer (the client offered it)
};
inline constexpr std::uint64_t kProbeFlagZlib = 1;  // fio's FIO_PROBE_FLAG_ZLIB, in the probe and its reply
// Whether a client's probe (cmd_client_probe_pdu) offers zlib-compressed logs.
bool probe_offers_zlib(const std::vector<std::uint8_t>& payload);
std::vector<std::uint8_t> encode_probe_reply(const ProbeReply& reply);
std::optional<ProbeReply> decode_probe_reply(const std::vector<std::uint8_t>& payload);
// The probe a client sends (cmd_client_probe_pdu, 136 bytes): flags (zlib only when offered: see pdu.cpp) and
// the server's name as the client knows it.
std::vector<std::uint8_t> encode_probe(const std::string& server_name, bool offer_zlib = false);

// cmd_start_pdu: jobs the server parsed and statistics (TS messages) it will send for them.
std::vector<std::uint8_t> encode_start(std::uint32_t jobs, std::uint32_t stat_outputs);
// cmd_end_pdu: the error (an errno) and signal the server's run ended with.
std::vector<std::uint8_t> encode_stop(std::uint32_t error, std::uint32_t signal);
struct StopInfo {
  std::uint32_t error = 0;
  std::uint32_t signal = 0;
};
StopInfo decode_stop(const std::vector<std::uint8_t>& payload);

// cmd_text_pdu: one piece of the server's output (fio's client prefixes each line with "<host> ").
std::vector<std::uint8_t> encode_text(const std::string& text);
std::string decode_text(const std::vector<std::uint8_t>& payload);

// cmd_job_pdu: a job file's text (fio pads the buffer and ends the text with NUL).
std::vector<std::uint8_t> encode_job_file(const std::string& text, std::uint32_t client_type);
std::string decode_job_file(const std::vector<std::uint8_t>& payload);

// cmd_line_pdu: the client's command-line arguments for this server (argv[0] is "fio").
std::vector<std::uint8_t> encode_job_line(const std::vector<std::string>& args, std::uint16_t client_type);
std::optional<std::vector<std::string>> decode_job_line(const std::vector<std::uint8_t>& payload);

// cmd_load_file_pdu: the path of a job file on the server (--remote-config).
std::vector<std::uint8_t> encode_load_file(const std::string& path, std::uint16_t client_type);
std::optional<std::string> decode_load_file(const std::vector<std::uint8_t>& payload);

// cmd_job_option (200 bytes): one option of a reported job (global: of the global section) for the JSON.
std::vector<std::uint8_t> encode_job_option(const std::string& name, const std::string& value, bool global,
                                            std::uint32_t index);

// struct jobs_eta (168 bytes plus run_str): what a running server reports when asked (SEND_ETA).
struct EtaInfo {
  std::uint32_t running = 0;
  std::uint64_t elapsed_s = 0;
  std::uint64_t eta_s = 0x7fffffff;  // fio's INT_MAX: unknown (fio's client then shows no percentage)
  std::string run_str;               // one character per job clone, as fio's ("R": running)
  // The rates since the previous sample, per direction (read, write, trim), as fio's ETA line shows them.
  std::uint64_t rate_kib_s[3] = {0, 0, 0};
  std::uint32_t iops[3] = {0, 0, 0};
  std::uint32_t files_open = 0;
  // The jobs' limits, per direction: rate and rate_min in bytes/s, rate_iops and rate_iops_min (fio's t_rate,
  // m_rate, t_iops, m_iops; its line shows them as "MIN-MAX" after the job count).
  std::uint64_t rate_limit[3] = {0, 0, 0};
  std::uint64_t rate_min[3] = {0, 0, 0};
  std::uint32_t iops_limit[3] = {0, 0, 0};
  std::uint32_t iops_min[3] = {0, 0, 0};
};
std::vector<std::uint8_t> encode_eta(const EtaInfo& eta);

}  // namespace sluice::fionet
