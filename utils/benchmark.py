#!/usr/bin/env python3
"""Benchmark harness of the reps module: speed and memory of whole experiments.

Builds the module in a separate Release tree without NS_ASSERT checks (build-bench/ by
default), runs each scenario as its own process, and reports per scenario: wall-clock time,
peak resident memory, simulated time, packet transmissions over links (data and ACKs, host and
fabric links) and the wall-clock cost per packet per link. Results are printed as a table and,
with --json, written as JSON; the manual (doc/reps.rst, "Performance") records them.

Timing is never asserted by the test suites: speed is measured here, on an otherwise idle
machine, and the figures are recorded with the machine they were measured on.

Usage: utils/benchmark.py [--quick] [--only NAME[,NAME...]] [--build-dir DIR] [--json FILE]
                          [--no-build] [--list]
"""

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))

# name -> (description, example program, arguments); the paper's 128-host 2-tier fabric
# (16 leaves x 8 hosts, 8 spines, 400 Gb/s, 1 us) is the default of reps-lb-comparison.
SCENARIOS = [
    ("build-1024",
     "build a 1024-host 2-tier fabric (32 leaves x 32 hosts, 16 spines), no traffic",
     "reps-fabric-summary",
     ["--leaves=32", "--hostsPerLeaf=32", "--spines=16", "--duration=1ns"]),
    ("perm-128-8MiB-reps",
     "128 hosts, permutation of 8 MiB per host, REPS, window CC",
     "reps-lb-comparison",
     ["--lb=reps", "--flowSize=8MiB", "--sampleInterval=0"]),
    ("perm-128-8MiB-ops",
     "128 hosts, permutation of 8 MiB per host, OPS, window CC",
     "reps-lb-comparison",
     ["--lb=ops", "--flowSize=8MiB", "--sampleInterval=0"]),
    ("perm-128-8MiB-ecmp",
     "128 hosts, permutation of 8 MiB per host, ECMP, window CC",
     "reps-lb-comparison",
     ["--lb=ecmp", "--flowSize=8MiB", "--sampleInterval=0"]),
    ("fail-128-reps",
     "128 hosts, permutation of 2 MiB, two leaf uplinks fail at 20 us for good, REPS",
     "reps-lb-comparison",
     ["--lb=reps", "--flowSize=2MiB", "--failedLinks=2", "--failLeaf=0",
      "--sampleInterval=0"]),
    ("perm-1024-1MiB-reps",
     "1024 hosts (32 leaves x 32 hosts, 16 spines), permutation of 1 MiB per host, REPS",
     "reps-lb-comparison",
     ["--lb=reps", "--leaves=32", "--hostsPerLeaf=32", "--spines=16", "--flowSize=1MiB",
      "--sampleInterval=0"]),
]

QUICK = {"build-1024": [], "perm-128-8MiB-reps": ["--flowSize=1MiB"],
         "perm-128-8MiB-ops": ["--flowSize=1MiB"], "perm-128-8MiB-ecmp": ["--flowSize=1MiB"],
         "fail-128-reps": [], "perm-1024-1MiB-reps": ["--flowSize=128KiB"]}


def build(build_dir):
    subprocess.run(["cmake", "-S", ROOT, "-B", build_dir, "-G", "Ninja",
                    "-DCMAKE_BUILD_TYPE=Release", "-DREPS_ENABLE_ASSERTS=OFF",
                    "-DREPS_ENABLE_LOGS=OFF", "-DBUILD_TESTING=OFF"],
                   check=True, stdout=subprocess.DEVNULL)
    subprocess.run(["cmake", "--build", build_dir, "-j", str(os.cpu_count() or 1)], check=True)


def run(build_dir, name, program, args):
    exe = os.path.join(build_dir, "examples", program)
    if not os.path.exists(exe):
        sys.exit("benchmark: %s is not built (%s)" % (program, exe))
    result = {"scenario": name, "program": program, "args": args}
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [exe] + args
        json_path = None
        if program == "reps-lb-comparison":
            json_path = os.path.join(tmp, "result.json")
            cmd += ["--quiet", "--json=" + json_path]
        log_path = os.path.join(tmp, "output.txt")
        with open(log_path, "w") as log:
            start = time.monotonic()
            child = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT)
            # wait4 gives this child's own resource usage (peak memory included).
            _, status, usage = os.wait4(child.pid, 0)
            wall = time.monotonic() - start
            child.returncode = os.waitstatus_to_exitcode(status)
        with open(log_path) as log:
            output = log.read()
        if child.returncode != 0:
            sys.exit("benchmark: %s failed (%d):\n%s" % (" ".join(cmd), child.returncode,
                                                         output[-3000:]))
        result["wall_s"] = round(wall, 3)
        result["cpu_s"] = round(usage.ru_utime + usage.ru_stime, 3)
        result["max_rss_mib"] = round(usage.ru_maxrss / 1024.0, 1)
        if json_path:
            with open(json_path) as f:
                data = json.load(f)
            r = data["results"][0]
            result["flows"] = r["flows"]
            result["completed"] = r["completed"]
            result["sim_time_us"] = r["sim_time_us"]
            result["run_wall_s"] = round(r["wall_s"], 3)
            result["packets"] = r["packets"]
            result["link_packets"] = int(r.get("link_packets", 0))
            if result["link_packets"]:
                result["us_per_link_packet"] = round(
                    r["wall_s"] * 1e6 / result["link_packets"], 3)
        else:
            for line in output.splitlines():
                if line.strip().startswith("built in"):
                    result["build_s"] = float(line.split()[2])
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true",
                        help="smaller workloads (a smoke run of the harness, not for the docs)")
    parser.add_argument("--only", default="", help="comma list of scenario names to run")
    parser.add_argument("--build-dir", default=os.path.join(ROOT, "build-bench"),
                        help="build tree of the benchmark (default: build-bench/)")
    parser.add_argument("--no-build", action="store_true", help="use the build tree as it is")
    parser.add_argument("--json", help="write the results to this JSON file")
    parser.add_argument("--list", action="store_true", help="list the scenarios and exit")
    args = parser.parse_args()

    names = [s[0] for s in SCENARIOS]
    if args.list:
        for name, desc, program, extra in SCENARIOS:
            print("%-22s %s\n%-22s   %s %s" % (name, desc, "", program, " ".join(extra)))
        return 0
    chosen = [n for n in args.only.split(",") if n] or names
    unknown = [n for n in chosen if n not in names]
    if unknown:
        parser.error("--only: unknown scenario(s) %s; known: %s" % (", ".join(unknown),
                                                                  ", ".join(names)))
    if not args.no_build:
        build(args.build_dir)

    results = []
    for name, desc, program, extra in SCENARIOS:
        if name not in chosen:
            continue
        extra = extra + (QUICK.get(name, []) if args.quick else [])
        print("running %s: %s" % (name, desc), file=sys.stderr)
        results.append(run(args.build_dir, name, program, extra))

    header = ("scenario", "wall s", "cpu s", "max RSS MiB", "sim us", "flows", "link packets",
              "us/link packet")
    print("%-22s %8s %8s %12s %10s %9s %13s %15s" % header)
    for r in results:
        flows = "%d/%d" % (r["completed"], r["flows"]) if "flows" in r else "-"
        print("%-22s %8.2f %8.2f %12.1f %10s %9s %13s %15s" % (
            r["scenario"], r["wall_s"], r["cpu_s"], r["max_rss_mib"],
            "%.1f" % r["sim_time_us"] if "sim_time_us" in r else "-", flows,
            r.get("link_packets", "-"), r.get("us_per_link_packet", "-")))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"machine": {"cpu": platform.processor() or platform.machine(),
                                   "cores": os.cpu_count(), "python": platform.python_version()},
                       "quick": args.quick, "results": results}, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
