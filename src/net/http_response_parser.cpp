// The strict HTTP/1.1 response framing of HttpResponseParser.
#include "net/http_response_parser.h"

#include <algorithm>
#include <cstring>

namespace sluice {
namespace {

constexpr std::size_t kMaxLine = 16 * 1024;
constexpr std::uint32_t kMaxHeaders = 128;

bool is_tchar(char c) {
  if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) return true;
  return std::strchr("!#$%&'*+-.^_`|~", c) != nullptr && c != '\0';
}

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const char x = a[i] >= 'A' && a[i] <= 'Z' ? static_cast<char>(a[i] + 32) : a[i];
    const char y = b[i] >= 'A' && b[i] <= 'Z' ? static_cast<char>(b[i] + 32) : b[i];
    if (x != y) return false;
  }
  return true;
}

std::string_view trim_ows(std::string_view v) {
  while (!v.empty() && (v.front() == ' ' || v.front() == '\t')) v.remove_prefix(1);
  while (!v.empty() && (v.back() == ' ' || v.back() == '\t')) v.remove_suffix(1);
  return v;
}

// True when the comma list `value` holds `token` (case-insensitive).
bool list_has(std::string_view value, std::string_view token) {
  while (!value.empty()) {
    const std::size_t comma = value.find(',');
    if (iequals(trim_ows(value.substr(0, comma)), token)) return true;
    if (comma == std::string_view::npos) break;
    value.remove_prefix(comma + 1);
  }
  return false;
}

// The last element of a comma list.
std::string_view last_of(std::string_view value) {
  const std::size_t comma = value.rfind(',');
  return trim_ows(comma == std::string_view::npos ? value : value.substr(comma + 1));
}

bool parse_decimal(std::string_view v, std::uint64_t& out) {
  if (v.empty() || v.size() > 18) return false;
  out = 0;
  for (char c : v) {
    if (c < '0' || c > '9') return false;
    out = out * 10 + static_cast<std::uint64_t>(c - '0');
  }
  return true;
}

}  // namespace

void HttpResponseParser::reset(bool head_request) noexcept {
  state_ = State::kStatusLine;
  line_.clear();
  error_.clear();
  head_request_ = head_request;
  keep_alive_ = true;
  chunked_ = false;
  has_length_ = false;
  http10_ = false;
  status_ = 0;
  header_count_ = 0;
  content_length_ = 0;
  remaining_ = 0;
  body_bytes_ = 0;
  received_ = 0;
}

void HttpResponseParser::fail(std::string why) {
  state_ = State::kFailed;
  error_ = std::move(why);
  keep_alive_ = false;
}

// A CRLF-terminated line from [p, end) (joined with what earlier reads left in line_), without the CRLF.
// False when the line is not complete yet (its start is kept) or too long (failed).
bool HttpResponseParser::take_line(const char*& p, const char* end, std::string_view& line) {
  const char* nl = static_cast<const char*>(std::memchr(p, '\n', static_cast<std::size_t>(end - p)));
  if (nl == nullptr) {
    line_.append(p, end);
    p = end;
    if (line_.size() > kMaxLine) fail("a line longer than 16 KiB");
    return false;
  }
  const char* start = p;
  p = nl + 1;
  if (line_.empty()) {
    line = std::string_view(start, static_cast<std::size_t>(nl - start));
  } else {
    line_.append(start, nl);
    line = line_;
  }
  if (line.size() > kMaxLine) return fail("a line longer than 16 KiB"), false;
  if (line.empty() || line.back() != '\r') return fail("a line not ended by CRLF"), false;
  line.remove_suffix(1);
  return true;
}

std::size_t HttpResponseParser::feed(const char* data, std::size_t size) {
  const char* p = data;
  const char* end = data + size;
  while (p < end && state_ != State::kDone && state_ != State::kFailed) {
    switch (state_) {
      case State::kBody:
      case State::kChunkData: {
        const std::uint64_t n = std::min<std::uint64_t>(remaining_, static_cast<std::uint64_t>(end - p));
        p += n;
        remaining_ -= n;
        body_bytes_ += n;
        if (remaining_ == 0) state_ = state_ == State::kBody ? State::kDone : State::kChunkEnd;
        break;
      }
      case State::kUntilClose:
        body_bytes_ += static_cast<std::uint64_t>(end - p);
        p = end;
        break;
      default: {
        std::string_view line;
        if (!take_line(p, end, line)) break;
        if (state_ == State::kStatusLine) {
          on_status_line(line);
        } else if (state_ == State::kHeaders) {
          line.empty() ? on_headers_end() : on_header_line(line);
        } else if (state_ == State::kChunkSize) {
          on_chunk_size_line(line);
        } else if (state_ == State::kChunkEnd) {
          if (line.empty()) {
            state_ = State::kChunkSize;
          } else {
            fail("chunk data longer than its size");
          }
        } else if (state_ == State::kTrailers && line.empty()) {
          state_ = State::kDone;
        }
        line_.clear();
        break;
      }
    }
  }
  const std::size_t used = static_cast<std::size_t>(p - data);
  received_ += used;
  return used;
}

void HttpResponseParser::on_status_line(std::string_view line) {
  // HTTP-version SP 3DIGIT SP reason-phrase (the reason may be empty, the SP before it may not be missing).
  if (line.size() < 12 || line.substr(0, 5) != "HTTP/" || line[5] != '1' || line[6] != '.' ||
      (line[7] != '0' && line[7] != '1') || line[8] != ' ' || (line.size() > 12 && line[12] != ' ')) {
    return fail("not an HTTP/1.x status line");
  }
  int code = 0;
  for (std::size_t i = 9; i < 12; ++i) {
    if (line[i] < '0' || line[i] > '9') return fail("a status code that is not 3 digits");
    code = code * 10 + (line[i] - '0');
  }
  if (code < 100 || code > 599) return fail("a status code outside 100..599");
  status_ = code;
  http10_ = line[7] == '0';
  keep_alive_ = !http10_;
  state_ = State::kHeaders;
}

void HttpResponseParser::on_header_line(std::string_view line) {
  if (++header_count_ > kMaxHeaders) return fail("more than 128 header fields");
  const std::size_t colon = line.find(':');
  if (colon == std::string_view::npos || colon == 0) return fail("a header line without a field name and colon");
  const std::string_view name = line.substr(0, colon);
  if (!std::all_of(name.begin(), name.end(), is_tchar)) return fail("a header field name with invalid characters");
  const std::string_view value = trim_ows(line.substr(colon + 1));
  if (iequals(name, "content-length")) {
    std::uint64_t length = 0;
    if (!parse_decimal(value, length)) return fail("a Content-Length that is not a decimal number");
    if (has_length_ && length != content_length_) return fail("two different Content-Length values");
    has_length_ = true;
    content_length_ = length;
  } else if (iequals(name, "transfer-encoding")) {
    if (http10_) return fail("Transfer-Encoding in an HTTP/1.0 response");
    if (!iequals(last_of(value), "chunked")) return fail("a Transfer-Encoding whose last coding is not chunked");
    chunked_ = true;
  } else if (iequals(name, "connection")) {
    if (list_has(value, "close")) keep_alive_ = false;
    if (http10_ && list_has(value, "keep-alive")) keep_alive_ = true;
  }
}

void HttpResponseParser::on_headers_end() {
  if (status_ < 200) {  // 1xx: an interim response; the final one follows
    const bool head = head_request_;
    const std::uint64_t received = received_;
    reset(head);
    received_ = received;
    return;
  }
  if (head_request_ || status_ == 204 || status_ == 304) {
    state_ = State::kDone;
  } else if (chunked_) {
    if (has_length_) return fail("both Transfer-Encoding and Content-Length");
    state_ = State::kChunkSize;
  } else if (has_length_) {
    remaining_ = content_length_;
    state_ = remaining_ == 0 ? State::kDone : State::kBody;
  } else {
    keep_alive_ = false;  // the body ends when the server closes
    state_ = State::kUntilClose;
  }
}

void HttpResponseParser::on_chunk_size_line(std::string_view line) {
  const std::size_t semi = line.find(';');
  const std::string_view digits = trim_ows(line.substr(0, semi));
  if (digits.empty() || digits.size() > 15) return fail("a chunk size that is not a hex number");
  std::uint64_t size = 0;
  for (char c : digits) {
    int v = -1;
    if (c >= '0' && c <= '9') v = c - '0';
    if (c >= 'a' && c <= 'f') v = c - 'a' + 10;
    if (c >= 'A' && c <= 'F') v = c - 'A' + 10;
    if (v < 0) return fail("a chunk size that is not a hex number");
    size = size * 16 + static_cast<std::uint64_t>(v);
  }
  remaining_ = size;
  state_ = size == 0 ? State::kTrailers : State::kChunkData;
}

void HttpResponseParser::finish_on_close() {
  keep_alive_ = false;
  if (state_ == State::kUntilClose) {
    state_ = State::kDone;
  } else if (state_ == State::kStatusLine && line_.empty()) {
    fail("the server closed the connection before responding");
  } else if (state_ != State::kDone && state_ != State::kFailed) {
    fail(state_ == State::kStatusLine || state_ == State::kHeaders ? "the server closed the connection mid-header"
                                                                   : "the server closed the connection mid-body");
  }
}

}  // namespace sluice
