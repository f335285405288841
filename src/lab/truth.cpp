#include "lab/truth.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "job/units.h"
#include "lab/mdc_wait.h"
#include "lab/service_time.h"

namespace sluice {
namespace {

constexpr std::uint64_t kSmallBlock = 4096;
constexpr std::uint64_t kLargeBlock = 1 << 20;
constexpr std::uint64_t kFsyncBlock = 16384;
constexpr std::uint32_t kDeepQueue = 32;
constexpr std::uint32_t kMaxCapacityDepth = 65536;

enum class RowPhase { kSteady, kBurst, kFresh, kAfterCliff };

const char* phase_name(RowPhase phase) {
  switch (phase) {
    case RowPhase::kSteady:
      return "steady";
    case RowPhase::kBurst:
      return "burst";
    case RowPhase::kFresh:
      return "fresh";
    case RowPhase::kAfterCliff:
      return "after_cliff";
  }
  return "?";
}

// What a request meets at the device: a service at one of `servers`, byte-rate caps shared by all requests
// (the bandwidth cap, and for a full write-back cache its destage rate), and the network round trip.
struct Station {
  ServiceTime service;
  std::uint32_t servers = 1;
  std::vector<double> caps_bytes_per_s;
  Seconds rtt{0};
  std::uint64_t bs = 0;
};

struct Pattern {
  bool write = false;
  bool random = false;
  std::uint64_t bs = 0;
  RowPhase phase = RowPhase::kSteady;
};

bool write_back(const ModelSpec& m) { return m.write_cache == WriteCacheMode::kWriteBack; }

std::vector<RowPhase> write_phases(const ModelSpec& m) {
  if (write_back(m)) return {RowPhase::kBurst, RowPhase::kSteady};
  if (m.has_cliff()) return {RowPhase::kFresh, RowPhase::kAfterCliff};
  return {RowPhase::kSteady};
}

Station station_for(const ModelSpec& m, const Pattern& p) {
  Station s;
  s.servers = m.servers;
  s.rtt = std::chrono::duration_cast<Seconds>(m.network_rtt);
  s.bs = p.bs;
  if (m.bandwidth_bytes_per_s > 0) s.caps_bytes_per_s.push_back(m.bandwidth_bytes_per_s);
  if (!p.write) {
    s.service = read_service(m, p.bs, p.random);
  } else if (write_back(m)) {
    s.service = cache_write_service(m, p.bs);
    if (p.phase == RowPhase::kSteady) s.caps_bytes_per_s.push_back(m.destage_bytes_per_s);
  } else {
    const WearPhase wear = p.phase == RowPhase::kAfterCliff ? WearPhase::kAfterCliff : WearPhase::kFresh;
    s.service = media_write_service(m, p.bs, p.random, wear);
  }
  return s;
}

// T1 = rtt + the longest of the service and each cap's transfer time (a cap's transfer overlaps the
// service); Xmax = the least of c / S and each cap / bs.
ClosedLoopBounds bounds_of(const Station& s) {
  ClosedLoopBounds b;
  Seconds alone = s.service.mean;
  b.max_iops = s.servers / s.service.mean.count();
  for (double cap : s.caps_bytes_per_s) {
    alone = std::max(alone, transfer_time(s.bs, cap));
    b.max_iops = std::min(b.max_iops, cap / static_cast<double>(s.bs));
  }
  b.zero_load_latency = s.rtt + alone;
  return b;
}

bool varies(const Station& s) { return s.service.variance_s2 > 0; }

// A cap that no request can feel: its transfer never outlasts a service and its rate is ten times the
// servers' (docs/lab.md: such a cap does not make a row approximate).
bool cap_negligible(const Station& s, double cap) {
  const Seconds transfer = transfer_time(s.bs, cap);
  return transfer <= s.service.least && cap / static_cast<double>(s.bs) >= 10 * s.servers / s.service.mean.count();
}

bool caps_negligible(const Station& s) {
  return std::all_of(s.caps_bytes_per_s.begin(), s.caps_bytes_per_s.end(),
                     [&s](double cap) { return cap_negligible(s, cap); });
}

// See docs/lab.md: deterministic service reaches the bounds; with varying service they hold exactly only
// without (felt) caps and either with a server free for every request or with no round trip (servers never idle).
bool closed_exact(const Station& s, std::uint32_t depth) {
  if (!varies(s)) return true;
  return caps_negligible(s) && (depth <= s.servers || s.rtt.count() == 0);
}

std::string rw_name(const Pattern& p) {
  if (p.write) return p.random ? "randwrite" : "write";
  return p.random ? "randread" : "read";
}

TruthRow row_of(const Pattern& p, std::string what, std::uint32_t depth, double iops, Seconds latency, bool exact) {
  TruthRow r;
  r.what = std::move(what);
  r.rw = rw_name(p);
  r.bs = p.bs;
  r.iodepth = depth;
  r.phase = phase_name(p.phase);
  r.iops = iops;
  r.mean_latency = latency;
  r.bw_bytes = iops * static_cast<double>(p.bs);
  r.exact = exact;
  return r;
}

TruthRow depth_row(const ModelSpec& m, const Pattern& p, std::uint32_t depth) {
  const Station s = station_for(m, p);
  const ClosedLoopBounds b = bounds_of(s);
  return row_of(p, "depth", depth, closed_loop_iops(b, depth), closed_loop_latency(b, depth), closed_exact(s, depth));
}

// The deepest queue whose mean latency stays within the limit; iops 0 when even one request alone exceeds it.
TruthRow capacity_row(const ModelSpec& m, const Pattern& p, Seconds limit) {
  const Station s = station_for(m, p);
  const ClosedLoopBounds b = bounds_of(s);
  if (b.zero_load_latency > limit) return row_of(p, "capacity", 0, 0, b.zero_load_latency, closed_exact(s, 1));
  const double deepest = std::floor(limit.count() * b.max_iops * (1 + 1e-12));
  const auto depth = static_cast<std::uint32_t>(std::clamp(deepest, 1.0, double{kMaxCapacityDepth}));
  return row_of(p, "capacity", depth, closed_loop_iops(b, depth), closed_loop_latency(b, depth),
                closed_exact(s, depth));
}

// The shallowest queue that reaches the most the device can do.
TruthRow knee_row(const ModelSpec& m, const Pattern& p) {
  const Station s = station_for(m, p);
  const ClosedLoopBounds b = bounds_of(s);
  const double knee = std::ceil(knee_depth(b) * (1 - 1e-12));
  const auto depth = static_cast<std::uint32_t>(std::clamp(knee, 1.0, double{kMaxCapacityDepth}));
  return row_of(p, "knee", depth, closed_loop_iops(b, depth), closed_loop_latency(b, depth), closed_exact(s, depth));
}

// Poisson arrivals at `rate`: T1 + the M/G/c wait at the servers + an M/D/1 wait at each cap that is felt.
Seconds open_latency(const Station& s, const ClosedLoopBounds& b, double rate) {
  const double scv = s.service.variance_s2 / (s.service.mean.count() * s.service.mean.count());
  Seconds latency = b.zero_load_latency + mgc_wait(rate, s.service.mean, s.servers, scv);
  for (double cap : s.caps_bytes_per_s) {
    if (!cap_negligible(s, cap)) latency += mgc_wait(rate, transfer_time(s.bs, cap), 1, 0);
  }
  return latency;
}

TruthRow open_capacity_row(const ModelSpec& m, const Pattern& p, Seconds limit) {
  const Station s = station_for(m, p);
  const ClosedLoopBounds b = bounds_of(s);
  const bool exact = s.servers == 1 && caps_negligible(s);
  if (b.zero_load_latency > limit) return row_of(p, "open_capacity", 0, 0, b.zero_load_latency, exact);
  double low = 0;
  double high = b.max_iops;
  for (int i = 0; i < 200; ++i) {
    const double mid = (low + high) / 2;
    (open_latency(s, b, mid) <= limit ? low : high) = mid;
  }
  return row_of(p, "open_capacity", 0, low, open_latency(s, b, low), exact);
}

// One thread: a 16 KiB random write, then a flush (rtt + flush_time). A write-back cache has room (each
// write is acknowledged from it), and a volatile one makes the flush wait for what the cache still holds of
// the write: max(0, bs / destage - T1). A battery-backed cache drains on its own; when writes come faster
// than the destage, they wait for room: at most destage / bs a second. Without a write-back cache the write
// goes to the media. One request at a time, so the rate is 1 / E[cycle].
TruthRow fsync_row(const ModelSpec& m, RowPhase phase) {
  const RowPhase write_phase = write_back(m) ? RowPhase::kBurst : phase;
  const Pattern p{true, true, kFsyncBlock, write_phase};
  const Station s = station_for(m, p);
  const Seconds write = bounds_of(s).zero_load_latency;
  Seconds cycle = write + s.rtt + std::chrono::duration_cast<Seconds>(m.flush_time);
  bool exact = !varies(s) || caps_negligible(s);
  if (write_back(m)) {
    const Seconds destage = transfer_time(kFsyncBlock, m.destage_bytes_per_s);
    if (m.battery) {
      cycle = std::max(cycle, destage);
    } else {
      cycle += std::max(Seconds(0), destage - write);
    }
    exact = exact && (!varies(s) || destage <= s.service.least + s.rtt);
  }
  const Pattern shown{true, true, kFsyncBlock, phase};
  TruthRow r = row_of(shown, "fsync", 1, 1.0 / cycle.count(), cycle, exact);
  r.fsync = true;
  return r;
}

void add_pattern_rows(const ModelSpec& m, const Pattern& p, Seconds limit, std::vector<TruthRow>& rows) {
  rows.push_back(depth_row(m, p, 1));
  rows.push_back(depth_row(m, p, kDeepQueue));
  if (p.bs != kSmallBlock) return;
  rows.push_back(capacity_row(m, p, limit));
  rows.push_back(knee_row(m, p));
  rows.push_back(open_capacity_row(m, p, limit));
}

void add_notes(const ModelSpec& m, const std::vector<TruthRow>& rows, Truth& t) {
  if (m.rotating()) {
    t.notes.push_back(
        "rotating: random rows assume offsets uniform over the whole device, served in arrival order (mean "
        "seek seek_track + 8/15 of the span, half a turn); a scheduler that sorts requests shortens seeks, so "
        "a benchmark at depth may measure more than this, and a smaller file measures shorter seeks");
  }
  if (write_back(m)) {
    const auto burst = std::find_if(rows.begin(), rows.end(), [](const TruthRow& r) {
      return r.rw == "write" && r.phase == "burst" && r.iodepth == kDeepQueue;
    });
    std::string fill = "never fills at these rates";
    if (burst != rows.end() && burst->bw_bytes > m.destage_bytes_per_s) {
      const double seconds = static_cast<double>(m.cache_size_bytes) / (burst->bw_bytes - m.destage_bytes_per_s);
      fill = fmt::format("fills after about {:.1f} s of 1 MiB writes at depth 32", seconds);
    }
    t.notes.push_back(fmt::format(
        "write-back: burst rows hold while the {} cache has room ({}), steady rows once writes wait for the "
        "destage at {}; a benchmark shorter than the burst measures the burst",
        format_bytes(static_cast<double>(m.cache_size_bytes)), fill, format_bandwidth(m.destage_bytes_per_s)));
    if (m.has_cliff())
      t.notes.push_back("the cliff changes media writes only: cached writes and destage keep their rate");
  } else if (m.has_cliff()) {
    t.notes.push_back(fmt::format("cliff: fresh rows until {} have been written to the device, after_cliff rows after",
                                  format_bytes(static_cast<double>(m.cliff_after_bytes))));
  }
  t.notes.push_back(
      "fsync rows: on the raw device, each write then one flush; a filesystem adds its journal commit, so "
      "fsync'd writes to a file are slower than this");
  if (m.has_faults()) {
    t.notes.push_back(fmt::format(
        "faults: the rows are for the requests the faults leave alone ({} fault rule{}: a failed request is no "
        "measurement, a stalled one takes longer, a lie is acknowledged at the model's time)",
        m.faults.size(), m.faults.size() == 1 ? "" : "s"));
  }
  if (std::any_of(rows.begin(), rows.end(), [](const TruthRow& r) { return !r.exact; })) {
    t.notes.push_back(
        "rows marked ~ are approximations (queueing with varying service or shared caps; see docs/lab.md)");
  }
}

}  // namespace

double device_max_iops(const ModelSpec& model, bool write, std::uint64_t bs) {
  // kSteady: a write-back cache's destage caps the writes; a cliff model's media are fresh.
  return bounds_of(station_for(model, {write, true, bs, RowPhase::kSteady})).max_iops;
}

Seconds open_loop_mean_latency(const ModelSpec& model, bool write, std::uint64_t bs, double rate) {
  const Station s = station_for(model, {write, true, bs, RowPhase::kSteady});
  const ClosedLoopBounds b = bounds_of(s);
  if (rate >= b.max_iops) return Seconds(std::numeric_limits<double>::infinity());
  return open_latency(s, b, rate);
}

bool service_is_fixed(const ModelSpec& model, bool write, std::uint64_t bs) {
  const Station s = station_for(model, {write, true, bs, RowPhase::kSteady});
  return s.service.variance_s2 == 0 && caps_negligible(s) && s.rtt.count() == 0;
}

std::optional<Seconds> open_loop_latency_quantile(const ModelSpec& model, bool write, std::uint64_t bs, double rate,
                                                  double q) {
  if (!service_is_fixed(model, write, bs)) return std::nullopt;
  const Station s = station_for(model, {write, true, bs, RowPhase::kSteady});
  return bounds_of(s).zero_load_latency + mdc_wait_quantile(rate, s.service.mean, s.servers, q);
}

Truth compute_truth(const ModelSpec& model, const TruthOptions& options) {
  Truth t;
  t.model = model.name;
  t.description = model.description;
  t.validity = model.validity;
  t.latency_limit = options.latency_limit;
  const Seconds limit = std::chrono::duration_cast<Seconds>(options.latency_limit);
  add_pattern_rows(model, {false, true, kSmallBlock, RowPhase::kSteady}, limit, t.rows);
  for (RowPhase phase : write_phases(model)) add_pattern_rows(model, {true, true, kSmallBlock, phase}, limit, t.rows);
  add_pattern_rows(model, {false, false, kLargeBlock, RowPhase::kSteady}, limit, t.rows);
  for (RowPhase phase : write_phases(model)) add_pattern_rows(model, {true, false, kLargeBlock, phase}, limit, t.rows);
  for (RowPhase phase : write_phases(model)) {
    if (phase != RowPhase::kBurst) t.rows.push_back(fsync_row(model, phase));
  }
  add_notes(model, t.rows, t);
  return t;
}

}  // namespace sluice
