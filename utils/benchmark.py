#!/usr/bin/env python3
"""Benchmark harness of the reps module: speed and memory of whole experiments.

Builds the module in a separate Release tree without NS_ASSERT checks (build-bench/ by
default), runs each scenario as its own process, and reports per scenario: wall-clock and CPU
time, peak resident memory, simulated time, packet transmissions over links (data and ACKs,
host and fabric links), the CPU cost per packet per link and link packets per CPU second.
With --repeat N every scenario runs N times and the medians are reported (min and max in the
JSON). Results are printed as a table and, with --json and --markdown, written as JSON and as a
markdown table; the manual (doc/reps.rst, "Performance") records them.

Scenarios: the module's path selectors on the REPS paper's 128-host fabric, and the same
fabric and workload in plain ns-3 (examples/reps-ns3-baseline: internet stack and global
routing with random ECMP in every switch, UDP OnOff applications, data only). --scaling adds a
series from 16 to 1,024 hosts, 2 tiers (leaf-spine) and 3 tiers (k-ary fat trees), for REPS
and for the baseline, and fits cost = a x (link packets)^b per series (least squares in log-log
space): b near 1 means the cost per packet does not grow with the fabric. utils/plot.py draws
the scaling curve from the JSON. --smoke runs a tiny version of everything in seconds (CTest).

Timing is never asserted by the test suites: speed is measured here, on an otherwise idle
machine, and the figures are recorded with the machine they were measured on.

The programs come from the standalone build (build-bench/) or, with --ns3-tree DIR, from an
ns-3 source tree in which the module was built in-tree (for instance with the optimized
profile and link-time optimization, the fastest way to run it: see the manual); --ranks N runs
every scenario as a distributed run of N MPI processes of such a tree (mpirun -np N, with
--systems=N), and --preload LIB runs every process with LD_PRELOAD=LIB (a faster allocator:
Debian's libjemalloc2 or libtcmalloc-minimal4).

Usage: utils/benchmark.py [--quick | --smoke] [--only NAME[,NAME...]] [--scaling]
                          [--repeat N] [--build-dir DIR] [--no-build] [--ns3-tree DIR]
                          [--ranks N] [--preload LIB] [--json FILE] [--markdown FILE] [--list]
"""

import argparse
import json
import math
import glob
import os
import platform
import re
import statistics
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
    ("perm-128-8MiB-flowlet",
     "128 hosts, permutation of 8 MiB per host, flowlet switching, window CC",
     "reps-lb-comparison",
     ["--lb=flowlet", "--flowSize=8MiB", "--sampleInterval=0"]),
    ("baseline-128-8MiB",
     "plain ns-3: the same fabric, global routing with random ECMP, UDP permutation of 8 MiB "
     "(data only)",
     "reps-ns3-baseline",
     ["--flowSize=8MiB"]),
    ("perm-128-8MiB-dcqcn-pfc-ecmp",
     "128 hosts, permutation of 8 MiB per host, ECMP, DCQCN, PFC, 4 KiB MTU (the setup of the "
     "HPCC-lineage ns-3 RDMA fork's NormalNetwork)",
     "reps-lb-comparison",
     ["--lb=ecmp", "--cc=dcqcn", "--pfc=true", "--mtu=4096", "--flowSize=8MiB",
      "--sampleInterval=0"]),
    ("perm-1024-1MiB-reps",
     "1024 hosts (32 leaves x 32 hosts, 16 spines), permutation of 1 MiB per host, REPS",
     "reps-lb-comparison",
     ["--lb=reps", "--leaves=32", "--hostsPerLeaf=32", "--spines=16", "--flowSize=1MiB",
      "--sampleInterval=0"]),
    ("perm-8192-1MiB-reps",
     "8192 hosts (128 leaves x 64 hosts, 64 spines), permutation of 1 MiB per host, REPS",
     "reps-lb-comparison",
     ["--lb=reps", "--leaves=128", "--hostsPerLeaf=64", "--spines=64", "--flowSize=1MiB",
      "--sampleInterval=0"]),
    ("perm-8192-1MiB-ops",
     "8192 hosts (128 leaves x 64 hosts, 64 spines), permutation of 1 MiB per host, OPS",
     "reps-lb-comparison",
     ["--lb=ops", "--leaves=128", "--hostsPerLeaf=64", "--spines=64", "--flowSize=1MiB",
      "--sampleInterval=0"]),
]

QUICK = {"build-1024": [], "perm-128-8MiB-reps": ["--flowSize=1MiB"],
         "perm-128-8MiB-ops": ["--flowSize=1MiB"], "perm-128-8MiB-ecmp": ["--flowSize=1MiB"],
         "perm-128-8MiB-flowlet": ["--flowSize=1MiB"],
         "baseline-128-8MiB": ["--flowSize=1MiB"],
         "fail-128-reps": [], "perm-1024-1MiB-reps": ["--flowSize=128KiB"],
         "perm-8192-1MiB-reps": ["--flowSize=64KiB"],
         "perm-128-8MiB-dcqcn-pfc-ecmp": ["--flowSize=1MiB"], "perm-8192-1MiB-ops": ["--flowSize=64KiB"]}

# Other simulators on the same scenario, run outside this repository (never built by the
# harness): scenario -> [(simulator and setup, CPU s, CPU us per link packet, peak RSS MiB)],
# medians of three runs on the 2-core Xeon VM of the manual's figures. The harness prints each
# beside the scenario's own figures, with the ratio.
PEERS = {
    "perm-128-8MiB-dcqcn-pfc-ecmp": [
        ("HPCC-lineage ns-3 RDMA fork (aliyun/ns-3-alibabacloud, branch dev/qp, "
         "scratch/NormalNetwork, ns-3.36.1, optimized profile (-O3), sequential simulator), "
         "same fabric and CC, the permutation i -> i+8", 3.99, 1.90, 870)],
    "perm-128-8MiB-reps": [
        ("the REPS authors' htsim (htsim_uec, perm_n128_s8388608.cm, freezing)", 2.30, None,
         None)],
}

# --smoke: the harness itself in a few seconds (16 hosts, 16 KiB per host).
SMOKE_FABRIC = ["--leaves=2", "--hostsPerLeaf=8", "--spines=8"]
SMOKE = [
    ("smoke-reps", "16 hosts, permutation of 16 KiB, REPS", "reps-lb-comparison",
     ["--lb=reps", "--flowSize=16KiB", "--sampleInterval=0"] + SMOKE_FABRIC),
    ("smoke-baseline", "plain ns-3, 16 hosts, UDP permutation of 16 KiB", "reps-ns3-baseline",
     ["--flowSize=16KiB"] + SMOKE_FABRIC),
]

# The scaling series: (tiers, hosts) -> fabric options. 2 tiers: leaves of 8 hosts up to 128
# hosts (the paper's fabric at 128), then 16 and 32 hosts per leaf, as many spines as hosts per
# leaf (no oversubscription); 3 tiers: k-ary fat trees, k = 4, 6, 8, 12, 16.
SCALING_2TIER = {16: (2, 8, 8), 32: (4, 8, 8), 64: (8, 8, 8), 128: (16, 8, 8),
                 256: (16, 16, 16), 512: (32, 16, 16), 1024: (32, 32, 32)}
SCALING_FAT_TREE = {16: 4, 54: 6, 128: 8, 432: 12, 1024: 16}
SCALING_PROGRAMS = [("reps", "reps-lb-comparison", ["--lb=reps", "--sampleInterval=0"]),
                    ("ns3-baseline", "reps-ns3-baseline", [])]


def scaling_runs(flow, smoke, max_hosts=1024, programs=None):
    """The runs of the scaling series: (name, description, program, args, series, hosts)."""
    runs = []
    two = {16: SCALING_2TIER[16], 32: SCALING_2TIER[32]} if smoke else SCALING_2TIER
    fat = {16: 4} if smoke else SCALING_FAT_TREE
    two = {h: v for h, v in two.items() if h <= max_hosts}
    fat = {h: v for h, v in fat.items() if h <= max_hosts}
    for label, program, extra in SCALING_PROGRAMS:
        if programs and label not in programs:
            continue
        for hosts, (leaves, per_leaf, spines) in sorted(two.items()):
            runs.append(("scale-%s-2tier-%d" % (label, hosts),
                         "%s, 2 tiers, %d hosts" % (label, hosts), program,
                         extra + ["--leaves=%d" % leaves, "--hostsPerLeaf=%d" % per_leaf,
                                  "--spines=%d" % spines, "--flowSize=" + flow],
                         "%s 2-tier" % label, hosts))
        for hosts, k in sorted(fat.items()):
            runs.append(("scale-%s-3tier-%d" % (label, hosts),
                         "%s, 3 tiers (k=%d fat tree), %d hosts" % (label, k, hosts), program,
                         extra + ["--tiers=3", "--pods=%d" % k, "--leaves=%d" % (k // 2),
                                  "--hostsPerLeaf=%d" % (k // 2), "--spines=%d" % (k // 2),
                                  "--cores=%d" % (k * k // 4), "--flowSize=" + flow],
                         "%s 3-tier" % label, hosts))
    return runs


def fit_exponent(points):
    """Least-squares fit of log(cost) = log(a) + b log(x); points: (x, cost). Returns b, a."""
    pts = [(math.log(x), math.log(c)) for x, c in points if x > 0 and c > 0]
    if len(pts) < 2:
        return None, None
    mx = sum(p[0] for p in pts) / len(pts)
    my = sum(p[1] for p in pts) / len(pts)
    sxx = sum((p[0] - mx) ** 2 for p in pts)
    if sxx == 0:
        return None, None
    b = sum((p[0] - mx) * (p[1] - my) for p in pts) / sxx
    return b, math.exp(my - b * mx)


def build(build_dir):
    subprocess.run(["cmake", "-S", ROOT, "-B", build_dir, "-G", "Ninja",
                    "-DCMAKE_BUILD_TYPE=Release", "-DREPS_ENABLE_ASSERTS=OFF",
                    "-DREPS_ENABLE_LOGS=OFF", "-DBUILD_TESTING=OFF"],
                   check=True, stdout=subprocess.DEVNULL)
    subprocess.run(["cmake", "--build", build_dir, "-j", str(os.cpu_count() or 1)], check=True)


class Runner:
    """Where the programs are and how a process is started.

    build_dir: the standalone build tree; ns3_tree: an ns-3 source tree with the module built
    in-tree (its programs are build/.../ns3.<version>-<program>-<profile>); ranks: MPI
    processes per run (1: a plain process); preload: a library for LD_PRELOAD, or None.
    """

    def __init__(self, build_dir, ns3_tree=None, ranks=1, preload=None):
        self.build_dir = build_dir
        self.ns3_tree = ns3_tree
        self.ranks = ranks
        self.preload = preload

    def program(self, program):
        if not self.ns3_tree:
            exe = os.path.join(self.build_dir, "examples", program)
            if not os.path.exists(exe):
                sys.exit("benchmark: %s is not built (%s)" % (program, exe))
            return exe
        pattern = re.compile(r"^ns3[.0-9]*(-dev)?-%s(-[a-z]+)?$" % re.escape(program))
        found = sorted(f for f in glob.glob(os.path.join(self.ns3_tree, "build", "**", "ns3*"),
                                            recursive=True)
                       if pattern.match(os.path.basename(f)) and os.access(f, os.X_OK))
        if not found:
            sys.exit("benchmark: %s is not built in the ns-3 tree %s (build it with "
                     "--enable-examples)" % (program, self.ns3_tree))
        return found[0]

    def command(self, exe, args):
        if self.ranks == 1:
            return [exe] + args
        return ["mpirun", "-np", str(self.ranks), exe] + args + ["--systems=%d" % self.ranks]

    def environment(self):
        env = dict(os.environ)
        if self.preload:
            env["LD_PRELOAD"] = self.preload
        if self.ranks > 1 and os.geteuid() == 0:
            env["OMPI_ALLOW_RUN_AS_ROOT"] = "1"
            env["OMPI_ALLOW_RUN_AS_ROOT_CONFIRM"] = "1"
        return env

    def describe(self):
        return {"tree": self.ns3_tree or self.build_dir,
                "kind": "in-tree" if self.ns3_tree else "standalone",
                "ranks": self.ranks, "preload": self.preload}


def run(runner, name, program, args):
    exe = runner.program(program)
    result = {"scenario": name, "program": program, "args": args}
    with tempfile.TemporaryDirectory() as tmp:
        cmd = runner.command(exe, args)
        json_path = None
        if program in ("reps-lb-comparison", "reps-ns3-baseline"):
            json_path = os.path.join(tmp, "result.json")
            cmd += ["--json=" + json_path]
            if program == "reps-lb-comparison":
                cmd += ["--quiet"]
        log_path = os.path.join(tmp, "output.txt")
        with open(log_path, "w") as log:
            start = time.monotonic()
            child = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT,
                                     env=runner.environment())
            # wait4 gives this child's resource usage with that of the processes it waited
            # for (the MPI ranks under mpirun): CPU time summed, peak memory of the largest.
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
            r = data["results"][0] if "results" in data else data
            result["flows"] = r["flows"]
            result["completed"] = r["completed"]
            result["sim_time_us"] = r["sim_time_us"]
            result["run_wall_s"] = round(r["wall_s"], 3)
            result["packets"] = r["packets"]
            result["link_packets"] = int(r.get("link_packets", 0))
            if result["link_packets"]:
                result["us_per_link_packet"] = round(
                    r["wall_s"] * 1e6 / result["link_packets"], 3)
                result["cpu_us_per_link_packet"] = round(
                    result["cpu_s"] * 1e6 / result["link_packets"], 3)
                result["link_packets_per_cpu_s"] = round(
                    result["link_packets"] / result["cpu_s"]) if result["cpu_s"] else None
        else:
            for line in output.splitlines():
                if line.strip().startswith("built in"):
                    result["build_s"] = float(line.split()[2])
    return result


MEDIAN_KEYS = ("wall_s", "cpu_s", "max_rss_mib", "run_wall_s", "us_per_link_packet",
               "cpu_us_per_link_packet", "link_packets_per_cpu_s", "build_s")


def run_repeated(runner, name, program, args, repeat):
    """Run a scenario repeat times; the medians, with every run's figures under "runs"."""
    runs = [run(runner, name, program, args) for _ in range(repeat)]
    result = dict(runs[0])
    for key in MEDIAN_KEYS:
        values = [r[key] for r in runs if r.get(key) is not None]
        if values:
            result[key] = round(statistics.median(values), 3)
            result[key + "_min"] = min(values)
            result[key + "_max"] = max(values)
    result["repeat"] = repeat
    return result


def fmt(value, spec):
    return "-" if value is None else spec % value


ROW = ("scenario", "wall s", "cpu s", "peak RSS MiB", "sim us", "flows", "link packets",
       "cpu us/link pkt", "link pkts/cpu s")


def row(r):
    flows = "%d/%d" % (r["completed"], r["flows"]) if "flows" in r else "-"
    return (r["scenario"], fmt(r["wall_s"], "%.2f"), fmt(r["cpu_s"], "%.2f"),
            fmt(r["max_rss_mib"], "%.1f"), fmt(r.get("sim_time_us"), "%.1f"), flows,
            fmt(r.get("link_packets"), "%d"), fmt(r.get("cpu_us_per_link_packet"), "%.2f"),
            fmt(r.get("link_packets_per_cpu_s"), "%d"))


def beside(results, quick):
    """The PEERS figures beside this run's: one dict per peer of a scenario that ran."""
    out = []
    for r in results:
        for peer, cpu, per_packet, rss in PEERS.get(r["scenario"], []) if not quick else []:
            ours = r.get("cpu_us_per_link_packet")
            out.append({"scenario": r["scenario"], "peer": peer, "peer_cpu_s": cpu,
                        "peer_cpu_us_per_link_packet": per_packet, "peer_max_rss_mib": rss,
                        "cpu_ratio": round(r["cpu_s"] / cpu, 3) if r.get("cpu_s") else None,
                        "per_link_packet_ratio": round(ours / per_packet, 3)
                        if ours and per_packet else None,
                        "rss_ratio": round(r["max_rss_mib"] / rss, 3)
                        if r.get("max_rss_mib") and rss else None})
    return out


def beside_lines(results, quick):
    lines = []
    for b in beside(results, quick):
        lines.append("%s beside %s: CPU %s s (ours / theirs %s), CPU per link packet %s us "
                     "(ratio %s), peak RSS %s MiB (ratio %s)" % (
                         b["scenario"], b["peer"], fmt(b["peer_cpu_s"], "%.2f"),
                         fmt(b["cpu_ratio"], "%.2f"),
                         fmt(b["peer_cpu_us_per_link_packet"], "%.2f"),
                         fmt(b["per_link_packet_ratio"], "%.2f"),
                         fmt(b["peer_max_rss_mib"], "%.0f"), fmt(b["rss_ratio"], "%.3f")))
    return lines


def markdown(results, fits, repeat, machine, quick=False):
    lines = ["# reps benchmark", "",
             "Machine: %s, %s cores; %d run(s) per scenario, medians." % (
                 machine["cpu"], machine["cores"], repeat), "",
             "| " + " | ".join(ROW) + " |", "|" + "---|" * len(ROW)]
    lines += ["| " + " | ".join(row(r)) + " |" for r in results]
    peers = beside_lines(results, quick)
    if peers:
        lines += [""] + ["- " + line for line in peers]
    if fits:
        lines += ["", "Scaling: CPU seconds = a x (link packets)^b, least squares in log-log "
                  "space.", "", "| series | points | b (exponent) | a |", "|---|---|---|---|"]
        lines += ["| %s | %d | %s | %s |" % (f["series"], f["points"],
                                            fmt(f["exponent"], "%.3f"), fmt(f["a"], "%.3g"))
                  for f in fits]
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true",
                        help="smaller workloads (a smoke run of the harness, not for the docs)")
    parser.add_argument("--smoke", action="store_true",
                        help="a tiny version of every kind of run, in seconds (CTest)")
    parser.add_argument("--only", default="", help="comma list of scenario names to run")
    parser.add_argument("--scaling", action="store_true",
                        help="run the scaling series (16 to 1024 hosts, 2 and 3 tiers)")
    parser.add_argument("--scaling-flow", default="1MiB",
                        help="bytes per host of the scaling series (default 1MiB)")
    parser.add_argument("--scaling-max-hosts", type=int, default=1024,
                        help="largest fabric of the scaling series (default 1024)")
    parser.add_argument("--scaling-programs", default="",
                        help="comma list of series to run: reps, ns3-baseline (default both)")
    parser.add_argument("--repeat", type=int, default=1,
                        help="runs per scenario; the medians are reported (default 1)")
    parser.add_argument("--build-dir", default=os.path.join(ROOT, "build-bench"),
                        help="build tree of the benchmark (default: build-bench/)")
    parser.add_argument("--no-build", action="store_true", help="use the build tree as it is")
    parser.add_argument("--ns3-tree",
                        help="take the programs from this ns-3 source tree, where the module "
                             "is built in-tree (never built by the harness)")
    parser.add_argument("--ranks", type=int, default=1,
                        help="MPI processes per run (needs --ns3-tree configured with "
                             "--enable-mpi; default 1)")
    parser.add_argument("--preload", help="run every process with LD_PRELOAD set to this library")
    parser.add_argument("--json", help="write the results to this JSON file")
    parser.add_argument("--markdown", help="write the results as a markdown table to this file")
    parser.add_argument("--list", action="store_true", help="list the scenarios and exit")
    args = parser.parse_args()
    if not 1 <= args.repeat <= 100:
        parser.error("--repeat: %d is out of range; allowed: 1 to 100" % args.repeat)
    if not 1 <= args.ranks <= 64:
        parser.error("--ranks: %d is out of range; allowed: 1 to 64" % args.ranks)
    if args.ranks > 1 and not args.ns3_tree:
        parser.error("--ranks: %d needs --ns3-tree (the standalone build has no MPI)" % args.ranks)
    if args.ns3_tree and not os.path.isfile(os.path.join(args.ns3_tree, "ns3")):
        parser.error("--ns3-tree: %s is not an ns-3 source tree (no ns3 script)" % args.ns3_tree)
    if args.preload and not os.path.isfile(args.preload):
        parser.error("--preload: %s does not exist" % args.preload)
    runner = Runner(args.build_dir, args.ns3_tree, args.ranks, args.preload)

    scenarios = SMOKE if args.smoke else SCENARIOS
    names = [s[0] for s in scenarios]
    scaling = []
    if args.scaling or args.smoke:
        programs = [p for p in args.scaling_programs.split(",") if p]
        known = [label for label, _, _ in SCALING_PROGRAMS]
        if any(p not in known for p in programs):
            parser.error("--scaling-programs: allowed: %s" % ", ".join(known))
        scaling = scaling_runs("16KiB" if args.smoke else args.scaling_flow, args.smoke,
                               args.scaling_max_hosts, programs)
    if args.list:
        for name, desc, program, extra in scenarios:
            print("%-24s %s\n%-24s   %s %s" % (name, desc, "", program, " ".join(extra)))
        for name, desc, program, extra, _, _ in scaling:
            print("%-24s %s\n%-24s   %s %s" % (name, desc, "", program, " ".join(extra)))
        return 0
    chosen = [n for n in args.only.split(",") if n] or names
    unknown = [n for n in chosen if n not in names]
    if unknown:
        parser.error("--only: unknown scenario(s) %s; known: %s" % (", ".join(unknown),
                                                                  ", ".join(names)))
    if not args.no_build and not args.ns3_tree:
        build(args.build_dir)

    results = []
    for name, desc, program, extra in scenarios:
        if name not in chosen:
            continue
        extra = extra + (QUICK.get(name, []) if args.quick else [])
        print("running %s: %s" % (name, desc), file=sys.stderr)
        results.append(run_repeated(runner, name, program, extra, args.repeat))
    series = {}
    for name, desc, program, extra, label, hosts in scaling:
        print("running %s: %s" % (name, desc), file=sys.stderr)
        r = run_repeated(runner, name, program, extra, args.repeat)
        r["series"] = label
        r["hosts"] = hosts
        results.append(r)
        series.setdefault(label, []).append(r)
    fits = []
    for label, rs in series.items():
        b, a = fit_exponent([(r["link_packets"], r["cpu_s"]) for r in rs
                             if r.get("link_packets")])
        fits.append({"series": label, "points": len(rs), "exponent": b, "a": a})

    print(" ".join("%-16s" % h for h in ROW))
    for r in results:
        print(" ".join("%-16s" % c for c in row(r)))
    for line in beside_lines(results, args.quick):
        print(line)
    for f in fits:
        print("scaling %s: cpu s = %s x (link packets)^%s over %d points" % (
            f["series"], fmt(f["a"], "%.3g"), fmt(f["exponent"], "%.3f"), f["points"]))
    machine = {"cpu": platform.processor() or platform.machine(), "cores": os.cpu_count(),
               "python": platform.python_version(), "build": runner.describe()}
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"machine": machine, "quick": args.quick, "smoke": args.smoke,
                       "repeat": args.repeat, "results": results,
                       "beside": beside(results, args.quick),
                       "scaling": [r for r in results if "series" in r], "fits": fits},
                      f, indent=2)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(markdown(results, fits, args.repeat, machine, args.quick))
    return 0


if __name__ == "__main__":
    sys.exit(main())
