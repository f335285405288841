#pragma once
// bonnie++ 2.00a's parameters: its short options (-d -s -n -r -b -x -q -m -u -f -z), its units (-s in MiB,
// -n in 1024s of files), its defaults and its refusals (the file must be twice the RAM, chunk sizes are
// powers of two from 256 bytes to 1 MiB, the file-test name list must fit in RAM).
#include <cstdint>
#include <string>
#include <vector>

namespace sluice {

inline constexpr std::int64_t kBonnieDefaultChunk = 8192;
inline constexpr std::int64_t kBonnieDefaultSeeks = 8192;
inline constexpr std::int64_t kBonnieDefaultSeekers = 5;
inline constexpr std::int64_t kBonnieDefaultFileSize = 300;  // MiB, when the RAM is not known
inline constexpr std::int64_t kBonnieDirectoryUnit = 1024;   // -n counts files in 1024s
inline constexpr std::int64_t kBonnieLinks = -1;             // -n num:-1: hard links to the first file
inline constexpr std::int64_t kBonnieSymlinks = -2;          // -n num:-2: symbolic links

struct BonnieOptions {
  std::string dir = ".";
  std::int64_t size_mib = kBonnieDefaultFileSize;
  bool size_given = false;
  std::int64_t chunk = kBonnieDefaultChunk;
  std::int64_t seeks = kBonnieDefaultSeeks;
  std::int64_t seekers = kBonnieDefaultSeekers;
  std::int64_t byte_io_mib = 3;  // -f: the per-char tests' size; 0 skips them
  std::int64_t files = 16;       // in 1024s; 0 skips the file tests
  std::int64_t max_size = 0;     // bytes, or kBonnieLinks / kBonnieSymlinks
  std::int64_t min_size = 0;
  std::int64_t dirs = 1;
  std::int64_t file_chunk = kBonnieDefaultChunk;
  std::int64_t ram_mib = 0;  // 0: the RAM checks are off
  bool sync = false;         // -b: fsync after every write
  int runs = -1;             // -x; -1: one run with the text report
  bool quiet = false;
  std::string machine;  // -m; empty: the host name
  std::uint32_t seed = 0;
  bool seed_given = false;
};

// bonnie++'s command line rewritten as sluice's long options: "-d DIR" and "-dDIR" become "--dir=DIR",
// "-qb" becomes "--quiet --no-write-buffering", "-f" becomes "--byte-io=0" and "-f5" "--byte-io=5". Long
// options pass through unchanged. Throws UserError naming a bonnie++ option sluice does not implement
// (-c other than 1, -p, -y, -Z, -D, -g) or one bonnie++ does not have.
std::vector<std::string> bonnie_long_arguments(const std::vector<std::string>& args);

// size_from_str of bonnie++: an integer with an optional suffix from `suffixes`, the n-th suffix
// multiplying by 1024^(n+1) ("gt": 2g = 2048). `where` names the option in the message. Throws UserError.
std::int64_t bonnie_number(const std::string& text, const std::string& suffixes, const std::string& where);

// A size in MiB as -s and -r take it: a bare number or an m suffix is MiB, g GiB, t TiB ("2g" = 2048).
// Throws UserError naming `where`.
std::int64_t bonnie_mib(const std::string& text, const std::string& where);

// -r SIZE: the RAM in MiB (bonnie_mib). bonnie++ 2.00a reads -r as a bare number and drops a unit ("-r 1g" is
// 1 MiB there); sluice honours it, and returns in `note` the sentence that says so ("" for a bare number or m).
std::int64_t bonnie_ram_mib(const std::string& text, std::string& note);

// -s size[:chunk[:seeks[:seekers]]] (size in MiB, m/g/t suffixes; chunk in bytes, k suffix).
void apply_bonnie_size(const std::string& text, BonnieOptions& options);

// -n num[:max[:min[:dirs[:chunk]]]] (num in 1024s of files, m suffix; sizes in bytes, k/m/g suffixes; max -1
// or -2 for hard or symbolic links).
void apply_bonnie_files(const std::string& text, BonnieOptions& options);

// The RAM in MiB as bonnie++ reads it (sysconf pages), 0 when unknown.
std::int64_t bonnie_detected_ram_mib();

// bonnie++'s checks and defaults after parsing: without -s the size is max(300, 2 x RAM) rounded up to a GiB
// when the remainder passes 512 MiB; -f is capped at the size; then the refusals (in bonnie++'s order), each
// a UserError naming the option: nothing to do, chunk sizes, min > max, an explicit size under twice the
// RAM ("File size should be double RAM for good results"), more than 99,999 directories, a name list that
// would take half the RAM.
void finish_bonnie_options(BonnieOptions& options);

// The "Name:Size etc" field of the text report ("64M", "1G:4k", "64M:::100:3") and the CSV file_size ("64M").
std::string bonnie_size_field(const BonnieOptions& options, bool text);

// The file-test field: text "1:100:10/2", CSV "1,100,10,,2" (bonnie++ 2.00a's slots, dirs in the chunk slot).
std::string bonnie_files_field(const BonnieOptions& options, bool text);

}  // namespace sluice
