#include "mpi/host_shares.h"

#include <fmt/format.h>

#include "report/report_format.h"

namespace sluice::mpi {
namespace {

struct Figures {
  double ios = 0;
  double bytes = 0;
  double seconds = 0;
  LatencyStat lat;
  double iops() const { return seconds > 0 ? ios / seconds : 0; }
  double bytes_per_second() const { return seconds > 0 ? bytes / seconds : 0; }
};

Figures figures_of(const JobResult& job) {
  Figures f;
  LatencyStat clat;
  for (const DirectionStats& d : job.dirs) {
    f.ios += static_cast<double>(d.ios);
    f.bytes += static_cast<double>(d.bytes);
    f.lat.merge(d.lat);
    clat.merge(d.clat);
  }
  if (f.lat.count() == 0) f.lat = clat;  // "lat" where recorded, else "clat" (as the run's host table)
  f.seconds = static_cast<double>(job.runtime_ns) / 1e9;
  return f;
}

}  // namespace

std::string format_ns(double ns) {
  if (ns < 1e3) return fmt::format("{:.0f}ns", ns);
  if (ns < 1e6) return fmt::format("{:.1f}us", ns / 1e3);
  if (ns < 1e9) return fmt::format("{:.2f}ms", ns / 1e6);
  return fmt::format("{:.2f}s", ns / 1e9);
}

void add_host_shares(std::vector<HostShare>& shares, const ClusterRun& run) {
  if (run.groups.empty()) return;
  for (const HostFigures& h : run.groups.front().hosts) {
    HostShare* share = nullptr;
    for (HostShare& s : shares) {
      if (s.rank == h.rank) share = &s;
    }
    if (share == nullptr) {
      shares.push_back(HostShare{h.rank, h.host, h.job});
      continue;
    }
    const std::uint64_t runtime = share->job.runtime_ns + h.job.runtime_ns;
    share->job.merge(h.job);
    share->job.runtime_ns = runtime;
  }
}

std::string render_host_shares(const std::vector<HostShare>& shares) {
  std::string out = fmt::format("  {:<20} {:>4} {:>9} {:>12} {:>10} {:>10}\n", "host", "rank", "IOPS", "bandwidth",
                                "lat mean", "lat p99");
  for (const HostShare& s : shares) {
    const Figures f = figures_of(s.job);
    out += fmt::format("  {:<20} {:>4} {:>9} {:>12} {:>10} {:>10}\n", s.host, s.rank,
                       report::compact_number(f.iops(), 4, 1000, report::NumUnit::kNone),
                       report::compact_number(f.bytes_per_second(), 4, 1024, report::NumUnit::kBytes) + "/s",
                       format_ns(f.lat.moments.mean()), format_ns(static_cast<double>(f.lat.histogram.percentile(99))));
  }
  return out;
}

nlohmann::ordered_json host_shares_json(const std::vector<HostShare>& shares) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const HostShare& s : shares) {
    const Figures f = figures_of(s.job);
    out.push_back({{"rank", s.rank},
                   {"hostname", s.host},
                   {"ios", f.ios},
                   {"runtime_s", f.seconds},
                   {"iops", f.iops()},
                   {"bw_bytes", f.bytes_per_second()},
                   {"lat_mean_ns", f.lat.moments.mean()},
                   {"lat_p99_ns", f.lat.histogram.percentile(99)}});
  }
  return out;
}

}  // namespace sluice::mpi
