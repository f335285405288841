#include "scale/scale_plan.h"

#include <unistd.h>

#include <cstdlib>
#include <sstream>

#include "common/error.h"

namespace sluice {
namespace {

std::string replace_all(std::string text, const std::string& from, const std::string& to) {
  for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
  return text;
}

std::vector<std::string> words_of(const ScaleOptions& options) {
  if (options.shell || options.command.size() != 1 ||
      options.command.front().find_first_of(" \t") == std::string::npos) {
    return options.command;
  }
  std::vector<std::string> words;
  std::istringstream in(options.command.front());
  for (std::string w; in >> w;) words.push_back(w);
  return words;
}

bool has_placeholder(const ScaleOptions& options) {
  for (const std::string& w : options.command) {
    if (w.find(kScalePlaceholder) != std::string::npos) return true;
  }
  return false;
}

}  // namespace

std::vector<std::uint32_t> scale_values(const ScaleOptions& options, unsigned cpus) {
  if (!options.values.empty()) return options.values;
  const std::uint32_t max = options.max != 0 ? options.max : 2 * (cpus == 0 ? 1 : cpus);
  std::vector<std::uint32_t> out;
  for (std::uint64_t n = 1; n <= max; n *= 2) out.push_back(static_cast<std::uint32_t>(n));
  if (out.back() != max) out.push_back(max);
  return out;
}

std::vector<std::string> scale_argv(const ScaleOptions& options, std::uint32_t n) {
  const std::string value = std::to_string(n);
  std::vector<std::string> words = words_of(options);
  for (std::string& w : words) w = replace_all(w, kScalePlaceholder, value);
  if (!options.shell) return words;
  std::string joined;
  for (const std::string& w : words) joined += (joined.empty() ? "" : " ") + w;
  return {"/bin/sh", "-c", joined};
}

std::string find_program(const std::string& program, const std::string& path_env) {
  if (program.empty()) return "";
  if (program.find('/') != std::string::npos) return ::access(program.c_str(), X_OK) == 0 ? program : "";
  std::istringstream dirs(path_env);
  for (std::string dir; std::getline(dirs, dir, ':');) {
    std::string candidate = (dir.empty() ? std::string(".") : dir) + "/" + program;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return "";
}

void check_scale_command(const ScaleOptions& options) {
  if (options.command.empty()) {
    throw UserError(
        "no command given: put it after --, with {N} where the parallelism goes "
        "(sluice scale --values=1,2,4 -- make -j{N})");
  }
  if (!has_placeholder(options)) {
    throw UserError(
        "the command has no {N}: write {N} where the parallelism goes (make -j{N}); sluice scale "
        "replaces it by each value of --values or 1, 2, 4, ... up to --max");
  }
  if (options.shell) return;  // the shell finds (or reports) its programs; exit 127 is reported as not found
  const std::string program = scale_argv(options, 1).front();
  const char* path = std::getenv("PATH");
  if (find_program(program, path ? path : "/usr/local/bin:/usr/bin:/bin").empty()) {
    throw UserError("command not found: '" + program + "' is not " +
                    (program.find('/') != std::string::npos ? std::string("an executable file")
                                                            : std::string("an executable in PATH")) +
                    " (give a path, or --shell to run the command through /bin/sh)");
  }
}

}  // namespace sluice
