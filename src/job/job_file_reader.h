#pragma once
// Internal to the spec module: the first stage of job-file parsing. Reads the ini text (following
// includes) into sections of raw option lines with their positions; nothing is applied or expanded yet.
#include <string>
#include <string_view>
#include <vector>

#include "common/error.h"
#include "job/job_file_expand.h"

namespace sluice::detail {

struct RawOption {
  std::string name;
  std::string value;       // trimmed, comments removed, not yet expanded
  bool has_value = false;  // "key=value" (possibly empty) rather than a bare "key"
  SourcePos where;
  // Not an option but a problem found while reading ("file:line: ..."), kept in place so that problems are
  // reported in file order with those found when the options are applied.
  std::string problem;
};

struct RawSection {
  std::string name;
  SourcePos where;
  std::vector<RawOption> options;
  bool is_global() const { return name.rfind("global", 0) == 0; }
};

struct ReaderLimits {
  int max_include_depth = 16;
  const ExpansionContext* expansion = nullptr;  // for ${VAR} in include paths; may be null
};

// Reads `text` (named `path`) into sections. Problems are appended to `errors` as "file:line: ..." and
// reading goes on, so one pass reports them all.
std::vector<RawSection> read_sections(std::string_view text, const std::string& path, const ReaderLimits& limits,
                                      std::vector<std::string>& errors);

// Reads the file at `path`; a file that cannot be read is one error.
std::vector<RawSection> read_sections_from_file(const std::string& path, const ReaderLimits& limits,
                                                std::vector<std::string>& errors);

}  // namespace sluice::detail
