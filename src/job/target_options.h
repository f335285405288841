#pragma once
// TargetOptions and the types of its fields: a part of JobSpec (job/job_spec.h composes the parts). Include this
// header, not job_spec.h, where only this part is needed.
#include <cstdint>
#include <string>
#include <vector>

#include "job/distribution.h"

namespace sluice {

// A size that fio lets be absolute or a percentage of the file/device ("size=10%").
struct SizeOrPercent {
  std::uint64_t bytes = 0;
  double percent = 0.0;  // > 0 means "percent of the available size"; bytes is then ignored
  bool is_set() const noexcept { return bytes != 0 || percent > 0.0; }
};

// fio's lockfile=: ios on a file shared by jobs are serialized (exclusive) or readers-writer locked.
enum class FileLockMode { kNone, kExclusive, kReadWrite };

// fio's file_service_type: which of a job's files the next io goes to.
enum class FileService { kRoundRobin, kSequential, kRandom, kDistribution };

enum class FallocateMode { kNone, kPosix, kKeep, kNative };

// fio's fadvise_hint: none, the job's pattern (random or sequential), or one of the two always.
enum class FadviseHint { kNone, kWorkload, kSequential, kRandom, kNoReuse };

// The job's files: which, where, how big, how they are opened, laid out and cleaned up.
struct TargetOptions {
  std::vector<std::string> filenames;  // "filename" split on ':' (an escaped "\:" stays a colon)
  std::string opendir;                 // every regular file below this directory is a file of the job too
  FileLockMode lockfile = FileLockMode::kNone;
  std::string directory;
  SizeOrPercent size;          // total bytes of I/O region per job (fio "size")
  std::uint64_t filesize = 0;  // per-file size; 0 = size / nrfiles
  std::uint32_t nrfiles = 1;
  FileService file_service = FileService::kRoundRobin;
  std::uint32_t file_service_ios = 1;  // ios on a file before switching (roundrobin, random)
  Distribution file_distribution;      // FileService::kDistribution: zipf, pareto or normal over the files
  std::uint32_t openfiles = 0;         // files open at once; 0 = nrfiles (sluice keeps them all open)
  SizeOrPercent offset;
  bool create_on_open = false;
  bool create_fsync = true;  // fdatasync a file after laying it out
  bool create_only = false;  // lay out the files, then end the job without I/O
  bool invalidate = true;    // drop the files' cached pages before the job (fio's default)
  bool pre_read = false;     // read the files into the page cache before the job (then no invalidate)
  FadviseHint fadvise_hint = FadviseHint::kWorkload;
  int write_hint = 0;             // fcntl F_SET_RW_HINT value (1 none .. 5 extreme); 0 = not set
  bool allow_file_create = true;  // false: a missing file is an error, never created
  bool unique_filename = true;    // under MPI, generated file names get the rank (fio: the client's name)
  bool overwrite = false;
  FallocateMode fallocate = FallocateMode::kNative;
  bool unlink = false;               // only files sluice created are ever removed
  std::string ioscheduler;           // the io scheduler the devices under the job's files get for its group; "" = as is
  bool allow_mounted_write = false;  // this job may write to a mounted or signed device (--allow-destructive)
  bool unlink_each_loop = false;     // loops=N: the files are deleted and created again before each later loop
  // fio's fill_device: without a size, a file's size is its filesystem's free space; a write that fails with
  // ENOSPC or EDQUOT ends the job as its end (not an error); a read job's file is filled first.
  bool fill_device = false;
  bool direct = false;
  std::string filename_format;         // fio's $jobname/$jobnum/$filenum template
  std::uint64_t offset_increment = 0;  // offset += jobnum * offset_increment
  std::uint64_t offset_align = 0;      // a percentage offset is aligned up to this (not given: the min block size)
  bool file_append = false;            // regular files: the region starts at the file's end (fio's file_append)
};

}  // namespace sluice
