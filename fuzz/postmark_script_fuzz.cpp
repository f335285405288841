// PostMark's configuration script as `sluice postmark FILE` reads it (suites/postmark_script.h): every line
// parsed, `set` commands applied to a configuration. `load FILE` reads a real file: inputs naming device or
// kernel files are skipped (load /dev/zero would never end), any other name is read (usually missing).
#include <sstream>

#include "fuzz_support.h"
#include "suites/postmark_script.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = sluice::fuzz::as_text(data, size);
  for (const char* skip : {"/dev", "/proc", "/sys"}) {
    if (text.find(skip) != std::string_view::npos) return 0;
  }
  sluice::fuzz::expect_clean([&] {
    std::istringstream in{std::string(text)};
    sluice::PostmarkConfig config;
    for (const sluice::PostmarkCommand& command : sluice::parse_postmark_script(in, "fuzz.pm")) {
      if (command.kind == sluice::PostmarkCommand::Kind::kSet) sluice::apply_postmark_set(command, config);
    }
  });
  return 0;
}
