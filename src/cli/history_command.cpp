// sluice history [list|show ID|trend METRIC|delete ID|export ID]: the saved results (history/history_store.h).
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <regex>

#include "cli/command_args.h"
#include "cli/command_options.h"
#include "cli/commands.h"
#include "common/error.h"
#include "history/history_store.h"
#include "history/history_text.h"
#include "history/metric_path.h"
#include "common/nearest.h"

namespace sluice {
namespace {

constexpr const char* kDescription =
    R"(The results saved with --save (or --label) by run, quick, capacity, interfere and precondition:
  list            the saved results, oldest first (filters: --label, --command, --host, --since, --until)
  show ID         one result in full: command line, job text, environment, every repetition's headline metrics
  trend METRIC    a metric over comparable results (same command and job text) with the change between them
  delete ID       remove one result
  export ID       one result as JSON (every repetition's complete document)
ID is a result's id, a unique prefix of it (4 characters or more), or a label (the latest result with it).
METRIC is read|write|trim followed by a field of that section of fio's JSON: read.iops, write.bw_bytes,
read.lat_ns.mean, read.clat_ns.max; a last part pNN is a percentile: read.lat_ns.p99, write.clat_ns.p99.9
(lat_ns falls back to clat_ns, where fio keeps percentiles); --job=NAME picks the job (default: the first).
A path starting with / is a JSON pointer into the whole document: /sluice/environment/memory_bytes.
)";

constexpr const char* kNotes =
    R"(trend compares the results that share the command and the job text of the latest result matching the
filters, or of --like=ID. Dates are ISO 8601 UTC as stored (2026-11-30 or 2026-11-30T18:20:00Z); --since
includes, --until excludes.
)";

const std::vector<std::string> kActions = {"list", "show", "trend", "delete", "export"};

struct HistoryArgs {
  std::string action = "list";
  std::string target;  // ID or METRIC
  std::string db;
  HistoryFilter filter;
  std::string job;
  std::string like;
  bool json = false;
};

OptionInfo date_arg(std::string name, std::string help) {
  OptionInfo o = text_arg(std::move(name), "DATE", "", std::move(help));
  o.unit = "ISO 8601 UTC: 2026-11-30 or 2026-11-30T18:20:00Z";
  return o;
}

std::string checked_date(const OptionValue& v) {
  static const std::regex kDate(R"(\d{4}-\d{2}-\d{2}(T\d{2}(:\d{2}(:\d{2})?)?Z?)?)");
  if (!std::regex_match(v.text, kDate)) {
    throw UserError(v.where + ": not an ISO 8601 UTC date; use 2026-11-30 or 2026-11-30T18:20:00Z");
  }
  std::string text = v.text;
  if (!text.empty() && text.back() == 'Z') text.pop_back();
  return text;
}

CommandTable<HistoryArgs> make_table() {
  CommandInfo info =
      command_info("history",
                   "the saved results (--save): list, show ID, trend METRIC over comparable runs, delete "
                   "ID, export ID as JSON",
                   kDescription);
  info.positionals = {{"ACTION", "list (default), show, trend, delete or export", false},
                      {"ID|METRIC", "the result (show, delete, export) or the metric (trend)", false}};
  info.notes = kNotes;
  CommandTable<HistoryArgs> t(std::move(info));
  t.add(text_arg("db", "PATH", "$SLUICE_DB, else ~/.local/share/sluice/history.db", "the history database"),
        [](HistoryArgs& a, const OptionValue& v) { a.db = v.text; });
  t.add(text_arg("label", "TEXT", "", "only results with this label"),
        [](HistoryArgs& a, const OptionValue& v) { a.filter.label = v.text; });
  t.add(text_arg("command", "NAME", "", "only results of this command (run, quick, capacity, ...)"),
        [](HistoryArgs& a, const OptionValue& v) { a.filter.command = v.text; });
  t.add(text_arg("host", "NAME", "", "only results measured on this host"),
        [](HistoryArgs& a, const OptionValue& v) { a.filter.host = v.text; });
  t.add(date_arg("since", "only results started at or after DATE"),
        [](HistoryArgs& a, const OptionValue& v) { a.filter.since = checked_date(v); });
  t.add(date_arg("until", "only results started before DATE"),
        [](HistoryArgs& a, const OptionValue& v) { a.filter.until = checked_date(v); });
  t.add(text_arg("job", "NAME", "the first job", "trend: the job whose metric is followed"),
        [](HistoryArgs& a, const OptionValue& v) { a.job = v.text; });
  t.add(text_arg("like", "ID", "the latest matching result", "trend: follow the results comparable to this one"),
        [](HistoryArgs& a, const OptionValue& v) { a.like = v.text; });
  t.add(choice_arg("output-format", {"normal", "json"}, "normal", "normal is the table; json the same as one document"),
        [](HistoryArgs& a, const OptionValue& v) { a.json = v.text == "json"; });
  return t;
}

const CommandTable<HistoryArgs>& table() {
  static const CommandTable<HistoryArgs> kTable = make_table();
  return kTable;
}

HistoryArgs parse_history_args(const std::vector<std::string>& args) {
  const ParsedArgs parsed = parse_arguments(table().info(), args);
  HistoryArgs out;
  table().apply(parsed, out, nullptr);
  if (!parsed.positionals.empty()) {
    const std::string& action = parsed.positionals.front();
    if (std::find(kActions.begin(), kActions.end(), action) == kActions.end()) {
      const std::string nearest = nearest_of(action, kActions);
      throw UserError(fmt::format("history {}: not an action; use list, show, trend, delete or export{}", action,
                                  nearest.empty() ? "" : "; did you mean '" + nearest + "'?"));
    }
    out.action = action;
  }
  if (parsed.positionals.size() > 1) out.target = parsed.positionals[1];
  const bool needs_target = out.action != "list";
  if (needs_target && out.target.empty()) {
    throw UserError(fmt::format("history {}: needs {}; e.g. sluice history {} {}", out.action,
                                out.action == "trend" ? "a METRIC" : "an ID or label", out.action,
                                out.action == "trend" ? "read.iops" : "before"));
  }
  if (!needs_target && !out.target.empty()) {
    throw UserError("history list: takes no ID; filter with --label, --command, --host, --since, --until");
  }
  return out;
}

void print(const std::string& text) { std::fwrite(text.data(), 1, text.size(), stdout); }

int trend(HistoryStore& store, const HistoryArgs& a) {
  metric_value(nlohmann::json::object(), a.target);  // a malformed metric fails before anything is read
  StoredResult reference;
  if (!a.like.empty()) {
    reference = store.load(a.like);
  } else {
    std::vector<StoredResult> matching = store.list(a.filter);
    if (matching.empty())
      throw UserError(store.path() + ": no saved result matches the filters; see sluice history list");
    reference = std::move(matching.back());
  }
  HistoryFilter comparable = a.filter;
  comparable.label.clear();  // labels name the versions being compared; they do not split the series
  comparable.command = reference.command;
  comparable.job_text = reference.job_text;
  comparable.match_job_text = true;
  const std::vector<TrendPoint> points = trend_points(store.list(comparable), a.target, a.job);
  print(a.json ? trend_json(points, a.target).dump(2) + "\n" : render_trend_text(points, a.target));
  return kExitOk;
}

}  // namespace

const CommandInfo& history_command_info() { return table().info(); }

int history_command(const std::vector<std::string>& args) {
  const HistoryArgs a = parse_history_args(args);
  HistoryStore store = HistoryStore::open(a.db.empty() ? default_history_path() : a.db, false);
  if (a.action == "list") {
    const std::vector<StoredResult> results = store.list(a.filter);
    if (!a.json) {
      print(render_history_list(results));
      return kExitOk;
    }
    nlohmann::json rows = nlohmann::json::array();
    for (const StoredResult& r : results) {
      nlohmann::json row = to_export(r);
      row.erase("repetitions");
      row["repetition_count"] = r.repetitions.size();
      rows.push_back(std::move(row));
    }
    print(rows.dump(2) + "\n");
  } else if (a.action == "show") {
    const StoredResult r = store.load(a.target);
    print(a.json ? to_export(r).dump(2) + "\n" : render_history_show(r));
  } else if (a.action == "export") {
    print(to_export(store.load(a.target)).dump(2) + "\n");
  } else if (a.action == "delete") {
    const std::string id = store.remove(a.target);
    std::fprintf(stderr, "sluice: deleted result %s from %s\n", id.c_str(), store.path().c_str());
  } else {
    return trend(store, a);
  }
  return kExitOk;
}

}  // namespace sluice
