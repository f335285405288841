#pragma once
// A temporary directory for target tests (removed with everything in it).
#include <stdlib.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace sluice::testing {

class TempDir {
 public:
  TempDir() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "sluice-target-XXXXXX").string();
    if (mkdtemp(tmpl.data()) == nullptr) std::abort();
    path_ = tmpl;
  }
  ~TempDir() { std::filesystem::remove_all(path_); }
  std::string path() const { return path_.string(); }
  std::string file(const std::string& name) const { return (path_ / name).string(); }
  // Creates a file of `bytes` bytes of 'x'.
  std::string make_file(const std::string& name, std::size_t bytes) const {
    std::ofstream out(file(name), std::ios::binary);
    out << std::string(bytes, 'x');
    return file(name);
  }

 private:
  std::filesystem::path path_;
};

}  // namespace sluice::testing
