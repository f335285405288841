#include "cli/output.h"

#include <cstdio>
#include <fstream>

#include <fmt/format.h>

#include "common/error.h"
#include "report/reporters.h"

namespace sluice {

std::string render_all(const RunResult& result, const RunOptions& options) {
  std::string text;
  for (RunOptions::OutputFormat format : options.output_formats) {
    switch (format) {
      case RunOptions::OutputFormat::kNormal: text += render_normal(result); break;
      case RunOptions::OutputFormat::kJson: text += render_json_text(result, false); break;
      case RunOptions::OutputFormat::kJsonPlus: text += render_json_text(result, true); break;
      case RunOptions::OutputFormat::kTerse: text += render_normal(result); break;
    }
  }
  return text;
}

void write_outputs(const RunResult& result, const RunOptions& options) {
  const std::string text = render_all(result, options);
  if (options.output_path.empty()) {
    std::fwrite(text.data(), 1, text.size(), stdout);
    std::fflush(stdout);
    return;
  }
  std::ofstream out(options.output_path, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) throw UserError(fmt::format("--output={}: cannot write the file", options.output_path));
}

void print_warnings(const std::vector<Problem>& problems) {
  for (const Problem& p : problems) {
    const char* kind = p.severity == Problem::Severity::kError ? "error" : "warning";
    std::fprintf(stderr, "sluice: %s: %s: %s\n", kind, p.where.describe().c_str(), p.message.c_str());
  }
}

}  // namespace sluice
