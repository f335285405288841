#include "report/logs/log_inflate.h"

#include <fmt/format.h>
#include <zlib.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <vector>

#include "common/error.h"
#include "report/logs/fio_log_sample.h"

namespace sluice {
namespace {

std::uint64_t get_le(const unsigned char* p, std::size_t bytes) noexcept {
  std::uint64_t v = 0;
  for (std::size_t i = 0; i < bytes; ++i) v |= static_cast<std::uint64_t>(p[i]) << (8 * i);
  return v;
}

// One zlib stream from `in` (at most `size` bytes) into `out`; returns the bytes of `in` it used.
std::size_t inflate_stream(const std::string& path, const unsigned char* in, std::size_t size,
                           std::vector<unsigned char>& out) {
  z_stream stream{};
  if (inflateInit2(&stream, 15 + 32) != Z_OK) throw UserError("--inflate-log: zlib cannot start");
  stream.next_in = const_cast<Bytef*>(in);
  stream.avail_in = static_cast<uInt>(size);
  unsigned char chunk[1 << 16];
  int rc = Z_OK;
  while (rc != Z_STREAM_END) {
    stream.next_out = chunk;
    stream.avail_out = sizeof chunk;
    rc = inflate(&stream, Z_NO_FLUSH);
    if (rc != Z_OK && rc != Z_STREAM_END) {
      inflateEnd(&stream);
      throw UserError(fmt::format("--inflate-log={}: not a compressed fio log (zlib: {}) at byte {}", path,
                                  rc == Z_BUF_ERROR ? "the data ends inside a stream" : zError(rc),
                                  size - stream.avail_in));
    }
    out.insert(out.end(), chunk, chunk + (sizeof chunk - stream.avail_out));
  }
  const std::size_t used = size - stream.avail_in;
  inflateEnd(&stream);
  return used;
}

// fio's flush_samples: the first sample's ddir says whether the samples carry an offset and a priority.
void print_samples(const std::string& path, const std::vector<unsigned char>& samples, std::FILE* out) {
  if (samples.empty()) return;
  const std::uint32_t first_ddir = static_cast<std::uint32_t>(get_le(samples.data() + fio_sample::kDdirAt, 4));
  const bool with_offset = (first_ddir & fio_sample::kOffsetBit) != 0;
  const bool with_prio = (first_ddir & fio_sample::kPrioBit) != 0;
  const std::size_t step = with_offset ? fio_sample::kOffsetBytes : fio_sample::kBytes;
  if (samples.size() % step != 0) {
    throw UserError(fmt::format("--inflate-log={}: a stream of {} bytes is not a whole number of {}-byte samples", path,
                                samples.size(), step));
  }
  std::string text;
  for (std::size_t at = 0; at < samples.size(); at += step) {
    const unsigned char* s = samples.data() + at;
    const auto ddir = static_cast<std::uint32_t>(get_le(s + fio_sample::kDdirAt, 4)) &
                      ~(fio_sample::kOffsetBit | fio_sample::kPrioBit);
    const auto prio = static_cast<unsigned>(get_le(s + fio_sample::kPrioAt, 2));
    fmt::format_to(std::back_inserter(text), "{}, {}, {}, {}, ", get_le(s, 8),
                   static_cast<std::int64_t>(get_le(s + 8, 8)), ddir, get_le(s + fio_sample::kBlockSizeAt, 8));
    if (with_offset) fmt::format_to(std::back_inserter(text), "{}, ", get_le(s + fio_sample::kOffsetAt, 8));
    if (with_prio)
      fmt::format_to(std::back_inserter(text), "0x{:04x}\n", prio);
    else
      fmt::format_to(std::back_inserter(text), "{}\n",
                     (prio >> fio_sample::kPrioClassShift) == fio_sample::kPrioClassRealtime ? 1 : 0);
  }
  std::fwrite(text.data(), 1, text.size(), out);
}

}  // namespace

void inflate_fio_log(const std::string& path, std::FILE* out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UserError(fmt::format("--inflate-log={}: cannot open: {}", path, std::strerror(errno)));
  const std::vector<unsigned char> data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::size_t at = 0;
  std::vector<unsigned char> samples;
  while (at < data.size()) {
    samples.clear();
    at += inflate_stream(path, data.data() + at, data.size() - at, samples);
    print_samples(path, samples, out);
  }
  std::fflush(out);
}

}  // namespace sluice
