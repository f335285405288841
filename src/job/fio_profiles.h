#pragma once
// fio's built-in profiles on the command line (fio --profile=NAME): `tiobench` is expanded into its four jobs
// (seqwrite, randwrite, seqread, randread; fio's profiles/tiobench.c), with the profile's own options --size
// (MiB), --block (bytes), --numruns, --dir and --threads. fio's `act` profile is refused by name.
#include <string>
#include <vector>

namespace sluice {

// The arguments of `sluice run` with a --profile=NAME (or --profile NAME) and its options replaced by the
// profile's job options, as fio's command line would give them: the profile's global options, then one
// --name per job. Arguments without --profile are returned unchanged. Throws UserError for an unknown
// profile, act, a bad profile option value, or --name jobs given with a profile.
std::vector<std::string> expand_fio_profile(const std::vector<std::string>& args);

// True when the arguments name a profile (--profile=NAME or --profile NAME).
bool names_fio_profile(const std::vector<std::string>& args);

}  // namespace sluice
