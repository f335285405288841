// sluice http: HTTP/1.1 load against URLs (src/net/), closed or open loop, with sluice's latency statistics.
#include <fmt/format.h>

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/command_options.h"
#include "cli/commands.h"
#include "cli/history_options.h"
#include "cli/output.h"
#include "common/clock.h"
#include "common/error.h"
#include "common/stop_signal.h"
#include "net/http_load.h"
#include "net/http_report.h"
#include "observe/environment.h"
#include "report/result_document.h"

namespace sluice {
namespace {

constexpr const char* kDescription =
    R"(Fetches URLs over HTTP/1.1 with an event-driven client (epoll, non-blocking sockets, many connections
per thread) and reports requests/s, bytes/s, connect time, time to first byte and total latency with exact
percentiles, errors by kind and status codes, then an http_load-style summary:
  sluice http --url=http://127.0.0.1:8080/index.html --parallel=100 --duration=10s
  sluice http --urls=urls.txt --rate=5000 --arrivals=poisson --duration=30s
Closed loop (default): --parallel connections, each sending its next request when the previous response
ended (as wrk and http_load -parallel). Open loop (--rate): requests arrive on a schedule whatever the server
does, on up to --parallel connections; latency counts from the scheduled arrival, so a server that falls
behind shows it as latency (no coordinated omission). URLs are fetched in turn. Only http:// (no TLS).
Load only systems you own or may test.
)";

const std::vector<ChoiceOf<bool>> kArrivals = {{"constant", false}, {"poisson", true}};  // true: Poisson

struct HttpArgs {
  HttpLoadOptions options;
  std::string urls_file;
  std::string body_file;
  OutputChoice output;
  HistoryChoice history;
};

bool is_token(const std::string& s) {
  if (s.empty()) return false;
  for (char c : s) {
    const bool alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    if (!alnum && std::string_view("!#$%&'*+-.^_`|~").find(c) == std::string_view::npos) return false;
  }
  return true;
}

CommandTable<HttpArgs> make_table() {
  CommandInfo info = command_info("http",
                                  "HTTP/1.1 load (closed loop or open-loop --rate) with exact latency percentiles, "
                                  "errors by kind and an http_load-style summary",
                                  kDescription);
  CommandTable<HttpArgs> t(std::move(info));
  using A = HttpArgs;
  using V = OptionValue;
  OptionInfo url = text_arg("url", "URL", "", "a URL to fetch (http:// only); repeat for several");
  url.repeatable = true;
  t.add(std::move(url), [](A& a, const V& v) { a.options.urls.push_back(parse_http_url(v.text, "--url")); });
  t.add(text_arg("urls", "FILE", "", "a file of URLs, one per line, as http_load takes them ('#' starts a comment)"),
        [](A& a, const V& v) { a.urls_file = v.text; });
  t.add(count_arg("parallel", 1, 100000, "10",
                  "closed loop: concurrent connections, each with one request in flight; open loop: the most "
                  "connections opened"),
        [](A& a, const V& v) { a.options.parallel = static_cast<std::uint32_t>(v.number); });
  t.add(count_arg("rate", 0, 100'000'000, "0", "open loop: requests per second (0: closed loop)"),
        [](A& a, const V& v) { a.options.rate = v.number; });
  t.add(choice_arg<bool>("arrivals", kArrivals, "constant",
                         "open loop: constant gaps or Poisson arrivals of the same mean"),
        [](A& a, bool poisson) { a.options.poisson = poisson; });
  t.add(duration_arg("duration", "", "stop starting requests after T (give --duration or --fetches, or both)"),
        [](A& a, const V& v) { a.options.duration = v.duration; });
  t.add(count_arg("fetches", 0, ~0ull, "0", "stop after N requests (0: --duration decides)"),
        [](A& a, const V& v) { a.options.fetches = v.number; });
  t.add(flag_arg("no-keepalive", "one connection per request (sends Connection: close), as http_load does"),
        [](A& a, const V&) { a.options.keepalive = false; });
  t.add(text_arg("method", "M", "GET", "the request method (HEAD expects no body)"), [](A& a, const V& v) {
    if (!is_token(v.text)) throw UserError(v.where + ": not an HTTP method token; e.g. --method=POST");
    a.options.method = v.text;
  });
  OptionInfo header = text_arg("header", "'NAME: VALUE'", "", "a header added to every request; repeatable");
  header.repeatable = true;
  t.add(std::move(header), [](A& a, const V& v) {
    const std::size_t colon = v.text.find(':');
    if (colon == std::string::npos || !is_token(v.text.substr(0, colon)) ||
        v.text.find_first_of("\r\n") != std::string::npos) {
      throw UserError(v.where + ": a header is NAME: VALUE; e.g. --header='Accept-Encoding: gzip'");
    }
    a.options.headers.push_back(v.text);
  });
  t.add(text_arg("body-file", "FILE", "", "send FILE's contents as the request body (with Content-Length)"),
        [](A& a, const V& v) { a.body_file = v.text; });
  t.add(duration_arg("connect-timeout", "5s", "a connect not answered within T is a connect_timeout error"),
        [](A& a, const V& v) { a.options.connect_timeout = v.duration; });
  t.add(duration_arg("timeout", "10s", "no response byte for T is a read_timeout error"),
        [](A& a, const V& v) { a.options.read_timeout = v.duration; });
  t.add(count_arg("threads", 1, 1024, "1", "client threads, each with its own epoll and share of the connections"),
        [](A& a, const V& v) { a.options.threads = static_cast<std::uint32_t>(v.number); });
  t.add(count_arg("seed", 0, ~0ull, "0", "seed of the Poisson arrivals (0: from the time)"),
        [](A& a, const V& v) { a.options.seed = v.number; });
  add_output_options(t, &A::output);
  add_history_options(t, &A::history);
  return t;
}

const CommandTable<HttpArgs>& table() {
  static const CommandTable<HttpArgs> kTable = make_table();
  return kTable;
}

std::string read_body(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UserError(fmt::format("--body-file={}: cannot be read", path));
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

HttpArgs parse(const std::vector<std::string>& args) {
  const ParsedArgs parsed = parse_arguments(table().info(), args);
  HttpArgs a;
  table().apply(parsed, a, nullptr);
  if (!a.urls_file.empty()) {
    for (HttpUrl& u : read_url_file(a.urls_file)) a.options.urls.push_back(std::move(u));
  }
  if (a.options.urls.empty()) {
    throw UserError("sluice http needs a URL: --url=http://HOST[:PORT]/PATH (repeatable) or --urls=FILE");
  }
  if (a.options.duration.count() == 0 && a.options.fetches == 0) {
    throw UserError("sluice http needs an end: --duration=T (e.g. --duration=10s) or --fetches=N");
  }
  if (!a.body_file.empty()) a.options.body = read_body(a.body_file);
  if (a.options.seed == 0) a.options.seed = wall_clock_ms();
  return a;
}

nlohmann::json http_document(const HttpArgs& a, const HttpLoadResult& r, std::uint64_t started_ms,
                             const nlohmann::json& environment) {
  nlohmann::json http = http_json(a.options, r);
  // fio's job keys for the headline numbers, so compare and --repeat's spread read them like any run.
  const nlohmann::json& lat = http["latency_ns"];
  nlohmann::json jobs = nlohmann::json::array({{{"jobname", "http"},
                                                {"error", 0},
                                                {"read",
                                                 {{"total_ios", r.responses},
                                                  {"io_bytes", r.body_bytes},
                                                  {"iops", http["requests_per_s"]},
                                                  {"bw_bytes", http["bytes_per_s"]},
                                                  {"runtime", static_cast<std::uint64_t>(r.elapsed_s * 1000)},
                                                  {"lat_ns", lat}}}}});
  return result_document(ResultEnvelope{"http", started_ms, "", clock_source_name()}, {{"jobs", std::move(jobs)}},
                         {{"interrupted", r.interrupted}, {"environment", environment}, {"http", std::move(http)}});
}

Measurement run_once(const HttpArgs& a) {
  const nlohmann::json environment = capture_environment({});
  const std::uint64_t started_ms = wall_clock_ms();
  const HttpLoadResult result = run_http_load(a.options);
  const nlohmann::json doc = http_document(a, result, started_ms, environment);
  const int code = result.interrupted ? kExitInterrupted : (result.responses == 0 ? kExitError : kExitOk);
  return Measurement{render_http_report(doc["sluice"]["http"]), doc.dump(2) + "\n", code};
}

}  // namespace

const CommandInfo& http_command_info() { return table().info(); }

int http_command(const std::vector<std::string>& args) {
  const HttpArgs a = parse(args);
  install_stop_signal_handlers();
  return run_measured({"http", args, ""}, a.history, a.output, [&](bool) { return run_once(a); });
}

}  // namespace sluice
