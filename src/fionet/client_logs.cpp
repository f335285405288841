// A server's log, written under fio's client-side name.
#include "fionet/client_logs.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <optional>
#include <vector>

#include "fionet/hist_log_pdu.h"

namespace sluice::fionet {
namespace {

// A histogram log's text; nullopt when its records came without their bins or with a coarseness out of range. `problem`
// says what did not arrive.
std::optional<std::string> hist_text(const IoLog& log, const std::vector<std::uint8_t>& records, bool fio_server,
                                     const std::string& path, std::string& problem) {
  if (log.hist_coarseness > kMaxHistCoarseness) {
    problem = fmt::format(
        "the histogram log {} came with log_hist_coarseness={} (fio's range is 0 to {}); not "
        "written",
        path, log.hist_coarseness, kMaxHistCoarseness);
    return std::nullopt;
  }
  HistLogText hist = hist_log_text_of_records(records, log.samples, log.hist_coarseness, fio_server);
  if (hist.without_bins) {
    problem = fmt::format(
        "the histogram log {} came without its bins (fio's server sends them only to a client that offers zlib, "
        "which this one does when it sees write_hist_log in the jobs it sends); not written",
        path);
    return std::nullopt;
  }
  const std::string cut_bins =
      hist.missing_bins == 0
          ? std::string()
          : fmt::format("the {} highest-latency bins of its last window written as 0", hist.missing_bins);
  if (hist.incomplete != 0) {
    problem = fmt::format(
        "the histogram log {} lost its last {} of {} windows in the transfer; the {} before are "
        "written{}{}",
        path, hist.incomplete, log.samples, hist.lines, cut_bins.empty() ? "" : ", ", cut_bins);
  } else if (!cut_bins.empty()) {
    problem =
        fmt::format("the histogram log {} came cut short (fio 3.33's zlib stream lacks its end): {}", path, cut_bins);
  }
  return std::move(hist.text);
}

}  // namespace

std::string save_client_log(const IoLog& log, const std::string& host, bool fio_server, std::string& problem) {
  problem.clear();
  std::string path = log.name + "." + host;  // fio's client: "%s.%s", pdu->name, client->hostname
  std::optional<std::vector<std::uint8_t>> inflated;
  if (log.compression == IoLogCompression::kTransfer) {  // fio's server compresses when the probe offers zlib
    inflated = inflate_transfer(log.data);
    if (!inflated) {
      problem = fmt::format("the log {} came compressed and does not inflate; not written", path);
      return {};
    }
    if (log.type != IoLogType::kHist && inflated->size() < log.samples * 32) {  // 32: the smaller sample
      problem = fmt::format("the log {} inflated to fewer samples than the server's {}; written as it came", path,
                            log.samples);
    }
  }
  std::string text;
  if (log.compression != IoLogCompression::kStored) {
    const std::vector<std::uint8_t>& samples = inflated ? *inflated : log.data;
    if (log.type != IoLogType::kHist) {
      text = fio_log_text(samples);
    } else if (auto hist = hist_text(log, samples, fio_server, path, problem)) {
      text = std::move(*hist);
    } else {
      return {};
    }
  }
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (log.compression == IoLogCompression::kStored) {
    out.write(reinterpret_cast<const char*>(log.data.data()), static_cast<std::streamsize>(log.data.size()));
  } else {
    out << text;
  }
  out.close();
  if (!out) {
    problem = fmt::format("cannot write the log {}: {}", path, std::strerror(errno));
    return {};
  }
  return path;
}

}  // namespace sluice::fionet
