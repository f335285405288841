// The command framework's typed choice (choice_arg<T> of cli/command_options.h): the apply gets the value the
// word stands for, whatever the order of the words and of the enum.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "cli/command_options.h"
#include "cli/command_table.h"
#include "common/error.h"

namespace sluice {
namespace {

using ::testing::HasSubstr;

// Listed in an order that is not the enum's, so a value taken by list position would be wrong.
enum class Pace { kSlow, kSteady, kFast };

struct PaceArgs {
  Pace pace = Pace::kSteady;
  bool loud = false;
};

const CommandTable<PaceArgs>& pace_table() {
  static const CommandTable<PaceArgs> table = [] {
    CommandTable<PaceArgs> t(command_info("pace", "a test command", "Tests typed choices.\n"));
    t.add(choice_arg<Pace>("pace", {{"fast", Pace::kFast}, {"slow", Pace::kSlow}, {"steady", Pace::kSteady}}, "steady",
                           "how fast"),
          [](PaceArgs& a, Pace pace) { a.pace = pace; });
    t.add(choice_arg<bool>("loud", {{"on", true}, {"off", false}, {"yes", true}, {"no", false}}, "off", "how loud"),
          [](PaceArgs& a, bool loud) { a.loud = loud; });
    return t;
  }();
  return table;
}

PaceArgs parse_pace(const std::vector<std::string>& args) {
  PaceArgs out;
  pace_table().apply(parse_arguments(pace_table().info(), args), out, nullptr);
  return out;
}

TEST(TypedChoice, TheValueIsTheOneTheWordStandsFor) {
  EXPECT_EQ(parse_pace({"--pace=fast"}).pace, Pace::kFast);
  EXPECT_EQ(parse_pace({"--pace=slow"}).pace, Pace::kSlow);
  EXPECT_EQ(parse_pace({"--pace", "steady"}).pace, Pace::kSteady);
}

TEST(TypedChoice, SeveralWordsMayStandForOneValue) {
  EXPECT_TRUE(parse_pace({"--loud=yes"}).loud);
  EXPECT_TRUE(parse_pace({"--loud=on"}).loud);
  EXPECT_FALSE(parse_pace({"--loud=on", "--loud=no"}).loud);
}

TEST(TypedChoice, ABadWordIsRefusedWithTheNearest) {
  try {
    parse_pace({"--pace=fats"});
    FAIL() << "no error";
  } catch (const UserError& e) {
    EXPECT_THAT(e.what(), HasSubstr("--pace=fats: not one of fast, slow, steady; did you mean fast?"));
  }
}

TEST(TypedChoice, HelpListsTheWordsInTheirOrderAndTheDefault) {
  const std::string help = render_command_help(pace_table().info());
  EXPECT_THAT(help, HasSubstr("--pace=WORD"));
  EXPECT_THAT(help, HasSubstr("how fast (fast|slow|steady; default steady)"));
  EXPECT_THAT(help, HasSubstr("how loud (on|off|yes|no; default off)"));
}

}  // namespace
}  // namespace sluice
