#pragma once
// The compatibility corpus: Debian's fio-examples, read by the parse table and run by the end-to-end test.
#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

namespace sluice::testing {

inline constexpr const char* kFioExamplesDir = "/usr/share/doc/fio/examples";

// The .fio files of the corpus, sorted; empty when the package is not installed.
inline std::vector<std::string> fio_example_files() {
  std::vector<std::string> files;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(kFioExamplesDir, ec)) {
    if (entry.path().extension() == ".fio") files.push_back(entry.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace sluice::testing
