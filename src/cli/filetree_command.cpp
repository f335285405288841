// sluice filetree: the create / read / copy / tar / read-tar / delete procedure (suites/filetree_run.h).
#include <cstdlib>
#include <optional>

#include "cli/command_options.h"
#include "cli/commands.h"
#include "cli/history_options.h"
#include "cli/output.h"
#include "common/clock.h"
#include "common/error.h"
#include "common/stop_signal.h"
#include "suites/filetree_report.h"
#include "suites/filetree_run.h"

namespace sluice {
namespace {

constexpr const char* kDescription =
    R"(The lab notebook's shell procedure as one command, on the filesystem under DIR (default: the current
directory). In a new directory DIR/sluice-filetree.XXXXXX it
  create    makes --dirs directories and their files (--size of random data in total),
  read      reads every file,
  copy      copies the tree as cp -a does (data, permission bits, times; the owner when root),
  tar       archives the tree into a GNU tar file (libarchive; /usr/bin/tar lists and extracts it),
  read-tar  reads the archive back, every entry's data,
  delete    removes both trees and the archive,
and prints each step's time, MB/s (10^6 bytes/s) and files/s, then latency percentiles of every file
operation kind (open, read, write, close, mkdir, unlink, ...). Every step ends with syncfs, so writing steps
are timed until their data is on the device. As root the page cache is dropped (sync; drop_caches=3) before
each step after create (--drop-caches=off to keep it); otherwise the report says it was not.
sluice removes the directory it created, and only that, also when interrupted (Ctrl-C: the steps measured
so far are reported) or when a step fails. It refuses to start when DIR lacks the space for the tree, its
copy and the archive (about 3 x --size).
)";

struct FiletreeArgs {
  FiletreeOptions options;
  OutputChoice output;
  HistoryChoice history;
  bool file_size_given = false;
};

CommandTable<FiletreeArgs> make_table() {
  CommandInfo info = command_info("filetree",
                                  "create a tree of files, read it, copy it (cp -a), tar it, read the tar and delete "
                                  "it all, with MB/s, files/s and latency of each step",
                                  kDescription);
  info.positionals = {{"DIR", "the filesystem to test (default: the current directory)", false}};
  CommandTable<FiletreeArgs> t(std::move(info));
  t.add(size_arg("size", 1, "1g", "file data in the tree"),
        [](FiletreeArgs& a, const OptionValue& v) { a.options.total_size = v.number; });
  t.add(count_arg("dirs", 1, 1'000'000, "16", "directories in the tree"),
        [](FiletreeArgs& a, const OptionValue& v) { a.options.dirs = static_cast<std::uint32_t>(v.number); });
  t.add(count_arg("files-per-dir", 1, kMaxFiletreeFiles, "64", "files in each directory, sharing --size equally"),
        [](FiletreeArgs& a, const OptionValue& v) {
          a.options.files_per_dir = static_cast<std::uint32_t>(v.number);
          a.options.files_per_dir_given = true;
        });
  t.add(text_arg("file-size", "S[/W:S/W...]", "",
                 "size of every file (64k), or sizes with weights (4k/50:64k/30:1m/20); files are drawn until --size "
                 "is reached and dealt over the directories (instead of --files-per-dir)"),
        [](FiletreeArgs& a, const OptionValue& v) {
          a.options.file_sizes = parse_file_size_spec(v.text);
          a.file_size_given = true;
        });
  t.add(count_arg("threads", 1, 1024, "1", "threads for the create, read, copy and delete steps (tar is one stream)"),
        [](FiletreeArgs& a, const OptionValue& v) { a.options.threads = static_cast<std::uint32_t>(v.number); });
  t.add(
      choice_arg<std::optional<bool>>("drop-caches", {{"auto", std::nullopt}, {"on", true}, {"off", false}}, "auto",
                                      "drop the page cache before each step after create; auto: when running as root"),
      [](FiletreeArgs& a, const std::optional<bool>& drop) { a.options.drop_caches = drop; });
  t.add(count_arg("seed", 0, ~0ull, "24301", "seed of the file sizes drawn from --file-size and of the data"),
        [](FiletreeArgs& a, const OptionValue& v) { a.options.seed = v.number; });
  add_output_options(t, &FiletreeArgs::output);
  add_history_options(t, &FiletreeArgs::history);
  return t;
}

const CommandTable<FiletreeArgs>& table() {
  static const CommandTable<FiletreeArgs> kTable = make_table();
  return kTable;
}

FiletreeArgs parse_filetree_args(const std::vector<std::string>& args) {
  const ParsedArgs parsed = parse_arguments(table().info(), args);
  FiletreeArgs out;
  table().apply(parsed, out, nullptr);
  if (!parsed.positionals.empty()) out.options.directory = parsed.positionals.front();
  if (out.file_size_given && out.options.files_per_dir_given) {
    throw UserError(
        "--files-per-dir and --file-size both set the number of files; give one of them "
        "(--file-size draws files until --size is reached)");
  }
  // Test hook (never an option): keep the archive for an outside check, moved to this path.
  if (const char* keep = std::getenv("SLUICE_FILETREE_KEEP_ARCHIVE"); keep && *keep) out.options.keep_archive = keep;
  return out;
}

}  // namespace

const CommandInfo& filetree_command_info() { return table().info(); }

int filetree_command(const std::vector<std::string>& args) {
  const FiletreeArgs cli = parse_filetree_args(args);
  install_stop_signal_handlers();
  init_clock();
  return run_measured({"filetree", args, ""}, cli.history, cli.output, [&](bool) {
    const FiletreeResult result = run_filetree(cli.options);
    return Measurement{render_filetree_text(result), filetree_json(result).dump(2) + "\n",
                       result.interrupted ? kExitInterrupted : kExitOk};
  });
}

}  // namespace sluice
