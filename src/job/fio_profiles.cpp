#include "job/fio_profiles.h"

#include <algorithm>
#include <cstdint>
#include <string_view>

#include "common/error.h"
#include "job/job_file_expand.h"

namespace sluice {
namespace {

struct TiobenchOptions {
  std::uint64_t size_mib = 0;  // 0: fio's default, 4 KiB per MiB of memory ("4*1024*$mb_memory" bytes)
  std::uint64_t block = 4096;
  std::uint64_t numruns = 1;
  std::string dir = "./";
  std::uint64_t threads = 1;
};

constexpr std::string_view kTiobenchOptions[] = {"size", "block", "numruns", "dir", "threads"};

constexpr std::uint64_t kMaxSizeMib = std::uint64_t{1} << 40;  // 1 EiB: the bytes still fit 64 bits

std::uint64_t whole_number(const std::string& option, const std::string& value, std::uint64_t maximum) {
  const bool digits =
      !value.empty() && std::all_of(value.begin(), value.end(), [](char c) { return c >= '0' && c <= '9'; });
  if (!digits || value.size() > 18 || std::stoull(value) < 1 || std::stoull(value) > maximum) {
    const std::string unit = option == "size" ? " of MiB" : option == "block" ? " of bytes" : "";
    throw UserError("--" + option + "=" + value + ": tiobench's " + option + " is a whole number" + unit +
                    " from 1 to " + std::to_string(maximum));
  }
  return std::stoull(value);
}

void apply_tiobench_option(TiobenchOptions& o, const std::string& name, const std::string& value) {
  if (name == "size") {
    o.size_mib = whole_number(name, value, kMaxSizeMib);
  } else if (name == "block") {
    o.block = whole_number(name, value, UINT32_MAX);
  } else if (name == "numruns") {
    o.numruns = whole_number(name, value, UINT32_MAX);
  } else if (name == "threads") {
    o.threads = whole_number(name, value, UINT32_MAX);
  } else if (value.empty()) {
    throw UserError("--dir: value missing; use --dir=DIRECTORY");
  } else {
    o.dir = value;
  }
}

// fio's tb_opts, with the profile's options in place.
std::vector<std::string> tiobench_arguments(const TiobenchOptions& o) {
  const std::uint64_t size = o.size_mib != 0 ? o.size_mib << 20 : 4 * 1024 * SystemValues::current().mb_memory;
  return {"--buffered=0",
          "--size=" + std::to_string(size),
          "--bs=" + std::to_string(o.block),
          "--loops=" + std::to_string(o.numruns),
          "--directory=" + o.dir,
          "--numjobs=" + std::to_string(o.threads),
          "--timeout=600",
          "--group_reporting",
          "--thread",
          "--overwrite=1",
          "--filename=.fio.tio.1:.fio.tio.2:.fio.tio.3:.fio.tio.4",
          "--ioengine=sync",
          "--name=seqwrite",
          "--rw=write",
          "--end_fsync=1",
          "--name=randwrite",
          "--stonewall",
          "--rw=randwrite",
          "--end_fsync=1",
          "--name=seqread",
          "--stonewall",
          "--rw=read",
          "--name=randread",
          "--stonewall",
          "--rw=randread"};
}

// "--opt=value" or "--opt value": the option's name, its value, and how many arguments it took.
struct Split {
  std::string name;
  std::string value;
  bool has_value = false;
};

Split split(const std::string& text) {
  Split s;
  const std::size_t eq = text.find('=');
  s.name = text.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
  if (eq != std::string::npos) {
    s.value = text.substr(eq + 1);
    s.has_value = true;
  }
  return s;
}

bool is_long_option(const std::string& text) { return text.size() > 2 && text.starts_with("--"); }

}  // namespace

namespace {

// The profile's name; "" when none is given.
std::string profile_of(const std::vector<std::string>& args) {
  std::string profile;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--") break;
    if (!is_long_option(args[i]) || split(args[i]).name != "profile") continue;
    Split s = split(args[i]);
    if (!s.has_value && i + 1 < args.size()) s.value = args[i + 1];
    if (s.value.empty()) throw UserError("--profile: value missing; use --profile=tiobench");
    profile = s.value;
  }
  return profile;
}

}  // namespace

bool names_fio_profile(const std::vector<std::string>& args) { return !profile_of(args).empty(); }

std::vector<std::string> expand_fio_profile(const std::vector<std::string>& args) {
  const std::string profile = profile_of(args);
  if (profile.empty()) return args;
  if (profile == "act") {
    throw UserError(
        "--profile=act: fio's ACT (Aerospike certification) profile is not supported by sluice; "
        "supported: tiobench");
  }
  if (profile != "tiobench") throw UserError("--profile=" + profile + ": no such profile (fio's: tiobench, act)");

  TiobenchOptions options;
  std::vector<std::string> kept;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& text = args[i];
    if (!is_long_option(text)) {  // an option's value, or a job file (refused by the caller)
      kept.push_back(text);
      continue;
    }
    Split s = split(text);
    const bool profile_option =
        std::find(std::begin(kTiobenchOptions), std::end(kTiobenchOptions), s.name) != std::end(kTiobenchOptions);
    if (s.name == "profile" || profile_option) {
      if (!s.has_value && i + 1 < args.size() && !args[i + 1].starts_with("-")) {
        s.value = args[++i];
        s.has_value = true;
      }
      if (profile_option) apply_tiobench_option(options, s.name, s.value);
      continue;
    }
    if (s.name == "name") {
      throw UserError(text + ": --profile=tiobench runs the profile's own jobs; --name jobs cannot be added to it");
    }
    kept.push_back(text);
  }
  std::vector<std::string> expanded = tiobench_arguments(options);
  // The other arguments (run options such as --output-format, and job options for all four jobs) go first,
  // so that the profile's own settings win where they overlap, as fio applies its profile's command line last.
  kept.insert(kept.end(), expanded.begin(), expanded.end());
  return kept;
}

}  // namespace sluice
