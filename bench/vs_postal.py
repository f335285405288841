#!/usr/bin/python3
"""Messages per minute of Debian's postal and `sluice smtp`, taking turns against the same local SMTP sink.

The sink is aiosmtpd (python3-aiosmtpd) run in this process with a handler that counts and discards (after
--delay-ms, a server's time to accept a message), on a free port of 127.0.0.1. Each round runs postal for
--seconds and `sluice smtp --duration` with the same connections, messages per connection, size range and user
list, alternating which goes first, and prints messages/minute seen by the sink for both, sluice's own figure,
and the median of the per-round ratios sluice/postal.

Three properties of postal 0.76 shape the comparison (see bench/README.md):
- On SIGINT it stops sending but does not exit; its window therefore ends when the signal is sent (the sink's
  count is read then), not when the process is finally killed.
- It cannot exceed 2048 messages per 5 s (24,576/minute) whatever -r says: its rate limiter hands 2048 tokens
  to its threads every 5 s. Against a sink faster than that, postal measures its own limiter.
- It leaves Nagle's algorithm on and ends each message with a separate small write, so on loopback every
  message waits for the receiver's delayed ACK (~40 ms). --quickack runs the whole comparison in a fresh
  network namespace whose loopback routes carry `quickack 1`, which removes that stall.

Usage: bench/vs_postal.py [--sluice build/sluice] [--rounds 3] [--seconds 10] [--threads 4]
                          [--per-connection 1] [--max-kb 10] [--delay-ms 0] [--quickack]
"""
import argparse
import asyncio
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

from aiosmtpd.controller import Controller


class CountingSink:
    def __init__(self, delay_s=0.0):
        self.lock = threading.Lock()
        self.messages = 0
        self.delay_s = delay_s

    async def handle_DATA(self, server, session, envelope):
        if self.delay_s > 0:
            await asyncio.sleep(self.delay_s)
        with self.lock:
            self.messages += 1
        return "250 OK"

    def count(self):
        with self.lock:
            return self.messages


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run_postal(args, port, users, sink):
    """Runs postal for --seconds; returns (messages the sink saw, seconds) up to the SIGINT."""
    cmd = ["postal", "-t", str(args.threads), "-c", str(args.per_connection), "-m", str(args.max_kb), "-M", "0",
           f"[127.0.0.1]{port}", users]
    before = sink.count()
    start = time.monotonic()
    # postal writes postal.log into its working directory: a temporary one, not the caller's.
    with tempfile.TemporaryDirectory() as workdir:
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=workdir)
        time.sleep(args.seconds)
        return stop_postal(proc, sink, before, start)


def stop_postal(proc, sink, before, start):
    """Sends postal SIGINT and returns (messages the sink saw since `before`, seconds since `start`)."""
    proc.send_signal(signal.SIGINT)
    # postal stops sending on SIGINT; let the messages in flight reach the counter, then end the window.
    time.sleep(0.2)
    counted, elapsed = sink.count() - before, time.monotonic() - start
    try:
        proc.wait(timeout=2)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    return counted, elapsed


def run_sluice(args, port, users):
    cmd = [args.sluice, "smtp", f"--server=127.0.0.1:{port}", f"--parallel={args.threads}",
           f"--per-connection={args.per_connection}", f"--size=0-{args.max_kb}k", f"--to-file={users}",
           f"--from-file={users}", f"--duration={args.seconds}s", "--output-format=json"]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return json.loads(out)["sluice"]["smtp"]


def measured_sluice(args, port, users, sink):
    before = sink.count()
    start = time.monotonic()
    own = run_sluice(args, port, users)
    elapsed = time.monotonic() - start
    # Let messages in flight at the end reach the counter.
    time.sleep(0.2)
    return (sink.count() - before) * 60.0 / elapsed, own


def quickack_namespace_exec():
    """Re-runs this script inside a new network namespace whose loopback has no delayed ACK."""
    ns = f"sluice-postal-{os.getpid()}"
    subprocess.run(["ip", "netns", "add", ns], check=True)
    try:
        for cmd in (["ip", "link", "set", "lo", "up"],
                    ["ip", "route", "replace", "local", "127.0.0.0/8", "dev", "lo", "table", "local", "quickack", "1"],
                    ["ip", "route", "replace", "local", "127.0.0.1", "dev", "lo", "table", "local", "quickack", "1"]):
            subprocess.run(["ip", "netns", "exec", ns] + cmd, check=True)
        argv = [a for a in sys.argv if a != "--quickack"]
        return subprocess.run(["ip", "netns", "exec", ns, sys.executable] + argv).returncode
    finally:
        subprocess.run(["ip", "netns", "del", ns])


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--sluice", default=os.path.join(os.path.dirname(__file__), "..", "build", "sluice"))
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--seconds", type=int, default=10)
    p.add_argument("--threads", type=int, default=4)
    p.add_argument("--per-connection", type=int, default=1)
    p.add_argument("--max-kb", type=int, default=10)
    p.add_argument("--delay-ms", type=float, default=0.0, help="the sink's time to accept each message")
    p.add_argument("--quickack", action="store_true", help="run in a network namespace without delayed ACK")
    args = p.parse_args()
    if args.quickack:
        return quickack_namespace_exec()

    sink = CountingSink(args.delay_ms / 1000.0)
    port = free_port()
    controller = Controller(sink, hostname="127.0.0.1", port=port)
    controller.start()
    ratios = []
    with tempfile.NamedTemporaryFile("w", suffix=".users", delete=False) as f:
        f.write("".join(f"user{i}@example.com\n" for i in range(1000)))
        users = f.name
    try:
        print(f"sink 127.0.0.1:{port}; {args.threads} connections, {args.per_connection} message(s) per connection, "
              f"bodies 0-{args.max_kb} KiB, {args.seconds} s a run, sink delay {args.delay_ms:g} ms")
        print(f"{'round':>5} {'postal msg/min':>15} {'sluice msg/min':>15} {'sluice own':>11} {'ratio':>6}")
        for r in range(args.rounds):
            order = ["postal", "sluice"] if r % 2 == 0 else ["sluice", "postal"]
            got = {}
            for tool in order:
                if tool == "postal":
                    counted, elapsed = run_postal(args, port, users, sink)
                    got[tool] = counted * 60.0 / elapsed
                else:
                    got[tool], got["own"] = measured_sluice(args, port, users, sink)
            ratio = got["sluice"] / got["postal"] if got["postal"] else float("nan")
            ratios.append(ratio)
            print(f"{r + 1:>5} {got['postal']:>15.0f} {got['sluice']:>15.0f} "
                  f"{got['own']['messages_per_minute']:>11.0f} {ratio:>6.3f}")
        print(f"median ratio sluice/postal: {statistics.median(ratios):.3f}")
    finally:
        controller.stop()
        os.unlink(users)
    return 0


if __name__ == "__main__":
    sys.exit(main())
