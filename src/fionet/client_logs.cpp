// A server's log, written under fio's client-side name.
#include "fionet/client_logs.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <fstream>

namespace sluice::fionet {

std::string save_client_log(const IoLog& log, const std::string& host, std::string& problem) {
  problem.clear();
  const std::string path = log.name + "." + host;  // fio's client: "%s.%s", pdu->name, client->hostname
  if (log.type == IoLogType::kHist) {
    problem = fmt::format("the histogram log {} is not written by sluice's client (write_hist_log)", path);
    return {};
  }
  if (log.compression == IoLogCompression::kTransfer) {
    problem = fmt::format("the log {} came compressed for the transfer, which this client did not offer", path);
    return {};
  }
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (log.compression == IoLogCompression::kStored) {
    out.write(reinterpret_cast<const char*>(log.data.data()), static_cast<std::streamsize>(log.data.size()));
  } else {
    out << fio_log_text(log.data);
  }
  out.close();
  if (!out) {
    problem = fmt::format("cannot write the log {}: {}", path, std::strerror(errno));
    return {};
  }
  return path;
}

}  // namespace sluice::fionet
