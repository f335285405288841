#pragma once
// The report's verdict tables: `sluice compare`'s judgement of each later input against the first, as HTML.
#include <string>

#include "compare/compare.h"

namespace sluice::html {

// Per comparison: what differs (environment, job options), then one row per metric with old and new
// medians, change, p and verdict. Only better and worse rows are coloured (green, red): a change within
// noise or one the data cannot judge stays plain. Empty when `report` holds no comparison.
std::string compare_tables(const CompareReport& report);

}  // namespace sluice::html
