// Resolving a job's files and sizes (fio semantics), opening and closing them.
#include "targets/target_file.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <optional>

#include "common/created_files.h"
#include "job/job_spec.h"
#include "targets/target_internal.h"

namespace sluice {

TargetJob::TargetJob(const JobSpec& job)
    : target(job.target),
      workload(job.workload),
      durability(job.durability),
      name(job.name),
      engine_dirs(engine_traits(job.engine.ioengine).dirs),
      engine_moves_data(engine_traits(job.engine.ioengine).moves_data) {}
namespace {

std::string join_path(const std::string& dir, const std::string& name) {
  if (dir.empty() || name.starts_with('/')) return name;
  return dir.ends_with('/') ? dir + name : dir + "/" + name;
}

void check_directory(const std::string& dir) {
  struct stat st {};
  if (::stat(dir.c_str(), &st) != 0) {
    const int err = errno;
    throw IoError("directory " + dir + " does not exist (" + std::strerror(err) + ")", err);
  }
  if (!S_ISDIR(st.st_mode)) throw UserError("directory " + dir + " is not a directory");
}

}  // namespace

namespace {

// opendir=DIR: every regular file below DIR (symbolic links are not followed, as fio's lstat), sorted by
// path so that every run and clone sees the same order (fio takes readdir's).
std::vector<std::string> files_below(const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code error;
  if (!fs::is_directory(dir, error)) throw UserError("opendir=" + dir + ": not a directory");
  std::vector<std::string> found;
  for (fs::recursive_directory_iterator it(dir, error), end; !error && it != end; it.increment(error)) {
    if (it->is_regular_file(error) && !it->is_symlink(error)) found.push_back(it->path().string());
  }
  if (error) throw UserError("opendir=" + dir + ": " + error.message());
  if (found.empty()) throw UserError("opendir=" + dir + " holds no regular file");
  std::sort(found.begin(), found.end());
  return found;
}

}  // namespace

std::vector<std::string> target_paths(const TargetJob& job, int jobnum) {
  if (!job.target.directory.empty()) check_directory(job.target.directory);
  std::vector<std::string> paths;
  if (!job.target.filenames.empty() || !job.target.opendir.empty()) {
    for (const std::string& name : job.target.filenames) paths.push_back(join_path(job.target.directory, name));
    if (!job.target.opendir.empty()) {
      for (std::string& path : files_below(job.target.opendir)) paths.push_back(std::move(path));
    }
    return paths;
  }
  std::string dir = job.target.directory.empty() ? "." : job.target.directory;
  std::uint32_t count = job.target.nrfiles == 0 ? 1 : job.target.nrfiles;
  for (std::uint32_t i = 0; i < count; ++i) {
    paths.push_back(join_path(dir, job.name + "." + std::to_string(jobnum) + "." + std::to_string(i)));
  }
  return paths;
}

namespace {

std::uint64_t percent_of(double percent, std::uint64_t whole) {
  return static_cast<std::uint64_t>(std::floor(static_cast<double>(whole) * percent / 100.0));
}

// Existing size of the file or device at `path`, or nullopt when it does not exist. dirs: the job's engine
// works on directories (dircreate, dirstat, dirdelete), whose size is the job's, not the directory's.
std::optional<std::uint64_t> existing_size(const std::string& path, bool& is_block, bool dirs) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    const int err = errno;
    if (err == ENOENT) return std::nullopt;
    throw IoError("cannot access " + path + ": " + std::strerror(err), err);
  }
  if (S_ISDIR(st.st_mode)) {
    if (dirs) return std::nullopt;
    throw UserError(path + " is a directory; a file or block device is needed");
  }
  is_block = S_ISBLK(st.st_mode);
  if (!is_block) return static_cast<std::uint64_t>(st.st_size);
  return detail::block_device_size(path);
}

// The free bytes of the filesystem that holds (or will hold) `path`: what root may write (the reserved
// blocks too), else what an ordinary user may.
std::uint64_t free_space_for(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
  struct statvfs fs {};
  if (::statvfs(dir.c_str(), &fs) != 0) {
    throw UserError("fill_device: cannot read the free space of " + dir + ": " + std::strerror(errno));
  }
  const std::uint64_t blocks = ::geteuid() == 0 ? fs.f_bfree : fs.f_bavail;
  return blocks * static_cast<std::uint64_t>(fs.f_frsize);
}

// The bytes of I/O region each file gets when the job gives a size; 0 when it does not.
std::uint64_t planned_size(const TargetJob& job, std::size_t nfiles, std::optional<std::uint64_t> existing,
                           const std::string& path, bool is_block) {
  if (job.target.fill_device && !is_block && job.target.filesize == 0 && job.target.size.bytes == 0 &&
      job.target.size.percent <= 0.0) {
    // fio's "really large" size: the file may grow by all the space there is; ENOSPC ends the job first.
    const std::uint64_t grow = free_space_for(path) / nfiles;
    if (grow == 0 && !existing) throw UserError("fill_device: the filesystem of " + path + " has no free space");
    return existing.value_or(0) + grow;
  }
  if (job.target.filesize > 0) return job.target.filesize;
  if (job.target.size.percent > 0.0) {
    if (!existing) throw UserError("--size is needed to create " + path + " (a percentage needs an existing file)");
    return percent_of(job.target.size.percent, *existing);
  }
  if (job.target.size.bytes > 0) return job.target.size.bytes / nfiles;
  if (!existing) throw UserError("--size is needed to create " + path);
  return *existing;
}

// fio's get_start_offset: a percentage offset is aligned up to offset_align when set (not 0), else to the
// smallest block size.
std::uint64_t percent_alignment(const TargetJob& job) {
  return job.target.offset_align != 0 ? job.target.offset_align : job.min_block_size();
}

std::uint64_t aligned_up(std::uint64_t offset, std::uint64_t alignment) {
  if (alignment == 0 || offset % alignment == 0) return offset;
  return offset + (alignment - offset % alignment);
}

TargetFile resolve_one(const TargetJob& job, const std::string& path, std::size_t nfiles) {
  TargetFile t;
  t.path = path;
  const bool dirs = job.engine_dirs;
  std::optional<std::uint64_t> existing = existing_size(path, t.is_block_device, dirs);
  if (!existing && !dirs && !job.target.allow_file_create) {
    throw UserError(path + " does not exist, and allow_file_create=0 forbids creating it");
  }
  std::uint64_t wanted = planned_size(job, nfiles, existing, path, t.is_block_device);
  if (wanted == 0) throw UserError("the size of " + path + " is 0; give --size (or --filesize)");
  std::uint64_t basis = existing ? *existing : wanted;  // what a percentage offset is a percentage of
  t.region_start = job.target.offset.percent > 0.0
                       ? aligned_up(percent_of(job.target.offset.percent, basis), percent_alignment(job))
                       : job.target.offset.bytes;
  const bool appends = job.target.file_append && !t.is_block_device;  // fio ignores file_append on other files
  if (appends && existing && !job.target.size.is_set() && job.target.filesize == 0) {
    throw UserError("file_append=1 on " + path +
                    " without a size: the job's size would be the file's, all of it "
                    "before the end, so fio appends nothing; give size= (the bytes to append)");
  }
  if (appends) t.region_start = existing ? *existing : 0;
  // A device, or a file whose size the job derives from itself, cannot grow: the region ends at its end.
  // Otherwise (like fio) the file is laid out up to offset + size when it is shorter.
  bool fixed = t.is_block_device || (existing && job.target.filesize == 0 && job.target.size.bytes == 0 &&
                                     !job.target.fill_device && !appends);
  if (fixed) {
    if (t.region_start >= *existing) {
      throw UserError("offset " + std::to_string(t.region_start) + " is beyond the end of " + path + " (" +
                      std::to_string(*existing) + " bytes)");
    }
    t.region_length = std::min(wanted, *existing - t.region_start);
  } else {
    t.region_length = wanted;
  }
  t.size = t.is_block_device ? *existing : t.region_start + t.region_length;
  return t;
}

}  // namespace

std::vector<TargetFile> resolve_targets(const TargetJob& job, int jobnum) {
  std::vector<std::string> paths = target_paths(job, jobnum);
  std::vector<TargetFile> targets;
  targets.reserve(paths.size());
  for (const std::string& path : paths) targets.push_back(resolve_one(job, path, paths.size()));
  return targets;
}

void claim_files_the_engine_creates(std::vector<TargetFile>& targets) {
  for (TargetFile& t : targets) {
    if (t.is_block_device || t.created_by_sluice || ::access(t.path.c_str(), F_OK) == 0) continue;
    t.created_by_sluice = true;
  }
}

void make_target_directories(std::vector<TargetFile>& targets) {
  for (TargetFile& t : targets) {
    if (t.is_block_device || t.stand_in) continue;
    if (::mkdir(t.path.c_str(), 0700) == 0) {
      t.created_by_sluice = true;
    } else if (errno != EEXIST) {
      throw IoError("creating the directory " + t.path + " failed: " + std::strerror(errno), errno);
    }
  }
}

void open_targets(std::vector<TargetFile>& targets, const TargetJob& job) {
  // An engine that moves no data changes the file whatever the io's direction (falloc allocates on reads).
  bool writes = job.does_writes() || job.does_trims() || !job.engine_moves_data;
  int flags = (writes ? O_RDWR : O_RDONLY) | O_CLOEXEC;
  if (job.target.direct) flags |= O_DIRECT;
  if (job.durability.sync == SyncMode::kSync) flags |= O_SYNC;
  if (job.durability.sync == SyncMode::kDsync) flags |= O_DSYNC;
  std::vector<std::string> missing;  // journaled together: one sync, not one per file
  for (const TargetFile& t : targets) {
    if (t.fd < 0 && writes && !t.is_block_device && ::access(t.path.c_str(), F_OK) != 0) missing.push_back(t.path);
  }
  journal_creating(missing);
  for (TargetFile& t : targets) {
    if (t.fd >= 0) continue;
    int extra = 0;
    if (writes && !t.is_block_device && ::access(t.path.c_str(), F_OK) != 0) extra = O_CREAT | O_EXCL;
    int fd = ::open(t.path.c_str(), flags | extra, 0644);
    if (extra != 0) {
      const int open_errno = errno;
      fd >= 0 ? journal_created(t.path) : journal_removed(t.path);
      errno = open_errno;
    }
    if (fd < 0 && errno == EINVAL && job.target.direct) {
      int err = errno;
      close_targets(targets, false);
      throw IoError("cannot open " + t.path +
                        " with O_DIRECT: its filesystem does not support direct I/O "
                        "(use --direct=0)",
                    err);
    }
    if (fd < 0) {
      int err = errno;
      close_targets(targets, false);
      throw IoError("cannot open " + t.path + ": " + std::strerror(err), err);
    }
    if (extra != 0) t.created_by_sluice = true;
    t.fd = fd;
  }
}

void close_targets(std::vector<TargetFile>& targets, bool unlink_created) noexcept {
  for (TargetFile& t : targets) {
    if (t.fd >= 0) ::close(t.fd);
    t.fd = -1;
    if (unlink_created && t.created_by_sluice && !t.is_block_device) {
      if (::unlink(t.path.c_str()) != 0 && errno == EISDIR) ::rmdir(t.path.c_str());  // dircreate's and dirstat's
      journal_removed(t.path);
      t.created_by_sluice = false;
    }
  }
}

std::optional<TargetFailure> recreate_empty(const TargetFile& t) {
  if (t.fd < 0 || t.is_block_device || t.stand_in) return std::nullopt;  // fio: only regular files
  const auto failed = [&](const char* what) {
    const int err = errno;
    return TargetFailure{err, fmt::format("unlink_each_loop: {} {} failed: {}", what, t.path, std::strerror(err))};
  };
  if (!t.created_by_sluice) {
    return TargetFailure{EPERM, "unlink_each_loop: " + t.path +
                                    " was not created by this run; sluice deletes "
                                    "only files it creates"};
  }
  const int flags = ::fcntl(t.fd, F_GETFL);  // the job's flags (O_DIRECT, O_SYNC, ...) as opened
  if (flags < 0) return failed("reading the open flags of");
  if (::unlink(t.path.c_str()) != 0) return failed("deleting");
  const int fresh = ::open(t.path.c_str(), (flags & ~O_APPEND) | O_CREAT | O_CLOEXEC, 0644);
  if (fresh < 0) return failed("creating");
  const bool moved = ::dup3(fresh, t.fd, O_CLOEXEC) >= 0;  // the same descriptor now names the new file
  const int err = errno;
  ::close(fresh);
  if (!moved) {
    errno = err;
    return failed("reopening");
  }
  return std::nullopt;
}

std::optional<TargetFailure> fsync_targets(const std::vector<TargetFile>& targets) {
  std::optional<TargetFailure> first;
  for (const TargetFile& t : targets) {
    if (t.fd < 0 || ::fsync(t.fd) == 0) continue;
    const int err = errno;
    if (!first)
      first = TargetFailure{err, "fsync of " + t.path + " on close failed (fsync_on_close): " + std::strerror(err)};
  }
  return first;
}

}  // namespace sluice
