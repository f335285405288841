#!/usr/bin/python3
"""Messages per minute of Debian's postal and `sluice smtp`, taking turns against the same local SMTP sink.

The sink is aiosmtpd (python3-aiosmtpd) run in this process with a handler that counts and discards, on a
free port of 127.0.0.1. Each round runs postal for --seconds (it sends until killed; its own report comes once
a minute, so the sink's count is the common measure) and `sluice smtp --duration` with the same connections,
messages per connection, size range and user list, alternating which goes first, and prints messages/minute
seen by the sink for both, sluice's own figure, and the median of the per-round ratios sluice/postal.

Usage: bench/vs_postal.py [--sluice build/sluice] [--rounds 3] [--seconds 10] [--threads 4]
                          [--per-connection 1] [--max-kb 10]
"""
import argparse
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
    def __init__(self):
        self.lock = threading.Lock()
        self.messages = 0

    async def handle_DATA(self, server, session, envelope):
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


def run_postal(args, port, users):
    cmd = ["postal", "-t", str(args.threads), "-c", str(args.per_connection), "-m", str(args.max_kb), "-M", "0",
           f"[127.0.0.1]{port}", users]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(args.seconds)
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def run_sluice(args, port, users):
    cmd = [args.sluice, "smtp", f"--server=127.0.0.1:{port}", f"--parallel={args.threads}",
           f"--per-connection={args.per_connection}", f"--size=0-{args.max_kb}k", f"--to-file={users}",
           f"--from-file={users}", f"--duration={args.seconds}s", "--output-format=json"]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return json.loads(out)["sluice"]["smtp"]


def measured(sink, run):
    before = sink.count()
    start = time.monotonic()
    extra = run()
    elapsed = time.monotonic() - start
    # Let messages in flight at the end reach the counter.
    time.sleep(0.2)
    return (sink.count() - before) * 60.0 / elapsed, extra


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--sluice", default=os.path.join(os.path.dirname(__file__), "..", "build", "sluice"))
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--seconds", type=int, default=10)
    p.add_argument("--threads", type=int, default=4)
    p.add_argument("--per-connection", type=int, default=1)
    p.add_argument("--max-kb", type=int, default=10)
    args = p.parse_args()

    sink = CountingSink()
    port = free_port()
    controller = Controller(sink, hostname="127.0.0.1", port=port)
    controller.start()
    ratios = []
    with tempfile.NamedTemporaryFile("w", suffix=".users", delete=False) as f:
        f.write("".join(f"user{i}@example.com\n" for i in range(1000)))
        users = f.name
    try:
        print(f"sink 127.0.0.1:{port}; {args.threads} connections, {args.per_connection} message(s) per connection, "
              f"bodies 0-{args.max_kb} KiB, {args.seconds} s a run")
        print(f"{'round':>5} {'postal msg/min':>15} {'sluice msg/min':>15} {'sluice own':>11} {'ratio':>6}")
        for r in range(args.rounds):
            order = ["postal", "sluice"] if r % 2 == 0 else ["sluice", "postal"]
            got = {}
            for tool in order:
                if tool == "postal":
                    got[tool], _ = measured(sink, lambda: run_postal(args, port, users))
                else:
                    got[tool], got["own"] = measured(sink, lambda: run_sluice(args, port, users))
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
