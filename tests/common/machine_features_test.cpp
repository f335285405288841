// The tests' feature probes (tests/support/machine_features.h): a probe's answer is cached, a withheld
// feature is absent with the reason naming SLUICE_TEST_WITHOUT, and an absent program names its package.
#include "support/machine_features.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <string>

namespace sluice::testing {
namespace {

// Sets an environment variable for one scope, restoring the old value after.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::string& value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    had_ = std::getenv(name) != nullptr;
    ::setenv(name, value.c_str(), 1);
  }
  ~ScopedEnv() {
    if (had_)
      ::setenv(name_, old_.c_str(), 1);
    else
      ::unsetenv(name_);
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* name_;
  std::string old_;
  bool had_ = false;
};

TEST(MachineFeatures, EveryFeatureHasADistinctName) {
  for (int a = 0; a < static_cast<int>(Feature::kCount); ++a) {
    EXPECT_STRNE(feature_name(static_cast<Feature>(a)), "");
    for (int b = a + 1; b < static_cast<int>(Feature::kCount); ++b) {
      EXPECT_STRNE(feature_name(static_cast<Feature>(a)), feature_name(static_cast<Feature>(b)));
    }
  }
}

TEST(MachineFeatures, WithheldNamesOnlyTheListedFeatures) {
  const ScopedEnv without("SLUICE_TEST_WITHOUT", "fio,ext4_move_ext");
  EXPECT_TRUE(detail::withheld(Feature::kFio));
  EXPECT_TRUE(detail::withheld(Feature::kExt4MoveExt));
  EXPECT_FALSE(detail::withheld(Feature::kFioExamples)) << "a name is matched whole, not as a prefix";
  EXPECT_FALSE(detail::withheld(Feature::kRoot));
}

TEST(MachineFeatures, AProgramMissingFromPathNamesItsPackage) {
  const ScopedEnv path("PATH", "/nonexistent-dir");
  EXPECT_EQ(detail::probe_program("sysbench", "sysbench"), "sysbench is not in PATH (Debian package sysbench)");
  EXPECT_EQ(detail::find_in_path("sh"), "");
}

TEST(MachineFeatures, AProgramInPathIsFound) {
  const ScopedEnv path("PATH", "/nonexistent-dir:/bin:/usr/bin");
  EXPECT_EQ(detail::probe_program("sh", "dash"), "");
  EXPECT_NE(detail::find_in_path("sh"), "");
}

TEST(MachineFeatures, TheAnswerIsCachedAndCarriesTheFeatureName) {
  const FeatureProbe& first = probe(Feature::kIoUring);
  const FeatureProbe& second = probe(Feature::kIoUring);
  EXPECT_EQ(&first, &second);
  if (!first.available)
    EXPECT_EQ(first.reason.rfind("io_uring: ", 0), 0u) << first.reason;
  else
    EXPECT_EQ(first.reason, "");
}

TEST(MachineFeatures, RootIsWhatGeteuidSays) { EXPECT_EQ(have(Feature::kRoot), ::geteuid() == 0); }

}  // namespace
}  // namespace sluice::testing
