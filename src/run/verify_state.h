#pragma once
// VerifyState: fio's verify_state_save / verify_state_load. A writing job with verify saves, when it ends,
// how many writes it issued and which of them did not complete (failed, or in flight when it stopped), so
// that a later verify_only run of the same job (verify_state_load=1) checks only what was surely written:
// verification after a crash, an interrupted run, or a separate run.
// The file is named as fio names it (local-JOB-INDEX-verify.state, in --aux-path's directory when given); its
// content is sluice's text (fio's binary state holds fio's random generator, meaningless to sluice; fio master
// changed its layout again, version 3 in fio 3.33 to 7, while sluice's text only gained a line).
// Version 1: job, writes, incomplete. Version 2 (verify_policy=fsynced) adds "fsynced N": the writes issued
// before the last completed sync's submission; a verify_only run checks none of the later ones.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace sluice {

struct VerifyState {
  std::string job_name;
  std::uint64_t writes_issued = 0;        // the job's writes, in the order its pattern gave them
  std::vector<std::uint64_t> incomplete;  // numbers (from 0) of issued writes that did not complete, sorted
  // verify_policy=fsynced: the writes numbered below it were covered by a completed sync (version 2).
  std::optional<std::uint64_t> fsynced_writes = std::nullopt;
};

// fio's verify_state_gen_name: DIR/local-NAME-INDEX-verify.state; index counts the run's clones from 0.
std::string verify_state_path(const std::string& aux_dir, const std::string& job_name, int index);

// Writes the file (replacing it). Throws IoError naming the file.
void save_verify_state(const std::string& path, const VerifyState& state);

// Reads a file save_verify_state wrote for `job_name`. Throws UserError naming the file (and line) when it is
// missing, is not such a file, or belongs to another job.
VerifyState load_verify_state(const std::string& path, const std::string& job_name);

}  // namespace sluice
