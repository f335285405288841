#pragma once
// iozone 3.414's text report (header block, the row of each cell in its fixed widths, where numbers wider
// than a field run into the next as in 3.414), its -R "Excel" tables, the -b file (CSV), sluice's additions
// (the page-cache lint of each cell, the --format=csv matrix) and the JSON section "sluice"."iozone".
#include <cstdint>
#include <ctime>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "suites/iozone_plan.h"
#include "suites/iozone_run.h"

namespace sluice {

// Where a cell's file stood relative to the page cache.
enum class IozoneCache {
  kFits,    // file <= MemAvailable at start: reads (and writes without -e) can be served from memory
  kLarger,  // file > MemAvailable: cannot stay cached as a whole
  kDirect,  // -I: tests 0-5 bypass the page cache (tests 6 and 7, stdio, still use it)
};
IozoneCache iozone_cache_state(std::uint64_t file_bytes, std::uint64_t mem_available_bytes, bool direct) noexcept;
const char* iozone_cache_name(IozoneCache c) noexcept;  // "fits", "larger", "direct"

// The header block down to the two column-title lines. `command_line` is shown after "Command line used:".
std::string render_iozone_header(const IozoneOptions& o, const std::string& command_line, std::time_t began,
                                 std::uint64_t resolution_ns);
// The two column-title lines of 3.414.
std::string render_iozone_titles();
// One cell's row: "%16lld%8lld" then each column in its width; columns not run are blank.
std::string render_iozone_row(const IozoneCellResult& r);
// "\niozone test complete.\n", then with -R "Excel output is below:" and the tables (plus CPU tables with -+u).
std::string render_iozone_end(const IozoneOptions& o, const IozonePlan& plan,
                              const std::vector<IozoneCellResult>& cells);
// The -R tables alone: for each selected column a blank line, the quoted title, the quoted record sizes, one
// line per file size (0 where a record <= the file was not measured, e.g. skipped by the crossover rule).
std::string render_iozone_excel(const IozoneOptions& o, const IozonePlan& plan,
                                const std::vector<IozoneCellResult>& cells);
// The -b file: the same tables as CSV (title row, header row, one row per file size, blank row between).
std::string render_iozone_excel_csv(const IozoneOptions& o, const IozonePlan& plan,
                                    const std::vector<IozoneCellResult>& cells);
// sluice's page-cache lint: one line per file size, after the iozone report.
std::string render_iozone_lint(const IozoneOptions& o, const IozonePlan& plan, std::uint64_t mem_available_bytes);
// --format=csv: one line per cell, kB/s per column (empty when not run), then the page-cache state.
std::string render_iozone_csv(const IozoneOptions& o, const std::vector<IozoneCellResult>& cells,
                              std::uint64_t mem_available_bytes);
// "sluice"."iozone": the options, the matrix and every cell with bytes, seconds, kB/s and latency.
nlohmann::json iozone_json(const IozoneOptions& o, const IozonePlan& plan, const IozoneRunResult& r,
                           std::uint64_t mem_available_bytes);

}  // namespace sluice
