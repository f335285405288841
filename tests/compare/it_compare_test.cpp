// End-to-end tests of `sluice compare`: real runs compared (iodepth 1 against 32, two identical
// configurations), fio's JSON against a sluice run, --fail-on exit codes, and bad input refused in one line.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <string>
#include <vector>

#include "support/it_test_util.h"
#include "support/junit_schema.h"
#include "support/machine_features.h"
#include "support/temp_dir.h"

namespace sluice::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

std::string write_file(const std::string& path, const std::string& text) {
  std::ofstream(path) << text;
  return path;
}

// Runs sluice with `args` and --output-format=json, saving the document as `path`.
void save_run(const std::vector<std::string>& args, const std::string& path) {
  std::vector<std::string> all = args;
  all.push_back("--output-format=json");
  const RunOutput r = run_binary(all);
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  write_file(path, r.out);
}

const nlohmann::json* find_row(const nlohmann::json& doc, const std::string& job, const std::string& dir,
                               const std::string& metric) {
  for (const nlohmann::json& row : doc.at("sluice").at("compare").at("comparisons").at(0).at("rows")) {
    if (row.at("job") == job && row.at("direction") == dir && row.at("metric") == metric) return &row;
  }
  return nullptr;
}

// A random-read job on a file of our own, direct I/O, 300 ms per run.
std::vector<std::string> read_job(const std::string& file, const std::string& iodepth) {
  return {"run",          "--name=qd",     "--filename=" + file,  "--size=16m",           "--rw=randread",
          "--bs=4k",      "--direct=1",    "--ioengine=io_uring", "--iodepth=" + iodepth, "--runtime=300ms",
          "--time_based", "--randrepeat=0"};
}

TEST(CompareIt, IodepthOneAgainstThirtyTwo) {
  TempDir dir;
  const std::string file = dir.file("data");
  std::string qd1, qd32;
  // Alternating runs, 4 per side: the fewest for which the exact test can reach p < 0.05 (2/70 = 0.029).
  for (int i = 0; i < 4; ++i) {
    const std::string a = dir.file("qd1_" + std::to_string(i) + ".json");
    const std::string b = dir.file("qd32_" + std::to_string(i) + ".json");
    save_run(read_job(file, "1"), a);
    save_run(read_job(file, "32"), b);
    qd1 += (i ? "," : "") + a;
    qd32 += (i ? "," : "") + b;
  }
  const RunOutput refused = run_binary({"compare", qd1, qd32});
  EXPECT_EQ(refused.exit_code, 1) << describe(refused);
  EXPECT_THAT(refused.err, HasSubstr("job qd: iodepth (1 -> 32); add --force")) << describe(refused);

  const RunOutput r = run_binary({"compare", "--force", "--output-format=json", qd1, qd32});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const std::optional<nlohmann::json> doc = parse_document(r.out);
  ASSERT_TRUE(doc);
  const nlohmann::json& c = doc->at("sluice").at("compare").at("comparisons").at(0);
  EXPECT_EQ(c.at("old").at("repetitions"), 4);
  EXPECT_TRUE(c.at("environment_recorded").get<bool>());
  const nlohmann::json* iops = find_row(*doc, "qd", "read", "iops");
  const nlohmann::json* mean = find_row(*doc, "qd", "read", "mean");
  ASSERT_TRUE(iops && mean) << r.out;
  EXPECT_EQ(iops->at("verdict"), "better") << iops->dump();
  EXPECT_EQ(mean->at("verdict"), "worse") << mean->dump();
  // IOPS of 300 ms runs are ios / 0.3 s, so two runs can tie (CI saw it); ties take the normal approximation.
  std::vector<double> values = iops->at("old_values").get<std::vector<double>>();
  for (double v : iops->at("new_values").get<std::vector<double>>()) values.push_back(v);
  std::sort(values.begin(), values.end());
  const bool tied = std::adjacent_find(values.begin(), values.end()) != values.end();
  EXPECT_EQ(iops->at("test"), tied ? "mann-whitney-u normal approximation" : "mann-whitney-u exact") << iops->dump();
  EXPECT_LT(iops->at("p").get<double>(), 0.05) << iops->dump();
  EXPECT_EQ(find_row(*doc, "qd", "write", "iops"), nullptr);  // no writes, no rows

  const RunOutput text = run_binary({"compare", "--force", qd1, qd32});
  ASSERT_EQ(text.exit_code, 0) << describe(text);
  EXPECT_THAT(text.out,
              HasSubstr("job options that differ (compared because of --force):\n  job qd: iodepth  1 -> 32"));
  EXPECT_THAT(text.out, HasSubstr("environment: the same in everything both recorded"));
  EXPECT_THAT(text.out, ::testing::ContainsRegex("qd +read +iops .* better"));

  // --fail-on: IOPS rose, so a rule on a fall does not fire; mean latency rose, so a rule on a rise does.
  EXPECT_EQ(run_binary({"compare", "--force", "--fail-on=iops:-5%", qd1, qd32}).exit_code, 0);
  const RunOutput failed = run_binary({"compare", "--force", "--fail-on=mean:+10%", qd1, qd32});
  EXPECT_EQ(failed.exit_code, 1) << describe(failed);
  EXPECT_THAT(failed.out, HasSubstr("fail-on: job qd read mean: +"));
}

TEST(CompareIt, IdenticalConfigurationsAreWithinNoise) {
  TempDir dir;
  const std::string file = dir.file("data");
  std::string a, b;
  // Two identical configurations, alternating, 5 runs each. For identical configurations the test raises a
  // false alarm on a row with probability alpha by construction; --alpha=0.01 (5 and 5 reach p = 0.0079)
  // keeps this test from failing one run in twenty on a quiet machine.
  for (int i = 0; i < 5; ++i) {
    const std::string pa = dir.file("a" + std::to_string(i) + ".json");
    const std::string pb = dir.file("b" + std::to_string(i) + ".json");
    save_run(read_job(file, "8"), pa);
    save_run(read_job(file, "8"), pb);
    a += (i ? "," : "") + pa;
    b += (i ? "," : "") + pb;
  }
  const RunOutput r = run_binary({"compare", "--alpha=0.01", "--output-format=json", a, b});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const std::optional<nlohmann::json> doc = parse_document(r.out);
  ASSERT_TRUE(doc);
  EXPECT_TRUE(doc->at("sluice").at("compare").at("comparisons").at(0).at("job_option_differences").empty());
  const nlohmann::json* iops = find_row(*doc, "qd", "read", "iops");
  ASSERT_NE(iops, nullptr);
  EXPECT_EQ(iops->at("verdict"), "within noise") << iops->dump();
}

TEST(CompareIt, FioResultAgainstSluiceRun) {
  SLUICE_REQUIRE(kFio);
  TempDir dir;
  const std::string file = dir.file("data");
  const std::vector<std::string> job = {"--name=j", "--filename=" + file, "--size=8m",   "--rw=randread",
                                        "--bs=4k",  "--ioengine=psync",   "--runtime=1", "--time_based"};
  std::vector<std::string> fio_args = job;
  fio_args.push_back("--output-format=json");
  RunOptions fio;
  fio.program = "fio";
  const RunOutput f = run_binary(fio_args, fio);
  ASSERT_EQ(f.exit_code, 0) << describe(f);
  const std::string fio_json = write_file(dir.file("fio.json"), f.out);
  std::vector<std::string> sluice_args = job;
  sluice_args.insert(sluice_args.begin(), "run");
  save_run(sluice_args, dir.file("sluice.json"));

  const RunOutput r = run_binary({"compare", "--output-format=json", fio_json, dir.file("sluice.json")});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const std::optional<nlohmann::json> doc = parse_document(r.out);
  ASSERT_TRUE(doc);
  const nlohmann::json& c = doc->at("sluice").at("compare").at("comparisons").at(0);
  EXPECT_FALSE(c.at("environment_recorded").get<bool>());
  EXPECT_TRUE(c.at("job_option_differences").empty()) << c.at("job_option_differences").dump();
  for (const char* metric : {"iops", "bw", "mean", "p50", "p99", "p99.9"}) {
    const nlohmann::json* row = find_row(*doc, "j", "read", metric);
    ASSERT_NE(row, nullptr) << metric;
    EXPECT_GT(row->at("old").get<double>(), 0) << metric;
    EXPECT_GT(row->at("new").get<double>(), 0) << metric;
    EXPECT_EQ(row->at("verdict"), "n/a");
    EXPECT_THAT(row->at("reason").get<std::string>(), HasSubstr("cannot tell: 1 and 1 repetitions"));
  }
}

// A fio-shaped result with one read job of `iops` and latencies scaled to match.
std::string synthetic(double iops) {
  nlohmann::json read = {
      {"total_ios", 1000}, {"iops", iops}, {"bw_bytes", iops * 4096}, {"lat_ns", {{"mean", 1e9 / iops}}}};
  return nlohmann::json{{"fio version", "fio-3.33"}, {"jobs", {{{"jobname", "s"}, {"read", read}}}}}.dump();
}

TEST(CompareIt, FailOnExitCodesAndMoreThanTwoInputs) {
  TempDir dir;
  std::string base, slower, same;
  for (int i = 0; i < 4; ++i) {
    const std::string n = std::to_string(i);
    base += (i ? "," : "") + write_file(dir.file("base" + n), synthetic(1000 + i));
    slower += (i ? "," : "") + write_file(dir.file("slow" + n), synthetic(800 + i));
    same += (i ? "," : "") + write_file(dir.file("same" + n), synthetic(1001.5 + i * 0.5));
  }
  EXPECT_EQ(run_binary({"compare", "--fail-on=iops:-5%", base, same}).exit_code, 0);
  const RunOutput r = run_binary({"compare", "--fail-on=iops:-5%", base, same, slower});
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_THAT(r.out, HasSubstr("fail-on: job s read iops: -20.0% (rule iops:-5%)"));
  EXPECT_THAT(r.out,
              ::testing::ContainsRegex("s +read +iops +1002 IOPS +1002 IOPS +\\+0\\.1% +0\\.[0-9]+ +within noise"));
  EXPECT_THAT(r.out, ::testing::ContainsRegex("s +read +iops +1002 IOPS +802 IOPS +-20\\.0% +0\\.0286 +worse"));
  EXPECT_EQ(run_binary({"compare", "--fail-on=iops:-25%", base, slower}).exit_code, 0);
}

TEST(CompareIt, BadInputIsOneClearLine) {
  TempDir dir;
  const std::string good = write_file(dir.file("good.json"), synthetic(1000));
  const std::string corrupt = write_file(dir.file("corrupt.json"), "{\"jobs\": [");
  const std::string foreign = write_file(dir.file("foreign.json"), "{\"name\": \"x\"}");
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"compare", good, dir.file("missing.json")}, "missing.json: no such file"},
      {{"compare", good, corrupt}, "corrupt.json: not valid JSON"},
      {{"compare", good, foreign}, "foreign.json: not a sluice or fio result"},
      {{"compare", good, "before", "--db=" + dir.file("none.db")}, "before: no such file, and no history database at"},
      {{"compare", good}, "compare needs B"},
      {{"compare", "--alpha=2", good, good}, "--alpha=2: not a number from 0 to 1"},
      {{"compare", "--fail-on=p98:+1%", good, good}, "did you mean p99?"},
  };
  for (const auto& [args, message] : cases) {
    const RunOutput r = run_binary(args);
    EXPECT_EQ(r.exit_code, 1) << describe(r);
    EXPECT_THAT(r.err, HasSubstr(message)) << describe(r);
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << describe(r);
    EXPECT_EQ(r.out, "");
  }
}

// A fio result of one job named `job` with the given read IOPS.
std::string synthetic_named(const std::string& job, double iops) {
  nlohmann::json read = {
      {"total_ios", 1000}, {"iops", iops}, {"bw_bytes", iops * 4096}, {"lat_ns", {{"mean", 1e9 / iops}}}};
  return nlohmann::json{
      {"fio version", "fio-3.33"}, {"timestamp", 1764866400}, {"jobs", {{{"jobname", job}, {"read", read}}}}}
      .dump();
}

// In a pipeline: the same compare as JUnit XML (valid against the schema, a failure on the breach, the exit
// code compare's) and as Markdown, with a job name that is markup in both.
TEST(CompareIt, JunitAndMarkdownForPipelines) {
  TempDir dir;
  const std::string job = "db <\"wal\"> & log|1";
  std::string base, slower;
  for (int i = 0; i < 4; ++i) {
    const std::string n = std::to_string(i);
    base += (i ? "," : "") + write_file(dir.file("base" + n), synthetic_named(job, 1000 + i));
    slower += (i ? "," : "") + write_file(dir.file("slow" + n), synthetic_named(job, 800 + i));
  }
  const RunOutput breach = run_binary({"compare", "--fail-on=iops:-5%", "--output-format=junit", base, slower});
  EXPECT_EQ(breach.exit_code, 1) << describe(breach);
  EXPECT_THAT(breach.out, HasSubstr("<testsuites name=\"sluice compare\" tests=\"3\" failures=\"1\""));
  EXPECT_THAT(breach.out,
              HasSubstr("<testcase classname=\"db &lt;&quot;wal&quot;&gt; &amp; log|1\" name=\"read iops\""));
  EXPECT_THAT(breach.out, HasSubstr("read iops -20.0% breaches --fail-on=iops:-5%: "));
  EXPECT_THAT(breach.out, HasSubstr("timestamp=\"2025-12-04T16:40:00\""));
  ASSERT_NO_FATAL_FAILURE(expect_valid_junit(breach.out));

  const RunOutput clean = run_binary({"compare", "--fail-on=iops:-25%", "--output-format=junit", base, slower});
  EXPECT_EQ(clean.exit_code, 0) << describe(clean);
  EXPECT_THAT(clean.out, HasSubstr("failures=\"0\""));
  EXPECT_THAT(clean.out, Not(HasSubstr("<failure")));
  ASSERT_NO_FATAL_FAILURE(expect_valid_junit(clean.out));

  const RunOutput md = run_binary({"compare", "--fail-on=iops:-5%", "--output-format=markdown", base, slower});
  EXPECT_EQ(md.exit_code, 1) << describe(md);
  EXPECT_THAT(md.out, HasSubstr("**0 better, 3 worse, 0 no clear change** of 3 metrics; :x: 1 --fail-on breach"));
  EXPECT_THAT(md.out, HasSubstr("| db &lt;\"wal\"&gt; &amp; log\\|1 | read iops | 1002 IOPS | 802 IOPS | -20.0% | "
                                "0.0286 | **worse** | :x: iops:-5% |"));
}

// The practitioner's loop: two labelled results saved with --repeat, compared by label from the history.
TEST(CompareIt, ComparesLabelsFromTheHistory) {
  TempDir dir;
  const std::string db = "--db=" + dir.file("h.db");
  for (const char* label : {"--label=before", "--label=after"}) {
    const RunOutput saved = run_binary({"run", "--name=h", "--ioengine=null", "--rw=randread", "--size=64m",
                                        "--io_size=8m", "--repeat=3", label, db, "--output-format=json"});
    ASSERT_EQ(saved.exit_code, 0) << describe(saved);
  }
  const RunOutput r = run_binary({"compare", "before", "after", db});
  EXPECT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_THAT(r.out, HasSubstr("old: before ("));
  EXPECT_THAT(r.out, HasSubstr("(3 repetitions)"));
  EXPECT_THAT(r.out, ::testing::ContainsRegex("h +read +iops"));
  const RunOutput junit = run_binary({"compare", "before", "after", db, "--output-format=junit"});
  EXPECT_EQ(junit.exit_code, 0) << describe(junit);
  EXPECT_THAT(junit.out,
              ::testing::ContainsRegex("<testsuite name=\"after \\([0-9a-f]{8}\\) against before \\([0-9a-f]{8}\\)\""));
  EXPECT_THAT(junit.out, HasSubstr("<skipped message=\"cannot tell: with 3 and 3 repetitions"));
  EXPECT_THAT(junit.out, HasSubstr("<testcase classname=\"h\" name=\"read p99\""));
  ASSERT_NO_FATAL_FAILURE(expect_valid_junit(junit.out));
  const RunOutput unknown = run_binary({"compare", "before", "nothing", db});
  EXPECT_EQ(unknown.exit_code, 1) << describe(unknown);
  EXPECT_THAT(unknown.err, HasSubstr("nothing"));
  EXPECT_EQ(std::count(unknown.err.begin(), unknown.err.end(), '\n'), 1) << describe(unknown);
}

}  // namespace
}  // namespace sluice::testing
