#pragma once
// Text pieces of the generated HTML and SVG: escaping and locale-free, fixed-precision numbers, so the same
// input always gives the same bytes.
#include <string>
#include <string_view>

namespace sluice::html {

// `text` with &, <, >, " and ' replaced by entities; safe inside element content and quoted attributes.
std::string escape(std::string_view text);

// A coordinate with one decimal ("12.5"); -0 and non-finite values become "0.0".
std::string coord(double value);

// A tick or legend value in at most 4 significant digits without exponent for 1e-3 <= |v| < 1e7
// ("0.25", "1500", "99.99"); trailing zeros dropped.
std::string short_number(double value);

}  // namespace sluice::html
