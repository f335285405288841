#include "html/series_chart.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace sluice::html {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

SeriesChartInput two_segments() {
  SeriesChartInput in;
  in.id = "trend";
  in.title = "read.iops";
  in.y_label = "read.iops";
  for (int i = 1; i <= 6; ++i) {
    in.points.push_back(
        {"id" + std::to_string(i), "2026-12-0" + std::to_string(i) + "T00:00:00Z", "", i <= 3 ? 100.0 : 50.0});
  }
  in.segments = {{1, 3, 100.0}, {4, 6, 50.0}};
  in.changes = {{4, "-50.0%", "-50.0% at result 4 of 6", {"kernel_release: 6.1 -> <6.8 & \"rc\">"}}};
  return in;
}

TEST(SeriesChart, SegmentsAreSpansAndChangesAreMarkersBetweenResults) {
  const ChartSpec chart = series_chart(two_segments());
  ASSERT_EQ(chart.series.size(), 1u);
  EXPECT_EQ(chart.series[0].points.size(), 6u);
  EXPECT_DOUBLE_EQ(chart.series[0].points[3].x, 4.0);
  ASSERT_EQ(chart.spans.size(), 2u);
  EXPECT_DOUBLE_EQ(chart.spans[0].x0, 0.6);
  EXPECT_DOUBLE_EQ(chart.spans[0].x1, 3.4);
  EXPECT_DOUBLE_EQ(chart.spans[1].y, 50.0);
  ASSERT_EQ(chart.markers.size(), 1u);
  EXPECT_DOUBLE_EQ(chart.markers[0].x, 3.5);  // between the last result before and the first after
  EXPECT_EQ(chart.markers[0].label, "1 -50.0%");
  EXPECT_EQ(chart.markers[0].detail, "-50.0% at result 4 of 6\nkernel_release: 6.1 -> <6.8 & \"rc\">");
}

TEST(SeriesChart, SvgTooltipsCarryTheDifferencesEscapedAndCsvKeepsTheSpans) {
  const ChartSpec chart = series_chart(two_segments());
  const std::string svg = render_svg(chart);
  EXPECT_THAT(svg, HasSubstr("<g class=\"marker\"><title>1 -50.0%\n-50.0% at result 4 of 6\nkernel_release: 6.1 -&gt; "
                             "&lt;6.8 &amp; &quot;rc&quot;&gt;</title>"));
  EXPECT_THAT(svg, HasSubstr(">1 -50.0%</text>"));  // the label alone on the chart
  EXPECT_THAT(svg, HasSubstr("<g class=\"span\"><title>mean of results 1 to 3: 100</title>"));
  EXPECT_THAT(svg, HasSubstr("<g class=\"span\"><title>mean of results 4 to 6: 50</title>"));
  const std::string csv = render_csv(chart);
  EXPECT_THAT(
      csv,
      HasSubstr("#span mean of results 4 to 6: 50,left,3.6,50\n#span-end mean of results 4 to 6: 50,left,6.4,50\n"));
  EXPECT_THAT(csv, HasSubstr("#marker 1 -50.0%,,3.5,\n"));
}

TEST(SeriesChart, PageHasTheChartTheChangesAndTheResults) {
  const std::string page = render_series_page("trend of read.iops", "E-Divisive means", {two_segments()});
  EXPECT_EQ(page.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_THAT(page, HasSubstr("<title>trend of read.iops</title>"));
  EXPECT_THAT(page, HasSubstr("<td>kernel_release: 6.1 -&gt; &lt;6.8 &amp; &quot;rc&quot;&gt;</td>"));
  EXPECT_THAT(
      page,
      HasSubstr(
          "<tr class=\"worse\"><td>4</td><td>id4</td><td>2026-12-04T00:00:00Z</td><td></td><td>50</td><td>50</td><td>1 "
          "-50.0%</td></tr>"));
  EXPECT_THAT(
      page,
      HasSubstr(
          "<tr><td>3</td><td>id3</td><td>2026-12-03T00:00:00Z</td><td></td><td>100</td><td>100</td><td></td></tr>"));
  EXPECT_THAT(page, Not(HasSubstr("<script")));
  SeriesChartInput flat = two_segments();
  flat.changes.clear();
  flat.segments = {{1, 6, 75.0}};
  EXPECT_THAT(render_series_page("t", "m", {flat}), HasSubstr("<p>No change point: one segment.</p>"));
}

}  // namespace
}  // namespace sluice::html
