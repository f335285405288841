#include "lab/model_parser.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cctype>
#include <optional>

#include "common/nearest.h"
#include "job/units.h"
#include "lab/model_keys.h"

namespace sluice {
namespace {

std::string_view trim_model_text(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
  return text;
}

// A `#` at the start of the line or after a space starts a comment; elsewhere it is text ("sas#2").
std::string_view strip_comment(std::string_view line) {
  for (std::size_t i = 0; i < line.size(); ++i) {
    if (line[i] == '#' && (i == 0 || std::isspace(static_cast<unsigned char>(line[i - 1])))) return line.substr(0, i);
  }
  return line;
}

std::vector<std::string> key_names() {
  std::vector<std::string> names;
  for (const ModelKey& key : model_keys()) names.emplace_back(key.name);
  return names;
}

// "unknown key 'sever'; did you mean 'servers'?", or the nearest key when none is close enough to guess.
std::string unknown_key_message(std::string_view key) {
  const std::vector<std::string> names = key_names();
  const std::string close = nearest_of(key, names);
  if (!close.empty()) return fmt::format("unknown key '{}'; did you mean '{}'?", key, close);
  std::string nearest = names.front();
  for (const std::string& name : names) {
    if (edit_distance(key, name) < edit_distance(key, nearest)) nearest = name;
  }
  return fmt::format("unknown key '{}' (the nearest is '{}'; sluice lab --help lists the keys)", key, nearest);
}

bool is_bare_number(std::string_view text) { return parse_double(text).has_value(); }

std::nullopt_t refuse(std::string& error, std::string_view what) {
  error = what;
  return std::nullopt;
}

// Checks `text` against the key's type; nullopt and `error` set when it does not fit.
std::optional<ModelValue> check_model_value(const ModelKey& key, std::string_view text, std::string& error) {
  ModelValue v;
  v.text = std::string(text);
  switch (key.type) {
    case ModelValueType::kText:
      return v;
    case ModelValueType::kCount: {
      const auto n = parse_unsigned(text);
      if (!n) return refuse(error, "not an integer");
      v.number = *n;
      return v;
    }
    case ModelValueType::kSize: {
      const auto n = parse_size(text);
      if (!n) return refuse(error, "not a size; sizes look like 4k, 512m, 4g");
      v.number = *n;
      return v;
    }
    case ModelValueType::kDuration: {
      if (text == "0") return v;
      if (is_bare_number(text)) return refuse(error, "a duration needs a unit, e.g. 0.8ms, 250us");
      const auto d = parse_duration(text, std::chrono::nanoseconds(1));
      if (!d) return refuse(error, "not a duration; write e.g. 0.8ms, 250us, 2s");
      v.duration = *d;
      return v;
    }
    case ModelValueType::kRate: {
      const std::size_t slash = text.rfind("/s");
      const auto n = slash != std::string_view::npos && slash + 2 == text.size() ? parse_size(text.substr(0, slash))
                                                                                 : std::nullopt;
      if (!n || *n == 0) return refuse(error, "not a rate; write a size per second, e.g. 250MiB/s");
      v.real = static_cast<double>(*n);
      return v;
    }
    case ModelValueType::kPercent: {
      const auto p = parse_percent(text);
      if (!p) return refuse(error, "not a percentage; write e.g. 10%");
      v.real = *p / 100.0;
      return v;
    }
    case ModelValueType::kChoice: {
      for (std::size_t i = 0; i < key.choices.size(); ++i) {
        if (key.choices[i] == text) {
          v.choice = i;
          return v;
        }
      }
      const std::vector<std::string> choices(key.choices.begin(), key.choices.end());
      error = fmt::format("not one of {}", fmt::join(choices, ", "));
      const std::string close = nearest_of(text, choices);
      if (!close.empty()) error += fmt::format("; did you mean {}?", close);
      return std::nullopt;
    }
    case ModelValueType::kBool: {
      const auto b = parse_bool(text);
      if (!b) return refuse(error, "not yes or no");
      v.flag = *b;
      return v;
    }
    case ModelValueType::kCliff: {
      if (!text.empty() && (text.back() == 'x' || text.back() == 'X')) {
        const auto m = parse_double(text.substr(0, text.size() - 1));
        if (!m || *m <= 0) return refuse(error, "not a multiple of size; write e.g. 1.5x");
        v.real = *m;
        return v;
      }
      const auto n = parse_size(text);
      if (!n || *n == 0) return refuse(error, "not a size or a multiple of size; write e.g. 6g or 1.5x");
      v.number = *n;
      return v;
    }
    case ModelValueType::kFault: {
      std::optional<FaultRule> rule = parse_fault_rule(text, error);
      if (!rule) return std::nullopt;
      v.fault = std::move(*rule);
      return v;
    }
  }
  return std::nullopt;
}

Problem problem_at(const std::string& source, int line, std::string key, std::string message) {
  Problem p;
  p.where = SourcePos{source, line};
  p.option = std::move(key);
  p.message = std::move(message);
  return p;
}

}  // namespace

ParsedModel read_model_text(std::string_view text, const std::string& source, std::vector<Problem>& problems) {
  ParsedModel out;
  ModelDraft draft;
  int line_number = 0;
  while (!text.empty() || line_number == 0) {
    ++line_number;
    const std::size_t end = text.find('\n');
    const std::string_view raw = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
    const std::string_view line = trim_model_text(strip_comment(raw));
    if (line.empty()) continue;
    const std::size_t eq = line.find('=');
    if (eq == std::string_view::npos) {
      problems.push_back(problem_at(source, line_number, "", fmt::format("'{}': write key = value", line)));
      continue;
    }
    const std::string key(trim_model_text(line.substr(0, eq)));
    const std::string_view value = trim_model_text(line.substr(eq + 1));
    const ModelKey* info = find_model_key(key);
    if (info == nullptr) {
      problems.push_back(
          problem_at(source, line_number, key, key.empty() ? "no key before '='" : unknown_key_message(key)));
      continue;
    }
    if (const auto seen = out.lines.find(key); seen != out.lines.end() && !model_key_repeats(*info)) {
      problems.push_back(
          problem_at(source, line_number, key, fmt::format("{} given twice (first on line {})", key, seen->second)));
      continue;
    }
    if (value.empty()) {
      problems.push_back(problem_at(source, line_number, key, fmt::format("{}: no value after '='", key)));
      continue;
    }
    std::string error;
    const std::optional<ModelValue> checked = check_model_value(*info, value, error);
    if (!checked) {
      problems.push_back(problem_at(source, line_number, key, fmt::format("{} = {}: {}", key, value, error)));
      continue;
    }
    info->apply(draft, *checked);
    out.lines.emplace(key, line_number);
  }
  draft.spec.cliff_size_multiple = draft.cliff_size_multiple;
  draft.spec.resize(draft.spec.size_bytes);
  if (!out.lines.contains("write_time")) draft.spec.write_time = draft.spec.read_time;
  out.spec = std::move(draft.spec);
  return out;
}

ModelSpec parse_model(std::string_view text, const std::string& source, const std::string& name) {
  std::vector<Problem> problems;
  ParsedModel model = read_model_text(text, source, problems);
  if (problems.empty()) problems = validate_model(model, source);
  if (!problems.empty()) {
    std::string message;
    for (const Problem& p : problems) {
      if (!message.empty()) message += "\n";
      message += p.where.line > 0 ? fmt::format("{}: {}", p.where.describe(), p.message)
                                  : fmt::format("{}: {}", p.where.file, p.message);
    }
    throw UserError(message);
  }
  model.spec.name = name;
  return std::move(model.spec);
}

}  // namespace sluice
