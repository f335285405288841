#pragma once
// A loop device over a sparse image file in a test's temporary directory, detached when the object goes
// away; and the small shell helpers that the loop-device tests share. Needs root and losetup: attach()
// says why it could not attach, and the test skips with that reason.
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include <array>
#include <cstdint>
#include <string>

namespace sluice::testing {

// Runs a shell command (stderr discarded); returns its exit status and, in `output`, stdout without the
// trailing newlines and blanks.
inline int run_command(const std::string& command, std::string* output = nullptr) {
  FILE* pipe = popen((command + " 2>/dev/null").c_str(), "r");
  if (pipe == nullptr) return -1;
  std::string text;
  std::array<char, 256> chunk{};
  while (fgets(chunk.data(), static_cast<int>(chunk.size()), pipe) != nullptr) text += chunk.data();
  const int status = pclose(pipe);
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  if (output != nullptr) *output = text;
  return status;
}

inline bool have_tool(const std::string& name) { return run_command("command -v " + name) == 0; }

class LoopDevice {
 public:
  LoopDevice() = default;
  LoopDevice(const LoopDevice&) = delete;
  LoopDevice& operator=(const LoopDevice&) = delete;
  ~LoopDevice() {
    if (!path_.empty()) run_command("losetup -d " + path_);
  }

  // Creates the image file `image` (in the test's temporary directory) of `bytes`, sparse, and attaches
  // it. Returns "" on success, else why not (not root, no losetup, no free loop device), for GTEST_SKIP.
  std::string attach(const std::string& image, std::uint64_t bytes) {
    if (::geteuid() != 0) return "needs root to attach loop devices";
    if (!have_tool("losetup")) return "losetup is not installed";
    const int fd = ::open(image.c_str(), O_CREAT | O_WRONLY | O_CLOEXEC, 0600);
    if (fd < 0) return "cannot create the image file " + image;
    const bool sized = ::ftruncate(fd, static_cast<off_t>(bytes)) == 0;
    ::close(fd);
    if (!sized) return "cannot size the image file " + image;
    if (run_command("losetup --find --show " + image, &path_) != 0 || path_.empty()) {
      path_.clear();
      return "losetup could not attach a loop device (no free loop device?)";
    }
    return "";
  }

  // The device node, e.g. /dev/loop3; "" when not attached.
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace sluice::testing
