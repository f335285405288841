#include "cli/history_lookup.h"

#include <fmt/format.h>

#include <filesystem>

#include "common/error.h"
#include "history/history_store.h"

namespace sluice {

HistoryLookup history_lookup(std::string db_path) {
  return [db_path = std::move(db_path)](std::string_view ref) {
    const std::string path = db_path.empty() ? default_history_path() : db_path;
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) {
      throw UserError(
          fmt::format("{}: no such file, and no history database at {} to look it up as an id or "
                      "label (save results with --save, or name the database with --db)",
                      ref, path));
    }
    HistoryStore store = HistoryStore::open(path, false);
    StoredResult stored = store.load(ref);
    ResultSet set;
    set.name = stored.label.empty() ? stored.id : stored.label + " (" + stored.id + ")";
    set.origin = "history";
    set.repetitions = std::move(stored.repetitions);
    return set;
  };
}

}  // namespace sluice
