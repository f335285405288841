#pragma once
// Reporters: pure functions of a RunResult. Nothing global, no I/O beyond returning text.
#include <iosfwd>
#include <nlohmann/json.hpp>
#include <string>

#include "stats/result.h"

namespace sluice {

// fio's normal (human) output, with units always named.
std::string render_normal(const RunResult& result);

struct NormalReportOptions {
  // Start the report with result.notes and a "Warnings:" section listing result.warnings (the CLI decides:
  // they are the report's, never stderr's).
  bool show_warnings = false;
  // End with sluice's own lines (clock, environment); a client reporting a server's jobs has neither.
  bool sluice_lines = true;
};
std::string render_normal(const RunResult& result, const NormalReportOptions& options);

// The job sections alone (no group status, disk stats or sluice's lines): what fio's client prints for
// "All clients".
std::string render_normal_jobs(const RunResult& result);

// fio's terse (--minimal) output: one semicolon-separated line per reported job, in fio's terse format
// `version` (2, 3, 4 or 5) field for field; fields sluice cannot know are written as fio writes zeros.
std::string render_terse(const RunResult& result, int version);

// One job's banner as fio prints it before the run: "a: (g=0): rw=randrw, bs=(R) 4096B-4096B, (W) ...,
// ioengine=libaio, iodepth=8" (no trailing newline).
std::string render_job_banner(const JobResult& job);

// fio's JSON schema key for key ("fio version", "jobs", ... "disk_util"), sluice's additions under "sluice".
// json_plus adds the histogram "bins" to clat_ns / lat_ns / slat_ns as fio's json+ does.
// nlohmann::json sorts keys; render_json_ordered keeps fio's key order (and percentiles in list order), and
// render_json_text is that document as text (2-space indent, trailing newline): what a CLI should print.
nlohmann::json render_json(const RunResult& result, bool json_plus);
nlohmann::ordered_json render_json_ordered(const RunResult& result, bool json_plus);
std::string render_json_text(const RunResult& result, bool json_plus);
// The same text written to `out` as it is produced: the per-interval series (most of a long run's report)
// never exist as one string, so printing a day's report costs about the skeleton, not the text.
void write_json_text(const RunResult& result, bool json_plus, std::ostream& out);

}  // namespace sluice
