// sluice metadata: mdtest's metadata rates (suites/metadata_*.h), with mdtest's single-letter options.
#include <fmt/format.h>

#include <map>
#include <nlohmann/json.hpp>
#include <optional>

#include "cli/command_options.h"
#include "cli/commands.h"
#include "cli/history_options.h"
#include "cli/mpi_steps.h"
#include "cli/output.h"
#include "common/clock.h"
#include "common/error.h"
#include "common/stop_signal.h"
#include "mpi/watchdog.h"
#include "mpi/world.h"
#include "suites/metadata_report.h"
#include "suites/metadata_run.h"

namespace sluice {
namespace {

constexpr const char* kDescription =
    R"(mdtest (hpc/ior 4.0.0) as a sluice command: the rates at which the file system creates, stats, reads
and removes many directories and small files. Each iteration, in a new directory DIR/sluice-metadata.<pid>,
  Tree creation       makes the tree: depth -z, branching -b (with -u one tree per task),
  Directory creation  mkdir of -n items per task spread over the tree (dir.mdtest.<task>.<n>), then stat
                      and rmdir of each (Directory stat, Directory removal),
  File creation       open(O_CREAT), one write of -w bytes, close of -n files per task, then stat, read
                      (open, one read of -e bytes, close) and unlink of each,
  Tree removal        removes the tree.
The tasks are --threads threads (under mpirun: --threads on every rank, all ranks' threads together),
which wait for each other before and after every phase as mdtest's MPI ranks do; a phase's rate is the items of all tasks over the time between those barriers (tree rates count
one tree), and the summary gives Max, Min, Mean and Std Dev (n-1) across the -i iterations, in mdtest
4.0.0's layout. sluice adds latency percentiles of each phase's items.
mdtest's letters are accepted: -d DIR, -n, -z, -b, -I, -u, -w, -e, -F, -D, -i, -C, -T, -E, -r, -y, -Y. With
-C/-T/-E/-r only those phases are reported; the others still run untimed where needed, since sluice creates
its items itself and removes everything it created, also when interrupted (Ctrl-C: the phases measured so
far are reported). Impossible trees are refused before anything is created.
)";

struct MetadataArgs {
  MetadataOptions options;
  OutputChoice output;
  HistoryChoice history;
};

CommandTable<MetadataArgs> make_table() {
  CommandInfo info = command_info(
      "metadata",
      "mdtest's metadata rates (directory and file create, stat, read, remove; tree create, remove) with its "
      "options and summary table, plus latency percentiles",
      kDescription);
  CommandTable<MetadataArgs> t(std::move(info));
  using A = MetadataArgs;
  using V = OptionValue;
  t.add(text_arg("dir", "DIR", ".", "-d: the directory to work in (sluice makes and removes a subdirectory)"),
        [](A& a, const V& v) { a.options.directory = v.text; });
  t.add(count_arg("items", 0, kMaxMetadataItems, "0", "-n: items (directories and files) per task"),
        [](A& a, const V& v) { a.options.items = v.number; });
  t.add(count_arg("depth", 0, 64, "0", "-z: depth of the directory tree"),
        [](A& a, const V& v) { a.options.depth = static_cast<std::uint32_t>(v.number); });
  t.add(count_arg("branching", 1, kMaxMetadataTreeDirs, "1", "-b: branching factor of the tree"),
        [](A& a, const V& v) { a.options.branching = static_cast<std::uint32_t>(v.number); });
  t.add(count_arg("items-per-dir", 0, kMaxMetadataItems, "0", "-I: items in each tree directory (instead of -n)"),
        [](A& a, const V& v) { a.options.items_per_dir = v.number; });
  t.add(flag_arg("unique-dir", "-u: a tree of its own for each task"),
        [](A& a, const V&) { a.options.unique_dir = true; });
  t.add(size_arg("write-bytes", 0, "0", "-w: bytes written to each file when it is created (at most 1g)"),
        [](A& a, const V& v) { a.options.write_bytes = v.number; });
  t.add(size_arg("read-bytes", 0, "0", "-e: bytes read from each file in the read phase (at most 1g)"),
        [](A& a, const V& v) { a.options.read_bytes = v.number; });
  t.add(flag_arg("files-only", "-F: only the file phases"), [](A& a, const V&) { a.options.files_only = true; });
  t.add(flag_arg("dirs-only", "-D: only the directory phases"), [](A& a, const V&) { a.options.dirs_only = true; });
  t.add(count_arg("iterations", 1, 100000, "1", "-i: iterations (the summary is across them)"),
        [](A& a, const V& v) { a.options.iterations = static_cast<std::uint32_t>(v.number); });
  t.add(flag_arg("create", "-C: report the creation phases"), [](A& a, const V&) { a.options.only_create = true; });
  t.add(flag_arg("stat", "-T: report the stat phases"), [](A& a, const V&) { a.options.only_stat = true; });
  t.add(flag_arg("read", "-E: report the file read phase"), [](A& a, const V&) { a.options.only_read = true; });
  t.add(flag_arg("remove", "-r: report the removal phases"), [](A& a, const V&) { a.options.only_remove = true; });
  t.add(flag_arg("fsync", "-y: fsync each file after its write"), [](A& a, const V&) { a.options.fsync_files = true; });
  t.add(flag_arg("sync", "-Y: sync DIR's file system at the end of each phase, inside its time"),
        [](A& a, const V&) { a.options.sync_phases = true; });
  t.add(count_arg("threads", 1, 1024, "1", "tasks (mdtest's MPI ranks), as threads"),
        [](A& a, const V& v) { a.options.threads = static_cast<std::uint32_t>(v.number); });
  add_output_options(t, &A::output);
  add_history_options(t, &A::history);
  return t;
}

const CommandTable<MetadataArgs>& table() {
  static const CommandTable<MetadataArgs> kTable = make_table();
  return kTable;
}

// mdtest's letters that take a value, and those that do not, with sluice's names.
const std::map<char, const char*> kValueLetters = {{'d', "dir"},        {'n', "items"},         {'z', "depth"},
                                                   {'b', "branching"},  {'I', "items-per-dir"}, {'w', "write-bytes"},
                                                   {'e', "read-bytes"}, {'i', "iterations"}};
const std::map<char, const char*> kFlagLetters = {{'u', "unique-dir"}, {'F', "files-only"}, {'D', "dirs-only"},
                                                  {'C', "create"},     {'T', "stat"},       {'E', "read"},
                                                  {'r', "remove"},     {'y', "fsync"},      {'Y', "sync"}};
// mdtest options sluice does not implement, refused by name.
const std::map<char, const char*> kRefusedLetters = {{'L', "leaves only"},
                                                     {'S', "shared file"},
                                                     {'N', "stride between neighbour tasks"},
                                                     {'R', "random stat order"},
                                                     {'B', "no barriers"},
                                                     {'c', "collective creates"},
                                                     {'t', "time unique dir overhead"},
                                                     {'W', "stonewall timer"},
                                                     {'P', "print rate and time"},
                                                     {'Z', "print time instead of rate"},
                                                     {'v', "verbose"},
                                                     {'V', "verbosity level"},
                                                     {'U', "directory rename"},
                                                     {'k', "mknod"},
                                                     {'a', "API backend"},
                                                     {'f', "first task count"},
                                                     {'l', "last task count"},
                                                     {'s', "task count stride"},
                                                     {'p', "pre-iteration delay"},
                                                     {'x', "stonewall status file"},
                                                     {'X', "verify read"},
                                                     {'G', "random seed"},
                                                     {'O', "stat on open"},
                                                     {'M', "mdtest per-task sub-directories"}};

// Rewrites mdtest's single-letter options (-n 100, -n100, -uF) into sluice's --name=value form.
std::vector<std::string> translate_letters(const std::vector<std::string>& args) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--") {
      out.insert(out.end(), args.begin() + static_cast<std::ptrdiff_t>(i), args.end());
      break;
    }
    if (arg.size() < 2 || arg[0] != '-' || arg[1] == '-' || arg == "-h") {
      out.push_back(arg);
      continue;
    }
    const char letter = arg[1];
    if (const auto v = kValueLetters.find(letter); v != kValueLetters.end()) {
      std::string value = arg.substr(2);
      if (value.empty()) {
        if (i + 1 >= args.size()) throw UserError(fmt::format("-{} (--{}) needs a value", letter, v->second));
        value = args[++i];
      }
      out.push_back(fmt::format("--{}={}", v->second, value));
      continue;
    }
    for (std::size_t k = 1; k < arg.size(); ++k) {
      const char c = arg[k];
      if (const auto f = kFlagLetters.find(c); f != kFlagLetters.end()) {
        out.push_back(fmt::format("--{}", f->second));
      } else if (const auto r = kRefusedLetters.find(c); r != kRefusedLetters.end()) {
        throw UserError(
            fmt::format("-{}: mdtest's {} option is not implemented by sluice metadata "
                        "(sluice metadata --help lists what is)",
                        c, r->second));
      } else {
        throw UserError(fmt::format("-{}: unknown option for metadata; sluice metadata --help lists the options", c));
      }
    }
  }
  return out;
}

MetadataArgs parse_metadata_args(const std::vector<std::string>& args) {
  const std::vector<std::string> translated = translate_letters(args);
  const ParsedArgs parsed = parse_arguments(table().info(), translated);
  MetadataArgs out;
  table().apply(parsed, out, nullptr);
  return out;
}

}  // namespace

const CommandInfo& metadata_command_info() { return table().info(); }

int metadata_command(const std::vector<std::string>& args) {
  const MetadataArgs cli = parse_metadata_args(args);
  // Under MPI every rank runs --threads workers; all ranks' workers are mdtest's tasks (docs/multi-host.md).
  std::optional<MpiProcessGroup> ranks;
  if (mpi::active()) ranks.emplace();
  ProcessGroup* processes = ranks ? &*ranks : nullptr;
  // Refuse an impossible tree before anything is opened or created.
  (void)make_metadata_plan(cli.options, processes == nullptr ? 1 : processes->size());
  install_stop_signal_handlers();
  init_clock();
  const mpi::Watchdog watchdog(mpi::active() ? mpi::time_limit() : std::chrono::nanoseconds(0));
  if (processes != nullptr && processes->rank() != 0) {
    return MpiRepetitions::follow([&] {
      const MetadataResult result = run_metadata(cli.options, args, processes);
      return result.failed ? kExitError : (result.interrupted ? kExitInterrupted : kExitOk);
    });
  }
  MpiRepetitions repetitions;
  const int code = run_measured({"metadata", args, ""}, cli.history, cli.output, [&](bool) {
    repetitions.next();
    const MetadataResult result = run_metadata(cli.options, args, processes);
    return Measurement{render_metadata_text(result), metadata_json(result).dump(2) + "\n",
                       result.interrupted ? kExitInterrupted : kExitOk};
  });
  repetitions.done();
  return code;
}

}  // namespace sluice
