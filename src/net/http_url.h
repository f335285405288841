#pragma once
// The URLs `sluice http` fetches: http://host[:port][/path[?query]], as http_load takes them (one per line
// in a --urls file). Only plain http: sluice has no TLS, and says so instead of sending cleartext to a TLS port.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace sluice {

struct HttpUrl {
  std::string text;  // as given
  std::string host;  // name or address, without brackets for IPv6
  std::uint16_t port = 80;
  std::string target = "/";  // path and query: the request-target of the request line
  std::string host_header;   // host[:port] as the Host header carries it
};

// Parses one URL. Throws UserError naming `option` ("--url") for a scheme other than http:// (https is
// refused with the reason), a missing host, a bad port, a fragment-only or whitespace-containing URL.
HttpUrl parse_http_url(std::string_view text, std::string_view option);

// Reads an http_load URL file: one URL per line; blank lines and lines starting with '#' are skipped.
// Throws UserError naming the file and line on an unreadable file, a bad URL or no URL at all.
std::vector<HttpUrl> read_url_file(const std::string& path);

}  // namespace sluice
