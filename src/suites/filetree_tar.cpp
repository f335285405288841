#include "suites/filetree_tar.h"

#include <archive.h>
#include <archive_entry.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>
#include <vector>

#include "common/clock.h"
#include "common/error.h"
#include "common/stop_signal.h"

namespace sluice {
namespace {

[[noreturn]] void fail_errno(const char* call, const std::string& path) {
  const int error = errno;
  throw IoError(fmt::format("filetree: {} {}: {}", call, path, std::strerror(error)), error);
}

[[noreturn]] void fail_archive(archive* a, const char* what, const std::string& path) {
  const int error = archive_errno(a);
  const char* text = archive_error_string(a);
  throw IoError(fmt::format("filetree: {} {}: {}", what, path, text ? text : "libarchive error"), error);
}

// The archive file as libarchive's client: counts and times every system call.
struct ArchiveFile {
  int fd = -1;
  std::string path;
  OpRecorder* recorder = nullptr;
  std::uint64_t bytes = 0;
  std::vector<unsigned char> buffer;  // read side only
};

la_ssize_t write_callback(archive* a, void* client, const void* data, size_t size) {
  auto* file = static_cast<ArchiveFile*>(client);
  const auto* p = static_cast<const unsigned char*>(data);
  size_t left = size;
  while (left > 0) {
    const ssize_t n = file->recorder->timed(FileOp::kWrite, [&] { return ::write(file->fd, p, left); });
    if (n < 0) {
      if (errno == EINTR) continue;
      archive_set_error(a, errno, "write: %s", std::strerror(errno));
      return -1;
    }
    p += n;
    left -= static_cast<size_t>(n);
  }
  file->bytes += size;
  return static_cast<la_ssize_t>(size);
}

la_ssize_t read_callback(archive* a, void* client, const void** data) {
  auto* file = static_cast<ArchiveFile*>(client);
  for (;;) {
    const ssize_t n = file->recorder->timed(FileOp::kRead,
                                            [&] { return ::read(file->fd, file->buffer.data(), file->buffer.size()); });
    if (n >= 0) {
      *data = file->buffer.data();
      file->bytes += static_cast<std::uint64_t>(n);
      return n;
    }
    if (errno != EINTR) {
      archive_set_error(a, errno, "read: %s", std::strerror(errno));
      return -1;
    }
  }
}

using ArchivePtr = std::unique_ptr<archive, int (*)(archive*)>;
using EntryPtr = std::unique_ptr<archive_entry, void (*)(archive_entry*)>;

void write_header(archive* a, const std::string& source, const std::string& name, const struct stat& s,
                  const std::string& archive_path) {
  const EntryPtr entry(archive_entry_new(), archive_entry_free);
  archive_entry_copy_stat(entry.get(), &s);
  archive_entry_copy_pathname(entry.get(), name.c_str());
  if (archive_write_header(a, entry.get()) != ARCHIVE_OK)
    fail_archive(a, "archiving", source + " into " + archive_path);
}

// Adds one regular file; returns false when stopped part-way (the archive is then incomplete anyway).
bool add_file(archive* a, const std::string& source, const std::string& name, const std::string& archive_path,
              std::vector<unsigned char>& buffer, OpRecorder& rec) {
  const int fd = rec.timed(FileOp::kOpen, [&] { return ::open(source.c_str(), O_RDONLY | O_CLOEXEC); });
  if (fd < 0) fail_errno("open", source);
  struct stat s {};
  if (::fstat(fd, &s) != 0) fail_errno("fstat", source);
  write_header(a, source, name, s, archive_path);
  ssize_t n = 0;
  while (!stop_requested()) {
    n = rec.timed(FileOp::kRead, [&] { return ::read(fd, buffer.data(), buffer.size()); });
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) fail_errno("read", source);
    if (n == 0) break;
    if (archive_write_data(a, buffer.data(), static_cast<size_t>(n)) < 0) fail_archive(a, "writing", archive_path);
  }
  if (rec.timed(FileOp::kClose, [&] { return ::close(fd); }) != 0) fail_errno("close", source);
  return n == 0;
}

std::string base_name(const std::string& path) {
  const std::size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

struct stat stat_or_throw(const std::string& path) {
  struct stat s {};
  if (::stat(path.c_str(), &s) != 0) fail_errno("stat", path);
  return s;
}

}  // namespace

StepResult write_tar(const FiletreePlan& plan, const std::string& root, const std::string& archive_path) {
  StepResult step;
  step.name = "tar";
  const std::uint64_t start = monotonic_ns();
  ArchiveFile file;
  file.path = archive_path;
  file.recorder = &step.latency;
  file.fd = step.latency.timed(
      FileOp::kCreate, [&] { return ::open(archive_path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644); });
  if (file.fd < 0) fail_errno("create", archive_path);
  const ArchivePtr a(archive_write_new(), archive_write_free);
  if (archive_write_set_format_gnutar(a.get()) != ARCHIVE_OK) fail_archive(a.get(), "tar format for", archive_path);
  if (archive_write_open(a.get(), &file, nullptr, write_callback, nullptr) != ARCHIVE_OK) {
    fail_archive(a.get(), "opening", archive_path);
  }
  const std::string top = base_name(root);
  std::vector<unsigned char> buffer(kFiletreeChunk);
  write_header(a.get(), root, top + "/", stat_or_throw(root), archive_path);
  // Files by directory, as tar walks the tree (in plan order, which a directory listing need not follow).
  std::vector<std::vector<const PlannedFile*>> by_dir(plan.dirs);
  for (const PlannedFile& f : plan.files) by_dir[f.dir].push_back(&f);
  bool done = true;
  for (std::uint32_t d = 0; d < plan.dirs && done; ++d) {
    const std::string dir = FiletreePlan::dir_name(d);
    write_header(a.get(), root + "/" + dir, top + "/" + dir + "/", stat_or_throw(root + "/" + dir), archive_path);
    for (const PlannedFile* f : by_dir[d]) {
      const std::string relative = plan.file_path(*f);
      if (stop_requested() ||
          !add_file(a.get(), root + "/" + relative, top + "/" + relative, archive_path, buffer, step.latency)) {
        done = false;
        break;
      }
      ++step.files;
    }
  }
  if (archive_write_close(a.get()) != ARCHIVE_OK) fail_archive(a.get(), "finishing", archive_path);
  if (step.latency.timed(FileOp::kClose, [&] { return ::close(file.fd); }) != 0) fail_errno("close", archive_path);
  sync_file_system(root, step.latency);
  step.seconds = seconds_since(start);
  step.bytes = file.bytes;
  step.completed = done && !stop_requested();
  return step;
}

StepResult read_tar(const std::string& archive_path) {
  StepResult step;
  step.name = "read-tar";
  const std::uint64_t start = monotonic_ns();
  ArchiveFile file;
  file.path = archive_path;
  file.recorder = &step.latency;
  file.buffer.resize(kFiletreeChunk);
  file.fd = step.latency.timed(FileOp::kOpen, [&] { return ::open(archive_path.c_str(), O_RDONLY | O_CLOEXEC); });
  if (file.fd < 0) fail_errno("open", archive_path);
  const ArchivePtr a(archive_read_new(), archive_read_free);
  archive_read_support_format_tar(a.get());
  if (archive_read_open(a.get(), &file, nullptr, read_callback, nullptr) != ARCHIVE_OK) {
    fail_archive(a.get(), "opening", archive_path);
  }
  archive_entry* entry = nullptr;
  int rc = ARCHIVE_OK;
  while (!stop_requested() && (rc = archive_read_next_header(a.get(), &entry)) == ARCHIVE_OK) {
    if (archive_entry_filetype(entry) == AE_IFREG) ++step.files;
    const void* block = nullptr;
    size_t size = 0;
    la_int64_t offset = 0;
    int data_rc = ARCHIVE_OK;
    while (!stop_requested() && (data_rc = archive_read_data_block(a.get(), &block, &size, &offset)) == ARCHIVE_OK) {
    }
    if (data_rc < ARCHIVE_OK) fail_archive(a.get(), "reading", archive_path);
  }
  if (rc < ARCHIVE_OK) fail_archive(a.get(), "reading", archive_path);
  // Past the end-of-archive blocks, so every byte of the file is read as `cat` would.
  while (!stop_requested() && rc == ARCHIVE_EOF) {
    const ssize_t n =
        step.latency.timed(FileOp::kRead, [&] { return ::read(file.fd, file.buffer.data(), file.buffer.size()); });
    if (n <= 0) break;
    file.bytes += static_cast<std::uint64_t>(n);
  }
  if (step.latency.timed(FileOp::kClose, [&] { return ::close(file.fd); }) != 0) fail_errno("close", archive_path);
  sync_file_system(archive_path.substr(0, archive_path.find_last_of('/') + 1) + ".", step.latency);
  step.seconds = seconds_since(start);
  step.bytes = file.bytes;
  step.completed = rc == ARCHIVE_EOF && !stop_requested();
  return step;
}

}  // namespace sluice
