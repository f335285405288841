#include "compare/result_source.h"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "common/error.h"
#include "common/json_read.h"

namespace sluice {
namespace {

// fio writes notes ("note: both iodepth >= 1 and synchronous I/O engine are selected") to stdout before
// its JSON; the document starts at the first line that opens an object.
std::string_view document_part(const std::string& text) {
  if (!text.empty() && text.front() == '{') return text;
  const std::size_t at = text.find("\n{");
  return at == std::string::npos ? std::string_view(text) : std::string_view(text).substr(at + 1);
}

// A document this sluice can read: a result with its "jobs", of a result schema version it knows.
void check_result(const nlohmann::json& doc, const std::string& name) {
  if (!doc.is_object() || !doc.contains("jobs") || !doc.at("jobs").is_array()) {
    throw UserError(
        fmt::format("{}: not a sluice or fio result (no \"jobs\" list); give the JSON that "
                    "--output-format=json writes",
                    name));
  }
  check_result_schema(doc, name);
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UserError(fmt::format("{}: cannot read the file", path));
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

bool is_file(const std::string& path) {
  std::error_code ec;
  return std::filesystem::is_regular_file(path, ec);
}

std::vector<std::string> split_commas(std::string_view text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = text.find(',', start);
    const std::size_t end = comma == std::string_view::npos ? text.size() : comma;
    out.emplace_back(text.substr(start, end - start));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return out;
}

}  // namespace

std::vector<nlohmann::json> parse_result_text(const std::string& text, const std::string& name) {
  nlohmann::json doc;
  try {
    // The first document only: `--output-format=json,normal` writes the table after it.
    std::istringstream in{std::string(document_part(text))};
    in >> doc;
  } catch (const nlohmann::json::parse_error& e) {
    throw UserError(
        fmt::format("{}: not valid JSON (at byte {}); give the JSON that --output-format=json writes", name, e.byte));
  } catch (const nlohmann::json::out_of_range& e) {  // a number beyond a double's range: 1e400
    throw UserError(fmt::format("{}: not a result sluice can read: {}", name, e.what()));
  }
  std::vector<nlohmann::json> out;
  if (doc.is_object() && doc.contains("repetitions") && doc.at("repetitions").is_array()) {
    for (const nlohmann::json& repetition : doc.at("repetitions")) {
      check_result(repetition, name + " (a repetition)");
      out.push_back(repetition);
    }
    if (out.empty()) throw UserError(fmt::format("{}: the result holds no repetitions", name));
    return out;
  }
  check_result(doc, name);
  out.push_back(std::move(doc));
  return out;
}

ResultSet load_result_set(std::string_view ref, const HistoryLookup& lookup) {
  const std::string name(ref);
  if (is_file(name)) return ResultSet{name, "file", parse_result_text(read_file(name), name)};
  const std::vector<std::string> parts = split_commas(ref);
  if (parts.size() > 1) {
    ResultSet set{name, "files", {}};
    for (const std::string& part : parts) {
      if (!is_file(part)) {
        throw UserError(fmt::format("{}: no such file (in the list {}; a list names files only)", part, name));
      }
      for (nlohmann::json& doc : parse_result_text(read_file(part), part)) set.repetitions.push_back(std::move(doc));
    }
    return set;
  }
  if (!lookup) throw UserError(fmt::format("{}: no such file, and no history to look it up in", name));
  ResultSet set = lookup(ref);
  for (const nlohmann::json& doc : set.repetitions) check_result(doc, name);
  if (set.repetitions.empty()) throw UserError(fmt::format("{}: the stored result holds no repetitions", name));
  return set;
}

}  // namespace sluice
