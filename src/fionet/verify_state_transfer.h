#pragma once
// fio's SENDFILE (protocol version 97): a server that runs a job with verify_state_load=1 asks its client for
// the job's verify state file, because in fio's client/server mode the state lives on the client: fio's client
// saves what a server's VTRIGGER reply holds as SERVER-JOB-INDEX-verify.state (SERVER: the address the client
// knows the server by, "sock" for a Unix socket), and the server asks for exactly that name in its cwd. A
// server's own writing jobs still save local-JOB-INDEX-verify.state on the server (fio 3.33 has no message that
// sends the state back at a job's end). Read from fio 3.33's server.c, client.c, backend.c and verify-state.h.
// The names: fio_verify_state_name (fionet/trigger.h); the client names the server in its probe as
// state_file_prefix does (fionet/client_trigger.h), so a trigger's saved state is what the server asks for.
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "fionet/wire.h"
#include "job/job_spec.h"

namespace sluice::fionet {

inline constexpr std::size_t kSendFileNameBytes = 256;            // fio's FIO_NET_NAME_MAX: cmd_sendfile's path
inline constexpr std::chrono::milliseconds kSendFileWait{10000};  // fio's server waits 10 s for the reply

// cmd_sendfile: the path the server asks for (cut to 255 bytes).
std::vector<std::uint8_t> encode_sendfile_request(const std::string& path);
std::optional<std::string> decode_sendfile_request(const std::vector<std::uint8_t>& payload);

// cmd_sendfile_reply: the file's size, an errno (0: the file follows) and its bytes.
struct SendFileReply {
  std::uint32_t error = 0;
  std::vector<std::uint8_t> data;
};
std::vector<std::uint8_t> encode_sendfile_reply(const SendFileReply& reply);
std::optional<SendFileReply> decode_sendfile_reply(const std::vector<std::uint8_t>& payload);

// Why the client does not send the file a server asks for, empty when it does: only a verify state in the
// client's working directory (a name ending in "-verify.state" without a '/', which every name fio's and sluice's
// servers ask for has). fio's client sends any file a server names, so any server it connects to can read every
// file the client's user can; sluice's refuses the others (EACCES), naming them on stderr.
std::string refuse_requested_file(const std::string& path);

// The client's side: the file `path` names (relative to the client's working directory, as fio's client opens
// it), or the errno of why it cannot be read.
SendFileReply read_requested_file(const std::string& path);

// The server's side, before the jobs run: for every clone (numbered in the run from 0, as fio's thread number
// less one) of a job with verify_state_load=1, asks the client for SERVER_NAME-JOB-INDEX-verify.state, writes
// what arrives into `directory` under the name the job's verify_only replay reads (local-JOB-INDEX-verify.state)
// and points the job there (JobSpec::verify_state_load_dir). `send` sends one message; `read` waits for the next
// one (other messages than the reply are handed to `other`). Returns the error to end the run with (0: every
// state arrived) and sets `failure` to the message naming the file.
struct SendFileIo {
  std::function<bool(Op, const std::vector<std::uint8_t>&, std::uint64_t)> send;
  std::function<ReadResult(std::chrono::milliseconds)> read;
  std::function<void(const Message&)> other;
};
int fetch_verify_states(std::vector<JobSpec>& jobs, const std::string& server_name, const std::string& directory,
                        const SendFileIo& io, std::string& failure);

// True when some job loads a verify state (the server then has to ask its client for it).
bool loads_verify_state(const std::vector<JobSpec>& jobs);

}  // namespace sluice::fionet
