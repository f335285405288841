// sluice smtp: Postal-like load against an SMTP server (smtp/smtp_load.h).

#include "cli/command_options.h"
#include "cli/commands.h"
#include "cli/history_options.h"
#include "cli/output.h"
#include "common/error.h"
#include "common/stop_signal.h"
#include "smtp/smtp_load.h"
#include "smtp/smtp_protocol.h"
#include "smtp/smtp_report.h"

namespace sluice {
namespace {

constexpr const char* kDescription =
    R"(Sends mail to the SMTP server at --server as Postal does: --parallel connections, each sending a random
number of messages (1..--per-connection) before QUIT and a new connection, bodies of a random size in --size,
senders and recipients drawn from --from-file and --to-file (one address a line) or from generated pools
(senderI@example.org, userI@example.com; --addresses of each). Closed loop by default (each connection sends
its next message when the last is done); --rate makes it an open loop: messages are due at that rate
(constant spacing, or Poisson with --arrivals=poisson) whatever the server does, and a message's total latency
counts from when it was due, so a slow server shows as latency and not as fewer samples.
It reports messages/minute and bytes/minute delivered (accepted with 2xx after the final dot), errors by SMTP
reply code (a refused MAIL, RCPT or DATA, then RSET) and by network kind (refused, unreachable,
connect_timeout, timeout, closed, reset, garbage) with the first few shown, and latency percentiles of
connect (TCP connect, greeting and EHLO), mail, rcpt, data (DATA to the reply after the final dot) and total.
Every connect and every reply wait is bounded by --timeout. One thread per connection with blocking sockets:
an SMTP message is a dialogue of 5+ round trips in which the server's work dominates, Postal does the same,
and bench/vs_postal.py shows the client keeps up. For servers you own: sluice sends real mail.
)";

struct SmtpArgs {
  SmtpOptions options;
  OutputChoice output;
  HistoryChoice history;
  std::string from_file, to_file;
  std::uint64_t addresses = 1000;
  bool messages_given = false, duration_given = false;
};

CommandTable<SmtpArgs> make_table() {
  CommandInfo info = command_info("smtp",
                                  "Postal-like mail load on an SMTP server: messages/minute, errors by reply code, "
                                  "latency percentiles of connect, MAIL, RCPT, DATA and the whole message",
                                  kDescription);
  CommandTable<SmtpArgs> t(std::move(info));
  t.add(text_arg("server", "HOST:PORT", "", "the SMTP server (required), e.g. 127.0.0.1:2525"),
        [](SmtpArgs& a, const OptionValue& v) { parse_server(v.text, a.options.host, a.options.port); });
  t.add(count_arg("parallel", 1, 10000, "1", "connections at once, one thread each (postal's -t)"),
        [](SmtpArgs& a, const OptionValue& v) { a.options.parallel = static_cast<std::uint32_t>(v.number); });
  t.add(count_arg("messages", 1, ~0ull, "", "stop after this many messages (instead of --duration)"),
        [](SmtpArgs& a, const OptionValue& v) {
          a.options.messages = v.number;
          a.messages_given = true;
        });
  t.add(duration_arg("duration", "10s", "how long to send, unless --messages is given"),
        [](SmtpArgs& a, const OptionValue& v) {
          a.options.duration = v.duration;
          a.duration_given = true;
        });
  t.add(count_arg("rate", 1, 10'000'000, "", "open loop: messages due per second (default: closed loop)"),
        [](SmtpArgs& a, const OptionValue& v) { a.options.rate = v.number; });
  t.add(choice_arg<bool>("arrivals", {{"constant", false}, {"poisson", true}}, "constant", "the open loop's arrivals"),
        [](SmtpArgs& a, bool poisson) { a.options.poisson = poisson; });
  t.add(text_arg("size", "S|MIN-MAX", "0-10k", "message body size in bytes, uniform in MIN-MAX (postal's -M/-m)"),
        [](SmtpArgs& a, const OptionValue& v) { parse_size_range(v.text, a.options.size_min, a.options.size_max); });
  t.add(count_arg("per-connection", 1, 1'000'000, "1",
                  "messages per connection: 1, or a random count 1..K for each connection (postal's -c)"),
        [](SmtpArgs& a, const OptionValue& v) { a.options.per_connection = static_cast<std::uint32_t>(v.number); });
  t.add(count_arg("recipients", 1, 1000, "1", "RCPT TO per message"),
        [](SmtpArgs& a, const OptionValue& v) { a.options.recipients = static_cast<std::uint32_t>(v.number); });
  t.add(text_arg("from-file", "FILE", "", "sender addresses, one a line (default: generated)"),
        [](SmtpArgs& a, const OptionValue& v) { a.from_file = v.text; });
  t.add(text_arg("to-file", "FILE", "", "recipient addresses, one a line, as postal's user list (default: generated)"),
        [](SmtpArgs& a, const OptionValue& v) { a.to_file = v.text; });
  t.add(count_arg("addresses", 1, 10'000'000, "1000", "size of each generated address pool"),
        [](SmtpArgs& a, const OptionValue& v) { a.addresses = v.number; });
  t.add(duration_arg("timeout", "10s", "limit of a connect and of every reply wait"),
        [](SmtpArgs& a, const OptionValue& v) { a.options.timeout = v.duration; });
  t.add(count_arg("seed", 0, ~0ull, "24301", "seed of sizes, addresses and message counts"),
        [](SmtpArgs& a, const OptionValue& v) { a.options.seed = v.number; });
  add_output_options(t, &SmtpArgs::output);
  add_history_options(t, &SmtpArgs::history);
  return t;
}

const CommandTable<SmtpArgs>& table() {
  static const CommandTable<SmtpArgs> kTable = make_table();
  return kTable;
}

}  // namespace

const CommandInfo& smtp_command_info() { return table().info(); }

int smtp_command(const std::vector<std::string>& args) {
  const ParsedArgs parsed = parse_arguments(table().info(), args);
  SmtpArgs cli;
  table().apply(parsed, cli, nullptr);
  if (cli.options.host.empty())
    throw UserError("--server is required: the SMTP server as HOST:PORT (--server=127.0.0.1:2525)");
  if (cli.messages_given && cli.duration_given) {
    throw UserError("--messages and --duration both say when to stop; give one of them");
  }
  SmtpOptions& o = cli.options;
  o.senders = cli.from_file.empty() ? generated_addresses(cli.addresses, "sender", "example.org")
                                    : read_address_file(cli.from_file, "from-file");
  o.recipients_pool = cli.to_file.empty() ? generated_addresses(cli.addresses, "user", "example.com")
                                          : read_address_file(cli.to_file, "to-file");
  install_stop_signal_handlers();
  return run_measured({"smtp", args, ""}, cli.history, cli.output, [&](bool) {
    clear_stop_request();
    const SmtpResult result = run_smtp_load(o);
    const int exit = result.interrupted ? kExitInterrupted : kExitOk;
    return Measurement{render_smtp_text(result), smtp_json(result).dump(2) + "\n", exit};
  });
}

}  // namespace sluice
