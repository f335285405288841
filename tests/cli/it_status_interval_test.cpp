// --status-interval=T as fio: the whole report so far every T in every chosen format, then the final one;
// each JSON document complete. Parsed as a script parses fio's output: documents one after another. Where
// fio 3.33 is installed, its document count for the same job is compared too.
#include <gtest/gtest.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "support/it_test_util.h"
#include "support/json_documents.h"
#include "support/temp_dir.h"

namespace sluice::testing {
namespace {

using json = nlohmann::json;

// A 3 s null-engine read job with a report every second, in `format`.
std::vector<std::string> periodic_job(const std::string& format) {
  return {"--name=n",    "--ioengine=null", "--size=1g",           "--time_based",
          "--runtime=3", "--rw=read",       "--status-interval=1", "--output-format=" + format};
}

// The reports are cumulative: the reads of each document are at least those of the one before, and the
// last (the final report) has the sluice section.
void expect_cumulative(const std::vector<json>& documents) {
  std::uint64_t before = 0;
  for (const json& doc : documents) {
    ASSERT_TRUE(doc.contains("jobs")) << doc.dump().substr(0, 200);
    const std::uint64_t ios = total_ios(doc["jobs"][0], "read");
    EXPECT_GE(ios, before);
    EXPECT_GT(ios, 0u);
    before = ios;
  }
}

TEST(StatusInterval, JsonPrintsOneCompleteDocumentPerIntervalThenTheFinalOne) {
  const RunOutput r = run_binary([] {
    std::vector<std::string> args = periodic_job("json");
    args.insert(args.begin(), "run");
    return args;
  }());
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const std::vector<json> documents = documents_of(r.out);
  // Reports at about 0.97, 1.97 and 2.97 s, then the final one (fio: 0.9, 1.9, 2.9 s and the final one). A
  // machine too busy to run the reporting thread before the job ends loses the last interval's report, never
  // more.
  EXPECT_GE(documents.size(), 3u);
  EXPECT_LE(documents.size(), 4u);
  expect_cumulative(documents);
  EXPECT_TRUE(documents.back().contains("sluice"));
  if (!std::filesystem::exists("/usr/bin/fio")) GTEST_SKIP() << "fio is not installed: not compared with fio's count";
  RunOptions fio;
  fio.program = "/usr/bin/fio";
  const RunOutput theirs = run_binary(periodic_job("json"), fio);
  ASSERT_EQ(theirs.exit_code, 0) << describe(theirs);
  const std::vector<json> fio_documents = documents_of(theirs.out);
  EXPECT_GE(fio_documents.size(), 3u);
  EXPECT_LE(fio_documents.size(), 4u);
  EXPECT_LE(documents.size() > fio_documents.size() ? documents.size() - fio_documents.size()
                                                    : fio_documents.size() - documents.size(),
            1u)
      << "sluice " << documents.size() << " documents, fio " << fio_documents.size();
}

TEST(StatusInterval, OutputFileHoldsEveryReportAndStdoutNothing) {
  TempDir dir;
  const std::string path = dir.file("report.json");
  std::ofstream(path) << "left over from before\n";  // replaced, not appended to
  std::vector<std::string> args = periodic_job("json");
  args.insert(args.begin(), "run");
  args.push_back("--output=" + path);
  const RunOutput r = run_binary(args);
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_EQ(r.out, "");
  std::ifstream in(path);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::vector<json> documents = documents_of(text);
  EXPECT_GE(documents.size(), 3u);
  expect_cumulative(documents);
}

TEST(StatusInterval, NormalAndTerseRepeatEveryInterval) {
  std::vector<std::string> args = periodic_job("normal,terse");
  args.insert(args.begin(), "run");
  const RunOutput r = run_binary(args);
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  std::size_t sections = 0;
  std::size_t terse = 0;
  std::istringstream in(r.out);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("n: (groupid=0", 0) == 0) ++sections;
    if (line.rfind("3;sluice-", 0) == 0) ++terse;
  }
  EXPECT_GE(sections, 3u) << r.out.substr(0, 2000);
  EXPECT_EQ(sections, terse);
}

// Each periodic report holds the ios completed up to its time, also when the job's worker sleeps through the
// moment (a rate of 4 ios a second: ios at 0, 0.25, 0.5 ... s, reports at about 0.97, 1.97, 2.97 s). The
// reporting thread asks each worker for its result and waits for the answer, which a sleeping worker gives at
// once; before, the workers published on their own schedule after an io completed, and a worker sleeping for
// its rate published only at its next io, after the report had taken the interval before (the first report
// had no I/O, the second the first's 4 or 5 ios). A report late by up to 250 ms may hold one io more.
TEST(StatusInterval, EachReportHoldsTheIosCompletedUpToItsTime) {
  const RunOutput r = run_binary({"run", "--name=slow", "--ioengine=null", "--size=1g", "--time_based", "--runtime=3",
                                  "--rw=read", "--rate_iops=4", "--status-interval=1", "--output-format=json"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const std::vector<json> documents = documents_of(r.out);
  ASSERT_GE(documents.size(), 3u) << r.out;
  for (std::size_t k = 1; k < documents.size() && k <= 3; ++k) {  // the periodic ones, not the final one
    const std::uint64_t ios = total_ios(documents[k - 1]["jobs"][0], "read");
    EXPECT_GE(ios, 4 * k) << "report " << k;
    EXPECT_LE(ios, 4 * k + 1) << "report " << k;
  }
}

}  // namespace
}  // namespace sluice::testing
