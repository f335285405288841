#pragma once
// What a job tells the kernel about its files before it starts, as fio does at file open: pre_read (read
// the I/O region in), invalidate (drop its cached pages), fadvise_hint (the access pattern) and write_hint
// (the data's expected lifetime).
#include <vector>

#include "job/target_options.h"
#include "targets/target_file.h"

namespace sluice {

// Applies the job's pre_read, invalidate and fadvise_hint to its opened targets (fd >= 0); random: the job's
// offsets are random (fadvise_hint=1 advises random, else sequential). With pre_read the
// region is read through a separate buffered descriptor and nothing is invalidated. posix_fadvise is advice:
// a file system that refuses it (EINVAL, ESPIPE) is not an error. Throws IoError when pre_read cannot read
// or the kernel refuses the write hint.
void apply_cache_hints(const std::vector<TargetFile>& targets, const TargetOptions& target, bool random);

}  // namespace sluice
