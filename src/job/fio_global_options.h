#pragma once
// The values of fio's global command-line options (those fio --help lists before the job options), checked as
// fio 3.33 checks them. `sluice run` declares the options themselves in its command table
// (cli/run_command.cpp); these are the checks its rows call. Each throws UserError starting with `where`,
// the option as the user wrote it ("--terse-version=6").
#include <chrono>
#include <string>
#include <string_view>
#include <vector>

namespace sluice {

// --max-jobs=N: a positive count (fio sizes its job table with it; sluice has none and only checks it).
void check_fio_max_jobs(std::string_view where, const std::string& value);

// --terse-version=N: 2, 3, 4 or 5.
int fio_terse_version(std::string_view where, const std::string& value);

// --eta-newline=T and --eta-interval=T: positive durations, a bare number being seconds as fio reads them;
// the interval at least 250 ms, as fio requires.
std::chrono::nanoseconds fio_eta_newline(std::string_view where, const std::string& value);
std::chrono::nanoseconds fio_eta_interval(std::string_view where, const std::string& value);

// --debug=CATS: a comma list of fio's debug categories (or "?"); sluice has no debug trace and only checks it.
void check_fio_debug(std::string_view where, const std::string& value);

// fio's --debug categories (fio 3.33), "all" included.
const std::vector<std::string>& fio_debug_categories();

}  // namespace sluice
