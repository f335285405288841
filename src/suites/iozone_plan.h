#pragma once
// `sluice iozone`: IOzone 3.414's options and its auto-mode matrix (file size x record size, with the
// crossover rule that skips small records on large files), as docs/iozone.md and the reference describe.
// Pure planning: no I/O here.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sluice {

inline constexpr const char* kIozoneVersion = "3.414";

// iozone's tests by -i number; each is one or two timed passes (columns of the report).
enum class IozoneTest : int {
  kWrite = 0,          // write, rewrite
  kRead = 1,           // read, reread
  kRandom = 2,         // random read, random write
  kBackward = 3,       // bkwd read
  kRecordRewrite = 4,  // record rewrite
  kStride = 5,         // stride read
  kFwrite = 6,         // fwrite, frewrite
  kFread = 7,          // fread, freread
};
inline constexpr int kIozoneTests = 8;
inline constexpr int kIozoneColumns = 13;

// The report's thirteen columns in order; `test` is the -i number that produces it.
struct IozoneColumn {
  std::string_view key;          // JSON/CSV key: "write", "random_read", ...
  std::string_view excel_title;  // -R table title: "Writer report"
  int test;
  int width;  // printf width of the 3.414 row ("%8lld"; " %8lld" counts 9)
};
const std::array<IozoneColumn, kIozoneColumns>& iozone_columns();

struct IozoneOptions {
  bool auto_mode = false;                                 // -a
  bool no_crossover = false;                              // -z
  std::optional<std::uint64_t> min_file_kb, max_file_kb;  // -n, -g
  std::optional<std::uint64_t> min_rec_kb, max_rec_kb;    // -y, -q
  std::vector<int> tests;                                 // -i, in the order given; empty = all of 0-7
  std::vector<std::uint64_t> file_kb;                     // -s (repeatable)
  std::vector<std::uint64_t> rec_kb;                      // -r (repeatable)
  bool direct = false;                                    // -I: O_DIRECT (not for the stdio tests 6 and 7)
  bool fsync_in_timing = false;                           // -e
  bool close_in_timing = false;                           // -c
  std::string file = "iozone.tmp";                        // -f
  bool excel = false;                                     // -R
  std::string excel_file;                                 // -b
  bool cpu = false;                                       // -+u
  std::uint64_t stride_records = 17;                      // iozone's -j default (not settable here)
};

struct IozoneCell {
  std::uint64_t file_kb = 0;
  std::uint64_t rec_kb = 0;
  bool operator==(const IozoneCell&) const = default;
};

// The plan: cells in iozone's order (file size ascending, then record size), and the record sizes that head
// the -R tables (every record from the minimum to the maximum in -a, tested or not).
struct IozonePlan {
  std::vector<IozoneCell> cells;
  std::vector<std::uint64_t> file_sizes_kb;    // distinct, ascending: the -R rows
  std::vector<std::uint64_t> record_sizes_kb;  // the -R header
  bool selected[kIozoneTests] = {};
  std::uint64_t xover_kb = 0;  // files larger than this get records >= 64 KB only; 0 = rule off
};

// An iozone size: a bare number is kB; k, m, g suffixes as job/units.h parse_size (k = 1024). Returns kB,
// nullopt when it is not a size or not a whole number of kB.
std::optional<std::uint64_t> parse_iozone_kb(std::string_view text);

// Builds the matrix as iozone's auto_test does: files from -n (64 KB) to -g (512 MB) doubling, records from
// -y (4 KB) to -q (16 MB) doubling, a record only if <= the file, records < 64 KB skipped for files > 16 MB
// unless -z or any of -r, -s, -y, -q is given. -s / -r lists replace the doubling ranges; without -a, one cell
// per -s x -r (defaults 512 KB x 4 KB). Throws UserError naming the option: a record larger than its file, a
// minimum above its maximum, a test number outside 0-7, tests that read without one that writes the file.
IozonePlan plan_iozone(const IozoneOptions& o);

}  // namespace sluice
