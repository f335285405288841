#pragma once
// PostmarkConfig: PostMark 1.5x's settings with its defaults, and the text of its `show` command.
#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

namespace sluice {

// A directory the files are spread over; a file picks one with probability weight / total weight.
struct PostmarkLocation {
  std::string path;
  int weight = 1;
};

struct PostmarkConfig {
  // Sizes are ints as in PostMark: its source buffer holds 2 x size_high bytes and sizes never exceed that.
  static constexpr int kMaxSize = 1 << 30;

  int size_low = 500;  // bytes; files get size_low .. size_high - 1 (or exactly size_low when equal)
  int size_high = 10000;
  int number = 500;  // the initial pool of files
  int transactions = 500;
  int subdirectories = 0;  // used only when > 1
  int read_block = 512;
  int write_block = 512;
  bool buffered = true;  // true: stdio fopen/fread/fwrite; false: open/read/write
  int bias_read = 5;     // read rather than append when RND(10) < bias_read; -1: no read/append half
  int bias_create = 5;   // create rather than delete when RND(10) < bias_create; -1: no create/delete half
  std::uint32_t seed = 42;
  bool terse = false;                       // `set report terse`
  std::vector<PostmarkLocation> locations;  // empty: the current directory

  int total_weight() const noexcept;
};

// PostMark's `show`: "Current configuration is:" and the lines after it. `cwd` is printed as the working
// directory when no location is set.
std::string render_postmark_show(const PostmarkConfig& config, const std::string& cwd);

// PostMark's size wording: "512 bytes", "9.77 kilobytes", "1.00 megabytes" (from an int, as its scale()).
std::string postmark_scale(int bytes);
// From a float counter, as its scalef(): megabytes above 1 MiB, else kilobytes (or "%f bytes" for 0).
std::string postmark_scalef(float bytes);

// The settings as JSON, for the "config" of a run.
nlohmann::json postmark_config_json(const PostmarkConfig& config);

}  // namespace sluice
