#pragma once
// The client's side of fio's IOLOG: a server's log written here as fio's client writes it, NAME.HOST (the log's
// name on the server, a dot, the server's host as given to --client), in fio's text format.
#include <string>

#include "fionet/iolog_pdu.h"

namespace sluice::fionet {

// Writes the log (inflating one compressed for the transfer); returns the path written, or "" with `problem`
// set (a histogram log, data that does not inflate, or a file that cannot be written).
std::string save_client_log(const IoLog& log, const std::string& host, std::string& problem);

}  // namespace sluice::fionet
