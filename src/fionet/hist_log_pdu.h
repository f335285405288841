#pragma once
// The histogram log (write_hist_log) in fio's IOLOG message (log_type IO_LOG_TYPE_HIST). fio 3.33's client
// (client.c convert_iolog, client_flush_hist_samples) reads the samples as records of a binary io_sample (32
// bytes; its value field unused) followed by an io_u_plat_entry (a 16-byte list head, then 1856 u64 bins), in
// the transfer's zlib stream or plain, and prints each record as one line of the text log, its bins summed
// 2^log_hist_coarseness at a time (coarseness from the IOLOG header).
//
// What fio 3.33's server sends in it (server.c fio_send_iolog):
// - To a client that offered zlib, those records, but their bins are not the window's counts: it subtracts the
//   previous record's bins of the same direction in place and then subtracts the next record's from that
//   already-subtracted copy, so record k holds cumulative_k - sent_{k-1}. The window's counts are sent_k -
//   sent_{k-2} (undone here; fio's client prints the sums as they come, which grow window after window). The
//   stream also lacks its end (its last deflate output goes to a piece already sent).
// - To a client that did not, the 32-byte samples alone, their value field a pointer of the server: no bins.
// sluice's server sends each window's own counts, so either client prints the lines the job writes locally.
#include <cstdint>
#include <istream>
#include <optional>
#include <string>
#include <vector>

namespace sluice::fionet {

inline constexpr std::size_t kHistBins = 1856;                      // fio's FIO_IO_U_PLAT_NR
inline constexpr std::size_t kHistEntryBytes = 16 + kHistBins * 8;  // struct io_u_plat_entry
inline constexpr unsigned kMaxHistCoarseness = 6;                   // fio's log_hist_coarseness range: 0 to 6

// One line of the text log before coarseness: a window of one direction.
struct HistWindow {
  std::uint64_t time_ms = 0;
  std::uint32_t ddir = 0;
  std::uint64_t block_size = 0;
  std::vector<std::uint64_t> bins = std::vector<std::uint64_t>(kHistBins, 0);
};

// Appends one record (sample without the offset bit, then the entry with a zero list head) as fio's client
// reads it.
void append_hist_record(std::vector<std::uint8_t>& out, const HistWindow& window);

// The records of a histogram log sluice wrote, read line by line from `in` (`coarseness` as the job's
// log_hist_coarseness): each value is put in the first bin of the 2^coarseness it sums, so summing them again
// gives it back. deflated: the records as one zlib stream (fio's XMIT_COMPRESSED), deflated as they are made, so
// a long log is never held whole at 14.9 KB a window. nullopt with `bad_line` set when a line is not such a line
// (or has another number of values); with `bad_line` 0 when zlib fails.
std::optional<std::vector<std::uint8_t>> hist_records_of_log_text(std::istream& in, unsigned coarseness, bool deflated,
                                                                  std::size_t& bad_line, std::uint64_t& count);

struct HistLogText {
  std::string text;              // fio's lines, as flush_hist_samples writes them locally
  std::uint64_t lines = 0;       // records written
  std::uint64_t incomplete = 0;  // of the `announced` records, those not written (their sample did not arrive)
  std::size_t missing_bins = 0;  // the last record written lacks its highest bins: written as 0
  bool without_bins = false;     // the data is `announced` bare samples: fio 3.33's server without zlib
};

// The text log of received records. announced: the IOLOG header's nr_samples. fio_server_deltas: the records
// came from a fio 3.33 server, whose bins are undone to the window's counts (see above). A sample with the
// offset bit (log_offset) makes its record 8 bytes longer, as fio's server sends it. coarseness: at most
// kMaxHistCoarseness.
HistLogText hist_log_text_of_records(const std::vector<std::uint8_t>& data, std::uint64_t announced,
                                     unsigned coarseness, bool fio_server_deltas);

}  // namespace sluice::fionet
