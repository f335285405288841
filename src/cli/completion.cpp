#include "cli/completion.h"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "cli/command_registry.h"
#include "cli/command_table.h"
#include "job/option_table.h"
#include "version.h"

namespace sluice {
namespace {

struct CompletedOption {
  std::string name;                  // "output-format"
  bool takes_value = true;           // completed as "--name=" (no space after)
  std::vector<std::string> choices;  // the values offered after "--name="
  std::string help;                  // one line, for zsh
};

// What fio's job option table says of a choice option's values ("psync|sync|libaio").
std::vector<std::string> choices_of(const std::string& range) {
  if (range.find('|') == std::string::npos) return {};
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= range.size()) {
    std::size_t end = range.find('|', start);
    if (end == std::string::npos) end = range.size();
    std::string word = range.substr(start, end - start);
    word = word.substr(0, word.find('['));  // "randtrimwrite[:N]": the word; its suffix is the user's
    if (word.empty() || word.find_first_of(" ,():") != std::string::npos) return {};  // prose, not a list
    out.push_back(word);
    start = end + 1;
  }
  return out;
}

std::vector<CompletedOption> options_of(const CommandEntry& e) {
  std::vector<CompletedOption> out;
  for (const OptionInfo& o : e.info->options) {
    const bool choice = o.type == ValueType::kChoice || (o.type == ValueType::kList && o.element == ValueType::kChoice);
    const std::vector<std::string> choices = choice ? o.choices : std::vector<std::string>{};
    out.push_back({o.name, o.type != ValueType::kFlag, choices, o.help});
    for (const std::string& alias : o.aliases) out.push_back({alias, o.type != ValueType::kFlag, choices, o.help});
  }
  if (e.info->lists_job_options) {  // run: the job options too
    for (const OptionDef& o : option_table()) {
      if (!o.supported) continue;
      out.push_back({o.name, !o.flag, choices_of(o.range), o.help});
      for (const std::string& alias : o.aliases) out.push_back({alias, !o.flag, choices_of(o.range), o.help});
    }
  }
  out.push_back({"help", false, {}, "the command's help"});
  return out;
}

std::vector<const CommandEntry*> commands() {
  std::vector<const CommandEntry*> out;
  for (const CommandEntry& e : command_registry()) out.push_back(&e);
  return out;
}

std::string join(const std::vector<std::string>& words) {
  std::string out;
  for (const std::string& w : words) out += (out.empty() ? "" : " ") + w;
  return out;
}

// For zsh's _arguments: no brackets, colons or single quotes in a description.
std::string zsh_text(std::string text) {
  if (const std::size_t dot = text.find(". "); dot != std::string::npos) text = text.substr(0, dot);
  if (text.size() > 70) text = text.substr(0, 67) + "...";
  for (char& c : text) {
    if (c == '[' || c == '(') c = '{';
    if (c == ']' || c == ')') c = '}';
    if (c == ':' || c == '\'' || c == '\\' || c == '`' || c == '$') c = ' ';
  }
  return text;
}

}  // namespace

std::string render_bash_completion() {
  std::string names;
  std::string option_cases;
  std::string choice_cases;
  for (const CommandEntry* e : commands()) {
    std::vector<std::string> all = {e->name};
    all.insert(all.end(), e->aliases.begin(), e->aliases.end());
    for (const std::string& n : all) {
      if (n.rfind('-', 0) != 0) names += (names.empty() ? "" : " ") + n;
    }
    std::vector<std::string> words;
    for (const CompletedOption& o : options_of(*e)) {
      words.push_back("--" + o.name + (o.takes_value ? "=" : ""));
      if (!o.choices.empty())
        choice_cases += fmt::format("    \"{} --{}\") choices=\"{}\" ;;\n", e->name, o.name, join(o.choices));
    }
    option_cases += fmt::format("    {}) words=\"{}\" ;;\n", e->name, join(words));
  }
  return fmt::format(
      R"(# bash completion for sluice {version}, generated from its option tables (sluice help --completion=bash)
_sluice() {{
  local cur="${{COMP_WORDS[COMP_CWORD]}}" prev="${{COMP_WORDS[COMP_CWORD-1]}}" cmd="" words="" choices="" opt="" val=""
  if (( COMP_CWORD == 1 )); then
    COMPREPLY=( $(compgen -W "{names}" -- "$cur") )
    return
  fi
  cmd="${{COMP_WORDS[1]}}"
  [[ $cmd == fio ]] && cmd=run
  # --name=VALUE: bash splits at '=' (COMP_WORDBREAKS), so the option is one or two words back.
  if [[ $cur == = ]]; then opt="$prev"; val="";
  elif [[ $prev == = ]]; then opt="${{COMP_WORDS[COMP_CWORD-2]}}"; val="$cur";
  elif [[ $cur == --*=* ]]; then opt="${{cur%%=*}}"; val="${{cur#*=}}"; fi
  if [[ -n $opt ]]; then
    case "$cmd $opt" in
{choice_cases}    esac
    if [[ -n $choices ]]; then
      COMPREPLY=( $(compgen -W "$choices" -- "$val") )
    else
      COMPREPLY=( $(compgen -f -- "$val") )
    fi
    return
  fi
  if [[ $cur == -* ]]; then
    case "$cmd" in
{option_cases}    esac
    COMPREPLY=( $(compgen -W "$words" -- "$cur") )
    if [[ ${{#COMPREPLY[@]}} == 1 && ${{COMPREPLY[0]}} == *= ]]; then compopt -o nospace 2>/dev/null; fi
    return
  fi
  COMPREPLY=( $(compgen -f -- "$cur") )
}}
complete -F _sluice sluice
)",
      fmt::arg("version", SLUICE_VERSION), fmt::arg("names", names), fmt::arg("choice_cases", choice_cases),
      fmt::arg("option_cases", option_cases));
}

std::string render_zsh_completion() {
  std::string described;
  std::string cases;
  for (const CommandEntry* e : commands()) {
    described += fmt::format("    '{}:{}'\n", e->name, zsh_text(e->summary));
    std::string specs;
    for (const CompletedOption& o : options_of(*e)) {
      std::string spec = "'--" + o.name + (o.takes_value ? "=" : "") + "[" + zsh_text(o.help) + "]";
      if (o.takes_value) spec += o.choices.empty() ? ":value:_files" : ":value:(" + join(o.choices) + ")";
      specs += "        " + spec + "' \\\n";
    }
    std::string patterns = e->name;
    for (const std::string& alias : e->aliases) {
      if (alias.rfind('-', 0) != 0) patterns += "|" + alias;
    }
    cases += fmt::format("    {})\n      _arguments -s \\\n{}        '*:file:_files'\n      ;;\n", patterns, specs);
  }
  return fmt::format(R"(#compdef sluice
# zsh completion for sluice {version}, generated from its option tables (sluice help --completion=zsh)
_sluice() {{
  local -a commands
  commands=(
{described}  )
  if (( CURRENT == 2 )); then
    _describe 'command' commands
    return
  fi
  local cmd=$words[2]
  shift words
  (( CURRENT-- ))
  case $cmd in
{cases}    *)
      _files
      ;;
  esac
}}
_sluice "$@"
)",
                     fmt::arg("version", SLUICE_VERSION), fmt::arg("described", described), fmt::arg("cases", cases));
}

}  // namespace sluice
