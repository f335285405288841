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

OptionDef size_or_percent_option(std::string name, SizeOrPercent JobSpec::*member, std::string default_text) {
  OptionDef def;
  def.name = std::move(name);
  def.type = OptionType::kSize;
  def.default_text = std::move(default_text);
  def.unit = "bytes or percent";
  def.apply = [member, n = def.name](JobSpec& job, std::string_view value, const SourcePos& where) {
    job.*member = size_or_percent_value(n, value, where, job.kb_base);
  };
  return def;
}

void add_identity(std::vector<OptionDef>& table) {
  OptionDef name = string_option("name", &JobSpec::name, "");
  name.help = "Name of the job; on the command line each --name starts a new job.";
  name.reason = "every job names itself; without --name the command-line job is called 'sluice'";
  table.push_back(std::move(name));

  OptionDef description = string_option("description", &JobSpec::description, "");
  description.help = "Free text describing the job, echoed in the output.";
  description.reason = "optional text";
  table.push_back(std::move(description));

  OptionDef filename;
  filename.name = "filename";
  filename.type = OptionType::kString;
  filename.help = "File(s) or device(s) to use, separated by ':' (write \\: for a colon in a name).";
  filename.reason = "by default sluice creates files named after the job in 'directory'";
  filename.apply = [](JobSpec& job, std::string_view value, const SourcePos& where) {
    auto names = split_filenames(value);
    if (names.empty()) value_error(where, "filename", value, "no file name given");
    job.filenames = std::move(names);
  };
  table.push_back(std::move(filename));

  OptionDef opendir = string_option("opendir", &JobSpec::opendir, "");
  opendir.help = "Every regular file below this directory (recursively; symbolic links are not followed) is a file "
                 "of the job too, in path order, each of its own size, as fio (which takes readdir's order).";
  opendir.reason = "no directory";
  table.push_back(std::move(opendir));

  OptionDef lockfile;
  lockfile.name = "lockfile";
  lockfile.type = OptionType::kChoice;
  lockfile.default_text = "none";
  lockfile.range = "none|exclusive|readwrite";
  lockfile.help =
      "Lock each file around every io, shared by all jobs of the run that name the same file, as fio: "
      "exclusive = one io at a time, readwrite = reads together and each write alone. Held while the io is "
      "handed to the engine: the whole io with a synchronous engine (psync, sync, mmap), only its submission "
      "with an asynchronous one.";
  lockfile.apply = [](JobSpec& job, std::string_view value, const SourcePos& where) {
    static const std::vector<std::string> kChoices = {"none", "exclusive", "readwrite"};
    static constexpr FileLockMode kModes[] = {FileLockMode::kNone, FileLockMode::kExclusive,
                                              FileLockMode::kReadWrite};
    job.lockfile = kModes[choice_value("lockfile", value, where, kChoices)];
  };
  table.push_back(std::move(lockfile));

  OptionDef directory = string_option("directory", &JobSpec::directory, "");
  directory.help = "Directory in which the job's files are created; default is the current directory.";
  directory.reason = "the current directory";
  table.push_back(std::move(directory));
}

void add_sizes(std::vector<OptionDef>& table) {
  OptionDef size = size_or_percent_option("size", &JobSpec::size, "");
  size.help = "Total bytes of the I/O region per job, split over its files; or a percentage of the files' size.";
  size.reason = "by default the whole size of existing files or devices; required when files must be created";
  accept_zone_counts(size);
  table.push_back(std::move(size));

  OptionDef filesize = size_option("filesize", &JobSpec::filesize, "0");
  filesize.help = "Size of each file; 0 means size divided by nrfiles.";
  table.push_back(std::move(filesize));

  OptionDef openfiles = u32_option("openfiles", &JobSpec::openfiles, 0, 1000000, "0", "files");
  openfiles.help =
      "Files a job may hold open at once; 0 means nrfiles. sluice keeps every file open, so a value below "
      "nrfiles is refused, but for filecreate, filestat and filedelete, which hold none open.";
  table.push_back(std::move(openfiles));

  OptionDef nrfiles = u32_option("nrfiles", &JobSpec::nrfiles, 1, 1000000, "1", "files");
  nrfiles.aliases = {"nr_files"};
  nrfiles.help = "Number of files per job.";
  table.push_back(std::move(nrfiles));

  OptionDef offset = size_or_percent_option("offset", &JobSpec::offset, "0");
  offset.aliases = {"fileoffset"};
  offset.help = "Start of the I/O region in each file, in bytes or as a percentage of the file.";
  accept_zone_counts(offset);
  table.push_back(std::move(offset));

  OptionDef align = size_option("offset_align", &JobSpec::offset_align, "0");
  align.help = "Align a percentage offset up to this many bytes; not given (or 0): to the smallest block size.";
  table.push_back(std::move(align));

  OptionDef append = bool_option("file_append", &JobSpec::file_append, "0");
  append.help = "Do the I/O after the end of each regular file (the region starts at its size): writes append.";
  table.push_back(std::move(append));
}

void add_lifecycle(std::vector<OptionDef>& table) {
  OptionDef create_on_open = bool_option("create_on_open", &JobSpec::create_on_open, "0");
  create_on_open.help = "Create files when the job opens them, not during layout before the run.";
  table.push_back(std::move(create_on_open));

  OptionDef create_fsync = bool_option("create_fsync", &JobSpec::create_fsync, "1");
  create_fsync.help = "fdatasync each file after laying it out (before the job's clock starts).";
  table.push_back(std::move(create_fsync));

  OptionDef create_only = bool_option("create_only", &JobSpec::create_only, "0");
  create_only.help = "Only lay out the job's files; the job then ends without doing its I/O.";
  table.push_back(std::move(create_only));

  OptionDef invalidate = bool_option("invalidate", &JobSpec::invalidate, "1");
  invalidate.help =
      "Drop the files' pages from the page cache before the job (posix_fadvise DONTNEED), so buffered reads "
      "start from the storage; pre_read turns it off.";
  table.push_back(std::move(invalidate));

  OptionDef pre_read = bool_option("pre_read", &JobSpec::pre_read, "0");
  pre_read.help = "Read the files' I/O regions into the page cache before the job (buffered); measures the cache.";
  table.push_back(std::move(pre_read));

  OptionDef fadvise;
  fadvise.name = "fadvise_hint";
  fadvise.type = OptionType::kChoice;
  fadvise.default_text = "1";
  fadvise.range = "0|1|sequential|random|noreuse";
  fadvise.help =
      "posix_fadvise on the files before the job: 1 the job's pattern (RANDOM for random, SEQUENTIAL "
      "otherwise), sequential, random, noreuse, or 0 for none.";
  fadvise.apply = [](JobSpec& job, std::string_view value, const SourcePos& where) {
    static const std::vector<std::string> kChoices = {"0", "1", "sequential", "random", "noreuse", "false", "true"};
    static const FadviseHint kHints[] = {FadviseHint::kNone,   FadviseHint::kWorkload, FadviseHint::kSequential,
                                         FadviseHint::kRandom, FadviseHint::kNoReuse,  FadviseHint::kNone,
                                         FadviseHint::kWorkload};
    job.fadvise_hint = kHints[choice_value("fadvise_hint", value, where, kChoices)];
  };
  table.push_back(std::move(fadvise));

  OptionDef write_hint;
  write_hint.name = "write_hint";
  write_hint.type = OptionType::kChoice;
  write_hint.default_text = "";
  write_hint.reason = "no hint";
  write_hint.range = "none|short|medium|long|extreme";
  write_hint.help =
      "Expected lifetime of the data written, given to the kernel with fcntl(F_SET_RW_HINT) on each file "
      "(devices with data placement use it); a kernel that refuses it fails the job.";
  write_hint.apply = [](JobSpec& job, std::string_view value, const SourcePos& where) {
    static const std::vector<std::string> kChoices = {"none", "short", "medium", "long", "extreme"};
    job.write_hint = static_cast<int>(choice_value("write_hint", value, where, kChoices)) + 1;
  };
  table.push_back(std::move(write_hint));

  OptionDef unique = bool_option("unique_filename", &JobSpec::unique_filename, "1");
  unique.help = "Under MPI, generated file names end in .rank<N> so hosts sharing a directory never write each "
                "other's files (fio prefixes the client's name); 0: every host uses the same names.";
  table.push_back(std::move(unique));

  OptionDef allow_create = bool_option("allow_file_create", &JobSpec::allow_file_create, "1");
  allow_create.help = "0: never create a file; a job whose file does not exist fails before anything is written.";
  table.push_back(std::move(allow_create));

  OptionDef overwrite = bool_option("overwrite", &JobSpec::overwrite, "0");
  overwrite.help = "Write the whole file before a write job so that its blocks are allocated (no holes).";
  table.push_back(std::move(overwrite));

  OptionDef fill = bool_option("fill_device", &JobSpec::fill_device, "0");
  fill.aliases = {"fill_fs"};
  fill.help = "Write until the filesystem is full: without size, the file's size is the free space of its "
              "filesystem, and ENOSPC (or EDQUOT) ends the job without an error. For rw=write; a read job "
              "fills its file first, then reads what fitted.";
  table.push_back(std::move(fill));

  OptionDef fallocate;
  fallocate.name = "fallocate";
  fallocate.type = OptionType::kChoice;
  fallocate.default_text = "native";
  fallocate.range = "none|0|posix|1|keep|native";
  fallocate.help =
      "How to preallocate created files: none, posix (posix_fallocate), keep (FALLOC_FL_KEEP_SIZE) "
      "or native (fallocate, falling back to none).";
  fallocate.apply = [](JobSpec& job, std::string_view value, const SourcePos& where) {
    static const std::vector<std::string> kChoices = {"none", "0", "posix", "1", "keep", "native"};
    static const FallocateMode kModes[] = {FallocateMode::kNone,  FallocateMode::kNone, FallocateMode::kPosix,
                                           FallocateMode::kPosix, FallocateMode::kKeep, FallocateMode::kNative};
    job.fallocate = kModes[choice_value("fallocate", value, where, kChoices)];
  };
  table.push_back(std::move(fallocate));

  OptionDef unlink = bool_option("unlink", &JobSpec::unlink, "0");
  unlink.help = "Remove the job's files when it ends (only files sluice created are ever removed).";
  table.push_back(std::move(unlink));

  for (const bool user : {true, false}) {
    OptionDef id;
    id.name = user ? "uid" : "gid";
    id.type = OptionType::kUnsigned;
    id.reason = "sluice's own";
    id.help = user ? "Run the job as this user (its thread's effective user id; needs root): its ios, hooks and the "
                     "files per-file engines create are the user's, and a laid-out file it may not read or write "
                     "fails the job with EACCES, as fio (which lays out as root by default too)."
                   : "Run the job with this group id (with uid, or alone); as uid.";
    id.apply = [user](JobSpec& job, std::string_view value, const SourcePos& where) {
      const auto number = static_cast<std::int64_t>(unsigned_value(user ? "uid" : "gid", value, where, 0, 4294967294u));
      (user ? job.uid : job.gid) = number;
    };
    table.push_back(std::move(id));
  }

  OptionDef scheduler;
  scheduler.name = "ioscheduler";
  scheduler.type = OptionType::kString;
  scheduler.reason = "the devices keep theirs";
  scheduler.help =
      "Switch the block devices under the job's files to this io scheduler (none, mq-deadline, bfq, kyber) for "
      "its group's run, as fio; sluice journals the old one and gives it back when the group ends (fio leaves "
      "it changed). Needs root; a device that does not offer it, or two jobs of a group asking one device for "
      "different ones, is refused before anything runs.";
  scheduler.apply = [](JobSpec& job, std::string_view value, const SourcePos& where) {
    if (value.empty() || value.find_first_of(" /\t\n[]") != std::string_view::npos) {
      value_error(where, "ioscheduler", value, "not a scheduler name (such as none, mq-deadline, bfq, kyber)");
    }
    job.ioscheduler = std::string(value);
  };
  table.push_back(std::move(scheduler));

  OptionDef mounted = bool_option("allow_mounted_write", &JobSpec::allow_mounted_write, "0");
  mounted.help =
      "Let this job write to a block device that is mounted or carries a filesystem, partition table, RAID or LVM "
      "signature, which sluice otherwise refuses (fio refuses mounted ones); --allow-destructive for one job.";
  table.push_back(std::move(mounted));

  OptionDef each_loop = bool_option("unlink_each_loop", &JobSpec::unlink_each_loop, "0");
  each_loop.help =
      "With loops=N: before each loop after the first, delete the job's files and create them again empty, as "
      "fio (no layout: the loop's writes fill them). Writing jobs only (a reading loop would find no data; fio "
      "fails it with ENOENT), and only files sluice created in this run.";
  table.push_back(std::move(each_loop));
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
