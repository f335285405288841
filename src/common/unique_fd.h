#pragma once
// A file descriptor closed when it goes out of scope; -1 holds nothing.
#include <unistd.h>

namespace sluice {

class UniqueFd {
 public:
  explicit UniqueFd(int fd) noexcept : fd_(fd) {}
  ~UniqueFd() {
    if (fd_ >= 0) ::close(fd_);
  }
  UniqueFd(const UniqueFd&) = delete;
  UniqueFd& operator=(const UniqueFd&) = delete;
  int get() const noexcept { return fd_; }

 private:
  int fd_;
};

}  // namespace sluice
