// The read_iolog readers: fio's text iolog (workload/iolog.h) and blktrace binary traces
// (workload/blktrace.h). Any bytes are parsed as both, with and without replay settings that rescale offsets
// and time; a rejection must be a UserError with a message.
#include <sstream>
#include <string>

#include "fuzz_support.h"
#include "workload/blktrace.h"
#include "workload/iolog.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(sluice::fuzz::as_text(data, size));
  sluice::ReplaySettings plain;
  sluice::ReplaySettings scaled;
  scaled.scale = 3;
  scaled.align = 4096;
  scaled.time_scale = 7;
  scaled.skip_write = true;
  scaled.redirect = "/dev/null";
  for (const sluice::ReplaySettings* settings : {&plain, &scaled}) {
    sluice::fuzz::expect_clean([&] {
      std::istringstream in(text);
      const sluice::IoLog log = sluice::parse_iolog(in, "fuzz.log", *settings);
      for (const sluice::IoLogEntry& e : log.entries) {
        if (e.file >= log.files.size()) std::abort();  // every io names a file of the log
      }
    });
    sluice::fuzz::expect_clean([&] {
      std::istringstream in(text);
      const auto name = [](unsigned major, unsigned minor) {
        return major == 8 ? "/dev/sd" + std::to_string(minor) : std::string();
      };
      const sluice::IoLog log = sluice::parse_blktrace(in, "fuzz.bin", *settings, name);
      for (const sluice::IoLogEntry& e : log.entries) {
        if (e.file >= log.files.size()) std::abort();
      }
    });
  }
  return 0;
}
