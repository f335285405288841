#pragma once
// The model format (docs/lab.md): one `key = value` per line, `#` starts a comment (at the start of a line or
// after a space), blank lines are ignored, each key at most once but `fault` (one rule a line, kept in order).
// Keys and value syntax: lab/model_keys.h.
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "common/error.h"
#include "lab/model.h"

namespace sluice {

// A model as read, before validation: the values and the line each key was given on.
struct ParsedModel {
  ModelSpec spec;
  std::map<std::string, int, std::less<>> lines;  // key -> its line (1-based; a repeated key's first)
};

// Reads every line of `text` (`source` names it in messages: a path, or "preset ssd"). A cliff given as a
// multiple of size is resolved; a missing write_time is read_time. Returns the errors in `problems` (each
// with source and line) rather than stopping at the first.
ParsedModel read_model_text(std::string_view text, const std::string& source, std::vector<Problem>& problems);

// The checks across keys (a write-back cache needs a destage rate, seeks need rpm, ...), positioned at the
// line of the key concerned (line 0: a required key is missing).
std::vector<Problem> validate_model(const ParsedModel& model, const std::string& source);

// read_model_text then validate_model; throws UserError with every problem, one "source:line: what" per line.
// `name` becomes spec.name.
ModelSpec parse_model(std::string_view text, const std::string& source, const std::string& name);

}  // namespace sluice
