#include "lab/path_calibration.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#include "common/error.h"
#include "common/rng.h"
#include "common/unique_fd.h"
#include "lab/lab_control.h"

namespace sluice {
namespace {

constexpr std::size_t kBlock = 4096;
constexpr unsigned kUnmeasured = 50;  // the first reads warm the daemon's threads and the kernel's paths
constexpr std::int64_t kMinSamples = 200;
constexpr std::int64_t kMaxSamples = 1000;

void write_control(const std::string& control, const LabControl& setting) {
  const UniqueFd fd(::open(control.c_str(), O_WRONLY | O_CLOEXEC));
  const std::string text = lab_control_text(setting);
  if (fd.get() < 0 || ::write(fd.get(), text.data(), text.size()) != static_cast<ssize_t>(text.size())) {
    throw UserError(fmt::format("lab: {}: cannot set the daemon: {}", control, std::strerror(errno)));
  }
}

// Back to the model when the measurement ends, however it ends.
struct CalibratingScope {
  CalibratingScope(const std::string& c, std::chrono::nanoseconds delay) : control(c) {
    write_control(control, {LabControl::Kind::kCalibrate, delay});
  }
  ~CalibratingScope() {
    try {
      write_control(control, {LabControl::Kind::kModel, std::chrono::nanoseconds(0)});
    } catch (const std::exception&) {
      // The daemon is gone: nothing is left to set back.
    }
  }
  CalibratingScope(const CalibratingScope&) = delete;
  CalibratingScope& operator=(const CalibratingScope&) = delete;
  const std::string& control;
};

// The measuring thread in real time while it measures (when allowed: root), as the daemon's threads are: a
// CPU hog beside lab up would otherwise preempt the reads and make the path look long (measured beside
// stress-ng --cpu 2: a path several times the idle one, so ssd's depth-1 latency came out at 0.35 of the model's).
class RealtimeScope {
 public:
  RealtimeScope() : policy_(::sched_getscheduler(0)) {
    ::sched_getparam(0, &param_);
    sched_param fifo{};
    fifo.sched_priority = 1;
    entered_ = ::sched_setscheduler(0, SCHED_FIFO, &fifo) == 0;
  }
  ~RealtimeScope() {
    if (entered_) ::sched_setscheduler(0, policy_, &param_);
  }
  RealtimeScope(const RealtimeScope&) = delete;
  RealtimeScope& operator=(const RealtimeScope&) = delete;

 private:
  int policy_;
  sched_param param_{};
  bool entered_ = false;
};

std::chrono::nanoseconds quantile(const std::vector<std::chrono::nanoseconds>& sorted, double q) {
  return sorted[static_cast<std::size_t>(q * static_cast<double>(sorted.size() - 1))];
}

}  // namespace

PathMeasurement measure_path(const std::string& device, const std::string& control, std::uint64_t size,
                             std::chrono::nanoseconds delay) {
  if (size < kBlock) throw UserError("lab: the path is measured on a device of at least 4 KiB");
  const auto per_read = delay + std::chrono::microseconds(100);
  const unsigned samples = static_cast<unsigned>(
      std::clamp<std::int64_t>(std::chrono::nanoseconds(std::chrono::seconds(1)) / per_read, kMinSamples, kMaxSamples));
  const UniqueFd fd(::open(device.c_str(), O_RDONLY | O_DIRECT | O_CLOEXEC));
  if (fd.get() < 0) throw UserError(fmt::format("lab: {}: {} (measuring the path)", device, std::strerror(errno)));
  void* raw = nullptr;
  if (::posix_memalign(&raw, kBlock, kBlock) != 0) throw UserError("lab: out of memory measuring the path");
  const std::unique_ptr<void, decltype(&std::free)> buffer(raw, &std::free);
  Rng rng(0x1ab5);
  const std::uint64_t blocks = size / kBlock;
  std::vector<std::chrono::nanoseconds> times;
  times.reserve(samples);
  const CalibratingScope calibrating(control, delay);
  const RealtimeScope realtime;
  for (unsigned i = 0; i < kUnmeasured + samples; ++i) {
    const off_t offset = static_cast<off_t>(rng.below(blocks) * kBlock);
    const auto start = std::chrono::steady_clock::now();
    if (::pread(fd.get(), buffer.get(), kBlock, offset) != static_cast<ssize_t>(kBlock)) {
      throw UserError(fmt::format("lab: {}: a read failed measuring the path: {}", device, std::strerror(errno)));
    }
    if (i >= kUnmeasured) times.push_back(std::chrono::steady_clock::now() - start - delay);
  }
  std::sort(times.begin(), times.end());
  const std::size_t kept = times.size() - times.size() / 100;
  std::chrono::nanoseconds sum{0};
  for (std::size_t i = 0; i < kept; ++i) sum += times[i];
  return {.mean = sum / static_cast<std::int64_t>(kept),
          .median = quantile(times, 0.5),
          .p10 = quantile(times, 0.1),
          .p90 = quantile(times, 0.9),
          .samples = samples};
}

void set_path_compensation(const std::string& control, std::chrono::nanoseconds path) {
  write_control(control, {LabControl::Kind::kPath, path});
}

}  // namespace sluice
