#include "html/svg_text.h"

#include <fmt/format.h>

#include <cmath>

namespace sluice::html {

std::string escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string coord(double value) {
  if (!std::isfinite(value)) return "0.0";
  std::string out = fmt::format("{:.1f}", value);
  return out == "-0.0" ? "0.0" : out;
}

std::string short_number(double value) {
  if (!std::isfinite(value)) return "-";
  const double magnitude = std::fabs(value);
  if (magnitude == 0) return "0";
  if (magnitude < 1e-3 || magnitude >= 1e7) return fmt::format("{:.3g}", value);
  const int integer_digits = magnitude >= 1 ? static_cast<int>(std::floor(std::log10(magnitude))) + 1 : 0;
  const int decimals = std::max(0, 4 - integer_digits);
  std::string out = fmt::format("{:.{}f}", value, decimals);
  if (out.find('.') != std::string::npos) {
    while (out.back() == '0') out.pop_back();
    if (out.back() == '.') out.pop_back();
  }
  return out == "-0" ? "0" : out;
}

}  // namespace sluice::html
