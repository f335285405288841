#pragma once
// fio's triggers (--trigger-file, --trigger-timeout, --trigger, --trigger-remote), used for power-cut tests: when
// the trigger file appears (it is removed, as fio removes it) or the time since the start passes, every job stops
// and a command runs (a local run: --trigger's; a client: its servers are sent --trigger-remote's, and each
// server's answer runs --trigger's on the client; a server: the command its client sent).
#include <atomic>
#include <chrono>
#include <optional>
#include <string>
#include <thread>

namespace sluice {

struct TriggerSettings {
  std::string file;                                 // its appearance fires the trigger
  std::optional<std::chrono::nanoseconds> timeout;  // fires this long after `genesis`
  std::string command;                              // run where the trigger fires (local run, client)
  std::string remote_command;                       // sent to the servers by a client
  bool armed() const noexcept { return !file.empty() || timeout.has_value(); }
};

// Decides when the trigger fires. Not thread-safe: one caller polls it (fio checks about every 100 ms).
class TriggerClock {
 public:
  TriggerClock(TriggerSettings settings, std::chrono::steady_clock::time_point genesis)
      : settings_(std::move(settings)), genesis_(genesis) {}
  // True once for each cause, as fio's check_trigger_file: when the trigger file exists (then it is removed; a
  // removal that fails is reported on stderr) or when the timeout has passed (then it is spent).
  bool due(std::chrono::steady_clock::time_point now);
  const TriggerSettings& settings() const noexcept { return settings_; }

 private:
  TriggerSettings settings_;
  std::chrono::steady_clock::time_point genesis_;
};

// Runs `command` with /bin/sh -c (fio's exec_trigger: system(3)) and waits for it; an empty command does
// nothing. Returns "" on exit status 0, else a line saying what happened. Never throws.
std::string run_trigger_command(const std::string& command);

// A local run's trigger: a thread that polls every 100 ms from construction to destruction; when the trigger
// fires it stops every job (request_trigger_stop: the run ends as fio's, not "interrupted") and runs the
// command. What it did is kept for the report (note()).
class LocalTrigger {
 public:
  LocalTrigger(TriggerSettings settings, std::chrono::steady_clock::time_point genesis);
  ~LocalTrigger();
  LocalTrigger(const LocalTrigger&) = delete;
  LocalTrigger& operator=(const LocalTrigger&) = delete;
  // After the run: stops watching (waits for the trigger's command if it is running) and returns "" if the
  // trigger did not fire, else what it did ("the trigger fired ...").
  std::string note();

 private:
  void watch();
  TriggerClock clock_;
  std::chrono::steady_clock::time_point genesis_;
  std::atomic<bool> done_{false};
  std::atomic<bool> fired_{false};
  std::string note_;  // written by the thread before fired_ turns true
  std::thread thread_;
};

}  // namespace sluice
