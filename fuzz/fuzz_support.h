#pragma once
// Shared by the fuzz targets: what counts as a proper rejection, and how bytes become arguments.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <string_view>
#include <vector>

#include "common/error.h"

namespace sluice::fuzz {

// The input as text.
inline std::string_view as_text(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// Splits `text` into arguments at NUL and newline bytes (the dictionaries and seeds use newlines), as a
// shell would hand them over: arguments may be empty, none contains a NUL.
inline std::vector<std::string> split_arguments(std::string_view text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = start;
    while (end < text.size() && text[end] != '\0' && text[end] != '\n') ++end;
    out.emplace_back(text.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

// Aborts (a finding) when a rejection carries no message: the user would see "sluice: " and exit 1.
inline void require_message(const UserError& e) {
  if (std::string_view(e.what()).empty()) {
    std::fputs("fuzz: a UserError without a message (a silent failure)\n", stderr);
    std::abort();
  }
}

// Runs `body`; a UserError with a message is a proper rejection. Anything else escaping (an internal
// error: std::out_of_range, a json type error, ...) is a finding: sluice would print "internal error".
template <typename Body>
void expect_clean(Body&& body) {
  try {
    body();
  } catch (const UserError& e) {
    require_message(e);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "fuzz: an exception that is not a UserError: %s\n", e.what());
    std::abort();
  }
}

}  // namespace sluice::fuzz
