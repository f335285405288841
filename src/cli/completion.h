#pragma once
// Shell completion for sluice, generated from the command tables (sluice help --completion=bash|zsh, run by the
// build): the commands, each command's options (fio's job options for run), and the values of choice options.
#include <string>

namespace sluice {

// A bash completion script defining _sluice and `complete -F _sluice sluice` (bash-completion loads it from
// share/bash-completion/completions/sluice).
std::string render_bash_completion();

// A zsh completion function (#compdef sluice; installed as share/zsh/vendor-completions/_sluice).
std::string render_zsh_completion();

}  // namespace sluice
