// validate_model: the rules that relate keys, each reported at the line of the key concerned.
#include <fmt/format.h>

#include "lab/model_parser.h"

namespace sluice {
namespace {

constexpr std::uint32_t kMaxServers = 4096;

class ModelChecker {
 public:
  ModelChecker(const ParsedModel& model, const std::string& source) : model_(model), source_(source) {}

  bool given(std::string_view key) const { return model_.lines.contains(key); }

  // A problem at `key`'s line (line 0 when it was not given).
  void fail(std::string_view key, std::string message) {
    const auto it = model_.lines.find(key);
    Problem p;
    p.where = SourcePos{source_, it == model_.lines.end() ? 0 : it->second};
    p.option = std::string(key);
    p.message = std::move(message);
    problems_.push_back(std::move(p));
  }

  // Each of `keys` that was given, refused unless `applies`.
  void only_with(bool applies, std::initializer_list<std::string_view> keys, std::string_view condition) {
    if (applies) return;
    for (std::string_view key : keys) {
      if (given(key)) fail(key, fmt::format("{} applies only with {}", key, condition));
    }
  }

  std::vector<Problem> take() { return std::move(problems_); }

 private:
  const ParsedModel& model_;
  const std::string& source_;
  std::vector<Problem> problems_;
};

void check_service(const ModelSpec& m, ModelChecker& c) {
  if (!c.given("read_time"))
    c.fail("read_time", "no read_time: every model needs one, e.g. read_time = 0.8ms");
  else if (m.read_time.count() <= 0)
    c.fail("read_time", "read_time must be positive (a null model: read_time = 1ns)");
  if (c.given("write_time") && m.write_time.count() <= 0) c.fail("write_time", "write_time must be positive");
  if (m.servers < 1 || m.servers > kMaxServers) c.fail("servers", fmt::format("servers must be 1 to {}", kMaxServers));
  if (m.size_bytes == 0) c.fail("size", "size must be positive");
}

void check_rotation(const ModelSpec& m, ModelChecker& c) {
  c.only_with(m.rotating(), {"seek_track", "seek_full"}, "rpm (rotating media)");
  if (m.rotating() && m.seek_full < m.seek_track) {
    c.fail("seek_full", "seek_full is shorter than seek_track: a full stroke cannot be quicker than one track");
  }
}

void check_cache(const ModelSpec& m, ModelChecker& c) {
  const bool write_back = m.write_cache == WriteCacheMode::kWriteBack;
  c.only_with(write_back, {"cache_size", "cache_write_time", "destage_rate", "battery"}, "write_cache = write-back");
  if (!write_back) return;
  if (m.destage_bytes_per_s <= 0) c.fail("write_cache", "write_cache = write-back needs destage_rate (e.g. 250MiB/s)");
  if (m.cache_size_bytes == 0) c.fail("write_cache", "write_cache = write-back needs cache_size (e.g. 512m)");
}

void check_cliff_and_jitter(const ModelSpec& m, ModelChecker& c) {
  if (c.given("cliff_after") != c.given("cliff_write_time")) {
    c.fail(c.given("cliff_after") ? "cliff_after" : "cliff_write_time",
           "cliff_after and cliff_write_time go together: after how many bytes, and the write time then");
  }
  if (c.given("cliff_write_time") && m.cliff_write_time.count() <= 0) {
    c.fail("cliff_write_time", "cliff_write_time must be positive");
  }
  const bool jitter = m.jitter != JitterKind::kNone;
  c.only_with(jitter, {"jitter_fraction"}, "jitter = uniform or exponential");
  if (jitter && (m.jitter_fraction <= 0 || m.jitter_fraction > 1)) {
    c.fail(c.given("jitter_fraction") ? "jitter_fraction" : "jitter",
           "jitter needs jitter_fraction above 0% and at most 100%");
  }
}

}  // namespace

std::vector<Problem> validate_model(const ParsedModel& model, const std::string& source) {
  ModelChecker checker(model, source);
  check_service(model.spec, checker);
  check_rotation(model.spec, checker);
  check_cache(model.spec, checker);
  check_cliff_and_jitter(model.spec, checker);
  return checker.take();
}

}  // namespace sluice
