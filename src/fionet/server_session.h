#pragma once
// One client connection to a sluice server, as fio 3.33's server answers it: PROBE, JOBLINE / JOB /
// LOAD_FILE (each answered with START), RUN (SERVER_START, the jobs run with sluice's runner while SEND_ETA is
// answered and QUIT stops them, then TEXT, JOB_OPT, TS, GS, STOP and QUIT), EXIT. A job that cannot be parsed,
// set up or run is reported to the client as fio's server reports it (its message as TEXT), but with a
// non-zero error in STOP, so that fio's client exits non-zero naming the host.
#include <functional>
#include <string>

namespace sluice::fionet {

struct SessionLog {
  std::function<void(const std::string&)> line;  // one line of the server's own log (no newline)
};

// Serves the connection until the client quits or the connection ends; the return is 0 when a run finished
// without a failed job. `peer` names the client in the log. A non-empty `secret` (--server-secret) makes the
// session refuse every job until the client proved it knows the secret (shared_secret.h): fio's clients, which
// cannot, are told why in a TEXT line. Blocks; every wait on the socket is bounded.
int serve_connection(int fd, const std::string& peer, const SessionLog& log, const std::string& secret = {});

}  // namespace sluice::fionet
