#include "cli/history_import.h"

#include <fmt/format.h>
#include <sys/stat.h>

#include <algorithm>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "common/error.h"
#include "common/json_read.h"
#include "compare/result_source.h"

namespace sluice {
namespace {

namespace fs = std::filesystem;

std::string iso8601(std::int64_t epoch_seconds) {
  const std::time_t t = static_cast<std::time_t>(epoch_seconds);
  std::tm utc{};
  ::gmtime_r(&t, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

std::vector<std::string> import_files(const std::vector<std::string>& paths) {
  std::vector<std::string> files;
  for (const std::string& path : paths) {
    std::error_code ec;
    if (fs::is_directory(path, ec)) {
      std::vector<std::string> in_dir;
      for (const fs::directory_entry& e : fs::directory_iterator(path, ec)) {
        if (e.is_regular_file() && e.path().extension() == ".json") in_dir.push_back(e.path().string());
      }
      if (ec) throw UserError(fmt::format("{}: cannot list the directory: {}", path, ec.message()));
      if (in_dir.empty()) throw UserError(fmt::format("{}: no *.json file in the directory", path));
      std::sort(in_dir.begin(), in_dir.end());
      files.insert(files.end(), in_dir.begin(), in_dir.end());
    } else if (fs::is_regular_file(path, ec)) {
      files.push_back(path);
    } else {
      throw UserError(fmt::format("{}: no such file or directory", path));
    }
  }
  return files;
}

std::string file_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UserError(fmt::format("{}: cannot read the file", path));
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::int64_t modified_seconds(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) throw UserError(fmt::format("{}: cannot stat the file", path));
  return static_cast<std::int64_t>(st.st_mtime);
}

// The options of every job, as compact JSON: the same job file gives the same text from night to night.
std::string options_text(const nlohmann::json& doc) {
  std::string out = "imported:";
  if (doc.contains("global options")) out += " global " + doc.at("global options").dump();
  for (const nlohmann::json& job : doc.at("jobs")) {
    if (!job.is_object()) continue;
    out += "\n" + text_or(job, "jobname", "job") + " " + field_or(job, "job options", nlohmann::json::object()).dump();
  }
  return out;
}

StoredResult imported(const std::string& path, const std::string& label) {
  StoredResult r;
  r.repetitions = parse_result_text(file_text(path), path);
  const nlohmann::json& first = r.repetitions.front();
  const nlohmann::json sluice = field_or(first, "sluice", nullptr);  // fio's JSON has none
  const nlohmann::json timestamp = field_or(first, "timestamp", nullptr);
  r.started_at = iso8601(timestamp.is_number() ? timestamp.get<std::int64_t>() : modified_seconds(path));
  r.ended_at = r.started_at;
  r.label = label;
  r.command = sluice.is_object() ? text_or(sluice, "command", "run") : "fio";
  r.host = sluice.is_object() ? text_or(field_or(sluice, "environment", nlohmann::json::object()), "host", "") : "";
  r.sluice_version = sluice.is_object() ? text_or(sluice, "version", "") : text_or(first, "fio version", "fio");
  r.command_line = "sluice history import " + path;
  r.job_text = options_text(first);
  return r;
}

}  // namespace

std::vector<StoredResult> imported_results(const std::vector<std::string>& paths, const std::string& label) {
  std::vector<StoredResult> out;
  for (const std::string& file : import_files(paths)) out.push_back(imported(file, label));
  std::stable_sort(out.begin(), out.end(),
                   [](const StoredResult& a, const StoredResult& b) { return a.started_at < b.started_at; });
  return out;
}

}  // namespace sluice
