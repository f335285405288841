#include "method/interfere_advice.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace sluice {
namespace {

constexpr double kHelpRatio = 1.25;
constexpr double kHurtRatio = 0.8;
constexpr double kP99Slack = 1.1;
constexpr double kAdviceMiB = 1048576.0;

std::string advice_rate(double bps) { return fmt::format("{:.0f} MiB/s", bps / kAdviceMiB); }

std::string summary_verdict(const TrialSummary& s) {
  const std::string ratio = s.iops_ratio > 0 ? fmt::format(" ({:.2f}x the baseline's IOPS)", s.iops_ratio) : "";
  if (s.recommended()) return fmt::format("helped in {} of {} runs{}", s.helped, s.runs, ratio);
  if (s.runs == 1 && s.helped == 1) return fmt::format("a one-off: helped in its only run{}", ratio);
  if (s.helped > 0) return fmt::format("inconsistent: helped in {} of {} runs{}", s.helped, s.runs, ratio);
  if (s.hurt > 0) return fmt::format("hurt in {} of {} runs{}", s.hurt, s.runs, ratio);
  return fmt::format("no marked change in {} run{}{}", s.runs, s.runs == 1 ? "" : "s", ratio);
}

std::string journal_text(const Observed& o) {
  if (o.filesystem == "ext4") {
    if (o.mount_options.find("data=writeback") != std::string::npos) {
      return "ext4 with data=writeback: an fsync commits the journal without first flushing other files' data, so "
             "it waits only for its own writes behind the device's queue.\n";
    }
    return "On ext4 with data=ordered (the default), an fsync forces a journal commit, and the commit first waits "
           "for the data of every file whose blocks the transaction allocated: that includes the flood's pages under "
           "writeback, so one fsync can wait for a large part of the backlog.\n";
  }
  if (o.filesystem.empty()) return "";
  return fmt::format(
      "On {}, an fsync waits for its own data and the filesystem's log, queued on the device behind "
      "the writeback already sent.\n",
      o.filesystem);
}

std::string queue_text(const QueueState& q) {
  std::string t;
  if (q.wbt_lat_usec == "0") {
    t += "Writeback throttling (WBT) is off: nothing limits how much of the flood's writeback the device queue "
         "holds ahead of the fsync's writes.\n";
  } else if (!q.wbt_lat_usec.empty()) {
    t += fmt::format(
        "Writeback throttling (WBT) is on ({} us target): the kernel scales back buffered writeback "
        "when the device's sync writes take longer than that (bfq turns it off while active).\n",
        q.wbt_lat_usec);
  }
  if (q.scheduler == "none") {
    t += "The scheduler is none: requests reach the device in arrival order, so the fsync's writes wait behind the "
         "writeback queued before them.\n";
  } else if (q.scheduler == "mq-deadline") {
    t += "The scheduler is mq-deadline: writes, the fsync's and writeback's alike, share one deadline queue.\n";
  } else if (q.scheduler == "bfq") {
    t += "The scheduler is bfq: each process has its own queue, which favours the synchronous writer over the "
         "flood's writeback.\n";
  } else if (!q.scheduler.empty()) {
    t += fmt::format("The scheduler is {}.\n", q.scheduler);
  }
  return t;
}

std::string mechanism_text(const Observed& o) {
  std::string t;
  if (o.flooded) {
    t += fmt::format(
        "The flood reached the kernel's throttle point and stayed there {:.0f} s of the {:.0f} s phase: "
        "the writer was throttled (balance_dirty_pages) and writeback ran flat out, with up to {:.0f} MiB "
        "under writeback at once and the device's queue averaging up to {:.1f} requests.\n",
        o.seconds_at_limit, o.phase_seconds, static_cast<double>(o.peak_writeback_bytes) / kAdviceMiB,
        o.peak_device_queue);
  } else {
    t += "The flood was not verified (see above): what follows is what this run saw, not interference at the dirty "
         "limit.\n";
    if ((o.starved || o.slowdown >= 1.5) && o.device_bps < 0.25 * o.writer_bps) {
      t += fmt::format(
          "Even so the foreground was slowed, while the device wrote only {} (the writers {}): the "
          "flood competed mostly for the CPU and the filesystem (the writers' copies into the page "
          "cache, the journal), not for the device.\n",
          advice_rate(o.device_bps), advice_rate(o.writer_bps));
    } else if (o.starved || o.slowdown >= 1.5) {
      t += "Even so the foreground was slowed: below the dirty limit the device already wrote part of the flood "
           "(background writeback, and the data the fsyncs' journal commits wait for); a flood held at the limit "
           "would be at least as bad.\n";
    }
  }
  t += journal_text(o);
  t += queue_text(o.queue);
  // The slowdown itself is the explanation's last line (interfere_explain.h); it cannot say "starved".
  if (o.starved) t += "Result: the foreground was starved (no write completed in a loaded phase).\n";
  return t;
}

// The auto set not tried yet, the ones the observation points at first.
std::vector<std::string> next_knobs(const Observed& o, const std::vector<std::string>& tried) {
  std::vector<std::string> next;
  for (const std::vector<KnobSetting>& trial : auto_trials(o.limits, o.queue)) {
    const std::string text = trial_text(trial);
    if (std::find(tried.begin(), tried.end(), text) == tried.end()) next.push_back(text);
  }
  const auto first = [&o](const std::string& t) {
    if (o.queue.wbt_lat_usec == "0" && t.rfind("queue.wbt_lat_usec", 0) == 0) return true;
    return o.queue.scheduler == "none" && t == "queue.scheduler=bfq";
  };
  std::stable_partition(next.begin(), next.end(), first);
  return next;
}

std::string next_text(const std::vector<std::string>& next) {
  if (next.empty()) return "Every knob of --try=auto was tried.\n";
  std::string t = "Next to try:";
  for (const std::string& n : next) t += " --try " + n;
  return t + " (or --try=auto for the whole set).\n";
}

std::string recommendation_text(const Observed& o, const std::vector<TrialSummary>& trials,
                                const std::vector<std::string>& next, Advice& a) {
  if (trials.empty()) return "No knob was tried. " + next_text(next);
  std::string t;
  if (!o.flooded) {
    t += "No recommendation: the loaded phase did not flood, so the trials do not test writeback interference.\n";
  } else if (!o.starved && o.slowdown > 0 && o.slowdown < 1.5) {
    t += "No recommendation: the flood did not slow the foreground markedly, so there is nothing to fix here.\n";
  }
  const TrialSummary* best = nullptr;
  for (const TrialSummary& s : trials) {
    if (s.recommended() && (!best || s.iops_ratio > best->iops_ratio)) best = &s;
  }
  if (t.empty() && best) {
    a.recommended = true;
    a.best = best->settings;
    const double cost = best->base_bg_bps > 0 ? 1 - best->trial_bg_bps / best->base_bg_bps : 0;
    t += fmt::format(
        "Recommendation: {}. The fsync'd writes ran {:.2f}x as fast beside the flood in {} of {} runs; "
        "it {} the copy's throughput {:.0f}% ({} -> {}).\n",
        trial_text(best->settings), best->iops_ratio, best->helped, best->runs, cost >= 0 ? "costs" : "raises",
        std::abs(cost) * 100, advice_rate(best->base_bg_bps), advice_rate(best->trial_bg_bps));
  } else if (t.empty()) {
    t += "No tried knob helped repeatably:";
    for (const TrialSummary& s : trials) t += " " + trial_text(s.settings) + " " + s.verdict + ";";
    t.back() = '.';
    t += "\n";
  }
  for (const TrialSummary& s : trials) {
    if (s.runs == 1 && s.helped == 1) {
      t += fmt::format("{} helped once: a one-off, not a recommendation; repeat it (two or more --threads counts).\n",
                       trial_text(s.settings));
    }
  }
  if (!a.recommended) t += next_text(next);
  return t;
}

}  // namespace

TrialEffect judge_run(const TrialRun& r) {
  if (r.trial_iops <= 0) return r.base_iops > 0 ? TrialEffect::kHurt : TrialEffect::kNoChange;
  if (r.base_iops <= 0) return TrialEffect::kHelped;
  const double ratio = r.trial_iops / r.base_iops;
  if (ratio >= kHelpRatio &&
      static_cast<double>(r.trial_fsync_p99_ns) <= static_cast<double>(r.base_fsync_p99_ns) * kP99Slack) {
    return TrialEffect::kHelped;
  }
  return ratio <= kHurtRatio ? TrialEffect::kHurt : TrialEffect::kNoChange;
}

std::vector<TrialSummary> summarize_trials(const std::vector<TrialRun>& runs) {
  std::vector<TrialSummary> out;
  std::vector<std::pair<double, int>> logs;  // sum of log ratios, count
  for (const TrialRun& r : runs) {
    auto it = std::find_if(out.begin(), out.end(), [&r](const TrialSummary& s) { return s.settings == r.settings; });
    if (it == out.end()) {
      it = out.insert(out.end(), TrialSummary{});
      it->settings = r.settings;
      logs.emplace_back(0.0, 0);
    }
    auto& [log_sum, log_count] = logs[static_cast<std::size_t>(it - out.begin())];
    const TrialEffect e = judge_run(r);
    it->runs++;
    it->helped += e == TrialEffect::kHelped;
    it->hurt += e == TrialEffect::kHurt;
    it->base_bg_bps += r.base_bg_bps;
    it->trial_bg_bps += r.trial_bg_bps;
    if (r.base_iops > 0 && r.trial_iops > 0) {
      log_sum += std::log(r.trial_iops / r.base_iops);
      log_count++;
    }
  }
  for (std::size_t i = 0; i < out.size(); ++i) {
    TrialSummary& s = out[i];
    s.base_bg_bps /= s.runs;
    s.trial_bg_bps /= s.runs;
    s.iops_ratio = logs[i].second ? std::exp(logs[i].first / logs[i].second) : 0;
    s.verdict = summary_verdict(s);
  }
  return out;
}

Advice advise(const Observed& observed, const std::vector<TrialRun>& runs, const std::vector<std::string>& tried) {
  Advice a;
  a.trials = summarize_trials(runs);
  a.mechanism = mechanism_text(observed);
  a.next_to_try = next_knobs(observed, tried);
  a.recommendation = recommendation_text(observed, a.trials, a.next_to_try, a);
  return a;
}

nlohmann::json advice_json(const Advice& a) {
  nlohmann::json trials = nlohmann::json::array();
  for (const TrialSummary& s : a.trials) {
    trials.push_back({{"settings", trial_text(s.settings)},
                      {"runs", s.runs},
                      {"helped", s.helped},
                      {"hurt", s.hurt},
                      {"iops_ratio", s.iops_ratio},
                      {"bg_bw_bytes_baseline", s.base_bg_bps},
                      {"bg_bw_bytes", s.trial_bg_bps},
                      {"recommended", s.recommended()},
                      {"verdict", s.verdict}});
  }
  return {{"mechanism", a.mechanism},
          {"recommendation", a.recommendation},
          {"recommended", a.recommended ? nlohmann::json(trial_text(a.best)) : nlohmann::json(nullptr)},
          {"trials", trials},
          {"next_to_try", a.next_to_try}};
}

}  // namespace sluice
