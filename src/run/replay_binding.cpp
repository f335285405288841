#include "run/replay_binding.h"

#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <memory>
#include <sstream>

#include "common/error.h"
#include "run/plan.h"
#include "workload/blktrace.h"
#include "workload/blktrace_merge.h"
#include "workload/iolog.h"

namespace sluice {
namespace {

ReplaySettings settings_of(const JobSpec& job) {
  ReplaySettings s;
  s.no_stall = job.iolog.replay_no_stall;
  s.time_scale = job.iolog.replay_time_scale == 0 ? 100 : job.iolog.replay_time_scale;
  s.redirect = job.iolog.replay_redirect;
  s.scale = job.iolog.replay_scale == 0 ? 1 : job.iolog.replay_scale;
  s.align = job.iolog.replay_align;
  s.skip_read = (job.iolog.replay_skip & kReplaySkipRead) != 0;
  s.skip_write = (job.iolog.replay_skip & kReplaySkipWrite) != 0;
  s.skip_trim = (job.iolog.replay_skip & kReplaySkipTrim) != 0;
  s.skip_sync = (job.iolog.replay_skip & kReplaySkipSync) != 0;
  return s;
}

// The block device major:minor under /dev (symbolic links aside, as fio's lookup), or "".
std::string block_device_named(unsigned major_number, unsigned minor_number) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::recursive_directory_iterator it("/dev", fs::directory_options::skip_permission_denied, ec);
  for (; !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    struct stat st {};
    if (::lstat(it->path().c_str(), &st) != 0 || !S_ISBLK(st.st_mode)) continue;
    if (major(st.st_rdev) == major_number && minor(st.st_rdev) == minor_number) return it->path().string();
  }
  return "";
}

// The log or blktrace trace at `path` ("-" is standard input), told apart by its first bytes as fio does.
// Standard input, a pipe or a FIFO (`<(zcat log.gz)`) is read into memory first: it cannot be read twice.
IoLog read_iolog_file(const std::string& path, const ReplaySettings& settings) {
  std::istringstream in_memory;
  std::ifstream from_file;
  std::istream* in = &from_file;
  const std::string source = path == "-" ? "standard input" : path;
  struct stat st {};
  if (path == "-") {
    in_memory.str(std::string(std::istreambuf_iterator<char>(std::cin), {}));
    in = &in_memory;
  } else {
    from_file.open(path, std::ios::binary);
    if (!from_file) throw UserError("read_iolog=" + path + ": cannot open the log: " + std::strerror(errno));
    if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
      in_memory.str(std::string(std::istreambuf_iterator<char>(from_file), {}));
      in = &in_memory;
    }
  }
  std::string head(kBlktraceRecordSize, '\0');
  in->read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<std::size_t>(in->gcount()));
  in->clear();
  in->seekg(0);
  if (!*in) throw UserError("read_iolog=" + path + ": cannot read the log from its start again");
  if (looks_like_blktrace(head)) return parse_blktrace(*in, source, settings, block_device_named);
  return parse_iolog(*in, source, settings);
}

// Logs already read in this run, by name and settings: clones that replay the same log share it (and
// standard input is read once).
using LogCache = std::map<std::string, std::shared_ptr<const IoLog>>;

std::string cache_key(const std::string& name, const ReplaySettings& s) {
  return name + '\n' + std::to_string(s.no_stall) + ',' + std::to_string(s.time_scale) + ',' + s.redirect + ',' +
         std::to_string(s.scale) + ',' + std::to_string(s.align) + ',' + std::to_string(s.skip_read) +
         std::to_string(s.skip_write) + std::to_string(s.skip_trim) + std::to_string(s.skip_sync);
}

// The rw that opens the files as the log needs (read-only unless it writes or trims). Never a chained
// mode: the loop must not follow a read with a write of its own.
RwMode rw_for(const IoLog& log) {
  if (log.writes == 0 && log.trims == 0) return RwMode::kRead;
  if (log.reads > 0 || (log.writes > 0 && log.trims > 0)) return RwMode::kReadWrite;
  return log.writes > 0 ? RwMode::kWrite : RwMode::kTrim;
}

void bind(JobInstance& instance, LogCache& cache) {
  JobSpec& spec = instance.spec;
  const std::vector<std::string>& names = spec.iolog.read_iolog;
  const std::string& name = names[static_cast<std::size_t>(instance.jobnum) % names.size()];
  const ReplaySettings settings = settings_of(spec);
  std::shared_ptr<const IoLog>& log = cache[cache_key(name, settings)];
  if (!log) log = std::make_shared<const IoLog>(read_iolog_file(name, settings));

  spec.target.filenames = log->files;
  spec.target.nrfiles = static_cast<std::uint32_t>(log->files.size());
  const std::uint64_t extent = *std::max_element(log->extents.begin(), log->extents.end());
  spec.target.filesize = std::max<std::uint64_t>(4096, (extent + 4095) / 4096 * 4096);
  spec.target.size = SizeOrPercent{};
  spec.target.size.bytes = spec.target.filesize * spec.target.nrfiles;
  spec.target.offset = SizeOrPercent{};
  spec.workload.rw = rw_for(*log);
  for (int d = 0; d < kNumDirections; ++d) {
    // A trim moves no data: its length (a discard may be gigabytes) must not size the io buffers.
    const bool sizes_buffers = d != index_of(Direction::kTrim) || log->max_length[d] <= kMaxIoLogLength;
    if (log->max_length[d] != 0 && sizes_buffers) spec.workload.bs[d] = log->max_length[d];
    spec.workload.bsrange[d] = {};
    spec.workload.bssplit[d].clear();
  }
  // fio replays a blktrace at the depth the trace reached, unless iodepth is given.
  if (log->depth != 0 && !spec.explicitly_given.iodepth) spec.queue.iodepth = log->depth;
  spec.iolog.replay_log = log;
}

// merge_blktrace_file: the job's traces become one file (once for all its clones), which replaces read_iolog.
void merge_traces(JobSpec& spec, std::map<std::string, bool>& merged) {
  if (!merged[spec.iolog.merge_blktrace_file]) {
    std::vector<BlktraceMergeInput> inputs;
    for (std::size_t i = 0; i < spec.iolog.read_iolog.size(); ++i) {
      BlktraceMergeInput input;
      input.path = spec.iolog.read_iolog[i];
      if (i < spec.iolog.merge_blktrace_scalars.size()) input.scalar_percent = spec.iolog.merge_blktrace_scalars[i];
      if (i < spec.iolog.merge_blktrace_iters.size()) input.iterations = spec.iolog.merge_blktrace_iters[i];
      inputs.push_back(std::move(input));
    }
    merge_blktraces(inputs, spec.iolog.merge_blktrace_file);
    merged[spec.iolog.merge_blktrace_file] = true;
  }
  spec.iolog.read_iolog = {spec.iolog.merge_blktrace_file};
}

}  // namespace

void bind_replay_logs(std::vector<GroupPlan>& plan) {
  LogCache cache;
  std::map<std::string, bool> merged;
  for (GroupPlan& group : plan) {
    for (JobInstance& instance : group.jobs) {
      if (!instance.spec.iolog.merge_blktrace_file.empty() && !instance.spec.iolog.read_iolog.empty()) {
        merge_traces(instance.spec, merged);
      }
      if (!instance.spec.iolog.read_iolog.empty()) bind(instance, cache);
    }
  }
}

}  // namespace sluice
