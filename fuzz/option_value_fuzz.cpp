// The option value parsers: the input is "name=value" (or a bare flag name) applied to a fresh job through
// the option table (sizes, times, percentages, bssplit, random_distribution, verify_pattern, offset ranges,
// cpus_allowed, ...), then validated; the value alone also goes through job/units.h's parsers and the
// expression evaluator, in both size and time units.
#include "fuzz_support.h"
#include "job/job_file_expand.h"
#include "job/option_table.h"
#include "job/units.h"
#include "job/validate.h"

namespace {

sluice::ExpansionContext context() {
  sluice::ExpansionContext c;
  c.env = [](const std::string& name) -> std::optional<std::string> {
    if (name == "SIZE") return "64k";
    return std::nullopt;
  };
  c.system = {4, 4096, 8192};
  return c;
}

void check_units(std::string_view value) {
  (void)sluice::parse_size(value);
  (void)sluice::parse_size(value, 1000);
  (void)sluice::parse_percent(value);
  (void)sluice::parse_duration(value, std::chrono::seconds(1));
  (void)sluice::parse_duration(value, std::chrono::nanoseconds(1));
  (void)sluice::parse_unsigned(value);
  (void)sluice::parse_double(value);
  (void)sluice::parse_bool(value);
  sluice::fuzz::expect_clean([&] { (void)sluice::evaluate_expression(value, sluice::ExprUnits::kSize, 1024); });
  sluice::fuzz::expect_clean([&] { (void)sluice::evaluate_expression(value, sluice::ExprUnits::kTime, 1000); });
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const sluice::ExpansionContext kContext = context();
  const std::string_view text = sluice::fuzz::as_text(data, size);
  const std::size_t eq = text.find('=');
  const std::string_view name = text.substr(0, eq);
  const std::string_view value = eq == std::string_view::npos ? std::string_view() : text.substr(eq + 1);
  check_units(value);
  sluice::fuzz::expect_clean([&] {
    const std::string expanded = sluice::expand_value(value, sluice::find_option(name), 1024, kContext);
    sluice::JobSpec job;
    sluice::apply_option(job, name, eq == std::string_view::npos ? std::string_view() : std::string_view(expanded),
                         sluice::SourcePos{"fuzz", 1});
    for (const sluice::Problem& p : sluice::validate(job)) {
      if (p.message.empty()) throw sluice::UserError("");
    }
  });
  return 0;
}
