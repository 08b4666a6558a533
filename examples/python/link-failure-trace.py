#!/usr/bin/env python3
"""A failure study with trace hooks: a leaf uplink fails during a permutation; Python
callables record when the link goes down and up, when REPS freezes, and how many packets each
selector retransmits, per 10 us of simulated time.

    PYTHONPATH=build/python python3 examples/python/link-failure-trace.py [--plot FILE.png]

With --plot, matplotlib (Debian's python3-matplotlib) draws the retransmissions per 10 us of
each selector, the link's failure and repair as vertical lines.

Each hook costs a Python call per event: PacketSent fires once per data packet, so this
study stays on a 16-host fabric (see the manual's chapter "Python", "Limits").
"""

import argparse
import collections

import reps

BIN_US = 10.0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--plot", help="draw the retransmissions per 10 us into this PNG")
    args = parser.parse_args()
    exp = reps.Experiment(leaves=4, hostsPerLeaf=4, spines=4, flowSize="512KiB",
                          failedLinks=1, failAt="10us", failFor="40us", quiet=True)
    events = []
    retransmits = collections.Counter()
    per_bin = collections.defaultdict(collections.Counter)  # lb: {bin: retransmissions}
    changes = []  # (time in us, up)
    now = {"lb": None}

    def at():
        return "%6.1f us" % (reps.Simulator.Now() * 1e6)

    def link_state(link, up):
        events.append((now["lb"], "%s link %d %s" % (at(), link, "up" if up else "down")))
        changes.append((reps.Simulator.Now() * 1e6, up))

    exp.connect("Fabric/LinkState", link_state)
    # FreezeStarted(until): the time at which the freeze may end.
    exp.connect("PathSelector/FreezeStarted",
                lambda until: events.append((now["lb"], "%s freeze (until %.1f us)"
                                             % (at(), until * 1e6))))

    def sent(psn, ev, retransmission):
        if retransmission:
            retransmits[now["lb"]] += 1
            per_bin[now["lb"]][int(reps.Simulator.Now() * 1e6 // BIN_US)] += 1

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
    print()
    last = max((b for counts in per_bin.values() for b in counts), default=0)
    print("retransmissions per %g us:" % BIN_US)
    print("  from us " + " ".join("%5s" % lb for lb in ("ops", "reps")))
    for b in range(last + 1):
        print("  %7.0f " % (b * BIN_US) + " ".join("%5d" % per_bin[lb][b] for lb in ("ops", "reps")))
    if args.plot:
        plot(args.plot, per_bin, changes, last)


def plot(path, per_bin, changes, last):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 3.5))
    starts = [b * BIN_US for b in range(last + 2)]  # the last bin drawn to its end
    for lb in ("ops", "reps"):
        counts = [per_bin[lb][b] for b in range(last + 1)]
        ax.step(starts, counts + counts[-1:], where="post", label=lb)
    for t, up in sorted(set(changes)):
        ax.axvline(t, color="green" if up else "red", linestyle="--", linewidth=1)
    ax.set_xlabel("simulated time (us); red: link down, green: up")
    ax.set_ylabel("retransmissions per %g us" % BIN_US)
    ax.set_ylim(bottom=0)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    print("wrote %s" % path)


if __name__ == "__main__":
    main()
