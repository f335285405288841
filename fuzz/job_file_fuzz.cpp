// The job-file reader and expander (job/job_file.h): ini grammar, ${VAR}, keywords and arithmetic, every
// option's value parser, then validate_all and --showcmd's rendering, as `sluice run --parse-only FILE`.
#include <optional>

#include "fuzz_support.h"
#include "job/job_file.h"
#include "job/validate.h"

namespace {

sluice::JobFileSettings settings() {
  sluice::JobFileSettings s;
  // Fixed values, so a finding replays on any machine.
  s.expansion.env = [](const std::string& name) -> std::optional<std::string> {
    if (name == "SIZE") return "64k";
    if (name == "EMPTY") return "";
    if (name == "FILE") return "/tmp/fuzz-file";
    return std::nullopt;
  };
  s.expansion.system = {4, 4096, 8192};
  // An include would read a real file (include /dev/zero never ends); the reader's refusal is fuzzed instead.
  s.max_include_depth = 0;
  return s;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const sluice::JobFileSettings kSettings = settings();
  sluice::fuzz::expect_clean([&] {
    const std::vector<sluice::FileJob> jobs =
        sluice::parse_job_text(sluice::fuzz::as_text(data, size), "fuzz.fio", kSettings);
    std::vector<sluice::JobSpec> specs;
    for (const sluice::FileJob& job : jobs) {
      specs.push_back(job.spec);
      (void)sluice::showcmd_line(job);
    }
    for (const sluice::Problem& p : sluice::validate_all(specs)) {
      if (p.message.empty()) throw sluice::UserError("");  // a problem without a message: a silent failure
    }
  });
  return 0;
}
