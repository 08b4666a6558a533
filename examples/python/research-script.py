#!/usr/bin/env python3
"""The research script of examples/reps-research-script.cc, in Python: the module's helpers
step by step (no experiment layer), the same options, the same printed report and the same
--json file, bit for bit.

    PYTHONPATH=build/python python3 examples/python/research-script.py --selector=ns3::OpsPathSelector
    PYTHONPATH=build/python python3 examples/python/research-script.py --degradedRate=10Gbps --RngRun=3
    PYTHONPATH=build/python python3 examples/python/research-script.py --ns3::RepsPathSelector::FreezeDuration=1ms

Question: when one leaf uplink runs at a quarter of its rate, how much of the traffic that
leaf sends upward does a path selector still put on it, and what does that cost the flows?
The manual's chapter "Python", section "Writing a script step by step", walks through it;
it quotes the regions between "# [name]" and "# [name end]" as they are here (the test
reps-manual-snippets checks them).
"""

import argparse
import sys

import reps


class Counters:
    """What the trace hooks count."""

    def __init__(self):
        self.sent = 0       # data packets sent, retransmissions included
        self.retx = 0       # retransmissions
        self.freezes = 0    # REPS freezes started
        self.ev_good = 0    # feedback: the packet's path was fine
        self.ev_marked = 0  # feedback: ECN-marked, NACKed or lost

    # Step 6: trace hooks. PacketSent(psn, ev, retransmission) of every sending queue pair.
    def packet_sent(self, psn, ev, retransmission):
        self.sent += 1
        self.retx += 1 if retransmission else 0

    # Feedback(ev, kind) of every path selector: what came back for an entropy value.
    def feedback(self, ev, kind):
        if kind == reps.PathSelector.GOOD:
            self.ev_good += 1
        else:
            self.ev_marked += 1

    # FreezeStarted(time) of REPS.
    def freeze_started(self, time):
        self.freezes += 1


def parse_params(argv):
    """Step 1: the parameters, with the C++ program's names and defaults; also --RngRun,
    --RngSeed and any attribute default (--ns3::Type::Attribute=value), as ns-3's
    CommandLine takes them."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--selector", default="ns3::RepsPathSelector",
                        help="PathSelector TypeId of the queue pairs")
    parser.add_argument("--leaves", type=int, default=4, help="Leaf switches")
    parser.add_argument("--hostsPerLeaf", type=int, default=4, help="Hosts under every leaf")
    parser.add_argument("--spines", type=int, default=4, help="Spine switches")
    parser.add_argument("--linkRate", default="100Gbps", help="Rate of every link")
    parser.add_argument("--degradedRate", default="25Gbps",
                        help="Rate of leaf 0's uplink to spine 0")
    parser.add_argument("--flowBytes", type=int, default=1 << 20,
                        help="Bytes per flow of the permutation")
    parser.add_argument("--mtu", type=int, default=4096, help="Payload bytes of a full packet")
    parser.add_argument("--json", default="",
                        help="Write the results to this file (for utils/sweep.py)")
    parser.add_argument("--RngRun", type=int, default=1, help="ns-3 run number")
    parser.add_argument("--RngSeed", type=int, default=1, help="ns-3 seed")
    p, rest = parser.parse_known_args(argv)
    p.defaults = []
    for arg in rest:
        name, eq, value = arg.partition("=")
        if not name.startswith("--ns3::") or not eq:
            parser.error("unrecognized argument '%s'; allowed: the options above or "
                         "--ns3::Type::Attribute=value" % arg)
        p.defaults.append((name[2:], value))
    return p


def check_params(p):
    """Step 1, continued: check the parameters before anything is built; returns "" or what
    is wrong, naming the option and what is allowed."""
    error = reps.RdmaHelper.validate_type_id(p.selector, "ns3::PathSelector", "--selector")
    link, degraded = reps.rate_bps(p.linkRate), reps.rate_bps(p.degradedRate)
    if not error and (p.leaves < 2 or p.spines < 2 or p.hostsPerLeaf < 1 or p.leaves > 1024
                      or p.spines > 1024 or p.hostsPerLeaf > 1024):
        error = "--leaves, --spines, --hostsPerLeaf: allowed: 2 to 1024, 2 to 1024, 1 to 1024"
    elif not error and (p.flowBytes <= 0 or p.flowBytes > 1 << 40):
        error = "--flowBytes: allowed: 1 to 2^40 bytes"
    elif not error and (degraded == 0 or degraded > link):
        error = "--degradedRate: allowed: above 0 and at most --linkRate"
    return error


def build_fabric(p):
    """Step 2: the fabric, by attributes of ClosFabricHelper."""
    # [py-fabric]
    # The devices' MTU holds a full packet's payload and its headers (IPv4, UDP, BTH, ...).
    fabric_helper = reps.ClosFabricHelper(Tiers=2, Leaves=p.leaves, HostsPerLeaf=p.hostsPerLeaf,
                                          Spines=p.spines, HostLinkRate=p.linkRate,
                                          LeafUplinkRate=p.linkRate, Mtu=p.mtu + 104)
    fabric_helper.set_switch_queue_disc("ns3::EcnQueueDisc", MaxSize="100p", Kmin="20p",
                                        Kmax="80p", Trimming=False)
    fabric = fabric_helper.build()
    reps.ClosFabricHelper.assign_streams(fabric, 100)
    # [py-fabric end]
    return fabric


def connect_traces(launcher, counters):
    """Step 6: trace sources of the sending queue pairs and their path selectors."""
    # [py-traces]
    launcher.connect("QueuePair/PacketSent", counters.packet_sent)
    launcher.connect("PathSelector/Feedback", counters.feedback)
    # Only REPS has this source; the selectors without it are skipped.
    launcher.connect("PathSelector/FreezeStarted", counters.freeze_started)
    # [py-traces end]


def uplink_bytes(p, fabric):
    """Bytes leaf 0 sent upward, on all its uplinks and on the slow one."""
    # [py-results]
    up = sum(fabric.link_counters(fabric.leaf_spine_link(0, s), 0)["bytes"]
             for s in range(p.spines))
    slow = fabric.link_counters(fabric.leaf_spine_link(0, 0), 0)["bytes"]
    # [py-results end]
    return up, slow


def report(p, fabric, stats, c):
    """Step 8: results: FCTs from the runner's statistics, bytes per uplink from the fabric."""
    fct = stats.fct_summary_us()
    slowdown = stats.slowdown_summary()
    up, slow = uplink_bytes(p, fabric)
    print("selector %s, %d hosts, uplink leaf0-spine0 at %.1f of %.1f Gb/s"
          % (p.selector, fabric.n_hosts, reps.rate_bps(p.degradedRate) / 1e9,
             reps.rate_bps(p.linkRate) / 1e9))
    print("flows completed   %d of %d" % (stats.completed_count, stats.flow_count))
    print("FCT mean / p99    %.1f / %.1f us" % (fct.mean, fct.p99))
    print("slowdown mean     %.2f" % slowdown.mean)
    print("leaf 0 upward bytes on the slow uplink %.1f%% (even share %.1f%%)"
          % (100.0 * slow / up if up else 0.0, 100.0 / p.spines))
    print("packets sent %d, retransmissions %d, feedback good %d / bad %d, REPS freezes %d"
          % (c.sent, c.retx, c.ev_good, c.ev_marked, c.freezes))


def g(value):
    """A number as the C++ program writes it in the JSON (an ostream at precision 10)."""
    return "%.10g" % value if isinstance(value, float) else "%d" % value


def write_json(p, fabric, stats, c):
    """Step 8, continued: the results as a file utils/sweep.py reads: the run number in
    "config", one entry per path selector in "results". False when it cannot be written."""
    fct = stats.fct_summary_us()
    slowdown = stats.slowdown_summary()
    up, slow = uplink_bytes(p, fabric)
    text = ('{"config": {"RngRun": %s, "selector": "%s", "leaves": %s, "hostsPerLeaf": %s, '
            '"spines": %s, "flowBytes": %s, "mtu": %s},\n'
            ' "results": [{"lb": "%s", "flows": %s, "completed": %s, "fct_us": {"mean": %s, '
            '"p99": %s}, "slowdown": {"mean": %s, "p99": %s}, "slow_uplink_share": %s, '
            '"retransmissions": %s}]}\n'
            % (g(reps.RngSeedManager.GetRun()), p.selector, g(p.leaves), g(p.hostsPerLeaf),
               g(p.spines), g(p.flowBytes), g(p.mtu), p.selector, g(stats.flow_count),
               g(stats.completed_count), g(fct.mean), g(fct.p99), g(slowdown.mean),
               g(slowdown.p99), g(slow / up if up else 0.0), g(c.retx)))
    try:
        with open(p.json, "w") as f:
            f.write(text)
    except OSError:
        print("error: --json: cannot write %s" % p.json, file=sys.stderr)
        return False
    return True


def build(p):
    """Steps 2 to 5: the fabric, the fault, the transport and the workload."""
    # Step 2: the fabric.
    fabric = build_fabric(p)

    # Step 3: the fault under study, from the start.
    # [py-fault]
    slow_link = fabric.leaf_spine_link(0, 0)
    fabric.degrade_link(slow_link, p.degradedRate)
    # [py-fault end]

    # Step 4: RDMA on every host, one path selector type for every queue pair.
    # [py-transport]
    base_rtt = fabric.base_rtt(0, fabric.n_hosts - 1, p.mtu + 60, 64)
    rdma = reps.RdmaHelper()
    rdma.set_path_selector(p.selector)
    rdma.set_congestion_control("ns3::RdmaWindowCongestionControl")
    rdma.set_queue_pair_attribute("Mtu", p.mtu)
    rdma.set_queue_pair_attribute("BaseRtt", base_rtt)
    rdma.set_queue_pair_attribute("Rto", 5 * base_rtt)
    rdma.install(fabric)
    # [py-transport end]

    # Step 5: the workload: a random permutation, one flow per host, at 1 us.
    # [py-workload]
    workload = reps.WorkloadHelper(fabric.n_hosts)
    workload.set_start_time("1us")
    workload.assign_streams(200)
    flows = workload.permutation(p.flowBytes)
    launcher = reps.RdmaFlowLauncher(fabric, rdma)
    launcher.prepare(flows)
    rdma.assign_streams(fabric, 300)
    runner = reps.WorkloadRunner(launcher)
    runner.stats.set_ideal(p.linkRate, base_rtt)
    runner.schedule(flows)
    # [py-workload end]

    return fabric, launcher, runner


def main(argv=None):
    # Step 1: parameters. Every run starts from ns-3's own defaults (a script run twice in one
    # interpreter, as the tests do, gets the same results), then takes the options.
    p = parse_params(sys.argv[1:] if argv is None else argv)
    reps.Config.Reset()
    try:
        reps.RngSeedManager.SetRun(p.RngRun)
        reps.RngSeedManager.SetSeed(p.RngSeed)
        for name, value in p.defaults:
            reps.Config.SetDefault(name, value)
        error = check_params(p)
    except ValueError as e:
        error = str(e)
    if error:
        print("error: %s" % error, file=sys.stderr)
        return 1

    # Steps 2 to 5 build the simulation; a value a helper refuses (--mtu=65500 gives the
    # devices an Mtu out of range) stops the script as Build() stops the C++ one.
    try:
        fabric, launcher, runner = build(p)
    except ValueError as e:
        print("error: %s" % e, file=sys.stderr)
        reps.Simulator.Destroy()
        return 1

    # Step 6: trace sources.
    counters = Counters()
    connect_traces(launcher, counters)

    # Step 7: run until the last flow completes (or 1 s of simulated time).
    # [py-run]
    stats = runner.run(time_limit="1s")
    # [py-run end]

    # Step 8: results.
    report(p, fabric, stats, counters)
    written = not p.json or write_json(p, fabric, stats, counters)
    done = written and stats.completed_count == stats.flow_count
    reps.Simulator.Destroy()
    return 0 if done else 1


if __name__ == "__main__":
    sys.exit(main())
