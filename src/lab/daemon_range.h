#pragma once
// The lab daemon's range: the request rate up to which its replies leave when the model says, measured on a
// 2-vCPU machine (docs/lab.md, "Fidelity"). A model that asks for more would measure the daemon, not the
// model; lab up and lab serve refuse it unless told to serve it anyway (--force).
#include <optional>
#include <string>

#include "lab/model.h"

namespace sluice {

// Requests a second the daemon serves within 5% of the model's throughput (4 KiB reads of 0.8 ms, through the
// loop device, fio at depth 32 or 64, idle and beside stress-ng --cpu 2; docs/lab.md "Fidelity"): 16 servers
// (20 000) measured 0.95-0.99 of it, 24 servers (30 000) 0.83-0.86 at depth 32.
inline constexpr double kDaemonFaithfulRate = 20'000;

// The highest 4 KiB request rate the model's truth asks for (random read or write, any depth or phase, up to
// the capacity: every server busy).
double model_peak_rate(const ModelSpec& model);

// Why `model` is beyond the daemon's range, in a sentence naming its peak rate and the range; nullopt when it
// is within.
std::optional<std::string> beyond_daemon_range(const ModelSpec& model);

}  // namespace sluice
