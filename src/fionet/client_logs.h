#pragma once
// The client's side of fio's IOLOG: a server's log written here as fio's client writes it, NAME.HOST (the log's
// name on the server, a dot, the server's host as given to --client), in fio's text format (a histogram log in
// the lines the job writes locally, where fio 3.33's client writes cumulative-looking sums from a fio server).
#include <string>

#include "fionet/iolog_pdu.h"

namespace sluice::fionet {

// Writes the log (inflating one compressed for the transfer); returns the path written, or "" with `problem`
// set (data that does not inflate, a histogram log without its bins, or a file that cannot be written).
// `problem` is also set, with the path returned, when part of the log did not arrive: what did is written.
// fio_server: the log came from a fio server, whose histogram records are undone to each window's counts
// (fionet/hist_log_pdu.h).
std::string save_client_log(const IoLog& log, const std::string& host, bool fio_server, std::string& problem);

}  // namespace sluice::fionet
