#!/usr/bin/env python3
"""A failure study with trace hooks: a leaf uplink fails during a permutation; Python
callables record when the link goes down and up, when REPS freezes, and how many packets each
selector retransmits, per 10 us of simulated time.

    PYTHONPATH=build/python python3 examples/python/link-failure-trace.py

Each hook costs a Python call per event: PacketSent fires once per data packet, so this
study stays on a 16-host fabric (see the manual's chapter "Python", "Limits").
"""

import collections

import reps


def main():
    exp = reps.Experiment(leaves=4, hostsPerLeaf=4, spines=4, flowSize="512KiB",
                          failedLinks=1, failAt="10us", failFor="40us", quiet=True)
    events = []
    retransmits = collections.Counter()
    now = {"lb": None}

    def at():
        return "%6.1f us" % (reps.Simulator.Now() * 1e6)

    exp.connect("Fabric/LinkState",
                lambda link, up: events.append((now["lb"], "%s link %d %s"
                                                % (at(), link, "up" if up else "down"))))
    # FreezeStarted(until): the time at which the freeze may end.
    exp.connect("PathSelector/FreezeStarted",
                lambda until: events.append((now["lb"], "%s freeze (until %.1f us)"
                                             % (at(), until * 1e6))))

    def sent(psn, ev, retransmission):
        if retransmission:
            retransmits[now["lb"]] += 1

    exp.connect("QueuePair/PacketSent", sent)

    for lb in ("ops", "reps"):
        now["lb"] = lb
        r = exp.run(lb=[lb])[lb]
        print("%-5s mean FCT %6.1f us, p99 %6.1f us, %d retransmissions (hook: %d), %d freezes"
              % (lb, r.fct_us.mean, r.fct_us.p99, r.retransmissions, retransmits[lb],
                 r.freezes))
    print()
    for lb, what in events[:12]:
        print("%-5s %s" % (lb, what))


if __name__ == "__main__":
    main()
