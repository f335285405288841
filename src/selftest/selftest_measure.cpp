#include "selftest/selftest_measure.h"

#include "common/json_read.h"
#include "job/warning_codes.h"
#include "method/quick_class.h"

namespace sluice {
namespace {

const nlohmann::json* first_job(const nlohmann::json& doc, std::string& why) {
  const nlohmann::json jobs = field_or(doc, "jobs", nlohmann::json::array());
  if (!jobs.is_array() || jobs.empty()) {
    why = "the result has no job";
    return nullptr;
  }
  const nlohmann::json& job = doc["jobs"][0];
  const nlohmann::json error = field_or(job, "error", 0);
  if (error.is_number() && error.get<double>() != 0) {
    why = "the job failed (error " + error.dump() + ")";
    return nullptr;
  }
  return &job;
}

std::optional<double> number_at(const nlohmann::json& j, std::initializer_list<const char*> path, std::string& why) {
  const nlohmann::json* node = &j;
  std::string where;
  for (const char* key : path) {
    where += where.empty() ? key : std::string(".") + key;
    if (!node->is_object() || !node->contains(key)) {
      why = "the result has no " + where;
      return std::nullopt;
    }
    node = &(*node)[key];
  }
  if (!node->is_number()) {
    why = "the result's " + where + " is not a number";
    return std::nullopt;
  }
  return node->get<double>();
}

std::optional<double> job_number(const nlohmann::json& doc, const char* direction, const char* a, const char* b,
                                 std::string& why) {
  const nlohmann::json* job = first_job(doc, why);
  if (job == nullptr) return std::nullopt;
  return b == nullptr ? number_at(*job, {direction, a}, why) : number_at(*job, {direction, a, b}, why);
}

// fio's key of the 99th percentile; present when the job asked lat_percentiles=1.
std::optional<double> read_p99(const nlohmann::json& doc, std::string& why) {
  const nlohmann::json* job = first_job(doc, why);
  if (job == nullptr) return std::nullopt;
  return number_at(*job, {"read", "lat_ns", "percentile", "99.000000"}, why);
}

// Whether the run's warnings hold the lint's small-test-area code.
std::optional<double> small_area_flagged(const nlohmann::json& doc, std::string& why) {
  const nlohmann::json warnings = field_or(field_or(doc, "sluice", nullptr), "warnings", nullptr);
  if (!warnings.is_array()) {
    why = "the result has no sluice.warnings";
    return std::nullopt;
  }
  for (const nlohmann::json& w : warnings) {
    if (text_or(w, "code", "") == kLintSmallTestArea) return 1.0;
  }
  return 0.0;
}

// The class quick names, as its position in kQuickReferenceClasses.
std::optional<double> quick_class(const nlohmann::json& doc, std::string& why) {
  const nlohmann::json behaves =
      field_or(field_or(field_or(doc, "sluice", nullptr), "quick", nullptr), "behaves_like", nullptr);
  const nlohmann::json name = field_or(behaves, "class", nullptr);
  if (!name.is_string()) {
    why = "the result has no sluice.quick.behaves_like.class" +
          (behaves.is_object() ? " (" + text_or(behaves, "missing", "no reason given") + ")" : std::string());
    return std::nullopt;
  }
  for (std::size_t i = 0; i < kQuickReferenceClasses.size(); ++i) {
    if (kQuickReferenceClasses[i].name == name.get<std::string>()) return static_cast<double>(i);
  }
  why = "quick named an unknown class: " + name.get<std::string>();
  return std::nullopt;
}

std::optional<double> capacity_field(const nlohmann::json& doc, Measure measure, std::string& why) {
  const nlohmann::json capacity = field_or(field_or(doc, "sluice", nlohmann::json::object()), "capacity", nullptr);
  if (!capacity.is_object()) {
    why = "the result has no sluice.capacity section";
    return std::nullopt;
  }
  switch (measure) {
    case Measure::kCapacityIops:
      return number_at(capacity, {"iops"}, why);
    case Measure::kKneeConcurrency:
      return number_at(capacity, {"knee", "concurrency"}, why);
    case Measure::kCapacityConcurrency:
      return number_at(capacity, {"concurrency"}, why);
    default:
      return field_or(capacity, "thrashing", nullptr).is_null() ? 0.0 : 1.0;
  }
}

// The window SNIA's rule judges (sluice precondition: the last 5 rounds).
constexpr std::size_t kSteadyWindow = 5;

std::optional<double> precondition_rounds(const nlohmann::json& doc, Measure measure, std::string& why) {
  const nlohmann::json section = field_or(field_or(doc, "sluice", nullptr), "precondition", nullptr);
  const nlohmann::json rounds = field_or(section, "rounds", nullptr);
  if (!rounds.is_array() || rounds.empty()) {
    why = "the result has no sluice.precondition.rounds";
    return std::nullopt;
  }
  if (measure == Measure::kFirstRoundIops) return number_at(rounds[0], {"iops"}, why);
  if (!flag_or(section, "steady", false)) {
    why = "precondition never reached a steady state (" + std::to_string(rounds.size()) + " rounds)";
    return std::nullopt;
  }
  const std::size_t from = rounds.size() > kSteadyWindow ? rounds.size() - kSteadyWindow : 0;
  double sum = 0;
  for (std::size_t i = from; i < rounds.size(); ++i) {
    const std::optional<double> iops = number_at(rounds[i], {"iops"}, why);
    if (!iops) return std::nullopt;
    sum += *iops;
  }
  return sum / static_cast<double>(rounds.size() - from);
}

}  // namespace

std::optional<double> read_measure(const nlohmann::json& doc, Measure measure, std::string& why) {
  switch (measure) {
    case Measure::kReadLatencyMean:
      return job_number(doc, "read", "lat_ns", "mean", why);
    case Measure::kReadLatencyP99:
      return read_p99(doc, why);
    case Measure::kReadIops:
      return job_number(doc, "read", "iops", nullptr, why);
    case Measure::kWriteLatencyMean:
      return job_number(doc, "write", "lat_ns", "mean", why);
    case Measure::kWriteIops:
      return job_number(doc, "write", "iops", nullptr, why);
    case Measure::kCapacityIops:
    case Measure::kKneeConcurrency:
    case Measure::kCapacityConcurrency:
    case Measure::kThrashing:
      return capacity_field(doc, measure, why);
    case Measure::kVerdict:
      break;  // read_verdict: the row needs the job, direction and metric
    case Measure::kSlowdown:
    case Measure::kKnobEffect:
      break;  // selftest_interfere.h: the row needs its thread count and fio's phases
    case Measure::kFirstRoundIops:
    case Measure::kSteadyIops:
      return precondition_rounds(doc, measure, why);
    case Measure::kQuickClass:
      return quick_class(doc, why);
    case Measure::kLintSmallArea:
      return small_area_flagged(doc, why);
  }
  why = "unknown measure";
  return std::nullopt;
}

std::optional<double> read_verdict(const nlohmann::json& doc, const std::string& job, const std::string& direction,
                                   const std::string& metric, std::string& why) {
  const nlohmann::json compare = field_or(field_or(doc, "sluice", nullptr), "compare", nullptr);
  const nlohmann::json comparisons = field_or(compare, "comparisons", nullptr);
  if (!comparisons.is_array() || comparisons.empty()) {
    why = "the result has no sluice.compare.comparisons";
    return std::nullopt;
  }
  for (const nlohmann::json& row : field_or(comparisons[0], "rows", nlohmann::json::array())) {
    if (text_or(row, "job", "") != job || text_or(row, "direction", "") != direction ||
        text_or(row, "metric", "") != metric) {
      continue;
    }
    const std::string verdict = text_or(row, "verdict", "");
    if (verdict == "better") return 1.0;
    if (verdict == "within noise") return 0.0;
    if (verdict == "worse") return -1.0;
    return 2.0;
  }
  why = "compare has no row for job " + job + ", " + direction + " " + metric;
  return std::nullopt;
}

const char* verdict_word(double code) {
  if (code == 1) return "better";
  if (code == 0) return "within noise";
  if (code == -1) return "worse";
  return "n/a";
}

std::optional<nlohmann::json> parse_result_document(const std::string& text) {
  const std::size_t start = text.find('{');
  if (start == std::string::npos) return std::nullopt;
  nlohmann::json doc =
      nlohmann::json::parse(text.begin() + static_cast<std::ptrdiff_t>(start), text.end(), nullptr, false);
  if (doc.is_discarded()) return std::nullopt;
  return doc;
}

}  // namespace sluice
