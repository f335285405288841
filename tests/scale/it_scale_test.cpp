// End to end: build/sluice scale on a generated C project built with make -j{N}, on failing commands and on
// commands refused before anything runs.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "support/it_test_util.h"
#include "support/temp_dir.h"

namespace sluice::testing {
namespace {

// A small C project: four sources and a Makefile with an object per source.
void write_project(const std::string& dir) {
  std::filesystem::create_directories(dir);
  std::string objects;
  for (int i = 0; i < 4; ++i) {
    std::ofstream(dir + "/f" + std::to_string(i) + ".c")
        << "int f" << i << "(int x) { int s = 0; for (int k = 0; k < x; ++k) s += k * " << i + 1 << "; return s; }\n";
    objects += " f" + std::to_string(i) + ".o";
  }
  std::ofstream(dir + "/main.c") << "int f0(int);\nint main(void) { return f0(3) == 3 ? 0 : 1; }\n";
  std::ofstream(dir + "/Makefile") << "prog: main.o" << objects << "\n\t$(CC) -o $@ $^\n%.o: %.c\n\t$(CC) -O1 -c $<\n"
                                   << "clean:\n\trm -f *.o prog\n";
}

TEST(ScaleCli, MakeProjectAtOneAndTwoJobs) {
  TempDir tmp;
  const std::string project = tmp.file("project");
  write_project(project);
  // Two builds with the C compiler: a few seconds on a busy machine (load 10 on 2 cores), not the default 20 s
  // bound's fraction; nothing here is timed, so the bound is only there to end a hang.
  RunOptions options;
  options.timeout = std::chrono::seconds(120);
  const RunOutput r =
      run_binary({"scale", "--values=1,2", "--log=" + tmp.file("log"), "--prepare=make -C " + project + " clean",
                  "--output-format=json", "--", "make", "-C", project, "-j{N}"},
                 options);
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const auto doc = parse_document(r.out);
  ASSERT_TRUE(doc);
  const nlohmann::json& scale = (*doc)["sluice"]["scale"];
  ASSERT_EQ(scale["rows"].size(), 2u);
  EXPECT_EQ(scale["rows"][0]["n"], 1);
  EXPECT_EQ(scale["rows"][1]["n"], 2);
  EXPECT_DOUBLE_EQ(scale["rows"][0]["speedup"].get<double>(), 1.0);
  EXPECT_GT(scale["rows"][1]["wall_s"]["mean"].get<double>(), 0.0);
  // The compilers are make's children: their CPU time reaches make's rusage.
  EXPECT_GT(scale["rows"][0]["cpu_user_s"].get<double>() + scale["rows"][0]["cpu_sys_s"].get<double>(), 0.0);
  EXPECT_TRUE(scale["failure"].is_null());
  EXPECT_TRUE((*doc)["sluice"]["environment"]["virtualization"].contains("kind"));
  EXPECT_TRUE(std::filesystem::exists(project + "/prog"));
  std::ifstream log(tmp.file("log"));
  const std::string text((std::istreambuf_iterator<char>(log)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("-j2"), std::string::npos);
  EXPECT_NE(text.find("f3.c"), std::string::npos);
}

TEST(ScaleCli, AFailingRunIsReportedWithItsExitStatusAndStopsTheSeries) {
  TempDir tmp;
  // N=1 succeeds, N=2 exits with 3, N=4 never runs.
  const RunOutput r = run_binary(
      {"scale", "--values=1,2,4", "--log=" + tmp.file("log"), "--", "sh", "-c", "test $0 -lt 2 || exit 3", "{N}"});
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_NE(r.out.find("stopped: N=2 run 1"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("exit status 3"), std::string::npos) << r.out;
  const RunOutput j = run_binary({"scale", "--values=1,2,4", "--log=" + tmp.file("log"), "--output-format=json", "--",
                                  "sh", "-c", "test $0 -lt 2 || exit 3", "{N}"});
  const auto doc = parse_document(j.out);
  ASSERT_TRUE(doc);
  EXPECT_EQ((*doc)["sluice"]["scale"]["rows"].size(), 1u);
  EXPECT_EQ((*doc)["sluice"]["scale"]["failure"]["exit_status"], 3);
  EXPECT_EQ((*doc)["sluice"]["scale"]["failure"]["n"], 2);
}

TEST(ScaleCli, ATimeoutKillsTheRun) {
  TempDir tmp;
  // Killed at 200 ms, not after the command's 60 s; the bound leaves a busy machine time to start sluice.
  RunOptions options;
  options.timeout = std::chrono::seconds(90);
  const RunOutput r = run_binary(
      {"scale", "--values=1", "--timeout=200ms", "--log=" + tmp.file("log"), "--shell", "--", "sleep 60; echo {N}"},
      options);
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_NE(r.out.find("timed out"), std::string::npos) << r.out;
  EXPECT_LT(r.elapsed.count(), 30000) << describe(r);
}

TEST(ScaleCli, RefusesBeforeRunningWithoutPlaceholderOrProgram) {
  TempDir tmp;
  RunOutput r = run_binary({"scale", "--log=" + tmp.file("log"), "--", "sluice-no-such-program", "-j{N}"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("command not found"), std::string::npos) << r.err;
  r = run_binary({"scale", "--log=" + tmp.file("log"), "--", "true"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("no {N}"), std::string::npos) << r.err;
  r = run_binary({"scale", "--log=" + tmp.file("log")});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("no command"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(tmp.file("log")));
}

}  // namespace
}  // namespace sluice::testing
