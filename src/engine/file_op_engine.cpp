// filecreate, filestat, filedelete, dircreate, dirstat, dirdelete: engines that time an operation on each
// file's name instead of moving data (fio's fileoperations engines; the dir ones since fio 3.35). The
// operation is done by the io at the start of the file's region, once per pass over the file (with filesize
// equal to bs, as in fio's examples, every io is one operation);
// the file's other ios complete at once, counted but not timed (IoUnit::timed), as fio counts them without
// statistics. Performed inside submit(), so the io's latency is the operation's.
//   filecreate: open(O_CREAT | O_RDWR, 0600) then close (fio closes it when it moves to the next file)
//   filestat:   stat, lstat or statx (stat_type), on the laid-out file
//   filedelete: unlink of the laid-out file (a second pass finds it gone: ENOENT, as in fio)
//   dircreate:  mkdir(0700) (fio passes S_IFDIR as the mode, which makes the directory mode 0000)
//   dirstat:    stat, lstat or statx of the directory (the runner made it when missing, as fio's setup)
//   dirdelete:  rmdir of the directory (the runner made it when missing)
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include "engine/engines.h"
#include "engine/synchronous_engine.h"

namespace sluice {
namespace {

class FileOpEngine final : public detail::SynchronousEngine<FileOpEngine> {
  friend class detail::SynchronousEngine<FileOpEngine>;

 public:
  FileOpEngine(EngineKind kind, const FilestatOptions& options) : kind_(kind), stat_call_(options.stat_type) {}
  std::string_view name() const noexcept override { return engine_name(kind_); }
  EngineCaps caps() const noexcept override { return engine_traits(kind_); }

  void open(const EngineSetup& setup) override {
    paths_ = setup.paths;
    starts_ = setup.file_starts;
    starts_.resize(paths_.size(), 0);
    reset_completions(setup.depth);
  }
  void close() noexcept override {}

 private:
  std::int64_t perform(IoUnit& u) noexcept {
    if (is_flush(u.op)) return -EOPNOTSUPP;  // validation refuses fsync= here
    const auto file = static_cast<std::size_t>(u.file_index);
    if (file >= paths_.size()) return -EBADF;
    if (u.offset != starts_[file]) {
      u.timed = false;
      return u.length;
    }
    u.timed = true;
    const int rc = operate(paths_[file].c_str());
    return rc == 0 ? static_cast<std::int64_t>(u.length) : -errno;
  }

  int operate(const char* path) const noexcept {
    switch (kind_) {
      case EngineKind::kFileCreate: {
        const int fd = ::open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0600);
        if (fd < 0) return -1;
        ::close(fd);
        return 0;
      }
      case EngineKind::kFileStat:
      case EngineKind::kDirStat:
        return stat_file(path);
      case EngineKind::kFileDelete:
        return ::unlink(path);
      case EngineKind::kDirCreate:
        return ::mkdir(path, 0700);
      case EngineKind::kDirDelete:
        return ::rmdir(path);
      default:
        errno = EINVAL;
        return -1;
    }
  }

  int stat_file(const char* path) const noexcept {
    struct stat st {};
    switch (stat_call_) {
      case FileStatCall::kLstat:
        return ::lstat(path, &st);
      case FileStatCall::kStatx: {
        struct statx stx {};
        return ::statx(AT_FDCWD, path, 0, STATX_ALL, &stx);
      }
      case FileStatCall::kStat:
        break;
    }
    return ::stat(path, &st);
  }

  EngineKind kind_;
  std::vector<std::string> paths_;
  std::vector<std::uint64_t> starts_;
  FileStatCall stat_call_ = FileStatCall::kStat;
};

}  // namespace

std::unique_ptr<Engine> make_file_op_engine(EngineKind kind, const FilestatOptions& options) {
  return std::make_unique<FileOpEngine>(kind, options);
}

}  // namespace sluice
