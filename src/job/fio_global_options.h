#pragma once
// fio's global command-line options (those fio --help lists before the job options) as `sluice run` and
// the `fio` link take them: --max-jobs, --readonly, --section, --bandwidth-log, --minimal, --terse-version,
// --append-terse, --eta-newline, --eta-interval, --warnings-fatal, --debug, --aux-path, --inflate-log; the --trigger*
// options are refused by name. Values are checked as fio 3.33 checks them.
#include <string>
#include <string_view>
#include <vector>

#include "job/job_spec.h"

namespace sluice {

// The option names (without "--"), for the parser and its did-you-mean.
const std::vector<std::string>& fio_global_option_names();

// True when the option needs a value (given as --opt=value or as the next argument).
bool fio_global_option_takes_value(std::string_view name);

// Applies one option to `run`. Throws UserError "--name=value: what is wrong; the valid values" on a bad
// value, and for the --trigger* options (refused with the reason).
void apply_fio_global_option(std::string_view name, const std::string& value, bool has_value, RunOptions& run);

// fio's --debug categories (fio 3.33), "all" included.
const std::vector<std::string>& fio_debug_categories();

}  // namespace sluice
