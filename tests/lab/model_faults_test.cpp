// The model's fault rules: each action and trigger, several rules, the counters across threads, bad rules.
#include "lab/model_faults.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cerrno>
#include <thread>

#include "lab/model_parser.h"
#include "lab/truth.h"

namespace sluice {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using namespace std::chrono_literals;

FaultRule rule_of(std::string_view text) {
  std::string error;
  std::optional<FaultRule> rule = parse_fault_rule(text, error);
  EXPECT_TRUE(rule) << text << ": " << error;
  return rule ? *rule : FaultRule{};
}

std::string error_of(std::string_view text) {
  std::string error;
  EXPECT_FALSE(parse_fault_rule(text, error)) << text << " accepted";
  return error;
}

FaultInjector injector(std::initializer_list<std::string_view> texts) {
  std::vector<FaultRule> rules;
  for (std::string_view t : texts) rules.push_back(rule_of(t));
  return FaultInjector(std::move(rules));
}

constexpr std::uint64_t kMiB = 1 << 20;

TEST(FaultRules, ParsesEachPart) {
  const FaultRule r = rule_of("write:stall=200ms:at=1m:after=3:after_time=2s:count=5");
  EXPECT_EQ(r.text, "write:stall=200ms:at=1m:after=3:after_time=2s:count=5");
  EXPECT_EQ(r.op, FaultOp::kWrite);
  EXPECT_EQ(r.action, FaultAction::kStall);
  EXPECT_EQ(r.stall, 200ms);
  EXPECT_EQ(r.at, kMiB);
  EXPECT_EQ(r.after, 3u);
  EXPECT_EQ(r.after_time, 2s);
  EXPECT_EQ(r.count, 5u);
  const FaultRule plain = rule_of("any:eio");
  EXPECT_EQ(plain.op, FaultOp::kAny);
  EXPECT_EQ(plain.action, FaultAction::kEio);
  EXPECT_FALSE(plain.at);
  EXPECT_FALSE(plain.count);
  EXPECT_EQ(rule_of("flush:enospc").action, FaultAction::kEnospc);
  EXPECT_EQ(rule_of("write:lie").action, FaultAction::kLie);
}

TEST(FaultRules, ErrorsFailWithTheirErrno) {
  FaultInjector f = injector({"read:eio", "write:enospc"});
  const FaultDecision read = f.decide(FaultOp::kRead, 0, 4096, 0ns);
  EXPECT_EQ(read.action, FaultAction::kEio);
  EXPECT_EQ(read.error(), EIO);
  EXPECT_EQ(read.rule, 0);
  const FaultDecision write = f.decide(FaultOp::kWrite, 0, 4096, 0ns);
  EXPECT_EQ(write.error(), ENOSPC);
  EXPECT_EQ(write.rule, 1);
  EXPECT_FALSE(f.decide(FaultOp::kFlush, 0, 0, 0ns));
  EXPECT_THAT(f.fired(), ElementsAre(1u, 1u));
}

TEST(FaultRules, StallAddsItsTimeAndFailsNothing) {
  FaultInjector f = injector({"any:stall=150ms"});
  const FaultDecision d = f.decide(FaultOp::kFlush, 0, 0, 0ns);
  EXPECT_EQ(d.action, FaultAction::kStall);
  EXPECT_EQ(d.stall, 150ms);
  EXPECT_EQ(d.error(), 0);
}

TEST(FaultRules, LieIsForWritesOnly) {
  FaultInjector f = injector({"write:lie"});
  EXPECT_EQ(f.decide(FaultOp::kWrite, 0, 4096, 0ns).action, FaultAction::kLie);
  EXPECT_FALSE(f.decide(FaultOp::kRead, 0, 4096, 0ns));
  EXPECT_THAT(error_of("read:lie"), HasSubstr("lie applies to writes only"));
  EXPECT_THAT(error_of("any:lie"), HasSubstr("lie applies to writes only"));
}

TEST(FaultRules, AtMatchesTheRequestsHoldingThatByte) {
  FaultInjector f = injector({"read:eio:at=1m"});
  EXPECT_FALSE(f.decide(FaultOp::kRead, 0, 4096, 0ns));
  EXPECT_FALSE(f.decide(FaultOp::kRead, kMiB - 4096, 4096, 0ns));  // ends just before
  EXPECT_TRUE(f.decide(FaultOp::kRead, kMiB, 4096, 0ns));
  EXPECT_TRUE(f.decide(FaultOp::kRead, kMiB - 4096, 8192, 0ns));
  EXPECT_FALSE(f.decide(FaultOp::kRead, kMiB + 1, 4096, 0ns));
  EXPECT_FALSE(f.decide(FaultOp::kWrite, kMiB, 4096, 0ns));  // another op
  FaultInjector any = injector({"any:eio:at=0"});
  EXPECT_FALSE(any.decide(FaultOp::kFlush, 0, 0, 0ns));  // a flush holds no byte
  EXPECT_TRUE(any.decide(FaultOp::kWrite, 0, 512, 0ns));
  EXPECT_THAT(error_of("flush:eio:at=0"), HasSubstr("never matches a flush"));
}

TEST(FaultRules, AfterLetsTheFirstRequestsOfItsOpThrough) {
  FaultInjector f = injector({"write:eio:after=2"});
  EXPECT_FALSE(f.decide(FaultOp::kRead, 0, 4096, 0ns));  // not counted: another op
  EXPECT_FALSE(f.decide(FaultOp::kWrite, 0, 4096, 0ns));
  EXPECT_FALSE(f.decide(FaultOp::kWrite, 0, 4096, 0ns));
  EXPECT_TRUE(f.decide(FaultOp::kWrite, 0, 4096, 0ns));
  EXPECT_TRUE(f.decide(FaultOp::kWrite, 0, 4096, 0ns));
}

TEST(FaultRules, AfterTimeWaitsFromTheStart) {
  FaultInjector f = injector({"read:eio:after_time=2s"});
  EXPECT_FALSE(f.decide(FaultOp::kRead, 0, 4096, 1999ms));
  EXPECT_TRUE(f.decide(FaultOp::kRead, 0, 4096, 2s));
}

TEST(FaultRules, CountLimitsTheFaults) {
  FaultInjector f = injector({"any:stall=200ms:after=2:count=1"});
  EXPECT_FALSE(f.decide(FaultOp::kWrite, 0, 4096, 0ns));
  EXPECT_FALSE(f.decide(FaultOp::kFlush, 0, 0, 0ns));
  EXPECT_EQ(f.decide(FaultOp::kRead, 0, 4096, 0ns).action, FaultAction::kStall);  // the third request
  EXPECT_FALSE(f.decide(FaultOp::kRead, 0, 4096, 0ns));
  EXPECT_THAT(f.fired(), ElementsAre(1u));
}

TEST(FaultRules, TheFirstMatchingRuleDecidesAndEveryRuleCounts) {
  FaultInjector f = injector({"write:lie:count=1", "write:eio:after=1", "any:stall=1ms"});
  EXPECT_EQ(f.decide(FaultOp::kWrite, 0, 4096, 0ns).action, FaultAction::kLie);  // rule 1 (rule 2 counts it)
  const FaultDecision second = f.decide(FaultOp::kWrite, 0, 4096, 0ns);
  EXPECT_EQ(second.action, FaultAction::kEio);
  EXPECT_EQ(second.rule, 1);
  EXPECT_EQ(f.decide(FaultOp::kRead, 0, 4096, 0ns).rule, 2);
  EXPECT_THAT(f.fired(), ElementsAre(1u, 1u, 1u));
}

TEST(FaultRules, CountHoldsAcrossThreads) {
  FaultInjector f = injector({"read:eio:count=100"});
  std::atomic<int> failed{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 1000; ++i) {
        if (f.decide(FaultOp::kRead, 0, 4096, 0ns)) failed.fetch_add(1);
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(failed.load(), 100);
  EXPECT_THAT(f.fired(), ElementsAre(100u));
}

TEST(FaultRules, BadRulesNameTheNearestWord) {
  EXPECT_EQ(error_of("raed:eio"), "unknown operation 'raed'; did you mean 'read'?");
  EXPECT_EQ(error_of("fsync:eio"), "unknown operation 'fsync'; did you mean 'flush'?");
  EXPECT_EQ(error_of("read:eoi"), "unknown action 'eoi'; did you mean 'eio'?");
  EXPECT_EQ(error_of("read:delay=1ms"), "unknown action 'delay'; did you mean 'stall'?");  // faultfs's words
  EXPECT_EQ(error_of("read:eio:after_ms=5"), "unknown trigger 'after_ms'; did you mean 'after_time'?");
  EXPECT_EQ(error_of("read:crash"), "unknown action 'crash' (the nearest is 'stall'; one of eio, enospc, stall, lie)");
  EXPECT_EQ(error_of("read:eio:cont=1"), "unknown trigger 'cont'; did you mean 'count'?");
  EXPECT_THAT(error_of("read"), HasSubstr("no action after 'read'; a rule is OP:ACTION[:TRIGGER]..."));
  EXPECT_THAT(error_of(":eio"), HasSubstr("no operation"));
  EXPECT_THAT(error_of("read:stall"), HasSubstr("stall needs a positive duration with a unit: stall=200ms"));
  EXPECT_THAT(error_of("read:stall=200"), HasSubstr("stall needs a positive duration"));
  EXPECT_EQ(error_of("read:eio=1"), "eio takes no value");
  EXPECT_THAT(error_of("read:eio:at=lots"), HasSubstr("at=lots: not an offset"));
  EXPECT_THAT(error_of("read:eio:at"), HasSubstr("at needs a value: at=1m"));
  EXPECT_THAT(error_of("read:eio:after=x"), HasSubstr("after=x: not an integer"));
  EXPECT_THAT(error_of("read:eio:after_time=5"), HasSubstr("after_time=5: not a duration"));
  EXPECT_THAT(error_of("read:eio:count=0"), HasSubstr("count=0 never fires"));
  EXPECT_THAT(error_of("read:eio:count=1:count=2"), HasSubstr("count given twice"));
}

TEST(FaultRules, AModelTakesSeveralFaultLinesInOrder) {
  const ModelSpec m =
      parse_model("read_time = 1ms\nfault = read:eio:at=1m\nfault = write:lie:count=1\n", "m.model", "m");
  ASSERT_EQ(m.faults.size(), 2u);
  EXPECT_EQ(m.faults[0].text, "read:eio:at=1m");
  EXPECT_EQ(m.faults[1].action, FaultAction::kLie);
  EXPECT_EQ(parse_model("read_time = 1ms\n", "m.model", "m").faults.size(), 0u);
}

TEST(FaultRules, ABadFaultLineIsReportedAtItsLine) {
  try {
    parse_model("read_time = 1ms\nfault = read:eio\nfault = raed:eio\nservers = 2\nservers = 3\n", "m.model", "m");
    ADD_FAILURE() << "accepted";
  } catch (const UserError& e) {
    EXPECT_THAT(e.what(), HasSubstr("m.model:3: fault = raed:eio: unknown operation 'raed'; did you mean 'read'?"));
    EXPECT_THAT(e.what(), HasSubstr("m.model:5: servers given twice (first on line 4)"));  // others still once
  }
}

TEST(FaultRules, TheTruthSaysWhatItIsFor) {
  const ModelSpec plain = parse_model("read_time = 1ms\n", "m.model", "m");
  const ModelSpec faulty = parse_model("read_time = 1ms\nfault = read:eio:at=1m\n", "m.model", "m");
  const auto has_note = [](const Truth& t) {
    for (const std::string& note : t.notes) {
      if (note.starts_with("faults: the rows are for the requests the faults leave alone")) return true;
    }
    return false;
  };
  EXPECT_FALSE(has_note(compute_truth(plain, {})));
  EXPECT_TRUE(has_note(compute_truth(faulty, {})));
}

}  // namespace
}  // namespace sluice
