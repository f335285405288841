#include "compare/compare_markdown.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace sluice {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

nlohmann::json md_doc(const std::string& job, double iops, const std::string& kernel) {
  return {{"jobs",
           {{{"jobname", job},
             {"job options", {{"iodepth", "1"}}},
             {"read",
              {{"total_ios", 100}, {"iops", iops}, {"bw_bytes", iops * 4096}, {"lat_ns", {{"mean", 1e9 / iops}}}}}}}},
          {"sluice", {{"version", "0.1.0"}, {"environment", {{"kernel_release", kernel}}}}}};
}

ResultSet md_set(const std::string& name, const std::string& job, std::vector<double> iops,
                 const std::string& kernel = "6.1") {
  ResultSet s{name, "files", {}};
  for (double v : iops) s.repetitions.push_back(md_doc(job, v, kernel));
  return s;
}

CompareReport md_report(const std::vector<ResultSet>& sets, const std::vector<std::string>& rules) {
  CompareOptions options;
  options.fail_on = parse_fail_on(rules);
  return compare_sets(sets, options);
}

TEST(CompareMarkdown, HeadlineTableAndBreachMarks) {
  const std::string md = render_compare_markdown(md_report(
      {md_set("main", "j", {100, 101, 102, 103}), md_set("pr-42", "j", {80, 81, 82, 83}, "6.8")}, {"iops:-5%"}));
  EXPECT_THAT(
      md, HasSubstr("### sluice compare: pr-42 against main\n\nA: main (4 repetitions) · B: pr-42 (4 repetitions)\n"));
  // iops and bw fell (worse), mean latency rose (worse): three worse, nothing unclear.
  EXPECT_THAT(md, HasSubstr("**0 better, 3 worse, 0 no clear change** of 3 metrics; :x: 1 --fail-on breach\n"));
  EXPECT_THAT(
      md, HasSubstr("| job | metric | A | B | change | p | verdict | fail-on |\n|:--|:--|--:|--:|--:|--:|:--|:--|\n"));
  EXPECT_THAT(md, HasSubstr("| j | read iops | 102 IOPS | 82 IOPS | -19.7% | 0.0286 | **worse** | :x: iops:-5% |\n"));
  EXPECT_THAT(md, HasSubstr("| j | read mean | "));
  EXPECT_THAT(
      md, ::testing::ContainsRegex(
              "\\| j \\| read mean \\| [^|]+ \\| [^|]+ \\| \\+[0-9.]+% \\| 0.0286 \\| \\*\\*worse\\*\\* \\|  \\|\n"));
  EXPECT_THAT(md, HasSubstr("\nCaveats:\n- environment differs: kernel\\_release: 6.1 → 6.8\n"));
  EXPECT_THAT(md, HasSubstr(":x: **--fail-on=iops:-5%: a rule fired** (exit status 1)\n"));
}

TEST(CompareMarkdown, NoClearChangeAndTheReasonsOfNaRows) {
  const std::string md = render_compare_markdown(md_report(
      {md_set("a", "j", {100, 101, 102, 103}), md_set("b", "j", {100, 102, 101, 103}), md_set("c", "j", {90, 91})},
      {"iops:-5%"}));
  EXPECT_THAT(md, HasSubstr("**0 better, 0 worse, 3 no clear change** of 3 metrics\n"));
  EXPECT_THAT(
      md, HasSubstr("**0 better, 0 worse, 3 no clear change** (3 metrics could not be judged: n/a) of 3 metrics\n"));
  EXPECT_THAT(md, HasSubstr("| within noise |  |\n"));
  EXPECT_THAT(md, HasSubstr("- n/a: cannot tell: 4 and 2 repetitions; a verdict needs at least 3 on each side\n"));
  EXPECT_THAT(md, HasSubstr(":white_check_mark: --fail-on=iops:-5%: no rule fired\n"));
  EXPECT_THAT(md, Not(HasSubstr(":x:")));
}

TEST(CompareMarkdown, CellsCannotBreakTheTable) {
  EXPECT_EQ(markdown_cell("db|log *x* _y_ `z` [l](u) <b> & #1 ~s~ a\\b\nnext"),
            "db\\|log \\*x\\* \\_y\\_ \\`z\\` \\[l\\](u) &lt;b&gt; &amp; \\#1 \\~s\\~ a\\\\b next");
  const std::string md = render_compare_markdown(
      md_report({md_set("a", "j|k", {100, 101, 102}), md_set("b", "j|k", {100, 101, 102})}, {}));
  EXPECT_THAT(md, HasSubstr("| j\\|k | read iops | "));
}

}  // namespace
}  // namespace sluice
