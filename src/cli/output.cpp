#include "cli/output.h"

#include <cstdio>
#include <fstream>
#include <iostream>

#include <fmt/format.h>

#include "common/error.h"
#include "job/validate.h"
#include "report/reporters.h"

namespace sluice {

const std::vector<std::string>& output_format_choices() {
  static const std::vector<std::string> kChoices = {"normal", "json", "json+"};
  return kChoices;
}

void write_report_documents(const std::vector<Document>& documents, const std::string& path) {
  if (path.empty()) {
    for (const Document& d : documents) {
      if (d.writer) {
        std::fflush(stdout);  // std::cout shares stdout's order (sync_with_stdio), flushed around it all the same
        d.writer(std::cout);
        std::cout.flush();
      } else {
        std::fwrite(d.text.data(), 1, d.text.size(), stdout);
      }
    }
    std::fflush(stdout);
    return;
  }
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  for (const Document& d : documents) {
    if (d.writer) {
      d.writer(out);
    } else {
      out << d.text;
    }
  }
  out.close();
  if (!out) throw UserError(fmt::format("--output={}: cannot write the file", path));
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
      case RunOptions::OutputFormat::kJson: documents.push_back(render_json_text(result, false)); break;
      case RunOptions::OutputFormat::kJsonPlus: documents.push_back(render_json_text(result, true)); break;
      case RunOptions::OutputFormat::kTerse: documents.push_back(render_terse(result, options.terse_version)); break;
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
