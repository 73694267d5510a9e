#!/usr/bin/env python3
"""The cost of --joblog with --results (wspx(1), "Failures").

10,000 trivial jobs (`true`), runs with and without `--joblog FILE
--results DIR` alternating, so that the machine's drift hits both alike;
each run with the options gets a new DIR (as a first run does: a
directory and three files made per job) and a new joblog.  Prints the
medians, their ratio and the median of the paired ratios.

The directory is made under TMPDIR.  The file system's own cost of what
--results asks of it (a directory and three files per job) is measured
too, without wspx, as a floor: on a disk file system of a virtual machine
it can exceed the cost of running the jobs.

Usage: operations.py WSPX [RUNS] (default 11).  Not a test: numbers go to
tests/bench/README.md.
"""
import os
import shutil
import statistics
import sys
import tempfile
import time

from watch import JOBS, timed


def fsfloor(d):
    """Seconds to make JOBS result directories with their three files."""
    start = time.monotonic()
    os.mkdir(d)
    for i in range(1, JOBS + 1):
        sub = os.path.join(d, str(i))
        os.mkdir(sub)
        for name in ("stdout", "stderr", "exitval"):
            fd = os.open(os.path.join(sub, name),
                         os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o666)
            if name == "exitval":
                os.write(fd, b"0\n")
            os.close(fd)
    return time.monotonic() - start


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
        shutil.rmtree(res)
        floor = fsfloor(res)
    ma, mb = statistics.median(a), statistics.median(b)
    ratios = [y / x for x, y in zip(a, b)]
    print("%d trivial jobs, %d runs each, alternating" % (JOBS, runs))
    print("  without: median %.3f s (min %.3f)" % (ma, min(a)))
    print("  with --joblog --results: median %.3f s (min %.3f), %d rows, "
          "%d result dirs" % (mb, min(b), rows, dirs))
    print("  the file system alone, %d directories of 3 files: %.3f s "
          "(in %s)" % (JOBS, floor, os.path.dirname(res) or "."))
    print("  ratio of medians %.3f; median of paired ratios %.3f" %
          (mb / ma, statistics.median(ratios)))


if __name__ == "__main__":
    main()
