#include "selftest/selftest_interfere.h"

#include <fmt/format.h>

#include "common/json_read.h"

namespace sluice {
namespace {

constexpr double kHelps = 1.25;
constexpr double kHurts = 0.8;

std::string settings_text(const std::vector<std::pair<std::string, std::string>>& settings) {
  std::string out;
  for (const auto& [knob, value] : settings) out += (out.empty() ? "" : ",") + knob + "=" + value;
  return out;
}

std::string knob_text(const InterfereSetup& setup) { return settings_text(setup.knob); }

const nlohmann::json* interference(const nlohmann::json& doc, std::string& why) {
  if (!doc.contains("sluice") || !doc["sluice"].contains("interference")) {
    why = "the result has no sluice.interference";
    return nullptr;
  }
  return &doc["sluice"]["interference"];
}

std::optional<double> phase_iops(const nlohmann::json& section, const std::string& name, std::uint32_t threads,
                                 double& seconds) {
  for (const nlohmann::json& p : field_or(section, "phases", nlohmann::json::array())) {
    if (text_or(p, "name", "") != name || field_or(p, "threads", 0).get<std::uint32_t>() != threads) continue;
    seconds = field_or(p, "seconds", 0.0).get<double>();
    return field_or(p, "iops", 0.0).get<double>();
  }
  return std::nullopt;
}

std::optional<double> trial_iops(const nlohmann::json& section, bool baseline, std::uint32_t threads) {
  for (const nlohmann::json& t : field_or(section, "trials", nlohmann::json::array())) {
    if (flag_or(t, "baseline", false) != baseline || field_or(t, "threads", 0).get<std::uint32_t>() != threads)
      continue;
    if (!baseline && !flag_or(t, "ran", false)) return std::nullopt;
    return field_or(t, "fg_iops", 0.0).get<double>();
  }
  return std::nullopt;
}

}  // namespace

std::vector<SelftestCheck> interfere_checks(const InterfereSetup& setup) {
  std::vector<SelftestCheck> out;
  for (const std::uint32_t threads : setup.threads) {
    SelftestCheck c;
    c.group = "interfere";
    c.threads = threads;
    c.sluice_args = interfere_args(setup);
    c.method = fmt::format("interfere, {} thread{}: fsync'd 16 KiB writes slowed by a bulk copy", threads,
                           threads == 1 ? "" : "s");
    c.measure = Measure::kSlowdown;
    c.truth = setup.min_slowdown;
    c.rule = Tolerance::kAtLeast;
    c.why = "the model's write-back cache destages the flood and every fsync waits behind it; fio beside, same flood";
    out.push_back(c);
  }
  for (const std::uint32_t threads : setup.threads) {
    SelftestCheck c;
    c.group = "interfere";
    c.threads = threads;
    c.sluice_args = interfere_args(setup);
    c.method = fmt::format("interfere, {} thread{}: the trial {} (truth: fio, same flood and knob)", threads,
                           threads == 1 ? "" : "s", knob_text(setup));
    c.measure = Measure::kKnobEffect;
    c.rule = Tolerance::kNotOpposite;
    c.why =
        "a knob's effect on this kernel is no model's: fio's measurement is the reference; helps >= 1.25x, "
        "hurts <= 0.8x (the loaded phase's spread between runs), agreeing unless opposite";
    out.push_back(c);
  }
  return out;
}

std::vector<std::string> interfere_args(const InterfereSetup& setup) {
  std::string threads;
  for (const std::uint32_t t : setup.threads) threads += (threads.empty() ? "" : ",") + std::to_string(t);
  // Every phase shares the budget equally: idle, loaded and the knob's trial, per thread count.
  const int budget = setup.phase_seconds * 3 * static_cast<int>(setup.threads.size());
  return {"interfere",
          "--filename={dir}/fg",
          "--threads=" + threads,
          "--budget=" + std::to_string(budget) + "s",
          "--set=" + settings_text(setup.base),
          "--try=" + knob_text(setup),
          "--output-format=json"};
}

std::vector<std::string> fio_layout_args(const std::string& dir) {
  // Written, as sluice lays out its file: fio would only fallocate a file for writes, and the first write to each
  // unwritten extent then converts it in the journal (fio measured 275 IOPS idle where sluice measured 683).
  return {"--output-format=json", "--name=layout", "--filename=" + dir + "/fio-fg",
          "--size=256m",          "--rw=write",    "--bs=1m",
          "--end_fsync=1"};
}

std::vector<std::string> fio_phase_args(const InterfereSetup& setup, std::uint32_t threads, const std::string& dir,
                                        std::uint64_t bg_bytes, std::uint64_t bg_bs, const std::string& tag) {
  std::vector<std::string> args = {"--output-format=json",
                                   "--description=selftest interfere " + tag,
                                   "--name=fg",
                                   "--filename=" + dir + "/fio-fg",
                                   "--size=256m",
                                   "--rw=randwrite",
                                   "--bs=16k",
                                   "--fsync=1",
                                   "--ioengine=psync",
                                   "--numjobs=" + std::to_string(threads),
                                   "--time_based",
                                   "--runtime=" + std::to_string(setup.phase_seconds)};
  if (bg_bytes > 0) {
    // As sluice's background job: it writes its file over and over while the foreground runs (an unlinked file's
    // dirty pages are dropped, not written: a writer that ended early would take its flood with it).
    const std::vector<std::string> bg = {"--name=bg",
                                         "--filename=" + dir + "/fio-bg",
                                         "--size=" + std::to_string(bg_bytes),
                                         "--rw=write",
                                         "--bs=" + std::to_string(bg_bs),
                                         "--ioengine=psync",
                                         "--zero_buffers",
                                         "--create_on_open=1",
                                         "--time_based",
                                         "--runtime=" + std::to_string(setup.phase_seconds),
                                         "--unlink=1",
                                         "--numjobs=1"};
    args.insert(args.end(), bg.begin(), bg.end());
  }
  return args;
}

std::optional<std::pair<std::uint64_t, std::uint64_t>> interfere_background(const nlohmann::json& doc,
                                                                            std::string& why) {
  const nlohmann::json* section = interference(doc, why);
  if (section == nullptr) return std::nullopt;
  const nlohmann::json bg = field_or(*section, "background", nullptr);
  const nlohmann::json size = field_or(bg, "size", nullptr);
  const nlohmann::json bs = field_or(bg, "bs", nullptr);
  if (!size.is_number_unsigned() || !bs.is_number_unsigned()) {
    why = "the result has no sluice.interference.background size and bs";
    return std::nullopt;
  }
  return std::make_pair(size.get<std::uint64_t>(), bs.get<std::uint64_t>());
}

std::optional<double> interfere_slowdown(const nlohmann::json& doc, std::uint32_t threads, std::string& why) {
  const nlohmann::json* section = interference(doc, why);
  if (section == nullptr) return std::nullopt;
  double idle_s = 0;
  double loaded_s = 0;
  const std::optional<double> idle = phase_iops(*section, "idle", threads, idle_s);
  const std::optional<double> loaded = phase_iops(*section, "loaded", threads, loaded_s);
  if (!idle || !loaded || *idle <= 0) {
    why = fmt::format("the result has no idle and loaded phases with {} thread(s)", threads);
    return std::nullopt;
  }
  // Starved: not one write in the phase; at most one write per phase, a lower bound of the slowdown.
  return *loaded > 0 ? *idle / *loaded : *idle * loaded_s;
}

std::optional<double> interfere_knob_ratio(const nlohmann::json& doc, std::uint32_t threads, std::string& why) {
  const nlohmann::json* section = interference(doc, why);
  if (section == nullptr) return std::nullopt;
  const std::optional<double> baseline = trial_iops(*section, true, threads);
  const std::optional<double> trial = trial_iops(*section, false, threads);
  if (!baseline || !trial || *baseline <= 0) {
    why = fmt::format("the result has no knob trial with {} thread(s) beside its baseline (not root?)", threads);
    return std::nullopt;
  }
  return *trial / *baseline;
}

std::optional<double> fio_foreground_iops(const nlohmann::json& doc, std::string& why) {
  double sum = 0;
  bool found = false;
  for (const nlohmann::json& job : field_or(doc, "jobs", nlohmann::json::array())) {
    if (text_or(job, "jobname", "") != "fg") continue;
    if (field_or(job, "error", 0).get<int>() != 0) {
      why = "fio's foreground job failed (error " + field_or(job, "error", 0).dump() + ")";
      return std::nullopt;
    }
    sum += field_or(field_or(job, "write", nullptr), "iops", 0.0).get<double>();
    found = true;
  }
  if (!found) {
    why = "fio's result has no job fg";
    return std::nullopt;
  }
  return sum;
}

int knob_direction(double ratio) {
  if (ratio >= kHelps) return 1;
  if (ratio <= kHurts) return -1;
  return 0;
}

}  // namespace sluice
