// As fio 3.42's checks (init.c, filesetup.c): sprandom needs random writes, the LFSR generator and no random
// map, and works on one file. fio sets random_generator=lfsr and norandommap=1 itself when they are not given.
#include "job/validate_sprandom.h"

#include <algorithm>
#include <string>

#include "job/job_problems.h"

namespace sluice {

void validate_sprandom(const JobSpec& job, std::vector<Problem>& out) {
  detail::JobProblems check(job);
  if (!job.workload.sprandom) {
    for (const char* option : {"spr_num_regions", "spr_op", "spr_cs"}) {
      if (job.given_options.count(option) != 0) {
        check.warning(option, std::string(option) + " has no effect without sprandom=1; ignored");
      }
    }
    for (Problem& p : check.take()) out.push_back(std::move(p));
    return;
  }
  if (job.workload.rw != RwMode::kRandWrite && job.workload.rw != RwMode::kRandRW) {
    check.error("sprandom", "sprandom needs random writes: rw=randwrite or rw=randrw, not rw=" +
                                std::string(rw_mode_name(job.workload.rw)) + " (fio: sprandom requires random write)");
  }
  if (job.explicitly_given.random_generator && !job.workload.lfsr_offsets) {
    check.error("random_generator",
                "sprandom needs random_generator=lfsr (its offsets come from the LFSR); drop "
                "random_generator or give lfsr");
  }
  if (job.explicitly_given.norandommap && !job.workload.norandommap) {
    check.error("norandommap",
                "sprandom needs norandommap=1 (it chooses which blocks are written twice); drop "
                "norandommap=0");
  }
  if (job.target.nrfiles != 1 || job.target.filenames.size() > 1) {
    check.error("sprandom", "sprandom works on one file per job (as fio), not " +
                                std::to_string(std::max<std::size_t>(job.target.nrfiles, job.target.filenames.size())) +
                                "; use one job per file or device");
  }
  if (job.workload.random_distribution.kind != DistributionKind::kRandom) {
    check.warning("random_distribution",
                  "random_distribution has no effect on sprandom's writes (as fio); "
                  "ignored for them");
  }
  for (Problem& p : check.take()) out.push_back(std::move(p));
}

}  // namespace sluice
