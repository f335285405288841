// A sluice server's answer to gfio's UPDATE_JOB.
#include "fionet/job_update.h"

#include <fmt/format.h>

#include <cerrno>

#include "fionet/bytes.h"

namespace sluice::fionet {

UpdateJobAnswer answer_update_job_request(const std::vector<std::uint8_t>& payload, std::uint32_t clones) {
  if (payload.size() < 8) {
    return {EINVAL, "sluice: UPDATE_JOB refused: the message is too short to name a job\n"};
  }
  const std::uint32_t job = get_u32(payload.data(), 0);
  if (job == 0 || job > clones) {
    return {ENODEV, fmt::format("sluice: UPDATE_JOB refused: this server has no job {} (it has {})\n", job, clones)};
  }
  return {EOPNOTSUPP,
          fmt::format("sluice: UPDATE_JOB refused: sluice's server does not take gfio's edited options (fio's packed "
                      "thread_options); job {} runs as its job file says: edit the job file and send it again\n",
                      job)};
}

std::vector<std::uint8_t> encode_update_job_reply(std::uint32_t error) {
  std::vector<std::uint8_t> out(4, 0);
  put_u32(out.data(), 0, error);
  return out;
}

}  // namespace sluice::fionet
