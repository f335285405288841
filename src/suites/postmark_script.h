#pragma once
// PostMark's command language: lines such as "set size 500 10000", "set location +/mnt/b 2", "run", "show",
// "load FILE", "quit", read from a configuration file, from stdin or built from --set name=value. Parsing is
// separate from running: a script is parsed and every `set` checked before anything touches a disk.
#include <istream>
#include <string>
#include <vector>

#include "common/error.h"
#include "suites/postmark_config.h"

namespace sluice {

struct PostmarkCommand {
  enum class Kind { kSet, kRun, kShow, kHelp, kQuit };
  Kind kind = Kind::kRun;
  std::string name;   // as in PostMark's command table: "set bias read", "run", ...
  std::string param;  // the rest of the line, trimmed; empty when none
  SourcePos where;
};

// PostMark's command names, in its table's order ("set size" ... "quit"; `load` is expanded while parsing).
const std::vector<std::string>& postmark_command_names();

// One line. Blank lines and lines starting with '#' give no command (false). "exit" is "quit", "?" is
// "help". Throws UserError for an unknown command (naming the nearest valid one) and for "!" shell escapes.
// `load FILE` is returned as a command named "load" for parse_postmark_script to expand.
bool parse_postmark_line(const std::string& line, const SourcePos& where, PostmarkCommand& out);

// All commands of `in` (a file named `source`, or "stdin"), with `load` files read in place.
std::vector<PostmarkCommand> parse_postmark_script(std::istream& in, const std::string& source);
// The file's commands; UserError when it cannot be read.
std::vector<PostmarkCommand> parse_postmark_file(const std::string& path);

// `--set NAME=VALUE` as the command "set NAME VALUE": NAME is PostMark's (size, number, bias-read or
// "bias read", ...); a comma in the size value separates low and high. UserError naming --set and the
// nearest setting when NAME is unknown.
PostmarkCommand postmark_set_option(const std::string& assignment);

// Applies a `set` command to `config`. Throws UserError with the command, its position and the valid range
// where PostMark would print "Error: ..." and carry on.
void apply_postmark_set(const PostmarkCommand& command, PostmarkConfig& config);

// PostMark's `help` text: "name - description" per command.
std::string render_postmark_help();

}  // namespace sluice
