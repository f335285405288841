// The classic tools' command lines as practitioners type them (tests/suites/command_lines/*.txt), run through
// the real tool (when Debian's is installed) and through the link named after it (build/sysbench,
// build/bonnie++, build/postmark -> sluice): the same lines accepted or refused, and the same counts.
#include <fcntl.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <pty.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "support/it_test_util.h"
#include "support/machine_features.h"
#include "support/temp_dir.h"

namespace sluice::testing {
namespace {

struct CorpusLine {
  std::string expectation;  // accepted, refused, sluice-refuses
  std::string text;         // the rest of the line
  int number = 0;
};

std::vector<CorpusLine> corpus(const std::string& tool) {
  std::ifstream in(std::string(SLUICE_SOURCE_DIR) + "/tests/suites/command_lines/" + tool + ".txt");
  std::vector<CorpusLine> out;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (line.empty() || line[0] == '#') continue;
    const std::size_t space = line.find(' ');
    out.push_back({line.substr(0, space), line.substr(space + 1), number});
  }
  return out;
}

std::vector<std::string> words(const std::string& text, const std::string& dir) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string w; in >> w;) {
    for (std::size_t at; (at = w.find("{dir}")) != std::string::npos;) w.replace(at, 5, dir);
    out.push_back(w);
  }
  return out;
}

// The link to sluice named after `tool`, made by the build next to build/sluice.
std::string link_to_sluice(const std::string& tool) {
  return (std::filesystem::path(SLUICE_BINARY).parent_path() / tool).string();
}

RunOutput run_in(const std::string& program, const std::vector<std::string>& args, const std::string& dir,
                 const std::string& input = "") {
  RunOptions o;
  o.program = program;
  o.cwd = dir;
  o.timeout = std::chrono::milliseconds(60000);
  if (input.empty()) return run_binary(args, o);
  // A script on stdin: through sh, since run_binary gives the child no stdin of ours.
  const std::string script = dir + "/../script.txt";
  std::ofstream(script) << input;
  RunOptions sh = o;
  sh.program = "sh";
  return run_binary({"-c", "exec \"$0\" < \"$1\"", program, script}, sh);
}

std::string where(const std::string& tool, const CorpusLine& line) {
  return "tests/suites/command_lines/" + tool + ".txt:" + std::to_string(line.number) + ": " + line.text;
}

std::string events_of(const std::string& out) {
  std::smatch m;
  return std::regex_search(out, m, std::regex(R"(total number of events:\s+(\d+))")) ? m[1].str() : "none";
}

// sysbench: prepare, run and cleanup with the line's options, each tool in a directory of its own.
struct SysbenchOutcome {
  int run_exit = -1;
  std::string events;
  std::string err;
};

SysbenchOutcome sysbench_steps(const std::string& program, const std::string& options) {
  TempDir dir;
  const std::vector<std::string> args = words(options, dir.path());
  auto with = [&](const std::string& command) {
    std::vector<std::string> a = args;
    a.push_back(command);
    return run_in(program, a, dir.path());
  };
  with("prepare");
  const RunOutput run = with("run");
  with("cleanup");
  return {run.exit_code, events_of(run.out), run.err};
}

TEST(ClassicCommandLines, SysbenchLinesRunAsInSysbench) {
  const bool real = have(Feature::kSysbench);
  for (const CorpusLine& line : corpus("sysbench")) {
    const SysbenchOutcome ours = sysbench_steps(link_to_sluice("sysbench"), line.text);
    if (line.expectation == "accepted") {
      EXPECT_EQ(ours.run_exit, 0) << where("sysbench", line) << "\n" << ours.err;
      EXPECT_NE(ours.events, "none") << where("sysbench", line);
    } else {
      EXPECT_NE(ours.run_exit, 0) << where("sysbench", line);
      EXPECT_THAT(ours.err, ::testing::HasSubstr("sluice: ")) << where("sysbench", line);
    }
    if (!real) continue;
    const SysbenchOutcome theirs = sysbench_steps("sysbench", line.text);
    if (line.expectation == "refused") {
      EXPECT_NE(theirs.run_exit, 0) << "sysbench ran " << where("sysbench", line);
    } else {
      EXPECT_EQ(theirs.run_exit, 0) << "sysbench refused " << where("sysbench", line) << "\n" << theirs.err;
    }
    if (line.expectation == "accepted") {
      EXPECT_EQ(ours.events, theirs.events) << where("sysbench", line);
    }
  }
  if (!real) GTEST_SKIP() << "sysbench is not installed: sluice's side only (scripts/install-deps.sh --with-peers)";
}

TEST(ClassicCommandLines, SysbenchWarnsOfItsOldNamesAsSysbench) {
  TempDir dir;
  const std::string options = "--test=fileio --file-total-size=8M --num-threads=2 --max-time=3 --max-requests=0";
  const RunOutput ours = run_in(link_to_sluice("sysbench"), words(options + " cleanup", dir.path()), dir.path());
  ASSERT_EQ(ours.exit_code, 0) << describe(ours);
  EXPECT_THAT(ours.err, ::testing::HasSubstr("WARNING: the --test option is deprecated."));
  EXPECT_THAT(ours.out, ::testing::StartsWith("WARNING: --num-threads is deprecated, use --threads instead\n"
                                              "WARNING: --max-time is deprecated, use --time instead\n"));
  if (!have(Feature::kSysbench)) GTEST_SKIP() << "sysbench is not installed: sluice's side only";
  const RunOutput theirs = run_in("sysbench", words(options + " cleanup", dir.path()), dir.path());
  EXPECT_EQ(ours.err.substr(0, ours.err.find('\n')), theirs.err.substr(0, theirs.err.find('\n')));
  EXPECT_EQ(ours.out.substr(0, ours.out.find("sluice ")), theirs.out.substr(0, theirs.out.find("sysbench ")));
}

TEST(ClassicCommandLines, BonnieLinesAreAcceptedOrRefusedAsByBonnie) {
  const bool real = have(Feature::kBonnie) && is_root();  // the lines say -u root, which bonnie++ takes as root only
  for (const CorpusLine& line : corpus("bonnie")) {
    for (const bool ours : {true, false}) {
      if (!ours && !real) continue;
      TempDir dir;
      const RunOutput r =
          run_in(ours ? link_to_sluice("bonnie++") : "bonnie++", words(line.text, dir.path()), dir.path());
      const std::string who = ours ? "sluice" : "bonnie++";
      if (line.expectation == "accepted") {
        EXPECT_EQ(r.exit_code, 0) << who << " refused " << where("bonnie", line) << "\n" << r.err;
      } else {
        EXPECT_NE(r.exit_code, 0) << who << " ran " << where("bonnie", line);
      }
    }
  }
  if (!real) GTEST_SKIP() << "bonnie++ is not installed: sluice's side only (scripts/install-deps.sh --with-peers)";
}

// PostMark's counts in its report, in order ("102 created", "Creation alone: 50 files", ...).
std::vector<std::string> postmark_counts(const std::string& out) {
  std::vector<std::string> counts;
  const std::regex count(R"((\d+) (created|read|appended|deleted) \(|(alone|transactions): (\d+) files)");
  for (auto it = std::sregex_iterator(out.begin(), out.end(), count); it != std::sregex_iterator(); ++it) {
    counts.push_back(it->str());
  }
  return counts;
}

TEST(ClassicCommandLines, PostmarkScriptsCountAsPostmark) {
  const bool real = have(Feature::kPostmark);
  for (const CorpusLine& line : corpus("postmark")) {
    std::string script = line.text;
    for (std::size_t at; (at = script.find("; ")) != std::string::npos;) script.replace(at, 2, "\n");
    script += "\n";
    TempDir ours_dir;
    std::filesystem::create_directory(ours_dir.file("work"));
    const RunOutput ours = run_in(link_to_sluice("postmark"), {}, ours_dir.file("work"), script);
    if (line.expectation == "accepted") {
      EXPECT_EQ(ours.exit_code, 0) << where("postmark", line) << "\n" << ours.err;
      EXPECT_FALSE(postmark_counts(ours.out).empty()) << where("postmark", line) << "\n" << ours.out;
    } else {
      EXPECT_EQ(ours.exit_code, 1) << where("postmark", line);
      EXPECT_THAT(ours.err, ::testing::HasSubstr("stdin:")) << where("postmark", line);
    }
    if (!real) continue;
    TempDir theirs_dir;
    std::filesystem::create_directory(theirs_dir.file("work"));
    const RunOutput theirs = run_in("postmark", {}, theirs_dir.file("work"), script);
    EXPECT_EQ(theirs.exit_code, 0) << "postmark refused " << where("postmark", line);
    if (line.expectation == "accepted") {
      EXPECT_EQ(postmark_counts(ours.out), postmark_counts(theirs.out)) << where("postmark", line);
    } else {
      EXPECT_THAT(theirs.out + theirs.err, ::testing::HasSubstr("Error:")) << where("postmark", line);
    }
  }
  if (!real) GTEST_SKIP() << "postmark is not installed: sluice's side only (scripts/install-deps.sh --with-peers)";
}

// Everything the child on the pseudo-terminal `fd` prints until it ends or `limit` passes.
std::string read_terminal(int fd, std::chrono::milliseconds limit, const std::string& until = "") {
  std::string out;
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < deadline) {
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, 50) <= 0) continue;
    char buffer[4096];
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n <= 0) break;  // EIO: the child closed the terminal
    out.append(buffer, static_cast<std::size_t>(n));
    if (!until.empty() && out.ends_with(until)) break;
  }
  return out;
}

// A person at PostMark's prompt: each command acts as it is typed, mistakes are said and the prompt goes on.
TEST(ClassicCommandLines, PostmarkPromptAtATerminal) {
  TempDir dir;
  int fd = -1;
  const pid_t pid = ::forkpty(&fd, nullptr, nullptr, nullptr);
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    if (::chdir(dir.path().c_str()) != 0) ::_exit(126);
    const std::string program = link_to_sluice("postmark");
    ::execl(program.c_str(), "postmark", static_cast<char*>(nullptr));
    ::_exit(127);
  }
  std::string screen = read_terminal(fd, std::chrono::seconds(10), "pm>");
  EXPECT_THAT(screen, ::testing::HasSubstr("PostMark v1.51"));
  for (const std::string typed :
       {"sett number 20", "set number -3", "set number 20", "set transactions 40", "show", "run", "quit"}) {
    const std::string line = typed + "\n";
    ASSERT_EQ(::write(fd, line.data(), line.size()), static_cast<ssize_t>(line.size()));
    screen += read_terminal(fd, std::chrono::seconds(20), typed == "quit" ? "" : "pm>");
  }
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  ::close(fd);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << screen;
  EXPECT_THAT(screen, ::testing::HasSubstr("Eh? ("));             // a command PostMark does not know
  EXPECT_THAT(screen, ::testing::HasSubstr("did you mean"));      // sluice's nearest one
  EXPECT_THAT(screen, ::testing::HasSubstr("Error: prompt:2:"));  // a bad value, and the prompt went on
  EXPECT_THAT(screen, ::testing::HasSubstr("The base number of files is 20"));
  EXPECT_THAT(screen, ::testing::HasSubstr("Creation alone: 20 files"));
  EXPECT_THAT(screen, ::testing::HasSubstr("sluice (to the microsecond"));
  EXPECT_TRUE(std::filesystem::is_empty(dir.path()));  // the run removed what it created
}

}  // namespace
}  // namespace sluice::testing
