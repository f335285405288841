#include "compare/verdict.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

namespace sluice {
namespace {

Judgement cannot_tell(Judgement j, std::string reason) {
  j.verdict = Verdict::kNotApplicable;
  j.reason = std::move(reason);
  return j;
}

}  // namespace

const char* verdict_name(Verdict verdict) {
  switch (verdict) {
    case Verdict::kBetter:
      return "better";
    case Verdict::kWorse:
      return "worse";
    case Verdict::kWithinNoise:
      return "within noise";
    case Verdict::kNotApplicable:
      break;
  }
  return "n/a";
}

double median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const std::size_t mid = values.size() / 2;
  return values.size() % 2 ? values[mid] : (values[mid - 1] + values[mid]) / 2.0;
}

Judgement judge(const std::vector<double>& old_values, const std::vector<double>& new_values, bool higher_is_better,
                const VerdictSettings& settings) {
  Judgement j;
  if (old_values.empty() || new_values.empty()) {
    if (!old_values.empty()) j.old_value = median(old_values);
    if (!new_values.empty()) j.new_value = median(new_values);
    return cannot_tell(j, old_values.empty() ? "not in the old result" : "not in the new result");
  }
  j.old_value = median(old_values);
  j.new_value = median(new_values);
  if (*j.old_value != 0) j.change_pct = (*j.new_value - *j.old_value) / std::fabs(*j.old_value) * 100.0;
  j.test = mann_whitney_u(new_values, old_values);
  const std::size_t m = old_values.size();
  const std::size_t n = new_values.size();
  if (m < settings.min_repetitions || n < settings.min_repetitions) {
    return cannot_tell(j, fmt::format("cannot tell: {} and {} repetitions; a verdict needs at least {} on each side", m,
                                      n, settings.min_repetitions));
  }
  const double min_p = mann_whitney_min_p(m, n);
  if (min_p >= settings.alpha) {
    return cannot_tell(j, fmt::format("cannot tell: with {} and {} repetitions the smallest possible p is {:.3g}, "
                                      "not below --alpha={:g}; repeat more (4 and 4 reach 0.029)",
                                      m, n, min_p, settings.alpha));
  }
  if (!j.change_pct) return cannot_tell(j, "the old value is 0: no relative change");
  const bool significant = j.test->p < settings.alpha;
  const bool above_noise = std::fabs(*j.change_pct) >= settings.noise_pct;
  if (significant && above_noise) {
    const bool up = *j.change_pct > 0;
    j.verdict = up == higher_is_better ? Verdict::kBetter : Verdict::kWorse;
    j.reason = fmt::format("p={:.3g} < {:g} and |change| >= {:g}%", j.test->p, settings.alpha, settings.noise_pct);
  } else {
    j.verdict = Verdict::kWithinNoise;
    j.reason = !significant ? fmt::format("p={:.3g} not below {:g}", j.test->p, settings.alpha)
                            : fmt::format("|change| below the {:g}% noise floor", settings.noise_pct);
  }
  return j;
}

std::vector<CompareRow> compare_metrics(const std::vector<std::vector<Metric>>& old_runs,
                                        const std::vector<std::vector<Metric>>& new_runs,
                                        const VerdictSettings& settings) {
  std::vector<CompareRow> rows;
  std::map<std::string, std::size_t> index;
  auto collect = [&](const std::vector<std::vector<Metric>>& runs, bool old_side) {
    for (const std::vector<Metric>& run : runs) {
      for (const Metric& m : run) {
        const std::string key = metric_key(m);
        auto it = index.find(key);
        if (it == index.end()) {
          it = index.emplace(key, rows.size()).first;
          rows.push_back(CompareRow{m.job, m.direction, m.name, m.unit, m.higher_is_better, {}, {}, {}});
        }
        (old_side ? rows[it->second].old_values : rows[it->second].new_values).push_back(m.value);
      }
    }
  };
  collect(old_runs, true);
  collect(new_runs, false);
  for (CompareRow& row : rows) row.judgement = judge(row.old_values, row.new_values, row.higher_is_better, settings);
  return rows;
}

}  // namespace sluice
