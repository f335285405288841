#include "job/job_file_expand.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>

namespace sluice {
namespace {

using ::testing::HasSubstr;

ExpansionContext fixed_context() {
  ExpansionContext context;
  context.system = SystemValues{4, 4096, 2048};
  static const std::map<std::string, std::string> kEnv = {{"SIZE", "64m"}, {"EMPTY", ""}};
  context.env = [](const std::string& name) -> std::optional<std::string> {
    const auto it = kEnv.find(name);
    if (it == kEnv.end()) return std::nullopt;
    return it->second;
  };
  return context;
}

long double size_of(std::string_view text, std::uint32_t kb_base = 1024) {
  return evaluate_expression(text, ExprUnits::kSize, kb_base).value;
}

std::string expand(std::string_view option, std::string_view value) {
  return expand_value(value, find_option(option), 1024, fixed_context());
}

std::string expand_error(std::string_view option, std::string_view value) {
  try {
    expand(option, value);
  } catch (const UserError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(Expression, Precedence) { EXPECT_EQ(size_of("2+3*4"), 14); }
TEST(Expression, Parentheses) { EXPECT_EQ(size_of("(2+3)*4"), 20); }
TEST(Expression, PowerIsRightAssociative) { EXPECT_EQ(size_of("2^3^2"), 512); }
TEST(Expression, UnaryMinusBindsLooserThanPower) { EXPECT_EQ(size_of("-2^2"), -4); }
TEST(Expression, IntegerDivisionTruncatesLikeBc) { EXPECT_EQ(size_of("7/2*2"), 6); }
TEST(Expression, DecimalDivisionIsExact) { EXPECT_EQ(size_of("7.0/2"), 3.5L); }
TEST(Expression, Remainder) { EXPECT_EQ(size_of("17%5"), 2); }
TEST(Expression, SizeSuffixOnNumber) { EXPECT_EQ(size_of("4k*2"), 8192); }
TEST(Expression, SizeSuffixAfterParenthesis) { EXPECT_EQ(size_of("(2*4)k"), 8192); }
TEST(Expression, KbBase1000) { EXPECT_EQ(size_of("4k", 1000), 4000); }
TEST(Expression, KiBIsAlways1024) { EXPECT_EQ(size_of("1KiB", 1000), 1024); }
TEST(Expression, Hexadecimal) { EXPECT_EQ(size_of("0x10+1"), 17); }
TEST(Expression, BlanksAreIgnored) { EXPECT_EQ(size_of(" ( 1 + 1 ) * 3 "), 6); }

TEST(Expression, TimeSuffixesAreMicroseconds) {
  const ExprResult r = evaluate_expression("1s+500ms", ExprUnits::kTime, 1024);
  EXPECT_EQ(r.value, 1500000);
  EXPECT_TRUE(r.used_time_suffix);
}

TEST(Expression, DivisionByZeroIsAnError) { EXPECT_THROW(size_of("1/0"), UserError); }

TEST(Expression, MissingParenthesisIsAnError) {
  try {
    size_of("(1+2");
    FAIL() << "no error";
  } catch (const UserError& e) {
    EXPECT_THAT(e.what(), HasSubstr("missing ')'"));
  }
}

TEST(Expression, TrailingGarbageIsAnError) { EXPECT_THROW(size_of("1+2)"), UserError); }
TEST(Expression, UnknownUnitIsAnError) { EXPECT_THROW(size_of("4q"), UserError); }

TEST(Variables, EnvironmentVariable) { EXPECT_EQ(substitute_variables("${SIZE}", fixed_context()).text, "64m"); }
TEST(Variables, UnsetVariableIsEmpty) { EXPECT_EQ(substitute_variables("a${NOPE}b", fixed_context()).text, "ab"); }
TEST(Variables, UnterminatedBraceStaysLiteral) {
  EXPECT_EQ(substitute_variables("a${SIZE", fixed_context()).text, "a${SIZE");
}

TEST(Variables, Keywords) {
  const Substitution s = substitute_variables("$ncpus $pagesize $mb_memory", fixed_context());
  EXPECT_EQ(s.text, "4 4096 2048");
  EXPECT_TRUE(s.used_keyword);
}

TEST(Variables, KeywordNeedsAWordBoundary) {
  const Substitution s = substitute_variables("$ncpusx", fixed_context());
  EXPECT_EQ(s.text, "$ncpusx");
  EXPECT_FALSE(s.used_keyword);
}

TEST(Variables, JobnumStaysForTheRunner) {
  EXPECT_EQ(substitute_variables("/tmp/$jobname.$jobnum", fixed_context()).text, "/tmp/$jobname.$jobnum");
}

TEST(ExpandValue, KeywordArithmetic) { EXPECT_EQ(expand("size", "$ncpus*4096"), "16384"); }
TEST(ExpandValue, ParenthesizedExpression) { EXPECT_EQ(expand("size", "(4k*2)"), "8192"); }
TEST(ExpandValue, PlainValueIsUntouched) { EXPECT_EQ(expand("size", "4k*2"), "4k*2"); }
TEST(ExpandValue, KeywordAloneIsANumber) { EXPECT_EQ(expand("iodepth", "$ncpus"), "4"); }
TEST(ExpandValue, ListIsEvaluatedPerElement) { EXPECT_EQ(expand("bs", "4k,$pagesize*2"), "4k,8192"); }
TEST(ExpandValue, StringOptionIsOnlySubstituted) { EXPECT_EQ(expand("filename", "/tmp/f-$ncpus*2"), "/tmp/f-4*2"); }
TEST(ExpandValue, TimeInParenthesesIsMicroseconds) { EXPECT_EQ(expand("runtime", "(2*30)"), "60us"); }
TEST(ExpandValue, TimeWithSuffixInParentheses) { EXPECT_EQ(expand("runtime", "(1m+30s)"), "90000000us"); }
TEST(ExpandValue, KeywordTimeKeepsTheOptionsUnit) { EXPECT_EQ(expand("runtime", "$ncpus*10"), "40"); }
TEST(ExpandValue, EnvironmentInValue) { EXPECT_EQ(expand("size", "${SIZE}"), "64m"); }
TEST(ExpandValue, FractionIsTruncatedForSizes) { EXPECT_EQ(expand("size", "$ncpus*1.5"), "6"); }
TEST(ExpandValue, BadExpressionNamesTheText) {
  EXPECT_THAT(expand_error("size", "($ncpus*)"), HasSubstr("cannot evaluate '(4*)'"));
}

// Review for the fuzz targets (docs/reliability.md): the recursive evaluator had no depth limit, so a long
// run of parentheses or signs overflowed the stack (a crash on a one-line job file), and a negative result
// beyond 64 bits was converted to an integer without a check (undefined behaviour).
TEST(ExpandValue, DeepNestingIsAMessageNotACrash) {
  EXPECT_THAT(expand_error("size", "(" + std::string(100000, '(') + "1" + std::string(100001, ')')),
              HasSubstr("nests deeper than 256 levels"));
  EXPECT_THAT(expand_error("size", "(" + std::string(100000, '-') + "1)"), HasSubstr("nests deeper than 256 levels"));
  EXPECT_EQ(expand("size", "(" + std::string(100, '(') + "4k" + std::string(100, ')') + ")"), "4096");
}

TEST(ExpandValue, ANegativeResultBeyond64BitsIsRefused) {
  EXPECT_THAT(expand_error("size", "(-1" + std::string(30, '0') + ")"), HasSubstr("does not fit in 64 bits"));
  EXPECT_EQ(expand("offset_increment", "(0-4k)"), "-4096");
}

}  // namespace
}  // namespace sluice
