#pragma once
// Errors meant for the user: they carry a finished message ("--bs=4q: not a size; sizes look like 4k, 1m,
// 10%" or "job.fio:12: ...") and map to a non-zero exit. Internal bugs use assertions, not these.
#include <stdexcept>
#include <string>

namespace sluice {

class UserError : public std::runtime_error {
 public:
  explicit UserError(const std::string& message) : std::runtime_error(message) {}
};

// An I/O failure on a target: names the file and offset (and errno text) in its message.
class IoError : public UserError {
 public:
  IoError(const std::string& message, int error_number) : UserError(message), errno_(error_number) {}
  int error_number() const noexcept { return errno_; }

 private:
  int errno_;
};

// Where a value came from, for messages: "job.fio:12" or "command line".
struct SourcePos {
  std::string file;  // empty for the command line
  int line = 0;
  std::string describe() const {
    return file.empty() ? std::string("command line") : file + ":" + std::to_string(line);
  }
};

// One validation finding; severity kError stops the run, kWarning is printed to stderr and recorded.
struct Problem {
  enum class Severity { kError, kWarning };
  Severity severity = Severity::kError;
  SourcePos where;
  std::string option;   // the option concerned, without dashes; may be empty
  std::string message;  // complete sentence fragment, no trailing newline
  std::string code;     // stable identifier of the rule ("small-test-area"); empty for most findings
};

}  // namespace sluice
