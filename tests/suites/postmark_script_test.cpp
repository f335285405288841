// PostMark's command language: parsing, --set, and the errors for bad input.
#include "suites/postmark_script.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "suites/postmark_session.h"
#include "support/temp_dir.h"

namespace sluice {
namespace {

PostmarkConfig apply_script(const std::string& text) {
  std::istringstream in(text);
  PostmarkConfig c;
  for (const PostmarkCommand& cmd : parse_postmark_script(in, "cfg")) {
    if (cmd.kind == PostmarkCommand::Kind::kSet) apply_postmark_set(cmd, c);
  }
  return c;
}

std::string script_error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const UserError& e) {
    return e.what();
  }
  return "";
}

TEST(PostmarkScript, SetsEverySetting) {
  const PostmarkConfig c = apply_script(
      "# comment\n\nset size 100 2000\nset number 10\nset transactions 20\nset subdirectories 3\nset read 4096\n"
      "set write 8192\nset buffering false\nset bias read -1\nset bias create 7\nset seed 9\nset report terse\n"
      "set location /tmp/x\nset location +/tmp/y 4\n");
  EXPECT_EQ(c.size_low, 100);
  EXPECT_EQ(c.size_high, 2000);
  EXPECT_EQ(c.number, 10);
  EXPECT_EQ(c.transactions, 20);
  EXPECT_EQ(c.subdirectories, 3);
  EXPECT_EQ(c.read_block, 4096);
  EXPECT_EQ(c.write_block, 8192);
  EXPECT_FALSE(c.buffered);
  EXPECT_EQ(c.bias_read, -1);
  EXPECT_EQ(c.bias_create, 7);
  EXPECT_EQ(c.seed, 9u);
  EXPECT_TRUE(c.terse);
  ASSERT_EQ(c.locations.size(), 2u);
  EXPECT_EQ(c.locations[1].path, "/tmp/y");
  EXPECT_EQ(c.locations[1].weight, 4);
  EXPECT_EQ(c.total_weight(), 5);
}

TEST(PostmarkScript, LocationMinusRemovesAndPlainReplaces) {
  EXPECT_EQ(apply_script("set location +a\nset location +b 2\nset location -a\n").locations.size(), 1u);
  EXPECT_EQ(apply_script("set location +a\nset location b\n").locations.front().path, "b");
  EXPECT_NE(script_error_of([] { apply_script("set location -nowhere\n"); }).find("no location 'nowhere'"),
            std::string::npos);
}

TEST(PostmarkScript, OneSizeIsFixed) {
  const PostmarkConfig c = apply_script("set size 777\n");
  EXPECT_EQ(c.size_low, 777);
  EXPECT_EQ(c.size_high, 777);
}

TEST(PostmarkScript, AliasesAndKinds) {
  PostmarkCommand c;
  ASSERT_TRUE(parse_postmark_line("exit", {}, c));
  EXPECT_EQ(c.kind, PostmarkCommand::Kind::kQuit);
  ASSERT_TRUE(parse_postmark_line("?", {}, c));
  EXPECT_EQ(c.kind, PostmarkCommand::Kind::kHelp);
  ASSERT_TRUE(parse_postmark_line("run out.txt", {}, c));
  EXPECT_EQ(c.kind, PostmarkCommand::Kind::kRun);
  EXPECT_EQ(c.param, "out.txt");
  EXPECT_FALSE(parse_postmark_line("   ", {}, c));
}

TEST(PostmarkScript, UnknownCommandNamesTheNearest) {
  PostmarkCommand c;
  const std::string e = script_error_of([&] { parse_postmark_line("set numbr 5", SourcePos{"cfg", 3}, c); });
  EXPECT_NE(e.find("cfg:3"), std::string::npos) << e;
  EXPECT_NE(e.find("unknown PostMark command 'set numbr 5'"), std::string::npos) << e;
  EXPECT_NE(e.find("did you mean 'set number'"), std::string::npos) << e;
  EXPECT_NE(script_error_of([&] { parse_postmark_line("frobnicate", {}, c); }).find("the commands are: set size"),
            std::string::npos);
  EXPECT_NE(script_error_of([&] { parse_postmark_line("!ls", {}, c); }).find("shell escapes"), std::string::npos);
}

TEST(PostmarkScript, BadValuesSayWhatIsExpected) {
  EXPECT_NE(script_error_of([] { apply_script("set bias read 11\n"); }).find("0 to 10, or -1"), std::string::npos);
  EXPECT_NE(script_error_of([] { apply_script("set number 0\n"); }).find("from 1 to"), std::string::npos);
  EXPECT_NE(script_error_of([] { apply_script("set number 12x\n"); }).find("from 1 to"), std::string::npos);
  EXPECT_NE(script_error_of([] { apply_script("set size 500 100\n"); }).find("below LOW"), std::string::npos);
  EXPECT_NE(script_error_of([] { apply_script("set buffering maybe\n"); }).find("true or false"), std::string::npos);
  EXPECT_NE(script_error_of([] { apply_script("set report loud\n"); }).find("verbose or terse"), std::string::npos);
}

TEST(PostmarkScript, SetOptionMapsToTheCommand) {
  PostmarkConfig c;
  apply_postmark_set(postmark_set_option("size=300,4000"), c);
  apply_postmark_set(postmark_set_option("bias-read=2"), c);
  apply_postmark_set(postmark_set_option("bias_create=3"), c);
  EXPECT_EQ(c.size_low, 300);
  EXPECT_EQ(c.size_high, 4000);
  EXPECT_EQ(c.bias_read, 2);
  EXPECT_EQ(c.bias_create, 3);
  const std::string e = script_error_of([] { postmark_set_option("transactons=5"); });
  EXPECT_NE(e.find("--set=transactons=5"), std::string::npos) << e;
  EXPECT_NE(e.find("did you mean 'transactions'"), std::string::npos) << e;
  EXPECT_NE(script_error_of([] { postmark_set_option("number"); }).find("NAME=VALUE"), std::string::npos);
}

TEST(PostmarkScript, CheckFindsABadSetBeforeAnyRun) {
  std::istringstream in("set number 10\nrun\nset seed -4\nrun\n");
  const std::vector<PostmarkCommand> commands = parse_postmark_script(in, "cfg");
  const std::string e = script_error_of([&] { check_postmark_script(commands, {}); });
  EXPECT_NE(e.find("cfg:3"), std::string::npos) << e;
}

// Found by reviewing the load path for the fuzz target: a file that loads itself recursed until the stack
// overflowed (a crash instead of a message).
TEST(PostmarkScript, AFileThatLoadsItselfIsRefusedNotACrash) {
  const sluice::testing::TempDir dir;
  const std::string path = dir.path() + "/self.pm";
  std::ofstream(path) << "set number 10\nload " << path << "\n";
  const std::string e = script_error_of([&] { parse_postmark_file(path); });
  EXPECT_NE(e.find("self.pm:2: load " + path + ": loads nest deeper than 16"), std::string::npos) << e;
}

TEST(PostmarkShow, MatchesPostmarksLayout) {
  // From `postmark` with "show" at its defaults, then with two locations and 10 subdirectories.
  EXPECT_EQ(render_postmark_show(PostmarkConfig{}, "/home/u"),
            "Current configuration is:\nThe base number of files is 500\nTransactions: 500\n"
            "Files range between 500 bytes and 9.77 kilobytes in size\nWorking directory: /home/u\n"
            "Block sizes are: read=512 bytes, write=512 bytes\nBiases are: read/append=5, create/delete=5\n"
            "Using Unix buffered file I/O\nRandom number generator seed is 42\nReport format is verbose.\n");
  const PostmarkConfig c = apply_script(
      "set location a\nset location +b 3\nset subdirectories 10\nset read 4096\n"
      "set buffering false\nset size 1048576 2097152\n");
  const std::string show = render_postmark_show(c, "/home/u");
  EXPECT_NE(show.find("Files range between 1.00 megabytes and 2.00 megabytes in size\n"), std::string::npos) << show;
  EXPECT_NE(show.find("Working directories: \n\ta (weight=1)\n\tb (weight=3)\n10 subdirectories will be used\n"),
            std::string::npos)
      << show;
  EXPECT_NE(show.find("read=4.00 kilobytes"), std::string::npos);
  EXPECT_NE(show.find("Not using Unix buffered file I/O"), std::string::npos);
}

}  // namespace
}  // namespace sluice
