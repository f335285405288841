#pragma once
// Internal to job/: collects the validation problems of one job, each positioned where its option was set
// (or where the job begins when the option was not given).
#include <string>
#include <utility>
#include <vector>

#include "common/error.h"
#include "job/job_spec.h"

namespace sluice::detail {

class JobProblems {
 public:
  explicit JobProblems(const JobSpec& job) : job_(job) {}

  void error(const std::string& option, std::string message) {
    add(Problem::Severity::kError, option, std::move(message));
  }
  void warning(const std::string& option, std::string message) {
    add(Problem::Severity::kWarning, option, std::move(message));
  }
  // Whether the job gave `option` (a check of one part asks here, as it has no JobSpec).
  bool given(const std::string& option) const { return job_.given_options.count(option) != 0; }
  // Gives the last problem added a stable code (a methodology rule's, job/warning_codes.h).
  void set_last_code(std::string code) { problems_.back().code = std::move(code); }
  std::vector<Problem> take() { return std::move(problems_); }

 private:
  void add(Problem::Severity severity, const std::string& option, std::string message) {
    Problem problem;
    problem.severity = severity;
    const auto it = job_.option_pos.find(option);
    problem.where = it != job_.option_pos.end() ? it->second : job_.where;
    problem.option = option;
    problem.message = std::move(message);
    problems_.push_back(std::move(problem));
  }

  const JobSpec& job_;
  std::vector<Problem> problems_;
};

}  // namespace sluice::detail
