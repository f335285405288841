#pragma once
// fio's IOLOG message (fio 3.33's server.c fio_send_iolog, client.c fio_client_handle_iolog): a log a job wrote
// on the server, sent to the client instead of being written there. cmd_iolog_pdu (288 bytes: u64 nr_samples,
// u32 thread_number, log_type, compressed, log_offset, log_prio, log_hist_coarseness, name[256]) and then the
// samples: fio's binary struct io_sample (report/logs/fio_log_sample.h), plain, zlib-compressed for the
// transfer (XMIT_COMPRESSED, only to a client whose probe offered zlib) or as the job stored them
// (STORE_COMPRESSED, log_store_compressed). The client writes NAME.HOST: the text lines, or the stored bytes.
// A histogram log's samples are records of another layout (fionet/hist_log_pdu.h).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace sluice::fionet {

inline constexpr std::size_t kIoLogHeaderBytes = 288;

enum class IoLogType : std::uint32_t { kLat = 1, kClat = 2, kSlat = 3, kBw = 4, kIops = 5, kHist = 6 };
enum class IoLogCompression : std::uint32_t { kNone = 0, kTransfer = 1, kStored = 2 };

struct IoLog {
  std::string name;  // the log's file name on the server ("job_lat.1.log")
  std::uint32_t thread_number = 1;
  IoLogType type = IoLogType::kLat;
  IoLogCompression compression = IoLogCompression::kNone;
  std::uint64_t samples = 0;          // nr_samples (0 for a stored compressed log, as fio sends it)
  std::uint32_t hist_coarseness = 0;  // log_hist_coarseness of a histogram log (its client sums 2^N bins)
  std::vector<std::uint8_t> data;     // the samples' bytes, or the stored file's
};

std::vector<std::uint8_t> encode_iolog(const IoLog& log);
// nullopt when the payload is shorter than the header.
std::optional<IoLog> decode_iolog(const std::vector<std::uint8_t>& payload);

// fio's flush_samples: the text lines of binary samples ("time, value, ddir, bs[, offset], prio"); the
// first sample's flags say whether offsets follow and whether the priority is written as its value (hex) or
// as 1 for the realtime class. A trailing partial sample is left out.
std::string fio_log_text(const std::vector<std::uint8_t>& samples);

// fio's compression for the transfer (XMIT_COMPRESSED): the samples as one zlib stream, which the receiver
// inflates whole (fio's server deflates them in 1 KiB pieces of the same stream).
std::vector<std::uint8_t> deflate_for_transfer(const std::vector<std::uint8_t>& samples);
// The samples again; nullopt when the data is not a zlib stream. A stream cut short gives what inflated (fio
// 3.33's server sends its streams without their end; its client takes them so).
std::optional<std::vector<std::uint8_t>> inflate_transfer(const std::vector<std::uint8_t>& data);

// The binary samples of a text log sluice wrote (the lines fio_log_text gives back). nullopt, with the line
// number in `bad_line`, when a line is not such a line.
std::optional<std::vector<std::uint8_t>> samples_of_log_text(const std::string& text, std::size_t& bad_line,
                                                             std::uint64_t& count);

}  // namespace sluice::fionet
