#include "suites/postmark_config.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

namespace sluice {
namespace {

constexpr int kKilobyte = 1024;
constexpr int kMegabyte = kKilobyte * kKilobyte;

}  // namespace

int PostmarkConfig::total_weight() const noexcept {
  int total = 0;
  for (const PostmarkLocation& l : locations) total += l.weight;
  return total;
}

std::string postmark_scale(int bytes) {
  if (bytes / kMegabyte != 0)
    return fmt::format("{:.2f} megabytes", static_cast<double>(static_cast<float>(bytes) / kMegabyte));
  if (bytes / kKilobyte != 0)
    return fmt::format("{:.2f} kilobytes", static_cast<double>(static_cast<float>(bytes) / kKilobyte));
  return fmt::format("{} bytes", bytes);
}

std::string postmark_scalef(float bytes) {
  if (bytes / static_cast<float>(kMegabyte) > 1) {
    return fmt::format("{:.2f} megabytes", static_cast<double>(bytes / static_cast<float>(kMegabyte)));
  }
  if (bytes / static_cast<float>(kKilobyte) != 0) {
    return fmt::format("{:.2f} kilobytes", static_cast<double>(bytes / static_cast<float>(kKilobyte)));
  }
  return fmt::format("{:f} bytes", static_cast<double>(bytes));
}

std::string render_postmark_show(const PostmarkConfig& c, const std::string& cwd) {
  std::string out = "Current configuration is:\n";
  out += fmt::format("The base number of files is {}\n", c.number);
  out += fmt::format("Transactions: {}\n", c.transactions);
  if (c.size_low != c.size_high) {
    out +=
        fmt::format("Files range between {} and {} in size\n", postmark_scale(c.size_low), postmark_scale(c.size_high));
  } else {
    out += fmt::format("Files are {} in size\n", postmark_scale(c.size_low));
  }
  out += fmt::format("Working director{}: {}\n", c.locations.size() > 1 ? "ies" : "y", c.locations.empty() ? cwd : "");
  for (const PostmarkLocation& l : c.locations) out += fmt::format("\t{} (weight={})\n", l.path, l.weight);
  if (c.subdirectories > 0) {
    out += fmt::format("{} subdirector{} will be used\n", c.subdirectories, c.subdirectories == 1 ? "y" : "ies");
  }
  out +=
      fmt::format("Block sizes are: read={}, write={}\n", postmark_scale(c.read_block), postmark_scale(c.write_block));
  out += fmt::format("Biases are: read/append={}, create/delete={}\n", c.bias_read, c.bias_create);
  out += fmt::format("{}sing Unix buffered file I/O\n", c.buffered ? "U" : "Not u");
  out += fmt::format("Random number generator seed is {}\n", c.seed);
  out += fmt::format("Report format is {}.\n", c.terse ? "terse" : "verbose");
  return out;
}

nlohmann::json postmark_config_json(const PostmarkConfig& c) {
  nlohmann::json locations = nlohmann::json::array();
  for (const PostmarkLocation& l : c.locations) locations.push_back({{"path", l.path}, {"weight", l.weight}});
  return {{"size_low", c.size_low},
          {"size_high", c.size_high},
          {"number", c.number},
          {"transactions", c.transactions},
          {"subdirectories", c.subdirectories},
          {"read", c.read_block},
          {"write", c.write_block},
          {"buffering", c.buffered},
          {"bias_read", c.bias_read},
          {"bias_create", c.bias_create},
          {"seed", c.seed},
          {"report", c.terse ? "terse" : "verbose"},
          {"locations", locations}};
}

}  // namespace sluice
