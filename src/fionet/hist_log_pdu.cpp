// fio's histogram records of IOLOG, from sluice's text histogram log and back to fio's text lines.
#include "fionet/hist_log_pdu.h"

#include <fmt/format.h>
#include <zlib.h>

#include <algorithm>
#include <charconv>
#include <map>
#include <string>
#include <string_view>

#include "fionet/bytes.h"
#include "report/logs/fio_log_sample.h"

namespace sluice::fionet {
namespace {

// One decimal field of a histogram line (spaces before it allowed). False when it is not a number.
bool parse_hist_field(std::string_view text, std::uint64_t& value) {
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  return ec == std::errc() && end == text.data() + text.size() && !text.empty();
}

// Bins as fio's client prints them: each value the sum of `stride` neighbouring bins (fio's hist_sum).
void append_hist_line(std::string& out, std::uint64_t time_ms, std::uint32_t ddir, std::uint64_t block_size,
                      const std::vector<std::uint64_t>& bins, std::size_t stride) {
  fmt::format_to(std::back_inserter(out), "{}, {}, {}", time_ms, ddir, block_size);
  for (std::size_t group = 0; group < kHistBins; group += stride) {
    std::uint64_t sum = 0;
    for (std::size_t b = group; b < group + stride && b < kHistBins; ++b) sum += bins[b];
    fmt::format_to(std::back_inserter(out), ", {}", sum);
  }
  out += '\n';
}

// One zlib stream made piece by piece (deflate_for_transfer's, without holding its input whole).
class RecordDeflater {
 public:
  RecordDeflater() = default;
  RecordDeflater(const RecordDeflater&) = delete;
  RecordDeflater& operator=(const RecordDeflater&) = delete;
  ~RecordDeflater() {
    if (started_) deflateEnd(&stream_);
  }
  bool start() { return started_ = deflateInit(&stream_, Z_DEFAULT_COMPRESSION) == Z_OK; }
  // Deflates `input` onto `out` (flush: Z_NO_FLUSH, or Z_FINISH for the stream's end). False on a zlib error.
  bool add(const std::vector<std::uint8_t>& input, int flush, std::vector<std::uint8_t>& out) {
    constexpr std::size_t kChunk = 64 * 1024;
    stream_.next_in = const_cast<Bytef*>(input.data());
    stream_.avail_in = static_cast<uInt>(input.size());
    int status = Z_OK;
    do {
      const std::size_t at = out.size();
      out.resize(at + kChunk);
      stream_.next_out = out.data() + at;
      stream_.avail_out = static_cast<uInt>(kChunk);
      status = deflate(&stream_, flush);
      out.resize(at + kChunk - stream_.avail_out);
    } while (status == Z_OK && (flush == Z_FINISH || stream_.avail_out == 0));
    return flush == Z_FINISH ? status == Z_STREAM_END : status == Z_OK || status == Z_BUF_ERROR;
  }

 private:
  z_stream stream_{};
  bool started_ = false;
};

// The last two records of one direction as a fio 3.33 server sent them.
struct SentBefore {
  std::vector<std::uint64_t> last = std::vector<std::uint64_t>(kHistBins, 0);
  std::vector<std::uint64_t> before_last = std::vector<std::uint64_t>(kHistBins, 0);
};

}  // namespace

void append_hist_record(std::vector<std::uint8_t>& out, const HistWindow& window) {
  namespace s = fio_sample;
  const std::size_t at = out.size();
  out.resize(at + s::kBytes + kHistEntryBytes, 0);
  std::uint8_t* p = out.data() + at;
  put_u64(p, 0, window.time_ms);
  put_u32(p, s::kDdirAt, window.ddir);
  put_u64(p, s::kBlockSizeAt, window.block_size);
  std::uint8_t* bins = p + s::kBytes + 16;  // after the entry's list head, which fio's client overwrites
  for (std::size_t b = 0; b < kHistBins && b < window.bins.size(); ++b) put_u64(bins, 8 * b, window.bins[b]);
}

std::optional<std::vector<std::uint8_t>> hist_records_of_log_text(std::istream& in, unsigned coarseness, bool deflated,
                                                                  std::size_t& bad_line, std::uint64_t& count) {
  const std::size_t stride = std::size_t{1} << coarseness;
  const std::size_t values = (kHistBins + stride - 1) / stride;
  std::vector<std::uint8_t> out, record;
  RecordDeflater deflater;
  bad_line = 0;
  if (deflated && !deflater.start()) return std::nullopt;
  std::string line;
  HistWindow window;
  count = 0;
  for (std::size_t number = 1; std::getline(in, line); ++number) {
    if (line.empty()) continue;
    std::fill(window.bins.begin(), window.bins.end(), 0);
    std::size_t field = 0, start = 0;
    for (;; ++field) {
      const std::size_t comma = line.find(',', start);
      std::uint64_t value = 0;
      if (field >= 3 + values || !parse_hist_field(std::string_view(line).substr(start, comma - start), value)) {
        bad_line = number;
        return std::nullopt;
      }
      if (field == 0) window.time_ms = value;
      if (field == 1) window.ddir = static_cast<std::uint32_t>(value);
      if (field == 2) window.block_size = value;
      if (field >= 3) window.bins[(field - 3) * stride] = value;
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
    if (field + 1 != 3 + values) {
      bad_line = number;
      return std::nullopt;
    }
    if (!deflated) {
      append_hist_record(out, window);
    } else {
      record.clear();
      append_hist_record(record, window);
      if (!deflater.add(record, Z_NO_FLUSH, out)) return std::nullopt;
    }
    ++count;
  }
  if (deflated && !deflater.add({}, Z_FINISH, out)) return std::nullopt;
  return out;
}

HistLogText hist_log_text_of_records(const std::vector<std::uint8_t>& data, std::uint64_t announced,
                                     unsigned coarseness, bool fio_server_deltas) {
  namespace s = fio_sample;
  HistLogText result;
  if (announced == 0 || data.size() < s::kBytes) {
    result.incomplete = announced;
    return result;
  }
  const bool with_offset = (get_u32(data.data(), s::kDdirAt) & s::kOffsetBit) != 0;
  const std::size_t sample_bytes = with_offset ? s::kOffsetBytes : s::kBytes;
  const std::size_t record_bytes = sample_bytes + kHistEntryBytes;
  if (data.size() == announced * sample_bytes) {
    result.without_bins = true;
    return result;
  }
  // Whole records, then one cut in its bins (fio's stream ends early by up to a deflate match: 258 bytes).
  const std::uint64_t whole = std::min<std::uint64_t>(announced, data.size() / record_bytes);
  const std::size_t rest = data.size() - static_cast<std::size_t>(whole) * record_bytes;
  const bool cut_record = whole < announced && rest >= sample_bytes + 16;
  const std::uint64_t records = whole + (cut_record ? 1 : 0);
  result.incomplete = announced - records;
  if (cut_record) result.missing_bins = kHistBins - (rest - sample_bytes - 16) / 8;
  const std::size_t stride = std::size_t{1} << coarseness;
  std::map<std::uint32_t, SentBefore> sent;  // by direction
  std::vector<std::uint64_t> bins(kHistBins), window(kHistBins);
  result.text.reserve(static_cast<std::size_t>(records) * (kHistBins / stride) * 3);
  for (std::uint64_t i = 0; i < records; ++i) {
    const std::uint8_t* p = data.data() + i * record_bytes;
    const std::uint32_t ddir = get_u32(p, s::kDdirAt) & ~(s::kOffsetBit | s::kPrioBit);
    const std::uint8_t* wire_bins = p + sample_bytes + 16;
    const std::size_t present = i < whole ? kHistBins : kHistBins - result.missing_bins;
    for (std::size_t b = 0; b < kHistBins; ++b) bins[b] = b < present ? get_u64(wire_bins, 8 * b) : 0;
    if (fio_server_deltas) {
      // The window's counts: sent_k - sent_{k-2}; then sent_{k-1} becomes the one before the last.
      SentBefore& before = sent[ddir];
      for (std::size_t b = 0; b < kHistBins; ++b) {
        window[b] = bins[b] >= before.before_last[b] ? bins[b] - before.before_last[b] : 0;
      }
      std::swap(before.before_last, before.last);
      before.last = bins;
      append_hist_line(result.text, get_u64(p, 0), ddir, get_u64(p, s::kBlockSizeAt), window, stride);
    } else {
      append_hist_line(result.text, get_u64(p, 0), ddir, get_u64(p, s::kBlockSizeAt), bins, stride);
    }
    ++result.lines;
  }
  return result;
}

}  // namespace sluice::fionet
