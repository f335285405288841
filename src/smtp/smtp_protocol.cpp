#include "smtp/smtp_protocol.h"

#include <fmt/format.h>

#include <cctype>
#include <ctime>
#include <fstream>

#include "common/error.h"
#include "job/units.h"

namespace sluice {

ReplyLine parse_reply_line(std::string_view line) {
  if (line.size() < 3) return {};
  for (int i = 0; i < 3; ++i) {
    if (!std::isdigit(static_cast<unsigned char>(line[static_cast<std::size_t>(i)]))) return {};
  }
  const int code = (line[0] - '0') * 100 + (line[1] - '0') * 10 + (line[2] - '0');
  if (code < 200 || code > 599) return {};
  if (line.size() == 3) return {code, true};
  if (line[3] == ' ') return {code, true};
  if (line[3] == '-') return {code, false};
  return {};
}

void parse_server(const std::string& text, std::string& host, std::uint16_t& port) {
  const std::size_t colon = text.rfind(':');
  const auto bad = [&](const std::string& why) {
    return UserError("--server=" + text + ": " + why + "; give HOST:PORT, e.g. --server=127.0.0.1:2525");
  };
  if (colon == std::string::npos || colon == 0 || colon + 1 == text.size()) throw bad("no port");
  host = text.substr(0, colon);
  if (host.size() > 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  const std::string p = text.substr(colon + 1);
  unsigned long value = 0;
  for (const char c : p) {
    if (!std::isdigit(static_cast<unsigned char>(c)) || value > 65535) throw bad("the port is not a number");
    value = value * 10 + static_cast<unsigned long>(c - '0');
  }
  if (value == 0 || value > 65535) throw bad("the port is not in 1..65535");
  port = static_cast<std::uint16_t>(value);
}

void parse_size_range(const std::string& text, std::uint64_t& min, std::uint64_t& max) {
  const std::size_t dash = text.find('-');
  const auto size_of = [&](const std::string& part) {
    const std::optional<std::uint64_t> v = parse_size(part);
    if (!v) throw UserError("--size=" + text + ": '" + part + "' is not a size; write S or MIN-MAX, e.g. 0-10k");
    return *v;
  };
  if (dash == std::string::npos) {
    min = max = size_of(text);
    return;
  }
  min = size_of(text.substr(0, dash));
  max = size_of(text.substr(dash + 1));
  if (min > max) throw UserError("--size=" + text + ": MIN is larger than MAX; write MIN-MAX, e.g. 0-10k");
}

std::vector<std::string> read_address_file(const std::string& path, const std::string& option) {
  std::ifstream in(path);
  if (!in) throw UserError("--" + option + "=" + path + ": cannot read the file");
  std::vector<std::string> out;
  for (std::string line; std::getline(in, line);) {
    while (!line.empty() && std::isspace(static_cast<unsigned char>(line.back()))) line.pop_back();
    std::size_t start = 0;
    while (start < line.size() && std::isspace(static_cast<unsigned char>(line[start]))) ++start;
    if (start == line.size() || line[start] == '#') continue;
    out.push_back(line.substr(start));
  }
  if (out.empty()) throw UserError("--" + option + "=" + path + ": no address in the file (one address a line)");
  return out;
}

std::vector<std::string> generated_addresses(std::uint64_t count, const std::string& prefix,
                                             const std::string& domain) {
  std::vector<std::string> out;
  out.reserve(count);
  for (std::uint64_t i = 0; i < count; ++i) out.push_back(fmt::format("{}{}@{}", prefix, i, domain));
  return out;
}

std::string make_body_pool(std::uint64_t bytes, std::uint64_t seed) {
  constexpr std::size_t kLetters = 76;
  Rng rng(seed);
  std::string out;
  out.reserve(bytes + kLetters + 2);
  while (out.size() < bytes) {
    for (std::size_t i = 0; i < kLetters; ++i) out += static_cast<char>('a' + rng.below(26));
    out += "\r\n";
  }
  return out;
}

std::string message_text(const std::string& from, const std::vector<std::string>& to, std::uint64_t id,
                         const std::string& body_pool, std::uint64_t body_bytes) {
  char date[64];
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  ::gmtime_r(&now, &tm);
  std::strftime(date, sizeof date, "%a, %d %b %Y %H:%M:%S +0000", &tm);
  std::string out = fmt::format(
      "From: <{}>\r\nTo: <{}>\r\nSubject: sluice smtp message {}\r\nMessage-ID: "
      "<{}.sluice@example.com>\r\nDate: {}\r\n\r\n",
      from, to.empty() ? std::string() : to.front(), id, id, date);
  std::uint64_t n = body_bytes < body_pool.size() ? body_bytes : body_pool.size();
  while (n > 0 && n < body_pool.size() && body_pool[n - 1] != '\n') ++n;  // end on a whole line
  out.append(body_pool, 0, n);
  return out;
}

}  // namespace sluice
