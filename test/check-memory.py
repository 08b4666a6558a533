#!/usr/bin/env python3
"""Memory of a long run stays flat: no growth per completed flow after warm-up.

Runs reps-lb-comparison on a web-search workload (Poisson arrivals, flow sizes from the
web-search distribution) for a long simulated time with one path selector, on 8 hosts (so that
every pair of hosts has its queue pairs, created at its first flow, well within the warm-up),
and samples the resident set size (VmRSS of /proc/PID/status) each time the example prints a
progress line (flows completed so far). After the warm-up (the first --warmup fraction of the samples), the
growth of the RSS per completed flow (least-squares slope) must stay below --limit bytes: the
run keeps one small record per flow for its report (FlowStats), and nothing else may
accumulate (per-packet state of completed flows, events, traces).

Usage:
  check-memory.py EXAMPLES_DIR [--lb SELECTOR] [--duration TIME] [--limit BYTES]
                  [--warmup FRACTION] [-- EXTRA_OPTIONS...]

Prints the samples, the RSS at the end of warm-up and at the end, the slope in bytes per
completed flow; exit status 0 when the slope is below the limit.
"""

import argparse
import os
import re
import subprocess
import sys

PROGRESS = re.compile(r"progress.*: sim ([0-9.]+) us, flows ([0-9]+)/([0-9]+)")


def rss_kib(pid):
    try:
        with open(f"/proc/{pid}/status", encoding="utf-8") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def slope(points):
    n = len(points)
    mx = sum(x for x, _ in points) / n
    my = sum(y for _, y in points) / n
    sxx = sum((x - mx) ** 2 for x, _ in points)
    if sxx == 0:
        return 0.0
    return sum((x - mx) * (y - my) for x, y in points) / sxx


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("examples_dir")
    parser.add_argument("--lb", default="reps")
    parser.add_argument("--duration", default="16ms", help="simulated time of the workload")
    parser.add_argument("--limit", type=float, default=512.0,
                        help="largest RSS growth per completed flow after warm-up, in bytes")
    parser.add_argument("--warmup", type=float, default=0.25)
    parser.add_argument("extra", nargs="*", help="more options for the example")
    args = parser.parse_args()

    program = os.path.join(args.examples_dir, "reps-lb-comparison")
    if not os.access(program, os.X_OK):
        sys.exit(f"check-memory.py: {program}: not an executable")
    command = [program, "--leaves=2", "--hostsPerLeaf=4", "--spines=2", "--pattern=websearch",
               "--load=0.6", f"--duration={args.duration}", f"--stopTime=1s",
               f"--lb={args.lb}", "--sampleInterval=0"] + args.extra
    env = dict(os.environ)
    # A progress line every 200 ms of wall time gives the samples.
    env["NS_ATTRIBUTE_DEFAULT"] = "ns3::ProgressReporter::WallInterval=200ms"
    print("running: " + " ".join(command), flush=True)
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            text=True, env=env)
    samples = []
    for line in proc.stderr:
        m = PROGRESS.search(line)
        if not m:
            continue
        kib = rss_kib(proc.pid)
        if kib is not None:
            samples.append((int(m.group(2)), kib * 1024))
    status = proc.wait()
    if status != 0:
        sys.exit(f"check-memory.py: the example exited with status {status}")
    if len(samples) < 8:
        sys.exit(f"check-memory.py: only {len(samples)} samples; run longer (--duration)")
    start = int(len(samples) * args.warmup)
    steady = samples[start:]
    flows = steady[-1][0] - steady[0][0]
    if flows < 1000:
        sys.exit(f"check-memory.py: only {flows} flows completed after warm-up; run longer")
    per_flow = slope(steady)
    for f, b in samples[:: max(1, len(samples) // 12)]:
        print(f"  {f:8d} flows  {b / 2**20:8.1f} MiB")
    print(f"after warm-up: {steady[0][1] / 2**20:.1f} MiB at {steady[0][0]} flows, "
          f"{steady[-1][1] / 2**20:.1f} MiB at {steady[-1][0]} flows; "
          f"{per_flow:.0f} bytes per completed flow (limit {args.limit:.0f})")
    if per_flow > args.limit:
        print("FAILED: memory grows with the completed flows")
        return 1
    print("passed: memory stays flat")
    return 0


if __name__ == "__main__":
    sys.exit(main())
