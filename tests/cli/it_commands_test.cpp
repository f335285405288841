// Every registered command through the binary: --help exits 0 and lists its options; an unknown option
// exits non-zero with a message naming it; an unknown command suggests the nearest.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "cli/command_registry.h"
#include "support/it_test_util.h"
#include "support/temp_dir.h"

namespace sluice::testing {
namespace {

using ::testing::HasSubstr;

TEST(CliCommands, HelpOfEveryCommandExitsZeroAndListsItsOptions) {
  for (const CommandEntry& e : command_registry()) {
    const RunOutput r = run_binary({e.name, "--help"});
    ASSERT_EQ(r.exit_code, 0) << e.name << ": " << describe(r);
    EXPECT_THAT(r.out, HasSubstr("usage: sluice " + e.name)) << e.name;
    if (e.info == nullptr) continue;
    for (const OptionInfo& o : e.info->options) EXPECT_THAT(r.out, HasSubstr("--" + o.name)) << e.name;
  }
}

TEST(CliCommands, HelpCommandShowsEachCommandsHelp) {
  for (const CommandEntry& e : command_registry()) {
    const RunOutput r = run_binary({"help", e.name});
    ASSERT_EQ(r.exit_code, 0) << e.name << ": " << describe(r);
    EXPECT_THAT(r.out, HasSubstr("usage: sluice " + e.name)) << e.name;
  }
}

TEST(CliCommands, UnknownOptionOfEveryCommandIsNamed) {
  for (const CommandEntry& e : command_registry()) {
    const RunOutput r = run_binary({e.name, "--no-such-option-here=1"});
    EXPECT_NE(r.exit_code, 0) << e.name << ": " << describe(r);
    EXPECT_THAT(r.err, HasSubstr("--no-such-option-here")) << e.name;
    EXPECT_EQ(r.out, "") << e.name;
  }
}

TEST(CliCommands, UnknownCommandSuggestsTheNearest) {
  const RunOutput r = run_binary({"capacty"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr("unknown command 'capacty'; did you mean 'capacity'? (commands:"));
}

TEST(CliCommands, BareDurationIsRefusedWithTheUnitHint) {
  const std::pair<const char*, const char*> kCases[] = {
      {"quick", "--slo=10"}, {"capacity", "--slo=10"}, {"interfere", "--budget=10"}, {"precondition", "--round=10"}};
  for (const auto& [command, arg] : kCases) {
    const RunOutput r = run_binary({command, arg});
    EXPECT_EQ(r.exit_code, 1) << command << ": " << describe(r);
    EXPECT_THAT(r.err, HasSubstr(std::string(arg) + ": add a unit, e.g. 10ms")) << command;
  }
}

// --output-format=json+ and --output reach a command other than run and capacity the same way.
TEST(CliCommands, PreconditionWritesJsonPlusToTheOutputFile) {
  TempDir dir;
  const std::string out = dir.file("out.json");
  const RunOutput r = run_binary({"precondition", "--filename=" + dir.file("f"), "--size=4m", "--passes=1",
                                  "--no-status", "--output-format", "json+", "--output", out});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_EQ(r.out, "");
  std::ifstream in(out);
  std::stringstream text;
  text << in.rdbuf();
  const auto doc = parse_document(text.str());
  ASSERT_TRUE(doc) << text.str().substr(0, 400);
  EXPECT_TRUE((*doc)["sluice"].contains("precondition"));
  ASSERT_FALSE((*doc)["jobs"].empty());
  EXPECT_TRUE((*doc)["jobs"][0]["write"]["clat_ns"].contains("bins")) << "json+ without histogram bins";
}

}  // namespace
}  // namespace sluice::testing
