// The JSON results that `sluice compare`, `sluice report` and the history read: the text of a result file
// (sluice's JSON of any command, fio's JSON, a history export) through compare/result_source.h, then what
// each reader does with it: compare's metrics and a compare of the set with itself (text, JSON and the
// report's verdict tables), the report's HTML page, the history's headline metrics, spreads and import.
#include <nlohmann/json.hpp>

#include "compare/compare.h"
#include "compare/compare_report.h"
#include "compare/metrics.h"
#include "compare/result_source.h"
#include "fuzz_support.h"
#include "history/history_text.h"
#include "history/metric_path.h"
#include "history/stored_result.h"
#include "html/compare_tables.h"
#include "html/html_report.h"
#include "html/report_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  sluice::fuzz::expect_clean([&] {
    const std::string text(sluice::fuzz::as_text(data, size));
    sluice::ResultSet set{"fuzz.json", "file", sluice::parse_result_text(text, "fuzz.json")};
    for (const nlohmann::json& doc : set.repetitions) {
      (void)sluice::extract_metrics(doc);
      (void)sluice::html::result_kind(doc);
      (void)sluice::headline_metrics(doc);
      sluice::fuzz::expect_clean([&] { (void)sluice::from_export(doc); });
    }
    (void)sluice::render_spread_text(sluice::spreads_of(set.repetitions), set.repetitions.size());
    (void)sluice::html::render_html_report({{set.name, set.repetitions}});
    sluice::CompareOptions options;
    options.force = true;
    const sluice::CompareReport report = sluice::compare_sets({set, set}, options);
    (void)sluice::render_compare_text(report);
    (void)sluice::compare_json(report).dump();
    (void)sluice::html::compare_tables(report);
  });
  return 0;
}
