#include "common/stop_signal.h"

#include <csignal>

namespace sluice {
namespace {

std::atomic<bool> g_stop{false};
std::atomic<int> g_signal{0};
std::atomic<bool> g_trigger{false};

extern "C" void on_stop_signal(int signal_number) {
  if (g_stop.load(std::memory_order_relaxed)) {
    // Second signal: the user means it. Restore the default action and re-raise.
    std::signal(signal_number, SIG_DFL);
    std::raise(signal_number);
    return;
  }
  g_signal.store(signal_number, std::memory_order_relaxed);
  g_stop.store(true, std::memory_order_relaxed);
}

}  // namespace

void install_stop_signal_handlers() {
  struct sigaction action {};
  action.sa_handler = on_stop_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = 0;  // no SA_RESTART: blocking calls return EINTR so waits end promptly
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
  sigaction(SIGHUP, &action, nullptr);  // a closed terminal or ssh session: stop and clean up as for SIGTERM
}

bool stop_requested() noexcept { return g_stop.load(std::memory_order_relaxed); }
int stop_signal_number() noexcept { return g_signal.load(std::memory_order_relaxed); }
void request_stop() noexcept { g_stop.store(true, std::memory_order_relaxed); }
void request_trigger_stop() noexcept {
  if (!g_stop.load(std::memory_order_relaxed)) g_trigger.store(true, std::memory_order_relaxed);
  g_stop.store(true, std::memory_order_relaxed);
}
bool stopped_by_trigger() noexcept { return g_trigger.load(std::memory_order_relaxed); }
void clear_stop_request() noexcept {
  g_stop.store(false, std::memory_order_relaxed);
  g_trigger.store(false, std::memory_order_relaxed);
  g_signal.store(0, std::memory_order_relaxed);
}

}  // namespace sluice
