#include "html/report_input.h"

#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "common/error.h"

namespace sluice::html {
namespace {

std::string base_name(const std::string& path) {
  const std::size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// Offset of the first line that starts with '{' (fio may print "note: ..." lines before its JSON).
std::size_t document_start(const std::string& text) {
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t first = text.find_first_not_of(" \t\r", at);
    if (first != std::string::npos && text[first] == '{') return first;
    const std::size_t nl = text.find('\n', at);
    if (nl == std::string::npos) break;
    at = nl + 1;
  }
  return std::string::npos;
}

}  // namespace

ReportInput load_report_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw UserError(fmt::format("{}: cannot read the result file (missing or unreadable); give a JSON file written "
                                "with --output-format=json", path));
  }
  std::stringstream buffer;
  buffer << in.rdbuf();
  const std::string text = buffer.str();
  const std::size_t start = document_start(text);
  if (start == std::string::npos) {
    throw UserError(fmt::format("{}: not a JSON result (no line starts with '{{'); give a file written with "
                                "--output-format=json", path));
  }
  nlohmann::json doc = nlohmann::json::parse(text.begin() + static_cast<std::ptrdiff_t>(start), text.end(), nullptr, false);
  if (doc.is_discarded()) {
    throw UserError(fmt::format("{}: corrupt JSON (truncated or not JSON); write it again with --output-format=json",
                                path));
  }
  if (!doc.is_object() || !doc.contains("jobs") || !doc["jobs"].is_array()) {
    throw UserError(fmt::format("{}: JSON but not a sluice or fio result (no \"jobs\" array); give the output of "
                                "sluice or fio with --output-format=json", path));
  }
  ReportInput input;
  input.name = base_name(path);
  input.repetitions.push_back(std::move(doc));
  return input;
}

std::string result_kind(const nlohmann::json& doc) {
  const auto sluice = doc.find("sluice");
  if (sluice == doc.end() || !sluice->is_object()) return "fio";
  for (const char* kind : {"capacity", "interference", "quick", "precondition"}) {
    if (sluice->contains(kind)) return std::string(kind) == "interference" ? "interfere" : kind;
  }
  return "run";
}

}  // namespace sluice::html
