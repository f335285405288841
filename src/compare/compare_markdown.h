#pragma once
// `sluice compare --output-format=markdown`: the compare as GitHub-flavoured Markdown for a pull-request
// comment: per comparison a headline (how many metrics got better, worse, or show no clear change), one
// table row per job and metric (A, B, change, p-value, verdict, and a mark with the rule for each --fail-on
// breach) and the caveats (what differs between the runs, repetitions that did not end cleanly, why a row
// cannot be judged). Pure.
#include <string>

#include "compare/compare.h"

namespace sluice {

std::string render_compare_markdown(const CompareReport& report);

// `text` safe inside a GitHub table cell: | and Markdown's emphasis, code and link characters
// backslash-escaped, <, > and & as entities (no HTML), line breaks as spaces.
std::string markdown_cell(const std::string& text);

}  // namespace sluice
