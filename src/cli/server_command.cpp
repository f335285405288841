// sluice server (also `sluice --server[=ADDR]`, `sluice fio --server`, `fio --server` through the fio link):
// a server of fio's client/server protocol that runs the jobs fio's clients send with sluice's runner.
#include <cstdio>

#include "cli/command_options.h"
#include "cli/commands.h"
#include "common/error.h"
#include "fionet/client.h"
#include "fionet/server.h"
#include "fionet/shared_secret.h"

namespace sluice {
namespace {

constexpr const char* kDescription =
    R"(Serves fio's client/server protocol (version 97, as fio 3.33), so that `fio --client=HOST job.fio` (fio 3.33,
or sluice's fio link) runs its jobs here with sluice's runner and prints their results as from a fio server.
ADDR takes fio's forms: HOST, HOST,PORT, ip:HOST, ip6:HOST (each with an optional ,PORT), :PORT, sock:PATH;
the port defaults to 8765.
Unlike fio, which listens on every interface, a server given no host listens on loopback only (127.0.0.1):
to serve other hosts, name the address to listen on (e.g. --server=192.168.1.10 or --server=0.0.0.0).
WHAT A SERVER EXPOSES: it runs any job any client that reaches it sends, with the rights of the user that
started it: such a job can read, write and trim every file and device that user can, and fill its disks.
There is no authentication in fio's protocol. Start it only on networks you trust, as an unprivileged user
where you can, and narrow who may connect with --server-allow. Between sluice hosts, --server-secret=FILE
(with the same file as --client-secret=FILE on the sluice client) runs only the jobs of clients that prove
they know the secret (HMAC-SHA256 over a random challenge; the secret never crosses the network, and the
traffic is neither encrypted nor signed); fio's clients cannot, and are refused with a line saying so.
Each client is served in a process of its own; the server runs until SIGINT or SIGTERM.
A job with verify_state_load=1 gets its verify state from the client, as fio's server does (SENDFILE: the file
SERVER-JOB-INDEX-verify.state in the client's working directory, SERVER being the address the client
connected to); a writing job saves local-JOB-INDEX-verify.state here. gfio's option edits (UPDATE_JOB) are
refused by name: the job runs as its job file says.
Example: sluice --server=127.0.0.1,8766 &  fio --client=127.0.0.1,8766 job.fio
)";

struct ServerArgs {
  fionet::ServerOptions options;
};

CommandTable<ServerArgs> make_table() {
  CommandInfo info = command_info("server",
                                  "serve fio's client/server protocol (fio --client drives this host; same as "
                                  "--server): runs any job a client sends",
                                  kDescription);
  info.positionals = {{"ADDR", "where to listen, in fio's forms (default 127.0.0.1,8765)", false, false}};
  CommandTable<ServerArgs> t(std::move(info));
  t.add(text_arg("daemonize", "PIDFILE", "", "detach from the terminal and write the server's pid to PIDFILE"),
        [](ServerArgs& a, const OptionValue& v) { a.options.pid_file = v.text; });
  OptionInfo allow = text_arg("server-allow", "CIDR", "",
                              "accept clients only from this network (e.g. 10.1.0.0/16, 192.168.1.7, fd00::/8); "
                              "repeatable; default: every client that reaches ADDR");
  allow.repeatable = true;
  t.add(std::move(allow),
        [](ServerArgs& a, const OptionValue& v) { a.options.allow.push_back(fionet::parse_cidr(v.text)); });
  t.add(text_arg("server-secret", "FILE", "",
                 "run only the jobs of sluice clients that prove they know the secret in FILE (--client-secret=FILE "
                 "on the client; FILE must be private: mode 600); fio's clients are refused"),
        [](ServerArgs& a, const OptionValue& v) {
          a.options.secret = fionet::read_secret_file(v.text, "--server-secret");
        });
  return t;
}

const CommandTable<ServerArgs>& table() {
  static const CommandTable<ServerArgs> kTable = make_table();
  return kTable;
}

}  // namespace

const CommandInfo& server_command_info() { return table().info(); }

int server_command(const std::vector<std::string>& args) {
  const ParsedArgs parsed = parse_arguments(table().info(), args);
  ServerArgs cli;
  table().apply(parsed, cli, nullptr);
  cli.options.endpoint = fionet::parse_endpoint(parsed.positionals.empty() ? "" : parsed.positionals.front());
  return fionet::run_server(cli.options);
}

bool asks_for_server(const std::vector<std::string>& args) {
  for (const std::string& a : args) {
    if (a == "--server" || a.rfind("--server=", 0) == 0) return true;
  }
  return false;
}

int server_from_fio_arguments(const std::vector<std::string>& args) {
  std::vector<std::string> rest;
  std::string address;
  for (const std::string& a : args) {
    if (a == "--server") continue;
    if (a.rfind("--server=", 0) == 0) {
      address = a.substr(9);
    } else {
      rest.push_back(a);
    }
  }
  if (!address.empty()) rest.insert(rest.begin(), address);
  return server_command(rest);
}

bool asks_for_client(const std::vector<std::string>& args) { return fionet::asks_for_client(args); }

int client_from_fio_arguments(const std::vector<std::string>& args) {
  return fionet::run_clients(fionet::parse_client_arguments(args));
}

}  // namespace sluice
