#pragma once
// Checks of the verify options (part of validate()); see options_verify.cpp for their meaning.
#include <vector>

#include "common/error.h"
#include "job/job_spec.h"

namespace sluice {

inline constexpr std::uint32_t kVerifyHeaderBytes = 72;  // must equal workload/verify_block.h kVerifyHeaderSize

// The bytes one verify header covers: verify_interval, else the block size of the direction that carries
// headers (writes; reads for a read-only job). 0 when the block size varies and verify_interval is not set.
std::uint32_t verify_chunk_size(const JobSpec& job) noexcept;

// Appends errors and warnings about the verify options to `out`.
void validate_verify(const JobSpec& job, std::vector<Problem>& out);

}  // namespace sluice
