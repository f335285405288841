#pragma once
// compare's and report's way into the history: a HistoryLookup (compare/result_source.h) that resolves an
// id or label in the history database.
#include <string>

#include "compare/result_source.h"

namespace sluice {

// A lookup over the database at `db_path` (empty: default_history_path()), opened read-only on first use.
// A ref the database does not hold, or a missing database, is a UserError of one line naming the ref.
HistoryLookup history_lookup(std::string db_path);

}  // namespace sluice
