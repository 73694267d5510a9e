#!/usr/bin/env python3
"""The cost of --joblog with --results (wspx(1), "Failures").

10,000 trivial jobs (`true`), runs with and without `--joblog FILE
--results DIR` alternating, so that the machine's drift hits both alike;
each run with the options gets a new DIR (as a first run does: a
directory and three files made per job) and a new joblog.  Prints the
medians, their ratio and the median of the paired ratios.

Usage: operations.py WSPX [RUNS] (default 11).  Not a test: numbers go to
tests/bench/README.md.
"""
import os
import shutil
import statistics
import sys
import tempfile

from watch import JOBS, timed


def main():
    wspx = sys.argv[1]
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 11
    data = "".join("%d\n" % i for i in range(JOBS)).encode()
    plain = [wspx, "true"]
    with tempfile.TemporaryDirectory() as d:
        res, log = os.path.join(d, "res"), os.path.join(d, "log")
        logged = [wspx, "--joblog", log, "--results", res, "true"]
        timed(plain, data)                       # warm-up
        a, b = [], []
        for _ in range(runs):
            a.append(timed(plain, data))
            shutil.rmtree(res, ignore_errors=True)
            b.append(timed(logged, data))
        rows = sum(1 for _ in open(log)) - 1
        dirs = len(os.listdir(res))
    ma, mb = statistics.median(a), statistics.median(b)
    ratios = [y / x for x, y in zip(a, b)]
    print("%d trivial jobs, %d runs each, alternating" % (JOBS, runs))
    print("  without: median %.3f s (min %.3f)" % (ma, min(a)))
    print("  with --joblog --results: median %.3f s (min %.3f), %d rows, "
          "%d result dirs" % (mb, min(b), rows, dirs))
    print("  ratio of medians %.3f; median of paired ratios %.3f" %
          (mb / ma, statistics.median(ratios)))


if __name__ == "__main__":
    main()
