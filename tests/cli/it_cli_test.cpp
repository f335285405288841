// End-to-end tests of the sluice binary: help and version, JSON output, SIGINT, the live status line
// (sluice quick: it_quick_test.cpp). Jobs are small (null engine or a few MiB in a temporary directory).
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "job/option_table.h"
#include "support/it_test_util.h"
#include "support/temp_dir.h"

namespace sluice::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;
using json = nlohmann::json;

const std::vector<std::string> kNullJob = {"run", "--name=n", "--ioengine=null", "--size=64m", "--rw=randrw"};

std::vector<std::string> with(std::vector<std::string> args, std::initializer_list<std::string> more) {
  args.insert(args.end(), more);
  return args;
}

// The lines of `text` that start (after two spaces) with the option's name: its summary line in --help.
std::string help_line_of(const std::string& text, const std::string& name) {
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("  " + name + " ", 0) == 0 || line.rfind("  " + name + "(", 0) == 0) return line;
  }
  return {};
}

TEST(CliHelp, VersionPrintsNameAndVersion) {
  const RunOutput r = run_binary({"--version"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_THAT(r.out, ::testing::MatchesRegex("sluice [0-9]+\\.[0-9]+\\.[0-9]+.*\n"));
  EXPECT_EQ(r.err, "");
}

TEST(CliHelp, HelpListsTheCommands) {
  const RunOutput r = run_binary({"help"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  for (const char* command : {"quick", "run", "help", "version"}) EXPECT_THAT(r.out, HasSubstr(command));
  EXPECT_EQ(r.err, "");
}

TEST(CliHelp, RunHelpListsEveryOptionWithDefaultAndUnit) {
  const RunOutput r = run_binary({"run", "--help"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  for (const OptionDef& def : option_table()) {
    const std::string line = help_line_of(r.out, def.name);
    ASSERT_FALSE(line.empty()) << "--help does not list option " << def.name;
    if (!def.supported) {
      EXPECT_THAT(line, HasSubstr("not supported")) << def.name;
      continue;
    }
    const std::string default_text = def.default_text.empty() ? "none" : def.default_text;
    EXPECT_THAT(line, HasSubstr("default " + default_text)) << def.name;
    if (!def.unit.empty()) {
      EXPECT_THAT(line, HasSubstr(def.unit)) << def.name;
    }
  }
}

// The text with every run of whitespace (line breaks of the wrapped help) made one space.
std::string one_line(const std::string& text) {
  std::string out;
  for (char c : text) {
    const bool space = c == ' ' || c == '\n' || c == '\t';
    if (space && !out.empty() && out.back() == ' ') continue;
    out += space ? ' ' : c;
  }
  return out;
}

TEST(CliHelp, RunHelpDefinesTheLatencies) {
  const RunOutput r = run_binary({"run", "--help"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const std::string text = one_line(r.out);
  EXPECT_THAT(text, HasSubstr("slat = submit start to submit return"));
  EXPECT_THAT(text, HasSubstr("clat = submit return to completion seen"));
  EXPECT_THAT(text, HasSubstr("lat = operation start to completion seen"));
}

TEST(CliHelp, CmdhelpExplainsOneOption) {
  const RunOutput r = run_binary({"run", "--cmdhelp=bs"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_THAT(r.out, StartsWith("bs:"));
  EXPECT_THAT(r.out, HasSubstr("default:  4k"));
  EXPECT_THAT(r.out, HasSubstr("unit:     bytes"));
  EXPECT_THAT(r.out, HasSubstr("blocksize"));
}

TEST(CliHelp, CmdhelpOfUnknownOptionSuggestsTheNearest) {
  const RunOutput r = run_binary({"run", "--cmdhelp=iodepht"});
  EXPECT_NE(r.exit_code, 0) << describe(r);
  EXPECT_THAT(r.err, HasSubstr("iodepth"));
  EXPECT_EQ(r.out, "");
}

TEST(CliJson, JsonIsOneValidDocument) {
  const RunOutput r = run_binary(with(kNullJob, {"--output-format=json"}));
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const auto doc = parse_document(r.out);
  ASSERT_TRUE(doc);
  ASSERT_EQ((*doc)["jobs"].size(), 1u);
  EXPECT_EQ(total_ios((*doc)["jobs"][0], "read") + total_ios((*doc)["jobs"][0], "write"), 16384u);
  EXPECT_TRUE((*doc)["sluice"]["version"].is_string());
}

TEST(CliJson, JsonPlusIsOneValidDocumentWithBins) {
  const RunOutput r = run_binary(with(kNullJob, {"--output-format=json+"}));
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const auto doc = parse_document(r.out);
  ASSERT_TRUE(doc);
  const json& clat = (*doc)["jobs"][0]["read"]["clat_ns"];
  ASSERT_TRUE(clat.contains("bins")) << clat.dump();
  EXPECT_FALSE(clat["bins"].empty());
}

TEST(CliJson, WarningsGoIntoTheReportAndJsonStaysValid) {
  TempDir dir;
  const RunOutput r = run_binary({"run", "--name=w", "--ioengine=psync", "--iodepth=8", "--filename=" + dir.file("f"),
                                  "--size=2m", "--rw=randread", "--output-format=json"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_EQ(r.err, "");  // stderr carries errors only, as fio's
  EXPECT_THAT(r.out, Not(HasSubstr("sluice: warning")));
  const auto doc = parse_document(r.out);
  ASSERT_TRUE(doc);
  EXPECT_EQ(total_ios((*doc)["jobs"][0], "read"), 512u);
  ASSERT_TRUE((*doc)["sluice"]["warnings"].is_array());
  // One iodepth warning from validation; the methodology lint adds its own (small area, buffered, short).
  std::size_t iodepth_warnings = 0;
  for (const json& w : (*doc)["sluice"]["warnings"]) {
    if (w["option"] != "iodepth") continue;
    ++iodepth_warnings;
    EXPECT_THAT(w["message"].get<std::string>(), HasSubstr("iodepth=8"));
  }
  EXPECT_EQ(iodepth_warnings, 1u);
}

TEST(CliJson, OutputOptionWritesTheFileAndNothingToStdout) {
  TempDir dir;
  const std::string out_path = dir.file("report.json");
  const RunOutput r = run_binary(with(kNullJob, {"--output-format=json", "--output=" + out_path}));
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_EQ(r.out, "");
  std::ifstream in(out_path);
  ASSERT_TRUE(in) << out_path << " was not written";
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto doc = parse_document(text);
  ASSERT_TRUE(doc);
  EXPECT_EQ((*doc)["jobs"][0]["jobname"], "n");
}

TEST(CliJson, NormalPlusJsonPrintsTheTextThenOneDocument) {
  const RunOutput r = run_binary(with(kNullJob, {"--output-format=normal,json"}));
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const std::size_t brace = r.out.find("\n{");
  ASSERT_NE(brace, std::string::npos) << r.out;
  EXPECT_THAT(r.out.substr(0, brace), HasSubstr("n: (groupid=0"));
  EXPECT_TRUE(parse_document(r.out.substr(brace + 1)));
}

// "At once" is timed from the signal, not from the start (a busy machine starts slowly), with a bound far
// below the 30 s a missed stop would take. The signal waits for the status line (forced on the stderr pipe),
// which shows the job is measuring, so ios were counted.
TEST(CliSignal, SigintStopsAtOnceAndPrintsValidInterruptedJson) {
  RunOptions options;
  options.signal_after = std::chrono::milliseconds(500);
  options.signal_when = [](const RunOutput& so_far) { return so_far.err.find("elapsed, eta") != std::string::npos; };
  options.timeout = std::chrono::milliseconds(40000);
  const RunOutput r = run_binary({"run", "--name=s", "--ioengine=null", "--size=1g", "--rw=randread", "--runtime=30",
                                  "--time_based", "--output-format=json", "--eta=always"},
                                 options);
  ASSERT_TRUE(r.signalled) << describe(r);
  EXPECT_LT(r.after_signal, std::chrono::milliseconds(5000)) << describe(r);
  ASSERT_EQ(r.exit_code, 130) << describe(r);
  const auto doc = parse_document(r.out);
  ASSERT_TRUE(doc);
  EXPECT_EQ((*doc)["sluice"]["interrupted"], true);
  EXPECT_EQ((*doc)["sluice"]["jobs"][0]["interrupted"], true);
  EXPECT_GT(total_ios((*doc)["jobs"][0], "read"), 0u);
  EXPECT_GT((*doc)["jobs"][0]["job_runtime"].get<double>(), 0.0);
}

TEST(CliSignal, SigintDuringNormalOutputPrintsTheReport) {
  RunOptions options;
  options.signal_after = std::chrono::milliseconds(300);
  options.timeout = std::chrono::milliseconds(40000);
  const RunOutput r =
      run_binary({"run", "--name=s", "--ioengine=null", "--size=1g", "--runtime=30", "--time_based"}, options);
  ASSERT_TRUE(r.signalled) << describe(r);
  EXPECT_LT(r.after_signal, std::chrono::milliseconds(5000)) << describe(r);
  EXPECT_EQ(r.exit_code, 130) << describe(r);
  EXPECT_THAT(r.out, HasSubstr("s: (groupid=0"));
}

TEST(CliStatus, NoStatusLineWhenStderrIsAPipe) {
  const RunOutput r = run_binary(
      {"run", "--name=s", "--ioengine=null", "--size=1g", "--runtime=1500ms", "--time_based", "--eta-interval=250ms"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_EQ(r.err.find('\r'), std::string::npos) << r.err;
  EXPECT_EQ(r.out.find('\r'), std::string::npos);
  EXPECT_THAT(r.err, Not(HasSubstr("elapsed, eta")));
}

// The counterpart, so the test above can fail: on a terminal the status line does appear.
TEST(CliStatus, StatusLineOnATerminal) {
  RunOptions options;
  options.stderr_to_terminal = true;
  const RunOutput r = run_binary(
      {"run", "--name=s", "--ioengine=null", "--size=1g", "--runtime=1500ms", "--time_based", "--eta-interval=250ms"},
      options);
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_THAT(r.err, HasSubstr("elapsed, eta"));
  EXPECT_THAT(r.out, Not(HasSubstr("elapsed, eta")));
}

// sluice quick's end-to-end tests are in it_quick_test.cpp.

}  // namespace
}  // namespace sluice::testing
