#include "observe/cpu_busy.h"

#include <fstream>
#include <sstream>
#include <thread>

namespace sluice {

std::optional<CpuTimes> read_cpu_times(const SystemRoots& roots) {
  std::ifstream in(roots.proc_root + "/stat");
  std::string line;
  if (!std::getline(in, line) || line.rfind("cpu ", 0) != 0) return std::nullopt;
  std::istringstream fields(line.substr(4));
  unsigned long long user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0;
  if (!(fields >> user >> nice >> system >> idle >> iowait >> irq >> softirq)) return std::nullopt;
  fields >> steal;  // absent on old kernels
  CpuTimes t;
  t.busy = user + nice + system + irq + softirq + steal;
  t.total = t.busy + idle + iowait;
  return t;
}

std::optional<double> busy_share(const CpuTimes& before, const CpuTimes& after) {
  if (after.total <= before.total) return std::nullopt;
  const double busy = static_cast<double>(after.busy - before.busy);
  return busy / static_cast<double>(after.total - before.total);
}

std::optional<double> sample_cpu_busy(std::chrono::milliseconds window, const SystemRoots& roots) {
  const std::optional<CpuTimes> before = read_cpu_times(roots);
  if (!before) return std::nullopt;
  std::this_thread::sleep_for(window);
  const std::optional<CpuTimes> after = read_cpu_times(roots);
  if (!after) return std::nullopt;
  return busy_share(*before, *after);
}

}  // namespace sluice
