// Parsing http:// URLs and http_load's URL files.
#include "net/http_url.h"

#include <fmt/format.h>

#include <charconv>
#include <fstream>

#include "common/error.h"

namespace sluice {
namespace {

bool starts_with_icase(std::string_view text, std::string_view prefix) {
  if (text.size() < prefix.size()) return false;
  for (std::size_t i = 0; i < prefix.size(); ++i) {
    const char c = text[i] >= 'A' && text[i] <= 'Z' ? static_cast<char>(text[i] - 'A' + 'a') : text[i];
    if (c != prefix[i]) return false;
  }
  return true;
}

}  // namespace

HttpUrl parse_http_url(std::string_view text, std::string_view option) {
  auto fail = [&](std::string_view why) {
    return UserError(fmt::format("{}={}: {}; e.g. {}=http://127.0.0.1:8080/index.html", option, text, why, option));
  };
  if (starts_with_icase(text, "https://")) {
    throw fail(
        "https is not supported (sluice http has no TLS); use an http:// URL, or a TLS-terminating proxy "
        "in front of the server");
  }
  if (!starts_with_icase(text, "http://")) {
    throw fail(text.find("://") != std::string_view::npos ? "only http:// URLs are supported"
                                                          : "not a URL: it must start with http://");
  }
  for (char c : text) {
    if (static_cast<unsigned char>(c) <= ' ' || c == 0x7f) throw fail("a URL contains no spaces or control characters");
  }
  HttpUrl url;
  url.text = std::string(text);
  std::string_view rest = text.substr(7);
  const std::size_t path_at = rest.find_first_of("/?#");
  std::string_view authority = rest.substr(0, path_at);
  std::string_view path = path_at == std::string_view::npos ? std::string_view{} : rest.substr(path_at);
  if (const std::size_t hash = path.find('#'); hash != std::string_view::npos) path = path.substr(0, hash);
  if (authority.find('@') != std::string_view::npos) throw fail("user information in the URL is not supported");
  std::string_view port_text;
  if (!authority.empty() && authority.front() == '[') {
    const std::size_t close = authority.find(']');
    if (close == std::string_view::npos) throw fail("an IPv6 address needs its closing ]");
    url.host = std::string(authority.substr(1, close - 1));
    std::string_view after = authority.substr(close + 1);
    if (!after.empty()) {
      if (after.front() != ':') throw fail("expected :PORT after the IPv6 address");
      port_text = after.substr(1);
    }
  } else {
    const std::size_t colon = authority.rfind(':');
    url.host = std::string(authority.substr(0, colon));
    if (colon != std::string_view::npos) port_text = authority.substr(colon + 1);
  }
  if (url.host.empty()) throw fail("the URL names no host");
  if (port_text.data() != nullptr && authority.back() == ':') throw fail("the port is empty");
  if (!port_text.empty()) {
    unsigned port = 0;
    const auto [end, ec] = std::from_chars(port_text.data(), port_text.data() + port_text.size(), port);
    if (ec != std::errc{} || end != port_text.data() + port_text.size() || port == 0 || port > 65535) {
      throw fail("the port must be a number from 1 to 65535");
    }
    url.port = static_cast<std::uint16_t>(port);
  }
  url.target = path.empty() ? "/" : (path.front() == '?' ? "/" + std::string(path) : std::string(path));
  url.host_header = std::string(authority);
  return url;
}

std::vector<HttpUrl> read_url_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw UserError(fmt::format("--urls={}: cannot be read", path));
  std::vector<HttpUrl> urls;
  std::string line;
  for (std::size_t number = 1; std::getline(in, line); ++number) {
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t')) line.pop_back();
    const std::size_t start = line.find_first_not_of(" \t");
    if (start == std::string::npos || line[start] == '#') continue;
    urls.push_back(parse_http_url(std::string_view(line).substr(start), fmt::format("--urls {}:{}", path, number)));
  }
  if (urls.empty()) throw UserError(fmt::format("--urls={}: the file holds no URL (one http:// URL per line)", path));
  return urls;
}

}  // namespace sluice
