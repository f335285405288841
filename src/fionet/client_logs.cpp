// A server's log, written under fio's client-side name.
#include "fionet/client_logs.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <optional>
#include <vector>

namespace sluice::fionet {

std::string save_client_log(const IoLog& log, const std::string& host, std::string& problem) {
  problem.clear();
  const std::string path = log.name + "." + host;  // fio's client: "%s.%s", pdu->name, client->hostname
  if (log.type == IoLogType::kHist) {
    problem = fmt::format("the histogram log {} is not written by sluice's client (write_hist_log)", path);
    return {};
  }
  std::optional<std::vector<std::uint8_t>> inflated;
  if (log.compression == IoLogCompression::kTransfer) {  // fio's server compresses when the probe offers zlib
    inflated = inflate_transfer(log.data);
    if (!inflated) {
      problem = fmt::format("the log {} came compressed and does not inflate; not written", path);
      return {};
    }
    if (inflated->size() < log.samples * 32) {  // 32: the smaller sample (without an offset)
      problem = fmt::format("the log {} inflated to fewer samples than the server's {}; written as it came", path,
                            log.samples);
    }
  }
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (log.compression == IoLogCompression::kStored) {
    out.write(reinterpret_cast<const char*>(log.data.data()), static_cast<std::streamsize>(log.data.size()));
  } else {
    out << fio_log_text(inflated ? *inflated : log.data);
  }
  out.close();
  if (!out) {
    problem = fmt::format("cannot write the log {}: {}", path, std::strerror(errno));
    return {};
  }
  return path;
}

}  // namespace sluice::fionet
