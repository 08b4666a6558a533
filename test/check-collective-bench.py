#!/usr/bin/env python3
"""reps-collective-bench against reps-lb-comparison: for every size and path selector the
bench's time is the collective time of the same run of --pattern=nccl, its algorithm bandwidth
is the size over that time and its bus bandwidth that times nccl-tests' factor.

Usage: check-collective-bench.py EXAMPLES_DIR"""

import json
import os
import subprocess
import sys
import tempfile

FABRIC = ["--leaves=2", "--hostsPerLeaf=2", "--spines=2", "--lb=ecmp,reps", "--quiet"]
FACTORS = {"allreduce": lambda n: 2.0 * (n - 1) / n, "allgather": lambda n: (n - 1) / n,
           "reducescatter": lambda n: (n - 1) / n, "alltoall": lambda n: (n - 1) / n,
           "broadcast": lambda n: 1.0, "reduce": lambda n: 1.0, "gather": lambda n: (n - 1) / n,
           "scatter": lambda n: (n - 1) / n}


def main():
    examples = sys.argv[1]
    failures = []
    compared = 0
    with tempfile.TemporaryDirectory() as tmp:
        for op, sizes in (("allreduce", [65536, 262144]), ("alltoall", [65536]),
                          ("reduce", [65536]), ("gather", [65536])):
            bench_json = os.path.join(tmp, "bench.json")
            subprocess.run([os.path.join(examples, "reps-collective-bench")] + FABRIC +
                           ["--ncclOperation=" + op, "--sizes=" + ",".join(map(str, sizes)),
                            "--json=" + bench_json], check=True, stdout=subprocess.DEVNULL)
            bench = json.load(open(bench_json))
            n = bench["config"]["ranks"]
            for size in sizes:
                run_json = os.path.join(tmp, "run.json")
                subprocess.run([os.path.join(examples, "reps-lb-comparison")] + FABRIC +
                               ["--pattern=nccl", "--ncclOperation=" + op,
                                "--flowSize=%d" % size, "--json=" + run_json],
                               check=True, stdout=subprocess.DEVNULL)
                for result in json.load(open(run_json))["results"]:
                    row = next(r for r in bench["selectors"][result["lb"]]["sizes"]
                               if r["bytes"] == size)
                    what = "%s %s %d" % (op, result["lb"], size)
                    compared += 1
                    if abs(row["time_us"] - result["collective_us"]) > 1e-6:
                        failures.append("%s: time %r, the run's %r"
                                        % (what, row["time_us"], result["collective_us"]))
                    algbw = size / (row["time_us"] * 1e3)
                    if abs(row["algbw_GBps"] - algbw) > 1e-9 * algbw:
                        failures.append("%s: algbw %r, expected %r" % (what, row["algbw_GBps"], algbw))
                    busbw = algbw * FACTORS[op](n)
                    if abs(row["busbw_GBps"] - busbw) > 1e-9 * busbw:
                        failures.append("%s: busbw %r, expected %r" % (what, row["busbw_GBps"], busbw))
                    if not row["completed"]:
                        failures.append("%s: incomplete" % what)
    if compared != 10:
        failures.append("compared %d runs, expected 10" % compared)
    for f in failures:
        print("FAIL " + f)
    print("check-collective-bench: %s (%d runs compared)" % ("FAIL" if failures else "PASS", compared))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
