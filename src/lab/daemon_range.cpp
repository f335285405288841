#include "lab/daemon_range.h"

#include <fmt/format.h>

#include <algorithm>

#include "lab/truth.h"

namespace sluice {

double model_peak_rate(const ModelSpec& model) {
  double peak = 0;
  for (const TruthRow& row : compute_truth(model).rows) {
    // Open-loop rows are approximations below the capacity; every other row is a closed loop's exact rate.
    if (row.bs == 4096 && row.what != "open_capacity") peak = std::max(peak, row.iops);
  }
  return peak;
}

std::optional<std::string> beyond_daemon_range(const ModelSpec& model) {
  const double peak = model_peak_rate(model);
  if (peak <= kDaemonFaithfulRate) return std::nullopt;
  return fmt::format(
      "model {} asks for up to {:.0f} requests/s (4 KiB, at its capacity), beyond the {:.0f} the lab daemon serves "
      "faithfully (docs/lab.md, fidelity): its numbers would measure the daemon, not the model. Give it fewer "
      "servers or longer service times, or --force to serve it anyway",
      model.name.empty() ? "(unnamed)" : model.name, peak, kDaemonFaithfulRate);
}

}  // namespace sluice
