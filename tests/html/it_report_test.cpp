// End to end: a real small run and a capacity search are drawn by `sluice report`, the HTML is opened in
// headless Chromium (every host resolves to nothing, requests logged) and its DOM, its requests and a
// screenshot are checked; bad inputs and chart export through the binary.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>

#include "support/it_test_util.h"
#include "support/machine_features.h"
#include "support/temp_dir.h"

namespace sluice::testing {
namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

RunOptions with_timeout(int seconds, const std::string& program = SLUICE_BINARY) {
  RunOptions o;
  o.program = program;
  o.timeout = std::chrono::seconds(seconds);
  return o;
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

class ReportIt : public ::testing::Test {
 protected:
  // One 2 s psync run shared by the tests: its text output and then its json+ document (the full latency
  // histogram: the spectrum's source) in one file, as `--output-format=normal,json+` writes them.
  static void SetUpTestSuite() {
    dir_ = new TempDir;
    const RunOutput r =
        run_binary({"run", "--name=small", "--filename=" + dir_->file("data"), "--size=8m", "--rw=randrw", "--bs=4k",
                    "--ioengine=psync", "--runtime=2", "--time_based", "--write_hist_log=" + dir_->file("hist"),
                    "--log_hist_msec=100", "--output-format=normal,json+", "--output=" + dir_->file("run.json")},
                   with_timeout(30));
    run_ok_ = r.exit_code == 0;
    if (!run_ok_) ADD_FAILURE() << describe(r);
  }
  static void TearDownTestSuite() {
    delete dir_;
    dir_ = nullptr;
  }
  void SetUp() override {
    if (!run_ok_) GTEST_SKIP() << "the run that feeds the report failed";
  }
  // Headless Chromium on `args` with every host name resolving to nothing and a network log in
  // <dir>/<tag>.netlog (the browser's own update and account checks are in it too, as "not an origin").
  static RunOutput chromium(std::vector<std::string> args, const std::string& tag) {
    std::vector<std::string> all = {"--headless",
                                    "--disable-gpu",
                                    "--no-sandbox",
                                    "--no-first-run",
                                    "--user-data-dir=" + dir_->file(tag + ".profile"),
                                    "--host-resolver-rules=MAP * ~NOTFOUND",
                                    "--log-net-log=" + dir_->file(tag + ".netlog")};
    all.insert(all.end(), args.begin(), args.end());
    return run_binary(all, with_timeout(60, "chromium"));
  }
  // The URLs the page itself asked for (requests whose initiator is the page's origin, "null" for file://).
  // The log has one event per line, its params with "initiator" before "url".
  static std::vector<std::string> page_requests(const std::string& tag) {
    const std::string log = read_file(dir_->file(tag + ".netlog"));
    EXPECT_NE(log.find("\"events\""), std::string::npos) << "no network log written";
    std::vector<std::string> urls;
    const std::regex request(R"re("initiator":"([^"]*)"[^\n]*?"url":"([^"]*)")re");
    for (auto it = std::sregex_iterator(log.begin(), log.end(), request); it != std::sregex_iterator(); ++it) {
      if ((*it)[1] != "not an origin") urls.push_back((*it)[2]);
    }
    return urls;
  }
  // CI installs chromium (scripts/install-deps.sh --with-peers): there its absence is a missing install step,
  // unless scripts/fresh-check.sh withheld it on purpose.
  static void skip_without_chromium() {
    const FeatureProbe& chromium = probe(Feature::kChromium);
    if (chromium.available) return;
    if (std::getenv("CI") != nullptr && std::getenv("SLUICE_TEST_WITHOUT") == nullptr) FAIL() << chromium.reason;
    GTEST_SKIP() << chromium.reason;
  }
  static TempDir* dir_;
  static bool run_ok_;
};
TempDir* ReportIt::dir_ = nullptr;
bool ReportIt::run_ok_ = false;

TEST_F(ReportIt, OpensInHeadlessChromiumWithEveryChartAndNoRequest) {
  const RunOutput cap = run_binary({"capacity", "--filename=" + dir_->file("data"), "--size=8m", "--ioengine=psync",
                                    "--direct=0", "--budget=4s", "--max-concurrency=4", "--scale=numjobs", "--slo=50ms",
                                    "--no-status", "--output-format=json", "--output=" + dir_->file("cap.json")},
                                   with_timeout(40));
  ASSERT_EQ(cap.exit_code, 0) << describe(cap);
  const std::string html_path = dir_->file("report.html");
  const std::string hist = "--hist-log=" + dir_->file("hist_clat_hist.1.log");
  const RunOutput rep = run_binary({"report", dir_->file("run.json"), dir_->file("cap.json"), hist, "-o", html_path});
  ASSERT_EQ(rep.exit_code, 0) << describe(rep);
  const std::string html = read_file(html_path);
  EXPECT_FALSE(std::regex_search(html, std::regex(R"((src|href)\s*=\s*["']?\s*(https?:)?//)", std::regex::icase)));
  EXPECT_EQ(html.find("<script"), std::string::npos);
  for (const char* id : {"overlay-spectrum", "r1-spectrum", "r1-cdf", "r1-timeline-small", "r1-bandwidth-small",
                         "r2-spectrum", "r2-capacity", "heatmap-hist_clat_hist.1-read"}) {
    EXPECT_NE(html.find(std::string("id=\"chart-") + id + "\""), std::string::npos) << id;
  }
  // Deterministic: the same inputs, the same bytes.
  const RunOutput again = run_binary({"report", dir_->file("run.json"), dir_->file("cap.json"), hist});
  EXPECT_EQ(again.out, html);

  skip_without_chromium();
  if (HasFatalFailure() || IsSkipped()) return;
  const RunOutput dom = chromium({"--dump-dom", "file://" + html_path}, "dom");
  ASSERT_EQ(dom.exit_code, 0) << describe(dom);
  // Every chart the file holds is an <svg> in the parsed DOM, with its title.
  EXPECT_EQ(count(dom.out, "<svg "), count(html, "<svg "));
  EXPECT_GE(count(dom.out, "<svg "), 9u);
  EXPECT_EQ(count(dom.out, "<title id=\"chart-"), count(html, "<svg "));
  EXPECT_EQ(page_requests("dom"), std::vector<std::string>{});

  const std::string png = dir_->file("shot.png");
  const RunOutput s = chromium({"--screenshot=" + png, "--window-size=800,1000", "file://" + html_path}, "shot");
  ASSERT_EQ(s.exit_code, 0) << describe(s);
  const RunOutput stats =
      run_binary({std::string(SLUICE_SOURCE_DIR) + "/tests/html/png_stats.py", png}, with_timeout(60, "python3"));
  ASSERT_EQ(stats.exit_code, 0) << describe(stats);
  std::istringstream in(stats.out);
  long width = 0, height = 0, nonwhite = 0, colours = 0;
  in >> width >> height >> nonwhite >> colours;
  EXPECT_EQ(width, 800);
  EXPECT_GT(nonwhite, width * height / 200) << stats.out;  // text, axes and lines: not a blank page
  EXPECT_GE(colours, 5) << stats.out;                      // the palette drew, not only black text
}

// The request check sees a request a page makes: an image from the network is caught.
TEST_F(ReportIt, RequestCheckCatchesAnExternalImage) {
  skip_without_chromium();
  if (HasFatalFailure() || IsSkipped()) return;
  std::ofstream(dir_->file("leak.html")) << "<html><body><img src=\"http://example.com/x.png\"></body></html>";
  const RunOutput r = chromium({"--dump-dom", "file://" + dir_->file("leak.html")}, "leak");
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_EQ(page_requests("leak"), std::vector<std::string>{"http://example.com/x.png"});
}

// The report's numbers are the text output's, character for character: IOPS, BW, the clat line and the
// p50/p99/p99.9 of the percentile table, for each direction.
TEST_F(ReportIt, TableNumbersEqualTheTextOutput) {
  const std::string text = read_file(dir_->file("run.json"));
  const RunOutput rep = run_binary({"report", dir_->file("run.json")});
  ASSERT_EQ(rep.exit_code, 0) << describe(rep);
  const std::regex direction(
      R"re(  (read|write): IOPS=([^,]+), BW=(\S+) .*\n    clat \((\w+)\): min=([^,]+), max=([^,]+), avg=\s*([^,]+), stdev=\s*(\S+)\n)re");
  int found = 0;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), direction); it != std::sregex_iterator(); ++it) {
    const std::smatch& m = *it;
    const std::string row = "<td>" + m[1].str() + "</td><td>" + m[2].str() + "</td><td>" + m[3].str() + "</td>";
    EXPECT_NE(rep.out.find(row), std::string::npos) << row;
    const std::string clat = "<td>" + m[4].str() + "</td><td>" + m[5].str() + "</td><td>" + m[6].str() + "</td><td>" +
                             m[7].str() + "</td><td>" + m[8].str() + "</td>";
    // The percentile table that follows this direction's clat line.
    const std::string rest = text.substr(static_cast<std::size_t>(m.position(0) + m.length(0)), 700);
    std::smatch unit, p50, p99, p999;
    ASSERT_TRUE(std::regex_search(rest, unit, std::regex(R"(clat percentiles \((\w+)\))")));
    ASSERT_TRUE(std::regex_search(rest, p50, std::regex(R"(50\.00th=\[\s*(\d+)\])")));
    ASSERT_TRUE(std::regex_search(rest, p99, std::regex(R"(99\.00th=\[\s*(\d+)\])")));
    ASSERT_TRUE(std::regex_search(rest, p999, std::regex(R"(99\.90th=\[\s*(\d+)\])")));
    const std::string pct = "<td>" + unit[1].str() + "</td><td>" + p50[1].str() + "</td><td>" + p99[1].str() +
                            "</td><td>" + p999[1].str() + "</td></tr>";
    EXPECT_NE(rep.out.find(clat + pct), std::string::npos) << clat + pct;
    ++found;
  }
  EXPECT_EQ(found, 2) << text.substr(0, 1500);
}

// The heatmap from the run's own clat histogram log holds every I/O the run's JSON counts, per direction.
TEST_F(ReportIt, HeatmapFromTheRunsHistogramLogCountsEveryIo) {
  const RunOutput rep =
      run_binary({"report", dir_->file("run.json"), "--hist-log=" + dir_->file("hist_clat_hist.1.log")});
  ASSERT_EQ(rep.exit_code, 0) << describe(rep);
  const std::string text = read_file(dir_->file("run.json"));
  const auto doc = parse_document(text.substr(text.find("\n{") + 1));
  ASSERT_TRUE(doc);
  for (const char* dir : {"read", "write"}) {
    EXPECT_NE(rep.out.find(std::string("id=\"chart-heatmap-hist_clat_hist.1-") + dir + "\""), std::string::npos) << dir;
    const std::string caption = "<figcaption>" + std::to_string(total_ios(doc->at("jobs").at(0), dir)) + " I/Os in";
    EXPECT_NE(rep.out.find(caption), std::string::npos) << caption;
  }
}

// fio's own JSON (json+, with its histogram bins) is an input like sluice's, next to a sluice run.
TEST_F(ReportIt, DrawsFiosJsonNextToASluiceRun) {
  SLUICE_REQUIRE(kFio);
  const RunOutput fio = run_binary(
      {"--name=peer", "--filename=" + dir_->file("data"), "--size=8m", "--rw=randread", "--bs=4k", "--ioengine=psync",
       "--runtime=1", "--time_based", "--output-format=json+", "--output=" + dir_->file("fio.json")},
      with_timeout(30, "fio"));
  ASSERT_EQ(fio.exit_code, 0) << describe(fio);
  const RunOutput rep = run_binary({"report", dir_->file("fio.json"), dir_->file("run.json")});
  ASSERT_EQ(rep.exit_code, 0) << describe(rep);
  EXPECT_NE(rep.out.find("<p class=\"meta\">fio result, fio-"), std::string::npos);
  EXPECT_NE(rep.out.find("<tr><td>peer</td><td>read</td>"), std::string::npos);
  EXPECT_NE(rep.out.find("id=\"chart-r1-spectrum\""), std::string::npos);
  EXPECT_NE(rep.out.find("fio.json: peer read</text>"), std::string::npos);  // in the overlay's legend
  EXPECT_NE(rep.out.find("run.json: small read</text>"), std::string::npos);
}

TEST_F(ReportIt, ExportsOneChartAsSvgOrCsv) {
  const RunOutput svg = run_binary({"report", dir_->file("run.json"), "--format=svg", "--chart=spectrum"});
  ASSERT_EQ(svg.exit_code, 0) << describe(svg);
  EXPECT_EQ(svg.out.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"chart-spectrum\"", 0), 0u);
  EXPECT_NE(svg.out.find(">99.9%</text>"), std::string::npos);
  const RunOutput csv = run_binary(
      {"report", dir_->file("run.json"), "--format=csv", "--chart=timeline-small", "--output=" + dir_->file("t.csv")});
  ASSERT_EQ(csv.exit_code, 0) << describe(csv);
  const std::string text = read_file(dir_->file("t.csv"));
  EXPECT_NE(text.find("series,axis,x,y\nread IOPS,left,"), std::string::npos) << text.substr(0, 300);
  const RunOutput wrong = run_binary({"report", dir_->file("run.json"), "--format=csv", "--chart=spectrun"});
  EXPECT_EQ(wrong.exit_code, 1);
  EXPECT_NE(wrong.err.find("did you mean spectrum?"), std::string::npos) << wrong.err;
}

// Labels from the history, several repetitions a side: the report carries compare's verdict table.
TEST_F(ReportIt, LabelsFromTheHistoryGetTheVerdictTable) {
  const std::string db = "--db=" + dir_->file("h.db");
  for (const char* depth : {"--iodepth=1", "--iodepth=8"}) {
    const RunOutput saved =
        run_binary({"run", "--name=h", "--ioengine=null", "--rw=randread", "--size=64m", "--io_size=8m", depth,
                    "--repeat=3", std::string("--label=") + (depth[10] == '1' ? "qd1" : "qd8"), db});
    ASSERT_EQ(saved.exit_code, 0) << describe(saved);
  }
  const RunOutput r = run_binary({"report", "qd1", "qd8", db, "-o", dir_->file("labels.html")});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const std::string html = read_file(dir_->file("labels.html"));
  EXPECT_NE(html.find("<table class=\"verdicts\">"), std::string::npos);
  EXPECT_NE(html.find("job option that differs"), std::string::npos);
  EXPECT_NE(html.find("<td>h</td><td>read</td><td>iops</td>"), std::string::npos);
  EXPECT_NE(html.find("3 and 3 repetitions"), std::string::npos);
}

TEST_F(ReportIt, BadInputIsOneLineAndExit1) {
  std::ofstream(dir_->file("cut.json")) << "{\"jobs\": [";
  for (const std::string& path : {dir_->file("missing.json"), dir_->file("cut.json")}) {
    const RunOutput r = run_binary({"report", dir_->file("run.json"), path, "-o", dir_->file("bad.html")});
    EXPECT_EQ(r.exit_code, 1) << describe(r);
    EXPECT_EQ(count(r.err, "\n"), 1u) << r.err;
    EXPECT_NE(r.err.find(path), std::string::npos) << r.err;
  }
  const RunOutput none = run_binary({"report"});
  EXPECT_EQ(none.exit_code, 1);
  EXPECT_NE(none.err.find("INPUT"), std::string::npos) << none.err;
}

}  // namespace
}  // namespace sluice::testing
