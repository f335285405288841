#pragma once
// Writing reports in the formats the user chose, to --output or stdout. Warnings never enter the documents:
// they are printed at the top of the normal report and kept in JSON only under "sluice.warnings"; stderr
// carries errors.
#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

#include "cli/command_table.h"
#include "job/run_options.h"
#include "stats/result.h"

namespace sluice {

struct JobSpec;  // job/job_spec.h

// --output-format and --output as every measuring command takes them.
struct OutputChoice {
  std::vector<RunOptions::OutputFormat> formats = {RunOptions::OutputFormat::kNormal};
  std::string path;     // empty = stdout
  bool append = false;  // the file already holds this run's periodic reports (--status-interval): add to it
};

// The choices of --output-format: normal, json, json+ (output_formats_of maps them; run adds terse).
const std::vector<std::string>& output_format_choices();

// The formats named in an --output-format list (already checked against the choices), in order and without
// repeats; json+ replaces json (it is json with the histogram bins added: one document, not two).
std::vector<RunOptions::OutputFormat> output_formats_of(const std::vector<std::string>& names);

// Declares --output-format and --output in `table`, stored into options.*member.
template <typename Options>
void add_output_options(CommandTable<Options>& table, OutputChoice Options::*member) {
  OptionInfo format;
  format.name = "output-format";
  format.type = ValueType::kList;
  format.element = ValueType::kChoice;
  format.choices = output_format_choices();
  format.value_name = "FMT";
  format.default_text = "normal";
  format.help =
      "normal is the table; json is fio's JSON with the command's section under \"sluice\"; json+ adds "
      "the latency histogram bins";
  table.add(std::move(format),
            [member](Options& o, const OptionValue& v) { (o.*member).formats = output_formats_of(v.list); });
  OptionInfo output;
  output.name = "output";
  output.value_name = "FILE";
  output.help =
      "write the report to FILE instead of stdout; FILE is replaced only once complete (when it cannot be written, the "
      "report goes to stdout and the exit is 1)";
  table.add(std::move(output), [member](Options& o, const OptionValue& v) { (o.*member).path = v.text; });
}

// A report to write: its text, or, when `writer` is set, a function that writes it piece by piece (a long
// run's JSON, which then never exists as one string).
struct Document {
  std::string text;
  std::function<void(std::ostream&)> writer;
};

// Writes the documents one after another to `path` (replaced whole, see cli/report_file.h) or to stdout.
// When the file cannot be written, the report goes to stdout so nothing measured is lost, and a UserError
// naming --output and the reason follows; a failed write to stdout throws too (no silent truncated report).
void write_report_documents(const std::vector<Document>& documents, const std::string& path);
void write_documents(const std::vector<std::string>& documents, const std::string& path);
// Adds the documents to the end of `path` (created when missing; truncated first when `fresh`), or writes
// them to stdout when path is empty, and flushes: the periodic reports of --status-interval, and the final
// report after them. Throws UserError naming --output and the reason when the file cannot be written.
void append_report_documents(const std::vector<Document>& documents, const std::string& path, bool fresh = false);

// Renders every chosen format of a run, one after another, and writes them (write_documents).
void write_outputs(const RunResult& result, const RunOptions& options);

// Prints each warning to stderr as "sluice: warning: <where>: <message>".
void print_warnings(const std::vector<Problem>& problems);

// Where check_jobs sends warnings: stderr, or only `findings` (the caller puts them into its report).
// Errors always go to stderr.
enum class WarningSink { kStderr, kReport };

// validate_all() of the jobs (each job, and the checks across jobs); prints the findings to stderr (the
// warnings only with kStderr) and appends them to `findings`; false when any is an error.
bool check_jobs(const std::vector<JobSpec>& jobs, std::vector<Problem>& findings,
                WarningSink warnings = WarningSink::kStderr);

}  // namespace sluice
