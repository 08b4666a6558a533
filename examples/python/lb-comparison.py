#!/usr/bin/env python3
"""The headline comparison of path selectors, from Python: one fabric and workload, run once
per path selector, the example's table printed and a few fields read from the results.

    PYTHONPATH=build/python python3 examples/python/lb-comparison.py --lb ecmp,ops,reps

Every option of reps-lb-comparison is a keyword of reps.Experiment; here a 32-host fabric.
"""

import argparse

import reps


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lb", default="ecmp,ops,reps", help="path selectors (comma list)")
    parser.add_argument("--flowSize", default="1MiB", help="bytes per flow (e.g. 1MiB)")
    parser.add_argument("--RngRun", type=int, default=1, help="ns-3 run number")
    parser.add_argument("--json", help="write the results here, as reps-lb-comparison --json")
    args = parser.parse_args()

    exp = reps.Experiment(leaves=4, hostsPerLeaf=8, spines=8, flowSize=args.flowSize,
                          RngRun=args.RngRun, quiet=True)
    results = exp.run(lb=args.lb)
    print(results)
    print()
    for r in results:
        print("%-8s mean FCT %7.1f us, p99 %7.1f us, %d ECN marks, %d retransmissions"
              % (r.lb, r.fct_us.mean, r.fct_us.p99, r.ecn_marks, r.retransmissions))
    if args.json:
        with open(args.json, "w") as f:
            f.write(results.to_json())


if __name__ == "__main__":
    main()
