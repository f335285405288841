// Options that say where the I/O goes: names, files, sizes and the file lifecycle.
#include "job/option_builders.h"

namespace sluice::detail {

std::vector<std::string> split_filenames(std::string_view value) {
  std::vector<std::string> names;
  std::string current;
  for (std::size_t i = 0; i < value.size(); ++i) {
    if (value[i] == '\\' && i + 1 < value.size() && value[i + 1] == ':') {
      current += ':';
      ++i;
    } else if (value[i] == ':') {
      if (!current.empty()) names.push_back(current);
      current.clear();
    } else {
      current += value[i];
    }
  }
  if (!current.empty()) names.push_back(current);
  return names;
}

namespace {

OptionDef size_or_percent_option(std::string name, const JobField<SizeOrPercent>& member, std::string default_text,
                                 OptionText text) {
  auto apply = [member, n = name](JobSpec& job, std::string_view value, const SourcePos& where) {
    member(job) = size_or_percent_value(n, value, where, job.report.kb_base);
  };
  return with_text({.name = std::move(name),
                    .type = OptionType::kSize,
                    .default_text = std::move(default_text),
                    .unit = "bytes or percent",
                    .apply = std::move(apply)},
                   std::move(text));
}

// uid (user) or gid: the job's thread runs with this id.
OptionDef id_option(bool user) {
  return {
      .name = user ? "uid" : "gid",
      .type = OptionType::kUnsigned,
      .help = user ? "Run the job as this user (its thread's effective user id; needs root): its ios, hooks and the "
                     "files per-file engines create are the user's, and a laid-out file it may not read or write fails "
                     "the job with EACCES, as fio (which lays out as root by default too)."
                   : "Run the job with this group id (with uid, or alone); as uid.",
      .reason = "sluice's own",
      .apply =
          [user](JobSpec& job, std::string_view value, const SourcePos& where) {
            const auto number =
                static_cast<std::int64_t>(unsigned_value(user ? "uid" : "gid", value, where, 0, 4294967294u));
            (user ? job.placement.uid : job.placement.gid) = number;
          },
  };
}

void add_identity(std::vector<OptionDef>& table) {
  table.insert(
      table.end(),
      {string_option("name", &JobSpec::name, "",
                     {.help = "Name of the job; on the command line each --name starts a new job.",
                      .reason = "every job names itself; without --name the command-line job is called 'sluice'"}),
       string_option("description", &JobSpec::description, "",
                     {.help = "Free text describing the job, echoed in the output.", .reason = "optional text"}),
       {
           .name = "filename",
           .type = OptionType::kString,
           .help = "File(s) or device(s) to use, separated by ':' (write \\: for a colon in a name).",
           .reason = "by default sluice creates files named after the job in 'directory'",
           .apply =
               [](JobSpec& job, std::string_view value, const SourcePos& where) {
                 auto names = split_filenames(value);
                 if (names.empty()) value_error(where, "filename", value, "no file name given");
                 job.target.filenames = std::move(names);
               },
       },
       string_option(
           "opendir", &TargetOptions::opendir, "",
           {.help = "Every regular file below this directory (recursively; symbolic links are not followed) is a file "
                    "of the job too, in path order, each of its own size, as fio (which takes readdir's order).",
            .reason = "no directory"}),
       {
           .name = "lockfile",
           .type = OptionType::kChoice,
           .default_text = "none",
           .range = "none|exclusive|readwrite",
           .help =
               "Lock each file around every io, shared by all jobs of the run that name the same file, as fio: "
               "exclusive = one io at a time, readwrite = reads together and each write alone. Held while the io is "
               "handed to the engine: the whole io with a synchronous engine (psync, sync, mmap), only its submission "
               "with an asynchronous one.",
           .apply =
               [](JobSpec& job, std::string_view value, const SourcePos& where) {
                 static const std::vector<std::string> kChoices = {"none", "exclusive", "readwrite"};
                 static constexpr FileLockMode kModes[] = {FileLockMode::kNone, FileLockMode::kExclusive,
                                                           FileLockMode::kReadWrite};
                 job.target.lockfile = kModes[choice_value("lockfile", value, where, kChoices)];
               },
       },
       string_option("directory", &TargetOptions::directory, "",
                     {.help = "Directory in which the job's files are created; default is the current directory.",
                      .reason = "the current directory"})});
}

void add_sizes(std::vector<OptionDef>& table) {
  table.insert(
      table.end(),
      {accept_zone_counts(size_or_percent_option(
           "size", &TargetOptions::size, "",
           {.help = "Total bytes of the I/O region per job, split over its files; or a percentage of the files' size.",
            .reason = "by default the whole size of existing files or devices; required when files must be created"})),
       size_option("filesize", &TargetOptions::filesize, "0",
                   {.help = "Size of each file; 0 means size divided by nrfiles."}),
       u32_option("openfiles", &TargetOptions::openfiles, 0, 1000000, "0",
                  {.unit = "files",
                   .help = "Files a job may hold open at once; 0 means nrfiles. sluice keeps every file open, so a "
                           "value below nrfiles is refused, but for filecreate, filestat and filedelete, which hold "
                           "none open."}),
       u32_option("nrfiles", &TargetOptions::nrfiles, 1, 1000000, "1",
                  {.aliases = {"nr_files"}, .unit = "files", .help = "Number of files per job."}),
       accept_zone_counts(size_or_percent_option(
           "offset", &TargetOptions::offset, "0",
           {.aliases = {"fileoffset"},
            .help = "Start of the I/O region in each file, in bytes or as a percentage of the file."})),
       size_option(
           "offset_align", &TargetOptions::offset_align, "0",
           {.help = "Align a percentage offset up to this many bytes; not given (or 0): to the smallest block size."}),
       bool_option(
           "file_append", &TargetOptions::file_append, "0",
           {.help = "Do the I/O after the end of each regular file (the region starts at its size): writes append."})});
}

void add_lifecycle(std::vector<OptionDef>& table) {
  table.insert(
      table.end(),
      {bool_option("create_on_open", &TargetOptions::create_on_open, "0",
                   {.help = "Create files when the job opens them, not during layout before the run."}),
       bool_option("create_fsync", &TargetOptions::create_fsync, "1",
                   {.help = "fdatasync each file after laying it out (before the job's clock starts)."}),
       bool_option("create_only", &TargetOptions::create_only, "0",
                   {.help = "Only lay out the job's files; the job then ends without doing its I/O."}),
       bool_option("invalidate", &TargetOptions::invalidate, "1",
                   {.help = "Drop the files' pages from the page cache before the job (posix_fadvise DONTNEED), so "
                            "buffered reads start from the storage; pre_read turns it off."}),
       bool_option(
           "pre_read", &TargetOptions::pre_read, "0",
           {.help = "Read the files' I/O regions into the page cache before the job (buffered); measures the cache."}),
       {
           .name = "fadvise_hint",
           .type = OptionType::kChoice,
           .default_text = "1",
           .range = "0|1|sequential|random|noreuse",
           .help = "posix_fadvise on the files before the job: 1 the job's pattern (RANDOM for random, SEQUENTIAL "
                   "otherwise), sequential, random, noreuse, or 0 for none.",
           .apply =
               [](JobSpec& job, std::string_view value, const SourcePos& where) {
                 static const std::vector<std::string> kChoices = {"0",       "1",     "sequential", "random",
                                                                   "noreuse", "false", "true"};
                 static const FadviseHint kHints[] = {
                     FadviseHint::kNone,    FadviseHint::kWorkload, FadviseHint::kSequential, FadviseHint::kRandom,
                     FadviseHint::kNoReuse, FadviseHint::kNone,     FadviseHint::kWorkload};
                 job.target.fadvise_hint = kHints[choice_value("fadvise_hint", value, where, kChoices)];
               },
       },
       {
           .name = "write_hint",
           .type = OptionType::kChoice,
           .default_text = "",
           .range = "none|short|medium|long|extreme",
           .help = "Expected lifetime of the data written, given to the kernel with fcntl(F_SET_RW_HINT) on each file "
                   "(devices with data placement use it); a kernel that refuses it fails the job.",
           .reason = "no hint",
           .apply =
               [](JobSpec& job, std::string_view value, const SourcePos& where) {
                 static const std::vector<std::string> kChoices = {"none", "short", "medium", "long", "extreme"};
                 job.target.write_hint = static_cast<int>(choice_value("write_hint", value, where, kChoices)) + 1;
               },
       },
       bool_option(
           "unique_filename", &TargetOptions::unique_filename, "1",
           {.help = "Under MPI, generated file names end in .rank<N> so hosts sharing a directory never write each "
                    "other's files (fio prefixes the client's name); 0: every host uses the same names."}),
       bool_option(
           "allow_file_create", &TargetOptions::allow_file_create, "1",
           {.help = "0: never create a file; a job whose file does not exist fails before anything is written."}),
       bool_option("overwrite", &TargetOptions::overwrite, "0",
                   {.help = "Write the whole file before a write job so that its blocks are allocated (no holes)."}),
       bool_option(
           "fill_device", &TargetOptions::fill_device, "0",
           {.aliases = {"fill_fs"},
            .help = "Write until the filesystem is full: without size, the file's size is the free space of its "
                    "filesystem, and ENOSPC (or EDQUOT) ends the job without an error. For rw=write; a read job fills "
                    "its file first, then reads what fitted."}),
       {
           .name = "fallocate",
           .type = OptionType::kChoice,
           .default_text = "native",
           .range = "none|0|posix|1|keep|native",
           .help = "How to preallocate created files: none, posix (posix_fallocate), keep (FALLOC_FL_KEEP_SIZE) or "
                   "native (fallocate, falling back to none).",
           .apply =
               [](JobSpec& job, std::string_view value, const SourcePos& where) {
                 static const std::vector<std::string> kChoices = {"none", "0", "posix", "1", "keep", "native"};
                 static const FallocateMode kModes[] = {FallocateMode::kNone,  FallocateMode::kNone,
                                                        FallocateMode::kPosix, FallocateMode::kPosix,
                                                        FallocateMode::kKeep,  FallocateMode::kNative};
                 job.target.fallocate = kModes[choice_value("fallocate", value, where, kChoices)];
               },
       },
       bool_option("unlink", &TargetOptions::unlink, "0",
                   {.help = "Remove the job's files when it ends (only files sluice created are ever removed)."})});

  table.insert(table.end(),
               {id_option(true),
                id_option(false),
                {
                    .name = "ioscheduler",
                    .type = OptionType::kString,
                    .help = "Switch the block devices under the job's files to this io scheduler (none, mq-deadline, "
                            "bfq, kyber) for its group's run, as fio; sluice journals the old one and gives it back "
                            "when the group ends (fio leaves it changed). Needs root; a device that does not offer it, "
                            "or two jobs of a group asking one device for different ones, is refused before anything "
                            "runs.",
                    .reason = "the devices keep theirs",
                    .apply =
                        [](JobSpec& job, std::string_view value, const SourcePos& where) {
                          if (value.empty() || value.find_first_of(" /\t\n[]") != std::string_view::npos) {
                            value_error(where, "ioscheduler", value,
                                        "not a scheduler name (such as none, mq-deadline, bfq, kyber)");
                          }
                          job.target.ioscheduler = std::string(value);
                        },
                },
                bool_option("allow_mounted_write", &TargetOptions::allow_mounted_write, "0",
                            {.help = "Let this job write to a block device that is mounted or carries a filesystem, "
                                     "partition table, RAID or LVM signature, which sluice otherwise refuses (fio "
                                     "refuses mounted ones); --allow-destructive for one job."}),
                bool_option("unlink_each_loop", &TargetOptions::unlink_each_loop, "0",
                            {.help = "With loops=N: before each loop after the first, delete the job's files and "
                                     "create them again empty, as fio (no layout: the loop's writes fill them). "
                                     "Writing jobs only (a reading loop would find no data; fio fails it with ENOENT), "
                                     "and only files sluice created in this run."})});
}

}  // namespace

void add_target_options(std::vector<OptionDef>& table) {
  const std::size_t first = table.size();
  add_identity(table);
  add_sizes(table);
  add_lifecycle(table);
  for (std::size_t i = first; i < table.size(); ++i) table[i].category = "target";
}

}  // namespace sluice::detail
