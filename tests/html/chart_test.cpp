// The SVG writer's pieces: text escaping and number formatting, scales and ticks, min/max downsampling, and
// render_svg/render_csv of a ChartSpec.
#include "html/chart.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <regex>

#include "html/downsample.h"
#include "html/scale.h"
#include "html/svg_text.h"

namespace sluice::html {
namespace {

TEST(SvgText, EscapesMarkupCharacters) {
  EXPECT_EQ(escape("a<b & \"c\" 'd'>"), "a&lt;b &amp; &quot;c&quot; &#39;d&#39;&gt;");
}

TEST(SvgText, FixedNumbers) {
  EXPECT_EQ(coord(12.345), "12.3");
  EXPECT_EQ(coord(-0.01), "0.0");
  EXPECT_EQ(coord(std::nan("")), "0.0");
  EXPECT_EQ(short_number(1500), "1500");
  EXPECT_EQ(short_number(0.25), "0.25");
  EXPECT_EQ(short_number(2.5e8), "2.5e+08");
  EXPECT_EQ(short_number(0), "0");
}

TEST(Scale, LinearAndLogMapping) {
  const Scale lin(0, 100, 10, 110, false);
  EXPECT_DOUBLE_EQ(lin.map(50), 60);
  EXPECT_DOUBLE_EQ(lin.map(200), 110);  // clamped
  const Scale log(1, 1000, 0, 300, true);
  EXPECT_NEAR(log.map(10), 100, 1e-9);
  EXPECT_NEAR(log.map(100), 200, 1e-9);
  EXPECT_NEAR(log.map(0), 0, 1e-9);  // below the domain: clamped, not NaN
  const Scale flat(5, 5, 0, 100, false);
  EXPECT_TRUE(std::isfinite(flat.map(5)));
}

TEST(Scale, TicksAreRound) {
  const std::vector<Tick> t = linear_ticks(0, 1000, 5);
  ASSERT_FALSE(t.empty());
  EXPECT_EQ(t.front().label, "0");
  EXPECT_EQ(t[1].label, "200");
  EXPECT_EQ(t.back().label, "1000");
  const std::vector<Tick> l = log_ticks(1, 1e5);
  ASSERT_EQ(l.size(), 6u);
  EXPECT_EQ(l[3].label, "1000");
  EXPECT_EQ(nice_ceiling(93), 100);
}

TEST(Downsample, ShortSeriesUnchanged) {
  std::vector<ChartPoint> p = {{1, 5}, {2, 6}, {3, 7}};
  const auto out = downsample_min_max(p, 10);
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[2].y, 7);
}

TEST(Downsample, KeepsPeaksAndOrder) {
  std::vector<ChartPoint> p;
  for (int i = 0; i < 86400; ++i) p.push_back({static_cast<double>(i), 1000.0 + (i % 7)});
  p[40000].y = 99999;  // one spike
  p[70000].y = -5;     // one dip
  const auto out = downsample_min_max(p, 800);
  EXPECT_LE(out.size(), 1600u);
  EXPECT_EQ(std::max_element(out.begin(), out.end(), [](auto a, auto b) { return a.y < b.y; })->x, 40000);
  EXPECT_EQ(std::min_element(out.begin(), out.end(), [](auto a, auto b) { return a.y < b.y; })->x, 70000);
  EXPECT_TRUE(std::is_sorted(out.begin(), out.end(), [](auto a, auto b) { return a.x < b.x; }));
}

ChartSpec sample_chart() {
  ChartSpec c;
  c.id = "demo";
  c.title = "Demo <chart>";
  c.x.label = "time (s)";
  c.y.label = "IOPS";
  c.y2.label = "p99 (ms)";
  c.series.push_back({"read IOPS", {{1, 100}, {2, 120}, {3, 90}}, Axis::kLeft, false, false, -1});
  c.series.push_back({"read p99", {{1, 2}, {2, 3}, {3, 2.5}}, Axis::kRight, true, true, -1});
  c.markers.push_back({2, "phase b", ""});
  c.levels.push_back({2.8, Axis::kRight, "SLO"});
  c.highlights.push_back({{2, 120}, Axis::kLeft, "knee"});
  return c;
}

TEST(Chart, SvgHasTitleAxesSeriesAndMarks) {
  const std::string svg = render_svg(sample_chart());
  EXPECT_NE(svg.find("<title id=\"chart-demo-title\">Demo &lt;chart&gt;</title>"), std::string::npos);
  EXPECT_NE(svg.find(">time (s)</text>"), std::string::npos);
  EXPECT_NE(svg.find(">IOPS</text>"), std::string::npos);
  EXPECT_NE(svg.find(">p99 (ms)</text>"), std::string::npos);
  EXPECT_EQ(std::count(svg.begin(), svg.end(), '\n') > 10, true);
  const std::regex polyline("<polyline [^>]*points=\"([0-9. ,]+)\"");
  EXPECT_EQ(std::distance(std::sregex_iterator(svg.begin(), svg.end(), polyline), std::sregex_iterator()), 2);
  EXPECT_NE(svg.find(">phase b</text>"), std::string::npos);
  EXPECT_NE(svg.find(">SLO</text>"), std::string::npos);
  EXPECT_NE(svg.find(">knee</text>"), std::string::npos);
  EXPECT_EQ(svg, render_svg(sample_chart()));  // deterministic
}

TEST(Chart, LeftSeriesSpansThePlot) {
  // y from 0 to a round ceiling: the largest value sits below the top, the x range fills the width.
  const std::string svg = render_svg(sample_chart());
  const std::smatch m = [&] {
    std::smatch out;
    std::regex_search(svg, out, std::regex("points=\"([0-9.]+),([0-9.]+) [0-9.]+,([0-9.]+) ([0-9.]+),"));
    return out;
  }();
  ASSERT_EQ(m.size(), 5u);
  EXPECT_EQ(m[1].str(), "76.0");   // x = 1 at the left edge
  EXPECT_EQ(m[4].str(), "684.0");  // x = 3 at the right edge (760 - 76, the right axis's margin)
}

TEST(Chart, CsvListsEveryPointAndMark) {
  const std::string csv = render_csv(sample_chart());
  EXPECT_NE(csv.find("series,axis,x,y\n"), std::string::npos);
  EXPECT_NE(csv.find("read IOPS,left,2,120\n"), std::string::npos);
  EXPECT_NE(csv.find("read p99,right,3,2.5\n"), std::string::npos);
  EXPECT_NE(csv.find("#marker phase b,,2,\n"), std::string::npos);
  EXPECT_NE(csv.find("#level SLO,right,,2.8\n"), std::string::npos);
  EXPECT_NE(csv.find("#highlight knee,left,2,120\n"), std::string::npos);
}

}  // namespace
}  // namespace sluice::html
