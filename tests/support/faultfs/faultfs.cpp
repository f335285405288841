// faultfs: a passthrough FUSE filesystem over a backing directory that injects faults, for sluice's tests.
//
//   faultfs BACKING MOUNTPOINT [--fault=RULE]... [--direct-io] [--log=FILE]
//
// RULE is OP:ACTION[:TRIGGER]... with
//   OP      read | write | fsync (fsync and fdatasync) | trim (fallocate punching a hole) | any
//   ACTION  eio | enospc | short (half the bytes) | delay=MS (sleep, then do the op) | ignore (report success
//           without doing it: a device that acknowledges discards and keeps the data)
//   TRIGGER at=OFFSET  the op's byte range holds OFFSET (a bad sector); default: every op
//           after=N    only after N ops of OP went through (a device that dies)
//           after_ms=T only T ms after the mount (a device that stalls later)
//           count=K    at most K times (default: no limit)
// Several rules may apply; the first that matches decides. Each fault is appended to --log as
// "OP ACTION offset=O size=S path=P" so a test sees what was injected. Runs in the foreground until
// `fusermount3 -u MOUNTPOINT`. Only the file calls a benchmark uses are implemented.
#define FUSE_USE_VERSION 31
#include <dirent.h>
#include <fcntl.h>
#include <fuse.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace {

enum class Op { kRead, kWrite, kFsync, kTrim, kAny };
enum class Action { kEio, kEnospc, kShort, kDelay, kIgnore };

struct Rule {
  Op op = Op::kAny;
  Action action = Action::kEio;
  long long delay_ms = 0;
  long long at = -1;
  long long after = 0;
  long long after_ms = 0;
  long long count = -1;
  std::atomic<long long> seen{0};   // ops of `op` seen so far
  std::atomic<long long> fired{0};  // faults injected
};

std::string g_backing;
bool g_direct_io = false;
std::vector<Rule*> g_rules;
std::FILE* g_log = nullptr;
std::mutex g_log_mutex;
const auto g_start = std::chrono::steady_clock::now();

const char* op_name(Op op) {
  switch (op) {
    case Op::kRead:
      return "read";
    case Op::kWrite:
      return "write";
    case Op::kFsync:
      return "fsync";
    case Op::kTrim:
      return "trim";
    case Op::kAny:
      return "any";
  }
  return "?";
}

const char* action_name(Action action) {
  switch (action) {
    case Action::kEio:
      return "eio";
    case Action::kEnospc:
      return "enospc";
    case Action::kShort:
      return "short";
    case Action::kDelay:
      return "delay";
    case Action::kIgnore:
      return "ignore";
  }
  return "?";
}

bool parse_rule(const std::string& text, Rule& rule) {
  std::vector<std::string> parts;
  std::size_t begin = 0;
  while (true) {
    const std::size_t colon = text.find(':', begin);
    parts.push_back(text.substr(begin, colon - begin));
    if (colon == std::string::npos) break;
    begin = colon + 1;
  }
  if (parts.size() < 2) return false;
  if (parts[0] == "read")
    rule.op = Op::kRead;
  else if (parts[0] == "write")
    rule.op = Op::kWrite;
  else if (parts[0] == "fsync")
    rule.op = Op::kFsync;
  else if (parts[0] == "trim")
    rule.op = Op::kTrim;
  else if (parts[0] == "any")
    rule.op = Op::kAny;
  else
    return false;
  if (parts[1] == "eio")
    rule.action = Action::kEio;
  else if (parts[1] == "enospc")
    rule.action = Action::kEnospc;
  else if (parts[1] == "short")
    rule.action = Action::kShort;
  else if (parts[1] == "ignore")
    rule.action = Action::kIgnore;
  else if (parts[1].rfind("delay=", 0) == 0)
    rule.action = Action::kDelay, rule.delay_ms = std::atoll(parts[1].c_str() + 6);
  else
    return false;
  if (rule.action == Action::kIgnore && rule.op != Op::kTrim) return false;  // only a trim can be skipped
  for (std::size_t i = 2; i < parts.size(); ++i) {
    const std::string& p = parts[i];
    const std::size_t eq = p.find('=');
    if (eq == std::string::npos) return false;
    const std::string key = p.substr(0, eq);
    const long long value = std::atoll(p.c_str() + eq + 1);
    if (key == "at")
      rule.at = value;
    else if (key == "after")
      rule.after = value;
    else if (key == "after_ms")
      rule.after_ms = value;
    else if (key == "count")
      rule.count = value;
    else
      return false;
  }
  return true;
}

// The rule that fires for this op, or null. Counts the op for every rule of its kind.
Rule* match(Op op, const char* path, long long offset, long long size) {
  Rule* hit = nullptr;
  const long long elapsed_ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - g_start).count();
  for (Rule* rule : g_rules) {
    if (rule->op != Op::kAny && rule->op != op) continue;
    const long long seen = rule->seen.fetch_add(1);
    if (hit) continue;
    if (seen < rule->after || elapsed_ms < rule->after_ms) continue;
    if (rule->at >= 0 && (op == Op::kFsync || rule->at < offset || rule->at >= offset + size)) continue;
    if (rule->count >= 0 && rule->fired.fetch_add(1) >= rule->count) continue;
    if (rule->count < 0) rule->fired.fetch_add(1);
    hit = rule;
  }
  if (hit && g_log) {
    std::lock_guard<std::mutex> lock(g_log_mutex);
    std::fprintf(g_log, "%s %s offset=%lld size=%lld path=%s\n", op_name(op), action_name(hit->action), offset, size,
                 path);
    std::fflush(g_log);
  }
  return hit;
}

// Applies a matched rule: 0 to go on with `size` (maybe shortened), or a negative errno to return
// (kIgnored: report success without doing the op).
constexpr int kIgnored = 1;
int apply(Rule* rule, std::size_t& size) {
  if (!rule) return 0;
  switch (rule->action) {
    case Action::kEio:
      return -EIO;
    case Action::kEnospc:
      return -ENOSPC;
    case Action::kShort:
      size = size > 1 ? size / 2 : size;
      return 0;
    case Action::kDelay:
      std::this_thread::sleep_for(std::chrono::milliseconds(rule->delay_ms));
      return 0;
    case Action::kIgnore:
      return kIgnored;
  }
  return 0;
}

std::string real(const char* path) { return g_backing + path; }
int check(int rc) { return rc < 0 ? -errno : rc; }

int fs_getattr(const char* path, struct stat* st, fuse_file_info*) { return check(::lstat(real(path).c_str(), st)); }
int fs_access(const char* path, int mask) { return check(::access(real(path).c_str(), mask)); }
int fs_mkdir(const char* path, mode_t mode) { return check(::mkdir(real(path).c_str(), mode)); }
int fs_unlink(const char* path) { return check(::unlink(real(path).c_str())); }
int fs_rmdir(const char* path) { return check(::rmdir(real(path).c_str())); }
int fs_rename(const char* from, const char* to, unsigned int flags) {
  if (flags != 0) return -EINVAL;
  return check(::rename(real(from).c_str(), real(to).c_str()));
}
int fs_chmod(const char* path, mode_t mode, fuse_file_info*) { return check(::chmod(real(path).c_str(), mode)); }
int fs_chown(const char* path, uid_t uid, gid_t gid, fuse_file_info*) {
  return check(::lchown(real(path).c_str(), uid, gid));
}
int fs_truncate(const char* path, off_t size, fuse_file_info* fi) {
  return check(fi ? ::ftruncate(static_cast<int>(fi->fh), size) : ::truncate(real(path).c_str(), size));
}
int fs_utimens(const char* path, const timespec tv[2], fuse_file_info*) {
  return check(::utimensat(AT_FDCWD, real(path).c_str(), tv, AT_SYMLINK_NOFOLLOW));
}
int fs_statfs(const char*, struct statvfs* st) { return check(::statvfs(g_backing.c_str(), st)); }

int fs_readdir(const char* path, void* buf, fuse_fill_dir_t fill, off_t, fuse_file_info*, fuse_readdir_flags) {
  DIR* dir = ::opendir(real(path).c_str());
  if (!dir) return -errno;
  while (dirent* entry = ::readdir(dir)) {
    struct stat st {};
    st.st_ino = entry->d_ino;
    st.st_mode = static_cast<mode_t>(entry->d_type) << 12;
    if (fill(buf, entry->d_name, &st, 0, static_cast<fuse_fill_dir_flags>(0))) break;
  }
  ::closedir(dir);
  return 0;
}

// The backing file is opened without O_DIRECT (the backing filesystem may refuse it; the point is the fault).
int open_flags(int flags) { return flags & ~O_DIRECT; }

int fs_open(const char* path, fuse_file_info* fi) {
  const int fd = ::open(real(path).c_str(), open_flags(fi->flags));
  if (fd < 0) return -errno;
  fi->fh = static_cast<std::uint64_t>(fd);
  if (g_direct_io) fi->direct_io = 1;
  return 0;
}

int fs_create(const char* path, mode_t mode, fuse_file_info* fi) {
  const int fd = ::open(real(path).c_str(), open_flags(fi->flags) | O_CREAT, mode);
  if (fd < 0) return -errno;
  fi->fh = static_cast<std::uint64_t>(fd);
  if (g_direct_io) fi->direct_io = 1;
  return 0;
}

int fs_read(const char* path, char* buf, std::size_t size, off_t offset, fuse_file_info* fi) {
  if (const int rc = apply(match(Op::kRead, path, offset, static_cast<long long>(size)), size)) return rc;
  const ssize_t n = ::pread(static_cast<int>(fi->fh), buf, size, offset);
  return n < 0 ? -errno : static_cast<int>(n);
}

int fs_write(const char* path, const char* buf, std::size_t size, off_t offset, fuse_file_info* fi) {
  if (const int rc = apply(match(Op::kWrite, path, offset, static_cast<long long>(size)), size)) return rc;
  const ssize_t n = ::pwrite(static_cast<int>(fi->fh), buf, size, offset);
  return n < 0 ? -errno : static_cast<int>(n);
}

int fs_fsync(const char* path, int datasync, fuse_file_info* fi) {
  std::size_t none = 0;
  if (const int rc = apply(match(Op::kFsync, path, 0, 0), none)) return rc;
  const int fd = static_cast<int>(fi->fh);
  return check(datasync ? ::fdatasync(fd) : ::fsync(fd));
}

int fs_fallocate(const char* path, int mode, off_t offset, off_t length, fuse_file_info* fi) {
  if ((mode & FALLOC_FL_PUNCH_HOLE) != 0) {
    std::size_t size = static_cast<std::size_t>(length);
    const int rc = apply(match(Op::kTrim, path, offset, static_cast<long long>(length)), size);
    if (rc != 0) return rc == kIgnored ? 0 : rc;
  }
  return check(::fallocate(static_cast<int>(fi->fh), mode, offset, length));
}

int fs_release(const char*, fuse_file_info* fi) { return check(::close(static_cast<int>(fi->fh))); }

void* fs_init(fuse_conn_info*, fuse_config* cfg) {
  cfg->use_ino = 1;
  cfg->entry_timeout = 0;
  cfg->attr_timeout = 0;
  cfg->negative_timeout = 0;
  if (g_direct_io) cfg->direct_io = 1;
  return nullptr;
}

int usage(const char* why) {
  std::fprintf(stderr,
               "faultfs: %s\nusage: faultfs BACKING MOUNTPOINT [--fault=OP:ACTION[:at=OFF|:after=N|:after_ms=T|"
               ":count=K]]... [--direct-io] [--log=FILE]\n",
               why);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> positional;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind("--fault=", 0) == 0) {
      auto* rule = new Rule;  // lives as long as the mount
      if (!parse_rule(arg.substr(8), *rule)) return usage(("bad rule: " + arg).c_str());
      g_rules.push_back(rule);
    } else if (arg == "--direct-io") {
      g_direct_io = true;
    } else if (arg.rfind("--log=", 0) == 0) {
      g_log = std::fopen(arg.c_str() + 6, "a");
      if (!g_log) return usage(("cannot open " + arg.substr(6)).c_str());
    } else if (arg.rfind("--", 0) == 0) {
      return usage(("unknown option " + arg).c_str());
    } else {
      positional.push_back(arg);
    }
  }
  if (positional.size() != 2) return usage("need BACKING and MOUNTPOINT");
  char* backing = ::realpath(positional[0].c_str(), nullptr);
  if (!backing) return usage(("no such directory " + positional[0]).c_str());
  g_backing = backing;
  std::free(backing);

  fuse_operations ops{};
  ops.getattr = fs_getattr;
  ops.access = fs_access;
  ops.mkdir = fs_mkdir;
  ops.unlink = fs_unlink;
  ops.rmdir = fs_rmdir;
  ops.rename = fs_rename;
  ops.chmod = fs_chmod;
  ops.chown = fs_chown;
  ops.truncate = fs_truncate;
  ops.utimens = fs_utimens;
  ops.statfs = fs_statfs;
  ops.readdir = fs_readdir;
  ops.open = fs_open;
  ops.create = fs_create;
  ops.read = fs_read;
  ops.write = fs_write;
  ops.fsync = fs_fsync;
  ops.fallocate = fs_fallocate;
  ops.release = fs_release;
  ops.init = fs_init;

  // Foreground; allow_other only as root so a test dropping privileges still sees the files.
  std::vector<std::string> fuse_args = {argv[0], positional[1], "-f", "-o", "fsname=faultfs,subtype=faultfs"};
  if (::geteuid() == 0) fuse_args.insert(fuse_args.end(), {"-o", "allow_other"});
  std::vector<char*> fuse_argv;
  for (std::string& a : fuse_args) fuse_argv.push_back(a.data());
  return fuse_main(static_cast<int>(fuse_argv.size()), fuse_argv.data(), &ops, nullptr);
}
