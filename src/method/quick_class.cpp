// sluice quick's "behaves like": the nearest reference class (method/quick_class.h states the rule).
#include "method/quick_class.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "job/units.h"
#include "method/quick.h"

namespace sluice {
namespace {

const QuickRow* quick_row_keyed(const std::vector<QuickRow>& rows, std::string_view key) {
  for (const QuickRow& row : rows) {
    if (row.key == key) return &row;
  }
  return nullptr;
}

// The highest IOPS of the capacity row: its shown point and every point of its curve.
double peak_capacity_iops(const QuickRow& row) {
  double best = row.iops;
  if (row.capacity.is_object() && row.capacity.contains("curve") && row.capacity["curve"].is_array()) {
    for (const nlohmann::json& point : row.capacity["curve"]) {
      if (point.is_object()) best = std::max(best, point.value("iops", 0.0));
    }
  }
  return best;
}

const ReferenceClass& reference_class_named(std::string_view name) {
  for (const ReferenceClass& cls : kQuickReferenceClasses) {
    if (cls.name == name) return cls;
  }
  return kQuickReferenceClasses.front();
}

// A ratio to a class's figure: whole from 10, two decimals from 0.1, else two significant digits: 20, 1.02, 0.049.
std::string class_ratio_text(double ratio) {
  if (ratio >= 10) return fmt::format("{:.0f}", ratio);
  if (ratio >= 0.1) return fmt::format("{:.2f}", ratio);
  return fmt::format("{:.2g}", ratio);
}

std::string class_rule_text() {
  return fmt::format(
      "nearest class by distance in decades: sqrt(log10(lat/class_lat)^2 + ({:g}*log10(iops/class_iops))^2); "
      "lat = depth-1 4 KiB random read mean, iops = highest 4 KiB random read IOPS (capacity curve, depth 1); "
      "a distance above {:g} is a poor match",
      kQuickClassIopsWeight, kQuickClassPoorMatch);
}

}  // namespace

double class_distance(double iops, double lat_ns, const ReferenceClass& cls) noexcept {
  const double lat_decades = std::log10(lat_ns / cls.lat_ns);
  const double iops_decades = kQuickClassIopsWeight * std::log10(iops / cls.iops);
  return std::hypot(lat_decades, iops_decades);
}

BehavesLike match_reference_class(double iops, double lat_ns) {
  BehavesLike b;
  b.iops = iops;
  b.lat_ns = lat_ns;
  const ReferenceClass* nearest = nullptr;
  for (const ReferenceClass& cls : kQuickReferenceClasses) {
    const double d = class_distance(iops, lat_ns, cls);
    b.distances.push_back({cls.name, d});
    if (!nearest || d < b.distance) {  // strictly nearer: a tie keeps the faster class
      nearest = &cls;
      b.distance = d;
    }
  }
  b.class_name = std::string(nearest->name);
  b.poor = b.distance > kQuickClassPoorMatch;
  if (b.poor && lat_ns < kQuickReferenceClasses.front().lat_ns) b.beyond = "faster";
  if (b.poor && lat_ns > kQuickReferenceClasses.back().lat_ns) b.beyond = "slower";
  return b;
}

BehavesLike behaves_like_of(const std::vector<QuickRow>& rows, bool interrupted, bool direct) {
  const std::string why =
      interrupted ? "the run was interrupted before it" : "the budget ran out before it, or it failed";
  const QuickRow* capacity = quick_row_keyed(rows, "randread_capacity");
  const QuickRow* depth1 = quick_row_keyed(rows, "randread_qd1");
  std::vector<std::string> missing;
  if (!capacity) {
    missing.push_back(fmt::format("the 4 KiB random read capacity search did not run ({})", why));
  } else if (peak_capacity_iops(*capacity) <= 0) {
    missing.push_back("the 4 KiB random read capacity search completed no read");
  }
  if (!depth1) {
    missing.push_back(fmt::format("the 4 KiB random read depth-1 test did not run ({})", why));
  } else if (depth1->lat_mean_ns <= 0) {
    missing.push_back("the 4 KiB random read depth-1 test completed no read");
  }
  if (!missing.empty()) {
    BehavesLike b;
    for (const std::string& m : missing) b.missing += (b.missing.empty() ? "" : "; ") + m;
    b.buffered = !direct;
    return b;
  }
  // Any random read IOPS measured is a lower bound of the peak: a noisy first capacity point must not pull the
  // figure below what depth 1 alone reached.
  BehavesLike b = match_reference_class(std::max(peak_capacity_iops(*capacity), depth1->iops), depth1->lat_mean_ns);
  b.buffered = !direct;
  return b;
}

nlohmann::json behaves_like_json(const BehavesLike& b) {
  nlohmann::json classes = nlohmann::json::array();
  for (const ReferenceClass& cls : kQuickReferenceClasses) {
    nlohmann::json c = {{"class", cls.name}, {"iops", cls.iops}, {"lat_ns", cls.lat_ns}};
    for (const ClassDistance& d : b.distances) {
      if (d.name == cls.name) c["distance"] = d.distance;
    }
    classes.push_back(std::move(c));
  }
  nlohmann::json out = {{"rule", class_rule_text()}, {"classes", classes}, {"buffered", b.buffered}};
  if (b.class_name.empty()) {
    out["class"] = nullptr;
    out["missing"] = b.missing;
    return out;
  }
  out["class"] = b.class_name;
  out["match"] = b.poor ? "poor" : "close";
  out["distance"] = b.distance;
  out["beyond"] = b.beyond.empty() ? nlohmann::json(nullptr) : nlohmann::json(b.beyond);
  out["iops"] = b.iops;
  out["iops_from"] = "the highest of randread_capacity's curve and randread_qd1";
  out["lat_ns"] = b.lat_ns;
  out["lat_from"] = "randread_qd1: mean";
  return out;
}

std::string reference_classes_text() {
  std::string out;
  for (const ReferenceClass& cls : kQuickReferenceClasses) {
    const std::string iops = cls.iops >= 1000 ? fmt::format("{:g}k", cls.iops / 1000) : fmt::format("{:g}", cls.iops);
    out += fmt::format("{}{} {}{} / {}", out.empty() ? "" : ", ", cls.name, iops, out.empty() ? " IOPS" : "",
                       format_duration_ns(cls.lat_ns));
  }
  return out;
}

std::string behaves_like_line(const BehavesLike& b) {
  if (b.class_name.empty()) return fmt::format("behaves like: no class: {}", b.missing);
  const ReferenceClass& cls = reference_class_named(b.class_name);
  std::string out = fmt::format("behaves like: {} (distance {:.2f} decades)", b.class_name, b.distance);
  if (b.poor) {
    out = fmt::format("behaves like: {}, the nearest class but a poor match (distance {:.2f} > {:g} decades)",
                      b.class_name, b.distance, kQuickClassPoorMatch);
  }
  out += fmt::format(": {:.0f} IOPS ({}x the class's {:.0f}), depth-1 latency {} ({}x its {})", b.iops,
                     class_ratio_text(b.iops / cls.iops), cls.iops, format_duration_ns(b.lat_ns),
                     class_ratio_text(b.lat_ns / cls.lat_ns), format_duration_ns(cls.lat_ns));
  if (!b.beyond.empty()) out += fmt::format("; {} than every class", b.beyond);
  if (b.buffered) out += "; buffered I/O: these are the page cache's figures too";
  return out;
}

}  // namespace sluice
