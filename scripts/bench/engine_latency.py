#!/usr/bin/env python3
"""Answer times of `rainet engine` over a pipe (docs/performance.md, "Time management").

Sends `go ARGS` N times on an opening position and times each from sending `go` to reading its
`bestaction`, then prints the quantiles (ms) and how many answers came later than LIMIT ms.

  scripts/bench/engine_latency.py --go "movetime 50" --count 200 --limit 70
  scripts/bench/engine_latency.py --bot random --go "nodes 1" --count 1000   # the session's overhead
  scripts/bench/engine_latency.py --go "nodes 1" --burst 3000                 # 3000 go sent at once

Runs `nice -n 10 build/rainet engine --bot BOT` (default strong).
"""
import argparse
import os
import statistics
import subprocess
import sys
import time

VIEW = "xxx2xxx/3xx3/8/8/8/8/3LV3/LLL2VVV 1 CNcn -/- 0 0"


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", default=os.path.join(os.path.dirname(__file__), "../../build/rainet"))
    ap.add_argument("--bot", default="strong")
    ap.add_argument("--go", default="movetime 50", help="the arguments of each go")
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--limit", type=float, default=None, help="count answers later than this (ms)")
    ap.add_argument("--burst", type=int, default=0, help="send this many go at once, time them all")
    a = ap.parse_args()
    p = subprocess.Popen(["nice", "-n", "10", a.binary, "engine", "--bot", a.bot],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(line: str) -> None:
        p.stdin.write(line + "\n")
        p.stdin.flush()

    def until(prefix: str) -> str:
        while True:
            line = p.stdout.readline()
            if not line:
                sys.exit(f"engine ended before '{prefix}'")
            if line.startswith(prefix):
                return line

    send("rainet"); until("rainetok")
    send("newgame side 1"); send("setup"); until("setup")
    send(f"position view {VIEW}")
    with open("/proc/loadavg") as f:
        print("load", f.read().split()[0])
    if a.burst:
        t0 = time.perf_counter()
        for _ in range(a.burst):
            send(f"go {a.go}")
        for _ in range(a.burst):
            until("bestaction")
        print(f"{a.burst} x go {a.go} sent at once: {1000 * (time.perf_counter() - t0):.0f} ms wall")
    else:
        ms = []
        for _ in range(a.count):
            t0 = time.perf_counter()
            send(f"go {a.go}")
            until("bestaction")
            ms.append(1000 * (time.perf_counter() - t0))
        ms.sort()
        q = lambda x: ms[min(len(ms) - 1, int(x * len(ms)))]
        print("| go | answers | median | p95 | p99 | max |" + (" over limit |" if a.limit else ""))
        print("|---|---|---|---|---|---|" + ("---|" if a.limit else ""))
        over = f" {sum(1 for m in ms if m > a.limit)} |" if a.limit else ""
        print(f"| {a.go} | {len(ms)} | {statistics.median(ms):.3f} ms | {q(0.95):.3f} ms | "
              f"{q(0.99):.3f} ms | {ms[-1]:.3f} ms |{over}")
    p.stdin.close()
    p.wait(timeout=30)
    return 0


if __name__ == "__main__":
    sys.exit(main())
