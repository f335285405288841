// sluice installed as Linux tools are: cmake --install to a prefix (binary, man pages, completion, docs, the
// tools' links in an opt-in directory), and the Debian package (scripts/package.sh) installed into and removed
// from a temporary root with dpkg --root. Nothing is installed on this machine itself.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "cli/command_registry.h"
#include "support/it_test_util.h"
#include "support/temp_dir.h"

namespace sluice::testing {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

std::string install_build_dir() { return fs::path(SLUICE_BINARY).parent_path().string(); }

RunOutput run_program(const std::string& program, const std::vector<std::string>& args,
                      std::chrono::milliseconds timeout = std::chrono::milliseconds(120000)) {
  RunOptions o;
  o.program = program;
  o.timeout = timeout;
  return run_binary(args, o);
}

bool have_program(const std::string& name) { return run_program("sh", {"-c", "command -v " + name}).exit_code == 0; }

// Installs the build into a fresh prefix once for the tests below.
class Installed : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    prefix_ = new TempDir();
    install_ = new RunOutput(run_program("cmake", {"--install", install_build_dir(), "--prefix", prefix_->path()}));
  }
  static void TearDownTestSuite() {
    delete prefix_;
    delete install_;
  }
  static std::string at(const std::string& relative) { return prefix_->path() + "/" + relative; }

  static TempDir* prefix_;
  static RunOutput* install_;
};
TempDir* Installed::prefix_ = nullptr;
RunOutput* Installed::install_ = nullptr;

TEST_F(Installed, BinaryManPagesCompletionDocsAndLinksOnlyInTheOptInDirectory) {
  ASSERT_EQ(install_->exit_code, 0) << describe(*install_);
  const RunOutput version = run_program(at("bin/sluice"), {"--version"});
  EXPECT_EQ(version.exit_code, 0) << describe(version);
  EXPECT_THAT(version.out, HasSubstr("sluice "));
  EXPECT_THAT(version.out, HasSubstr("features: io_uring"));
  EXPECT_TRUE(fs::exists(at("share/man/man1/sluice.1")));
  EXPECT_TRUE(fs::exists(at("share/man/man1/sluice-quick.1")));
  EXPECT_TRUE(fs::exists(at("share/bash-completion/completions/sluice")));
  EXPECT_TRUE(fs::exists(at("share/zsh/vendor-completions/_sluice")));
  EXPECT_TRUE(fs::exists(at("share/doc/sluice/README.md")));
  for (const std::string tool : {"fio", "sysbench", "bonnie++", "postmark", "iozone", "mdtest"}) {
    EXPECT_FALSE(fs::exists(at("bin/" + tool))) << "a real " << tool << " would be shadowed";
    const fs::path link = at("libexec/sluice/tools/" + tool);
    ASSERT_TRUE(fs::is_symlink(link)) << link;
    EXPECT_EQ(fs::canonical(link), fs::canonical(at("bin/sluice"))) << link;
  }
  const RunOutput through_link = run_program(at("libexec/sluice/tools/fio"), {"--version"});
  EXPECT_THAT(through_link.out, HasSubstr("sluice "));
}

TEST_F(Installed, ManRendersEveryPage) {
  ASSERT_EQ(install_->exit_code, 0) << describe(*install_);
  if (!have_program("man")) GTEST_SKIP() << "man is not installed (Debian package man-db)";
  std::size_t pages = 0;
  for (const auto& entry : fs::directory_iterator(at("share/man/man1"))) {
    ++pages;
    const RunOutput man = run_program("sh", {"-c", "MANWIDTH=100 man -l \"$0\"", entry.path().string()});
    EXPECT_EQ(man.exit_code, 0) << entry.path() << "\n" << man.err;
    EXPECT_THAT(man.out, HasSubstr("NAME")) << entry.path();
    const bool overview = entry.path().filename() == "sluice.1";
    EXPECT_THAT(man.out, HasSubstr(overview ? "COMMANDS" : "OPTIONS")) << entry.path();
    EXPECT_THAT(man.err, ::testing::Not(HasSubstr("error"))) << entry.path();
  }
  EXPECT_GT(pages, command_registry().size() - 3);
}

// Bash's own completion machinery (compgen, driven by the installed _sluice) offers every command, and for
// each command an option of its table.
TEST_F(Installed, BashCompletionOffersEveryCommandAndAnOptionOfEach) {
  ASSERT_EQ(install_->exit_code, 0) << describe(*install_);
  const std::string script = at("share/bash-completion/completions/sluice");
  auto complete = [&](const std::string& words) {
    const RunOutput r =
        run_program("bash", {"-c",
                             "source \"$0\"; read -ra COMP_WORDS <<< \"$1\"; [[ $1 == *' ' ]] && COMP_WORDS+=(''); "
                             "COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 )); _sluice; printf '%s\\n' \"${COMPREPLY[@]}\"",
                             script, words});
    EXPECT_EQ(r.exit_code, 0) << words << "\n" << r.err;
    return r.out;
  };
  const std::string all = complete("sluice ");
  for (const CommandEntry& e : command_registry()) {
    EXPECT_THAT(all, HasSubstr(e.name + "\n")) << e.name;
    EXPECT_THAT(complete("sluice " + e.name.substr(0, 3)), HasSubstr(e.name + "\n")) << e.name;
    const std::string options = complete("sluice " + e.name + " --");
    EXPECT_THAT(options, HasSubstr("--help\n")) << e.name;
    if (e.info != nullptr && !e.info->options.empty()) {
      EXPECT_THAT(options, HasSubstr("--" + e.info->options.front().name)) << e.name;
    }
  }
  EXPECT_THAT(complete("sluice run --ioengine = io_"), HasSubstr("io_uring\n"));
  EXPECT_THAT(complete("sluice quick --output-format = j"), HasSubstr("json\n"));
}

TEST_F(Installed, ZshCompletionIsValidZsh) {
  ASSERT_EQ(install_->exit_code, 0) << describe(*install_);
  if (!have_program("zsh")) GTEST_SKIP() << "zsh is not installed (Debian package zsh)";
  const RunOutput checked = run_program("zsh", {"-n", at("share/zsh/vendor-completions/_sluice")});
  EXPECT_EQ(checked.exit_code, 0) << describe(checked);
  // Loaded by compinit from its directory, the function is defined for sluice.
  const RunOutput loaded = run_program(
      "zsh", {"-fc", "fpath=(\"$0\" $fpath); autoload -U compinit; compinit -u -D; print -r -- $_comps[sluice]",
              at("share/zsh/vendor-completions")});
  EXPECT_EQ(loaded.exit_code, 0) << describe(loaded);
  EXPECT_THAT(loaded.out, HasSubstr("_sluice"));
}

// The package: Depends from the linked libraries, the files, and an install into and removal from a
// temporary root (dpkg --root; the machine's own dpkg database is not touched).
TEST(DebianPackage, BuildsInstallsIntoARootAndRemovesCleanly) {
  if (!is_root()) GTEST_SKIP() << "dpkg --root installs as root only";
  if (!have_program("dpkg-shlibdeps") || !have_program("dpkg-deb")) {
    GTEST_SKIP() << "dpkg-shlibdeps or dpkg-deb is missing (Debian package dpkg-dev)";
  }
  const RunOutput built = run_program(std::string(SLUICE_SOURCE_DIR) + "/scripts/package.sh",
                                      {"--build-dir=" + install_build_dir()}, std::chrono::milliseconds(600000));
  ASSERT_EQ(built.exit_code, 0) << describe(built);
  std::string deb = built.out.substr(0, built.out.find('\n'));
  EXPECT_THAT(deb, ::testing::MatchesRegex(".*/sluice_[0-9.]+_[a-z0-9]+\\.deb"));
  const RunOutput info = run_program("dpkg-deb", {"-I", deb});
  EXPECT_THAT(info.out, HasSubstr("Package: sluice"));
  for (const char* library : {"libc6", "liburing2", "libaio1", "libsqlite3-0", "libarchive13"}) {
    EXPECT_THAT(info.out, HasSubstr(library)) << "Depends: " << info.out;
  }
  const RunOutput files = run_program("dpkg-deb", {"-c", deb});
  EXPECT_THAT(files.out, HasSubstr("./usr/bin/sluice\n"));
  EXPECT_THAT(files.out, HasSubstr("./usr/share/man/man1/sluice-quick.1"));
  EXPECT_THAT(files.out, HasSubstr("./usr/libexec/sluice/tools/fio -> ../../../bin/sluice"));
  EXPECT_THAT(files.out, ::testing::Not(HasSubstr("./usr/bin/fio")));

  TempDir root;
  for (const char* dir : {"var/lib/dpkg/info", "var/lib/dpkg/updates", "var/lib/dpkg/triggers"}) {
    fs::create_directories(root.path() + "/" + dir);
  }
  std::ofstream(root.path() + "/var/lib/dpkg/status").flush();
  // The root has none of the libraries: --force-depends; the maintainer scripts run outside it (there are none).
  const RunOutput installed =
      run_program("dpkg", {"--root=" + root.path(), "--force-depends", "--force-script-chrootless", "-i", deb});
  ASSERT_EQ(installed.exit_code, 0) << describe(installed);
  EXPECT_TRUE(fs::exists(root.path() + "/usr/bin/sluice"));
  EXPECT_TRUE(fs::exists(root.path() + "/usr/share/bash-completion/completions/sluice"));
  const RunOutput version = run_program(root.path() + "/usr/bin/sluice", {"version", "--output-format=json"});
  EXPECT_THAT(version.out, HasSubstr("\"revision\""));
  const RunOutput removed = run_program("dpkg", {"--root=" + root.path(), "--force-script-chrootless", "-r", "sluice"});
  ASSERT_EQ(removed.exit_code, 0) << describe(removed);
  std::string left;
  for (const auto& entry : fs::recursive_directory_iterator(root.path())) {
    const std::string path = entry.path().string();
    if (entry.is_regular_file() && path.find("/var/lib/dpkg/") == std::string::npos) left += path + "\n";
  }
  EXPECT_EQ(left, "") << "files the removal left";
}

}  // namespace
}  // namespace sluice::testing
