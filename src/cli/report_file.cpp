#include "cli/report_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>

#include "common/created_files.h"

namespace sluice {
namespace {

std::string error_text(int error_number) { return std::strerror(error_number != 0 ? error_number : EIO); }

// Opens `path` truncated and writes what `write` produces: 0, or the errno of the failure.
int write_stream(const std::string& path, const std::function<void(std::ostream&)>& write) {
  errno = 0;
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) return errno != 0 ? errno : EIO;
  write(out);
  out.flush();
  const int flush_errno = errno;
  out.close();
  return out ? 0 : (flush_errno != 0 ? flush_errno : EIO);
}

// Writes in place (truncating): for paths that are not plain files, where a rename would replace the node.
std::string write_in_place(const std::string& path, const std::function<void(std::ostream&)>& write) {
  const int failed = write_stream(path, write);
  return failed == 0 ? "" : error_text(failed);
}

// Makes the new file look like the one it replaces: its permission bits and (as root) its owner.
void copy_mode_and_owner(int fd, const struct stat& old) {
  (void)::fchmod(fd, old.st_mode & 07777);
  if (::fchown(fd, old.st_uid, old.st_gid) != 0) {
    // Not root: the new file is the user's own, as any file they write.
  }
}

}  // namespace

std::string write_report_file(const std::string& path, const std::function<void(std::ostream&)>& write) {
  struct stat old {};
  const bool exists = ::lstat(path.c_str(), &old) == 0;
  if (exists && !S_ISREG(old.st_mode)) return write_in_place(path, write);

  const std::string temporary = path + ".sluice-tmp." + std::to_string(::getpid());
  journal_creating(temporary);
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  if (fd < 0) {
    const int open_errno = errno;
    journal_removed(temporary);
    // A directory sluice may not create in (but a file in it it may write): the old way.
    if (open_errno == EACCES || open_errno == EPERM || open_errno == EROFS) return write_in_place(path, write);
    return error_text(open_errno);
  }
  journal_created(temporary);
  if (exists) copy_mode_and_owner(fd, old);

  auto give_up = [&](int error_number) {
    ::close(fd);
    ::unlink(temporary.c_str());
    journal_removed(temporary);
    return error_text(error_number);
  };
  if (const int failed = write_stream(temporary, write); failed != 0) return give_up(failed);
  if (::fsync(fd) != 0) return give_up(errno);  // a crash after the rename must not leave an empty report
  if (::rename(temporary.c_str(), path.c_str()) != 0) return give_up(errno);
  ::close(fd);
  journal_removed(temporary);
  return "";
}

}  // namespace sluice
