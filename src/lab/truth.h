#pragma once
// The truth of a model: what a correct benchmark must measure on the device, computed from the model by
// queueing theory (lab/queueing.h), never tuned to what anything measured. See docs/lab.md for the rows and
// for which of them are exact and which approximations.
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "lab/model.h"
#include "lab/queueing.h"

namespace sluice {

struct TruthOptions {
  std::chrono::nanoseconds latency_limit = std::chrono::milliseconds(10);  // for the capacity rows
};

// One expected measurement: fio's rw, bs and iodepth on the raw device (direct I/O, the whole device,
// offsets uniform for the random patterns), and what it must give.
struct TruthRow {
  std::string what;  // depth | fsync | capacity | knee | open_capacity (see docs/lab.md)
  std::string rw;    // randread, randwrite, read, write
  std::uint64_t bs = 0;
  std::uint32_t iodepth = 0;  // 0 for open_capacity (Poisson arrivals, no fixed depth)
  std::string phase;          // steady | burst (write-back cache filling) | fresh | after_cliff
  bool fsync = false;         // a flush after every write (fio's fsync=1), one thread
  double iops = 0;            // 0 when the latency limit cannot be met (capacity rows)
  Seconds mean_latency{0};    // fsync rows: the write and its flush together
  double bw_bytes = 0;
  bool exact = true;  // false: an approximation (docs/lab.md says which and why)
};

struct Truth {
  std::string model;
  std::string description;
  std::string validity;
  std::chrono::nanoseconds latency_limit{0};
  std::vector<TruthRow> rows;
  std::vector<std::string> notes;  // what the rows assume for this model, in sentences
};

// The rows for `model`: 4 KiB random read and write at depth 1 and 32, 1 MiB sequential read and write at
// depth 1 and 32, fsync'd 16 KiB random writes (one thread), and for 4 KiB random read and write the
// closed-loop capacity at options.latency_limit, the knee and the open-loop capacity. Writes get one set of
// rows per phase the model has (burst and steady for a write-back cache, fresh and after_cliff for a cliff).
Truth compute_truth(const ModelSpec& model, const TruthOptions& options = {});

// The most `bs`-byte random reads (or writes) the device serves a second: the closed-loop bound Xmax, every
// server busy (writes in the model's steady phase, or before its cliff). An open loop offered more completes
// this many and its queue grows without bound.
double device_max_iops(const ModelSpec& model, bool write, std::uint64_t bs);

// Poisson arrivals of `rate` `bs`-byte random reads (or writes, phase as above) a second on the raw device: the
// mean latency from arrival to completion, by the formula of the open_capacity rows (M/G/c by Lee-Longton,
// exact for one server); infinite at or above device_max_iops.
Seconds open_loop_mean_latency(const ModelSpec& model, bool write, std::uint64_t bs, double rate);

// Whether every `bs`-byte random read (or write) takes the same time on the model: one fixed service, no
// byte-rate cap that matters, no round trip. Then in a closed loop at a multiple of its servers every request
// waits alike, and a latency percentile is the mean.
bool service_is_fixed(const ModelSpec& model, bool write, std::uint64_t bs);

// The same arrivals' latency percentile `q` (0.99 for p99), exact for a model whose service never varies (one
// fixed time, no byte-rate cap that matters, no round trip): the time alone plus the M/D/c wait's quantile
// (lab/mdc_wait.h). nullopt for any other model (service_is_fixed false) (no exact form; docs/lab.md); infinite at
// saturation.
std::optional<Seconds> open_loop_latency_quantile(const ModelSpec& model, bool write, std::uint64_t bs, double rate,
                                                  double q);

}  // namespace sluice
