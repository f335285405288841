// fio's IOLOG payload, and the conversion between its binary samples and the text lines of fio's logs.
#include "fionet/iolog_pdu.h"

#include <fmt/format.h>
#include <zlib.h>

#include <charconv>
#include <sstream>

#include "fionet/bytes.h"
#include "report/logs/fio_log_sample.h"

namespace sluice::fionet {
namespace {

constexpr std::size_t kHistCoarsenessAt = 28, kLogNameAt = 32, kLogNameBytes = 256;

// One field of a log line, decimal (or hex after 0x). False when it is not a number.
bool parse_field(std::string_view text, std::uint64_t& value, bool& hex) {
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  hex = text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
  if (hex) text.remove_prefix(2);
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value, hex ? 16 : 10);
  return ec == std::errc() && end == text.data() + text.size() && !text.empty();
}

}  // namespace

std::vector<std::uint8_t> encode_iolog(const IoLog& log) {
  std::vector<std::uint8_t> p(kIoLogHeaderBytes, 0);
  put_u64(p.data(), 0, log.samples);
  put_u32(p.data(), 8, log.thread_number);
  put_u32(p.data(), 12, static_cast<std::uint32_t>(log.type));
  put_u32(p.data(), 16, static_cast<std::uint32_t>(log.compression));
  // log_offset and log_prio stay 0, as fio's server leaves them (the samples' flag bits say it).
  put_u32(p.data(), kHistCoarsenessAt, log.hist_coarseness);
  put_text(p.data(), kLogNameAt, kLogNameBytes, log.name);
  p.insert(p.end(), log.data.begin(), log.data.end());
  return p;
}

std::optional<IoLog> decode_iolog(const std::vector<std::uint8_t>& payload) {
  if (payload.size() < kIoLogHeaderBytes) return std::nullopt;
  IoLog log;
  log.samples = get_u64(payload.data(), 0);
  log.thread_number = get_u32(payload.data(), 8);
  log.type = static_cast<IoLogType>(get_u32(payload.data(), 12));
  log.compression = static_cast<IoLogCompression>(get_u32(payload.data(), 16));
  log.hist_coarseness = get_u32(payload.data(), kHistCoarsenessAt);
  log.name = std::string(get_text(payload.data(), kLogNameAt, kLogNameBytes));
  log.data.assign(payload.begin() + kIoLogHeaderBytes, payload.end());
  return log;
}

std::vector<std::uint8_t> deflate_for_transfer(const std::vector<std::uint8_t>& samples) {
  uLongf size = compressBound(static_cast<uLong>(samples.size()));
  std::vector<std::uint8_t> out(size);
  if (compress2(out.data(), &size, samples.data(), static_cast<uLong>(samples.size()), Z_DEFAULT_COMPRESSION) != Z_OK) {
    return {};
  }
  out.resize(size);
  return out;
}

std::optional<std::vector<std::uint8_t>> inflate_transfer(const std::vector<std::uint8_t>& data) {
  z_stream stream{};
  if (inflateInit(&stream) != Z_OK) return std::nullopt;
  std::vector<std::uint8_t> out;
  std::vector<std::uint8_t> chunk(1 << 16);
  stream.next_in = const_cast<Bytef*>(data.data());
  stream.avail_in = static_cast<uInt>(data.size());
  int status = Z_OK;
  while (status == Z_OK) {
    stream.next_out = chunk.data();
    stream.avail_out = static_cast<uInt>(chunk.size());
    status = inflate(&stream, Z_NO_FLUSH);
    out.insert(out.end(), chunk.data(), chunk.data() + (chunk.size() - stream.avail_out));
    // The input ended before the stream's end: fio 3.33's server loses its last deflate output (it goes to a
    // piece already sent), so its streams end so; fio's client keeps what inflated, and so does this.
    if (status == Z_BUF_ERROR && stream.avail_in == 0) status = Z_STREAM_END;
  }
  inflateEnd(&stream);
  if (status != Z_STREAM_END) return std::nullopt;
  return out;
}

std::string fio_log_text(const std::vector<std::uint8_t>& samples) {
  namespace s = fio_sample;
  if (samples.size() < s::kBytes) return {};
  const std::uint32_t first_ddir = get_u32(samples.data(), s::kDdirAt);
  const bool with_offset = (first_ddir & s::kOffsetBit) != 0;
  const bool with_prio = (first_ddir & s::kPrioBit) != 0;
  const std::size_t size = with_offset ? s::kOffsetBytes : s::kBytes;
  std::string out;
  out.reserve(samples.size());
  for (std::size_t at = 0; at + size <= samples.size(); at += size) {
    const std::uint8_t* p = samples.data() + at;
    const std::uint32_t ddir = get_u32(p, s::kDdirAt) & ~(s::kOffsetBit | s::kPrioBit);
    const std::uint16_t priority = get_u16(p, s::kPrioAt);
    const bool realtime = (priority >> s::kPrioClassShift) == s::kPrioClassRealtime;
    const std::string prio = with_prio ? fmt::format("0x{:04x}", priority) : (realtime ? "1" : "0");
    if (with_offset) {
      out += fmt::format("{}, {}, {}, {}, {}, {}\n", get_u64(p, 0), static_cast<std::int64_t>(get_u64(p, 8)), ddir,
                         get_u64(p, s::kBlockSizeAt), get_u64(p, s::kOffsetAt), prio);
    } else {
      out += fmt::format("{}, {}, {}, {}, {}\n", get_u64(p, 0), static_cast<std::int64_t>(get_u64(p, 8)), ddir,
                         get_u64(p, s::kBlockSizeAt), prio);
    }
  }
  return out;
}

std::optional<std::vector<std::uint8_t>> samples_of_log_text(const std::string& text, std::size_t& bad_line,
                                                             std::uint64_t& count) {
  namespace s = fio_sample;
  std::vector<std::uint8_t> out;
  std::istringstream in(text);
  std::string line;
  count = 0;
  for (std::size_t number = 1; std::getline(in, line); ++number) {
    if (line.empty()) continue;
    std::vector<std::uint64_t> fields;
    bool last_hex = false;
    std::size_t start = 0;
    for (;;) {
      const std::size_t comma = line.find(',', start);
      std::uint64_t value = 0;
      if (!parse_field(std::string_view(line).substr(start, comma - start), value, last_hex)) {
        bad_line = number;
        return std::nullopt;
      }
      fields.push_back(value);
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
    if (fields.size() != 5 && fields.size() != 6) {
      bad_line = number;
      return std::nullopt;
    }
    const bool with_offset = fields.size() == 6;
    std::vector<std::uint8_t> sample(with_offset ? s::kOffsetBytes : s::kBytes, 0);
    std::uint8_t* p = sample.data();
    put_u64(p, 0, fields[0]);
    put_u64(p, 8, fields[1]);
    std::uint32_t ddir = static_cast<std::uint32_t>(fields[2]);
    if (with_offset) ddir |= s::kOffsetBit;
    if (last_hex) ddir |= s::kPrioBit;
    put_u32(p, s::kDdirAt, ddir);
    const std::uint64_t prio = fields.back();
    // Without log_prio the column says only "realtime class or not": the class alone is kept.
    put_u16(
        p, s::kPrioAt,
        static_cast<std::uint16_t>(last_hex ? prio : (prio != 0 ? s::kPrioClassRealtime << s::kPrioClassShift : 0)));
    put_u64(p, s::kBlockSizeAt, fields[3]);
    if (with_offset) put_u64(p, s::kOffsetAt, fields[4]);
    out.insert(out.end(), sample.begin(), sample.end());
    ++count;
  }
  return out;
}

}  // namespace sluice::fionet
