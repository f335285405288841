#pragma once
// A temporary directory for one test, removed with everything in it when the test ends.
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace sluice::testing {

class TempDir {
 public:
  TempDir() {
    const char* base = std::getenv("TMPDIR");
    std::string pattern = std::string(base && *base ? base : "/tmp") + "/sluice-test-XXXXXX";
    if (mkdtemp(pattern.data())) path_ = pattern;
  }
  ~TempDir() {
    std::error_code ec;
    if (!path_.empty()) std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  std::string file(const std::string& name) const { return path_ + "/" + name; }
  // Creates a file of `bytes` bytes of 'x'; returns its path.
  std::string make_file(const std::string& name, std::size_t bytes) const {
    std::ofstream out(file(name), std::ios::binary);
    out << std::string(bytes, 'x');
    return file(name);
  }

 private:
  std::string path_;
};

}  // namespace sluice::testing
