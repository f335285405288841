// The command framework's parser (cli/command_table.h) on a small table with one option of each type.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "cli/command_options.h"
#include "cli/command_table.h"
#include "common/error.h"

namespace sluice {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// One table for the whole test: ParsedArgs points into it.
const CommandInfo& sample() {
  static const CommandInfo table = [] {
    CommandInfo c = command_info("sample", "a test command", "Tests the parser.\n");
    c.positionals = {{"DIR", "a directory", false}};
    c.options.push_back(flag_arg("keep", "keep things"));
    c.options.push_back(duration_arg("budget", "120s", "total time"));
    c.options.push_back(size_arg("size", 1 << 20, "", "a size"));
    c.options.push_back(count_arg("max-concurrency", 1, 64, "8", "highest concurrency"));
    c.options.push_back(choice_arg("output-format", {"normal", "json", "json+"}, "normal", "the format"));
    OptionInfo threads = list_arg("threads", "LIST", ValueType::kUnsigned, "1,10", "thread counts");
    threads.min = 1;
    threads.max = 256;
    c.options.push_back(threads);
    c.options.push_back(text_arg("output", "FILE", "", "the output file"));
    return c;
  }();
  return table;
}

// The message of the UserError that parsing `args` throws; "" when it does not throw.
std::string parse_error_of(const CommandInfo& c, const std::vector<std::string>& args) {
  try {
    parse_arguments(c, args);
  } catch (const UserError& e) {
    return e.what();
  }
  return "";
}

const OptionValue& value_of(const ParsedArgs& parsed, const std::string& name) {
  for (const ParsedItem& item : parsed.items) {
    if (item.option != nullptr && item.option->name == name) return item.value;
  }
  throw std::runtime_error("not parsed: " + name);
}

TEST(CommandParser, FlagWithoutValue) {
  const ParsedArgs p = parse_arguments(sample(), {"--keep"});
  ASSERT_EQ(p.items.size(), 1u);
  EXPECT_EQ(p.items[0].option->name, "keep");
}

TEST(CommandParser, FlagWithAValueIsRefused) {
  EXPECT_THAT(parse_error_of(sample(), {"--keep=1"}), HasSubstr("--keep=1: takes no value"));
}

TEST(CommandParser, ValueAfterEqualsOrAsTheNextArgument) {
  const ParsedArgs p = parse_arguments(sample(), {"--size=4m", "--output", "out.json"});
  EXPECT_EQ(value_of(p, "size").number, 4u << 20);
  EXPECT_EQ(value_of(p, "output").text, "out.json");
  EXPECT_TRUE(p.positionals.empty());
}

TEST(CommandParser, MissingValueNamesTheOption) {
  EXPECT_THAT(parse_error_of(sample(), {"--size"}), HasSubstr("--size: needs a value; use --size=S"));
  EXPECT_THAT(parse_error_of(sample(), {"--output="}), HasSubstr("--output: needs a value"));
  EXPECT_THAT(parse_error_of(sample(), {"--output", "--keep"}), HasSubstr("--output: needs a value"));
}

TEST(CommandParser, OutOfRangeNumberNamesTheRange) {
  EXPECT_THAT(parse_error_of(sample(), {"--max-concurrency=0"}),
              HasSubstr("--max-concurrency=0: not a number in 1-64"));
  EXPECT_THAT(parse_error_of(sample(), {"--max-concurrency=65"}), HasSubstr("not a number in 1-64"));
  EXPECT_THAT(parse_error_of(sample(), {"--max-concurrency=many"}), HasSubstr("--max-concurrency=many"));
}

TEST(CommandParser, SizeBelowTheMinimumIsRefused) {
  EXPECT_THAT(parse_error_of(sample(), {"--size=4k"}), HasSubstr("--size=4k: not a size of at least 1 MiB"));
  EXPECT_THAT(parse_error_of(sample(), {"--size=big"}), HasSubstr("--size=big: not a size"));
}

TEST(CommandParser, BadChoiceSuggestsTheNearest) {
  const std::string error = parse_error_of(sample(), {"--output-format=jsn"});
  EXPECT_THAT(error, HasSubstr("--output-format=jsn: not one of normal, json, json+"));
  EXPECT_THAT(error, HasSubstr("did you mean json?"));
}

TEST(CommandParser, FarChoiceSuggestsNothing) {
  const std::string error = parse_error_of(sample(), {"--output-format=spreadsheet"});
  EXPECT_THAT(error, HasSubstr("not one of normal, json, json+"));
  EXPECT_THAT(error, Not(HasSubstr("did you mean")));
}

TEST(CommandParser, ChoiceGivesItsIndex) {
  EXPECT_EQ(value_of(parse_arguments(sample(), {"--output-format=json+"}), "output-format").choice, 2u);
}

TEST(CommandParser, ListElementsAreChecked) {
  EXPECT_EQ(value_of(parse_arguments(sample(), {"--threads=1,4"}), "threads").list,
            (std::vector<std::string>{"1", "4"}));
  EXPECT_THAT(parse_error_of(sample(), {"--threads=1,0"}), HasSubstr("--threads=1,0: not a number in 1-256"));
  EXPECT_THAT(parse_error_of(sample(), {"--threads=1,"}), HasSubstr("empty element"));
}

TEST(CommandParser, UnknownOptionSuggestsAClose) {
  const std::string error = parse_error_of(sample(), {"--budjet=5s"});
  EXPECT_THAT(error, HasSubstr("--budjet: unknown option for sample"));
  EXPECT_THAT(error, HasSubstr("did you mean --budget?"));
}

TEST(CommandParser, UnknownOptionFarFromAnyPointsToHelp) {
  const std::string error = parse_error_of(sample(), {"--zzzzzzzz=1"});
  EXPECT_THAT(error, HasSubstr("--zzzzzzzz: unknown option for sample"));
  EXPECT_THAT(error, Not(HasSubstr("did you mean")));
  EXPECT_THAT(error, HasSubstr("sluice sample --help"));
}

TEST(CommandParser, SingleDashIsNotAnOption) {
  EXPECT_THAT(parse_error_of(sample(), {"-k"}), HasSubstr("-k: unknown option"));
}

TEST(CommandParser, HelpWinsOverEverythingElse) {
  EXPECT_THROW(parse_arguments(sample(), {"--size=bad", "--help"}), HelpRequested);
  EXPECT_THROW(parse_arguments(sample(), {"-h"}), HelpRequested);
}

TEST(CommandParser, HelpNamesTheTableBeingParsed) {
  try {
    parse_arguments(sample(), {"--help"});
    FAIL() << "no HelpRequested";
  } catch (const HelpRequested& asked) {
    EXPECT_EQ(&asked.command(), &sample());
  }
}

TEST(CommandParser, DoubleDashMakesTheRestPositional) {
  const ParsedArgs p = parse_arguments(sample(), {"--keep", "--", "--odd-dir"});
  EXPECT_EQ(p.positionals, std::vector<std::string>{"--odd-dir"});
  EXPECT_EQ(parse_arguments(sample(), {"--", "--help"}).positionals, std::vector<std::string>{"--help"});
}

TEST(CommandParser, TooManyPositionalsAreRefused) {
  EXPECT_THAT(parse_error_of(sample(), {"a", "b"}), HasSubstr("b: unexpected argument"));
}

TEST(CommandParser, RepeatingLastPositionalTakesTheRest) {
  CommandInfo c = sample();
  c.positionals = {{"A", "first", true}, {"C...", "more", false, true}};
  EXPECT_EQ(parse_arguments(c, {"a", "b", "c", "--keep"}).positionals, (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_THAT(parse_error_of(c, {"--keep"}), HasSubstr("sample needs A"));
}

TEST(CommandParser, RequiredPositionalIsRequired) {
  CommandInfo c = sample();
  c.positionals[0].required = true;
  EXPECT_THAT(parse_error_of(c, {"--keep"}), HasSubstr("sample needs DIR"));
}

TEST(CommandParser, RepeatingOnlyPositionalTakesEveryArgumentAroundOptions) {
  CommandInfo c = sample();
  c.positionals[0].repeats = true;
  EXPECT_EQ(parse_arguments(c, {"a", "--keep", "b", "c"}).positionals, (std::vector<std::string>{"a", "b", "c"}));
}

TEST(CommandParser, PassesJobOptionsOnInOrder) {
  CommandInfo c = sample();
  c.passes_job_options = true;
  const ParsedArgs p = parse_arguments(c, {"--iodepth=4", "--keep", "--name=a"});
  ASSERT_EQ(p.items.size(), 3u);
  EXPECT_EQ(p.items[0].passed_on, "--iodepth=4");
  EXPECT_EQ(p.items[1].option->name, "keep");
  EXPECT_EQ(p.items[2].passed_on, "--name=a");
}

TEST(CommandParser, TypoOfAnOwnOptionIsNotPassedOn) {
  CommandInfo c = sample();
  c.passes_job_options = true;
  EXPECT_THAT(parse_error_of(c, {"--budjet=5s"}), HasSubstr("did you mean --budget?"));
}

TEST(CommandParser, BeforeTheMarkerJobOptionsAreRefused) {
  CommandInfo c = sample();
  c.passes_job_options = true;
  c.pass_through_after = "keep";
  c.options[2].before_pass_through = true;  // --size: the command's before --keep, the job's after it
  EXPECT_THAT(parse_error_of(c, {"--rw=read"}), HasSubstr("job options go after --keep"));
  const ParsedArgs p = parse_arguments(c, {"--size=2m", "--keep", "--size=4m", "--rw=read", "--budget=1s"});
  ASSERT_EQ(p.items.size(), 5u);
  EXPECT_EQ(p.items[0].value.number, 2u << 20);
  EXPECT_EQ(p.items[2].passed_on, "--size=4m");
  EXPECT_EQ(p.items[3].passed_on, "--rw=read");
  EXPECT_EQ(p.items[4].option->name, "budget");
}

TEST(CommandTable, AppliesInCommandLineOrderAndPassesTheRestOn) {
  struct Options {
    bool keep = false;
    std::uint64_t size = 0;
  };
  CommandInfo info = sample();
  info.options.clear();
  info.passes_job_options = true;
  CommandTable<Options> table(info);
  table.add(flag_arg("keep", "keep"), [](Options& o, const OptionValue&) { o.keep = true; });
  table.add(size_arg("size", 1, "", "size"), [](Options& o, const OptionValue& v) { o.size = v.number; });
  Options options;
  std::vector<std::string> passed;
  table.apply(parse_arguments(table.info(), {"--size=1m", "--bs=4k", "--keep", "--size=2m"}), options, &passed);
  EXPECT_TRUE(options.keep);
  EXPECT_EQ(options.size, 2u << 20);  // the last wins
  EXPECT_EQ(passed, std::vector<std::string>{"--bs=4k"});
}

// A foreign tool's single-dash options (dash_names), read as getopt reads them.
const CommandInfo& dashed() {
  static const CommandInfo table = [] {
    CommandInfo c = command_info("dashed", "a test command", "Tests single-dash spellings.\n");
    OptionInfo all = flag_arg("auto", "auto mode");
    all.dash_names = {"-a"};
    c.options.push_back(all);
    OptionInfo excel = flag_arg("excel", "tables");
    excel.dash_names = {"-R"};
    c.options.push_back(excel);
    OptionInfo test = count_arg("test", 0, 12, "", "a test");
    test.dash_names = {"-i"};
    test.repeatable = true;
    c.options.push_back(test);
    OptionInfo cpu = flag_arg("cpu", "cpu");
    cpu.dash_names = {"-+u"};
    c.options.push_back(cpu);
    c.refused = {{"-t", "throughput mode"}, {"-+m", "cluster mode"}};
    return c;
  }();
  return table;
}

std::vector<std::string> names_of(const ParsedArgs& p) {
  std::vector<std::string> out;
  for (const ParsedItem& item : p.items) out.push_back(item.option->name + "=" + item.value.text);
  return out;
}

TEST(CommandParser, DashGroupsAreReadAsGetoptReadsThem) {
  EXPECT_EQ(names_of(parse_arguments(dashed(), {"-Ra", "-i0", "-i", "1", "-+u", "--test=2"})),
            (std::vector<std::string>{"excel=", "auto=", "test=0", "test=1", "cpu=", "test=2"}));
  EXPECT_EQ(names_of(parse_arguments(dashed(), {"-ai", "5"})), (std::vector<std::string>{"auto=", "test=5"}));
  EXPECT_EQ(parse_arguments(dashed(), {"-i", "7"}).items[0].value.where, "-i 7");
}

TEST(CommandParser, DashOptionsAreCheckedAndRefusedByName) {
  EXPECT_THAT(parse_error_of(dashed(), {"-i", "13"}), HasSubstr("-i 13: not a number in 0-12"));
  EXPECT_THAT(parse_error_of(dashed(), {"-i"}), HasSubstr("-i: needs a value"));
  EXPECT_THAT(parse_error_of(dashed(), {"-t", "4"}),
              HasSubstr("-t: throughput mode is an option of the original dashed"));
  EXPECT_THAT(parse_error_of(dashed(), {"-a+m"}), HasSubstr("-+m: cluster mode"));
  EXPECT_THAT(parse_error_of(dashed(), {"-Q"}), HasSubstr("-Q: unknown option for dashed"));
  // A table without dash names keeps refusing single-dash arguments as before.
  EXPECT_THAT(parse_error_of(sample(), {"-k"}), HasSubstr("options look like --name=value"));
}

}  // namespace
}  // namespace sluice
