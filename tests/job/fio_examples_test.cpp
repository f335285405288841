// Compatibility corpus: every job file of Debian's fio-examples must either parse, or be refused for an
// option or engine that sluice does not support; never a crash, never an "unknown option" for an option fio
// knows. Prints a table (the source of docs/fio-compatibility.md).
#include "job/fio_examples.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "job/job_file.h"

namespace sluice {
namespace {

namespace fs = std::filesystem;

// The reason a file is refused: a message without the "file:line: " position.
std::string reason_of(const std::string& message) {
  const std::size_t fio = message.find(".fio:");
  if (fio == std::string::npos) return message;
  const std::size_t after = message.find(": ", fio);
  return after == std::string::npos ? message : message.substr(after + 2);
}

// Refused for what sluice lacks, or (numa.fio's second job) for NUMA nodes this machine lacks, which fio refuses
// while parsing too: the one row of the table that depends on the machine.
bool is_unsupported(const std::string& message) {
  return message.find("not supported by sluice") != std::string::npos ||
         message.find("is not a list of this machine's NUMA nodes") != std::string::npos;
}

TEST(FioExamples, EveryExampleParsesOrNamesWhatIsUnsupported) {
  const std::vector<std::string> files = testing::fio_example_files();
  if (files.empty()) GTEST_SKIP() << testing::kFioExamplesDir << " is missing (Debian package fio-examples)";
  JobFileSettings settings;
  settings.expansion.system = SystemValues{4, 4096, 8192};  // the table must not depend on the machine
  // The values the xnvme examples document in their headers; other variables stay unset (empty).
  settings.expansion.env = [](const std::string& name) -> std::optional<std::string> {
    if (name == "FIO_RW") return "randread";
    if (name == "FIO_IODEPTH") return "1";
    if (name == "FIO_BS") return "4k";
    return std::nullopt;
  };
  int parsed = 0;
  std::printf("| example | result |\n|---|---|\n");
  for (const std::string& file : files) {
    const std::string name = fs::path(file).filename().string();
    try {
      const auto jobs = parse_job_file(file, settings);
      ++parsed;
      std::printf("| %s | parses (%zu jobs) |\n", name.c_str(), jobs.size());
    } catch (const JobFileError& e) {
      std::vector<std::string> reasons;
      for (const std::string& message : e.messages()) {
        const std::string reason = reason_of(message);
        if (std::find(reasons.begin(), reasons.end(), reason) == reasons.end()) reasons.push_back(reason);
      }
      std::string joined;
      for (const std::string& reason : reasons) joined += (joined.empty() ? "" : "; ") + reason;
      std::printf("| %s | %s |\n", name.c_str(), joined.c_str());
      for (const std::string& message : e.messages()) {
        EXPECT_TRUE(is_unsupported(message)) << name << ": " << message;
      }
    }
  }
  std::printf("%d of %zu examples parse\n", parsed, files.size());
  EXPECT_GT(parsed, 0);
}

}  // namespace
}  // namespace sluice
