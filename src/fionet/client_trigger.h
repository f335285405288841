#pragma once
// The client's side of fio's trigger: what it does with a server's answer to VTRIGGER (fio 3.33's client.c).
#include <string>
#include <vector>

#include "fionet/endpoint.h"

namespace sluice::fionet {

// fio's server_name(): the server's numeric address ("10.0.0.11", "::1"), or "sock" for a Unix socket; the
// prefix of the verify state files saved from its answer.
std::string state_file_prefix(const Endpoint& endpoint);

// Saves each thread of a server's VTRIGGER answer (an all_io_list) as fio's client does: the file
// PREFIX-JOB-INDEX-verify.state in the current directory, in fio's format (a later verify_state_load run reads
// it). Returns the files written; `problem` says what could not be read or written ("" if nothing).
std::vector<std::string> save_trigger_states(const std::vector<std::uint8_t>& payload, const std::string& prefix,
                                             std::string& problem);

}  // namespace sluice::fionet
