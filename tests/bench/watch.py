#!/usr/bin/env python3
"""The cost of watching a run (wspx(1), "Watching a run").

  overhead: 10,000 trivial jobs (`true`), runs with and without
            --events FILE --metrics FILE alternating, so that the machine's
            drift hits both alike; prints the medians and their ratio.
  idle:     one long idle job (`sleep SECONDS`) with wspx's stderr on a
            pseudo-terminal, so that the status line is drawn; wspx's own
            CPU time (from /proc) over the wall time, beside the same run
            with --no-status.

Usage: watch.py WSPX [overhead RUNS | idle SECONDS]...
(default: overhead 11 idle 30).  Not a test: numbers go to
tests/bench/README.md.
"""
import os
import pty
import statistics
import subprocess
import sys
import tempfile
import threading
import time

JOBS = 10000


def timed(argv, stdin_data):
    t0 = time.monotonic()
    subprocess.run(argv, input=stdin_data, stdout=subprocess.DEVNULL,
                   check=True)
    return time.monotonic() - t0


def overhead(wspx, runs):
    data = "".join("%d\n" % i for i in range(JOBS)).encode()
    with tempfile.TemporaryDirectory() as d:
        plain = [wspx, "true"]
        watched = [wspx, "--events", os.path.join(d, "ev"),
                   "--metrics", os.path.join(d, "m.json"), "true"]
        timed(plain, data)                       # warm-up
        a, b = [], []
        for _ in range(runs):
            a.append(timed(plain, data))
            b.append(timed(watched, data))
        lines = sum(1 for _ in open(os.path.join(d, "ev")))
    ma, mb = statistics.median(a), statistics.median(b)
    ratios = [y / x for x, y in zip(a, b)]
    print("overhead: %d trivial jobs, %d runs each, alternating" %
          (JOBS, runs))
    print("  without --events/--metrics: median %.3f s (min %.3f)" %
          (ma, min(a)))
    print("  with    --events/--metrics: median %.3f s (min %.3f), "
          "%d event lines" % (mb, min(b), lines))
    print("  ratio of medians %.3f; median of paired ratios %.3f" %
          (mb / ma, statistics.median(ratios)))


def cpu_seconds(pid):
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    tick = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / tick   # utime + stime


def idle_cpu(wspx, seconds, extra):
    """wspx's CPU time per wall second while its one job sleeps."""
    master, slave = pty.openpty()
    env = dict(os.environ, TERM="xterm")
    p = subprocess.Popen([wspx] + extra + ["sleep", ":::", str(seconds)],
                         stdin=subprocess.DEVNULL, stdout=slave,
                         stderr=slave, env=env)
    os.close(slave)
    drawn = []

    def drain():                         # a terminal reads what it gets
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:
                return
            if not chunk:
                return
            drawn.append(chunk)

    reader = threading.Thread(target=drain)
    reader.start()
    time.sleep(1)                        # start-up, not idle
    c0, w0 = cpu_seconds(p.pid), time.monotonic()
    time.sleep(seconds - 2)
    c1, w1 = cpu_seconds(p.pid), time.monotonic()
    p.wait()
    reader.join()
    os.close(master)
    drawn = b"".join(drawn)
    return (c1 - c0) / (w1 - w0), drawn.count(b"\r")


def idle(wspx, seconds):
    on, redraws = idle_cpu(wspx, seconds, [])
    off, _ = idle_cpu(wspx, seconds, ["--no-status"])
    print("idle: one `sleep %d` job, wspx's stderr on a pseudo-terminal" %
          seconds)
    print("  status line: %.3f%% CPU (%d redraws); --no-status: %.3f%% CPU"
          % (100 * on, redraws, 100 * off))


def main():
    wspx = os.path.abspath(sys.argv[1])
    args = sys.argv[2:] or ["overhead", "11", "idle", "30"]
    for what, n in zip(args[::2], args[1::2]):
        {"overhead": overhead, "idle": idle}[what](wspx, int(n))


if __name__ == "__main__":
    main()
