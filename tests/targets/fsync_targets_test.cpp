// fsync_on_close: a failed fsync is reported with the file named, never dropped.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include "support/temp_dir.h"
#include "targets/target_file.h"

namespace sluice {
namespace {

TEST(FsyncTargets, AllSucceedOnRegularFiles) {
  testing::TempDir dir;
  TargetFile t;
  t.path = dir.file("f");
  t.fd = ::open(t.path.c_str(), O_CREAT | O_RDWR, 0644);
  ASSERT_GE(t.fd, 0);
  EXPECT_FALSE(fsync_targets({t}));
  ::close(t.fd);
}

TEST(FsyncTargets, AFailedFsyncNamesTheFileAndTheError) {
  int pipe_fds[2];
  ASSERT_EQ(::pipe(pipe_fds), 0);
  TargetFile t;
  t.path = "/the/pipe";
  t.fd = pipe_fds[1];  // fsync of a pipe fails with EINVAL
  const std::optional<TargetFailure> failure = fsync_targets({t});
  ::close(pipe_fds[0]);
  ::close(pipe_fds[1]);
  ASSERT_TRUE(failure);
  EXPECT_EQ(failure->error, EINVAL);
  EXPECT_NE(failure->message.find("fsync of /the/pipe on close failed"), std::string::npos) << failure->message;
}

}  // namespace
}  // namespace sluice
