#pragma once
// "Did you mean": the nearest of a list of names to a word that is not one of them, for every error that
// names an unknown option, command, choice or key.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace sluice {

// Levenshtein distance between a and b.
std::size_t edit_distance(std::string_view a, std::string_view b);
// The candidate nearest to `word` within max(2, len/3) edits; "" when none is that close.
std::string nearest_of(std::string_view word, const std::vector<std::string>& candidates);

}  // namespace sluice
