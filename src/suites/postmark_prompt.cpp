#include "suites/postmark_prompt.h"

#include "common/error.h"
#include "suites/postmark_script.h"

namespace sluice {
namespace {

void print(std::FILE* out, const std::string& text) {
  std::fputs(text.c_str(), out);
  std::fflush(out);
}

// The commands of one typed line: none (blank, comment), one, or a loaded file's.
std::vector<PostmarkCommand> commands_of(const std::string& line, int number) {
  PostmarkCommand c;
  if (!parse_postmark_line(line, SourcePos{"prompt", number}, c)) return {};
  if (c.name != "load") return {c};
  if (c.param.empty()) throw UserError("'load' needs a file name");
  return parse_postmark_file(c.param);
}

}  // namespace

PostmarkSession run_postmark_prompt(std::istream& in, std::FILE* out, const std::vector<PostmarkCommand>& overrides,
                                    const std::function<bool()>& stop) {
  PostmarkExecutor executor(
      overrides, [out](const std::string& text) { print(out, text); }, stop);
  std::string line;
  bool going = true;
  for (int number = 1; going; ++number) {
    print(out, "pm>");
    if (!std::getline(in, line)) {
      print(out, "\n");
      break;
    }
    std::vector<PostmarkCommand> commands;
    try {
      commands = commands_of(line, number);
    } catch (const UserError& e) {
      print(out, std::string("Eh? (") + e.what() + ")\n");
      continue;
    }
    for (const PostmarkCommand& c : commands) {
      const std::size_t items = executor.session().items.size();
      try {
        going = executor.execute(c);
      } catch (const UserError& e) {
        print(out, std::string("Error: ") + e.what() + "\n");  // a failed run has removed its files
      }
      if (executor.session().items.size() > items)
        print(out, render_postmark_item(executor.session().items.back(), true));
      if (!going) break;
    }
  }
  return std::move(executor.session());
}

}  // namespace sluice
