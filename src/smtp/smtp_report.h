#pragma once
// `sluice smtp`'s reports: the text summary and the JSON document ("sluice.smtp").
#include <nlohmann/json.hpp>
#include <string>

#include "smtp/smtp_load.h"

namespace sluice {

double messages_per_minute(const SmtpResult& result);
double bytes_per_minute(const SmtpResult& result);

// The envelope (report/result_document.h) and "sluice": {..., "command": "smtp", "smtp": {server, parallel,
// loop, rate, messages_delivered, messages_attempted, connections, elapsed_s, messages_per_minute,
// bytes_per_minute, bytes_delivered, errors {total, by_code, by_kind, first}, latency_ns {connect, mail, rcpt,
// data, total: {count, min, max, mean, stddev, percentile {"50.000000": ns, ...}}}}}}.
nlohmann::json smtp_json(const SmtpResult& result);

std::string render_smtp_text(const SmtpResult& result);

}  // namespace sluice
