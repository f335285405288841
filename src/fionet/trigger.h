#pragma once
// fio's VTRIGGER (3.33's server.c / client.c): a client whose trigger fired sends each server the command to
// run (cmd_vtrigger_pdu: a u16 length, then the bytes); the server answers with its jobs' write state (struct
// all_io_list: a u64 count of threads, then each thread's thread_io_list), stops every job and runs the
// command. The client saves each thread's state as fio's verify state file, named after the server, and runs
// its own --trigger command.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace sluice::fionet {

std::vector<std::uint8_t> encode_vtrigger(const std::string& command);
// The command, or nullopt when the payload is shorter than its length says.
std::optional<std::string> decode_vtrigger(const std::vector<std::uint8_t>& payload);

// What a sluice server answers: an all_io_list of no threads (its own verify state is sluice's, saved on the
// server when each writing job ends; fio's client then writes no state file, as for a fio server without jobs).
std::vector<std::uint8_t> encode_empty_io_list();

// One thread's state from a server's answer: fio's job name and the thread's index, and the thread_io_list
// bytes as sent.
struct ThreadIoState {
  std::string name;
  std::uint64_t index = 0;
  std::vector<std::uint8_t> bytes;
};
// The threads of an all_io_list; nullopt when it is cut short or malformed.
std::optional<std::vector<ThreadIoState>> decode_io_list(const std::vector<std::uint8_t>& payload);

// fio's verify state file name for a server's thread: PREFIX-NAME-INDEX-verify.state, '/' in NAME made '.'
// (fio's verify_state_gen_name; the client's prefix is the server's address, "sock" for a Unix socket).
std::string fio_verify_state_name(const std::string& prefix, const std::string& name, std::uint64_t index);

// The file's bytes as fio's write_thread_list_state writes them: a header (version 3, the size, fio's crc32c
// of the state) and the state.
std::vector<std::uint8_t> fio_verify_state_file(const ThreadIoState& state);

// fio's crc32c (lib/crc32c-sw: Castagnoli, initial value ~0, no final inversion).
std::uint32_t fio_crc32c(const std::uint8_t* data, std::size_t length) noexcept;

}  // namespace sluice::fionet
