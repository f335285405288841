#pragma once
// The process-wide stop request: set by SIGINT / SIGTERM / SIGHUP (first one: stop at once and report what was
// measured; a second one: default action) or by the runner itself. Workers poll it once per loop turn.
#include <atomic>

namespace sluice {

// Installs the SIGINT/SIGTERM/SIGHUP handlers (idempotent).
void install_stop_signal_handlers();
// True once a stop was requested. Cheap: one relaxed atomic load.
bool stop_requested() noexcept;
// Which signal asked for the stop (0 if none or requested internally).
int stop_signal_number() noexcept;
void request_stop() noexcept;
// A stop asked for by fio's trigger (--trigger-file, --trigger-timeout, a client's VTRIGGER): the jobs end as
// for any stop, but the run is not "interrupted" (fio's trigger ends its jobs and exits 0).
void request_trigger_stop() noexcept;
// True when the stop came from the trigger (and no signal came first).
bool stopped_by_trigger() noexcept;
// For tests and for a runner that runs several plans in one process.
void clear_stop_request() noexcept;

}  // namespace sluice
