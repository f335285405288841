#pragma once
// `sluice compare --output-format=junit`: the compare as JUnit XML, the test-report format GitLab, Jenkins
// and the GitHub Actions test reporters read, so a pipeline shows a benchmark gate like its unit tests.
// One <testsuite> per comparison (B against A), one <testcase> per job and metric (classname: the job;
// name: the direction and metric, "read p99"), a <failure> per --fail-on rule the row fired, <skipped> for a
// row the data cannot judge (n/a, with the reason). The layout follows the schema Jenkins' JUnit readers
// validate against (tests/compare/junit.xsd describes it). Pure.
#include <cstdint>
#include <string>

#include "compare/compare.h"

namespace sluice {

// The whole XML document. A comparison whose new side records no "timestamp" is stamped `now_seconds`
// (seconds since the epoch); timestamps are UTC, written as Ant does (2026-12-04T16:30:13, no zone).
std::string render_compare_junit(const CompareReport& report, std::int64_t now_seconds);

// `text` made safe for XML 1.0 element content and quoted attributes: &, <, >, " and ' as entities, tab, CR
// and LF as character references (an attribute keeps its line breaks), other control characters and bytes
// that are not UTF-8 as U+FFFD (XML 1.0 cannot carry them at all).
std::string xml_escaped(const std::string& text);

}  // namespace sluice
