#pragma once
// `sluice report`'s document: one self-contained HTML file (inline CSS and SVG, no scripts, no network
// references, no fonts) from one or more result inputs. Deterministic: a function of the inputs only.
#include <string>
#include <vector>

#include "html/chart.h"
#include "html/heatmap.h"
#include "html/report_input.h"

namespace sluice::html {

// Every chart the report of `inputs` shows, in page order (ids unique: with several inputs each input's
// charts are prefixed "r1-", "r2-", ...; the overlays come first).
std::vector<ChartSpec> report_charts(const std::vector<ReportInput>& inputs);

// The whole HTML page; `heatmaps` (from --hist-log files) get their own section after the inputs;
// `verdicts` (compare_tables.h, empty for one input) goes into the "Inputs compared" section.
std::string render_html_report(const std::vector<ReportInput>& inputs, const std::vector<Heatmap>& heatmaps = {},
                               const std::string& verdicts = {});

// A complete page around `body` (HTML already escaped): the doctype, `title` (escaped here) and the report's
// inline style. Every page sluice writes uses it, so they look alike.
std::string html_page(const std::string& title, const std::string& body);

// A chart as a <figure> with its note as the caption.
std::string html_figure(const ChartSpec& chart);

}  // namespace sluice::html
