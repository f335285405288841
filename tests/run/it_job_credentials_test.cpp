// fio's uid= and gid= next to fio 3.33: the files are laid out by the tool (fio's parent, with its default
// create_serialize=1), and the job uses them as its user: a root file of mode 0600 cannot be read by
// uid=65534 (error 13 in both, exit 1), one of mode 0644 can, and writing it cannot. Needs root.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "support/it_test_util.h"
#include "support/machine_features.h"
#include "support/temp_dir.h"

namespace sluice::testing {
namespace {

int job_error(const RunOutput& r) {
  // fio prints "fio: pid=N, err=13/..." on stdout before its JSON.
  const std::size_t start = r.out.find('{');
  const auto doc = parse_document(start == std::string::npos ? r.out : r.out.substr(start));
  return doc ? (*doc)["jobs"][0]["error"].get<int>() : -1;
}

RunOutput run_as_job_user(const std::string& program, std::vector<std::string> args) {
  RunOptions options;
  if (program == "fio")
    options.program = "fio";
  else
    args.insert(args.begin(), "run");
  return run_binary(args, options);
}

// The first directory on the way to `path` that other users cannot enter (no o+x), or "" when there is none.
std::string closed_to_others(const std::string& path) {
  for (std::filesystem::path dir = std::filesystem::path(path).parent_path(); !dir.empty() && dir != dir.root_path();
       dir = dir.parent_path()) {
    struct stat st {};
    if (::stat(dir.c_str(), &st) != 0 || (st.st_mode & S_IXOTH) == 0) return dir.string();
  }
  return "";
}

class JobCredentials : public ::testing::Test {
 protected:
  void SetUp() override {
    if (::geteuid() != 0) GTEST_SKIP() << "switching users needs root";
    // The job's user runs the hooks and reaches the files; a build inside a private directory (mkdtemp's 0700)
    // is out of its reach whatever sluice does.
    if (const std::string closed = closed_to_others(SLUICE_BINARY); !closed.empty()) {
      GTEST_SKIP() << closed << " is closed to other users (no o+x): uid=65534 cannot reach the build";
    }
    ::chmod(tmp_.path().c_str(), 0755);  // the job's user must reach the files
    file_ = tmp_.make_file("data", 1 << 20);
  }
  std::vector<std::string> job(const std::string& rw, const std::string& user) {
    return {"--name=u",      "--filename=" + file_, "--size=1m",           "--rw=" + rw,
            "--uid=" + user, "--gid=" + user,       "--output-format=json"};
  }
  TempDir tmp_;
  std::string file_;
};

TEST_F(JobCredentials, TheJobUsesTheFilesAsItsUserAsFio) {
  for (const std::string program : {"fio", "sluice"}) {
    if (program == "fio" && !::sluice::testing::have(::sluice::testing::Feature::kFio)) continue;
    ::chmod(file_.c_str(), 0600);
    const RunOutput denied = run_as_job_user(program, job("read", "65534"));
    EXPECT_EQ(denied.exit_code, 1) << program << ": " << describe(denied);
    EXPECT_EQ(job_error(denied), EACCES) << program;
    const RunOutput as_root = run_as_job_user(program, job("read", "0"));
    EXPECT_EQ(as_root.exit_code, 0) << program << ": " << describe(as_root);
    ::chmod(file_.c_str(), 0644);
    const RunOutput read = run_as_job_user(program, job("read", "65534"));
    EXPECT_EQ(read.exit_code, 0) << program << ": " << describe(read);
    const RunOutput write = run_as_job_user(program, job("write", "65534"));
    EXPECT_EQ(job_error(write), EACCES) << program;
  }
}

TEST_F(JobCredentials, TheJobsHooksRunAsItsUser) {
  const std::string out = tmp_.file("whoami");
  ::chmod(tmp_.path().c_str(), 0777);  // the hook's output file (u.prerun.txt) is written there as the user
  RunOptions options;
  options.cwd = tmp_.path();
  const RunOutput r = run_binary({"run", "--name=u", "--filename=" + file_, "--size=1m", "--rw=read", "--uid=65534",
                                  "--gid=65534", "--exec_prerun=id -u > " + out, "--output-format=json"},
                                 options);
  EXPECT_EQ(r.exit_code, 0) << describe(r);
  std::ifstream in(out);
  std::string uid;
  in >> uid;
  EXPECT_EQ(uid, "65534");
}

TEST(JobCredentialsOptions, BadValuesAreRefused) {
  for (const char* bad : {"--uid=nobody", "--gid=-1"}) {
    const RunOutput r = run_binary({"run", "--name=x", "--filename=/nonexistent/f", "--size=1m", bad});
    EXPECT_EQ(r.exit_code, 1) << bad << ": " << describe(r);
    EXPECT_NE(r.err.find(std::string(bad).substr(2, 3)), std::string::npos) << r.err;
  }
}

}  // namespace
}  // namespace sluice::testing
