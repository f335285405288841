#pragma once
// The history options of every measuring command (--save, --label, --db, --repeat) and the one helper that
// runs a measurement N times, writes the reports, prints the spread of the headline metrics and saves the
// result: commands hand it "a function producing one JSON document and its text report".
#include <functional>
#include <string>
#include <vector>

#include "cli/command_options.h"
#include "cli/command_table.h"
#include "cli/output.h"
#include "job/history_choice.h"

namespace sluice {

inline constexpr const char* kSaveHelp =
    "store the result in the history database (sluice history lists it; a failed run too, marked FAILED)";
inline constexpr const char* kLabelHelp =
    "name the saved result (implies --save); sluice history and compare accept it";
inline constexpr const char* kDbHelp =
    "the history database (implies --save); default $SLUICE_DB, else "
    "~/.local/share/sluice/history.db";
inline constexpr const char* kRepeatHelp =
    "run the measurement N times, keep every repetition and print the spread "
    "(min/median/max, CV) of IOPS, bandwidth, mean and p99 latency";

// Declares --save, --label, --db and --repeat in `table`, stored into options.*member.
template <typename Options>
void add_history_options(CommandTable<Options>& table, HistoryChoice Options::*member) {
  table.add(flag_arg("save", kSaveHelp), [member](Options& o, const OptionValue&) { (o.*member).save = true; });
  table.add(text_arg("label", "TEXT", "", kLabelHelp), [member](Options& o, const OptionValue& v) {
    (o.*member).label = v.text;
    (o.*member).save = true;
  });
  table.add(text_arg("db", "PATH", "", kDbHelp), [member](Options& o, const OptionValue& v) {
    (o.*member).db = v.text;
    (o.*member).save = true;
  });
  table.add(count_arg("repeat", 1, kMaxRepeat, "1", kRepeatHelp),
            [member](Options& o, const OptionValue& v) { (o.*member).repeat = static_cast<std::uint32_t>(v.number); });
}

// One repetition's output.
struct Measurement {
  Measurement() = default;
  Measurement(std::string text_report, std::string json_document, int exit)
      : text(std::move(text_report)), json_text(std::move(json_document)), exit_code(exit) {}
  std::string text;       // the normal (text) report
  std::string json_text;  // the complete JSON document (json+ when asked for), unless json_writer is set
  int exit_code = 0;      // the command's exit code for this repetition
  std::string terse;      // fio's terse lines, when --output-format has terse (run only)
  // When set, writes the JSON document (json_text stays empty): a long run's report is then printed without
  // ever being one string, unless it must be parsed (--save, --repeat).
  std::function<void(std::ostream&)> json_writer;

  std::string json() const;  // the JSON document's text, from json_text or json_writer
};

// What was measured, for the saved record.
struct MeasuredCommand {
  std::string name;               // "run", "quick", ...
  std::vector<std::string> args;  // the arguments after the command name, exactly as given
  std::string job_text;           // job-file text; appended to the normalized arguments (see job_text_of)
};

// The comparability key stored as job_text: the arguments without the history, output and status options,
// one line, followed by `files_text` (the job files' contents).
std::string job_text_of(const std::vector<std::string>& args, const std::string& files_text);

// Runs `measure(json_plus)` history.repeat times (stopping at the first non-zero exit code), writes the
// reports in output.formats to output.path (with several repetitions: each text report, then the spread;
// one JSON document, the last repetition's, with "sluice.repeat" holding the spread and the earlier
// documents), and with history.save stores every repetition in one transaction. The database is opened
// before the first repetition, so a database that cannot be written fails before anything is measured.
// Returns the exit code of the last repetition. Throws UserError.
int run_measured(const MeasuredCommand& command, const HistoryChoice& history, const OutputChoice& output,
                 const std::function<Measurement(bool json_plus)>& measure);

}  // namespace sluice
