#pragma once
// How long a model's server spends on one request: the mean and variance the truth (lab/truth.h) needs.
// The lab daemon draws individual times from the same model; these are their moments.
#include <chrono>
#include <cstdint>

#include "lab/model.h"
#include "lab/queueing.h"

namespace sluice {

// The media's state for writes: before or after the cliff (cliff_after bytes written).
enum class WearPhase { kFresh, kAfterCliff };

struct ServiceTime {
  Seconds mean{0};
  double variance_s2 = 0;  // seconds squared
  Seconds least{0};        // the shortest a single service can take
};

// Positioning of a request at a random offset on rotating media, offsets uniform over the whole device and
// served in arrival order: a seek over x = |a - b| / size of seek_track + (seek_full - seek_track) * sqrt(x)
// (E[sqrt x] = 8/15, E[x] = 1/3 for two uniform offsets) plus a rotational latency uniform over one turn.
// Zero when the model is not rotating. A contiguous request (sequential) costs no positioning.
ServiceTime random_positioning(const ModelSpec& model);

// A read of `bytes`: read_time + bytes / transfer_rate, plus positioning when `random`, with jitter.
ServiceTime read_service(const ModelSpec& model, std::uint64_t bytes, bool random);

// A write of `bytes` to the media: write_time (cliff_write_time after the cliff) + bytes / transfer_rate,
// plus positioning when `random`, with jitter.
ServiceTime media_write_service(const ModelSpec& model, std::uint64_t bytes, bool random, WearPhase phase);

// A write taken into a write-back cache: cache_write_time + bytes / transfer_rate, with jitter.
ServiceTime cache_write_service(const ModelSpec& model, std::uint64_t bytes);

// `base` with the model's jitter applied as the daemon applies it: the whole time multiplied by (1 + u),
// u uniform in [-f, f], or by (1 - f + f * E), E exponential of mean 1. The mean is unchanged.
ServiceTime with_jitter(const ModelSpec& model, ServiceTime base);

// bytes / rate as a time; zero when the rate is 0 (no cost).
Seconds transfer_time(std::uint64_t bytes, double bytes_per_s);

}  // namespace sluice
