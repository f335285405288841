#pragma once
// A model device: the parameters of a device whose service the lab daemon imitates and whose truth
// (lab/truth.h) queueing theory gives. Parsed from the model format (lab/model_parser.h, docs/lab.md); the
// presets (lab/presets.h) are written in the same format. Plain data; the defaults are those of a model file
// that sets nothing but its service time.
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "lab/model_faults.h"

namespace sluice {

enum class WriteCacheMode { kNone, kWriteThrough, kWriteBack };
enum class JitterKind { kNone, kUniform, kExponential };

struct ModelSpec {
  std::string name;         // the preset's name, or the model file's stem
  std::string description;  // one line, for `sluice lab models`
  std::string validity;     // what the lab can serve faithfully of this model ("" = not stated)

  std::uint64_t size_bytes = std::uint64_t{4} << 30;  // the device's default size; seeks and cliff scale by it
  std::uint32_t servers = 1;                          // requests served in parallel
  std::chrono::nanoseconds read_time{0};              // fixed time of a read at a server
  std::chrono::nanoseconds write_time{0};             // fixed time of a write to the media at a server
  double transfer_bytes_per_s = 0;                    // one server's per-byte cost is 1/this; 0 = none
  double bandwidth_bytes_per_s = 0;                   // the whole device's throughput cap; 0 = none

  // Rotating media: a seek by LBA distance plus rotational latency; rpm 0 = not rotating.
  std::uint32_t rpm = 0;
  std::chrono::nanoseconds seek_track{0};  // the shortest non-zero seek
  std::chrono::nanoseconds seek_full{0};   // a full-stroke seek (distance = size_bytes)

  WriteCacheMode write_cache = WriteCacheMode::kNone;
  std::uint64_t cache_size_bytes = 0;
  std::chrono::nanoseconds cache_write_time{0};  // a write-back write acknowledged from the cache
  double destage_bytes_per_s = 0;                // how fast a write-back cache drains to the media
  std::chrono::nanoseconds flush_time{0};        // a flush's own cost, whatever the cache holds
  bool battery = false;                          // write-back cache survives power loss: a flush destages nothing

  std::chrono::nanoseconds network_rtt{0};  // added to every request, flushes included

  std::uint64_t cliff_after_bytes = 0;  // writes after this many bytes written take cliff_write_time; 0 = none
  double cliff_size_multiple = 0;       // cliff_after given as a multiple of size (1.5x); 0: given in bytes
  std::chrono::nanoseconds cliff_write_time{0};

  JitterKind jitter = JitterKind::kNone;
  double jitter_fraction = 0;  // uniform: +-fraction of the service time; exponential: that share drawn from Exp
  std::uint64_t seed = 1;

  std::vector<FaultRule> faults;  // `fault` lines, in order: the first that matches a request decides

  bool rotating() const noexcept { return rpm != 0; }
  // The device served is `bytes` large: seeks scale with it, and a cliff given as a multiple of the size moves
  // with it (a 256 MiB ssd-cliff lab's cliff is at 384 MiB, not at 1.5 x the preset's 4 GiB).
  void resize(std::uint64_t bytes) noexcept {
    size_bytes = bytes;
    if (cliff_size_multiple > 0) {
      cliff_after_bytes = static_cast<std::uint64_t>(cliff_size_multiple * static_cast<double>(bytes));
    }
  }
  bool has_cliff() const noexcept { return cliff_after_bytes != 0; }
  bool has_faults() const noexcept { return !faults.empty(); }
};

// "none", "write-through", "write-back"; "none", "uniform", "exponential".
const char* write_cache_name(WriteCacheMode mode) noexcept;
const char* jitter_name(JitterKind kind) noexcept;

}  // namespace sluice
