#pragma once
// fio job files: the ini grammar ([section], global sections, ';' and '#' comments, key=value, flags),
// `include FILE`, ${VAR}, $ncpus/$pagesize/$mb_memory and arithmetic (see job_file_expand.h), and several
// files on one command line. Produces JobSpecs through the option table, with "file:line" positions.
//
// Semantics (fio's): a section whose name starts with "global" sets defaults for the jobs below it in the
// same file (later global sections add to and override earlier ones); every file starts again from the
// command-line globals; each file after the first starts with an implicit stonewall. An include is read
// relative to the including file's directory, may nest (depth limit, cycles refused) and may not contain
// sections. '$jobnum'/'$jobname' in filename are kept literally, as fio does (fio expands them only in
// filename_format, which sluice does not support yet).
#include <string>
#include <string_view>
#include <vector>

#include "common/error.h"
#include "job/job_file_expand.h"
#include "job/job_spec.h"

namespace sluice {

// One option as it was applied, after expansion: what --showcmd prints.
struct AppliedOption {
  std::string name;   // as written (an alias stays an alias)
  std::string value;  // expanded
  bool has_value = false;
  SourcePos where;
};

struct FileJob {
  JobSpec spec;
  std::vector<AppliedOption> options;  // in order: inherited globals first, then the section's own
};

struct JobFileSettings {
  JobSpec globals;  // every file's jobs start from these (JobCommandLine::globals)
  ExpansionContext expansion;
  int max_include_depth = 16;
};

// Every problem found in the files, each a complete "file:line: ..." message. what() joins them with
// newlines. Parsing goes on after a bad line, so one run reports them all.
class JobFileError : public UserError {
 public:
  explicit JobFileError(std::vector<std::string> messages);
  const std::vector<std::string>& messages() const noexcept { return messages_; }

 private:
  std::vector<std::string> messages_;
};

// Parses one job file. Throws JobFileError (which is a UserError).
std::vector<FileJob> parse_job_file(const std::string& path, const JobFileSettings& settings);

// The same from text in memory; `path` names it in messages and anchors relative includes.
std::vector<FileJob> parse_job_text(std::string_view text, const std::string& path, const JobFileSettings& settings);

// Several files in order, as `sluice run a.fio b.fio`: the first job of every file after the first gets an
// implicit stonewall. Problems of all files are reported together.
std::vector<FileJob> parse_job_files(const std::vector<std::string>& paths, const JobFileSettings& settings);

// The equivalent command line of one job: "sluice run --name=NAME --opt=value ...", values shell-quoted.
std::string showcmd_line(const FileJob& job);

}  // namespace sluice
