#pragma once
// Where the results a compare or a report reads come from: JSON files (sluice's own JSON of any measuring
// command, fio's JSON, an exported history result with its repetitions) or the history store. Knows nothing
// of comparing; `sluice compare` and `sluice report` both read their inputs through load_result_set().
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace sluice {

// One side of a comparison: every repetition of one measurement, each a whole JSON document with "jobs".
struct ResultSet {
  std::string name;    // as the user named it: the file, the id or the label
  std::string origin;  // "file", "files" (a comma list) or "history"
  std::vector<nlohmann::json> repetitions;
};

// Resolves a history id or label to its result set; throws UserError when there is none (or no store).
using HistoryLookup = std::function<ResultSet(std::string_view id_or_label)>;

// Reads `ref`: an existing file is read as JSON (one document = one repetition; an object with a
// "repetitions" array, as a history export writes, gives one repetition each); "A1.json,A2.json" (a comma
// list of existing files) gives one repetition per file, in that order; anything else goes to `lookup`.
// Throws UserError with one line naming the file or id: unreadable, not JSON, or not a sluice/fio result.
ResultSet load_result_set(std::string_view ref, const HistoryLookup& lookup);

// Parses the text of a result file named `name` (for messages) into its repetitions, as load_result_set
// does for a file. Leading lines before the document (fio prints notes there) are skipped, and so is what
// follows it (the normal report of --output-format=json,normal).
std::vector<nlohmann::json> parse_result_text(const std::string& text, const std::string& name);

}  // namespace sluice
