// exec_prerun / exec_postrun: the job's thread runs them before and after its I/O, with their output in
// JOBNAME.prerun.txt / JOBNAME.postrun.txt in the current directory; a failing prerun fails the job (fio
// 3.33 reports error 0 and does no I/O) and the postrun does not run.
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <iterator>
#include <string>

#include "support/it_test_util.h"
#include "support/temp_dir.h"

namespace sluice::testing {
namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// Runs sluice with the temporary directory as the current directory (where the output files go).
class ExecHooks : public ::testing::Test {
 protected:
  RunOutput sluice(const std::vector<std::string>& extra) {
    std::vector<std::string> args = {"run", "--name=hooked", "--ioengine=null", "--size=1m", "--output-format=json"};
    args.insert(args.end(), extra.begin(), extra.end());
    char old[4096];
    EXPECT_NE(::getcwd(old, sizeof old), nullptr);
    EXPECT_EQ(::chdir(tmp_.path().c_str()), 0);
    RunOutput r = run_binary(args, {});
    EXPECT_EQ(::chdir(old), 0);
    return r;
  }
  TempDir tmp_;
};

TEST_F(ExecHooks, BothRunAndTheirWholeOutputGoesToTheirFiles) {
  const RunOutput r = sluice({"--exec_prerun=echo pre; echo to-stderr >&2", "--exec_postrun=echo post"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_EQ(read_file(tmp_.file("hooked.prerun.txt")), "pre\nto-stderr\n");
  EXPECT_EQ(read_file(tmp_.file("hooked.postrun.txt")), "post\n");
  const auto doc = parse_document(r.out);  // nothing of the commands' output in the JSON stream
  ASSERT_TRUE(doc);
  EXPECT_EQ(total_ios(doc->at("jobs").at(0), "read"), 256u);
}

TEST_F(ExecHooks, AFailingPrerunFailsTheJobBeforeAnyIo) {
  const RunOutput r = sluice({"--exec_prerun=exit 3", "--exec_postrun=echo post"});
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_NE(r.err.find("exec_prerun `exit 3` exited with status 3 (its output is in hooked.prerun.txt): the job "
                       "did not run"),
            std::string::npos)
      << describe(r);
  const auto doc = parse_document(r.out);
  ASSERT_TRUE(doc);
  EXPECT_EQ(doc->at("jobs").at(0).at("error"), 125);  // ECANCELED
  EXPECT_EQ(total_ios(doc->at("jobs").at(0), "read"), 0u);
  EXPECT_FALSE(std::ifstream(tmp_.file("hooked.postrun.txt")).good());
}

}  // namespace
}  // namespace sluice::testing
