// sluice history [list|show ID|trend METRIC|changes [METRIC]|delete ID|export ID|import FILES|DIR]: the saved
// results (history/history_store.h); changes in cli/history_changes.h, import in cli/history_import.h.
#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>
#include <regex>
#include <set>

#include "cli/command_args.h"
#include "cli/command_options.h"
#include "cli/commands.h"
#include "cli/history_changes.h"
#include "cli/history_import.h"
#include "cli/history_trend.h"
#include "common/error.h"
#include "common/nearest.h"
#include "history/history_store.h"
#include "history/history_text.h"
#include "history/metric_path.h"

namespace sluice {
namespace {

constexpr const char* kDescription =
    R"(The results saved with --save (or --label) by run, quick, capacity, interfere and precondition:
  list            the saved results, oldest first (filters: --label, --command, --host, --since, --until)
  show ID         one result in full: command line, job text, environment, every repetition's headline metrics
  trend METRIC    a metric over comparable results (same command and job text) with the change between them,
                  the change points found in it (as changes finds them) and the mean of each segment between them
  changes [METRIC]  where metrics shifted over a series of results (E-Divisive means; docs/history.md), each
                  shift with its size, interval, p-value and what changed in the environment (and, with --force,
                  the job options) between the results either side; without METRIC or --metric, the latest
                  result's headline metrics
  delete ID       remove one result
  export ID       one result as JSON (every repetition's complete document)
  import FILES|DIR  result files (fio's or sluice's JSON; a directory: its *.json) into the history, dated by
                  their timestamps, so an archive of nightly results gains trend and changes (--label names them)
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
changes follows every result matching the filters (one command; give --label or --command), oldest first, one
point per result (the median over its repetitions); results whose job options differ are one series only with
--force. The permutation test is seeded (--seed), so the same history gives the same answer.
--output-format=html (trend and changes) writes one self-contained page: a chart per metric with each
result's median, the segment means as horizontal lines and the change points marked (hover for what changed
there), and the tables; redirect it to a file: sluice history changes --label=nightly --output-format=html > changes.html
)";

const std::vector<std::string> kActions = {"list", "show", "trend", "changes", "delete", "export", "import"};

struct HistoryArgs {
  std::string action = "list";
  std::string target;              // ID or METRIC
  std::vector<std::string> files;  // import
  std::string db;
  HistoryFilter filter;
  std::string job;
  std::string like;
  bool json = false;
  bool html = false;
  std::vector<std::string> metrics;  // changes: --metric, after the positional METRIC
  bool force = false;
  ChangePointOptions detection;
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

// A number from 0 to `max` for --alpha, --confidence and --min-shift ("5%" is 0.05 where `percent`).
double history_fraction(const OptionValue& v, double max, bool percent) {
  std::string text = v.text;
  const bool as_percent = percent && !text.empty() && text.back() == '%';
  if (as_percent) text.pop_back();
  double value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value) || value < 0 ||
      (as_percent ? value / 100.0 : value) > max) {
    throw UserError(fmt::format("{}: not a number from 0 to {:g}{}", v.where, max,
                                percent ? " (like 0.05 or 5%)" : " (like 0.01)"));
  }
  return as_percent ? value / 100.0 : value;
}

CommandTable<HistoryArgs> make_table() {
  CommandInfo info =
      command_info("history",
                   "the saved results (--save): list, show ID, trend METRIC over comparable runs, changes "
                   "(where metrics shifted and what changed), delete ID, export ID as JSON",
                   kDescription);
  info.positionals = {{"ACTION", "list (default), show, trend, changes, delete, export or import", false},
                      {"ID|METRIC|FILE...",
                       "the result (show, delete, export), the metric (trend, changes) or the files and directories "
                       "(import)",
                       false, true}};
  info.notes = kNotes;
  CommandTable<HistoryArgs> t(std::move(info));
  t.add(text_arg("db", "PATH", "$SLUICE_DB, else ~/.local/share/sluice/history.db", "the history database"),
        [](HistoryArgs& a, const OptionValue& v) { a.db = v.text; });
  t.add(text_arg("label", "TEXT", "", "only results with this label (import: the label the results get)"),
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
  OptionInfo metric = text_arg("metric", "METRIC", "the latest result's headline metrics",
                               "changes: a metric to follow (as trend's METRIC); repeatable");
  metric.repeatable = true;
  t.add(std::move(metric), [](HistoryArgs& a, const OptionValue& v) { a.metrics.push_back(v.text); });
  t.add(flag_arg("force", "changes: follow results whose job options differ as one series (the changes name them)"),
        [](HistoryArgs& a, const OptionValue&) { a.force = true; });
  t.add(count_arg("permutations", 19, 100000, "199",
                  "changes, trend: permutations of the significance test of each change"),
        [](HistoryArgs& a, const OptionValue& v) { a.detection.permutations = v.number; });
  t.add(text_arg("alpha", "P", "0.01", "changes, trend: a shift is a change when its permutation p-value is at most P"),
        [](HistoryArgs& a, const OptionValue& v) { a.detection.alpha = history_fraction(v, 1.0, false); });
  t.add(count_arg("min-segment", 2, 1000, "3", "changes, trend: the fewest results either side of a change"),
        [](HistoryArgs& a, const OptionValue& v) { a.detection.min_segment = v.number; });
  t.add(
      text_arg("min-shift", "FRACTION", "0",
               "changes, trend: ignore shifts smaller than this share of the mean before (5%)"),
      [](HistoryArgs& a, const OptionValue& v) { a.detection.min_relative_shift = history_fraction(v, 100.0, true); });
  t.add(text_arg("confidence", "LEVEL", "0.95", "changes, trend: the level of each shift's bootstrap interval"),
        [](HistoryArgs& a, const OptionValue& v) { a.detection.confidence = history_fraction(v, 1.0, false); });
  t.add(count_arg("seed", 0, std::numeric_limits<std::uint32_t>::max(), "1",
                  "changes, trend: the seed of the permutations and the bootstrap"),
        [](HistoryArgs& a, const OptionValue& v) { a.detection.seed = v.number; });
  t.add(choice_arg("output-format", {"normal", "json", "html"}, "normal",
                   "normal is the table; json the same as one document; html (trend, changes) one page with the "
                   "series charted, segment means and change points marked"),
        [](HistoryArgs& a, const OptionValue& v) {
          a.json = v.text == "json";
          a.html = v.text == "html";
        });
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
      throw UserError(
          fmt::format("history {}: not an action; use list, show, trend, changes, delete, export or import{}", action,
                      nearest.empty() ? "" : "; did you mean '" + nearest + "'?"));
    }
    out.action = action;
  }
  if (parsed.positionals.size() > 1) out.target = parsed.positionals[1];
  if (out.action == "import") {
    out.files.assign(parsed.positionals.begin() + 1, parsed.positionals.end());
    if (out.files.empty()) throw UserError("history import: needs FILES or a DIR; e.g. sluice history import nightly/");
    return out;
  }
  if (parsed.positionals.size() > 2) {
    throw UserError(fmt::format("history {}: takes one {}, not also '{}'", out.action,
                                out.action == "trend" || out.action == "changes" ? "METRIC (more with --metric)" : "ID",
                                parsed.positionals[2]));
  }
  if (out.html && out.action != "trend" && out.action != "changes") {
    throw UserError(
        fmt::format("history {}: --output-format=html is for trend and changes; use normal or json", out.action));
  }
  if (out.action == "changes") {
    if (!out.target.empty()) out.metrics.insert(out.metrics.begin(), out.target);
    return out;
  }
  if (!out.metrics.empty() || out.force) {
    throw UserError(
        fmt::format("history {}: {} is for history changes", out.action, out.force ? "--force" : "--metric"));
  }
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
  const TrendReport report = build_trend(store.list(comparable), a.target, a.job, a.detection);
  print(a.html   ? render_trend_html(report)
        : a.json ? trend_report_json(report).dump(2) + "\n"
                 : render_trend_report_text(report));
  return kExitOk;
}

int changes(HistoryStore& store, const HistoryArgs& a) {
  ChangesRequest request;
  request.metrics = a.metrics;
  request.job = a.job;
  request.force = a.force;
  request.detection = a.detection;
  const ChangesReport report = find_history_changes(store.list(a.filter), request);
  print(a.html   ? render_changes_html(report)
        : a.json ? changes_json(report).dump(2) + "\n"
                 : render_changes_text(report));
  return kExitOk;
}

// Skips a file whose result is already stored (same start, job text and host): importing a directory of
// nightly results again adds only the new nights.
int import_results(const HistoryArgs& a) {
  const std::vector<StoredResult> results = imported_results(a.files, a.filter.label);
  HistoryStore store = HistoryStore::open(a.db.empty() ? default_history_path() : a.db, true);
  std::set<std::string> stored;
  auto key = [](const StoredResult& r) { return r.started_at + "\n" + r.host + "\n" + r.job_text; };
  for (const StoredResult& r : store.list({})) stored.insert(key(r));
  std::size_t added = 0;
  for (const StoredResult& r : results) {
    if (!stored.insert(key(r)).second) continue;
    store.save(r);
    ++added;
  }
  std::fprintf(stderr, "sluice: imported %zu result%s into %s (%zu already there)\n", added, added == 1 ? "" : "s",
               store.path().c_str(), results.size() - added);
  return kExitOk;
}

}  // namespace

const CommandInfo& history_command_info() { return table().info(); }

int history_command(const std::vector<std::string>& args) {
  const HistoryArgs a = parse_history_args(args);
  if (a.action == "import") return import_results(a);
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
  } else if (a.action == "changes") {
    return changes(store, a);
  } else {
    return trend(store, a);
  }
  return kExitOk;
}

}  // namespace sluice
