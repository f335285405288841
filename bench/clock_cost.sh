#!/bin/sh
# What one clock read costs on this machine: rdtsc (sluice's clock, and fio's clocksource=cpu), rdtscp and
# clock_gettime(CLOCK_MONOTONIC) through the vDSO, each read back to back 20 million times on one CPU, timed in
# the thread's CPU time (other work on a shared machine does not count).
# On a VM the TSC read is the floor of the null engine's time per io: sluice reads the clock twice per io,
# fio 3.33 five times (bench/README.md, "Null engine and io_uring CPU, 2026-12-04").
# usage: bench/clock_cost.sh [CPU]      (x86-64, needs g++)
set -eu
cpu=${1:-0}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cat > "$dir/clock_cost.cpp" <<'CPP'
#include <x86intrin.h>
#include <time.h>
#include <cstdint>
#include <cstdio>
static std::uint64_t read_ns(clockid_t clock) {
  timespec t;
  clock_gettime(clock, &t);
  return std::uint64_t(t.tv_sec) * 1000000000ull + std::uint64_t(t.tv_nsec);
}
static std::uint64_t now_ns() { return read_ns(CLOCK_MONOTONIC); }
// CPU time of this thread: a shared machine's other work does not count.
static std::uint64_t cpu_ns() { return read_ns(CLOCK_THREAD_CPUTIME_ID); }
template <typename Read>
static void measure(const char* name, Read read) {
  constexpr int kReads = 20000000;
  std::uint64_t sum = 0;
  const std::uint64_t begin = cpu_ns();
  for (int i = 0; i < kReads; ++i) sum += read();
  const std::uint64_t end = cpu_ns();
  std::printf("%-14s %6.2f ns of CPU per read (checksum %llu)\n", name, double(end - begin) / kReads,
              (unsigned long long)(sum & 1));
}
int main() {
  measure("rdtsc", [] { return __rdtsc(); });
  measure("rdtscp", [] { unsigned aux; return __rdtscp(&aux); });
  measure("clock_gettime", [] { return now_ns(); });
}
CPP
g++ -O2 -o "$dir/clock_cost" "$dir/clock_cost.cpp"
echo "clocksource: $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null || echo ?)"
taskset -c "$cpu" "$dir/clock_cost"
