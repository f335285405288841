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
#include <memory>
#include <sstream>

#include "common/error.h"
#include "workload/blktrace.h"
#include "workload/iolog.h"

namespace sluice {
namespace {

ReplaySettings settings_of(const JobSpec& job) {
  ReplaySettings s;
  s.no_stall = job.replay_no_stall;
  s.time_scale = job.replay_time_scale == 0 ? 100 : job.replay_time_scale;
  s.redirect = job.replay_redirect;
  s.scale = job.replay_scale == 0 ? 1 : job.replay_scale;
  s.align = job.replay_align;
  s.skip_read = (job.replay_skip & kReplaySkipRead) != 0;
  s.skip_write = (job.replay_skip & kReplaySkipWrite) != 0;
  s.skip_trim = (job.replay_skip & kReplaySkipTrim) != 0;
  s.skip_sync = (job.replay_skip & kReplaySkipSync) != 0;
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
IoLog read_iolog_file(const std::string& path, const ReplaySettings& settings) {
  std::istringstream from_stdin;
  std::ifstream from_file;
  std::istream* in = &from_file;
  const std::string source = path == "-" ? "standard input" : path;
  if (path == "-") {
    from_stdin.str(std::string(std::istreambuf_iterator<char>(std::cin), {}));
    in = &from_stdin;
  } else {
    from_file.open(path, std::ios::binary);
    if (!from_file) throw UserError("read_iolog=" + path + ": cannot open the log: " + std::strerror(errno));
  }
  std::string head(kBlktraceRecordSize, '\0');
  in->read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<std::size_t>(in->gcount()));
  in->clear();
  in->seekg(0);
  if (looks_like_blktrace(head)) return parse_blktrace(*in, source, settings, block_device_named);
  return parse_iolog(*in, source, settings);
}

// The rw that opens the files as the log needs (read-only unless it writes or trims). Never a chained
// mode: the loop must not follow a read with a write of its own.
RwMode rw_for(const IoLog& log) {
  if (log.writes == 0 && log.trims == 0) return RwMode::kRead;
  if (log.reads > 0 || (log.writes > 0 && log.trims > 0)) return RwMode::kReadWrite;
  return log.writes > 0 ? RwMode::kWrite : RwMode::kTrim;
}

void bind(JobInstance& instance) {
  JobSpec& spec = instance.spec;
  const std::vector<std::string>& names = spec.read_iolog;
  const std::string& name = names[static_cast<std::size_t>(instance.jobnum) % names.size()];
  auto log = std::make_shared<IoLog>(read_iolog_file(name, settings_of(spec)));

  spec.filenames = log->files;
  spec.nrfiles = static_cast<std::uint32_t>(log->files.size());
  const std::uint64_t extent = *std::max_element(log->extents.begin(), log->extents.end());
  spec.filesize = std::max<std::uint64_t>(4096, (extent + 4095) / 4096 * 4096);
  spec.size = SizeOrPercent{};
  spec.size.bytes = spec.filesize * spec.nrfiles;
  spec.offset = SizeOrPercent{};
  spec.rw = rw_for(*log);
  for (int d = 0; d < kNumDirections; ++d) {
    if (log->max_length[d] != 0) spec.bs[d] = log->max_length[d];
    spec.bsrange[d] = {};
    spec.bssplit[d].clear();
  }
  // fio replays a blktrace at the depth the trace reached, unless iodepth is given.
  if (log->depth != 0 && spec.given_options.count("iodepth") == 0) spec.iodepth = log->depth;
  spec.replay_log = std::move(log);
}

}  // namespace

void bind_replay_logs(std::vector<GroupPlan>& plan) {
  for (GroupPlan& group : plan) {
    for (JobInstance& instance : group.jobs) {
      if (!instance.spec.read_iolog.empty()) bind(instance);
    }
  }
}

}  // namespace sluice
