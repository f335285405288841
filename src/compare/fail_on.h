#pragma once
// --fail-on=p99:+10%,iops:-5%: the changes that make `sluice compare` exit 1 (for CI pipelines). A rule
// fires on a row of its metric whose verdict is better or worse (significant and above the noise floor) and
// whose change reaches the threshold in the threshold's direction (+10%: up by 10% or more; -5%: down by 5%
// or more). Rows the data cannot judge never fire.
#include <string>
#include <vector>

#include "compare/verdict.h"

namespace sluice {

struct FailRule {
  std::string metric;        // one of metric_names()
  double threshold_pct = 0;  // signed
  std::string text;          // as the user wrote it
};

// Parses the elements of --fail-on ("p99:+10%"). Throws UserError naming the element and the nearest metric.
std::vector<FailRule> parse_fail_on(const std::vector<std::string>& items);

// A rule fired by a row.
struct FailOnHit {
  std::size_t row = 0;  // index into the rows given to fail_on_hits
  std::string rule;     // the rule as the user wrote it: "p99:+10%"
  std::string line;     // "job j read p99: +35.2% (rule p99:+10%)"
};

// The rows that fire a rule, in row order (a row firing two rules gives two hits).
std::vector<FailOnHit> fail_on_hits(const std::vector<CompareRow>& rows, const std::vector<FailRule>& rules);

}  // namespace sluice
