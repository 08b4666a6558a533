#!/usr/bin/env python3
"""reps-ai-training against reps-lb-comparison: each arm of reps-ai-training is the run of the
same Chakra trace (the built-in step, kept with --writeTrace) by reps-lb-comparison
--pattern=chakra with the arm's path selector, queue pairs per connection and switch
forwarding; its step time is that run's collective time, to the nanosecond. Also: the step
writes one file per rank, every arm completes, and the mixture-of-experts step runs.

Usage: check-ai-training.py EXAMPLES_DIR"""

import json
import os
import subprocess
import sys
import tempfile

FABRIC = ["--gpusPerServer=4", "--wiring=RailOptimised", "--ncclChannels=8", "--leaves=4",
          "--hostsPerLeaf=2", "--spines=2", "--quiet"]
ARMS = {"ecmp-qp1": ["--lb=ecmp"], "ecmp-qp2": ["--lb=ecmp", "--qpsPerConnection=2"],
        "reps": ["--lb=reps"], "dlb": ["--lb=ecmp", "--forwarding=dlb"]}


def main():
    examples = sys.argv[1]
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        prefix = os.path.join(tmp, "step")
        out = os.path.join(tmp, "ai.json")
        subprocess.run([os.path.join(examples, "reps-ai-training")] + FABRIC +
                       ["--arms=" + ",".join(ARMS), "--layers=2", "--layerBytes=512KiB",
                        "--writeTrace=" + prefix, "--json=" + out],
                       check=True, stdout=subprocess.DEVNULL)
        ai = json.load(open(out))
        ranks = ai["config"]["ranks"]
        files = sorted(f for f in os.listdir(tmp) if f.startswith("step."))
        if len(files) != ranks or ranks != 8:
            failures.append("%d trace files for %d ranks (expected 8)" % (len(files), ranks))
        arms = {a["arm"]: a for a in ai["arms"]}
        if list(arms) != list(ARMS):
            failures.append("arms %s, expected %s" % (list(arms), list(ARMS)))
        for name, options in ARMS.items():
            arm = arms.get(name)
            if not arm:
                continue
            if not arm["completed"] or arm["step_us"] <= 0 or arm["iteration_us"] <= 0:
                failures.append("%s: incomplete or no time: %r" % (name, arm))
            run = os.path.join(tmp, "run.json")
            subprocess.run([os.path.join(examples, "reps-lb-comparison")] + FABRIC + options +
                           ["--pattern=chakra", "--chakraTrace=" + prefix, "--json=" + run],
                           check=True, stdout=subprocess.DEVNULL)
            result = json.load(open(run))["results"][0]
            if abs(result["collective_us"] - arm["step_us"]) > 1e-3:
                failures.append("%s: step %r us, reps-lb-comparison's run %r us"
                                % (name, arm["step_us"], result["collective_us"]))
        # The "more flows" lever and the selector are visible in the counters of the arms.
        if arms.get("ecmp-qp2", {}).get("qps_per_connection") != 2:
            failures.append("ecmp-qp2 does not record 2 queue pairs per connection")
        if arms.get("dlb", {}).get("forwarding") != "dlb":
            failures.append("dlb does not record its switch forwarding")
        moe = os.path.join(tmp, "moe.json")
        subprocess.run([os.path.join(examples, "reps-ai-training")] + FABRIC +
                       ["--arms=reps", "--step=moe", "--expertParallel=4",
                        "--expertBytes=256KiB", "--layerBytes=256KiB", "--json=" + moe],
                       check=True, stdout=subprocess.DEVNULL)
        arm = json.load(open(moe))["arms"][0]
        if not arm["completed"] or arm["slowest_call_us"] <= 0:
            failures.append("moe: %r" % arm)
    for f in failures:
        print("FAIL " + f)
    print("check-ai-training: %s" % ("FAIL" if failures else "PASS"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
