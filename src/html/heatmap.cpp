#include "html/heatmap.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>

#include "common/error.h"
#include "html/result_charts.h"
#include "html/scale.h"
#include "html/svg_text.h"
#include "stats/latency_histogram.h"

namespace sluice::html {
namespace {

struct Window {
  double t_s = 0;
  std::vector<std::uint64_t> bins;
};

constexpr const char* kDirectionNames[] = {"read", "write", "trim"};
constexpr double kMapWidth = 760;
constexpr double kMapLeft = 76;
constexpr double kMapRight = 684;
constexpr double kMapTop = 40;
constexpr double kMapBottom = 290;

// "run_clat_hist.1" of "dir/run_clat_hist.1.log".
std::string log_name(const std::string& path) {
  const std::size_t slash = path.find_last_of('/');
  std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  if (name.size() > 4 && name.ends_with(".log")) name.resize(name.size() - 4);
  return name;
}

std::vector<std::string> split_fields(const std::string& line) {
  std::vector<std::string> out;
  std::size_t at = 0;
  while (at <= line.size()) {
    const std::size_t comma = line.find(',', at);
    const std::size_t end = comma == std::string::npos ? line.size() : comma;
    out.push_back(line.substr(at, end - at));
    if (comma == std::string::npos) break;
    at = comma + 1;
  }
  return out;
}

bool parse_number(const std::string& field, double& out) {
  const char* begin = field.c_str();
  char* end = nullptr;
  out = std::strtod(begin, &end);
  while (end && (*end == ' ' || *end == '\r')) ++end;
  return end != begin && end && *end == '\0';
}

Heatmap build(const std::string& name, int dir, const std::vector<Window>& windows, std::size_t max_columns,
              std::size_t rows) {
  Heatmap map;
  map.id = "heatmap-" + name + "-" + kDirectionNames[dir];
  map.title = fmt::format("Latency heatmap: {} {}", name, kDirectionNames[dir]);
  int lo_bin = -1, hi_bin = -1;
  for (const Window& w : windows) {
    for (std::size_t i = 0; i < w.bins.size(); ++i) {
      if (w.bins[i] == 0) continue;
      if (lo_bin < 0 || static_cast<int>(i) < lo_bin) lo_bin = static_cast<int>(i);
      hi_bin = std::max(hi_bin, static_cast<int>(i));
    }
  }
  const double lo = std::max(1.0, static_cast<double>(LatencyHistogram::bucket_low(lo_bin)));
  const double hi = std::max(lo * 2, static_cast<double>(LatencyHistogram::bucket_high(hi_bin)) + 1);
  for (std::size_t r = 0; r <= rows; ++r) {
    map.row_edges_ns.push_back(lo * std::pow(hi / lo, static_cast<double>(r) / static_cast<double>(rows)));
  }
  const std::size_t group = (windows.size() + max_columns - 1) / max_columns;
  for (std::size_t start = 0; start < windows.size(); start += group) {
    std::vector<std::uint64_t> column(rows, 0);
    const std::size_t end = std::min(windows.size(), start + group);
    for (std::size_t w = start; w < end; ++w) {
      for (std::size_t i = 0; i < windows[w].bins.size(); ++i) {
        const std::uint64_t n = windows[w].bins[i];
        if (n == 0) continue;
        const double v = static_cast<double>(LatencyHistogram::bucket_value(static_cast<int>(i)));
        const double t = std::log(std::max(v, lo) / lo) / std::log(hi / lo);
        const auto row = std::min(rows - 1, static_cast<std::size_t>(std::max(0.0, t * static_cast<double>(rows))));
        column[row] += n;
        map.total += n;
      }
    }
    map.t_s.push_back(windows[end - 1].t_s);
    map.counts.push_back(std::move(column));
  }
  return map;
}

std::string colour(double share) {
  // White to dark blue; share = sqrt(count / max) so sparse outliers stay visible.
  const auto mix = [share](int from, int to) {
    return static_cast<int>(std::lround(from + (to - from) * std::clamp(share, 0.0, 1.0)));
  };
  return fmt::format("#{:02x}{:02x}{:02x}", mix(0xde, 0x08), mix(0xeb, 0x30), mix(0xf7, 0x6b));
}

}  // namespace

std::vector<Heatmap> load_heatmaps(const std::string& path, std::size_t max_columns, std::size_t rows) {
  std::ifstream in(path);
  if (!in) throw UserError(fmt::format("--hist-log={}: cannot read the histogram log (missing or unreadable)", path));
  std::map<int, std::vector<Window>> by_dir;
  std::string line;
  std::size_t number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (line.empty() || line == "\r") continue;
    const std::vector<std::string> fields = split_fields(line);
    double msec = 0, ddir = 0, bs = 0;
    if (fields.size() < 4 || !parse_number(fields[0], msec) || !parse_number(fields[1], ddir) ||
        !parse_number(fields[2], bs) || ddir < 0 || ddir > 2) {
      throw UserError(
          fmt::format("--hist-log={}: line {} is not \"msec, ddir, bs, bins...\" (write it with "
                      "write_hist_log and log_hist_msec)",
                      path, number));
    }
    if (fields.size() - 3 > static_cast<std::size_t>(LatencyHistogram::kNumBuckets)) {
      throw UserError(fmt::format("--hist-log={}: line {} has {} bins, more than the {} a histogram log holds", path,
                                  number, fields.size() - 3, LatencyHistogram::kNumBuckets));
    }
    Window w;
    w.t_s = msec / 1000.0;
    for (std::size_t i = 3; i < fields.size(); ++i) {
      double n = 0;
      // A count is a whole number of ios that fits 64 bits (NaN fails the comparison too).
      if (!parse_number(fields[i], n) || !(n >= 0 && n < 18446744073709551616.0)) {
        throw UserError(fmt::format("--hist-log={}: line {}: bin {} is not a count", path, number, i - 3));
      }
      w.bins.push_back(static_cast<std::uint64_t>(n));
    }
    by_dir[static_cast<int>(ddir)].push_back(std::move(w));
  }
  std::vector<Heatmap> out;
  for (auto& [dir, windows] : by_dir) {
    std::stable_sort(windows.begin(), windows.end(), [](const Window& a, const Window& b) { return a.t_s < b.t_s; });
    bool any = false;
    for (const Window& w : windows)
      any = any || std::any_of(w.bins.begin(), w.bins.end(), [](auto n) { return n > 0; });
    if (any)
      out.push_back(
          build(log_name(path), dir, windows, std::max<std::size_t>(1, max_columns), std::max<std::size_t>(1, rows)));
  }
  if (out.empty()) throw UserError(fmt::format("--hist-log={}: no I/Os in the histogram log", path));
  return out;
}

std::string render_heatmap_svg(const Heatmap& map) {
  const double height = kMapBottom + 70;
  const double t_end = map.t_s.empty() ? 1 : std::max(map.t_s.back(), 1e-3);
  const TimeUnit unit = latency_unit(map.row_edges_ns.back());
  const double lo = map.row_edges_ns.front() / unit.divisor;
  const double hi = map.row_edges_ns.back() / unit.divisor;
  const Scale x(0, t_end, kMapLeft, kMapRight, false);
  const Scale y(lo, hi, kMapBottom, kMapTop, true);
  std::uint64_t max_count = 1;
  for (const auto& column : map.counts) {
    for (std::uint64_t n : column) max_count = std::max(max_count, n);
  }
  std::string out = fmt::format(
      R"(<svg xmlns="http://www.w3.org/2000/svg" id="chart-{0}" class="chart heatmap" width="{1}" height="{2}" viewBox="0 0 {1} {2}" font-family="sans-serif" role="img" aria-labelledby="chart-{0}-title">)"
      "\n",
      escape(map.id), coord(kMapWidth), coord(height));
  out += fmt::format(R"(<title id="chart-{}-title">{}</title>)"
                     "\n",
                     escape(map.id), escape(map.title));
  out += fmt::format(R"(<rect x="0" y="0" width="{}" height="{}" fill="#ffffff"/>)"
                     "\n",
                     coord(kMapWidth), coord(height));
  out += fmt::format(R"(<text x="{}" y="22" font-size="15" font-weight="bold" text-anchor="middle">{}</text>)"
                     "\n",
                     coord(kMapWidth / 2), escape(map.title));
  out += "<g class=\"cells\" shape-rendering=\"crispEdges\">\n";
  for (std::size_t c = 0; c < map.counts.size(); ++c) {
    const double x0 = x.map(c == 0 ? 0 : map.t_s[c - 1]);
    const double x1 = x.map(map.t_s[c]);
    for (std::size_t r = 0; r < map.counts[c].size(); ++r) {
      const std::uint64_t n = map.counts[c][r];
      if (n == 0) continue;
      const double y1 = y.map(map.row_edges_ns[r] / unit.divisor);
      const double y0 = y.map(map.row_edges_ns[r + 1] / unit.divisor);
      out += fmt::format(R"(<rect x="{}" y="{}" width="{}" height="{}" fill="{}"/>)"
                         "\n",
                         coord(x0), coord(y0), coord(std::max(0.5, x1 - x0)), coord(std::max(0.5, y1 - y0)),
                         colour(std::sqrt(static_cast<double>(n) / static_cast<double>(max_count))));
    }
  }
  out += "</g>\n<g font-size=\"11\" fill=\"#333333\">\n";
  for (const Tick& t : linear_ticks(0, t_end, 6)) {
    out += fmt::format(R"(<text x="{}" y="{}" text-anchor="middle">{}</text>)"
                       "\n",
                       coord(x.map(t.value)), coord(kMapBottom + 15), escape(t.label));
  }
  for (const Tick& t : log_ticks(lo, hi)) {
    out += fmt::format(R"(<text x="{}" y="{}" dy="4" text-anchor="end">{}</text>)"
                       "\n",
                       coord(kMapLeft - 6), coord(y.map(t.value)), escape(t.label));
  }
  out += "</g>\n";
  out += fmt::format(R"(<rect x="{}" y="{}" width="{}" height="{}" fill="none" stroke="#666666"/>)"
                     "\n",
                     coord(kMapLeft), coord(kMapTop), coord(kMapRight - kMapLeft), coord(kMapBottom - kMapTop));
  out += fmt::format(R"(<text class="x-label" x="{}" y="{}" font-size="12" text-anchor="middle">time (s)</text>)"
                     "\n",
                     coord((kMapLeft + kMapRight) / 2), coord(kMapBottom + 32));
  out += fmt::format(
      R"~(<text class="y-label" x="16" y="{0}" font-size="12" text-anchor="middle" transform="rotate(-90 16 {0})">latency ({1}), log scale</text>)~"
      "\n",
      coord((kMapTop + kMapBottom) / 2), unit.name);
  // Colour legend: five steps of the sqrt scale with their counts.
  for (int i = 0; i <= 4; ++i) {
    const double share = i / 4.0;
    const double lx = kMapLeft + i * 70;
    out += fmt::format(
        R"(<rect x="{}" y="{}" width="20" height="10" fill="{}" stroke="#999999"/><text x="{}" y="{}" font-size="11">{}</text>)"
        "\n",
        coord(lx), coord(kMapBottom + 44), colour(share), coord(lx + 24), coord(kMapBottom + 53),
        i == 0 ? std::string("1") : short_number(std::round(share * share * static_cast<double>(max_count))));
  }
  out += fmt::format(R"(<text x="{}" y="{}" font-size="11">I/Os per cell (colour ~ sqrt of the count)</text>)"
                     "\n",
                     coord(kMapLeft + 360), coord(kMapBottom + 53));
  out += "</svg>\n";
  return out;
}

std::string render_heatmap_csv(const Heatmap& map) {
  std::string out = "# " + map.title + "\nt_s,lat_low_ns,lat_high_ns,count\n";
  for (std::size_t c = 0; c < map.counts.size(); ++c) {
    for (std::size_t r = 0; r < map.counts[c].size(); ++r) {
      if (map.counts[c][r] == 0) continue;
      out += fmt::format("{},{},{},{}\n", map.t_s[c], map.row_edges_ns[r], map.row_edges_ns[r + 1], map.counts[c][r]);
    }
  }
  return out;
}

}  // namespace sluice::html
