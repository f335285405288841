#include "cli/output.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>

#include "cli/report_file.h"
#include "common/error.h"
#include "job/job_spec.h"
#include "job/validate.h"
#include "report/reporters.h"

namespace sluice {

const std::vector<std::string>& output_format_choices() {
  static const std::vector<std::string> kChoices = {"normal", "json", "json+"};
  return kChoices;
}

std::vector<RunOptions::OutputFormat> output_formats_of(const std::vector<std::string>& names) {
  using Format = RunOptions::OutputFormat;
  std::vector<Format> formats;
  for (const std::string& name : names) {
    const Format format = name == "json+"   ? Format::kJsonPlus
                          : name == "json"  ? Format::kJson
                          : name == "terse" ? Format::kTerse
                                            : Format::kNormal;
    if (std::find(formats.begin(), formats.end(), format) == formats.end()) formats.push_back(format);
  }
  if (std::find(formats.begin(), formats.end(), Format::kJsonPlus) != formats.end()) {
    formats.erase(std::remove(formats.begin(), formats.end(), Format::kJson), formats.end());
  }
  return formats;
}

namespace {

void write_all(const std::vector<Document>& documents, std::ostream& out) {
  for (const Document& d : documents) {
    if (d.writer) {
      d.writer(out);
    } else {
      out << d.text;
    }
  }
}

// Writes to stdout; "" or why it failed (a full disk behind a redirection, a closed descriptor).
std::string write_to_stdout(const std::vector<Document>& documents) {
  std::fflush(stdout);  // std::cout shares stdout's order (sync_with_stdio), flushed around it all the same
  errno = 0;
  for (const Document& d : documents) {
    if (d.writer) {
      d.writer(std::cout);
      std::cout.flush();
    } else {
      std::fwrite(d.text.data(), 1, d.text.size(), stdout);
    }
  }
  const int flushed = std::fflush(stdout);
  if (flushed == 0 && !std::ferror(stdout) && std::cout.good()) return "";
  const int error_number = errno != 0 ? errno : EIO;
  std::clearerr(stdout);
  std::cout.clear();
  return std::strerror(error_number);
}

}  // namespace

void write_report_documents(const std::vector<Document>& documents, const std::string& path) {
  if (path.empty()) {
    const std::string failure = write_to_stdout(documents);
    if (!failure.empty()) throw UserError(fmt::format("cannot write the report to stdout: {}", failure));
    return;
  }
  const std::string failure = write_report_file(path, [&documents](std::ostream& out) { write_all(documents, out); });
  if (failure.empty()) return;
  // The measurements must not be lost with the file: they go to stdout, and the exit says it failed.
  const std::string fallback = write_to_stdout(documents);
  throw UserError(fmt::format(
      "--output={}: cannot write the file: {}; {}", path, failure,
      fallback.empty() ? "the report was written to stdout instead" : "writing it to stdout failed too: " + fallback));
}

void append_report_documents(const std::vector<Document>& documents, const std::string& path, bool fresh) {
  if (path.empty()) {
    const std::string failure = write_to_stdout(documents);
    if (!failure.empty()) throw UserError(fmt::format("cannot write the report to stdout: {}", failure));
    return;
  }
  std::ofstream out(path, fresh ? std::ios::trunc : std::ios::app);
  if (out) write_all(documents, out);
  out.flush();
  if (!out) throw UserError(fmt::format("--output={}: cannot write the file: {}", path, std::strerror(errno)));
}

void write_documents(const std::vector<std::string>& documents, const std::string& path) {
  std::vector<Document> wrapped;
  wrapped.reserve(documents.size());
  for (const std::string& text : documents) wrapped.push_back(Document{text, {}});
  write_report_documents(wrapped, path);
}

void write_outputs(const RunResult& result, const RunOptions& options) {
  std::vector<std::string> documents;
  for (RunOptions::OutputFormat format : options.output_formats) {
    switch (format) {
      case RunOptions::OutputFormat::kNormal:
        documents.push_back(render_normal(result, NormalReportOptions{.show_warnings = true}));
        break;
      case RunOptions::OutputFormat::kJson:
        documents.push_back(render_json_text(result, false));
        break;
      case RunOptions::OutputFormat::kJsonPlus:
        documents.push_back(render_json_text(result, true));
        break;
      case RunOptions::OutputFormat::kTerse:
        documents.push_back(render_terse(result, options.terse_version));
        break;
    }
  }
  write_documents(documents, options.output_path);
}

void print_warnings(const std::vector<Problem>& problems) {
  for (const Problem& p : problems) {
    const char* kind = p.severity == Problem::Severity::kError ? "error" : "warning";
    std::fprintf(stderr, "sluice: %s: %s: %s\n", kind, p.where.describe().c_str(), p.message.c_str());
  }
}

bool check_jobs(const std::vector<JobSpec>& jobs, std::vector<Problem>& findings, WarningSink warnings) {
  std::vector<Problem> found = validate_all(jobs);
  if (warnings == WarningSink::kStderr) {
    print_warnings(found);
  } else {
    std::vector<Problem> errors;
    for (const Problem& p : found) {
      if (p.severity == Problem::Severity::kError) errors.push_back(p);
    }
    print_warnings(errors);
  }
  const bool ok = !has_error(found);
  for (Problem& p : found) findings.push_back(std::move(p));
  return ok;
}

}  // namespace sluice
