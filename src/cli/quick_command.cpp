// sluice quick [DIR] [--size=S] [--runtime=T] [--output-format=normal|json] [--output=FILE]
#include <cstdio>

#include <fmt/format.h>

#include "cli/commands.h"
#include "cli/output.h"
#include "common/error.h"
#include "method/quick.h"
#include "report/reporters.h"
#include "spec/units.h"

namespace sluice {
namespace {

constexpr const char* kQuickUsage = R"(usage: sluice quick [DIR] [options]

Measures the storage under DIR (default: the current directory): 1 MiB sequential write and read,
4 KiB random read and write at depth 1 and 32, with direct I/O (io_uring, or libaio where io_uring is
unavailable). A test file is laid out with random data in a new temporary directory inside DIR and
removed afterwards, also when interrupted.

Options:
  --size=S              test file size (default 1g)
  --runtime=T           measured time per test (default 5s; each test also ramps for 1 s)
  --output-format=FMT   normal (a table, default) or json (fio's JSON plus "sluice.quick")
  --output=FILE         write the report to FILE
  --no-status           no live status line
)";

std::string value_of(const std::string& arg, const std::string& name) {
  const std::string prefix = name + "=";
  if (arg.rfind(prefix, 0) != 0) return {};
  std::string v = arg.substr(prefix.size());
  if (v.empty()) throw UserError(fmt::format("{}: needs a value", name));
  return v;
}

}  // namespace

int quick_command(const std::vector<std::string>& args) {
  QuickOptions options;
  bool json = false;
  std::string output_path;
  bool directory_given = false;
  for (const std::string& arg : args) {
    if (arg == "--help" || arg == "-h") {
      std::fputs(kQuickUsage, stdout);
      return kExitOk;
    }
    if (auto v = value_of(arg, "--size"); !v.empty()) {
      auto size = parse_size(v);
      if (!size || *size < (1u << 20)) throw UserError(fmt::format("--size={}: not a size of at least 1m", v));
      options.file_size = *size;
    } else if (auto v = value_of(arg, "--runtime"); !v.empty()) {
      auto d = parse_duration(v, std::chrono::seconds(1));
      if (!d || d->count() <= 0) throw UserError(fmt::format("--runtime={}: not a duration; durations look like 5, 5s, 500ms", v));
      options.runtime = *d;
    } else if (auto v = value_of(arg, "--output-format"); !v.empty()) {
      if (v != "normal" && v != "json") throw UserError(fmt::format("--output-format={}: choose normal or json", v));
      json = v == "json";
    } else if (auto v = value_of(arg, "--output"); !v.empty()) {
      output_path = v;
    } else if (arg == "--no-status") {
      options.status_line = false;
    } else if (arg.rfind("--", 0) == 0) {
      throw UserError(fmt::format("{}: unknown option for quick (see sluice quick --help)", arg));
    } else if (!directory_given) {
      options.directory = arg;
      directory_given = true;
    } else {
      throw UserError(fmt::format("{}: quick takes one directory", arg));
    }
  }
  const QuickReport report = run_quick(options);
  print_warnings(report.run.warnings);
  const std::string text = json ? render_json_text(report.run, false) : render_quick_table(report);
  if (output_path.empty()) {
    std::fputs(text.c_str(), stdout);
  } else {
    std::FILE* f = std::fopen(output_path.c_str(), "w");
    if (!f || std::fputs(text.c_str(), f) < 0 || std::fclose(f) != 0) {
      throw UserError(fmt::format("--output={}: cannot write the file", output_path));
    }
  }
  return report.run.interrupted ? kExitInterrupted : kExitOk;
}

}  // namespace sluice
