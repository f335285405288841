// sluice lab ACTION: model devices whose behaviour is known (src/lab, docs/lab.md): truth (what a correct
// benchmark must measure on a model), models (the presets), serve and stats (the daemon), up, down and list (the
// model block device).
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/command_options.h"
#include "cli/commands.h"
#include "common/error.h"
#include "common/nearest.h"
#include "job/units.h"
#include "lab/daemon_range.h"
#include "lab/lab_daemon.h"
#include "lab/lab_device.h"
#include "lab/lab_stats.h"
#include "lab/model_keys.h"
#include "lab/model_parser.h"
#include "lab/model_source.h"
#include "lab/presets.h"
#include "lab/truth.h"
#include "lab/truth_report.h"

namespace sluice {
namespace {

constexpr const char* kDescription =
    R"(Model devices whose behaviour is known, so that every number a benchmark gives can be checked against the
truth: a model says how the device serves requests (servers, service times, seeks, a write cache, a network
round trip, a cliff), and queueing theory says what a correct benchmark must measure on it.
  truth MODEL   what a correct benchmark must measure on MODEL (sluice lab truth --help)
  models [NAME] the preset models, one line each; with NAME, that preset's model text
  serve MODEL MOUNTPOINT --backing=FILE
                the lab daemon in the foreground: MOUNTPOINT/device is FILE served through MODEL (FUSE)
  stats MOUNTPOINT
                the record of the daemon mounted there: per op, count, bytes, mean queue, service and total time
  up MODEL DIR  a block device served by MODEL, with a filesystem mounted at DIR (sluice lab up --help)
  down DIR      takes the lab at DIR apart: unmount, detach, stop the daemon, remove its files
  list          the labs that are up, and those whose daemon is gone (sluice restore removes them)
MODEL is a preset's name or the path of a model file. docs/lab.md has a five-minute tutorial.
)";

constexpr const char* kUpDescription =
    R"(Makes a block device whose service follows MODEL and mounts a filesystem on it at DIR: the lab daemon
(sluice lab serve, started in the background) serves a backing file through the model, a loop device with direct
I/O sits over the daemon's file (a buffered loop device would serialize the requests), so the page cache,
writeback, the I/O scheduler and writeback throttling act on it as on a disk; mkfs.ext4 or mkfs.xfs makes the
filesystem (no discard, no lazy initialization: nothing runs in the background on the model), mounted at DIR.
--fs=none leaves the raw block device. Before mkfs, the path (kernel, loop device, FUSE: ~0.1 ms) is measured
with the daemon answering after the model's read time, and the daemon then sends each reply that much before the model's time, so
that a benchmark measures the model, not the model plus the path (--no-compensation: not). A model asking more
requests a second than the daemon serves faithfully here is refused (--force). Prints the device, the mount
point, the daemon's pid, the path and the model's truth (what a correct benchmark must measure on the raw
device).
The backing file (sparse, --size) and the daemon's log live in sluice's state directory
($SLUICE_STATE_DIR/labs, else /var/lib/sluice/labs, else ~/.local/state/sluice/labs), with the lab's record;
the free space there is checked before anything is created; --state-dir puts the backing file and the log
elsewhere (a tmpfs: the model's data then never reaches the disk under test, and a low vm.dirty_bytes cannot
hold the daemon in writeback throttling, docs/lab.md). Everything is recorded before it is created, so
`sluice restore` takes apart a lab whose lab up or daemon was killed.
Needs root and loop devices for the block device; without them, DIR/device is the model's file served through
FUSE alone (no block layer, no filesystem), and lab up says so. DIR must be an existing empty directory; nothing
in it is touched.
)";

constexpr const char* kTruthDescription =
    R"(What a correct benchmark must measure on MODEL, computed from the model by queueing theory, never from a
measurement: 4 KiB random read and write at depth 1 and 32, 1 MiB sequential read and write at depth 1 and 32,
fsync'd 16 KiB random writes (one thread), and for 4 KiB random read and write the capacity at a mean-latency
limit (closed loop: the deepest queue within it; open loop: the Poisson arrival rate within it) and the knee
(the shallowest depth that reaches the device's maximum). Each row is for the raw device with direct I/O over
its whole size. Rows marked ~ are approximations; docs/lab.md says which formulas are exact.
)";

const std::vector<std::string> kActions = {"truth", "models", "serve", "stats", "up", "down", "list"};

constexpr const char* kDownDescription =
    R"(Takes apart the lab mounted at DIR (sluice lab up): unmounts DIR, detaches the loop device, stops the daemon
(SIGTERM, then SIGKILL after 5 s), removes the backing file, the daemon's log and the lab's record. A DIR still in
use (files open there) is refused and nothing is undone. A lab whose daemon is gone is taken apart too (its FUSE
connection aborted first, so nothing waits on it).
)";

constexpr const char* kListDescription =
    R"(The labs recorded in sluice's state directory: mount point, device, filesystem, size, model, the daemon's pid
and the state: up, starting (lab up still running), daemon gone or lab up killed (sluice restore takes those
apart).
)";

struct LabTruthArgs {
  std::string model;
  TruthOptions truth;
  bool json = false;
};

struct LabModelsArgs {
  bool json = false;
};

struct LabStatsArgs {
  bool json = false;
};

struct LabUpArgs {
  LabUpOptions up;
  bool json = false;
  bool force = false;
};

struct LabListArgs {
  bool json = false;
};

struct LabServeArgs {
  LabDaemonOptions daemon;
  bool force = false;
};

const char* const kForceHelp =
    "serve a model beyond the daemon's range (a request rate above what it serves faithfully here, "
    "docs/lab.md): its numbers then measure the daemon too";

// Refuses a model beyond the daemon's range unless forced; forced, says what that means.
void check_daemon_range(const ModelSpec& model, bool force) {
  const std::optional<std::string> beyond = beyond_daemon_range(model);
  if (!beyond) return;
  if (!force) throw UserError("lab: " + *beyond);
  std::fprintf(stderr, "sluice: lab: warning: --force: %s\n", beyond->c_str());
}

constexpr const char* kServeDescription =
    R"(Runs the lab daemon in the foreground until MOUNTPOINT is unmounted (fusermount3 -u) or SIGINT/SIGTERM:
MOUNTPOINT/device is FILE (created sparse when missing, grown to the size) served through MODEL, each request's
reply sent when the model says it completes, counted from its arrival on the daemon's clock; MOUNTPOINT/stats
is the daemon's record as JSON (per op: count, bytes, queue, service and total time). The device is opened
with direct I/O, so every request reaches the model; put a loop device on it (losetup --direct-io=on) for a
block device. The backing file is not synced by a flush: the model decides what a flush costs.
MOUNTPOINT/control takes one setting a write: calibrate=DURATION (answer every request that long after its
arrival, the model aside), model (back to the model), path=DURATION (send replies that much before the model's
time; 0 by default). docs/lab.md, the path and its compensation.
)";

std::string model_keys_reference() {
  std::string out =
      "The model format: one `key = value` a line; # starts a comment at the start of a line or after a space; "
      "the keys:\n";
  for (const ModelKey& key : model_keys()) {
    std::string syntax(model_value_syntax(key.type));
    if (key.type == ModelValueType::kChoice) {
      std::string choices;
      for (std::string_view c : key.choices) choices += (choices.empty() ? " " : ", ") + std::string(c);
      syntax += choices;
    }
    out += fmt::format("  {} = {}{}\n", key.name, syntax,
                       key.default_text.empty() ? "" : fmt::format("; default {}", key.default_text));
    out += "      " + wrap_help(std::string(key.help), 6, 6);
  }
  return out;
}

CommandInfo make_lab_info() {
  CommandInfo info = command_info("lab",
                                  "model devices with a known truth: what a correct benchmark must measure "
                                  "(lab truth MODEL), the preset models (lab models)",
                                  kDescription);
  info.positionals = {{"ACTION", "truth, models, serve, stats, up, down or list", true},
                      {"ARGS", "the action's arguments and options", false, true}};
  info.notes = model_keys_reference();
  return info;
}

const CommandInfo& lab_info() {
  static const CommandInfo kInfo = make_lab_info();
  return kInfo;
}

OptionInfo json_choice_arg() {
  return choice_arg("output-format", {"normal", "json"}, "normal",
                    "normal is the table; json puts the same under \"sluice\".\"lab\"");
}

CommandTable<LabTruthArgs> make_truth_table() {
  CommandInfo info = command_info("lab truth", "what a correct benchmark must measure on a model", kTruthDescription);
  info.positionals = {{"MODEL", "a preset's name (sluice lab models) or a model file", true}};
  CommandTable<LabTruthArgs> t(std::move(info));
  t.add(duration_arg("latency-limit", "10ms", "the mean latency the capacity rows stay within"),
        [](LabTruthArgs& a, const OptionValue& v) { a.truth.latency_limit = v.duration; });
  t.add(json_choice_arg(), [](LabTruthArgs& a, const OptionValue& v) { a.json = v.text == "json"; });
  return t;
}

const CommandTable<LabTruthArgs>& truth_table() {
  static const CommandTable<LabTruthArgs> kTable = make_truth_table();
  return kTable;
}

CommandTable<LabModelsArgs> make_models_table() {
  CommandInfo info = command_info("lab models", "the preset models",
                                  "The preset models, each with a one-line description; with NAME, that preset's "
                                  "model text (a model file to copy and change). `sluice lab truth NAME` gives a "
                                  "preset's truth table.\n");
  info.positionals = {{"NAME", "a preset: print its model text", false}};
  CommandTable<LabModelsArgs> t(std::move(info));
  t.add(json_choice_arg(), [](LabModelsArgs& a, const OptionValue& v) { a.json = v.text == "json"; });
  return t;
}

const CommandTable<LabModelsArgs>& models_table() {
  static const CommandTable<LabModelsArgs> kTable = make_models_table();
  return kTable;
}

CommandTable<LabServeArgs> make_serve_table() {
  CommandInfo info = command_info("lab serve", "the lab daemon in the foreground", kServeDescription);
  info.positionals = {{"MODEL", "a preset's name (sluice lab models) or a model file", true},
                      {"MOUNTPOINT", "an empty directory to mount the daemon's filesystem on", true}};
  CommandTable<LabServeArgs> t(std::move(info));
  t.add(text_arg("backing", "FILE", "", "the file holding the device's data (required)"),
        [](LabServeArgs& a, const OptionValue& v) { a.daemon.backing = v.text; });
  t.add(size_arg("size", 1 << 20, "the model's size", "the device's size"),
        [](LabServeArgs& a, const OptionValue& v) { a.daemon.size = v.number; });
  t.add(count_arg("threads", 1, 256, "16", "FUSE worker threads"),
        [](LabServeArgs& a, const OptionValue& v) { a.daemon.threads = static_cast<unsigned>(v.number); });
  t.add(flag_arg("force", kForceHelp), [](LabServeArgs& a, const OptionValue&) { a.force = true; });
  return t;
}

const CommandTable<LabServeArgs>& serve_table() {
  static const CommandTable<LabServeArgs> kTable = make_serve_table();
  return kTable;
}

CommandTable<LabStatsArgs> make_stats_table() {
  CommandInfo info = command_info("lab stats", "the record of a lab daemon",
                                  "The record of the lab daemon mounted at MOUNTPOINT (sluice lab serve), from "
                                  "MOUNTPOINT/stats: per op (read, write, flush), the requests served, their bytes, "
                                  "and the mean time each waited for a server, was served, and took in all.\n");
  info.positionals = {{"MOUNTPOINT", "where the daemon is mounted, or a lab's DIR (sluice lab up)", true}};
  CommandTable<LabStatsArgs> t(std::move(info));
  t.add(json_choice_arg(), [](LabStatsArgs& a, const OptionValue& v) { a.json = v.text == "json"; });
  return t;
}

const CommandTable<LabStatsArgs>& stats_table() {
  static const CommandTable<LabStatsArgs> kTable = make_stats_table();
  return kTable;
}

CommandTable<LabUpArgs> make_up_table() {
  CommandInfo info = command_info("lab up", "a model block device with a filesystem, mounted at DIR", kUpDescription);
  info.positionals = {{"MODEL", "a preset's name (sluice lab models) or a model file", true},
                      {"DIR", "an existing empty directory to mount the lab on", true}};
  CommandTable<LabUpArgs> t(std::move(info));
  t.add(size_arg("size", 1 << 20, "4g", "the device's size (the backing file's, sparse)"),
        [](LabUpArgs& a, const OptionValue& v) { a.up.size = v.number; });
  t.add(choice_arg("fs", {"ext4", "xfs", "none"}, "ext4",
                   "the filesystem made on the device and mounted at DIR; none leaves the raw block device"),
        [](LabUpArgs& a, const OptionValue& v) { a.up.fs = v.text; });
  t.add(flag_arg("no-compensation",
                 "do not measure the path (kernel, loop device, FUSE) nor send replies that much before the "
                 "model's time: a benchmark then measures the model plus the path"),
        [](LabUpArgs& a, const OptionValue&) { a.up.compensate = false; });
  t.add(text_arg("state-dir", "DIR", "",
                 "where the backing file and the daemon's log go instead of sluice's state directory (the "
                 "record stays there); a tmpfs such as /dev/shm keeps the model's data off the disk under test"),
        [](LabUpArgs& a, const OptionValue& v) { a.up.state_dir = v.text; });
  t.add(flag_arg("force", kForceHelp), [](LabUpArgs& a, const OptionValue&) { a.force = true; });
  t.add(choice_arg("output-format", {"normal", "json"}, "normal",
                   "json puts device, mountpoint, pid, model, path and truth under \"sluice\".\"lab\""),
        [](LabUpArgs& a, const OptionValue& v) { a.json = v.text == "json"; });
  return t;
}

const CommandTable<LabUpArgs>& up_table() {
  static const CommandTable<LabUpArgs> kTable = make_up_table();
  return kTable;
}

CommandTable<LabListArgs> make_down_table() {
  CommandInfo info = command_info("lab down", "takes a lab apart", kDownDescription);
  info.positionals = {{"DIR", "where the lab is mounted", true}};
  return CommandTable<LabListArgs>(std::move(info));
}

const CommandTable<LabListArgs>& down_table() {
  static const CommandTable<LabListArgs> kTable = make_down_table();
  return kTable;
}

CommandTable<LabListArgs> make_list_table() {
  CommandInfo info = command_info("lab list", "the labs that are up", kListDescription);
  CommandTable<LabListArgs> t(std::move(info));
  t.add(json_choice_arg(), [](LabListArgs& a, const OptionValue& v) { a.json = v.text == "json"; });
  return t;
}

const CommandTable<LabListArgs>& list_table() {
  static const CommandTable<LabListArgs> kTable = make_list_table();
  return kTable;
}

void print_text(const std::string& text) { std::fwrite(text.data(), 1, text.size(), stdout); }

nlohmann::json under_lab(const char* key, nlohmann::json value) {
  return {{"sluice", {{"lab", {{key, std::move(value)}}}}}};
}

int lab_truth(const std::vector<std::string>& args) {
  const ParsedArgs parsed = parse_arguments(truth_table().info(), args);
  LabTruthArgs a;
  truth_table().apply(parsed, a, nullptr);
  a.model = parsed.positionals.at(0);
  const Truth truth = compute_truth(load_model(a.model), a.truth);
  print_text(a.json ? under_lab("truth", truth_json(truth)).dump(2) + "\n" : render_truth_text(truth));
  return kExitOk;
}

int print_preset_text(const std::string& name, bool json) {
  load_model(name);  // an unknown name is refused with the nearest preset
  const ModelPreset* preset = find_model_preset(name);
  if (preset == nullptr) throw UserError(fmt::format("{}: not a preset; sluice lab models lists them", name));
  const std::string text(preset->text);
  print_text(json ? under_lab("model", {{"name", name}, {"text", text}}).dump(2) + "\n" : text);
  return kExitOk;
}

int lab_models(const std::vector<std::string>& args) {
  const ParsedArgs parsed = parse_arguments(models_table().info(), args);
  LabModelsArgs a;
  models_table().apply(parsed, a, nullptr);
  if (!parsed.positionals.empty()) return print_preset_text(parsed.positionals.front(), a.json);
  nlohmann::json list = nlohmann::json::array();
  std::string text;
  for (const ModelPreset& preset : model_presets()) {
    const ModelSpec model = parse_model(preset.text, "preset " + std::string(preset.name), std::string(preset.name));
    list.push_back({{"name", model.name}, {"description", model.description}});
    text += fmt::format("  {:<11}{}\n", model.name, model.description);
  }
  print_text(a.json ? under_lab("models", std::move(list)).dump(2) + "\n" : text);
  return kExitOk;
}

void check_mountpoint(const std::string& dir) {
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) throw UserError(dir + ": not a directory (MOUNTPOINT)");
  if (!std::filesystem::is_empty(dir, ec))
    throw UserError(dir + ": not empty; the daemon mounts on an empty directory");
}

int lab_stats(const std::vector<std::string>& args) {
  const ParsedArgs parsed = parse_arguments(stats_table().info(), args);
  LabStatsArgs a;
  stats_table().apply(parsed, a, nullptr);
  std::string where = parsed.positionals.at(0);
  if (!std::filesystem::exists(where + "/stats")) {  // a lab's DIR: its daemon is mounted in the lab's directory
    std::vector<std::string> problems;
    const std::vector<LabStatus> labs = list_labs(problems);
    if (const LabStatus* lab = find_lab(labs, where)) where = lab->record.fuse_mount();
  }
  std::ifstream in(where + "/stats");
  if (!in) throw UserError(fmt::format("{}: no lab daemon is mounted there (no {}/stats)", where, where));
  std::stringstream text;
  text << in.rdbuf();
  nlohmann::json stats;
  try {
    stats = nlohmann::json::parse(text.str());
  } catch (const nlohmann::json::exception&) {
    throw UserError(fmt::format("{}/stats: not a lab daemon's record", where));
  }
  print_text(a.json ? under_lab("stats", stats).dump(2) + "\n" : render_lab_stats_text(stats, where));
  return kExitOk;
}

int lab_serve(const std::vector<std::string>& args) {
  const ParsedArgs parsed = parse_arguments(serve_table().info(), args);
  LabServeArgs a;
  serve_table().apply(parsed, a, nullptr);
  if (a.daemon.backing.empty()) throw UserError("lab serve: --backing=FILE is required (the device's data)");
  a.daemon.model = load_model(parsed.positionals.at(0));
  a.daemon.mountpoint = parsed.positionals.at(1);
  ModelSpec served = a.daemon.model;
  if (a.daemon.size != 0) served.resize(a.daemon.size);
  check_daemon_range(served, a.force);
  check_mountpoint(a.daemon.mountpoint);
  return run_lab_daemon(a.daemon);
}

std::string size_words(std::uint64_t bytes) {
  if (bytes % (std::uint64_t{1} << 30) == 0) return fmt::format("{} GiB", bytes >> 30);
  if (bytes % (std::uint64_t{1} << 20) == 0) return fmt::format("{} MiB", bytes >> 20);
  return fmt::format("{} bytes", bytes);
}

// The path lab up measured, as `path` under sluice.lab: null when not measured (--no-compensation).
nlohmann::json path_json(const std::optional<PathMeasurement>& path) {
  if (!path) return nullptr;
  return {{"compensated_ns", path->median.count()},
          {"mean_ns", path->mean.count()},
          {"median_ns", path->median.count()},
          {"p10_ns", path->p10.count()},
          {"p90_ns", path->p90.count()},
          {"samples", path->samples}};
}

std::string path_text(const std::optional<PathMeasurement>& path) {
  if (!path) return "  path        not measured (--no-compensation): latencies are the model's plus the path's\n";
  return fmt::format(
      "  path        {} a request through the kernel, the loop device and FUSE (the median of {} 4 KiB reads\n"
      "              answered after the model's read time; p10 {}, p90 {}): each reply leaves that much before\n"
      "              the model's time\n",
      format_duration_ns(static_cast<double>(path->median.count())), path->samples,
      format_duration_ns(static_cast<double>(path->p10.count())),
      format_duration_ns(static_cast<double>(path->p90.count())));
}

int lab_up_action(const std::vector<std::string>& args) {
  const ParsedArgs parsed = parse_arguments(up_table().info(), args);
  LabUpArgs a;
  up_table().apply(parsed, a, nullptr);
  a.up.model_arg = parsed.positionals.at(0);
  a.up.model = load_model(a.up.model_arg);  // a bad model is refused before anything is created
  a.up.mountpoint = parsed.positionals.at(1);
  ModelSpec asked = a.up.model;
  asked.resize(a.up.size);
  check_daemon_range(asked, a.force);  // before anything is created; the daemon is then started with --force
  const LabUpResult up = lab_up(a.up);
  const LabRecord& r = up.record;
  ModelSpec served = a.up.model;
  served.resize(r.size);  // the daemon scales seeks to the device it serves
  const Truth truth = compute_truth(served);
  if (a.json) {
    nlohmann::json lab = {{"device", r.device()},
                          {"mountpoint", r.mountpoint},
                          {"pid", r.daemon_pid},
                          {"model", served.name},
                          {"fs", r.fs},
                          {"size_bytes", r.size},
                          {"record", r.file},
                          {"dir", r.dir},
                          {"truth", truth_json(truth)}};
    if (!up.note.empty()) lab["note"] = up.note;
    lab["path"] = path_json(up.path);
    print_text(nlohmann::json{{"sluice", {{"lab", lab}}}}.dump(2) + "\n");
    return kExitOk;
  }
  std::string text = fmt::format("lab up: model {} on {}, {}", served.name, r.device(), size_words(r.size));
  text += r.fs == "fuse"   ? fmt::format(" (the FUSE file alone)\n")
          : r.fs == "none" ? fmt::format(" (raw block device, direct I/O to the daemon)\n")
                           : fmt::format(", {} mounted at {}\n", r.fs, r.mountpoint);
  text += fmt::format("  device      {}\n  mount point {}\n  daemon      pid {} (log {}/daemon.log)\n", r.device(),
                      r.mountpoint, r.daemon_pid, r.dir);
  text += path_text(up.path);
  if (!up.note.empty()) text += "  note: " + wrap_help(up.note, 8, 8);
  text += fmt::format("  take it down with: sluice lab down {}\n\n", r.mountpoint);
  print_text(text + render_truth_text(truth));
  return kExitOk;
}

int lab_down_action(const std::vector<std::string>& args) {
  const ParsedArgs parsed = parse_arguments(down_table().info(), args);
  const std::string& dir = parsed.positionals.at(0);
  std::vector<std::string> problems;
  const std::vector<LabStatus> labs = list_labs(problems);
  const LabStatus* lab = find_lab(labs, dir);
  if (lab == nullptr) throw UserError(fmt::format("{}: no lab is recorded there (sluice lab list)", dir));
  if (lab->state == LabState::kStarting) {
    throw UserError(fmt::format("{}: sluice lab up (pid {}) is still making this lab", dir, lab->record.up_pid));
  }
  const LabTeardown t = take_lab_down(lab->record, false);
  std::string text;
  for (const std::string& d : t.done) text += "lab down: " + d + "\n";
  print_text(text);
  if (t.failures.empty()) return kExitOk;
  std::string failures;
  for (const std::string& f : t.failures) failures += "sluice: lab down: " + f + "\n";
  std::fputs(failures.c_str(), stderr);
  return kExitError;
}

int lab_list_action(const std::vector<std::string>& args) {
  const ParsedArgs parsed = parse_arguments(list_table().info(), args);
  LabListArgs a;
  list_table().apply(parsed, a, nullptr);
  std::vector<std::string> problems;
  const std::vector<LabStatus> labs = list_labs(problems);
  for (const std::string& p : problems) std::fprintf(stderr, "sluice: lab list: %s\n", p.c_str());
  nlohmann::json list = nlohmann::json::array();
  std::string text = labs.empty() ? "no lab is up\n"
                                  : fmt::format("{:<24} {:<24} {:<5} {:>8} {:<12} {:>8}  {}\n", "MOUNTPOINT", "DEVICE",
                                                "FS", "SIZE", "MODEL", "PID", "STATE");
  for (const LabStatus& lab : labs) {
    const LabRecord& r = lab.record;
    list.push_back({{"mountpoint", r.mountpoint},
                    {"device", r.device()},
                    {"fs", r.fs},
                    {"size_bytes", r.size},
                    {"model", r.model},
                    {"pid", r.daemon_pid},
                    {"state", lab_state_name(lab.state)},
                    {"record", r.file}});
    const bool dead = lab.state == LabState::kDaemonGone || lab.state == LabState::kUpKilled;
    text += fmt::format("{:<24} {:<24} {:<5} {:>8} {:<12} {:>8}  {}{}\n", r.mountpoint, r.device(), r.fs,
                        size_words(r.size), r.model, r.daemon_pid, lab_state_name(lab.state),
                        dead ? " (sluice restore removes it)" : "");
  }
  print_text(a.json ? under_lab("labs", std::move(list)).dump(2) + "\n" : text);
  return problems.empty() ? kExitOk : kExitError;
}

}  // namespace

const CommandInfo& lab_command_info() { return lab_info(); }

int lab_command(const std::vector<std::string>& args) {
  if (args.empty())
    throw UserError("lab: which action? truth, models, serve, stats, up, down or list (sluice lab --help)");
  const std::string& action = args.front();
  // Throws: HelpRequested for --help (lab's own help), else UserError, as lab has no options of its own.
  if (action.starts_with("-")) parse_arguments(lab_info(), args);
  const std::vector<std::string> rest(args.begin() + 1, args.end());
  if (action == "truth") return lab_truth(rest);
  if (action == "models") return lab_models(rest);
  if (action == "serve") return lab_serve(rest);
  if (action == "stats") return lab_stats(rest);
  if (action == "up") return lab_up_action(rest);
  if (action == "down") return lab_down_action(rest);
  if (action == "list") return lab_list_action(rest);
  const std::string close = nearest_of(action, kActions);
  throw UserError(fmt::format("lab {}: not an action; use truth, models, serve, stats, up, down or list{}", action,
                              close.empty() ? "" : fmt::format("; did you mean '{}'?", close)));
}

}  // namespace sluice
