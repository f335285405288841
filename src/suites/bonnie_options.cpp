#include "suites/bonnie_options.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>

#include "common/error.h"

namespace sluice {
namespace {

constexpr std::int64_t kUnit = 1 << 20;
constexpr std::int64_t kMaxDataPerFile = 10 + 12 + 6 + 1 + 8;  // bonnie++: name, directory index, pointer

// bonnie++'s getopt string "bc:d:f::g:l:m:n:p:qr:s:u:x:y:z:Z:D": the options taking a value, as sluice's.
struct ShortOption {
  char letter;
  const char* long_name;  // nullptr: refused
  const char* refusal;    // why, for the refused ones
};

constexpr ShortOption kShortOptions[] = {
    {'d', "dir", nullptr},
    {'s', "size", nullptr},
    {'n', "files", nullptr},
    {'r', "ram", nullptr},
    {'x', "runs", nullptr},
    {'m', "machine", nullptr},
    {'u', "user", nullptr},
    {'z', "seed", nullptr},
    {'c', "concurrency", nullptr},
    {'p', nullptr, "-p (semaphores for several bonnie++ processes) is not implemented by sluice bonnie"},
    {'y', nullptr, "-y (waiting on bonnie++'s semaphore) is not implemented by sluice bonnie"},
    {'Z', nullptr, "-Z (random numbers from a file) is not implemented by sluice bonnie; use -z SEED"},
    {'g', nullptr, "-g (the group to run as) is not implemented by sluice bonnie: it never changes user"},
    {'l', nullptr, "-l is not an option of bonnie++ 2.00a"},
};

[[noreturn]] void fail(const std::string& where, const std::string& message) {
  throw UserError("bonnie: " + where + ": " + message);
}

std::vector<std::string> split_colons(const std::string& text) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (true) {
    const std::size_t colon = text.find(':', start);
    parts.push_back(text.substr(start, colon == std::string::npos ? std::string::npos : colon - start));
    if (colon == std::string::npos) return parts;
    start = colon + 1;
  }
}

bool power_of_two(std::int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

// print_size of bonnie++: the value in the largest unit of `units` that divides it ("1024" MiB -> "1G").
std::string unit_text(std::int64_t value, const std::string& units) {
  std::size_t index = 0;
  if (value == 0) return std::to_string(value) + (units[0] == ' ' ? "" : std::string(1, units[0]));
  while (value % 1024 == 0 && index + 1 < units.size()) {
    value /= 1024;
    ++index;
  }
  std::string out = std::to_string(value);
  if (units[index] != ' ') out += units[index];
  return out;
}

}  // namespace

std::vector<std::string> bonnie_long_arguments(const std::vector<std::string>& args) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg.size() < 2 || arg[0] != '-' || arg[1] == '-') {
      out.push_back(arg);
      if (arg == "--") out.insert(out.end(), args.begin() + static_cast<std::ptrdiff_t>(i) + 1, args.end());
      if (arg == "--") break;
      continue;
    }
    for (std::size_t k = 1; k < arg.size(); ++k) {
      const char c = arg[k];
      if (c == 'q') {
        out.push_back("--quiet");
        continue;
      }
      if (c == 'b') {
        out.push_back("--no-write-buffering");
        continue;
      }
      if (c == 'h') {
        out.push_back("--help");
        continue;
      }
      if (c == 'f') {  // an optional value, attached as getopt's "f::" wants it
        out.push_back("--byte-io=" + (k + 1 < arg.size() ? arg.substr(k + 1) : std::string("0")));
        break;
      }
      if (c == 'D') fail("-D", "O_DIRECT is not implemented by sluice bonnie (use sluice run --direct=1)");
      const ShortOption* found = nullptr;
      for (const ShortOption& o : kShortOptions)
        if (o.letter == c) found = &o;
      if (found == nullptr) fail(std::string("-") + c, "not an option of bonnie++ 2.00a (see sluice bonnie --help)");
      if (found->long_name == nullptr) fail(std::string("-") + c, found->refusal);
      std::string value;
      if (k + 1 < arg.size()) {
        value = arg.substr(k + 1);
      } else if (i + 1 < args.size()) {
        value = args[++i];
      } else {
        fail(std::string("-") + c, "needs a value");
      }
      out.push_back(std::string("--") + found->long_name + "=" + value);
      break;
    }
  }
  return out;
}

std::int64_t bonnie_number(const std::string& text, const std::string& suffixes, const std::string& where) {
  std::size_t pos = 0;
  const bool negative = !text.empty() && text[0] == '-';
  if (negative) pos = 1;
  std::int64_t value = 0;
  const std::size_t digits_start = pos;
  while (pos < text.size() && std::isdigit(static_cast<unsigned char>(text[pos])) != 0) {
    value = value * 10 + (text[pos] - '0');
    if (value > (std::int64_t{1} << 40)) fail(where, "'" + text + "' is too large");
    ++pos;
  }
  if (pos == digits_start) fail(where, "'" + text + "' is not a number");
  if (pos < text.size() && text[pos] == '.')
    fail(where, "'" + text + "': a whole number (bonnie++ takes no fractions)");
  if (pos < text.size()) {
    const std::size_t unit = suffixes.find(static_cast<char>(std::tolower(static_cast<unsigned char>(text[pos]))));
    if (unit == std::string::npos || pos + 1 != text.size()) {
      fail(where,
           "'" + text + "': the suffix must be one of \"" + suffixes + "\"" + (suffixes.empty() ? " (none here)" : ""));
    }
    for (std::size_t n = 0; n <= unit; ++n) value *= 1024;
  }
  return negative ? -value : value;
}

std::int64_t bonnie_mib(const std::string& text, const std::string& where) {
  std::string number = text;
  if (!number.empty() && (number.back() == 'm' || number.back() == 'M')) number.pop_back();  // MiB, the unit
  return bonnie_number(number, "gt", where);
}

std::int64_t bonnie_ram_mib(const std::string& text, std::string& note) {
  const std::int64_t mib = bonnie_mib(text, "-r " + text);
  if (mib < 0) fail("-r " + text, "the RAM cannot be negative");
  note.clear();
  const char unit = text.empty() ? '\0' : static_cast<char>(std::tolower(static_cast<unsigned char>(text.back())));
  if (unit == 'g' || unit == 't') {
    note = fmt::format(
        "-r {}: {} MiB of RAM for the size rules (bonnie++ 2.00a reads only the number, {} MiB: "
        "give -r {} there)",
        text, mib, bonnie_number(text.substr(0, text.size() - 1), "", "-r " + text), mib);
  }
  return mib;
}

void apply_bonnie_size(const std::string& text, BonnieOptions& options) {
  const std::vector<std::string> parts = split_colons(text);
  if (parts.size() > 4) fail("-s " + text, "the form is size[:chunk[:seeks[:seekers]]]");
  options.size_mib = bonnie_mib(parts[0], "-s " + text);
  options.size_given = true;
  if (parts.size() > 1) options.chunk = bonnie_number(parts[1], "k", "-s " + text + " (chunk)");
  if (parts.size() > 2) options.seeks = bonnie_number(parts[2], "k", "-s " + text + " (seeks)");
  if (parts.size() > 3) options.seekers = bonnie_number(parts[3], "", "-s " + text + " (seekers)");
  if (options.size_mib < 0) fail("-s " + text, "the size cannot be negative");
  if (options.seeks < 1) fail("-s " + text, "at least 1 seek");
  if (options.seekers < 1 || options.seekers > 1000) fail("-s " + text, "seekers must be 1 to 1000");
}

void apply_bonnie_files(const std::string& text, BonnieOptions& options) {
  const std::vector<std::string> parts = split_colons(text);
  if (parts.size() > 5) fail("-n " + text, "the form is number[:max[:min[:dirs[:chunk]]]]");
  options.files = bonnie_number(parts[0], "m", "-n " + text);
  if (parts.size() > 1) {
    if (parts[1] == "link")
      options.max_size = kBonnieLinks;
    else if (parts[1] == "symlink")
      options.max_size = kBonnieSymlinks;
    else
      options.max_size = bonnie_number(parts[1], "kmg", "-n " + text + " (max)");
  }
  if (parts.size() > 2) options.min_size = bonnie_number(parts[2], "kmg", "-n " + text + " (min)");
  if (parts.size() > 3) options.dirs = bonnie_number(parts[3], "k", "-n " + text + " (directories)");
  if (parts.size() > 4) options.file_chunk = bonnie_number(parts[4], "kmg", "-n " + text + " (chunk)");
  if (options.files < 0) fail("-n " + text, "the number of files cannot be negative");
  if (options.dirs < 1) fail("-n " + text, "at least 1 directory");
  const bool links = options.max_size == kBonnieLinks || options.max_size == kBonnieSymlinks;
  if (!links && (options.max_size < 0 || options.min_size < 0 || options.max_size < options.min_size)) {
    fail("-n " + text, "sizes must be 0 <= min <= max (or max -1 for hard links, -2 for symbolic links)");
  }
  if (options.max_size > (std::int64_t{1} << 31) - 1) fail("-n " + text, "files larger than 2 GiB - 1");
}

std::int64_t bonnie_detected_ram_mib() {
  const long page = sysconf(_SC_PAGESIZE);
  const long pages = sysconf(_SC_PHYS_PAGES);
  if (page <= 0 || pages <= 0) return 0;
  return (page / 1024) * (pages / 1024);
}

void finish_bonnie_options(BonnieOptions& options) {
  if (options.ram_mib != 0 && !options.size_given) {
    options.size_mib = std::max(options.size_mib, options.ram_mib * 2);
    if (options.size_mib % 1024 > 512) options.size_mib += 1024 - options.size_mib % 1024;
  }
  options.byte_io_mib = std::clamp<std::int64_t>(options.byte_io_mib, 0, options.size_mib);
  if (options.size_mib == 0 && options.files == 0) fail("-s 0 -n 0", "nothing to test; give -s or -n a size");
  if (!power_of_two(options.chunk) || options.chunk < 256 || options.chunk > kUnit) {
    fail("-s ...:" + std::to_string(options.chunk),
         "the chunk size must be a power of two from 256 to 1m (8k is "
         "bonnie++'s default)");
  }
  if (!power_of_two(options.file_chunk) || options.file_chunk < 256 || options.file_chunk > kUnit) {
    fail("-n ...:" + std::to_string(options.file_chunk), "the file chunk size must be a power of two from 256 to 1m");
  }
  if (options.size_mib > 0 && options.ram_mib > 0 && options.size_mib < options.ram_mib * 2) {
    fail("-s " + std::to_string(options.size_mib),
         fmt::format("File size should be double RAM for good results, RAM is {}M (bonnie++'s rule); use -s {} or "
                     "more, or -r to state a smaller RAM (-r 0 turns the check off)",
                     options.ram_mib, options.ram_mib * 2));
  }
  if (options.files > 0) {
    if (options.dirs >= 100000) fail("-n", "Can't have more than 99,999 directories.");
    if (options.ram_mib > 0 && options.files * kMaxDataPerFile * 2 > options.ram_mib * 1024) {
      fail("-n " + std::to_string(options.files),
           fmt::format("When testing {}K of files in {} MiB of RAM the system is likely to start paging (bonnie++'s "
                       "rule); use fewer files",
                       options.files, options.ram_mib));
    }
    if (options.files * kMaxDataPerFile > (1 << 20)) {
      fail("-n " + std::to_string(options.files), "Not enough ram to test with that many files (bonnie++'s limit)");
    }
  }
}

std::string bonnie_size_field(const BonnieOptions& options, bool text) {
  std::string out = unit_text(options.size_mib, "MG");
  if (!text) return out;
  std::vector<std::string> parts = {options.chunk != kBonnieDefaultChunk ? unit_text(options.chunk, " km") : "",
                                    "",  // concurrency: always 1 here
                                    options.seeks != kBonnieDefaultSeeks ? std::to_string(options.seeks) : "",
                                    options.seekers != kBonnieDefaultSeekers ? std::to_string(options.seekers) : ""};
  while (!parts.empty() && parts.back().empty()) parts.pop_back();
  for (const std::string& p : parts) out += ":" + p;
  return out;
}

std::string bonnie_files_field(const BonnieOptions& options, bool text) {
  std::string out = std::to_string(options.files);
  const std::string sep = text ? ":" : ",";
  if (options.max_size == kBonnieLinks) {
    out += sep + "link" + (text ? "" : ",");
  } else if (options.max_size == kBonnieSymlinks) {
    out += sep + "symlink" + (text ? "" : ",");
  } else if (options.max_size != 0) {
    out += sep + std::to_string(options.max_size) + sep;
    if (text || options.min_size != 0) out += std::to_string(options.min_size);
  } else if (!text) {
    out += ",,";
  }
  if (!text) out += ",";  // num_dirs stays empty: 2.00a writes the count into the chunk-size slot
  if (options.dirs > 1)
    out += (text ? "/" : ",") + std::to_string(options.dirs);
  else if (!text)
    out += ",";
  return out;
}

}  // namespace sluice
