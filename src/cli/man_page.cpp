#include "cli/man_page.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "cli/command_registry.h"
#include "cli/command_table.h"
#include "common/error.h"
#include "job/option_table.h"
#include "version.h"

namespace sluice {
namespace {

// Text for roff: backslashes and hyphens escaped, and a line never starts with a control character.
std::string roff(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '\\') {
      out += "\\e";
    } else if (c == '-') {
      out += "\\-";
    } else {
      out += c;
    }
  }
  if (!out.empty() && (out[0] == '.' || out[0] == '\'')) out = "\\&" + out;
  return out;
}

std::string upper(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::toupper(c); });
  return text;
}

std::string header(const std::string& page, const std::string& summary) {
  return fmt::format(".TH {} 1 \"\" \"sluice {}\" \"sluice manual\"\n.SH NAME\n{} \\- {}\n", upper(page),
                     SLUICE_VERSION, roff(page), roff(summary));
}

// --help's description as paragraphs: indented lines (examples, tables) stay as they are.
std::string paragraphs(const std::string& text) {
  std::string out;
  std::istringstream in(text);
  bool verbatim = false;
  for (std::string line; std::getline(in, line);) {
    const bool indented = !line.empty() && line[0] == ' ';
    if (indented != verbatim) {
      out += indented ? ".nf\n" : ".fi\n";
      verbatim = indented;
    }
    out += line.empty() ? ".PP\n" : roff(line) + "\n";
  }
  if (verbatim) out += ".fi\n";
  return out;
}

// ".TP" items: the names in bold, the help below.
std::string item(const std::string& names, const std::string& help) {
  return ".TP\n\\fB" + roff(names) + "\\fR\n" + roff(help) + "\n";
}

std::string job_options_section();

std::string command_page(const CommandEntry& e) {
  const CommandInfo& c = *e.info;
  std::string out = header("sluice-" + e.name, e.summary);
  out += ".SH SYNOPSIS\n" + roff(usage_text(c)) + "\n.SH DESCRIPTION\n" + paragraphs(c.description);
  if (!c.positionals.empty()) {
    out += ".SH ARGUMENTS\n";
    for (const PositionalInfo& p : c.positionals) out += item(p.name, p.help + (p.required ? "" : " (optional)"));
  }
  out += ".SH OPTIONS\n";
  for (const OptionInfo& o : c.options) out += item(option_names_text(o), option_help_text(o));
  out += item("-h, --help", "the command's help");
  if (!c.refused.empty()) {
    out += ".SH NOT IMPLEMENTED\nRefused by name:\n";
    for (const RefusedOption& r : c.refused) out += item(r.spelling, r.what);
  }
  if (c.passes_job_options && !c.lists_job_options) {
    out += ".PP\nEvery job option of sluice run is accepted too (sluice\\-run(1)).\n";
  }
  if (!c.notes.empty()) out += ".SH NOTES\n" + paragraphs(c.notes);
  if (c.lists_job_options) out += job_options_section();
  return out;
}

std::string job_option_names(const OptionDef& o) {
  std::string names = "--" + o.name;
  for (const std::string& alias : o.aliases) names += ", --" + alias;
  return names + (o.flag ? "[=BOOL]" : "=VALUE");
}

std::string job_option_help(const OptionDef& o) {
  std::string details;
  const auto add = [&details](const std::string& part) {
    if (!part.empty()) details += details.empty() ? part : "; " + part;
  };
  add(o.unit);
  add(o.range);
  if (!o.default_text.empty()) add("default " + o.default_text);
  std::string help = o.supported ? o.help : "refused: " + o.reason;
  return details.empty() ? help : help + " (" + details + ")";
}

// sluice run (and the fio link): after its own options, every job option of the job option table, by category.
std::string job_options_section() {
  std::string out =
      ".SH JOB OPTIONS\nJob options have fio's names and meanings, on the command line (\\-\\-name=value) "
      "or in job files (name=value). The ones sluice does not implement are refused by name.\n";
  std::vector<std::string> categories;
  for (const OptionDef& o : option_table()) {
    if (std::find(categories.begin(), categories.end(), o.category) == categories.end())
      categories.push_back(o.category);
  }
  for (const std::string& category : categories) {
    out += ".SS " + roff(category.empty() ? "other" : category) + "\n";
    for (const OptionDef& o : option_table()) {
      if (o.category == category) out += item(job_option_names(o), job_option_help(o));
    }
  }
  return out;
}

std::string overview_page() {
  std::string out = header("sluice", "a storage benchmark that measures what a storage system can really do");
  out +=
      ".SH SYNOPSIS\nsluice COMMAND [options]\n.SH DESCRIPTION\n"
      "sluice measures storage honestly by default: direct I/O, test areas larger than caches, "
      "incompressible data written before it is read, latency with every figure. It reads fio's options "
      "and job files and writes fio's JSON; it also runs the classic suites with their own reports.\n"
      ".SH COMMANDS\n";
  for (const CommandEntry& e : command_registry()) {
    if (e.name == "help" || e.name == "version") continue;
    out += item(e.name, e.summary + " (sluice-" + e.name + "(1))");
  }
  out += ".SH SEE ALSO\n";
  std::string pages;
  for (const CommandEntry& e : command_registry()) {
    if (e.name == "help" || e.name == "version") continue;
    pages += (pages.empty() ? "" : ", ") + ("\\fBsluice\\-" + roff(e.name).substr(0) + "\\fR(1)");
  }
  return out + pages + "\n";
}

}  // namespace

std::vector<ManPage> render_man_pages() {
  std::vector<ManPage> pages = {{"sluice.1", overview_page()}};
  for (const CommandEntry& e : command_registry()) {
    if (e.name == "help" || e.name == "version") continue;
    pages.push_back({"sluice-" + e.name + ".1", command_page(e)});
  }
  return pages;
}

std::vector<std::string> write_man_pages(const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw UserError(fmt::format("--man={}: {}", dir, ec.message()));
  std::vector<std::string> written;
  for (const ManPage& page : render_man_pages()) {
    const std::string path = dir + "/" + page.file;
    std::ofstream out(path, std::ios::trunc);
    if (!out || !(out << page.text) || !out.flush())
      throw UserError(fmt::format("{}: cannot write the man page", path));
    written.push_back(path);
  }
  return written;
}

}  // namespace sluice
