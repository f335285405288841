#!/usr/bin/env python3
"""sluice http against wrk (and ab for http_load-style numbers) on the same local nginx.

Starts Debian's nginx on a free 127.0.0.1 port with a config in a temp dir serving a file of --size bytes,
then for each connection count runs wrk and `sluice http` alternately (--rounds times each, --seconds each)
and prints requests/s of each, the ratio sluice/wrk, and CPU microseconds per request of each client process
(user+sys from os.wait4's rusage). Then ab at the first concurrency for the http_load-style block.
Usage: bench/vs_wrk.py [--connections 10,100,1000] [--seconds 5] [--rounds 2] [--size 4096] [--threads 1]
"""
import argparse, json, os, re, shutil, socket, statistics, subprocess, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def start_nginx(tmp, size, workers):
    www = os.path.join(tmp, "www")
    os.makedirs(www)
    with open(os.path.join(www, "f.bin"), "wb") as f:
        f.write(b"x" * size)
    port = free_port()
    conf = os.path.join(tmp, "nginx.conf")
    with open(conf, "w") as f:
        f.write(("user root;\n" if os.geteuid() == 0 else "") +
                f"worker_processes {workers};\ndaemon off;\npid {tmp}/nginx.pid;\nerror_log {tmp}/error.log;\n"
                "worker_rlimit_nofile 8192;\nevents { worker_connections 8192; }\n"
                f"http {{ access_log off; keepalive_requests 10000000; client_body_temp_path {tmp}/b; "
                f"proxy_temp_path {tmp}/p; fastcgi_temp_path {tmp}/f; uwsgi_temp_path {tmp}/u; scgi_temp_path {tmp}/s; "
                f"server {{ listen 127.0.0.1:{port} backlog=4096; root {www}; location / {{ }} }} }}\n")
    proc = subprocess.Popen(["nginx", "-p", tmp, "-c", conf, "-e", f"{tmp}/error.log"])
    for _ in range(500):
        try:
            socket.create_connection(("127.0.0.1", port), 0.1).close()
            return proc, f"http://127.0.0.1:{port}/f.bin"
        except OSError:
            time.sleep(0.01)
    proc.kill()
    raise SystemExit("nginx did not start")


def cpu_of(cmd):
    """Runs cmd with its rusage: (stdout, user+sys seconds)."""
    pid = os.fork()
    if pid == 0:
        fd = os.open(out_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
        os.dup2(fd, 1)
        os.dup2(os.open(os.devnull, os.O_WRONLY), 2)
        os.execvp(cmd[0], cmd)
    _, status, ru = os.wait4(pid, 0)
    with open(out_path) as f:
        out = f.read()
    return out, ru.ru_utime + ru.ru_stime, os.waitstatus_to_exitcode(status)


def wrk_rps(out):
    m = re.search(r"Requests/sec:\s+([\d.]+)", out)
    return float(m.group(1)) if m else 0.0


def wrk_requests(out):
    m = re.search(r"(\d+) requests in", out)
    return int(m.group(1)) if m else 0


def main():
    global out_path
    ap = argparse.ArgumentParser()
    ap.add_argument("--connections", default="10,100,1000")
    ap.add_argument("--seconds", type=int, default=5)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--size", type=int, default=4096)
    ap.add_argument("--threads", type=int, default=1, help="client threads of both wrk and sluice")
    ap.add_argument("--nginx-workers", type=int, default=1)
    ap.add_argument("--sluice", default=os.path.join(ROOT, "build", "sluice"))
    a = ap.parse_args()
    for tool in ("nginx", "wrk", "ab"):
        if not shutil.which(tool):
            raise SystemExit(f"{tool} is not installed (scripts/install-deps.sh --with-peers)")
    tmp = tempfile.mkdtemp(prefix="sluice-vs-wrk-")
    out_path = os.path.join(tmp, "out")
    nginx, url = start_nginx(tmp, a.size, a.nginx_workers)
    try:
        print(f"{'conns':>6} {'round':>5} {'wrk req/s':>11} {'sluice req/s':>13} {'ratio':>6} "
              f"{'wrk us/req':>10} {'sluice us/req':>13} {'sluice p99 ms':>13}")
        for c in [int(x) for x in a.connections.split(",")]:
            ratios = []
            for r in range(a.rounds):
                wout, wcpu, _ = cpu_of(["wrk", f"-t{a.threads}", f"-c{c}", f"-d{a.seconds}s", url])
                sout, scpu, _ = cpu_of([a.sluice, "http", f"--url={url}", f"--parallel={c}", f"--threads={a.threads}",
                                        f"--duration={a.seconds}s", "--output-format=json"])
                h = json.loads(sout)["sluice"]["http"]
                w, s = wrk_rps(wout), h["requests_per_s"]
                ratios.append(s / w if w else 0)
                wreq = max(wrk_requests(wout), 1)
                print(f"{c:>6} {r + 1:>5} {w:>11.0f} {s:>13.0f} {s / w if w else 0:>6.2f} {wcpu * 1e6 / wreq:>10.2f} "
                      f"{scpu * 1e6 / max(h['fetches'], 1):>13.2f} {h['latency_ns']['percentile']['99.000000'] / 1e6:>13.3f}"
                      f"{'  errors ' + str(h['errors']['total']) if h['errors']['total'] else ''}")
            print(f"{c:>6} median ratio sluice/wrk {statistics.median(ratios):.2f}")
        c0 = int(a.connections.split(",")[0])
        n = 20000
        aout, acpu, _ = cpu_of(["ab", "-k", "-q", "-n", str(n), "-c", str(c0), url])
        sout, scpu, _ = cpu_of([a.sluice, "http", f"--url={url}", f"--parallel={c0}", f"--fetches={n}"])
        m = re.search(r"Requests per second:\s+([\d.]+)", aout)
        print(f"\nab -k -n {n} -c {c0}: {m.group(1) if m else '?'} requests/s, {acpu * 1e6 / n:.2f} us CPU/request")
        block = sout[sout.find("http_load-style summary"):]
        print(f"sluice http --fetches={n} --parallel={c0}: {scpu * 1e6 / n:.2f} us CPU/request\n{block}")
    finally:
        nginx.terminate()
        nginx.wait()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
