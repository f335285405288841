#include "suites/postmark_script.h"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <limits>
#include <sstream>

#include "common/nearest.h"

namespace sluice {
namespace {

struct CommandSpec {
  const char* name;
  const char* help;  // sluice's own wording of what the command does
};

// PostMark's command table order; `help` lists them in this order.
const std::vector<CommandSpec>& command_specs() {
  static const std::vector<CommandSpec> kSpecs = {
      {"set size", "file size bounds in bytes: LOW [HIGH] (one value: every file has that size)"},
      {"set number", "number of files in the initial pool"},
      {"set seed", "seed of the random number generator"},
      {"set transactions", "number of transactions"},
      {"set location", "directory of the files: DIR [WEIGHT] replaces all, +DIR [WEIGHT] adds, -DIR removes"},
      {"set subdirectories", "number of subdirectories per location (used when more than 1)"},
      {"set read", "read block size in bytes"},
      {"set write", "write block size in bytes"},
      {"set buffering", "true: C stdio (fopen/fread/fwrite); false: open/read/write"},
      {"set bias read", "chance in tenths of read over append (0-10; -1 disables read/append)"},
      {"set bias create", "chance in tenths of create over delete (0-10; -1 disables create/delete)"},
      {"set report", "verbose or terse report"},
      {"run", "runs the benchmark once (run FILE appends the report to FILE)"},
      {"load", "reads commands from a file"},
      {"show", "prints the configuration (show FILE appends it to FILE)"},
      {"help", "prints the commands"},
      {"quit", "ends the command list (also: exit)"},
  };
  return kSpecs;
}

std::vector<std::string> split_words(const std::string& s) {
  std::vector<std::string> words;
  std::istringstream in(s);
  for (std::string w; in >> w;) words.push_back(w);
  return words;
}

std::string trim(const std::string& s) {
  const auto first = s.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return "";
  return s.substr(first, s.find_last_not_of(" \t\r\n") - first + 1);
}

// The rest of `line` after its first `words` words.
std::string after_words(const std::string& line, std::size_t words) {
  std::size_t pos = 0;
  for (std::size_t i = 0; i < words; ++i) {
    pos = line.find_first_not_of(" \t", pos);
    pos = line.find_first_of(" \t", pos);
    if (pos == std::string::npos) return "";
  }
  return trim(line.substr(pos));
}

std::string join_first(const std::vector<std::string>& words, std::size_t n) {
  std::string out;
  for (std::size_t i = 0; i < n && i < words.size(); ++i) out += (i ? " " : "") + words[i];
  return out;
}

std::string comma_list(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& i : items) out += (out.empty() ? "" : ", ") + i;
  return out;
}

// The command whose words are nearest to the line's first words; "" when none is close.
std::string nearest_command(const std::vector<std::string>& words) {
  std::string best;
  std::size_t best_distance = std::numeric_limits<std::size_t>::max();
  for (const CommandSpec& spec : command_specs()) {
    const std::string name = spec.name;
    const std::string typed = join_first(words, split_words(name).size());
    const std::size_t d = edit_distance(typed, name);
    if (d < best_distance && d <= std::max<std::size_t>(2, name.size() / 3)) {
      best = name;
      best_distance = d;
    }
  }
  return best;
}

[[noreturn]] void bad(const PostmarkCommand& c, const std::string& why) {
  throw UserError(c.where.describe() + ": '" + c.name + (c.param.empty() ? "" : " " + c.param) + "': " + why);
}

bool parse_int(const std::string& text, long long& value) {
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  return ec == std::errc() && ptr == end;
}

// A positive int, as PostMark's cli_generic_int accepts (it takes atoi's result when > 0).
int positive(const PostmarkCommand& c, const std::string& text, long long max = std::numeric_limits<int>::max()) {
  long long v = 0;
  if (!parse_int(text, v) || v <= 0 || v > max) bad(c, "expected a whole number from 1 to " + std::to_string(max));
  return static_cast<int>(v);
}

int bias(const PostmarkCommand& c) {
  long long v = 0;
  if (!parse_int(c.param, v) || v < -1 || v > 10) bad(c, "expected a bias from 0 to 10, or -1 to disable");
  return static_cast<int>(v);
}

void set_size(const PostmarkCommand& c, PostmarkConfig& config) {
  const std::vector<std::string> words = split_words(c.param);
  if (words.empty() || words.size() > 2) bad(c, "expected LOW [HIGH] in bytes, e.g. 'set size 500 10000'");
  const int low = positive(c, words[0], PostmarkConfig::kMaxSize);
  const int high = words.size() == 2 ? positive(c, words[1], PostmarkConfig::kMaxSize) : low;
  if (high < low) bad(c, "HIGH (" + words[1] + ") is below LOW (" + words[0] + ")");
  config.size_low = low;
  config.size_high = high;
}

// "DIR [WEIGHT]": the weight is the last word when there are several.
PostmarkLocation parse_location(const PostmarkCommand& c, const std::string& text) {
  PostmarkLocation l;
  l.path = text;
  const auto space = text.find_last_of(" \t");
  if (space != std::string::npos) {
    l.path = trim(text.substr(0, space));
    l.weight = positive(c, text.substr(space + 1), 1000000);
  }
  if (l.path.empty()) bad(c, "no directory given");
  return l;
}

void set_location(const PostmarkCommand& c, PostmarkConfig& config) {
  if (c.param.empty()) bad(c, "no directory given");
  if (c.param[0] == '+') {
    config.locations.push_back(parse_location(c, c.param.substr(1)));
  } else if (c.param[0] == '-') {
    const std::string path = trim(c.param.substr(1));
    auto it = std::find_if(config.locations.begin(), config.locations.end(),
                           [&](const PostmarkLocation& l) { return l.path == path; });
    if (it == config.locations.end()) bad(c, "no location '" + path + "' to remove");
    config.locations.erase(it);
  } else {
    config.locations = {parse_location(c, c.param)};
  }
}

}  // namespace

const std::vector<std::string>& postmark_command_names() {
  static const std::vector<std::string> kNames = [] {
    std::vector<std::string> names;
    for (const CommandSpec& s : command_specs()) names.emplace_back(s.name);
    return names;
  }();
  return kNames;
}

bool parse_postmark_line(const std::string& raw, const SourcePos& where, PostmarkCommand& out) {
  std::string line = trim(raw);
  if (line.empty() || line[0] == '#') return false;
  if (line == "?") line = "help";
  if (line == "exit") line = "quit";
  if (line[0] == '!') throw UserError(where.describe() + ": '" + line + "': shell escapes ('!') are not run by sluice");
  const std::vector<std::string> words = split_words(line);
  const CommandSpec* match = nullptr;
  std::size_t match_words = 0;
  for (const CommandSpec& spec : command_specs()) {
    const std::vector<std::string> name_words = split_words(spec.name);
    if (name_words.size() <= words.size() && std::equal(name_words.begin(), name_words.end(), words.begin()) &&
        name_words.size() > match_words) {
      match = &spec;
      match_words = name_words.size();
    }
  }
  if (match == nullptr) {
    const std::string near = nearest_command(words);
    throw UserError(where.describe() + ": unknown PostMark command '" + line + "'" +
                    (near.empty() ? "; the commands are: " + comma_list(postmark_command_names())
                                  : "; did you mean '" + near + "'?"));
  }
  out.name = match->name;
  out.param = after_words(line, match_words);
  out.where = where;
  const std::string& n = out.name;
  out.kind = n.rfind("set ", 0) == 0 ? PostmarkCommand::Kind::kSet
             : n == "run"            ? PostmarkCommand::Kind::kRun
             : n == "show"           ? PostmarkCommand::Kind::kShow
             : n == "help"           ? PostmarkCommand::Kind::kHelp
                                     : PostmarkCommand::Kind::kQuit;
  return true;
}

namespace {

// `load` may nest (PostMark allows it) but a file that loads itself would recurse until the stack overflows.
constexpr int kMaxLoadDepth = 16;

std::vector<PostmarkCommand> parse_script(std::istream& in, const std::string& source, int depth);

std::vector<PostmarkCommand> parse_file(const std::string& path, int depth) {
  std::ifstream in(path);
  if (!in) throw UserError("postmark: cannot read configuration file '" + path + "'");
  return parse_script(in, path, depth);
}

std::vector<PostmarkCommand> parse_script(std::istream& in, const std::string& source, int depth) {
  std::vector<PostmarkCommand> commands;
  int number = 0;
  for (std::string line; std::getline(in, line);) {
    PostmarkCommand c;
    if (!parse_postmark_line(line, SourcePos{source, ++number}, c)) continue;
    if (c.name == "load") {
      if (c.param.empty()) throw UserError(c.where.describe() + ": 'load' needs a file name");
      if (depth >= kMaxLoadDepth) {
        throw UserError(c.where.describe() + ": load " + c.param + ": loads nest deeper than " +
                        std::to_string(kMaxLoadDepth) + " (does a file load itself?)");
      }
      std::vector<PostmarkCommand> loaded = parse_file(c.param, depth + 1);
      commands.insert(commands.end(), loaded.begin(), loaded.end());
      continue;
    }
    commands.push_back(std::move(c));
  }
  return commands;
}

}  // namespace

std::vector<PostmarkCommand> parse_postmark_script(std::istream& in, const std::string& source) {
  return parse_script(in, source, 0);
}

std::vector<PostmarkCommand> parse_postmark_file(const std::string& path) { return parse_file(path, 0); }

PostmarkCommand postmark_set_option(const std::string& assignment) {
  const auto eq = assignment.find('=');
  std::string name = assignment.substr(0, eq);
  std::replace(name.begin(), name.end(), '-', ' ');
  std::replace(name.begin(), name.end(), '_', ' ');
  std::string value = eq == std::string::npos ? "" : assignment.substr(eq + 1);
  std::vector<std::string> set_names;
  for (const std::string& n : postmark_command_names()) {
    if (n.rfind("set ", 0) == 0) set_names.push_back(n.substr(4));
  }
  if (std::find(set_names.begin(), set_names.end(), trim(name)) == set_names.end()) {
    const std::string near = nearest_of(trim(name), set_names);
    throw UserError("--set=" + assignment + ": unknown PostMark setting '" + trim(name) + "'" +
                    (near.empty() ? "; the settings are: " + comma_list(set_names) : "; did you mean '" + near + "'?"));
  }
  if (eq == std::string::npos || trim(value).empty()) {
    throw UserError("--set=" + assignment + ": expected NAME=VALUE, e.g. --set number=1000");
  }
  if (trim(name) == "size") std::replace(value.begin(), value.end(), ',', ' ');
  PostmarkCommand c;
  c.kind = PostmarkCommand::Kind::kSet;
  c.name = "set " + trim(name);
  c.param = trim(value);
  c.where = SourcePos{"--set", 0};
  return c;
}

void apply_postmark_set(const PostmarkCommand& c, PostmarkConfig& config) {
  const std::string key = c.name.substr(4);
  if (key == "size") return set_size(c, config);
  if (key == "location") return set_location(c, config);
  if (key == "number") {
    config.number = positive(c, c.param, 100000000);
    return;
  }
  if (key == "seed") {
    config.seed = static_cast<std::uint32_t>(positive(c, c.param));
    return;
  }
  if (key == "transactions") {
    config.transactions = positive(c, c.param);
    return;
  }
  if (key == "subdirectories") {
    config.subdirectories = positive(c, c.param, 1000000);
    return;
  }
  if (key == "read") {
    config.read_block = positive(c, c.param, PostmarkConfig::kMaxSize);
    return;
  }
  if (key == "write") {
    config.write_block = positive(c, c.param, PostmarkConfig::kMaxSize);
    return;
  }
  if (key == "bias read") {
    config.bias_read = bias(c);
    return;
  }
  if (key == "bias create") {
    config.bias_create = bias(c);
    return;
  }
  if (key == "buffering") {
    if (c.param != "true" && c.param != "false") bad(c, "expected true or false");
    config.buffered = c.param == "true";
    return;
  }
  if (key == "report") {
    if (c.param != "verbose" && c.param != "terse") bad(c, "expected verbose or terse");
    config.terse = c.param == "terse";
    return;
  }
  bad(c, "not a setting");
}

std::string render_postmark_help() {
  std::string out;
  for (const CommandSpec& s : command_specs()) out += std::string(s.name) + " - " + s.help + "\n";
  return out;
}

}  // namespace sluice
