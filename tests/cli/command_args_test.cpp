// The commands' parsed arguments: the same duration means the same in every command, job options reach the
// run parser in order, and the commands' own rules (capacity's --rw list, precondition's --until-steady).
#include "cli/command_args.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "cli/history_options.h"
#include "common/error.h"
#include "job/command_line.h"

namespace sluice {
namespace {

using namespace std::chrono_literals;
using ::testing::HasSubstr;

template <typename Parse>
std::string error_of(Parse parse, const std::vector<std::string>& args) {
  try {
    parse(args);
  } catch (const UserError& e) {
    return e.what();
  }
  return "";
}

TEST(CommandArgs, SloAndBudgetAreTheSameInQuickAndCapacity) {
  const QuickArgs quick = parse_quick_args({"--slo=500us", "--budget=2m"});
  const CapacityArgs capacity = parse_capacity_args({"--slo=500us", "--budget=2m"});
  EXPECT_EQ(quick.options.slo, 500us);
  EXPECT_EQ(capacity.request.slo, 500us);
  EXPECT_EQ(quick.options.budget, 2min);
  EXPECT_EQ(capacity.request.budget, 2min);
  EXPECT_EQ(parse_interfere_args({"--budget=2m"}).options.budget, 2min);
  EXPECT_EQ(parse_precondition_args({"--round=10ms"}).request.round, 10ms);
}

TEST(CommandArgs, BareSloIsRefusedInQuickAndCapacity) {
  EXPECT_THAT(error_of(parse_quick_args, {"--slo=10"}), HasSubstr("--slo=10: add a unit"));
  EXPECT_THAT(error_of(parse_capacity_args, {"--slo=10"}), HasSubstr("--slo=10: add a unit"));
}

TEST(CommandArgs, QuickTakesADirectoryAndItsOptions) {
  const QuickArgs a = parse_quick_args({"/mnt/x", "--size=16m", "--keep", "--no-status", "--ioengine=psync",
                                        "--output-format=json+", "--output", "q.json"});
  EXPECT_EQ(a.options.directory, "/mnt/x");
  EXPECT_EQ(a.options.size, 16u << 20);
  EXPECT_TRUE(a.options.keep);
  EXPECT_FALSE(a.options.status_line);
  EXPECT_EQ(a.options.engine, EngineKind::kPsync);
  EXPECT_EQ(a.output.formats, std::vector<RunOptions::OutputFormat>{RunOptions::OutputFormat::kJsonPlus});
  EXPECT_EQ(a.output.path, "q.json");
}

TEST(CommandArgs, QuickRefusesJobOptions) {
  EXPECT_THAT(error_of(parse_quick_args, {"--runtime=10"}), HasSubstr("--runtime: unknown option for quick"));
}

TEST(CommandArgs, JsonPlusReplacesJsonAndListsKeepTheirOrder) {
  const CapacityArgs a = parse_capacity_args({"--output-format=json,normal,json+"});
  EXPECT_EQ(a.output.formats, (std::vector<RunOptions::OutputFormat>{RunOptions::OutputFormat::kNormal,
                                                                     RunOptions::OutputFormat::kJsonPlus}));
}

TEST(CommandArgs, CapacityPassesJobOptionsAfterItsDefaults) {
  const CapacityArgs a =
      parse_capacity_args({"--ioengine=null", "--slo=1ms", "--rw=randwrite", "--name=x", "--iodepth=2"});
  EXPECT_EQ(a.job_args, (std::vector<std::string>{"--direct=1", "--ioengine=io_uring", "--rw=randread", "--bs=4k",
                                                  "--ioengine=null", "--rw=randwrite", "--name=x", "--iodepth=2"}));
  EXPECT_TRUE(a.rw_modes.empty());
}

TEST(CommandArgs, CapacityRwListMakesStreamsAndNamesABadMode) {
  EXPECT_EQ(parse_capacity_args({"--rw=randread,randwrite"}).rw_modes,
            (std::vector<std::string>{"randread", "randwrite"}));
  const std::string error = error_of(parse_capacity_args, {"--rw=randread,randwrit"});
  EXPECT_THAT(error, HasSubstr("rw"));
  EXPECT_THAT(error, HasSubstr("randwrit"));
}

TEST(CommandArgs, PreconditionJobOptionsOnlyAfterUntilSteady) {
  EXPECT_THAT(error_of(parse_precondition_args, {"--filename=f", "--rw=randread"}), HasSubstr("--until-steady"));
  const PreconditionArgs a =
      parse_precondition_args({"--filename=f", "--bs=64k", "--until-steady", "--bs=4k", "--round=1s", "--rw=randread"});
  EXPECT_EQ(a.request.filename, "f");
  EXPECT_EQ(a.request.block_size, 64u << 10);
  EXPECT_TRUE(a.until_steady);
  EXPECT_EQ(a.request.round, 1s);
  EXPECT_EQ(a.workload_args, (std::vector<std::string>{"--bs=4k", "--rw=randread"}));
}

TEST(CommandArgs, InterfereTryIsRepeatableAndChecked) {
  const InterfereArgs a = parse_interfere_args(
      {"--try", "vm.dirty_bytes=15M,vm.dirty_background_bytes=5M", "--try=vm.dirty_ratio=5", "--threads=2,4"});
  ASSERT_EQ(a.options.tries.size(), 2u);
  EXPECT_EQ(a.options.tries[0].size(), 2u);
  EXPECT_EQ(a.options.threads, (std::vector<std::uint32_t>{2, 4}));
  EXPECT_THAT(error_of(parse_interfere_args, {"--try", "nonsense"}), HasSubstr("KNOB=VALUE"));
}

// --save, --label, --db and --repeat mean the same in every measuring command and in sluice run.
TEST(CommandArgs, HistoryOptionsAreTheSameInEveryMeasuringCommand) {
  const std::vector<std::string> args = {"--label=before", "--repeat=3", "--db=/tmp/h.db"};
  const std::vector<HistoryChoice> choices = {
      parse_quick_args(args).history, parse_capacity_args(args).history, parse_interfere_args(args).history,
      parse_precondition_args(args).history,
      parse_run_args({"--label=before", "--repeat", "3", "--db=/tmp/h.db", "--name=a"}).history};
  for (const HistoryChoice& h : choices) {
    EXPECT_TRUE(h.save);  // a label or a database implies --save
    EXPECT_EQ(h.label, "before");
    EXPECT_EQ(h.db, "/tmp/h.db");
    EXPECT_EQ(h.repeat, 3u);
  }
  EXPECT_TRUE(parse_run_args({"--save", "--name=a"}).history.save);
  EXPECT_FALSE(parse_run_args({"--name=a"}).history.save);
  EXPECT_THAT(error_of(parse_quick_args, {"--repeat=0"}), HasSubstr("--repeat=0"));
  EXPECT_THROW(parse_run_args({"--repeat=1001", "--name=a"}), UserError);
  EXPECT_THROW(parse_run_args({"--label=", "--name=a"}), UserError);
}

// The comparability key leaves out what only changes where and how the result is shown or kept.
TEST(CommandArgs, JobTextOmitsHistoryOutputAndStatusOptions) {
  EXPECT_EQ(job_text_of({"--name=a", "--save", "--label", "x", "--repeat=3", "--output-format=json", "--no-status",
                         "--bs=4k", "it's"},
                        ""),
            "--name=a --bs=4k 'it'\\''s'");
  EXPECT_EQ(job_text_of({"job.fio"}, "[a]\nrw=read\n"), "job.fio\n[a]\nrw=read\n");
}

TEST(CommandArgs, KnobRootIsNotAUserOption) {
  EXPECT_THAT(error_of(parse_interfere_args, {"--knob-root=/tmp"}), HasSubstr("--knob-root: unknown option"));
}

TEST(CommandArgs, RestoreTakesAJournal) { EXPECT_EQ(parse_restore_args({"--journal=/tmp/j"}).journal, "/tmp/j"); }

}  // namespace
}  // namespace sluice

namespace sluice {
namespace {

TEST(InterfereArgs, TheFloodIsACopyOfOneMebibyteBlocksByDefault) {
  const InterfereArgs a = parse_interfere_args({});
  EXPECT_EQ(a.options.bg_bs, 1u << 20);
  EXPECT_EQ(a.options.bg_writers, 0u);  // auto
  EXPECT_EQ(parse_interfere_args({"--bg-bs=1k", "--bg-writers=3"}).options.bg_bs, 1024u);
  EXPECT_EQ(parse_interfere_args({"--bg-writers=3"}).options.bg_writers, 3u);
}

TEST(InterfereArgs, BadWriterCountsAreRefused) {
  EXPECT_THAT(error_of(parse_interfere_args, {"--bg-writers=0"}), HasSubstr("write a count from 1 to 64, or auto"));
  EXPECT_THAT(error_of(parse_interfere_args, {"--bg-writers=2x"}), HasSubstr("--bg-writers"));
}

TEST(InterfereArgs, TryAutoAsksForTheDocumentedSetBesideOtherTrials) {
  const InterfereArgs a = parse_interfere_args({"--try=auto", "--try", "queue.scheduler=bfq"});
  EXPECT_TRUE(a.options.try_auto);
  ASSERT_EQ(a.options.tries.size(), 1u);
  EXPECT_EQ(a.options.tries[0][0].first, "queue.scheduler");
}

}  // namespace
}  // namespace sluice
