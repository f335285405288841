#pragma once
// fio's ADD_JOB and UPDATE_JOB (protocol version 97). Only gfio, fio's GTK front end, uses them: fio's server
// sends ADD_JOB (the job's number, group and its whole thread_options packed for the network) for each job it
// parsed, and gfio shows those options in a dialog and, when the user edits them before the run, sends
// UPDATE_JOB with the changed pack; the server replaces the job's options and replies UPDATE_JOB with an errno
// (0, or ENODEV for a job number it does not have). fio's command-line client never sends UPDATE_JOB and keeps
// only the job and group numbers of ADD_JOB (fio 3.33 client.c, gclient.c, goptions.c, server.c).
// A sluice server holds its jobs as sluice's JobSpec, not fio's thread_options, so it cannot apply a pack: it
// refuses UPDATE_JOB by name (the errno EOPNOTSUPP, and a TEXT line saying that the job runs as its job file
// says), and sends no ADD_JOB (gfio then shows no options to edit; fio's client needs none).
#include <cstdint>
#include <string>
#include <vector>

namespace sluice::fionet {

struct UpdateJobAnswer {
  std::uint32_t error = 0;  // the errno UPDATE_JOB's reply carries
  std::string text;         // a line for the client (TEXT), empty for none
};

// What a sluice server answers an UPDATE_JOB (cmd_add_job_pdu: the job's number from 1, its group, the pack)
// when it has parsed `clones` job clones: ENODEV for a number it does not have (as fio's server), EOPNOTSUPP for
// one it has, each with a line naming the command; EINVAL for a payload too short to hold the job's number.
UpdateJobAnswer answer_update_job_request(const std::vector<std::uint8_t>& payload, std::uint32_t clones);

// UPDATE_JOB's reply: the errno as a little-endian 32-bit number.
std::vector<std::uint8_t> encode_update_job_reply(std::uint32_t error);

}  // namespace sluice::fionet
