// End-to-end: every measuring command's result through the history database and back (tiny runs, the null
// engine where the command takes one), --repeat, two sluice processes saving at once, and the refusals
// (newer schema, corrupt, locked, read-only database; unknown id), each one line with exit 1 and the file
// unchanged.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "support/it_test_util.h"
#include "support/temp_dir.h"

namespace sluice::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using namespace std::chrono_literals;

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<std::string> null_run(const std::string& db, std::initializer_list<std::string> more = {}) {
  std::vector<std::string> args = {"run",           "--name=a",    "--ioengine=null", "--size=4m",
                                   "--rw=randread", "--no-status", "--db=" + db};
  args.insert(args.end(), more);
  return args;
}

// `sluice history export ID` parsed.
nlohmann::json exported(const std::string& db, const std::string& id) {
  const RunOutput r = run_binary({"history", "export", id, "--db=" + db});
  EXPECT_EQ(r.exit_code, 0) << describe(r);
  return parse_document(r.out).value_or(nlohmann::json::object());
}

void expect_one_line_error(const RunOutput& r, const std::string& what) {
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_THAT(r.err, HasSubstr(what));
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

TEST(HistoryCli, RunRoundTripKeepsDocumentCommandLineAndEnvironment) {
  TempDir dir;
  const std::string db = dir.file("h/history.db");
  const RunOutput r = run_binary(null_run(db, {"--label=before", "--output-format=json"}));
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_THAT(r.err, HasSubstr("saved as "));
  const auto printed = parse_document(r.out);
  ASSERT_TRUE(printed);
  const nlohmann::json e = exported(db, "before");
  EXPECT_EQ(e["label"], "before");
  EXPECT_EQ(e["command"], "run");
  EXPECT_THAT(e["command_line"].get<std::string>(), HasSubstr("sluice run --name=a --ioengine=null"));
  EXPECT_EQ(e["job_text"], "--name=a --ioengine=null --size=4m --rw=randread");
  EXPECT_FALSE(e["host"].get<std::string>().empty());
  ASSERT_EQ(e["repetitions"].size(), 1u);
  EXPECT_EQ(e["repetitions"][0], *printed);  // the whole printed document, environment included
  EXPECT_TRUE(e["repetitions"][0]["sluice"].contains("environment"));
}

TEST(HistoryCli, JobFileTextIsStoredAndPartOfTheComparabilityKey) {
  TempDir dir;
  const std::string db = dir.file("history.db");
  const std::string job = "[a]\nioengine=null\nsize=1m\nrw=randread\n";
  std::ofstream(dir.file("a.fio")) << job;
  const RunOutput r = run_binary({"run", "--no-status", "--label=file", "--db=" + db, dir.file("a.fio")});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const nlohmann::json e = exported(db, "file");
  EXPECT_EQ(e["job_text"], dir.file("a.fio") + "\n" + job);
  EXPECT_THAT(e["command_line"].get<std::string>(), HasSubstr("a.fio"));
}

TEST(HistoryCli, RepeatKeepsEveryRepetitionAndPrintsTheSpread) {
  TempDir dir;
  const std::string db = dir.file("history.db");
  const RunOutput r = run_binary(null_run(db, {"--repeat=3"}));
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_THAT(r.out, HasSubstr("Repetition 3 of 3"));
  EXPECT_THAT(r.out, HasSubstr("Spread over 3 repetitions"));
  EXPECT_THAT(r.out, HasSubstr("a: read IOPS"));
  EXPECT_THAT(r.out, HasSubstr("a: read p99 latency (us)"));
  const RunOutput list = run_binary({"history", "list", "--db=" + db, "--output-format=json"});
  ASSERT_EQ(list.exit_code, 0) << describe(list);
  const auto rows = parse_document(list.out);
  ASSERT_TRUE(rows && rows->size() == 1u);
  EXPECT_EQ((*rows)[0]["repetition_count"], 3);
  EXPECT_EQ(exported(db, (*rows)[0]["id"])["repetitions"].size(), 3u);
}

TEST(HistoryCli, RepeatWithJsonPrintsOneDocumentWithTheSpread) {
  TempDir dir;
  const RunOutput r = run_binary({"run", "--name=a", "--ioengine=null", "--size=1m", "--rw=randwrite", "--no-status",
                                  "--repeat=2", "--output-format=json"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const auto doc = parse_document(r.out);
  ASSERT_TRUE(doc);
  const nlohmann::json& repeat = (*doc)["sluice"]["repeat"];
  EXPECT_EQ(repeat["count"], 2);
  EXPECT_EQ(repeat["earlier"].size(), 1u);
  ASSERT_EQ(repeat["spread"].size(), 4u);
  EXPECT_EQ(repeat["spread"][0]["metric"], "write.iops");
  EXPECT_LE(repeat["spread"][0]["min"].get<double>(), repeat["spread"][0]["max"].get<double>());
}

TEST(HistoryCli, EveryMeasuringCommandRoundTrips) {
  TempDir dir;
  const std::string db = dir.file("history.db");
  const std::vector<std::vector<std::string>> commands = {
      {"capacity", "--ioengine=null", "--size=1m", "--budget=1s", "--max-concurrency=4", "--no-status"},
      {"precondition", "--filename=" + dir.file("p"), "--size=2m", "--passes=1", "--no-status"},
      {"quick", "--budget=5s", "--size=16m", "--no-status", dir.path()},
  };
  for (std::vector<std::string> args : commands) {
    args.push_back("--label=" + args.front());
    args.push_back("--db=" + db);
    args.push_back("--output-format=json");
    RunOptions options;
    options.timeout = 40000ms;
    const RunOutput r = run_binary(args, options);
    ASSERT_EQ(r.exit_code, 0) << args.front() << ": " << describe(r);
    const auto printed = parse_document(r.out);
    ASSERT_TRUE(printed);
    const nlohmann::json e = exported(db, args.front());
    EXPECT_EQ(e["command"], args.front());
    ASSERT_EQ(e["repetitions"].size(), 1u);
    EXPECT_EQ(e["repetitions"][0], *printed) << args.front();
  }
}

// The classic suites go through the same helper: what they print as JSON is what is stored, every repetition.
TEST(HistoryCli, ClassicSuitesRoundTripWithRepetitions) {
  TempDir dir;
  const std::string db = dir.file("history.db");
  std::filesystem::create_directories(dir.file("sb"));
  std::filesystem::create_directories(dir.file("pm"));
  std::filesystem::create_directories(dir.file("ft"));
  const std::vector<std::string> sysbench = {"sysbench", "fileio", "--file-num=2", "--file-total-size=2M",
                                             "--dir=" + dir.file("sb")};
  std::vector<std::string> prepare = sysbench;
  prepare.push_back("prepare");
  ASSERT_EQ(run_binary(prepare).exit_code, 0);
  std::vector<std::string> sysbench_run = sysbench;
  for (const char* a : {"--file-test-mode=rndrd", "--time=0", "--events=200", "run"}) sysbench_run.push_back(a);
  const std::vector<std::vector<std::string>> commands = {
      sysbench_run,
      {"postmark", "--set=location=" + dir.file("pm"), "--set=number=50", "--set=transactions=100"},
      {"filetree", dir.file("ft"), "--size=1m", "--drop-caches=off"},
  };
  for (std::vector<std::string> args : commands) {
    args.push_back("--label=" + args.front());
    args.push_back("--db=" + db);
    args.push_back("--repeat=2");
    args.push_back("--output-format=json");
    RunOptions options;
    options.timeout = 40000ms;
    const RunOutput r = run_binary(args, options);
    ASSERT_EQ(r.exit_code, 0) << args.front() << ": " << describe(r);
    const auto printed = parse_document(r.out);
    ASSERT_TRUE(printed) << r.out;
    const nlohmann::json e = exported(db, args.front());
    EXPECT_EQ(e["command"], args.front());
    ASSERT_EQ(e["repetitions"].size(), 2u) << args.front();
    nlohmann::json last = *printed;
    last["sluice"].erase("repeat");  // the printed document carries the spread; the stored ones are plain
    EXPECT_EQ(e["repetitions"][1], last) << args.front();
  }
}

TEST(HistoryCli, InterfereRoundTrips) {
  TempDir dir;
  std::filesystem::create_directories(dir.file("work"));
  const std::string db = dir.file("history.db");
  RunOptions options;
  options.timeout = 40000ms;
  options.environment = {{"SLUICE_KNOB_ROOT", dir.file("knobs")}};
  const RunOutput r = run_binary({"interfere", "--filename=" + dir.file("work/fg"), "--size=8m", "--threads=1",
                                  "--budget=2s", "--bg-size=8m", "--output-format=json", "--save", "--db=" + db},
                                 options);
  if (r.exit_code != 0 && r.err.find("block device") != std::string::npos) GTEST_SKIP() << r.err;
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const auto printed = parse_document(r.out);
  ASSERT_TRUE(printed);
  const RunOutput list = run_binary({"history", "list", "--db=" + db, "--command=interfere", "--output-format=json"});
  const auto rows = parse_document(list.out);
  ASSERT_TRUE(rows && rows->size() == 1u) << list.out;
  EXPECT_EQ(exported(db, (*rows)[0]["id"])["repetitions"][0], *printed);
}

TEST(HistoryCli, TwoSluiceProcessesSavingAtOnceBothSucceed) {
  TempDir dir;
  const std::string db = dir.file("history.db");
  RunOutput first, second;
  std::thread a([&] { first = run_binary(null_run(db, {"--label=one", "--repeat=3"})); });
  std::thread b([&] { second = run_binary(null_run(db, {"--label=two", "--repeat=3"})); });
  a.join();
  b.join();
  ASSERT_EQ(first.exit_code, 0) << describe(first);
  ASSERT_EQ(second.exit_code, 0) << describe(second);
  EXPECT_EQ(exported(db, "one")["repetitions"].size(), 3u);
  EXPECT_EQ(exported(db, "two")["repetitions"].size(), 3u);
}

TEST(HistoryCli, ListShowTrendAndDelete) {
  TempDir dir;
  const std::string db = dir.file("history.db");
  for (const char* label : {"before", "after"})
    ASSERT_EQ(run_binary(null_run(db, {std::string("--label=") + label})).exit_code, 0);
  ASSERT_EQ(run_binary(null_run(db, {"--bs=8k", "--label=other"})).exit_code, 0);  // not comparable
  const RunOutput list = run_binary({"history", "--db=" + db, "--label=before"});
  ASSERT_EQ(list.exit_code, 0) << describe(list);
  EXPECT_THAT(list.out, HasSubstr("before"));
  EXPECT_THAT(list.out, Not(HasSubstr("after")));
  const RunOutput show = run_binary({"history", "show", "after", "--db=" + db});
  ASSERT_EQ(show.exit_code, 0) << describe(show);
  EXPECT_THAT(show.out, HasSubstr("command line:  sluice run --name=a"));
  EXPECT_THAT(show.out, HasSubstr("a: read IOPS"));
  const RunOutput trend =
      run_binary({"history", "trend", "read.lat_ns.p99", "--like=after", "--db=" + db, "--output-format=json"});
  ASSERT_EQ(trend.exit_code, 0) << describe(trend);
  const auto doc = parse_document(trend.out);
  ASSERT_TRUE(doc);
  const nlohmann::json& points = (*doc)["sluice"]["history"]["trend"]["points"];
  ASSERT_EQ(points.size(), 2u);  // before and after, not "other"
  EXPECT_EQ(points[0]["label"], "before");
  EXPECT_GT(points[1]["median"].get<double>(), 0.0);
  const RunOutput del = run_binary({"history", "delete", "before", "--db=" + db});
  ASSERT_EQ(del.exit_code, 0) << describe(del);
  expect_one_line_error(run_binary({"history", "show", "before", "--db=" + db}),
                        "no result with the id or label 'before'");
}

// A run whose job fails (here: max_latency exceeded at the first io) keeps what it measured: it is printed,
// saved with sluice.exit_code, marked FAILED by `history`, and named in `compare`'s caveats.
TEST(HistoryCli, AFailedRunIsSavedMarkedAndNamedByCompare) {
  TempDir dir;
  const std::string db = dir.file("history.db");
  ASSERT_EQ(run_binary(null_run(db, {"--label=good"})).exit_code, 0);
  const RunOutput failed = run_binary(null_run(db, {"--label=bad", "--max_latency=1ns", "--output-format=json"}));
  ASSERT_EQ(failed.exit_code, 1) << describe(failed);
  EXPECT_THAT(failed.err, HasSubstr("exceeds specified max"));
  EXPECT_THAT(failed.err, HasSubstr("saved as "));
  EXPECT_THAT(failed.err, HasSubstr("(FAILED: repetition 1 of 1 ended with exit code 1; saved with what it measured)"));
  const auto printed = parse_document(failed.out);
  ASSERT_TRUE(printed);
  EXPECT_FALSE((*printed)["sluice"].contains("exit_code")) << "the printed document is fio's and sluice's as ever";

  const nlohmann::json e = exported(db, "bad");
  ASSERT_EQ(e["repetitions"].size(), 1u);
  EXPECT_EQ(e["repetitions"][0]["sluice"]["exit_code"], 1);
  EXPECT_EQ(e["repetitions"][0]["jobs"][0]["error"], (*printed)["jobs"][0]["error"]);
  EXPECT_FALSE(exported(db, "good")["repetitions"][0]["sluice"].contains("exit_code"));

  const RunOutput list = run_binary({"history", "--db=" + db});
  ASSERT_EQ(list.exit_code, 0) << describe(list);
  EXPECT_THAT(list.out, HasSubstr("[FAILED: exit code 1]"));
  EXPECT_EQ(std::count(list.out.begin(), list.out.end(), '['), 1) << list.out;  // the good run is not marked
  const RunOutput show = run_binary({"history", "show", "bad", "--db=" + db});
  EXPECT_THAT(show.out, HasSubstr("outcome:       FAILED (exit code 1)"));

  const RunOutput compared = run_binary({"compare", "good", "bad", "--force", "--db=" + db});
  ASSERT_EQ(compared.exit_code, 0) << describe(compared);
  EXPECT_THAT(compared.out, HasSubstr("caveat: new bad ("));
  EXPECT_THAT(compared.out, HasSubstr("): ended with exit code 1 (saved after a failure)"));
  const RunOutput as_json = run_binary({"compare", "good", "bad", "--force", "--db=" + db, "--output-format=json"});
  const auto doc = parse_document(as_json.out);
  ASSERT_TRUE(doc);
  EXPECT_EQ((*doc)["sluice"]["compare"]["comparisons"][0]["caveats"].size(), 1u);
}

TEST(HistoryCli, NewerSchemaIsRefusedBeforeMeasuringAndNotChanged) {
  TempDir dir;
  const std::string db = dir.file("history.db");
  ASSERT_EQ(run_binary(null_run(db)).exit_code, 0);
  sqlite3* raw = nullptr;
  ASSERT_EQ(sqlite3_open(db.c_str(), &raw), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(raw, "PRAGMA journal_mode=DELETE; PRAGMA user_version=7", nullptr, nullptr, nullptr),
            SQLITE_OK);
  sqlite3_close(raw);
  const std::string before = slurp(db);
  const RunOutput r = run_binary(null_run(db));
  expect_one_line_error(r, "newer than this sluice's");
  EXPECT_EQ(r.out, "");  // refused before anything was measured
  expect_one_line_error(run_binary({"history", "list", "--db=" + db}), "newer than this sluice's");
  EXPECT_EQ(slurp(db), before);
}

TEST(HistoryCli, CorruptAndMissingDatabasesGetOneLine) {
  TempDir dir;
  const std::string db = dir.file("history.db");
  std::ofstream(db) << "this is not a database, it is a text file that happens to be here\n";
  const std::string before = slurp(db);
  expect_one_line_error(run_binary(null_run(db)), "not a sluice history database");
  expect_one_line_error(run_binary({"history", "--db=" + db}), "not a sluice history database");
  EXPECT_EQ(slurp(db), before);
  expect_one_line_error(run_binary({"history", "--db=" + dir.file("none.db")}), "no history database there yet");
  EXPECT_FALSE(std::filesystem::exists(dir.file("none.db")));
}

TEST(HistoryCli, LockedDatabaseGetsOneLine) {
  TempDir dir;
  const std::string db = dir.file("history.db");
  ASSERT_EQ(run_binary(null_run(db)).exit_code, 0);
  sqlite3* holder = nullptr;
  ASSERT_EQ(sqlite3_open(db.c_str(), &holder), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(holder, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr), SQLITE_OK);
  RunOptions options;
  options.environment = {{"SLUICE_DB_BUSY_MS", "200"}};
  expect_one_line_error(run_binary(null_run(db, {"--label=blocked"}), options), "locked by another process");
  sqlite3_exec(holder, "ROLLBACK", nullptr, nullptr, nullptr);
  sqlite3_close(holder);
  expect_one_line_error(run_binary({"history", "show", "blocked", "--db=" + db}), "no result");
}

// Root writes read-only files, so as root sluice runs as nobody (setpriv) on a database it does not own.
TEST(HistoryCli, ReadOnlyDatabaseGetsOneLineAndStaysReadable) {
  TempDir dir;
  const std::string db = dir.file("history.db");
  ASSERT_EQ(run_binary(null_run(db, {"--label=kept"})).exit_code, 0);
  std::filesystem::permissions(db, std::filesystem::perms::owner_read | std::filesystem::perms::group_read |
                                       std::filesystem::perms::others_read);
  RunOptions options;
  std::vector<std::string> prefix;
  if (is_root()) {
    if (::access("/usr/bin/setpriv", X_OK) != 0) GTEST_SKIP() << "as root the test needs setpriv (util-linux)";
    std::filesystem::permissions(dir.path(), std::filesystem::perms::owner_all | std::filesystem::perms::group_read |
                                                 std::filesystem::perms::group_exec |
                                                 std::filesystem::perms::others_read |
                                                 std::filesystem::perms::others_exec);
    options.program = "/usr/bin/setpriv";
    prefix = {"--reuid=65534", "--regid=65534", "--clear-groups", SLUICE_BINARY};
  }
  auto as_reader = [&](std::vector<std::string> args) {
    args.insert(args.begin(), prefix.begin(), prefix.end());
    return run_binary(args, options);
  };
  const std::string before = slurp(db);
  expect_one_line_error(as_reader(null_run(db)), "the history database is read-only");
  expect_one_line_error(as_reader({"history", "delete", "kept", "--db=" + db}), "cannot write the history database");
  const RunOutput show = as_reader({"history", "show", "kept", "--db=" + db});
  EXPECT_EQ(show.exit_code, 0) << describe(show);
  EXPECT_THAT(show.out, HasSubstr("label kept"));
  EXPECT_EQ(slurp(db), before);
}

TEST(HistoryCli, BadArgumentsAreNamed) {
  expect_one_line_error(run_binary({"history", "shwo", "x"}), "did you mean 'show'");
  expect_one_line_error(run_binary({"history", "trend"}), "needs a METRIC");
  expect_one_line_error(run_binary({"history", "--since=yesterday"}), "--since=yesterday: not an ISO 8601 UTC date");
  expect_one_line_error(run_binary({"run", "--repeat=0", "--name=a", "--ioengine=null", "--size=1m"}), "--repeat=0");
  expect_one_line_error(run_binary({"quick", "--repeat=0"}), "--repeat=0");
}

}  // namespace
}  // namespace sluice::testing
