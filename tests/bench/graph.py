#!/usr/bin/env python3
"""Job graphs (wspx(5)): what the run of a graph costs.

  anchor:  the graph case of the CLI anchor benchmark, rebuilt here
           (L layers of W `true` jobs, each needing two jobs of the layer
           before), run by wspx, ninja and make with -j2, alternating,
           SHELL=/bin/sh as the anchor sets it; medians and ratios.
  noop:    100,000 `noop` builtins as a chain and as one wide layer:
           `wspx run` against `wspx check` of the same file, alternating;
           the difference per job is the cost of running a job on top of
           loading the file.
  load:    `wspx check` of a 100,000-job file against libyaml alone
           (tests/bench/yamlparse, its events and nothing more), and the
           peak memory of check and run, per job.

Usage: graph.py WSPX YAMLPARSE [RUNS] (default 11).  Not a test: numbers
go to tests/bench/README.md.
"""
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

L, W, N = 40, 50, 100000


def write_anchor(d):
    """The anchor's graph.yaml, build.ninja and Makefile.graph."""
    with open(os.path.join(d, "graph.yaml"), "w") as f:
        f.write("jobs:\n")
        for l in range(L):
            for i in range(W):
                if l == 0:
                    f.write('  n%d_%d: {run: "true"}\n' % (l, i))
                else:
                    f.write('  n%d_%d: {run: "true", needs: [n%d_%d, n%d_%d]}\n'
                            % (l, i, l - 1, i, l - 1, (i + 1) % W))
    with open(os.path.join(d, "build.ninja"), "w") as f:
        f.write("rule r\n  command = true\n")
        for l in range(L):
            for i in range(W):
                if l == 0:
                    f.write("build n%d_%d: r\n" % (l, i))
                else:
                    f.write("build n%d_%d: r | n%d_%d n%d_%d\n"
                            % (l, i, l - 1, i, l - 1, (i + 1) % W))
    with open(os.path.join(d, "Makefile.graph"), "w") as f:
        names = " ".join("n%d_%d" % (l, i) for l in range(L)
                         for i in range(W))
        f.write(".PHONY: all %s\n" % names)
        f.write("all: %s\n" % " ".join("n%d_%d" % (L - 1, i)
                                       for i in range(W)))
        for l in range(L):
            for i in range(W):
                if l == 0:
                    f.write("n%d_%d:\n\t@true\n" % (l, i))
                else:
                    f.write("n%d_%d: n%d_%d n%d_%d\n\t@true\n"
                            % (l, i, l - 1, i, l - 1, (i + 1) % W))


def write_noop(d):
    with open(os.path.join(d, "chain.yaml"), "w") as f:
        f.write("jobs:\n  n0: {builtin: noop}\n")
        for i in range(1, N):
            f.write("  n%d: {builtin: noop, needs: [n%d]}\n" % (i, i - 1))
    with open(os.path.join(d, "wide.yaml"), "w") as f:
        f.write("jobs:\n")
        for i in range(N):
            f.write("  n%d: {builtin: noop}\n" % i)


def timed(argv, cwd):
    """Wall seconds and peak RSS (KiB) of one run."""
    t0 = time.monotonic()
    p = subprocess.Popen(argv, cwd=cwd, stdout=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    t = time.monotonic() - t0
    if status != 0:
        sys.exit("failed: %s (status %d)" % (" ".join(argv), status))
    return t, ru.ru_maxrss


def alternate(cmds, runs, cwd, before=None):
    """Median wall time of each command, run in turn runs times."""
    times = {k: [] for k in cmds}
    for _ in range(runs):
        for k, argv in cmds.items():
            if before:
                before()
            times[k].append(timed(argv, cwd)[0])
    return {k: statistics.median(v) for k, v in times.items()}


def anchor(wspx, runs, d):
    write_anchor(d)
    os.environ["SHELL"] = "/bin/sh"
    cmds = {"ninja": ["ninja", "-j2", "-f", "build.ninja"],
            "make": ["make", "-s", "-j2", "-f", "Makefile.graph"],
            "wspx": [wspx, "run", "-j2", "graph.yaml"]}

    def clean():
        for f in (".ninja_log", ".ninja_deps"):
            if os.path.exists(os.path.join(d, f)):
                os.unlink(os.path.join(d, f))
    m = alternate(cmds, runs, d, clean)
    best = min(m["ninja"], m["make"])
    print("anchor graph, %d jobs in %d layers, -j2, %d runs each:"
          % (L * W, L, runs))
    for k in cmds:
        print("  %-6s median %8.1f ms   %.2fx the faster of ninja and make"
              % (k, m[k] * 1e3, m[k] / best))


def noop(wspx, runs, d):
    write_noop(d)
    for shape in ("chain", "wide"):
        f = shape + ".yaml"
        m = alternate({"check": [wspx, "check", f],
                       "run": [wspx, "run", f]}, runs, d)
        print("%d noop builtins as a %s: check %.3f s, run %.3f s: "
              "%.2f us per job on top of loading"
              % (N, shape, m["check"], m["run"],
                 (m["run"] - m["check"]) / N * 1e6))


def load(wspx, parse, runs, d):
    m = alternate({"libyaml": [parse, "chain.yaml"],
                   "check": [wspx, "check", "chain.yaml"]}, runs, d)
    print("loading the %d-job chain: libyaml alone %.3f s, wspx check "
          "%.3f s: %.2fx" % (N, m["libyaml"], m["check"],
                             m["check"] / m["libyaml"]))
    for what in ("check", "run"):
        _, rss = timed([wspx, what, "chain.yaml"], d)
        print("  peak RSS of wspx %s: %d KiB, %.0f bytes per job"
              % (what, rss, rss * 1024.0 / N))


def main():
    wspx = os.path.abspath(sys.argv[1])
    parse = os.path.abspath(sys.argv[2])
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 11
    with tempfile.TemporaryDirectory() as d:
        anchor(wspx, runs, d)
        noop(wspx, runs, d)
        load(wspx, parse, runs, d)


if __name__ == "__main__":
    main()
