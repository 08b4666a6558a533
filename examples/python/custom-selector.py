#!/usr/bin/env python3
"""A path selector written in Python, compared with OPS and REPS: the Python twin of
examples/reps-custom-selector.cc (the manual's chapter "Writing your own path selector").

    PYTHONPATH=build/python python3 examples/python/custom-selector.py

pyrrskip takes the EVs [entropy_base, entropy_base + paths) in turn and skips once every EV
whose last feedback was bad (ECN, NACK or LOST); a good ACK clears the mark. It gives the
same results, bit for bit, as the C++ rrskip of reps-custom-selector on the same options.
"""

import argparse
import json

import reps


@reps.register_selector("pyrrskip")
class SkipRoundRobin(reps.PathSelector):
    paths = 32

    def __init__(self):
        super().__init__()
        self.next = 0
        self.bad = set()

    def next_entropy(self, retransmission):
        n = min(self.paths, self.entropy_space)
        while True:  # ends: every skip removes one mark
            ev = self.entropy_base + self.next % n
            self.next = (self.next + 1) % n
            if ev in self.bad:
                self.bad.discard(ev)
            else:
                return ev, self.ROUND_ROBIN

    def feedback(self, ev, kind, rtt, last_hop):
        if kind == self.GOOD:
            self.bad.discard(ev)
        else:
            self.bad.add(ev)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lb", default="ops,reps,pyrrskip", help="path selectors (comma list)")
    parser.add_argument("--RngRun", type=int, default=1, help="ns-3 run number")
    parser.add_argument("--noFeedbackTrace", action="store_true",
                        help="do not count the Feedback trace (times the selector alone)")
    parser.add_argument("--json", help="write the results here, as reps-custom-selector --json")
    args, rest = parser.parse_known_args()
    # Any other --name=value is an option of the experiment (as reps-custom-selector takes).
    options = dict(leaves=4, hostsPerLeaf=4, spines=4, flowSize="512KiB", RngRun=args.RngRun)
    options.update(a[2:].split("=", 1) for a in rest if a.startswith("--") and "=" in a)
    bad = [a for a in rest if not (a.startswith("--") and "=" in a)]
    if bad:
        parser.error("options of the experiment are written --name=value: %s" % " ".join(bad))
    exp = reps.Experiment(**options)
    # The Feedback trace of every path selector, counted per selector as the C++ example does.
    names = {reps.PathSelector.GOOD: "good", reps.PathSelector.ECN: "ecn",
             reps.PathSelector.NACK: "nack", reps.PathSelector.LOST: "lost"}
    feedback = {}  # path selector: {kind: count}

    def count(ev, kind):
        counts = feedback[current]
        counts[names[kind]] = counts.get(names[kind], 0) + 1

    if not args.noFeedbackTrace:
        exp.connect("PathSelector/Feedback", count)
    runs = []
    for current in args.lb.split(","):
        feedback[current] = {}
        runs.append(exp.run(lb=current))
    for r in (run[0] for run in runs):
        print("%-9s mean FCT %7.1f us, p99 %7.1f us, %d ECN marks, %d retransmissions"
              % (r.lb, r.fct_us.mean, r.fct_us.p99, r.ecn_marks, r.retransmissions))
    if not args.noFeedbackTrace:
        print("\nfeedback per path selector (Feedback trace):")
        for lb, counts in feedback.items():
            print("  %s: %s" % (lb, " ".join("%s %d" % kv for kv in sorted(counts.items()))))
    if args.json:  # one file for all, as the C++ example writes it
        data = runs[0].to_dict()
        data["config"]["lb"] = args.lb
        data["results"] = [run.to_dict()["results"][0] for run in runs]
        with open(args.json, "w") as f:
            json.dump(data, f, indent=2)
            f.write("\n")


if __name__ == "__main__":
    main()
