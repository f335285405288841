#include "targets/safety.h"

#include <gtest/gtest.h>

#include "support/temp_dir.h"
#include "targets/target_file.h"

namespace sluice {
namespace {

TEST(DestructiveWriteHazard, RegularFileHasNone) {
  testing::TempDir dir;
  EXPECT_FALSE(destructive_write_hazard(dir.make_file("f", 4096)).has_value());
}

TEST(DestructiveWriteHazard, CharacterDeviceIsNotABlockDevice) {
  EXPECT_FALSE(destructive_write_hazard("/dev/null").has_value());
}

TEST(CheckWriteSafety, RegularFilePasses) {
  testing::TempDir dir;
  TargetFile t{.path = dir.make_file("f", 4096)};
  EXPECT_NO_THROW(check_write_safety(t, {}));
}

}  // namespace
}  // namespace sluice
