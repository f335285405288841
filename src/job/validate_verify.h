#pragma once
// Checks of the verify options (part of validate()); see options_verify.cpp for their meaning.
#include <vector>

#include "common/error.h"
#include "job/job_spec.h"

namespace sluice {

// Bytes of sluice's verify header (workload/verify_block.h) for a kind: 72, or 104 for the kinds whose digest is
// over 32 bytes (sha3-384, sha512, sha3-512); 0 for pattern and null, which write no header.
constexpr std::uint32_t verify_header_bytes(VerifyKind kind) noexcept {
  switch (kind) {
    case VerifyKind::kNone:
    case VerifyKind::kPattern:
    case VerifyKind::kNull:
      return 0;
    case VerifyKind::kSha3_384:
    case VerifyKind::kSha512:
    case VerifyKind::kSha3_512:
      return 104;
    default:
      return 72;
  }
}

// The bytes one verify header covers: verify_interval, else the block size of the direction that carries
// headers (writes; reads for a read-only job); with variable block sizes, the largest size that divides every
// size and the alignment (fio puts one header per io there; any io is a whole number of such chunks). 0 when
// that is over 4 GiB.
std::uint32_t verify_chunk_size(const JobSpec& job) noexcept;

// Appends errors and warnings about the verify options to `out`.
void validate_verify(const JobSpec& job, std::vector<Problem>& out);

}  // namespace sluice
