#include <gtest/gtest.h>

#include <vector>

#include "engine/engine.h"
#include "engine_test_util.h"

namespace sluice {
namespace {

TEST(NullEngine, CompletesEveryIoWithItsLength) {
  auto engine = make_engine(EngineKind::kNull);
  engine->open({.depth = 4});
  std::vector<IoUnit> units(10);
  for (std::size_t i = 0; i < units.size(); ++i) units[i].length = static_cast<std::uint32_t>(512 * (i + 1));
  auto order = testing::run_all(*engine, units, 4);
  ASSERT_EQ(order.size(), units.size());
  for (const IoUnit& u : units) EXPECT_EQ(u.result, u.length);
}

TEST(NullEngine, AcceptsNoMoreThanDepthBeforeReap) {
  auto engine = make_engine(EngineKind::kNull);
  engine->open({.depth = 2});
  std::vector<IoUnit> units(3);
  std::vector<IoUnit*> batch = {&units[0], &units[1], &units[2]};
  EXPECT_EQ(engine->submit(batch), 2);
}

TEST(NullEngine, ReapsInSubmissionOrder) {
  auto engine = make_engine(EngineKind::kNull);
  engine->open({.depth = 8});
  std::vector<IoUnit> units(8);
  auto order = testing::run_all(*engine, units, 8);
  ASSERT_EQ(order.size(), 8u);
  for (std::size_t i = 0; i < 8; ++i) EXPECT_EQ(order[i], &units[i]);
}

TEST(NullEngine, NeedsNoFileAndIsSynchronous) {
  auto engine = make_engine(EngineKind::kNull);
  EXPECT_FALSE(engine->caps().needs_fd);
  EXPECT_FALSE(engine->caps().async);
  EXPECT_EQ(engine->name(), "null");
}

}  // namespace
}  // namespace sluice
