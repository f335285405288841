// The man pages and the shell completion come from the option tables: every command, every option.
#include "cli/man_page.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "cli/command_registry.h"
#include "cli/completion.h"
#include "job/option_table.h"

namespace sluice {
namespace {

// An option's name as it appears in a page: roff's escaped hyphens.
std::string in_roff(const std::string& name) {
  std::string out = "\\-\\-";
  for (char c : name) out += c == '-' ? std::string("\\-") : std::string(1, c);
  return out;
}

const ManPage* page(const std::vector<ManPage>& pages, const std::string& file) {
  const auto it = std::find_if(pages.begin(), pages.end(), [&](const ManPage& p) { return p.file == file; });
  return it == pages.end() ? nullptr : &*it;
}

TEST(ManPages, EveryCommandHasAPageListingEveryOptionOfItsTable) {
  const std::vector<ManPage> pages = render_man_pages();
  ASSERT_NE(page(pages, "sluice.1"), nullptr);
  for (const CommandEntry& e : command_registry()) {
    if (e.name == "help" || e.name == "version") continue;
    const ManPage* p = page(pages, "sluice-" + e.name + ".1");
    ASSERT_NE(p, nullptr) << e.name;
    EXPECT_EQ(p->text.rfind(".TH SLUICE-", 0), 0u) << e.name;
    EXPECT_NE(page(pages, "sluice.1")->text.find("sluice\\-" + e.name + "(1)"), std::string::npos) << e.name;
    if (e.info->lists_job_options) {  // run: the job option table too
      for (const OptionDef& o : option_table()) {
        EXPECT_NE(p->text.find("\\fB" + in_roff(o.name)), std::string::npos) << "run: --" << o.name;
      }
    }
    for (const OptionInfo& o : e.info->options) {
      EXPECT_NE(p->text.find("\\fB" + in_roff(o.name)), std::string::npos) << e.name << ": --" << o.name;
    }
  }
}

TEST(ManPages, TextCannotStartARoffRequest) {
  for (const ManPage& p : render_man_pages()) {
    std::size_t at = 0;
    while ((at = p.text.find('\n', at)) != std::string::npos) {
      ++at;
      if (at >= p.text.size() || p.text[at] != '.') continue;
      const std::string request = p.text.substr(at, p.text.find_first_of(" \n", at) - at);
      const std::vector<std::string> ours = {".TH", ".SH", ".SS", ".TP", ".PP", ".nf", ".fi", ".br"};
      EXPECT_NE(std::find(ours.begin(), ours.end(), request), ours.end()) << p.file << ": " << request;
    }
  }
}

TEST(Completion, BashAndZshOfferEveryCommandAndItsOptions) {
  const std::string bash = render_bash_completion();
  const std::string zsh = render_zsh_completion();
  EXPECT_NE(bash.find("complete -F _sluice sluice"), std::string::npos);
  EXPECT_EQ(zsh.rfind("#compdef sluice\n", 0), 0u);
  for (const CommandEntry& e : command_registry()) {
    EXPECT_NE(bash.find("    " + e.name + ") words=\"--"), std::string::npos) << e.name;
    EXPECT_NE(zsh.find("'" + e.name + ":"), std::string::npos) << e.name;
    if (e.info->options.empty()) continue;
    const OptionInfo& first = e.info->options.front();
    EXPECT_NE(bash.find("--" + first.name), std::string::npos) << e.name;
    EXPECT_NE(zsh.find("'--" + first.name), std::string::npos) << e.name;
  }
  EXPECT_NE(bash.find("\"run --ioengine\") choices=\""), std::string::npos);  // fio's values, from the job table
  EXPECT_NE(bash.find("io_uring"), std::string::npos);
}

}  // namespace
}  // namespace sluice
