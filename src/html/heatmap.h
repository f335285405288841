#pragma once
// The latency heatmap over time (Gregg): x = time window, y = log-spaced latency rows, colour = sqrt(count),
// from per-interval latency histograms: fio's clat histogram log (write_hist_log + log_hist_msec), which
// sluice run writes in the same format.
#include <cstdint>
#include <string>
#include <vector>

namespace sluice::html {

struct Heatmap {
  std::string id;  // "heatmap-<log name>-read"
  std::string title;
  std::vector<double> t_s;                         // end of each column's window
  std::vector<double> row_edges_ns;                // rows + 1 increasing edges, log-spaced
  std::vector<std::vector<std::uint64_t>> counts;  // [column][row]
  std::uint64_t total = 0;                         // I/Os in the log (= the sum of all cells)
};

// Reads a clat histogram log ("msec, ddir, bs, bin 0, ..., bin N" with fio's bin layout) and builds one
// heatmap per direction that has I/Os, with at most `max_columns` columns (adjacent windows summed) and
// `rows` rows from the smallest to the largest latency seen. Throws UserError naming the file when it is
// missing or a line is not of that form.
std::vector<Heatmap> load_heatmaps(const std::string& path, std::size_t max_columns = 300, std::size_t rows = 40);

// The heatmap as an <svg> with a <title>, time and latency axes with units, and a colour legend.
std::string render_heatmap_svg(const Heatmap& map);

// "t_s,lat_low_ns,lat_high_ns,count" rows of the non-empty cells.
std::string render_heatmap_csv(const Heatmap& map);

}  // namespace sluice::html
