// A server's answer to the trigger, saved as fio's client saves it.
#include "fionet/client_trigger.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <netinet/in.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "fionet/trigger.h"

namespace sluice::fionet {

std::string state_file_prefix(const Endpoint& endpoint) {
  char text[INET6_ADDRSTRLEN] = {};
  switch (endpoint.kind) {
    case Endpoint::Kind::kUnix:
      return "sock";
    case Endpoint::Kind::kIpv6:
      ::inet_ntop(AF_INET6, &reinterpret_cast<const sockaddr_in6*>(&endpoint.address)->sin6_addr, text, sizeof(text));
      return text;
    case Endpoint::Kind::kIpv4:
      ::inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in*>(&endpoint.address)->sin_addr, text, sizeof(text));
      return text;
  }
  return endpoint.host;
}

std::vector<std::string> save_trigger_states(const std::vector<std::uint8_t>& payload, const std::string& prefix,
                                             std::string& problem) {
  problem.clear();
  std::vector<std::string> written;
  const auto states = decode_io_list(payload);
  if (!states) {
    problem = "its answer to the trigger (VTRIGGER) is malformed; no verify state saved";
    return written;
  }
  for (const ThreadIoState& state : *states) {
    const std::string path = fio_verify_state_name(prefix, state.name, state.index);
    const std::vector<std::uint8_t> bytes = fio_verify_state_file(state);
    // O_SYNC as fio: the state must be on disk before the trigger command (a power cut) runs.
    const int fd = ::open(path.c_str(), O_CREAT | O_TRUNC | O_WRONLY | O_SYNC | O_CLOEXEC, 0644);
    const bool ok = fd >= 0 && ::write(fd, bytes.data(), bytes.size()) == static_cast<ssize_t>(bytes.size());
    const int error = errno;
    if (fd >= 0) ::close(fd);
    if (!ok) {
      problem = fmt::format("cannot write the verify state file {}: {}", path, std::strerror(error));
      continue;
    }
    written.push_back(path);
  }
  return written;
}

}  // namespace sluice::fionet
