// sluice lab ACTION: model devices whose behaviour is known (src/lab, docs/lab.md). Built so far: truth (what a
// correct benchmark must measure on a model) and models (the presets).
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
#include "lab/lab_daemon.h"
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
MODEL is a preset's name or the path of a model file. Not built yet: up, down and list (the block device over the
daemon, its filesystem and its journal); see docs/lab.md.
)";

constexpr const char* kTruthDescription =
    R"(What a correct benchmark must measure on MODEL, computed from the model by queueing theory, never from a
measurement: 4 KiB random read and write at depth 1 and 32, 1 MiB sequential read and write at depth 1 and 32,
fsync'd 16 KiB random writes (one thread), and for 4 KiB random read and write the capacity at a mean-latency
limit (closed loop: the deepest queue within it; open loop: the Poisson arrival rate within it) and the knee
(the shallowest depth that reaches the device's maximum). Each row is for the raw device with direct I/O over
its whole size. Rows marked ~ are approximations; docs/lab.md says which formulas are exact.
)";

const std::vector<std::string> kActions = {"truth", "models", "serve", "stats"};
const std::vector<std::string> kUnbuiltActions = {"up", "down", "list"};

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

struct LabServeArgs {
  LabDaemonOptions daemon;
};

constexpr const char* kServeDescription =
    R"(Runs the lab daemon in the foreground until MOUNTPOINT is unmounted (fusermount3 -u) or SIGINT/SIGTERM:
MOUNTPOINT/device is FILE (created sparse when missing, grown to the size) served through MODEL, each request's
reply sent when the model says it completes, counted from its arrival on the daemon's clock; MOUNTPOINT/stats
is the daemon's record as JSON (per op: count, bytes, queue, service and total time). The device is opened
with direct I/O, so every request reaches the model; put a loop device on it (losetup --direct-io=on) for a
block device. The backing file is not synced by a flush: the model decides what a flush costs.
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
  info.positionals = {{"ACTION", "truth, models, serve or stats", true},
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
  info.positionals = {{"MOUNTPOINT", "where the daemon is mounted", true}};
  CommandTable<LabStatsArgs> t(std::move(info));
  t.add(json_choice_arg(), [](LabStatsArgs& a, const OptionValue& v) { a.json = v.text == "json"; });
  return t;
}

const CommandTable<LabStatsArgs>& stats_table() {
  static const CommandTable<LabStatsArgs> kTable = make_stats_table();
  return kTable;
}

void print_text(const std::string& text) { std::fwrite(text.data(), 1, text.size(), stdout); }

nlohmann::json under_lab(const char* key, nlohmann::json value) {
  return {{"sluice", {{"lab", {{key, std::move(value)}}}}}};
}

int lab_truth(const std::vector<std::string>& args) {
  const ParsedArgs parsed = parse_arguments(truth_table().info(), args);
  if (parsed.help) {
    print_text(render_command_help(truth_table().info()));
    return kExitOk;
  }
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
  if (parsed.help) {
    print_text(render_command_help(models_table().info()));
    return kExitOk;
  }
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
  if (parsed.help) {
    print_text(render_command_help(stats_table().info()));
    return kExitOk;
  }
  LabStatsArgs a;
  stats_table().apply(parsed, a, nullptr);
  const std::string& where = parsed.positionals.at(0);
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
  if (parsed.help) {
    print_text(render_command_help(serve_table().info()));
    return kExitOk;
  }
  LabServeArgs a;
  serve_table().apply(parsed, a, nullptr);
  if (a.daemon.backing.empty()) throw UserError("lab serve: --backing=FILE is required (the device's data)");
  a.daemon.model = load_model(parsed.positionals.at(0));
  a.daemon.mountpoint = parsed.positionals.at(1);
  check_mountpoint(a.daemon.mountpoint);
  return run_lab_daemon(a.daemon);
}

}  // namespace

const CommandInfo& lab_command_info() { return lab_info(); }

int lab_command(const std::vector<std::string>& args) {
  if (args.empty() || args.front() == "-h" || args.front() == "--help") {
    if (args.empty()) throw UserError("lab: which action? truth MODEL or models (sluice lab --help)");
    print_text(render_command_help(lab_info()));
    return kExitOk;
  }
  const std::string& action = args.front();
  if (action.starts_with("-")) parse_arguments(lab_info(), args);  // throws: lab has no options of its own
  const std::vector<std::string> rest(args.begin() + 1, args.end());
  if (action == "truth") return lab_truth(rest);
  if (action == "models") return lab_models(rest);
  if (action == "serve") return lab_serve(rest);
  if (action == "stats") return lab_stats(rest);
  if (std::find(kUnbuiltActions.begin(), kUnbuiltActions.end(), action) != kUnbuiltActions.end()) {
    throw UserError(
        fmt::format("lab {}: not built yet (the model device is the next step of issue 34; see "
                    "docs/lab.md); built: truth, models, serve, stats",
                    action));
  }
  const std::string close = nearest_of(action, kActions);
  throw UserError(fmt::format("lab {}: not an action; use truth, models, serve or stats{}", action,
                              close.empty() ? "" : fmt::format("; did you mean '{}'?", close)));
}

}  // namespace sluice
