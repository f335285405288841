// The jobs a client sent, parsed and validated as sluice run parses and validates them.
#include "fionet/received_jobs.h"

#include "common/error.h"
#include "job/command_line.h"
#include "job/job_file.h"
#include "job/option_table.h"
#include "job/units.h"
#include "job/validate.h"
#include "run/plan.h"

namespace sluice::fionet {
namespace {

// fio's client sends its whole command line (JOBLINE): besides the job options, --name and job files it holds
// fio's run-level options (--output-format, --minimal, --eta...), which are the client's business. The server
// keeps the jobs' part, and of the rest only whether the normal output is asked for (fio's server then logs
// the job banners) and --status-interval (fio's server then sends the statistics so far every interval).
struct JobLine {
  std::vector<std::string> job_args;
  bool normal_output = true;
  std::optional<std::chrono::nanoseconds> report_interval;
};

// fio's --status-interval=T: a bare number is seconds, at least 1 ms (fio refuses less as "too small").
std::chrono::nanoseconds status_interval_of(const std::string& arg, const std::string& value) {
  const auto interval = parse_duration(value, std::chrono::seconds(1));
  if (!interval || *interval < std::chrono::milliseconds(1)) {
    throw UserError(arg + ": not a duration of at least 1ms; e.g. 1, 500ms, 10s");
  }
  return *interval;
}

JobLine split_job_line(const std::vector<std::string>& args) {
  JobLine line;
  for (const std::string& arg : args) {
    if (arg.rfind("--", 0) != 0 || arg == "--") {
      line.job_args.push_back(arg);
      continue;
    }
    const std::size_t eq = arg.find('=');
    const std::string name = arg.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
    if (find_option(name) != nullptr || is_job_command_line_option(name)) {
      line.job_args.push_back(arg);
    } else if (name == "output-format" && eq != std::string::npos) {
      const std::string formats = "," + arg.substr(eq + 1) + ",";
      line.normal_output = formats.find(",normal,") != std::string::npos;
    } else if (name == "minimal") {
      line.normal_output = false;
    } else if (name == "status-interval" && eq != std::string::npos) {
      line.report_interval = status_interval_of(arg, arg.substr(eq + 1));
    }
  }
  return line;
}

// fio's $clientuid in a filename_format value (a job file's line or a --filename_format argument) becomes the
// server's address; elsewhere the text is left alone, as fio replaces it only there.
std::string replace_clientuid(std::string text, const std::string& address) {
  constexpr std::string_view kKeyword = "$clientuid";
  std::size_t line_start = 0;
  while (line_start < text.size()) {
    std::size_t line_end = text.find('\n', line_start);
    if (line_end == std::string::npos) line_end = text.size();
    const std::size_t key = text.find_first_not_of(" \t-", line_start);
    if (key < line_end && text.compare(key, 15, "filename_format") == 0) {
      for (std::size_t at = text.find(kKeyword, key); at != std::string::npos && at < line_end;
           at = text.find(kKeyword, at + address.size())) {
        text.replace(at, kKeyword.size(), address);
        line_end = line_end + address.size() - kKeyword.size();
      }
    }
    line_start = line_end + 1;
  }
  return text;
}

}  // namespace

PreparedJobs prepare_jobs(const ReceivedJobs& sent) {
  ReceivedJobs received = sent;
  for (std::string& arg : received.args) arg = replace_clientuid(arg, received.clientuid);
  for (ReceivedJobs::File& file : received.files) file.text = replace_clientuid(file.text, received.clientuid);
  const JobLine line = split_job_line(received.args);
  JobCommandLine parsed = parse_job_command_line(line.job_args);
  std::vector<JobSpec> jobs = std::move(parsed.jobs);
  JobFileSettings settings;
  settings.globals = parsed.globals;
  for (const ReceivedJobs::File& file : received.files) {
    for (FileJob& job : parse_job_text(file.text, file.name, settings)) jobs.push_back(std::move(job.spec));
  }
  std::string errors;
  for (const Problem& problem : validate_all(jobs)) {
    if (problem.severity != Problem::Severity::kError) continue;
    errors += (errors.empty() ? "" : "\n") + problem.where.describe() + ": " +
              (problem.option.empty() ? "" : problem.option + ": ") + problem.message;
  }
  if (!errors.empty()) throw UserError(errors);
  PreparedJobs prepared;
  prepared.jobs = std::move(jobs);
  prepared.normal_output = line.normal_output;
  prepared.report_interval = line.report_interval;
  return prepared;
}

JobCounts count_jobs(const std::vector<JobSpec>& jobs) {
  JobCounts counts;
  for (const GroupPlan& group : make_plan(jobs)) {
    std::uint32_t reported = 0;
    for (const JobInstance& clone : group.jobs) {
      ++counts.clones;
      if (clone.spec.report.stats && clone.spec.control.role == JobRole::kForeground) ++reported;
    }
    counts.reports += group.group_reporting ? (reported ? 1 : 0) : reported;
  }
  return counts;
}

}  // namespace sluice::fionet
