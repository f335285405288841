// The fio JSON document: header keys, "jobs", "disk_util", and sluice's own "sluice" section.
#include <unistd.h>

#include <functional>
#include <ostream>
#include <random>
#include <string>
#include <string_view>

#include "report/json_parts.h"
#include "report/reporters.h"
#include "report/result_document.h"
#include "report/sluice_extras.h"

namespace sluice {
namespace {

using ojson = nlohmann::ordered_json;

// A runner's result names no command unless a method or a mode set it: then it is `sluice run`'s.
ResultEnvelope envelope_of(const RunResult& result) {
  return ResultEnvelope{result.command.empty() ? std::string("run") : result.command, result.timestamp_ms,
                        result.version, result.clock_source};
}

ojson disk_json(const DiskUtilization& d) {
  ojson out = ojson::object();
  out["name"] = d.name;
  out["read_ios"] = d.read_ios;
  out["write_ios"] = d.write_ios;
  out["read_merges"] = d.read_merges;
  out["write_merges"] = d.write_merges;
  out["read_ticks"] = d.read_ticks_ms;
  out["write_ticks"] = d.write_ticks_ms;
  out["in_queue"] = d.in_queue_ms;
  out["util"] = report::json_float(d.util_percent);
  return out;
}

ojson interval_json(const IntervalSample& s, double interval_s) {
  ojson out = ojson::object();
  out["iops"] = report::json_float(static_cast<double>(s.ops) / interval_s);
  out["bw_bytes"] = report::json_float(static_cast<double>(s.bytes) / interval_s);
  out["lat_mean_ns"] = s.ops ? report::json_float(static_cast<double>(s.lat_sum_ns) / static_cast<double>(s.ops)) : 0.0;
  out["lat_p99_ns"] = s.lat_p99_ns;
  return out;
}

// One sample of a job's time series: "t_s" at the interval's end, then each direction's rates.
ojson series_sample_json(const TimeSeries& series, std::size_t i, double interval_s, bool any_trim) {
  const PerDirection<IntervalSample>& at = series.at(i);
  ojson sample = ojson::object();
  sample["t_s"] = static_cast<double>(i + 1) * interval_s;
  for (Direction d : kAllDirections) {
    if (d == Direction::kTrim && !any_trim) continue;
    sample[std::string(direction_name(d))] =
        interval_s > 0 ? interval_json(at[static_cast<std::size_t>(index_of(d))], interval_s) : ojson::object();
  }
  return sample;
}

bool any_trim_of(const JobResult& job) {
  return job.dirs[static_cast<std::size_t>(index_of(Direction::kTrim))].ios > 0;
}

double interval_seconds(const TimeSeries& series) { return static_cast<double>(series.interval_ns()) / 1e9; }

// A series whose samples the printed text writes out later, taken from the reported job (a copy of the
// result's, or a temporary merge of a group's jobs), about half the size of its text.
struct PendingSeries {
  TimeSeries owned;                      // a merged group's series, moved out of its reported entry
  const TimeSeries* borrowed = nullptr;  // or the result's own, which outlives the writing
  bool any_trim = false;
  const TimeSeries& series() const noexcept { return borrowed ? *borrowed : owned; }
};

// How the series' samples go into the document: as JSON values (a document to work on), or as a placeholder
// string that render_json_text replaces with the samples written out one by one (a document to print: a
// day's series of 64 jobs would otherwise be a few hundred MB of JSON nodes; see docs/reliability.md).
struct SeriesPlaceholders {
  std::string marker;                 // unique per rendering; never in a user's string by accident
  std::vector<PendingSeries> series;  // the samples of placeholder i
};

// The job's time series: one sample per interval, "t_s" at the interval's end. With placeholders the
// series is borrowed from the result, or moves out of the entry when the entry owns it (a merge).
ojson series_json(report::ReportedJob& entry, SeriesPlaceholders* placeholders) {
  const JobResult& job = entry.job;
  const TimeSeries& series = entry.series();
  ojson out = ojson::object();
  out["interval_ns"] = series.interval_ns();
  if (placeholders != nullptr) {
    out["samples"] = placeholders->marker + std::to_string(placeholders->series.size());
    const bool any_trim = any_trim_of(job);
    if (entry.borrowed_series != nullptr) {
      placeholders->series.push_back({TimeSeries(), entry.borrowed_series, any_trim});
    } else {
      placeholders->series.push_back({std::move(entry.job.series), nullptr, any_trim});
    }
    return out;
  }
  const double interval_s = interval_seconds(series);
  const bool any_trim = any_trim_of(job);
  ojson samples = ojson::array();
  for (std::size_t i = 0; i < series.size(); ++i)
    samples.push_back(series_sample_json(series, i, interval_s, any_trim));
  out["samples"] = std::move(samples);
  return out;
}

// A sample's line, at most: indentation, "t_s" and three directions of four numbers of up to 24 characters.
constexpr std::size_t kMaxSampleTextBytes = 512;

// Where the spliced text goes: appended to a string, or written to a stream piece by piece.
using TextOut = std::function<void(std::string_view)>;

// Writes the samples as a JSON array, one compact sample per line, at the given indentation.
void write_samples_text(const PendingSeries& pending, std::size_t indent, const TextOut& out) {
  const TimeSeries& series = pending.series();
  if (series.size() == 0) {
    out("[]");
    return;
  }
  const double interval_s = interval_seconds(series);
  out("[\n");
  std::string line;
  for (std::size_t i = 0; i < series.size(); ++i) {
    line.assign(indent + 2, ' ');
    line += series_sample_json(series, i, interval_s, pending.any_trim).dump();
    line += i + 1 < series.size() ? ",\n" : "\n";
    out(line);
  }
  line.assign(indent, ' ');
  line += ']';
  out(line);
}

// Writes the document's text with each placeholder string (a quoted marker and number) replaced by its
// samples; each series is released once written.
void splice_samples(const std::string& text, SeriesPlaceholders& placeholders, const TextOut& out) {
  std::string needle = ojson(placeholders.marker).dump();  // the marker as the dump writes it: quoted, escaped
  needle.pop_back();                                       // without its closing quote: the number follows
  const std::string_view all(text);
  std::size_t from = 0;
  for (std::size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, from)) {
    const std::size_t digits = at + needle.size();
    const std::size_t close = text.find('"', digits);
    const std::size_t index = std::stoul(text.substr(digits, close - digits));
    const std::size_t line = text.rfind('\n', at);
    const std::size_t indent = text.find_first_not_of(' ', line + 1) - (line + 1);
    out(all.substr(from, at - from));
    write_samples_text(placeholders.series.at(index), indent, out);
    placeholders.series[index].owned = TimeSeries();  // written: its memory goes back before the next
    from = close + 1;
  }
  out(all.substr(from));
}

ojson warnings_json(const std::vector<Problem>& warnings) {
  ojson out = ojson::array();
  for (const Problem& w : warnings) {
    ojson item = ojson::object();
    item["option"] = w.option;
    item["message"] = w.message;
    item["where"] = w.where.describe();
    if (!w.code.empty()) item["code"] = w.code;  // methodology lint rules (run/lint.h)
    out.push_back(std::move(item));
  }
  return out;
}

ojson sluice_job_json(report::ReportedJob& entry, SeriesPlaceholders* placeholders) {
  const JobResult& job = entry.job;
  ojson out = ojson::object();
  out["jobname"] = job.name;
  out["groupid"] = job.groupid;
  out["interrupted"] = job.interrupted;
  out["stopped_by_max_latency"] = job.stopped_by_max_latency;
  if (job.filled_up) out["filled_up"] = true;  // fill_device: ENOSPC ended the job
  out["role"] = job.settings.background ? "background" : "foreground";
  out["open_loop"] = job.settings.open_loop;
  if (job.verified_ios != 0 || job.verify_failures != 0) {
    out["verify"] = ojson{{"verified_ios", job.verified_ios}, {"failures", job.verify_failures}};
  }
  if (job.settings.rw == "randrmw") {
    out["rmw"] = ojson{{"transactions", job.rmw_transactions},
                       {"transactions_per_s", report::json_float(report::rmw_transactions_per_second(job))}};
  }
  out["series"] = series_json(entry, placeholders);
  return out;
}

// fio writes the [global] section's options at the top level; the runner passes them in RunResult::extra.
constexpr const char* kGlobalOptions = "global options";

ojson sluice_json(const RunResult& result, ojson jobs) {
  ojson out = ojson::object();  // after the envelope's keys (result_document)
  out["interrupted"] = result.interrupted;
  out["warnings"] = warnings_json(result.warnings);
  out["notes"] = result.notes;
  out["environment"] = ojson::parse(result.environment.dump());
  out["jobs"] = std::move(jobs);
  if (const std::vector<ActSlice> act = report::act_slices_of(result); !act.empty()) {  // --profile=act
    ojson slices = ojson::array();
    for (const ActSlice& s : act) {
      slices.push_back(ojson{{"ios", s[0]}, {"over_1ms", s[1]}, {"over_8ms", s[2]}, {"over_64ms", s[3]}});
    }
    out["act"] = ojson{{"slices", std::move(slices)}, {"passed", act_passed(act)}};
  }
  if (result.extra.is_object()) {
    for (const auto& [key, value] : result.extra.items()) {
      if (key != kGlobalOptions) out[key] = ojson::parse(value.dump());
    }
  }
  return out;
}

ojson render_document(const RunResult& result, bool json_plus, SeriesPlaceholders* placeholders) {
  ojson doc = ojson::object();  // fio's keys after the envelope's (result_document)
  ojson jobs = ojson::array();
  ojson sluice_jobs = ojson::array();
  for (const GroupResult& group : result.groups) {
    const PerDirection<report::GroupDirectionTotals> totals = report::group_totals(group);
    // Series are borrowed from `result`, which outlives the text (render_json_text, write_json_text).
    const report::SeriesCopy copy = placeholders ? report::SeriesCopy::kBorrow : report::SeriesCopy::kCopy;
    for (report::ReportedJob& entry : report::reported_jobs(group, copy)) {
      jobs.push_back(report::job_json(entry, totals, json_plus));
      sluice_jobs.push_back(sluice_job_json(entry, placeholders));  // last: may move the series out
    }
    // Background jobs follow their group's entries, each with its own totals and a "sluice" marker.
    for (report::ReportedJob& entry : report::background_jobs(group, copy)) {
      ojson job = report::job_json(entry, report::background_totals(entry.job), json_plus);
      job["sluice"] = ojson{{"role", "background"}};
      jobs.push_back(std::move(job));
      sluice_jobs.push_back(sluice_job_json(entry, placeholders));
    }
  }
  if (result.extra.is_object() && result.extra.contains(kGlobalOptions)) {
    doc[kGlobalOptions] = ojson::parse(result.extra.at(kGlobalOptions).dump());
  }
  doc["jobs"] = std::move(jobs);
  if (!result.disks.empty()) {
    ojson disks = ojson::array();
    for (const DiskUtilization& d : result.disks) disks.push_back(disk_json(d));
    doc["disk_util"] = std::move(disks);
  }
  return result_document_ordered(envelope_of(result), std::move(doc), sluice_json(result, std::move(sluice_jobs)));
}

// A marker no job name, path or option value contains: a control character and a per-process random tag.
std::string series_marker() {
  static const std::string tag = std::to_string(std::random_device{}()) + std::to_string(::getpid());
  return "\x01sluice-series-" + tag + "-";
}

}  // namespace

ojson render_json_ordered(const RunResult& result, bool json_plus) {
  return render_document(result, json_plus, nullptr);
}

nlohmann::json render_json(const RunResult& result, bool json_plus) {
  return nlohmann::json::parse(render_json_ordered(result, json_plus).dump());
}

std::string render_json_text(const RunResult& result, bool json_plus) {
  SeriesPlaceholders placeholders{series_marker(), {}};
  const std::string text = render_document(result, json_plus, &placeholders).dump(2) + "\n";
  std::string out;
  // Capacity never written is never resident: reserving for the longest samples saves the copies a growing
  // string makes (which would briefly hold the text twice).
  std::size_t samples = 0;
  for (const PendingSeries& p : placeholders.series) samples += p.series().size();
  out.reserve(text.size() + samples * kMaxSampleTextBytes);
  splice_samples(text, placeholders, [&out](std::string_view piece) { out.append(piece); });
  return out;
}

void write_json_text(const RunResult& result, bool json_plus, std::ostream& out) {
  SeriesPlaceholders placeholders{series_marker(), {}};
  const std::string text = render_document(result, json_plus, &placeholders).dump(2) + "\n";
  splice_samples(text, placeholders, [&out](std::string_view piece) {
    out.write(piece.data(), static_cast<std::streamsize>(piece.size()));
  });
}

}  // namespace sluice
