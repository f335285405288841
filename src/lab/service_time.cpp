#include "lab/service_time.h"

namespace sluice {
namespace {

Seconds as_seconds(std::chrono::nanoseconds t) { return std::chrono::duration_cast<Seconds>(t); }

ServiceTime add_fixed(ServiceTime t, Seconds fixed) {
  t.mean += fixed;
  t.least += fixed;
  return t;
}

}  // namespace

Seconds transfer_time(std::uint64_t bytes, double bytes_per_s) {
  return bytes_per_s > 0 ? Seconds(static_cast<double>(bytes) / bytes_per_s) : Seconds(0);
}

ServiceTime random_positioning(const ModelSpec& model) {
  if (!model.rotating()) return {};
  const double track = as_seconds(model.seek_track).count();
  const double span = as_seconds(model.seek_full).count() - track;
  const double turn = 60.0 / model.rpm;
  ServiceTime t;
  t.mean = Seconds(track + span * 8.0 / 15.0 + turn / 2.0);
  // Var(sqrt x) = E[x] - E[sqrt x]^2 = 1/3 - 64/225 = 11/225; a uniform turn has variance turn^2 / 12.
  t.variance_s2 = span * span * 11.0 / 225.0 + turn * turn / 12.0;
  t.least = Seconds(track);
  return t;
}

ServiceTime with_jitter(const ModelSpec& model, ServiceTime base) {
  const double f = model.jitter_fraction;
  double second_moment_factor = 1.0;  // E[(multiplier)^2]; the multiplier's mean is 1
  if (model.jitter == JitterKind::kUniform) second_moment_factor = 1.0 + f * f / 3.0;
  if (model.jitter == JitterKind::kExponential) second_moment_factor = 1.0 + f * f;
  const double m = base.mean.count();
  base.variance_s2 = (base.variance_s2 + m * m) * second_moment_factor - m * m;
  if (model.jitter != JitterKind::kNone) base.least *= 1.0 - f;  // both multipliers are at least 1 - f
  return base;
}

ServiceTime read_service(const ModelSpec& model, std::uint64_t bytes, bool random) {
  ServiceTime t = random ? random_positioning(model) : ServiceTime{};
  t = add_fixed(t, as_seconds(model.read_time) + transfer_time(bytes, model.transfer_bytes_per_s));
  return with_jitter(model, t);
}

ServiceTime media_write_service(const ModelSpec& model, std::uint64_t bytes, bool random, WearPhase phase) {
  ServiceTime t = random ? random_positioning(model) : ServiceTime{};
  const auto fixed = phase == WearPhase::kAfterCliff ? model.cliff_write_time : model.write_time;
  t = add_fixed(t, as_seconds(fixed) + transfer_time(bytes, model.transfer_bytes_per_s));
  return with_jitter(model, t);
}

ServiceTime cache_write_service(const ModelSpec& model, std::uint64_t bytes) {
  return with_jitter(
      model, add_fixed({}, as_seconds(model.cache_write_time) + transfer_time(bytes, model.transfer_bytes_per_s)));
}

}  // namespace sluice
