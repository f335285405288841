#pragma once
// fio's built-in profiles on the command line (fio --profile=NAME): `tiobench` is expanded into its four jobs
// (seqwrite, randwrite, seqread, randread; fio's profiles/tiobench.c), with the profile's own options --size
// (MiB), --block (bytes), --numruns, --dir and --threads; `act` (profiles/act.c, the Aerospike certification
// test) into its rate-limited small reads and large writes per device (--device-names, --load,
// --test-duration, --threads-per-queue, --read-req-num-512-blocks, --large-block-op-kbytes) or, with --prep,
// its preparation (zeroes, then random 4 KiB writes), its latencies judged hourly (stats/act_slices.h).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "job/command_line.h"

namespace sluice {

// The arguments of `sluice run` with a --profile=NAME (or --profile NAME) and its options replaced by the
// profile's job options, as fio's command line would give them: the profile's global options, then one
// --name per job. Arguments without --profile are returned unchanged. Throws UserError for an unknown
// profile, a bad profile option value, act without --device-names, or --name jobs given with a profile.
std::vector<std::string> expand_fio_profile(const std::vector<std::string>& args);

// --profile=act without --prep: its jobs' latencies are counted in slices of slice_ns over duration_ns.
struct FioActProfile {
  std::uint64_t slice_ns = 0;
  std::uint64_t duration_ns = 0;
};
std::optional<FioActProfile> fio_act_profile(const std::vector<std::string>& args);

// True when the arguments name a profile (--profile=NAME or --profile NAME).
bool names_fio_profile(const std::vector<std::string>& args);

// What a profile means once its jobs are parsed (from expand_fio_profile's arguments): job files are refused
// (a profile runs its own jobs only), and act's jobs get their judged slices. `given` is the arguments before
// expansion; without a profile nothing changes. Throws UserError.
void finish_fio_profile_jobs(const std::vector<std::string>& given, JobCommandLine& parsed);

}  // namespace sluice
