#pragma once
// sluice as a client of fio's protocol (`sluice --client=HOST ...`, `fio --client=...` through the fio link):
// sends each server its job files (or names files on the server: --remote-config), runs them on all servers at
// once and prints each server's results and "All clients" as fio's client prints them (normal, JSON, terse).
// Servers may be fio 3.33's or sluice's. Unlike fio's client: a listed server that does not answer stops the
// run before any job starts (named), and a job that fails on a server makes the exit status 1 (named).
#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "fionet/client_eta.h"
#include "fionet/endpoint.h"
#include "run/trigger_watch.h"

namespace sluice::fionet {

struct ClientJobFile {
  std::string path;
  bool remote = false;  // --remote-config: the path is on the server
};

struct ClientServer {
  std::string spelling;  // as given ("127.0.0.1,8766")
  Endpoint endpoint;
  std::vector<std::string> arguments;  // options given after this --client (sent as fio's JOBLINE)
  std::vector<ClientJobFile> files;    // this server's own job files; empty: the common ones
};

struct ClientOptions {
  std::vector<ClientServer> servers;
  std::vector<std::string> common_files;  // job files for every server without its own
  bool normal = true;
  bool json = false;
  bool terse = false;
  int terse_version = 3;
  std::string output_path;  // --output=FILE: the reports go there instead of stdout
  // --status-interval=T (the client's own, anywhere; sent to every server as fio's client sends it): the
  // servers send their statistics so far every T and the client prints every server's and "All clients".
  std::optional<std::chrono::nanoseconds> report_interval;
  std::string report_interval_text;  // T as given, for the servers' command line
  // The ETA line of all servers (client_eta.h): --eta=never|auto|always, --eta-newline=T, --eta-interval=T.
  EtaMode eta = EtaMode::kAuto;
  std::chrono::nanoseconds eta_newline{0};
  std::chrono::nanoseconds eta_interval = std::chrono::seconds(1);
  std::string secret;  // --client-secret=FILE's content: every server must be a sluice server with the same
  // fio's triggers, the client's own (anywhere on its command line): when the file appears or the time passes,
  // every server is sent --trigger-remote's command (VTRIGGER), and each answer runs --trigger's here.
  TriggerSettings trigger;
  std::chrono::steady_clock::time_point genesis = std::chrono::steady_clock::now();  // --trigger-timeout's origin
  std::chrono::milliseconds connect_timeout{5000};
  std::chrono::milliseconds silence_limit{60000};  // a running server that says nothing this long has failed
};

// fio's client command line (the arguments of `fio`, with at least one --client): --client=HOST[,PORT] (or a file
// of hosts, one a line), job files right after a --client belong to that server alone, --remote-config=PATH,
// --output-format, --minimal, --append-terse, --terse-version, --output, --status-interval, --client-secret=FILE,
// --trigger-file, --trigger-timeout, --trigger, --trigger-remote, --eta, --eta-newline, --eta-interval (the
// client's own, anywhere; --eta* give the ETA line of all servers, as fio's client prints it); other options
// after a --client go to
// that server. Throws UserError on bad input.
ClientOptions parse_client_arguments(const std::vector<std::string>& args);

// True when the arguments ask for client mode (a --client or --client-secret option).
bool asks_for_client(const std::vector<std::string>& args);

// Runs the jobs on every server and prints the reports to stdout (or --output); returns the exit status (0:
// every server ran its jobs without error). Messages about servers go to stderr, each naming the server. With
// --status-interval, a complete report (every server's statistics so far and "All clients", each JSON
// document whole) comes before the final one each time every running server has sent its next periodic
// statistics.
int run_clients(const ClientOptions& options);

}  // namespace sluice::fionet
