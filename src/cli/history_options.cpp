#include "cli/history_options.h"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "common/error.h"
#include "history/history_store.h"
#include "history/history_text.h"
#include "history/metric_path.h"
#include "history/spread.h"
#include "version.h"

namespace sluice {
namespace {

// Options that change where and how a result is shown or kept, not what is measured.
bool is_presentation_option(std::string_view name) {
  for (std::string_view o : {"save", "label", "db", "repeat", "output", "output-format", "no-status", "status-interval",
                             "eta", "interval-log", "metrics-file"}) {
    if (name == o) return true;
  }
  return false;
}

// Quotes an argument for a shell when it holds anything but plain characters.
std::string shell_quoted(const std::string& arg) {
  if (!arg.empty() &&
      arg.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_=.,/:+%@") ==
          std::string::npos) {
    return arg;
  }
  std::string out = "'";
  for (char c : arg) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string host_of(const nlohmann::json& document) {
  const nlohmann::json::json_pointer pointer("/sluice/environment/host");
  if (document.contains(pointer) && document.at(pointer).is_string()) return document.at(pointer).get<std::string>();
  char name[256] = {};
  if (::gethostname(name, sizeof name - 1) != 0) return "";
  return name;
}

nlohmann::json parse_document(const std::string& text) {
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    throw UserError(std::string("internal: the command's JSON report does not parse: ") + e.what());
  }
}

nlohmann::ordered_json spread_json(const std::vector<MetricSpread>& spreads) {
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (const MetricSpread& s : spreads) {
    // JSON keeps the document's own units (ns, bytes/s), unscaled.
    const double unscale = s.metric.scale == 0 ? 1.0 : 1.0 / s.metric.scale;
    rows.push_back({{"jobname", s.metric.job},
                    {"metric", s.metric.path},
                    {"count", s.spread.count},
                    {"min", s.spread.min * unscale},
                    {"median", s.spread.median * unscale},
                    {"max", s.spread.max * unscale},
                    {"cv", s.spread.cv}});
  }
  return rows;
}

std::string repeated_json(const std::vector<std::string>& json_texts, const std::vector<MetricSpread>& spreads) {
  nlohmann::ordered_json doc = nlohmann::ordered_json::parse(json_texts.back());
  nlohmann::ordered_json earlier = nlohmann::ordered_json::array();
  for (std::size_t i = 0; i + 1 < json_texts.size(); ++i)
    earlier.push_back(nlohmann::ordered_json::parse(json_texts[i]));
  doc["sluice"]["repeat"] = {{"count", json_texts.size()}, {"spread", spread_json(spreads)}, {"earlier", earlier}};
  return doc.dump(2) + "\n";
}

std::vector<Document> render_documents(const OutputChoice& output, const std::vector<Measurement>& runs,
                                       const std::vector<MetricSpread>& spreads) {
  std::vector<Document> documents;
  for (RunOptions::OutputFormat format : output.formats) {
    if (format == RunOptions::OutputFormat::kTerse) {  // one line per job and repetition, as fio appends them
      std::string lines;
      for (const Measurement& m : runs) lines += m.terse;
      documents.push_back({lines, {}});
      continue;
    }
    if (format == RunOptions::OutputFormat::kJson || format == RunOptions::OutputFormat::kJsonPlus) {
      if (runs.size() == 1) {
        if (runs.front().json_writer) {
          documents.push_back({{}, runs.front().json_writer});
        } else {
          documents.push_back({runs.front().json_text, {}});
        }
        continue;
      }
      std::vector<std::string> texts;
      texts.reserve(runs.size());
      for (const Measurement& m : runs) texts.push_back(m.json());
      documents.push_back({repeated_json(texts, spreads), {}});
      continue;
    }
    if (runs.size() == 1) {
      documents.push_back({runs.front().text, {}});
      continue;
    }
    std::string text;
    for (std::size_t i = 0; i < runs.size(); ++i) {
      text += fmt::format("{}Repetition {} of {}:\n{}", i == 0 ? "" : "\n", i + 1, runs.size(), runs[i].text);
    }
    documents.push_back({text + render_spread_text(spreads, runs.size()), {}});
  }
  return documents;
}

}  // namespace

std::string Measurement::json() const {
  if (!json_writer) return json_text;
  std::ostringstream out;
  json_writer(out);
  return std::move(out).str();
}

std::string job_text_of(const std::vector<std::string>& args, const std::string& files_text) {
  std::string line;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a.size() > 2 && a.compare(0, 2, "--") == 0) {
      const std::size_t eq = a.find('=');
      const std::string name = a.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
      if (is_presentation_option(name)) {
        const bool value_follows = eq == std::string::npos && name != "save" && name != "no-status" &&
                                   i + 1 < args.size() && args[i + 1].compare(0, 2, "--") != 0;
        if (value_follows) ++i;
        continue;
      }
    }
    line += (line.empty() ? "" : " ") + shell_quoted(a);
  }
  return files_text.empty() ? line : line + "\n" + files_text;
}

int run_measured(const MeasuredCommand& command, const HistoryChoice& history, const OutputChoice& output,
                 const std::function<Measurement(bool json_plus)>& measure) {
  std::optional<HistoryStore> store;
  if (history.save) store.emplace(HistoryStore::open(history.db.empty() ? default_history_path() : history.db, true));
  bool json_plus = false;
  for (RunOptions::OutputFormat f : output.formats) json_plus = json_plus || f == RunOptions::OutputFormat::kJsonPlus;

  StoredResult record;
  record.started_at = utc_now_iso8601();
  std::vector<Measurement> runs;
  // The documents are parsed only to be saved or compared across repetitions: a long run's report can be
  // tens of MB of text, and its parsed form several times that (docs/reliability.md, "Long runs").
  const bool keep_documents = store.has_value() || history.repeat > 1;
  for (std::uint32_t i = 0; i < history.repeat; ++i) {
    if (history.repeat > 1) std::fprintf(stderr, "sluice: repetition %u of %u\n", i + 1, history.repeat);
    runs.push_back(measure(json_plus));
    if (keep_documents) record.repetitions.push_back(parse_document(runs.back().json()));
    if (runs.back().exit_code != 0) break;
  }
  record.ended_at = utc_now_iso8601();
  const std::vector<MetricSpread> spreads = spreads_of(record.repetitions);
  if (output.append) {
    append_report_documents(render_documents(output, runs, spreads), output.path);
  } else {
    write_report_documents(render_documents(output, runs, spreads), output.path);
  }

  const int exit_code = runs.back().exit_code;
  if (!store) return exit_code;
  // A failed run is saved too (what was measured before the failure is kept), its failing repetition's
  // document marked with sluice.exit_code so that `history` shows it and `compare` names it.
  for (std::size_t i = 0; i < record.repetitions.size(); ++i) {
    nlohmann::json& doc = record.repetitions[i];
    if (runs[i].exit_code != 0 && doc.is_object() && doc.contains("sluice") && doc.at("sluice").is_object()) {
      doc["sluice"]["exit_code"] = runs[i].exit_code;
    }
  }
  record.label = history.label;
  record.command = command.name;
  record.host = host_of(record.repetitions.back());
  record.sluice_version = SLUICE_VERSION;
  record.command_line = "sluice " + command.name;
  for (const std::string& a : command.args) record.command_line += " " + shell_quoted(a);
  record.job_text = job_text_of(command.args, command.job_text);
  const std::string id = store->save(record);
  std::fprintf(stderr, "sluice: saved as %s%s in %s%s\n", id.c_str(),
               history.label.empty() ? "" : (" (label " + history.label + ")").c_str(), store->path().c_str(),
               exit_code == 0 ? ""
                              : fmt::format(" (FAILED: repetition {} of {} ended with exit code {}; saved with what "
                                            "it measured)",
                                            runs.size(), history.repeat, exit_code)
                                    .c_str());
  return exit_code;
}

}  // namespace sluice
