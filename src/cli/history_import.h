#pragma once
// `sluice history import FILES|DIR`: result files (fio's or sluice's JSON, or a history export) as stored
// results, so an archive of nightly results gains a history (and change points).
#include <string>
#include <vector>

#include "history/stored_result.h"

namespace sluice {

// One StoredResult per file, oldest first: each path is a file, or a directory whose *.json files (not its
// subdirectories) are read. A file's repetitions are its documents (compare/result_source.h reads them);
// started_at is the first document's "timestamp" (the file's modification time when it has none); the
// command is sluice's ("run", ...) or "fio"; the job text, the comparability key of `history trend`, is
// "imported:" and the documents' global and job options; `label` applies to every result. Throws UserError
// naming the file that cannot be read or is no result, or a path that does not exist.
std::vector<StoredResult> imported_results(const std::vector<std::string>& paths, const std::string& label);

}  // namespace sluice
