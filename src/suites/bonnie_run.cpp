#include "suites/bonnie_run.h"

#include <dirent.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <thread>
#include <vector>

#include "common/clock.h"
#include "common/created_files.h"
#include "common/error.h"
#include "common/rng.h"

namespace sluice {
namespace {

constexpr std::int64_t kMiB = 1 << 20;
constexpr int kUpdateSeek = 10;    // every 10th seek also rewrites its chunk
constexpr int kRandExtraLen = 12;  // up to 12 random characters in a file name
constexpr const char* kRandChars = "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";

using Progress = std::function<void(const std::string&)>;
using Stop = std::function<bool()>;

// The run was interrupted: unwinds to run_bonnie, which keeps what was measured.
struct Interrupted {};

[[noreturn]] void io_fail(const std::string& what, const std::string& path) {
  const int e = errno;
  throw IoError(fmt::format("bonnie: {} {}: {}", what, path, std::strerror(e)), e);
}

double cpu_now(int who) {
  rusage u{};
  getrusage(who, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

// bonnie++'s BonTimer for one phase: wall and CPU time from start() to stop(), the slowest operation.
class PhaseClock {
 public:
  void start() {
    start_ns_ = monotonic_ns();
    cpu_ = cpu_now(RUSAGE_SELF);
  }
  void op_start() { op_ns_ = monotonic_ns(); }
  void op_stop() {
    max_ = std::max(max_, seconds_since(op_ns_));
    ++ops_;
  }
  void stop(BonniePhase& phase, std::uint64_t bytes) const {
    phase.seconds = seconds_since(start_ns_);
    phase.cpu_seconds = cpu_now(RUSAGE_SELF) - cpu_;
    phase.max_latency = max_;
    phase.ops = ops_;
    phase.bytes = bytes;
    phase.ran = true;
  }

 private:
  std::uint64_t start_ns_ = 0;
  std::uint64_t op_ns_ = 0;
  double cpu_ = 0;
  double max_ = 0;
  std::uint64_t ops_ = 0;
};

// bonnie++'s Rand::getNum: a non-negative int.
class BonnieRandom {
 public:
  explicit BonnieRandom(std::uint32_t seed) : rng_(seed) {}
  int next() { return static_cast<int>(rng_.next() >> 33); }

 private:
  Rng rng_;
};

// The IO-test file, created through the journal; close() is bonnie++'s fsync + close (timed by callers).
class IoFile {
 public:
  explicit IoFile(std::string path) : path_(std::move(path)) {}
  ~IoFile() {
    if (fd_ >= 0) ::close(fd_);
    remove();
  }
  IoFile(const IoFile&) = delete;
  IoFile& operator=(const IoFile&) = delete;

  void create() {
    close_untimed();
    remove();
    journal_creating(path_);
    fd_ = ::open(path_.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, S_IRUSR | S_IWUSR);
    if (fd_ < 0) {
      journal_removed(path_);
      io_fail("cannot create", path_);
    }
    exists_ = true;
    journal_created(path_);
  }
  void reopen() {
    close_untimed();
    fd_ = ::open(path_.c_str(), O_RDWR | O_CLOEXEC);
    if (fd_ < 0) io_fail("cannot open", path_);
  }
  void close() {
    if (fd_ < 0) return;
    if (::fsync(fd_) != 0) io_fail("cannot fsync", path_);
    ::close(fd_);
    fd_ = -1;
  }
  void seek(off_t offset, int whence) {
    if (::lseek(fd_, offset, whence) < 0) io_fail("cannot lseek in", path_);
  }
  void write_all(const char* buf, std::size_t n) {
    if (::write(fd_, buf, n) != static_cast<ssize_t>(n)) io_fail("cannot write (disk full?)", path_);
  }
  void read_all(char* buf, std::size_t n) {
    std::size_t total = 0;
    while (total < n) {
      const ssize_t r = ::read(fd_, buf + total, n - total);
      if (r <= 0) io_fail(r == 0 ? "short read of" : "cannot read", path_);
      total += static_cast<std::size_t>(r);
    }
  }
  int fd() const { return fd_; }
  const std::string& path() const { return path_; }

 private:
  void close_untimed() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }
  void remove() {
    if (!exists_) return;
    if (::unlink(path_.c_str()) == 0 || errno == ENOENT) journal_removed(path_);
    exists_ = false;
  }

  std::string path_;
  int fd_ = -1;
  bool exists_ = false;
};

struct IoContext {
  const BonnieOptions& options;
  BonnieResult& result;
  const Progress& progress;
  const Stop& stop;
  BonnieRandom& random;
  void check_stop() const {
    if (stop()) throw Interrupted{};
  }
};

void byte_write(IoContext& c, IoFile& file, std::int64_t chunks) {
  PhaseClock clock;
  clock.start();
  c.progress("Writing a byte at a time...");
  const std::int64_t chunk = c.options.chunk;
  for (std::int64_t n = 0; n < chunks; ++n) {
    clock.op_start();
    for (std::int64_t i = 0; i < chunk; ++i) {
      const char ch = static_cast<char>(i & 0x7f);
      if (::write(file.fd(), &ch, 1) != 1) io_fail("cannot write() a byte (disk full?)", file.path());
    }
    clock.op_stop();
    c.check_stop();
  }
  file.close();
  clock.stop(c.result[BonnieTest::kByteWrite], static_cast<std::uint64_t>(chunks * chunk));
  c.progress("done\n");
}

void block_write(IoContext& c, IoFile& file, std::vector<char>& buf, std::int64_t chunks) {
  file.create();
  c.progress("Writing intelligently...");
  std::fill(buf.begin(), buf.end(), 0);
  PhaseClock clock;
  clock.start();
  std::size_t index = 0;
  for (std::int64_t n = 0; n < chunks; ++n) {
    c.check_stop();
    buf[index]++;
    index = (index + 1) % buf.size();
    clock.op_start();
    file.write_all(buf.data(), buf.size());
    clock.op_stop();
  }
  file.close();
  clock.stop(c.result[BonnieTest::kBlockWrite], static_cast<std::uint64_t>(chunks) * buf.size());
  c.progress("done\n");
}

void rewrite(IoContext& c, IoFile& file, std::vector<char>& buf, std::int64_t chunks) {
  file.reopen();
  file.seek(0, SEEK_SET);
  c.progress("Rewriting...");
  PhaseClock clock;
  clock.start();
  std::size_t index = 0;
  const auto size = static_cast<off_t>(buf.size());
  for (std::int64_t n = 0; n < chunks; ++n) {
    clock.op_start();
    file.read_all(buf.data(), buf.size());
    index %= buf.size();
    buf[index++]++;
    file.seek(-size, SEEK_CUR);
    file.write_all(buf.data(), buf.size());
    clock.op_stop();
    c.check_stop();
  }
  file.close();
  clock.stop(c.result[BonnieTest::kRewrite], 2 * static_cast<std::uint64_t>(chunks) * buf.size());
  c.progress("done\n");
}

void byte_read(IoContext& c, IoFile& file, std::vector<char>& buf, std::int64_t chunks) {
  file.reopen();
  c.progress("Reading a byte at a time...");
  PhaseClock clock;
  clock.start();
  const std::int64_t chunk = c.options.chunk;
  for (std::int64_t n = 0; n < chunks; ++n) {
    clock.op_start();
    for (std::int64_t i = 0; i < chunk; ++i) {
      char next = 0;
      if (::read(file.fd(), &next, 1) != 1) io_fail("cannot read a byte of", file.path());
      buf[static_cast<unsigned char>(next) % buf.size()]++;  // used, so the loop stays
    }
    clock.op_stop();
    c.check_stop();
  }
  file.close();
  clock.stop(c.result[BonnieTest::kByteRead], static_cast<std::uint64_t>(chunks * chunk));
  c.progress("done\n");
}

void block_read(IoContext& c, IoFile& file, std::vector<char>& buf, std::int64_t chunks) {
  file.reopen();
  file.seek(0, SEEK_SET);
  c.progress("Reading intelligently...");
  PhaseClock clock;
  clock.start();
  for (std::int64_t n = 0; n < chunks; ++n) {
    clock.op_start();
    file.read_all(buf.data(), buf.size());
    clock.op_stop();
    c.check_stop();
  }
  file.close();
  clock.stop(c.result[BonnieTest::kBlockRead], static_cast<std::uint64_t>(chunks) * buf.size());
  c.progress("done\n");
}

// One seeker's account, as bonnie++'s seeker report: start, end, CPU and its slowest seek.
struct SeekerReport {
  std::uint64_t start_ns = 0;
  std::uint64_t end_ns = 0;
  double cpu = 0;
  double max_latency = 0;
  std::uint64_t ops = 0;
  std::uint64_t bytes = 0;
  int error = 0;
};

// bonnie++'s seek test: `seekers` threads, each with its own descriptor, take tickets from one shared queue;
// per ticket lseek to chunk (ticket % chunks) and read it; a ticket that was a multiple of 10 also changes a
// byte and writes the chunk back (fsync with -b).
void seeks(IoContext& c, const std::string& path, std::int64_t chunks) {
  std::vector<int> tickets(static_cast<std::size_t>(c.options.seeks));
  for (int& t : tickets) {
    t = c.random.next();
    if (t % kUpdateSeek == 0) t = -t;
  }
  std::atomic<std::size_t> next{0};
  std::atomic<bool> go{false};
  std::atomic<int> ready{0};
  const auto seekers = static_cast<std::size_t>(c.options.seekers);
  std::vector<SeekerReport> reports(seekers);
  std::vector<std::thread> threads;
  const std::size_t chunk = static_cast<std::size_t>(c.options.chunk);
  for (std::size_t s = 0; s < seekers; ++s) {
    threads.emplace_back([&, s] {
      SeekerReport& r = reports[s];
      const int fd = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
      if (fd < 0) r.error = errno;
      ready.fetch_add(1);
      while (!go.load()) std::this_thread::yield();
      if (fd < 0) return;
      std::vector<char> buf(chunk);
      r.start_ns = monotonic_ns();
      const double cpu0 = cpu_now(RUSAGE_THREAD);
      for (std::size_t i = next.fetch_add(1); i < tickets.size() && r.error == 0 && !c.stop(); i = next.fetch_add(1)) {
        const int ticket = tickets[i];
        const bool update = ticket < 0;
        const auto where = static_cast<std::int64_t>(std::abs(ticket)) % chunks;
        const off_t offset = static_cast<off_t>(where) * static_cast<off_t>(chunk);
        const std::uint64_t t0 = monotonic_ns();
        if (::lseek(fd, offset, SEEK_SET) < 0 || ::read(fd, buf.data(), chunk) != static_cast<ssize_t>(chunk)) {
          r.error = errno ? errno : EIO;
        }
        r.bytes += chunk;
        if (update && r.error == 0) {
          buf[static_cast<std::size_t>(where) % chunk]--;
          if (::lseek(fd, offset, SEEK_SET) < 0 || ::write(fd, buf.data(), chunk) != static_cast<ssize_t>(chunk)) {
            r.error = errno ? errno : EIO;
          }
          if (c.options.sync && ::fsync(fd) != 0) r.error = errno;
          r.bytes += chunk;
        }
        r.max_latency = std::max(r.max_latency, static_cast<double>(monotonic_ns() - t0) / 1e9);
        ++r.ops;
      }
      if (::fsync(fd) != 0 && r.error == 0) r.error = errno;
      ::close(fd);
      r.end_ns = monotonic_ns();
      r.cpu = cpu_now(RUSAGE_THREAD) - cpu0;
    });
  }
  while (ready.load() < static_cast<int>(seekers)) std::this_thread::yield();
  c.progress("start 'em...");
  go.store(true);
  for (std::size_t s = 0; s < seekers; ++s) {
    threads[s].join();
    c.progress("done...");
  }
  c.progress("\n");
  BonniePhase& phase = c.result[BonnieTest::kSeeks];
  std::uint64_t first = UINT64_MAX, last = 0;
  for (const SeekerReport& r : reports) {
    if (r.error != 0) {
      errno = r.error;
      io_fail("a seeker failed on", path);
    }
    first = std::min(first, r.start_ns);
    last = std::max(last, r.end_ns);
    phase.cpu_seconds += r.cpu;
    phase.max_latency = std::max(phase.max_latency, r.max_latency);
    phase.ops += r.ops;
    phase.bytes += r.bytes;
  }
  c.check_stop();
  phase.seconds = static_cast<double>(last - first) / 1e9;
  phase.ran = true;
}

void io_tests(IoContext& c) {
  const std::int64_t chunks = c.options.size_mib * (kMiB / c.options.chunk);
  const std::int64_t byte_chunks = c.options.byte_io_mib * (kMiB / c.options.chunk);
  std::vector<char> buf(static_cast<std::size_t>(c.options.chunk));
  IoFile file(c.result.path);
  file.create();
  if (byte_chunks > 0) byte_write(c, file, byte_chunks);
  block_write(c, file, buf, chunks);
  rewrite(c, file, buf, chunks);
  if (byte_chunks > 0) byte_read(c, file, buf, byte_chunks);
  block_read(c, file, buf, chunks);
  seeks(c, file.path(), chunks);
}

// The file tests' directory and names (bonnie++'s COpenTest), addressed relative to the directory's fd.
class FileTest {
 public:
  FileTest(IoContext& c, std::string dir) : c_(c), dir_(std::move(dir)) {}
  ~FileTest() { cleanup(); }
  FileTest(const FileTest&) = delete;
  FileTest& operator=(const FileTest&) = delete;

  void run() {
    create(false, BonnieTest::kCreateSeq, "Create files in sequential order...");
    stat_sequential();
    delete_sequential();
    create(true, BonnieTest::kCreateRandom, "Create files in random order...");
    stat_random();
    delete_random();
  }

 private:
  std::string sub(std::int64_t d) const { return fmt::format("{:05d}", d); }

  void make_names(bool random_order) {
    names_.clear();
    const std::int64_t number = c_.options.files * kBonnieDirectoryUnit;
    const std::int64_t per_dir = number / c_.options.dirs;
    std::int64_t in_dir = 0, dir = 0;
    const int chars = static_cast<int>(std::strlen(kRandChars));
    for (std::int64_t i = 0; i < number; ++i) {
      std::string extra;
      const int len = c_.random.next() % (kRandExtraLen + 1);
      for (int j = 0; j < len; ++j) extra += kRandChars[c_.random.next() % chars];
      std::string name = c_.options.dirs != 1 ? sub(dir) + "/" : "";
      if (++in_dir > per_dir) {  // bonnie++'s count: one more name than the share per directory
        in_dir = 0;
        ++dir;
      }
      name += random_order ? fmt::format("{}{:010x}", extra, i) : fmt::format("{:010x}{}", i, extra);
      names_.push_back(std::move(name));
    }
  }

  void make_directory(const std::string& path) {
    journal_creating(path);
    if (::mkdir(path.c_str(), S_IRWXU) != 0) {
      journal_removed(path);
      io_fail("cannot make directory", path);
    }
    journal_created(path);
    dirs_made_.push_back(path);
  }

  void create(bool random_order, BonnieTest test, const char* title) {
    make_names(random_order);
    make_directory(dir_);
    dir_fd_ = ::open(dir_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir_fd_ < 0) io_fail("cannot open directory", dir_);
    std::vector<int> handles;
    if (c_.options.dirs > 1) {
      for (std::int64_t d = 0; d < c_.options.dirs; ++d) make_directory(dir_ + "/" + sub(d));
    }
    if (c_.options.sync) {
      for (std::int64_t d = 0; d < std::max<std::int64_t>(1, c_.options.dirs); ++d) {
        const std::string p = c_.options.dirs > 1 ? dir_ + "/" + sub(d) : dir_;
        handles.push_back(::open(p.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
      }
    }
    std::vector<std::string> paths;
    for (const std::string& n : names_) paths.push_back(dir_ + "/" + n);
    journal_creating(paths);
    created_ = 0;
    c_.progress(title);
    std::vector<char> data(static_cast<std::size_t>(c_.options.file_chunk), 'a');
    const std::int64_t range = c_.options.max_size - c_.options.min_size;
    PhaseClock clock;
    clock.start();
    std::uint64_t bytes = 0;
    for (std::size_t i = 0; i < names_.size(); ++i) {
      if (c_.stop()) {
        journal_after_create(paths);
        throw Interrupted{};
      }
      clock.op_start();
      const std::size_t dir_index =
          c_.options.dirs > 1 ? static_cast<std::size_t>(std::stoi(names_[i].substr(0, 5))) : 0;
      if (c_.options.max_size < 0 && i > 0) {
        const int rc = c_.options.max_size == kBonnieLinks
                           ? ::linkat(dir_fd_, names_[0].c_str(), dir_fd_, names_[i].c_str(), 0)
                           : ::symlinkat(names_[0].substr(names_[0].find('/') + 1).c_str(), dir_fd_, names_[i].c_str());
        if (rc != 0) io_fail("cannot link", paths[i]);
        if (c_.options.sync && ::fsync(handles[dir_index]) != 0) io_fail("cannot fsync the directory of", paths[i]);
      } else {
        std::int64_t size = range > 0 ? c_.options.min_size + c_.random.next() % (range + 1) : c_.options.max_size;
        size = std::max<std::int64_t>(size, 0);
        const int fd = ::openat(dir_fd_, names_[i].c_str(), O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, S_IRUSR | S_IWUSR);
        if (fd < 0) io_fail("cannot create", paths[i]);
        for (std::int64_t done = 0; done < size; done += c_.options.file_chunk) {
          const auto n = static_cast<std::size_t>(std::min(size - done, c_.options.file_chunk));
          if (::write(fd, data.data(), n) != static_cast<ssize_t>(n)) io_fail("cannot write", paths[i]);
          bytes += n;
        }
        if (c_.options.sync && (::fsync(fd) != 0 || ::fsync(handles[dir_index]) != 0))
          io_fail("cannot fsync", paths[i]);
        ::close(fd);
      }
      ++created_;
      clock.op_stop();
    }
    ::sync();
    clock.stop(c_.result[test], bytes);
    for (int h : handles) ::close(h);
    journal_after_create(paths);
    c_.progress("done.\n");
  }

  void journal_after_create(const std::vector<std::string>& paths) {
    for (std::size_t i = 0; i < paths.size(); ++i) {
      if (i < created_)
        journal_created(paths[i]);
      else
        journal_removed(paths[i]);
    }
  }

  // stat() a file and read it whole when it has data, as bonnie++'s stat_file.
  std::uint64_t stat_file(int at, const char* name) {
    struct stat st {};
    if (::fstatat(at, name, &st, 0) != 0) io_fail("cannot stat", dir_ + "/" + name);
    if (st.st_size == 0) return 0;
    const int fd = ::openat(at, name, O_RDONLY | O_CLOEXEC);
    if (fd < 0) io_fail("cannot open", dir_ + "/" + name);
    std::vector<char> buf(static_cast<std::size_t>(c_.options.file_chunk));
    for (off_t done = 0; done < st.st_size; done += c_.options.file_chunk) {
      const auto n = static_cast<std::size_t>(std::min<off_t>(st.st_size - done, c_.options.file_chunk));
      if (::read(fd, buf.data(), n) != static_cast<ssize_t>(n)) io_fail("cannot read", dir_ + "/" + name);
    }
    ::close(fd);
    return static_cast<std::uint64_t>(st.st_size);
  }

  // readdir order over each directory, `per_entry` on every name that does not start with '.'.
  template <typename F>
  std::int64_t walk(PhaseClock& clock, F per_entry) {
    std::int64_t count = 0;
    const std::int64_t dirs = c_.options.dirs;
    for (std::int64_t d = 0; d < dirs; ++d) {
      const int at = dirs != 1 ? ::openat(dir_fd_, sub(d).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
                               : ::openat(dir_fd_, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
      if (at < 0) io_fail("cannot open a directory in", dir_);
      const int list_fd = ::dup(at);
      DIR* listing = ::fdopendir(list_fd);
      if (listing == nullptr) io_fail("cannot read directory", dir_);
      while (true) {
        if (c_.stop()) {
          ::closedir(listing);
          ::close(at);
          throw Interrupted{};
        }
        clock.op_start();
        const dirent* entry = ::readdir(listing);
        if (entry == nullptr) break;
        if (entry->d_name[0] == '.') continue;
        per_entry(at, entry->d_name);
        ++count;
        clock.op_stop();
      }
      ::closedir(listing);
      ::close(at);
    }
    if (count != static_cast<std::int64_t>(names_.size())) {
      throw UserError(fmt::format("bonnie: expected {} files in {} but found {}", names_.size(), dir_, count));
    }
    return count;
  }

  void stat_sequential() {
    c_.progress("Stat files in sequential order...");
    PhaseClock clock;
    std::uint64_t bytes = 0;
    clock.start();
    walk(clock, [&](int at, const char* name) { bytes += stat_file(at, name); });
    clock.stop(c_.result[BonnieTest::kStatSeq], bytes);
    c_.progress("done.\n");
  }

  // Removes the subdirectories and the test directory (timed by the delete phases, as in bonnie++).
  void remove_directories() {
    ::close(dir_fd_);
    dir_fd_ = -1;
    for (auto it = dirs_made_.rbegin(); it != dirs_made_.rend(); ++it) {
      if (::rmdir(it->c_str()) != 0) io_fail("cannot remove directory", *it);
    }
  }

  void journal_removed_all() {
    for (const std::string& n : names_) journal_removed(dir_ + "/" + n);
    for (auto it = dirs_made_.rbegin(); it != dirs_made_.rend(); ++it) journal_removed(*it);
    dirs_made_.clear();
    names_.clear();
  }

  void delete_sequential() {
    c_.progress("Delete files in sequential order...");
    PhaseClock clock;
    clock.start();
    walk(clock, [&](int at, const char* name) {
      if (::unlinkat(at, name, 0) != 0) io_fail("cannot delete", dir_ + "/" + name);
      if (c_.options.sync) ::fsync(at);
    });
    remove_directories();
    ::sync();
    clock.stop(c_.result[BonnieTest::kDeleteSeq], 0);
    journal_removed_all();
    c_.progress("done.\n");
  }

  void random_sort() {
    const auto n = names_.size();
    for (std::size_t i = 0; i < n; ++i) std::swap(names_[i], names_[static_cast<std::size_t>(c_.random.next()) % n]);
  }

  void stat_random() {
    random_sort();
    c_.progress("Stat files in random order...");
    PhaseClock clock;
    std::uint64_t bytes = 0;
    clock.start();
    for (const std::string& name : names_) {
      c_.check_stop();
      clock.op_start();
      bytes += stat_file(dir_fd_, name.c_str());
      clock.op_stop();
    }
    clock.stop(c_.result[BonnieTest::kStatRandom], bytes);
    c_.progress("done.\n");
  }

  void delete_random() {
    random_sort();
    c_.progress("Delete files in random order...");
    std::vector<int> handles = sync_handles();
    PhaseClock clock;
    clock.start();
    for (std::size_t i = 0; i < names_.size(); ++i) {
      c_.check_stop();
      clock.op_start();
      if (::unlinkat(dir_fd_, names_[i].c_str(), 0) != 0) io_fail("cannot delete", dir_ + "/" + names_[i]);
      if (!handles.empty()) {
        const std::size_t d = c_.options.dirs > 1 ? static_cast<std::size_t>(std::stoi(names_[i].substr(0, 5))) : 0;
        ::fsync(handles[d]);
      }
      clock.op_stop();
    }
    for (int h : handles) ::close(h);
    remove_directories();
    ::sync();
    clock.stop(c_.result[BonnieTest::kDeleteRandom], 0);
    journal_removed_all();
    c_.progress("done.\n");
  }

  std::vector<int> sync_handles() const {
    std::vector<int> handles;
    if (!c_.options.sync) return handles;
    for (std::int64_t d = 0; d < c_.options.dirs; ++d) {
      const std::string p = c_.options.dirs > 1 ? dir_ + "/" + sub(d) : dir_;
      handles.push_back(::open(p.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    }
    return handles;
  }

  // After an error or an interruption: removes whatever of the test is still there.
  void cleanup() {
    if (dir_fd_ >= 0) ::close(dir_fd_);
    dir_fd_ = -1;
    for (const std::string& n : names_) {
      const std::string p = dir_ + "/" + n;
      if (::unlink(p.c_str()) == 0 || errno == ENOENT) journal_removed(p);
    }
    for (auto it = dirs_made_.rbegin(); it != dirs_made_.rend(); ++it) {
      if (::rmdir(it->c_str()) == 0 || errno == ENOENT) journal_removed(*it);
    }
  }

  IoContext& c_;
  std::string dir_;
  std::vector<std::string> names_;
  std::vector<std::string> dirs_made_;
  int dir_fd_ = -1;
  std::size_t created_ = 0;
};

std::string host_name() {
  utsname u{};
  if (uname(&u) != 0) return "localhost";
  return u.nodename;
}

void check_directory(const BonnieOptions& options) {
  struct stat st {};
  if (::stat(options.dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
    throw UserError("bonnie: -d " + options.dir + ": Can't change to directory (not a directory)");
  }
  if (::access(options.dir.c_str(), W_OK | X_OK) != 0) {
    throw UserError("bonnie: -d " + options.dir + ": the directory is not writable");
  }
  struct statvfs fs {};
  if (::statvfs(options.dir.c_str(), &fs) != 0) return;
  const std::uint64_t free_bytes = static_cast<std::uint64_t>(fs.f_bavail) * fs.f_frsize;
  const std::uint64_t file_data =
      options.max_size > 0 ? static_cast<std::uint64_t>(options.files * kBonnieDirectoryUnit * options.max_size) : 0;
  const std::uint64_t need = static_cast<std::uint64_t>(options.size_mib) * kMiB + file_data;
  if (need > free_bytes) {
    throw UserError(fmt::format("bonnie: -s {}: the tests need {} MiB but {} has {} MiB free; use a smaller -s or -n",
                                options.size_mib, need >> 20, options.dir, free_bytes >> 20));
  }
}

}  // namespace

const char* bonnie_test_key(BonnieTest test) {
  static constexpr const char* kKeys[kBonnieTestCount] = {"putc",      "put_block",  "rewrite",    "getc",
                                                          "get_block", "seeks",      "seq_create", "seq_stat",
                                                          "seq_del",   "ran_create", "ran_stat",   "ran_del"};
  return kKeys[static_cast<std::size_t>(test)];
}

BonnieResult run_bonnie(const BonnieOptions& options, const Progress& progress, const Stop& stop) {
  check_directory(options);
  init_clock();
  BonnieResult result;
  result.seed = options.seed_given
                    ? options.seed
                    : static_cast<std::uint32_t>(getpid()) ^ static_cast<std::uint32_t>(std::time(nullptr));
  result.machine = options.machine.empty() ? host_name() : options.machine;
  result.path = options.dir + "/Bonnie." + std::to_string(getpid());
  BonnieRandom random(result.seed);
  IoContext context{options, result, progress, stop, random};
  try {
    if (options.size_mib > 0) io_tests(context);
    if (options.files > 0) {
      FileTest files(context, result.path);
      files.run();
    }
  } catch (const Interrupted&) {
    result.interrupted = true;
    progress("interrupted\n");
  }
  return result;
}

}  // namespace sluice
