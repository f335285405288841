#include "job/fio_profiles.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string_view>

#include "common/error.h"
#include "job/job_file_expand.h"
#include "job/units.h"

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

// fio's ACT profile (profiles/act.c): its options and the jobs it makes of them.
struct ActOptions {
  std::vector<std::string> devices;  // device-names, comma-separated
  std::uint64_t load = 1;
  std::uint64_t duration_ns = 24ull * 3600 * 1'000'000'000ull;  // test-duration (a bare number is seconds)
  std::uint64_t threads_per_queue = 8;
  std::uint64_t read_blocks = 3;      // read-req-num-512-blocks
  std::uint64_t write_size = 131072;  // large-block-op-kbytes: fio uses the number as bytes
  bool prep = false;
};

constexpr std::string_view kActOptions[] = {
    "device-names",          "load", "test-duration", "threads-per-queue", "read-req-num-512-blocks",
    "large-block-op-kbytes", "prep"};
constexpr std::uint64_t kActSliceSeconds = 3600;  // fio's SAMPLE_SEC: the criteria are checked hourly
constexpr std::uint64_t kActReadLoad = 2000;      // fio's R_LOAD: reads per second per device at 1x
constexpr std::uint64_t kActWriteLoad = 1000;     // W_LOAD

std::uint64_t act_number(const std::string& option, const std::string& value) {
  const bool digits = !value.empty() && value.size() <= 9 &&
                      std::all_of(value.begin(), value.end(), [](char c) { return c >= '0' && c <= '9'; });
  if (!digits || std::stoull(value) < 1) {
    throw UserError("--" + option + "=" + value + ": act's " + option + " is a whole number from 1 to 999999999");
  }
  return std::stoull(value);
}

void apply_act_option(ActOptions& o, const std::string& name, const std::string& value) {
  if (name == "prep") {
    o.prep = value.empty() || value == "1";
  } else if (name == "device-names") {
    std::size_t start = 0;
    while (start <= value.size()) {
      const std::size_t comma = value.find(',', start);
      const std::string device = value.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
      if (!device.empty()) o.devices.push_back(device);
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
  } else if (name == "test-duration") {
    const auto duration = parse_duration(value, std::chrono::seconds(1));
    if (!duration || duration->count() <= 0) {
      throw UserError("--test-duration=" + value + ": act's test-duration is a duration such as 24h, 30m or 90s");
    }
    o.duration_ns = static_cast<std::uint64_t>(duration->count());
  } else if (name == "load") {
    o.load = act_number(name, value);
  } else if (name == "threads-per-queue") {
    o.threads_per_queue = act_number(name, value);
  } else if (name == "read-req-num-512-blocks") {
    o.read_blocks = act_number(name, value);
  } else {
    o.write_size = act_number(name, value);
  }
}

// fio's act_opts and, per device, its act_add_dev: the prep phase (zeroes, then a random salt) or the test
// (reads at load x 2000/s over threads-per-queue jobs, large-block writes at the matching rate).
std::vector<std::string> act_arguments(const ActOptions& o) {
  std::vector<std::string> args = {"--direct=1", "--ioengine=sync", "--random_generator=lfsr", "--group_reporting=1",
                                   "--thread"};
  if (!o.prep) {
    args.push_back("--runtime=" + std::to_string(o.duration_ns / 1000) + "us");
    args.emplace_back("--time_based=1");
  }
  for (const std::string& dev : o.devices) {
    if (o.prep) {
      const std::vector<std::string> prep = {"--name=act-prep-zeroes-" + dev,
                                             "--filename=" + dev,
                                             "--bs=1048576",
                                             "--zero_buffers",
                                             "--rw=write",
                                             "--name=act-prep-salt-" + dev,
                                             "--stonewall",
                                             "--filename=" + dev,
                                             "--bs=4096",
                                             "--ioengine=libaio",
                                             "--iodepth=64",
                                             "--rw=randwrite"};
      args.insert(args.end(), prep.begin(), prep.end());
      continue;
    }
    const std::uint64_t read_size = o.read_blocks * 512;
    const std::uint64_t reads_per_write = std::max<std::uint64_t>(o.write_size / read_size, 1);
    const std::uint64_t read_rate = std::max<std::uint64_t>(o.load * kActReadLoad / o.threads_per_queue, 1);
    const std::uint64_t write_rate = (o.load * kActWriteLoad + reads_per_write - 1) / reads_per_write;
    const std::vector<std::string> test = {"--name=act-read-" + dev,
                                           "--filename=" + dev,
                                           "--rw=randread",
                                           "--numjobs=" + std::to_string(o.threads_per_queue),
                                           "--rate_iops=" + std::to_string(read_rate),
                                           "--bs=" + std::to_string(read_size),
                                           "--name=act-write-" + dev,
                                           "--filename=" + dev,
                                           "--rw=randwrite",
                                           "--rate_iops=" + std::to_string(write_rate),
                                           "--bs=" + std::to_string(o.write_size)};
    args.insert(args.end(), test.begin(), test.end());
  }
  return args;
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
  if (profile != "tiobench" && profile != "act") {
    throw UserError("--profile=" + profile + ": no such profile (fio's: tiobench, act)");
  }
  const bool act = profile == "act";
  TiobenchOptions tiobench;
  ActOptions act_options;
  std::vector<std::string> kept;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& text = args[i];
    if (!is_long_option(text)) {  // an option's value, or a job file (refused by the caller)
      kept.push_back(text);
      continue;
    }
    Split s = split(text);
    const bool profile_option =
        act ? std::find(std::begin(kActOptions), std::end(kActOptions), s.name) != std::end(kActOptions)
            : std::find(std::begin(kTiobenchOptions), std::end(kTiobenchOptions), s.name) != std::end(kTiobenchOptions);
    if (s.name == "profile" || profile_option) {
      const bool flag = act && s.name == "prep";
      if (!s.has_value && !flag && i + 1 < args.size() && !args[i + 1].starts_with("-")) {
        s.value = args[++i];
        s.has_value = true;
      }
      if (profile_option && act) apply_act_option(act_options, s.name, s.value);
      if (profile_option && !act) apply_tiobench_option(tiobench, s.name, s.value);
      continue;
    }
    if (s.name == "name") {
      throw UserError(text + ": --profile=" + profile +
                      " runs the profile's own jobs; --name jobs cannot be added to it");
    }
    kept.push_back(text);
  }
  if (act && act_options.devices.empty()) {
    throw UserError(
        "--profile=act: the devices (or files) to test are missing; add --device-names=DEV[,DEV...] "
        "(fio: \"act: you need to set IO target(s) with the device-names option\")");
  }
  std::vector<std::string> expanded = act ? act_arguments(act_options) : tiobench_arguments(tiobench);
  // The other arguments (run options such as --output-format, and job options for all the jobs) go first,
  // so that the profile's own settings win where they overlap, as fio applies its profile's command line last.
  kept.insert(kept.end(), expanded.begin(), expanded.end());
  return kept;
}

std::optional<FioActProfile> fio_act_profile(const std::vector<std::string>& args) {
  if (profile_of(args) != "act") return std::nullopt;
  ActOptions options;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (!is_long_option(args[i])) continue;
    Split s = split(args[i]);
    if (std::find(std::begin(kActOptions), std::end(kActOptions), s.name) == std::end(kActOptions)) continue;
    if (!s.has_value && s.name != "prep" && i + 1 < args.size() && !args[i + 1].starts_with("-")) s.value = args[++i];
    apply_act_option(options, s.name, s.value);
  }
  if (options.prep) return std::nullopt;  // the prep phase only writes: nothing is judged
  return FioActProfile{kActSliceSeconds * 1'000'000'000ull, options.duration_ns};
}

void finish_fio_profile_jobs(const std::vector<std::string>& given, JobCommandLine& parsed) {
  if (!parsed.job_files.empty() && names_fio_profile(given)) {
    throw UserError(parsed.job_files.front() +
                    ": a --profile runs the profile's own jobs; job files cannot be "
                    "added to it");
  }
  if (const std::optional<FioActProfile> act = fio_act_profile(given)) {
    for (JobSpec& job : parsed.jobs) {
      job.report.act_slice_ns = act->slice_ns;
      job.report.act_duration_ns = act->duration_ns;
    }
  }
}

}  // namespace sluice
