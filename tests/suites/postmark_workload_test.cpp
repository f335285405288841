// PostmarkRng and PostmarkWorkload against the real PostMark (Debian's postmark 1.53, which prints
// "PostMark v1.51 : 8/14/01"). The reference values below were taken from that binary on 2026-11-30:
//  - the source buffer: `strace -e trace=write -s 80 postmark cfg` with "set size 40", "set number 1",
//    "set buffering false", "set write 40", "run": the first file's 40 bytes are 32 + RND(95) of the first
//    40 draws for seed 42;
//  - file names and the first transactions: `strace -e trace=openat,unlink postmark cfg` with the
//    kLocationsScript settings below;
//  - counts: the verbose report ("Files:") of `postmark cfg` for each configuration; exact bytes from the
//    terse report (bytes per second x elapsed seconds).
#include "suites/postmark_workload.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace sluice {
namespace {

// Records every operation as "<op> <path> <bytes>" ("-" for a delete) instead of touching a disk.
class RecordingFiles final : public PostmarkFiles {
 public:
  void create(const std::string& path, const char* source, int size) override {
    log.push_back("create " + path + " " + std::to_string(size));
    if (first_content.empty()) first_content.assign(source, static_cast<std::size_t>(size));
  }
  void read(const std::string& path, int size) override { log.push_back("read " + path + " " + std::to_string(size)); }
  void append(const std::string& path, const char*, int bytes) override {
    log.push_back("append " + path + " " + std::to_string(bytes));
  }
  void remove(const std::string& path) override { log.push_back("delete " + path + " -"); }

  std::vector<std::string> log;
  std::string first_content;
};

struct Outcome {
  PostmarkCounts counts;
  std::int64_t deleted_alone = 0;
  PostmarkWorkload::TransactionsEnd end = PostmarkWorkload::TransactionsEnd::kDone;
  std::vector<std::string> log;
};

Outcome replay(const PostmarkConfig& config) {
  RecordingFiles files;
  PostmarkWorkload w(config, files);
  Outcome o;
  EXPECT_TRUE(w.create_pool([] { return false; }));
  o.end = w.run_transactions([] { return false; }, [] {});
  const std::int64_t before = w.counts().deleted;
  w.delete_all();
  o.deleted_alone = w.counts().deleted - before;
  o.counts = w.counts();
  o.log = files.log;
  return o;
}

std::vector<std::string> op_names(const std::vector<std::string>& log, std::size_t from, std::size_t n) {
  std::vector<std::string> out;
  for (std::size_t i = from; i < from + n && i < log.size(); ++i) out.push_back(log[i].substr(0, log[i].rfind(' ')));
  return out;
}

PostmarkConfig locations_config() {
  PostmarkConfig c;
  c.locations = {{"a", 1}, {"b", 3}};
  c.subdirectories = 10;
  c.size_low = 500;
  c.size_high = 20000;
  c.number = 300;
  c.transactions = 2000;
  return c;
}

TEST(PostmarkRng, SourceBufferOfSeed42IsPostmarks) {
  PostmarkConfig c;
  c.size_low = c.size_high = 40;
  c.number = 1;
  c.transactions = 10;
  RecordingFiles files;
  PostmarkWorkload w(c, files);
  ASSERT_TRUE(w.create_pool([] { return false; }));
  EXPECT_EQ(files.first_content, "LeZebJ6S5~qPv$C$py}hmKd H58nM4~.}pv}Q7wS");
}

TEST(PostmarkRng, BelowZeroDrawsNothing) {
  PostmarkRng a(42), b(42);
  EXPECT_EQ(a.below(0), 0u);
  EXPECT_EQ(a.below(-3), 0u);
  EXPECT_EQ(a.next(), b.next());
}

TEST(PostmarkWorkload, DefaultsGivePostmarksCounts) {
  const Outcome o = replay(PostmarkConfig{});
  EXPECT_EQ(o.end, PostmarkWorkload::TransactionsEnd::kDone);
  EXPECT_EQ(o.counts.created, 764);
  EXPECT_EQ(o.counts.read, 243);
  EXPECT_EQ(o.counts.appended, 257);
  EXPECT_EQ(o.counts.deleted, 764);
  EXPECT_EQ(o.deleted_alone, 528);
  EXPECT_EQ(o.counts.bytes_read, 1430770u);
  EXPECT_EQ(o.counts.bytes_written, 4662068u);
  ASSERT_GE(o.log.size(), 2u);
  EXPECT_EQ(o.log[0], "create 1 1390");  // strace with "set buffering false", "set write 100000": one write per file
  EXPECT_EQ(o.log[1], "create 2 4732");
}

TEST(PostmarkWorkload, OtherSeedAndFixedSizeGivePostmarksCounts) {
  PostmarkConfig seven;
  seven.seed = 7;
  const Outcome a = replay(seven);
  EXPECT_EQ(a.counts.created, 753);
  EXPECT_EQ(a.counts.read, 254);
  EXPECT_EQ(a.counts.appended, 246);
  EXPECT_EQ(a.deleted_alone, 506);
  EXPECT_EQ(a.counts.bytes_read, 1400794u);
  EXPECT_EQ(a.counts.bytes_written, 4490891u);

  PostmarkConfig fixed;
  fixed.size_low = fixed.size_high = 1000;
  fixed.seed = 3;
  const Outcome b = replay(fixed);
  EXPECT_EQ(b.counts.created, 757);
  EXPECT_EQ(b.counts.read, 256);
  EXPECT_EQ(b.counts.appended, 0);  // every file is already at the upper bound: no draw, not counted
  EXPECT_EQ(b.deleted_alone, 514);
  EXPECT_EQ(b.counts.bytes_written, 757000u);
}

TEST(PostmarkWorkload, WeightedLocationsAndSubdirectoriesFollowPostmark) {
  const Outcome o = replay(locations_config());
  const std::vector<std::string> first = {"create b/s6/1", "create a/s5/2", "create b/s7/3", "create a/s9/4",
                                          "create b/s8/5", "create b/s4/6", "create b/s1/7", "create a/s6/8"};
  EXPECT_EQ(op_names(o.log, 0, 8), first);
  const std::vector<std::string> transactions = {"append b/s8/139", "create a/s9/301", "read b/s0/135",
                                                 "delete b/s3/168", "append b/s6/202", "delete b/s7/154"};
  EXPECT_EQ(op_names(o.log, 300, 6), transactions);
  EXPECT_EQ(o.counts.created, 1312);
  EXPECT_EQ(o.counts.read, 996);
  EXPECT_EQ(o.counts.appended, 1001);
  EXPECT_EQ(o.deleted_alone, 324);
  EXPECT_EQ(o.counts.bytes_read, 12779664u);
  // Past 2^24 PostMark's float counter drifts: its report says 17334260 bytes written; the exact sum is less.
  EXPECT_EQ(o.counts.bytes_written_float, 17334260.0f);
  EXPECT_EQ(o.counts.bytes_written, 17334253u);
}

TEST(PostmarkWorkload, DisabledCreateDeleteHalfAndOutOfFiles) {
  PostmarkConfig no_create;
  no_create.bias_create = -1;
  no_create.transactions = 300;
  no_create.seed = 99;
  const Outcome a = replay(no_create);
  EXPECT_EQ(a.counts.created, 500);
  EXPECT_EQ(a.counts.read, 143);
  EXPECT_EQ(a.counts.appended, 157);
  EXPECT_EQ(a.deleted_alone, 500);
  EXPECT_EQ(a.counts.bytes_read, 882193u);

  PostmarkConfig starved;  // PostMark: "out of files!" and no report
  starved.bias_create = 0;
  starved.number = 20;
  starved.transactions = 100;
  EXPECT_EQ(replay(starved).end, PostmarkWorkload::TransactionsEnd::kOutOfFiles);
}

TEST(PostmarkWorkload, StopEndsTransactionsAndDeletionRemovesEveryCreatedFile) {
  RecordingFiles files;
  PostmarkConfig c;
  PostmarkWorkload w(c, files);
  ASSERT_TRUE(w.create_pool([] { return false; }));
  int polls = 0;
  EXPECT_EQ(w.run_transactions([&] { return ++polls > 50; }, [] {}), PostmarkWorkload::TransactionsEnd::kStopped);
  EXPECT_EQ(w.transactions_done(), 50);
  w.delete_all();
  EXPECT_EQ(w.counts().created, w.counts().deleted);
  EXPECT_TRUE(w.remaining_files().empty());
}

}  // namespace
}  // namespace sluice
