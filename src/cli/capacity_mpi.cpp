#include "cli/capacity_mpi.h"

#include <fmt/format.h>

#include <cstdio>
#include <sstream>

#include "cli/commands.h"
#include "common/error.h"
#include "mpi/cluster_report.h"
#include "mpi/cluster_run.h"
#include "mpi/world.h"

namespace sluice {
namespace {

constexpr const char* kQuit = "quit";

std::string encode_segment(const CapacitySegment& s) {
  return fmt::format("segment {} {} {} {}", s.iodepth, s.numjobs, s.measured.count(), s.first ? 1 : 0);
}

CapacitySegment decode_segment(const std::string& text) {
  std::istringstream in(text);
  std::string word;
  long long measured = 0;
  int first = 0;
  CapacitySegment s;
  in >> word >> s.iodepth >> s.numjobs >> measured >> first;
  if (!in || word != "segment") throw std::runtime_error("capacity under MPI: rank 0 sent '" + text + "'");
  s.measured = std::chrono::nanoseconds(measured);
  s.first = first != 0;
  return s;
}

// The point whose hosts the report shows: the answer, else the last one measured.
const CapacityPoint* shown_point(const CapacityResult& result) {
  if (result.answer) return &*result.answer;
  return result.curve.empty() ? nullptr : &result.curve.back();
}

}  // namespace

CapacityLeader::CapacityLeader(CapacityRequest& request) {
  request.hosts = static_cast<std::uint32_t>(mpi::size());
  request.run_segment = [this](const CapacitySegment& segment, const std::vector<JobSpec>& jobs,
                               const RunnerOptions& options) { return run_segment(segment, jobs, options); };
}

CapacityLeader::~CapacityLeader() {
  try {
    mpi::broadcast(kQuit);
  } catch (...) {  // MPI already failing: the error that got us here is what the user must see
  }
}

void CapacityLeader::start_search() {
  shares_.clear();
  ranks_.clear();
}

RunResult CapacityLeader::run_segment(const CapacitySegment& segment, const std::vector<JobSpec>& jobs,
                                      const RunnerOptions& options) {
  mpi::broadcast(encode_segment(segment));
  mpi::ClusterRun run = mpi::run_cluster(jobs, options);
  if (!run.failures.empty()) {
    std::string failures;
    for (const std::string& f : run.failures) failures += (failures.empty() ? "" : "; ") + f;
    throw UserError("capacity: failed on " + failures);
  }
  if (ranks_.empty()) {
    for (mpi::RankReport r : run.ranks) {
      r.groups.clear();
      ranks_.push_back(std::move(r));
    }
  }
  mpi::add_host_shares(shares_[{segment.iodepth, segment.numjobs}], run);
  return std::move(run.combined);
}

std::string CapacityLeader::render_text(const CapacityResult& result) const {
  const CapacityPoint* point = shown_point(result);
  std::string out;
  if (point != nullptr) {
    const auto found = shares_.find({point->iodepth, point->numjobs});
    if (found != shares_.end()) {
      out += fmt::format("\nPer host at {} (concurrency {}; each host's own IOPS over its own time, never added):\n",
                         result.answer ? "the answer" : "the last point", point->concurrency());
      out += mpi::render_host_shares(found->second);
    }
  }
  if (!ranks_.empty()) out += "\n" + mpi::host_differences_text(ranks_);
  return out;
}

void CapacityLeader::add_to_document(CapacityResult& result) const {
  nlohmann::ordered_json points = nlohmann::ordered_json::array();
  for (const CapacityPoint& p : result.curve) {
    const auto found = shares_.find({p.iodepth, p.numjobs});
    if (found == shares_.end()) continue;
    points.push_back({{"concurrency", p.concurrency()},
                      {"iodepth", p.iodepth},
                      {"numjobs", p.numjobs},
                      {"hosts", mpi::host_shares_json(found->second)}});
  }
  nlohmann::json& extra = result.final_run.extra;
  extra["mpi"] =
      nlohmann::json::parse(nlohmann::ordered_json{{"ranks", mpi::size()}, {"points", std::move(points)}}.dump());
  extra["hosts"] = nlohmann::json::parse(mpi::hosts_json(ranks_).dump());
}

int follow_capacity(const CapacityRequest& request) {
  int code = kExitOk;
  for (;;) {
    const std::string order = mpi::broadcast("");
    if (order == kQuit) return code;
    const CapacitySegment segment = decode_segment(order);
    RunnerOptions options = capacity_segment_options(request, segment);
    options.notice = [](const std::string&) {};  // rank 0 speaks for the run
    const mpi::ClusterRun run = mpi::run_cluster(capacity_segment_jobs(request, segment), options);
    if (run.exit_code != kExitOk) code = run.exit_code;
  }
}

}  // namespace sluice
