#pragma once
// HttpResponseParser: an incremental, strict HTTP/1.1 response parser (RFC 9112) for a load client. It
// reads the status line and headers, then frames the body by Transfer-Encoding: chunked, Content-Length,
// or the connection's close, and counts the body bytes without keeping them. 1xx interim responses are
// skipped. Anything outside the grammar (a bad status line, a header without a colon, a non-numeric or
// conflicting Content-Length, a bad chunk size, lines over 16 KiB, over 128 headers) fails the response
// with a reason; nothing is guessed. Why not a library: Debian ships http-parser 2.9 (archived upstream
// since 2022) and not llhttp or picohttpparser; a load client needs only this framing subset.
//
// Per response no allocation once the line buffer has grown to the longest header line seen.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace sluice {

class HttpResponseParser {
 public:
  // Prepares for the next response; `head_request` is true when the request was HEAD (no body follows).
  void reset(bool head_request) noexcept;

  // Consumes bytes of the response; returns how many were used: all of them, or fewer when the response
  // ended (done()) or failed (failed()) inside `data`. Bytes after the end belong to no request of ours.
  std::size_t feed(const char* data, std::size_t size);

  // The server closed the connection: completes a body delimited by the close, else fails the response
  // ("closed before the status line", "closed mid-body").
  void finish_on_close();

  bool done() const noexcept { return state_ == State::kDone; }
  bool failed() const noexcept { return state_ == State::kFailed; }
  bool started() const noexcept { return received_ > 0; }  // any byte of the response arrived
  const std::string& error() const noexcept { return error_; }

  int status() const noexcept { return status_; }
  // The connection may carry another request after this response (HTTP/1.1 without "Connection: close",
  // or HTTP/1.0 with "Connection: keep-alive"), and the body was not delimited by the close.
  bool keep_alive() const noexcept { return keep_alive_; }
  std::uint64_t body_bytes() const noexcept { return body_bytes_; }
  std::uint64_t received_bytes() const noexcept { return received_; }  // headers, framing and body

 private:
  enum class State {
    kStatusLine,
    kHeaders,
    kBody,
    kUntilClose,
    kChunkSize,
    kChunkData,
    kChunkEnd,
    kTrailers,
    kDone,
    kFailed
  };

  bool take_line(const char*& p, const char* end, std::string_view& line);
  void fail(std::string why);
  void on_status_line(std::string_view line);
  void on_header_line(std::string_view line);
  void on_headers_end();
  void on_chunk_size_line(std::string_view line);

  State state_ = State::kStatusLine;
  std::string line_;  // a line split across reads
  std::string error_;
  bool head_request_ = false;
  bool keep_alive_ = true;
  bool chunked_ = false;
  bool has_length_ = false;
  bool http10_ = false;
  int status_ = 0;
  std::uint32_t header_count_ = 0;
  std::uint64_t content_length_ = 0;
  std::uint64_t remaining_ = 0;  // of the body or of the current chunk
  std::uint64_t body_bytes_ = 0;
  std::uint64_t received_ = 0;
};

}  // namespace sluice
