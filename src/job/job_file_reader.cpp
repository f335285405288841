// Job-file reading: lines, comments, section headers, key=value and include directives.
#include "job/job_file_reader.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

namespace sluice::detail {
namespace {

namespace fs = std::filesystem;

struct ReadState {
  const ReaderLimits& limits;
  std::vector<std::string>& errors;
  std::vector<RawSection> sections;
  std::vector<std::string> canonical_stack;  // files being read, outermost first: cycle detection
  std::vector<std::string> name_stack;       // the same as the user names them, for messages
};

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }

std::string_view trim(std::string_view text) {
  while (!text.empty() && is_blank(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_blank(text.back())) text.remove_suffix(1);
  return text;
}

// fio ends a line at the first ';' or '#', wherever it is (so a value cannot contain them).
std::string_view strip_comment(std::string_view line) {
  const std::size_t mark = line.find_first_of(";#");
  return mark == std::string_view::npos ? line : line.substr(0, mark);
}

std::optional<std::string> read_whole_file(const std::string& path, std::string& error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = std::strerror(errno);
    return std::nullopt;
  }
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) {
    error = std::strerror(errno);
    return std::nullopt;
  }
  return text.str();
}

std::string canonical_of(const std::string& path) {
  std::error_code ec;
  const fs::path canonical = fs::weakly_canonical(fs::path(path), ec);
  return ec ? fs::path(path).lexically_normal().string() : canonical.string();
}

void read_text(std::string_view text, const std::string& path, int depth, ReadState& state);

void add_error(ReadState& state, const SourcePos& where, const std::string& what) {
  std::string message = where.describe() + ": " + what;
  if (state.sections.empty()) {
    state.errors.push_back(std::move(message));
    return;
  }
  RawOption problem;
  problem.where = where;
  problem.problem = std::move(message);
  state.sections.back().options.push_back(std::move(problem));
}

std::string resolve_include(std::string_view written, const std::string& including_file, const ReaderLimits& limits) {
  std::string name(written);
  if (limits.expansion != nullptr) name = substitute_variables(name, *limits.expansion).text;
  const fs::path target(name);
  if (target.is_absolute()) return target.lexically_normal().string();
  return (fs::path(including_file).parent_path() / target).lexically_normal().string();
}

void include_file(std::string_view written, const SourcePos& where, int depth, ReadState& state) {
  if (written.empty()) return add_error(state, where, "include needs a file name (include FILE)");
  const std::string path = resolve_include(written, where.file, state.limits);
  if (depth + 1 > state.limits.max_include_depth) {
    return add_error(state, where,
                     fmt::format("include {}: includes nest deeper than {}", path, state.limits.max_include_depth));
  }
  const std::string canonical = canonical_of(path);
  for (std::size_t i = 0; i < state.canonical_stack.size(); ++i) {
    if (state.canonical_stack[i] != canonical) continue;
    std::string chain;
    for (std::size_t j = i; j < state.name_stack.size(); ++j) chain += state.name_stack[j] + " -> ";
    return add_error(state, where, fmt::format("include cycle: {}{}", chain, path));
  }
  std::string error;
  const auto text = read_whole_file(path, error);
  if (!text) return add_error(state, where, fmt::format("include {}: cannot read it: {}", path, error));
  read_text(*text, path, depth + 1, state);
}

void section_header(std::string_view line, const SourcePos& where, int depth, ReadState& state) {
  std::string_view name = line.substr(1);
  if (depth > 0) {
    add_error(state, where, fmt::format("an included file may not start a section ('{}')", line));
  } else if (!name.ends_with(']')) {
    add_error(state, where, fmt::format("section header '{}' lacks its closing ']'", line));
  } else {
    name.remove_suffix(1);
    if (trim(name).empty()) add_error(state, where, "empty section name '[]'");
  }
  if (name.ends_with(']')) name.remove_suffix(1);
  RawSection section;
  section.name = std::string(trim(name));
  section.where = where;
  state.sections.push_back(std::move(section));
}

void option_line(std::string_view line, const SourcePos& where, ReadState& state) {
  RawOption option;
  const std::size_t eq = line.find('=');
  option.name = std::string(trim(line.substr(0, eq)));
  if (eq != std::string_view::npos) {
    option.value = std::string(trim(line.substr(eq + 1)));
    option.has_value = true;
  }
  option.where = where;
  if (state.sections.empty()) {
    return add_error(state, where, fmt::format("option '{}' is outside of any [section]", line));
  }
  if (option.name.empty()) return add_error(state, where, fmt::format("'{}' has no option name", line));
  state.sections.back().options.push_back(std::move(option));
}

void read_line(std::string_view raw, const SourcePos& where, int depth, ReadState& state) {
  const std::string_view line = trim(strip_comment(raw));
  if (line.empty()) return;
  if (line.front() == '[') return section_header(line, where, depth, state);
  if (line.starts_with("include") && line.size() > 7 && is_blank(line[7])) {
    return include_file(trim(line.substr(7)), where, depth, state);
  }
  option_line(line, where, state);
}

void read_text(std::string_view text, const std::string& path, int depth, ReadState& state) {
  state.canonical_stack.push_back(canonical_of(path));
  state.name_stack.push_back(path);
  int number = 0;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    read_line(text.substr(start, end - start), SourcePos{path, ++number}, depth, state);
    start = end + 1;
  }
  state.canonical_stack.pop_back();
  state.name_stack.pop_back();
}

}  // namespace

std::vector<RawSection> read_sections(std::string_view text, const std::string& path, const ReaderLimits& limits,
                                      std::vector<std::string>& errors) {
  ReadState state{limits, errors, {}, {}, {}};
  read_text(text, path, 0, state);
  return std::move(state.sections);
}

std::vector<RawSection> read_sections_from_file(const std::string& path, const ReaderLimits& limits,
                                                std::vector<std::string>& errors) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) {
    errors.push_back(fmt::format("{}: is a directory, not a job file", path));
    return {};
  }
  std::string error;
  const auto text = read_whole_file(path, error);
  if (!text) {
    errors.push_back(fmt::format("{}: cannot read job file: {}", path, error));
    return {};
  }
  return read_sections(*text, path, limits, errors);
}

}  // namespace sluice::detail
