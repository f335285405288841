#include "job/option_scope.h"

namespace sluice {

bool is_global_option(const JobSpec& job, const std::string& name) {
  if (job.where.file.empty()) return false;
  const auto it = job.option_pos.find(name);
  if (it == job.option_pos.end()) return false;
  const SourcePos& pos = it->second;
  return pos.file.empty() || (pos.file == job.where.file && pos.line < job.where.line);
}

std::map<std::string, std::string> global_options_of(const JobSpec& job) {
  std::map<std::string, std::string> out;
  for (const auto& [name, value] : job.given_options) {
    if (is_global_option(job, name)) out[name] = value;
  }
  return out;
}

std::map<std::string, std::string> own_options_of(const JobSpec& job) {
  std::map<std::string, std::string> out;
  for (const auto& [name, value] : job.given_options) {
    if (!is_global_option(job, name)) out[name] = value;
  }
  return out;
}

}  // namespace sluice
