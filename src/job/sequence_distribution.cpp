// random_distribution=sequence:I1,I2,... (fio master, after 3.42): a fixed list of block indices that the
// ios of each direction visit in turn, as fio's options.c parses it:
//  - the list follows the first ':'; it is required ("sequence" alone is refused);
//  - 1 to 64 comma-separated elements (fio's FIO_SEQ_MAX); blanks around an element are ignored;
//  - each element is a non-negative decimal integer (no sign, no unit, no hex): fio reads it with atoi.
// sluice also refuses an element above 4294967295 (fio keeps it in an unsigned int, where it would wrap).
// Whether an index fits the file's blocks is known only with the file's size: workload/block_sequence.h.
#include <fmt/format.h>

#include "job/option_builders.h"

namespace sluice::detail {
namespace {

constexpr std::size_t kMaxSequenceElements = 64;  // fio's FIO_SEQ_MAX

std::string_view trimmed(std::string_view text) {
  const std::size_t first = text.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  const std::size_t last = text.find_last_not_of(" \t");
  return text.substr(first, last - first + 1);
}

}  // namespace

Distribution parse_sequence_distribution(std::string_view value, const SourcePos& where) {
  const std::size_t colon = value.find(':');
  if (colon == std::string_view::npos) {
    value_error(where, "random_distribution", value,
                "sequence needs its block indices, e.g. sequence:2,0,1 (fio: missing pattern in sequence "
                "distribution)");
  }
  Distribution dist;
  dist.kind = DistributionKind::kSequence;
  const std::string_view list = value.substr(colon + 1);
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = list.find(',', start);
    const std::string_view element =
        trimmed(list.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start));
    if (dist.sequence.size() == kMaxSequenceElements) {
      value_error(where, "random_distribution", value,
                  fmt::format("sequence takes at most {} block indices", kMaxSequenceElements));
    }
    if (element.empty() || element.find_first_not_of("0123456789") != std::string_view::npos) {
      value_error(where, "random_distribution", value,
                  fmt::format("sequence element '{}' is not a block index (a non-negative whole number)", element));
    }
    std::uint64_t index = 0;
    for (char digit : element) {
      index = index * 10 + static_cast<std::uint64_t>(digit - '0');
      if (index > 0xffffffffull) {
        value_error(where, "random_distribution", value,
                    fmt::format("sequence element '{}' is above 4294967295", element));
      }
    }
    dist.sequence.push_back(static_cast<std::uint32_t>(index));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return dist;
}

}  // namespace sluice::detail
