#include "suites/metadata_worker.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <functional>

#include "common/clock.h"
#include "common/stop_signal.h"

namespace sluice {
namespace {

constexpr mode_t kDirMode = 0755;  // mdtest's DIRMODE (S_IRUSR|S_IWUSR|S_IXUSR|S_IRWXG|S_IRWXO less umask)
constexpr mode_t kFileMode = 0644;

class Worker {
 public:
  Worker(WorkerComm& comm, const MetadataOptions& options, const MetadataPlan& plan, std::string work_dir,
         MetadataWorkerOutput& out)
      : comm_(comm),
        o_(options),
        plan_(plan),
        work_dir_(std::move(work_dir)),
        out_(out),
        order_(metadata_tree_preorder(options.depth, options.branching)),
        base_(metadata_tree_base(options.unique_dir, comm.rank())),
        write_buffer_(options.write_bytes, 'x'),
        read_buffer_(options.read_bytes) {}

  void run() {
    for (std::uint32_t i = 0; i < o_.iterations && !out_.stopped; ++i) {
      out_.iterations.emplace_back();
      iteration(i, out_.iterations.back());
    }
  }

 private:
  using Body = std::function<void()>;

  void iteration(std::uint32_t index, MetadataIteration& it) {
    test_dir_ = fmt::format("{}/test-dir.{}-0", work_dir_, index);
    if (comm_.rank() == 0) check(::mkdir(test_dir_.c_str(), kDirMode), "mkdir", test_dir_);
    const bool tree_owner = o_.unique_dir || comm_.rank() == 0;
    const bool done = phase(MetadataPhase::kTreeCreate, it,
                            [&] {
                              if (tree_owner) tree(true);
                            }) &&
                      phase(MetadataPhase::kDirCreate, it, [&] { items_in_tree_order(true, true); }) &&
                      phase(MetadataPhase::kDirStat, it, [&] { stat_items(true); }) &&
                      phase(MetadataPhase::kDirRemove, it, [&] { items_in_tree_order(true, false); }) &&
                      phase(MetadataPhase::kFileCreate, it, [&] { items_in_tree_order(false, true); }) &&
                      phase(MetadataPhase::kFileStat, it, [&] { stat_items(false); }) &&
                      phase(MetadataPhase::kFileRead, it, [&] { read_items(); }) &&
                      phase(MetadataPhase::kFileRemove, it, [&] { items_in_tree_order(false, false); }) &&
                      phase(MetadataPhase::kTreeRemove, it, [&] {
                        if (tree_owner) tree(false);
                      });
    if (!done) return;  // the caller removes what is left
    if (comm_.rank() == 0) check(::rmdir(test_dir_.c_str()), "rmdir", test_dir_);
    it.complete = all_agree_to_go_on();
  }

  // mdtest's phase: barrier, timed work, barrier, then the reductions. Returns false when the run ends.
  bool phase(MetadataPhase p, MetadataIteration& it, const Body& body) {
    const auto index = static_cast<std::size_t>(p);
    if (!plan_.runs[index]) return true;
    phase_ = p;
    done_ = 0;
    comm_.barrier();
    const std::uint64_t start = monotonic_ns();
    if (out_.error.empty()) body();
    if (o_.sync_phases && out_.error.empty()) sync_file_system();
    comm_.barrier();
    const double seconds = static_cast<double>(monotonic_ns() - start) / 1e9;
    const std::uint64_t items = comm_.sum(done_);
    const double longest = comm_.max(seconds);
    if (!all_agree_to_go_on()) return false;
    if (plan_.reported[index]) {
      // Tree rates count one tree, whatever the number of workers, as mdtest counts them.
      const bool tree = p == MetadataPhase::kTreeCreate || p == MetadataPhase::kTreeRemove;
      it.phases[index] = MetadataSample{tree ? plan_.tree_dirs : items, longest};
    }
    return true;
  }

  bool all_agree_to_go_on() {
    const bool mine = !out_.error.empty() || stop_requested();
    if (comm_.sum(mine ? 1 : 0) > 0) out_.stopped = true;
    return !out_.stopped;
  }

  bool halted() const { return !out_.error.empty() || stop_requested(); }

  bool check(int rc, const char* call, const std::string& path) {
    if (rc == 0) return true;
    if (out_.error.empty()) out_.error = fmt::format("{} {}: {}", call, path, std::strerror(errno));
    return false;
  }

  template <typename Op>
  void timed_item(Op&& op) {
    const std::uint64_t start = monotonic_ns();
    if (!op()) return;
    out_.latency[static_cast<std::size_t>(phase_)].record(monotonic_ns() - start);
    ++done_;
  }

  std::string dir_path(std::uint64_t dir) const {
    return test_dir_ + "/" + metadata_tree_path(dir, o_.branching, base_);
  }
  std::string item_path(const std::string& dir, bool is_dir, std::uint64_t item) const {
    return fmt::format("{}/{}.mdtest.{}.{}", dir, is_dir ? "dir" : "file", comm_.rank(), item);
  }

  void tree(bool create) {
    if (create) {
      for (const std::uint64_t d : order_) {
        if (halted()) return;
        const std::string path = dir_path(d);
        timed_item([&] { return check(::mkdir(path.c_str(), kDirMode), "mkdir", path); });
      }
      return;
    }
    for (auto it = order_.rbegin(); it != order_.rend() && !halted(); ++it) {  // children before parents
      const std::string path = dir_path(*it);
      timed_item([&] { return check(::rmdir(path.c_str()), "rmdir", path); });
    }
  }

  // Create or remove this worker's items directory by directory, in the tree's creation order (mdtest's
  // create_remove_items).
  void items_in_tree_order(bool dirs, bool create) {
    for (const std::uint64_t d : order_) {
      const std::string dir = dir_path(d);
      for (std::uint64_t i = 0; i < plan_.items_per_dir; ++i) {
        if (halted()) return;
        const std::string path = item_path(dir, dirs, d * plan_.items_per_dir + i);
        timed_item([&] {
          if (dirs)
            return create ? check(::mkdir(path.c_str(), kDirMode), "mkdir", path)
                          : check(::rmdir(path.c_str()), "rmdir", path);
          return create ? create_file(path) : check(::unlink(path.c_str()), "unlink", path);
        });
      }
    }
  }

  // open(O_CREAT), one write of -w bytes at offset 0, fsync with -y, close (mdtest's create_file).
  bool create_file(const std::string& path) {
    const int fd = ::open(path.c_str(), O_CREAT | O_WRONLY | O_CLOEXEC, kFileMode);
    if (fd < 0) return check(-1, "open", path);
    bool ok = true;
    if (!write_buffer_.empty()) {
      const ssize_t n = ::pwrite(fd, write_buffer_.data(), write_buffer_.size(), 0);
      if (n != static_cast<ssize_t>(write_buffer_.size())) ok = check(-1, "write", path);
    }
    if (ok && o_.fsync_files) ok = check(::fsync(fd), "fsync", path);
    return check(::close(fd), "close", path) && ok;
  }

  // In item order, as mdtest_stat walks them.
  void stat_items(bool dirs) {
    std::uint64_t current = ~0ull;
    std::string dir;
    for (std::uint64_t item = 0; item < plan_.items; ++item) {
      if (halted()) return;
      const std::uint64_t d = item / plan_.items_per_dir;
      if (d != current) dir = dir_path(current = d);
      const std::string path = item_path(dir, dirs, item);
      struct stat st {};
      timed_item([&] { return check(::stat(path.c_str(), &st), "stat", path); });
    }
  }

  // open, one read of -e bytes when -e > 0, close (mdtest_read).
  void read_items() {
    std::uint64_t current = ~0ull;
    std::string dir;
    for (std::uint64_t item = 0; item < plan_.items; ++item) {
      if (halted()) return;
      const std::uint64_t d = item / plan_.items_per_dir;
      if (d != current) dir = dir_path(current = d);
      const std::string path = item_path(dir, false, item);
      timed_item([&] {
        const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd < 0) return check(-1, "open", path);
        bool ok = true;
        if (!read_buffer_.empty()) {
          const ssize_t n = ::pread(fd, read_buffer_.data(), read_buffer_.size(), 0);
          if (n != static_cast<ssize_t>(read_buffer_.size())) {
            if (n >= 0) errno = EIO;
            ok = check(-1, "read", path);
          }
        }
        return check(::close(fd), "close", path) && ok;
      });
    }
  }

  // mdtest -Y: sync() at the end of the phase, inside its time; syncfs limits it to DIR's file system.
  void sync_file_system() {
    const int fd = ::open(work_dir_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return void(check(-1, "open", work_dir_));
    check(::syncfs(fd), "syncfs", work_dir_);
    ::close(fd);
  }

  WorkerComm& comm_;
  const MetadataOptions& o_;
  const MetadataPlan& plan_;
  std::string work_dir_;
  MetadataWorkerOutput& out_;
  std::vector<std::uint64_t> order_;
  std::string base_;
  std::string test_dir_;
  std::vector<char> write_buffer_;
  std::vector<char> read_buffer_;
  MetadataPhase phase_ = MetadataPhase::kTreeCreate;
  std::uint64_t done_ = 0;
};

}  // namespace

void run_metadata_worker(WorkerComm& comm, const MetadataOptions& options, const MetadataPlan& plan,
                         const std::string& work_dir, MetadataWorkerOutput& out) {
  Worker(comm, options, plan, work_dir, out).run();
}

}  // namespace sluice
