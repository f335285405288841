#include "compare/fail_on.h"

#include <fmt/format.h>

#include <charconv>
#include <cmath>

#include "common/error.h"

namespace sluice {
namespace {

constexpr const char* kExample = "write rules like p99:+10%,iops:-5%";

std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

std::string nearest_metric(const std::string& name) {
  std::string best = metric_names().front();
  for (const std::string& m : metric_names()) {
    if (edit_distance(name, m) < edit_distance(name, best)) best = m;
  }
  return best;
}

FailRule parse_rule(const std::string& item) {
  const std::size_t colon = item.find(':');
  const std::string where = "--fail-on=" + item;
  if (colon == std::string::npos) throw UserError(fmt::format("{}: no threshold; {}", where, kExample));
  FailRule rule{item.substr(0, colon), 0, item};
  bool known = false;
  for (const std::string& m : metric_names()) known = known || m == rule.metric;
  if (!known) {
    throw UserError(
        fmt::format("{}: unknown metric '{}'; did you mean {}? (metrics: iops, bw, mean, p50, p99, p99.9, "
                    "capacity, knee, slowdown)",
                    where, rule.metric, nearest_metric(rule.metric)));
  }
  std::string number = item.substr(colon + 1);
  const bool signed_value = !number.empty() && (number.front() == '+' || number.front() == '-');
  if (!signed_value || number.size() < 3 || number.back() != '%') {
    throw UserError(fmt::format("{}: the threshold needs a sign and a percent, like +10% or -5%", where));
  }
  const char sign = number.front();
  number = number.substr(1, number.size() - 2);
  double value = 0;
  const auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), value);
  if (ec != std::errc() || end != number.data() + number.size() || !std::isfinite(value)) {
    throw UserError(fmt::format("{}: '{}' is not a number; {}", where, number, kExample));
  }
  rule.threshold_pct = sign == '-' ? -value : value;
  return rule;
}

}  // namespace

std::vector<FailRule> parse_fail_on(const std::vector<std::string>& items) {
  std::vector<FailRule> rules;
  rules.reserve(items.size());
  for (const std::string& item : items) rules.push_back(parse_rule(item));
  return rules;
}

std::vector<FailOnHit> fail_on_hits(const std::vector<CompareRow>& rows, const std::vector<FailRule>& rules) {
  std::vector<FailOnHit> hits;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const CompareRow& row = rows[i];
    const Judgement& j = row.judgement;
    if (!j.change_pct || (j.verdict != Verdict::kBetter && j.verdict != Verdict::kWorse)) continue;
    for (const FailRule& rule : rules) {
      if (rule.metric != row.metric) continue;
      const double change = *j.change_pct;
      const bool beyond = rule.threshold_pct >= 0 ? change >= rule.threshold_pct : change <= rule.threshold_pct;
      if (!beyond) continue;
      hits.push_back({i, rule.text,
                      fmt::format("job {}{}{} {}: {:+.1f}% (rule {})", row.job, row.direction.empty() ? "" : " ",
                                  row.direction, row.metric, change, rule.text)});
    }
  }
  return hits;
}

}  // namespace sluice
