// The clat histogram log reader of `sluice report --hist-log` (html/heatmap.h): the input is written to a
// file (the reader takes a path), read into heatmaps and rendered as SVG and CSV.
#include <unistd.h>

#include <fstream>
#include <string>

#include "fuzz_support.h"
#include "html/heatmap.h"

namespace {

// One file per fuzzing process, rewritten for each input, removed at exit.
const std::string& log_path() {
  static const std::string kPath = [] {
    std::string path = "/tmp/sluice-fuzz-hist-" + std::to_string(::getpid()) + ".log";
    std::atexit([] { std::remove(log_path().c_str()); });
    return path;
  }();
  return kPath;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  {
    std::ofstream out(log_path(), std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  sluice::fuzz::expect_clean([&] {
    for (const sluice::html::Heatmap& map : sluice::html::load_heatmaps(log_path(), 50, 20)) {
      (void)sluice::html::render_heatmap_svg(map);
      (void)sluice::html::render_heatmap_csv(map);
    }
  });
  return 0;
}
