#!/usr/bin/env python3
"""Validation harness of the reps module: our figures against the published ones.

Runs a named set of scenarios with the reps-lb-comparison example, several seeds (--RngRun)
each, and checks claims of the REPS paper (and of the UEC simulator's published load-balancing
regression) against the results: "REPS is level with OPS on a symmetric fabric", "ECMP is
clearly slower", "REPS never freezes without failures", "REPS drops far fewer packets than OPS
when links fail", and so on. Writes into the output folder:

  README.md              a report: per scenario its command lines, a table of our results
                         (mean and spread over seeds), our figures beside the published ones,
                         and PASS/FAIL per claim, with notes where they disagree
  <scenario>-fct.png     bar charts of FCT statistics per selector (error bars: standard
                         deviation over seeds)
  <scenario>-cdf.png     CDF of flow completion times (or slowdowns) of the main scenarios

Every run is one selector and one seed in its own process; its result is cached as a JSON file
in the work folder (keyed by its options and by a fingerprint of the built binary and library),
so that a second invocation skips the runs already done with the same build. The last line
printed is "N passed, M failed" (claims); the exit status is 1 when a claim failed (the report
is written first), 2 on bad arguments. --list shows the scenarios with an estimate of their
CPU time: the full set takes about 25 minutes with -j 2 on two cores (about 45 CPU minutes,
mostly 128-host permutations of 8 MiB per host and 1,024-host permutations of 2 MB); --quick
runs a reduced set (64-host fabrics, 2 MiB or 2 MB flows, 2 seeds) in about a minute, for CI;
its report goes to build/validation-quick/ unless --out says otherwise. --reps-artifact DIR adds
the replays of the REPS artifact's matrices beside its simulator's figures (the AI panels: 63
runs, about 15 CPU minutes).

Needs Python 3 and, for the plots, matplotlib (Debian: python3-matplotlib); without it the
report is written without plots.

The uec group (--uet-htsim DIR, a checkout of uet-htsim) reruns the entries of that
simulator's regression plans on the same fabrics and compares our tail FCTs with its committed
outputs; --only uec runs it alone and writes its report to uec.md in the output folder.

Usage: utils/validate.py [--quick] [--only NAME[,NAME...]] [--list] [--binary PATH]
                         [--out DIR] [--work DIR] [--seeds N] [-j N] [--any-build]
                         [--uet-htsim DIR] [--reps-artifact DIR] [--cached-only]
                         [--timeout SECONDS] [--wait SECONDS]

Examples:
  utils/validate.py --quick                       # CI: reduced set, report in build/
  utils/validate.py                               # full set, report in doc/validation/
  utils/validate.py --only uec --uet-htsim ../uet-htsim -j 1   # doc/validation/uec.md
  utils/validate.py --only permutation-2tier,evspace-32 --seeds 1
"""

import argparse
import concurrent.futures
import csv
import datetime
import hashlib
import json
import math
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
PROGRAM = "reps-lb-comparison"
PROG = "validate.py"


def default_binary():
    build = os.environ.get("REPS_BUILD_DIR") or os.path.join(ROOT, "build")
    return os.path.join(build, "examples", PROGRAM)


# ---------------------------------------------------------------------------------------------
# Scenario model
# ---------------------------------------------------------------------------------------------


class Selector:
    """One arm of a scenario: a path selector (--lb) with optional extra options."""

    def __init__(self, label, lb=None, extra=()):
        self.label = label
        self.lb = lb or label
        self.extra = list(extra)


class Variant:
    """One setting of a scenario (e.g. healthy or degraded), run for every selector."""

    def __init__(self, label, args=()):
        self.label = label
        self.args = list(args)


class Claim:
    """A checked statement. check(data) returns (ok or None for no data, our figure text).

    Claims with counted=False are observations: shown, never counted as passed or failed."""

    def __init__(self, text, check, reference="", counted=True):
        self.text = text
        self.check = check
        self.reference = reference
        self.counted = counted


class Reference:
    """A published figure shown beside ours: ours(data) returns the text of our figure."""

    def __init__(self, quantity, ours, published, source):
        self.quantity = quantity
        self.ours = ours
        self.published = published
        self.source = source


class Scenario:
    def __init__(self, name, title, description, base, selectors, variants=None, seeds=3,
                 claims=(), references=(), notes="", panels=("fct_mean", "fct_p99"),
                 cdf=None, unavailable=None, cost=20):
        self.name = name
        self.title = title
        self.description = description
        self.base = list(base)
        self.selectors = [s if isinstance(s, Selector) else Selector(s) for s in selectors]
        self.variants = variants or [Variant("")]
        self.seeds = seeds
        self.claims = list(claims)
        self.references = list(references)
        self.notes = notes
        self.panels = panels
        self.cdf = cdf            # None, "fct" or "slowdown"
        self.unavailable = unavailable  # reason, when the binary cannot run the scenario
        self.cost = cost          # estimated CPU seconds of one run (ordering, --list)
        self.group = None         # a group --only may name (uec), or None
        self.uec = None           # uec group: the plan entry and uet-htsim's committed result

    def runs(self, seeds):
        for v in self.variants:
            for s in self.selectors:
                for seed in range(1, seeds + 1):
                    yield Run(self, v, s, seed)


class Run:
    def __init__(self, scenario, variant, selector, seed):
        self.scenario = scenario
        self.variant = variant
        self.selector = selector
        self.seed = seed
        self.options = (scenario.base + variant.args + selector.extra +
                        ["--lb=" + selector.lb, "--RngRun=%d" % seed])
        self.record = None   # the cached JSON record once done
        self.error = None

    def key(self):
        """Canonical form of the options: the last value of each option wins, order aside."""
        opts = {}
        for o in self.options + ["--sampleInterval=0"]:
            name, _, value = o.partition("=")
            opts[name] = value
        return sorted("%s=%s" % kv for kv in opts.items())

    def describe(self):
        parts = [self.scenario.name]
        if self.variant.label:
            parts.append(self.variant.label)
        parts += [self.selector.label, "seed %d" % self.seed]
        return ", ".join(parts)


# ---------------------------------------------------------------------------------------------
# Access to results and claim builders
# ---------------------------------------------------------------------------------------------

METRICS = {
    "fct_mean": ("mean FCT", "us", lambda r: r["fct_us"]["mean"]),
    "fct_p50": ("p50 FCT", "us", lambda r: r["fct_us"]["p50"]),
    "fct_p99": ("p99 FCT", "us", lambda r: r["fct_us"]["p99"]),
    "fct_max": ("max FCT", "us", lambda r: r["fct_us"]["max"]),
    "sd_mean": ("mean slowdown", "x", lambda r: r["slowdown"]["mean"]),
    "sd_p99": ("p99 slowdown", "x", lambda r: r["slowdown"]["p99"]),
    "drops": ("drops", "packets", lambda r: r["drops"]),
    "trims": ("trims", "packets", lambda r: r["trims"]),
    "retx": ("retransmissions", "packets", lambda r: r["retransmissions"]),
    "freezes": ("freezes", "", lambda r: r["freezes"]),
    "timeouts": ("timeouts", "", lambda r: r.get("timeouts")),
    "link_packets": ("link packets", "packets", lambda r: r.get("link_packets")),
    "completed": ("completed flows", "", lambda r: r["completed"]),
    "flows": ("flows", "", lambda r: r["flows"]),
    "incomplete": ("incomplete flows", "", lambda r: r["flows"] - r["completed"]),
    # A trace's or collective's completion time, from the workload's start to the end of its
    # last flow; undefined when a flow did not finish.
    "coll": ("completion time", "us",
             lambda r: r.get("collective_us") if r["completed"] == r["flows"] else None),
}


class Data:
    """The results of one scenario: runs by (variant label, selector label)."""

    def __init__(self, scenario, runs):
        self.scenario = scenario
        self.by = {}
        for run in runs:
            self.by.setdefault((run.variant.label, run.selector.label), []).append(run)

    def values(self, variant, selector, metric):
        out = []
        for run in self.by.get((variant, selector), []):
            if run.record is None:
                continue
            v = METRICS[metric][2](run.record["result"])
            if v is not None and not (isinstance(v, float) and math.isnan(v)):
                out.append(float(v))
        return out

    def complete(self, variant, selector):
        """True when every seed of the arm has a result."""
        runs = self.by.get((variant, selector), [])
        return bool(runs) and all(r.record is not None for r in runs)

    def agg(self, variant, selector, metric, how="mean"):
        if not self.complete(variant, selector):
            return None
        v = self.values(variant, selector, metric)
        if len(v) != len(self.by[(variant, selector)]):
            return None   # a statistic is undefined in some run (e.g. no completed flow)
        return {"mean": statistics.fmean, "max": max, "min": min, "sum": sum}[how](v)

    def flows(self, variant, selector, key):
        out = []
        for run in self.by.get((variant, selector), []):
            if run.record is not None:
                out += run.record.get("flow_" + key, [])
        return out


def fmt(v, unit=""):
    if v is None:
        return "n/a"
    if unit == "us":
        return "%.1f us" % v
    if unit == "x":
        return "%.3f" % v
    if abs(v - round(v)) < 1e-9:
        return "%d" % round(v)
    return "%.1f" % v


def _arm(variant, selector):
    return "%s %s" % (selector, "(%s)" % variant if variant else "")


def claim_ratio(text, num, den, bound, metric, how="mean", reference="", strict=False,
                counted=True):
    """Holds when metric(num) <= bound x metric(den) (< with strict); num, den: (variant,
    selector)."""
    unit = METRICS[metric][1]

    def check(d):
        a = d.agg(num[0], num[1], metric, how)
        b = d.agg(den[0], den[1], metric, how)
        if a is None or b is None:
            return None, "no data (%s: %s, %s: %s)" % (_arm(*num).strip(), fmt(a, unit),
                                                        _arm(*den).strip(), fmt(b, unit))
        ratio = a / b if b else (math.inf if a else 1.0)
        ok = (a < bound * b) if strict else (a <= bound * b)
        return ok, "%s %s / %s %s = %.3f" % (_arm(*num).strip(), fmt(a, unit),
                                             _arm(*den).strip(), fmt(b, unit), ratio)
    return Claim(text, check, reference, counted)


def claim_at_least(text, num, den, bound, metric, how="mean", reference=""):
    """Holds when metric(num) >= bound x metric(den)."""
    unit = METRICS[metric][1]

    def check(d):
        a = d.agg(num[0], num[1], metric, how)
        b = d.agg(den[0], den[1], metric, how)
        if a is None or b is None:
            return None, "no data"
        return a >= bound * b, "%s %s / %s %s = %.2f" % (
            _arm(*num).strip(), fmt(a, unit), _arm(*den).strip(), fmt(b, unit),
            a / b if b else math.inf)
    return Claim(text, check, reference)


def claim_value(text, arm, metric, op, bound, how="mean", reference="", counted=True):
    """Holds when metric(arm) <op> bound, the seeds aggregated with how."""
    unit = METRICS[metric][1]

    def check(d):
        v = d.agg(arm[0], arm[1], metric, how)
        if v is None:
            return None, "no data"
        ok = {"<=": v <= bound, "==": v == bound, ">=": v >= bound, "<": v < bound}[op]
        label = {"sum": "total over seeds", "max": "worst seed", "mean": "mean over seeds"}[how]
        return ok, "%s: %s (%s)" % (METRICS[metric][0], fmt(v, unit), label)
    return Claim(text, check, reference, counted)


def claim_all_completed(text, arm, reference=""):
    def check(d):
        if not d.complete(*arm):
            return None, "no data"
        done = d.agg(arm[0], arm[1], "completed", "sum")
        total = d.agg(arm[0], arm[1], "flows", "sum")
        return done == total, "%d of %d flows completed (all seeds)" % (done, total)
    return Claim(text, check, reference)


def claim_ratio_of_ratios(text, sel_a, sel_b, var_num, var_den, metric, how="mean",
                          reference="", margin=1.0, counted=True):
    """Holds when the var_num/var_den ratio of sel_a is below margin x that of sel_b."""
    def check(d):
        vals = {}
        for s in (sel_a, sel_b):
            a = d.agg(var_num, s, metric, how)
            b = d.agg(var_den, s, metric, how)
            if a is None or b is None or not b:
                return None, "no data"
            vals[s] = a / b
        return vals[sel_a] < margin * vals[sel_b], "%s %.3f, %s %.3f (%s / %s, %s)" % (
            sel_a, vals[sel_a], sel_b, vals[sel_b], var_num, var_den, METRICS[metric][0])
    return Claim(text, check, reference, counted)


def claim_order(text, variant, selectors, metric, how="mean", reference="", counted=False):
    """Holds when metric is non-decreasing along selectors."""
    unit = METRICS[metric][1]

    def check(d):
        vals = [d.agg(variant, s, metric, how) for s in selectors]
        if any(v is None for v in vals):
            return None, "no data"
        ok = all(a <= b for a, b in zip(vals, vals[1:]))
        return ok, " <= ".join("%s %s" % (s, fmt(v, unit)) for s, v in zip(selectors, vals))
    return Claim(text, check, reference, counted)


def ref_value(arm, metric, how="mean"):
    unit = METRICS[metric][1]
    return lambda d: fmt(d.agg(arm[0], arm[1], metric, how), unit)


def ref_ratio(num, den, metric, how="mean"):
    def ours(d):
        a = d.agg(num[0], num[1], metric, how)
        b = d.agg(den[0], den[1], metric, how)
        return "n/a" if a is None or b is None or not b else "%.2f" % (a / b)
    return ours


# ---------------------------------------------------------------------------------------------
# The scenarios
# ---------------------------------------------------------------------------------------------

PAPER = "REPS paper"
UEC = "the UEC simulator's published regression (uet-htsim)"
# The quick set's fabrics, 64 hosts each without oversubscription: 2 tiers of 8 leaves x 8
# hosts and 8 spines, and 3 tiers of 4 pods of the k=8 fat tree (4 leaves x 4 hosts, 4
# aggregation switches per pod, 16 cores).
QUICK_FABRIC = ["--leaves=8", "--hostsPerLeaf=8", "--spines=8"]
QUICK_FABRIC_3TIER = ["--pods=4"]


# Notes of each scenario, printed in the report as they are: how to read a disagreement with
# the published figures, differences of setup, known causes.
NOTES = {
    "permutation-2tier": "",
    "permutation-3tier": "",
    "tornado-2tier": "",
    "tornado-3tier": "",
    "incast-8to1": "",
    "websearch-80": "REPS froze twice over the two seeds (0 and 2 freezes). At 80% load bursts "
                    "of new flows overflow queues (about 3,000 drops per run for every selector), "
                    "and without trimming REPS counts a timeout as a failure when the queue pair "
                    "has no RTT sample above 1.65 x base RTT in its window, which is the case for "
                    "a queue pair that was idle (no sample at all) when its first packets were "
                    "lost. The reference simulator's way of keeping the recent maximum "
                    "(RttWindow=Tumbling) freezes more on the same runs (0 and 8 freezes). The "
                    "disagreement is reported, not tuned away: REPS's FCTs equal OPS's here.",
    "asym-1x200G": "The paper's figures come from its 32 MiB workload, ours from smaller flows: "
                   "compare the REPS/OPS ratio, not the microseconds.",
    "asym-4x200G-leaf0": "The paper's figures come from its 32 MiB workload, ours from smaller "
                         "flows: compare the REPS/OPS ratio, not the microseconds.",
    "failures-1pct": "",
    "failures-5pct": "",
    "evspace-32": "",
    "uec-lb-regression": "Compare orderings and degraded/healthy ratios only: the congestion "
                         "control (NSCC there, window CC here) and the place of the slow links "
                         "differ; there, the slow links also have their queues and ECN "
                         "thresholds cut to 25%, and REPS is acknowledged every packet while "
                         "OPS and bitmap get one ACK per 16 KB; here every packet is "
                         "acknowledged for all three. With trimming every timeout is a failure "
                         "signal: REPS freezes on the timeouts the slow links cause (about 290 "
                         "per run), which keeps its tail within 20% of the healthy run.",
    "ai-alltoall": "The artifact's matrices are its 32-node ones (its gen_files.py --size_topo "
                   "32); the script of the paper's symmetric figure regenerates them for all "
                   "128 hosts before running, which is not replayed here (16,256 flows per "
                   "all-to-all). With 1 or 2 connections at a time, several nodes often send "
                   "to one receiver at once, and without trimming every loss waits for the "
                   "retransmission timer: one run is one draw, the reference's five seeds "
                   "spread by 14% to 75% (ours by 4% to 32%), so those panels are judged "
                   "against the reference's range. There REPS ends after OPS in both (REPS "
                   "1.09x OPS there, 1.07x here). Completion times of the bandwidth-bound "
                   "panels are 0.5% shorter here: 4096 bytes of payload in 4142 on the wire, "
                   "4086 in 4150 there.",
    "ai-allreduce": "ECMP's ring all-reduce ends sooner here (6,166 us over 3 seeds, 5,688 to "
                    "6,696, against 7,909 us over the reference's 5 seeds, 6,734 to 8,735): "
                    "there, more flows take 400 to 1,200 us (a longer tail of collisions); "
                    "whether the hash draws or the cost of a collision differ was not "
                    "established. ECMP's figures are draws of the switches' hash and are "
                    "compared only as 'ECMP is slowest'. The butterfly's ECMP agrees (3,975 "
                    "against 4,235 us).",
    "ack-coalescing": "Coalescing saves fewer ACKs than 15 of 16 here: the receiver "
                      "acknowledges out-of-order and gap-filling packets at once (as TCP's "
                      "delayed ACKs do), and under packet spraying most packets arrive out of "
                      "order, so the links carry about 94% of the packets of the uncoalesced "
                      "run rather than 53%. Without the gap-filling rule the packets that fill "
                      "the last gaps were held back until the retransmission timer (about 140 "
                      "timeouts and 45 REPS freezes per run).",
}


# The REPS authors' simulator (htsim_uec of the REPS artifact, its run_dc.py settings: 128-host
# 2-tier fabric at 400 Gb/s, trimming, -connections_mapping, 65535 EVs, window CC) on the
# first 3,000 flows of its web-search matrix connection_matrices/100load.cm, seed 1019:
# FCT mean, p50, p99 and max in us, REPS ("freezing") and OPS ("oblivious").
ARTIFACT_WEBSEARCH = {"reps": (104.4, 17.7, 1033.2, 2264.5),
                      "ops": (107.5, 18.2, 1035.9, 2233.4)}
ARTIFACT_MATRIX = os.path.join("htsim", "sim", "datacenter", "connection_matrices", "100load.cm")
REPLAY_FLOWS = 3000


def artifact_prefix(artifact, work):
    """Writes the first REPLAY_FLOWS connections of the artifact's web-search matrix into work;
    returns its path, or None (and why) when the artifact is not there."""
    if not artifact:
        return None, "give --reps-artifact (a checkout of the REPS artifact) to replay its matrix"
    source = os.path.join(artifact, ARTIFACT_MATRIX)
    if not os.path.isfile(source):
        return None, "--reps-artifact: no %s" % source
    with open(source) as f:
        lines = [line for line in f if "->" in line][:REPLAY_FLOWS]
    nodes = 128
    os.makedirs(work, exist_ok=True)
    path = os.path.join(work, "websearch-%d.cm" % REPLAY_FLOWS)
    with open(path, "w") as f:
        f.write("Nodes %d\nConnections %d\n" % (nodes, len(lines)))
        f.writelines(lines)
    return path, None


def replay_scenario(matrix, why_not):
    """The replay of the REPS artifact's web-search matrix beside the authors' simulator."""
    source = "the REPS authors' simulator on the same matrix"
    refs = []
    claims = []
    for sel in ("reps", "ops"):
        mean, p50, p99, peak = ARTIFACT_WEBSEARCH[sel]
        for metric, value in (("fct_mean", mean), ("fct_p50", p50), ("fct_p99", p99),
                              ("fct_max", peak)):
            refs.append(Reference("%s %s" % (sel.upper(), METRICS[metric][0]),
                                  ref_value(("", sel), metric), "%.1f us" % value, source))
        for metric, value in (("fct_mean", mean), ("fct_p99", p99)):
            claims.append(claim_value("%s %s within 5%% of the reference's (%.1f us)" % (
                sel.upper(), METRICS[metric][0], value), ("", sel), metric, "<=", 1.05 * value,
                reference=source))
            claims.append(claim_value("%s %s at least 95%% of the reference's" % (
                sel.upper(), METRICS[metric][0]), ("", sel), metric, ">=", 0.95 * value,
                reference=source))
    return Scenario(
        "websearch-replay", "the REPS artifact's web-search matrix, replayed",
        "The first %d flows of the REPS artifact's connection matrix 100load.cm (web-search "
        "sizes at 100%% load) on the paper's 128-host fabric with trimming; every flow a "
        "connection that takes the state of its pair's finished flow (--connections=reuse, "
        "the artifact's -connections_mapping)." % REPLAY_FLOWS,
        ["--pattern=trace", "--traceFile=" + (matrix or "none"), "--trim=true",
         "--connections=reuse"],
        ["ops", "reps"], seeds=2, cost=12, panels=("fct_mean", "fct_p99", "fct_max"),
        references=refs, claims=claims, unavailable=why_not)


# The same simulator with its failures_input/5_percent_failed_cables.txt (without trimming,
# seed 42) on its 8 MB permutation connection_matrices/perm_128n_128c_8MB.cm.
ARTIFACT_FAILED_CABLES = {"reps": (190.2, 193.7, 218.7, 227.1),
                          "ops": (1604.2, 1884.9, 2465.1, 2522.3)}
ARTIFACT_PERMUTATION = os.path.join("htsim", "sim", "datacenter", "connection_matrices",
                                    "perm_128n_128c_8MB.cm")


def cables_scenario(artifact):
    """The reference's failed cables on its own permutation, beside the authors' simulator."""
    matrix = os.path.join(artifact, ARTIFACT_PERMUTATION) if artifact else None
    why_not = None
    if not artifact:
        why_not = "give --reps-artifact (a checkout of the REPS artifact) to replay its matrix"
    elif not os.path.isfile(matrix):
        why_not = "--reps-artifact: no %s" % matrix
    source = "the REPS authors' simulator, 5% failed cables, same matrix"
    refs = []
    for sel in ("reps", "ops"):
        for i, metric in enumerate(("fct_mean", "fct_p50", "fct_p99", "fct_max")):
            refs.append(Reference("%s %s" % (sel.upper(), METRICS[metric][0]),
                                  ref_value(("", sel), metric),
                                  "%.1f us" % ARTIFACT_FAILED_CABLES[sel][i], source))
    reps_mean = ARTIFACT_FAILED_CABLES["reps"][0]
    ops_mean = ARTIFACT_FAILED_CABLES["ops"][0]
    claims = [
        claim_all_completed("REPS completes every flow", ("", "reps"), reference=source),
        claim_value("REPS mean FCT within 5%% of the reference's (%.1f us)" % reps_mean,
                    ("", "reps"), "fct_mean", "<=", 1.05 * reps_mean, reference=source),
        claim_ratio("REPS mean FCT at most a quarter of OPS's", ("", "reps"), ("", "ops"),
                    0.25, "fct_mean", reference="%s: REPS ~190 us, OPS ~1,600 us" % source),
        # Not counted: the open difference the manual describes (OPS's flows from leaves with
        # failed uplinks take longer here, the others less).
        claim_value("OPS mean FCT within 15%% of the reference's (%.1f us)" % ops_mean,
                    ("", "ops"), "fct_mean", "<=", 1.15 * ops_mean, reference=source,
                    counted=False)]
    return Scenario(
        "failed-cables-5pct", "5% failed cables, the reference's failure model",
        "The REPS artifact's 8 MB permutation (perm_128n_128c_8MB.cm) on the paper's 128-host "
        "fabric without trimming; from the start, link directions fail at the first packets "
        "that cross them until 5% of the cables have failed (--failedCables=0.05: 13 "
        "directions), as its failures_input/5_percent_failed_cables.txt does.",
        ["--pattern=trace", "--traceFile=" + (matrix or "none"), "--failedCables=0.05",
         "--connections=reuse"],
        ["ops", "reps"], seeds=2, cost=40, panels=("fct_mean", "fct_p99", "fct_max"),
        references=refs, claims=claims, unavailable=why_not)


# The REPS paper's AI-collective panels: the REPS artifact's collective matrices
# (htsim/sim/datacenter/connection_matrices/, 32 nodes: hosts 0 to 31 of the 128-host fabric,
# leaves 0 to 3 in both simulators), replayed beside its htsim_uec. Its figures were produced
# by building the artifact (make in htsim/sim, then in htsim/sim/datacenter) and running, in
# htsim/sim/datacenter, the command of its run_collective.py as its run_all_symm.py runs the
# panels (--trim off, so -disable_trim; -paths 65535, the value its loop first formats in):
#   ./htsim_uec -disable_trim -connections_mapping -down_ratio 0.5 -sack_threshold 4000
#       -end 90000 -seed 1019 -paths 65535 -sender_cc_only -sender_cc_algo mprdma
#       -topo topologies/reps/fat_tree_128_1os_2t_400g.topo -linkspeed 400000 -ecn 25 76
#       -q 100 -cwnd 151 -tm connection_matrices/<matrix>.cm -load_balancing_algo <algo>
# with <algo> ecmp, oblivious (OPS) and freezing (REPS), and again with -seed 1, 2, 3 and 4.
# Per matrix and selector: the completion time of the whole matrix with seeds 1019 (the
# artifact's), 1, 2, 3 and 4 (the largest "sim time" of the "Flow ... finished at" lines, in us
# from the simulation's start, the origin of the matrix's start times; ours: collective_us,
# from the workload's start), then the mean FCT ("finished at") over the five runs.
ARTIFACT_COLLECTIVES = {
    "alltoall1": {"ecmp": ((4422.4, 3753.3, 4497.4, 3639.2, 3761.1), 102.1),
                  "ops": ((3072.4, 2946.1, 2288.0, 4010.8, 2616.6), 67.9),
                  "reps": ((3141.2, 3049.5, 3271.5, 3140.6, 3693.2), 66.8)},
    "alltoall2": {"ecmp": ((3067.4, 2728.6, 2843.6, 2767.2, 2802.2), 144.9),
                  "ops": ((2290.7, 2736.1, 2235.9, 2217.7, 2145.5), 112.3),
                  "reps": ((2077.7, 2205.2, 2136.9, 2049.2, 2343.7), 110.1)},
    "alltoall4": {"ecmp": ((2160.3, 2101.8, 2186.2, 2082.0, 2139.8), 206.8),
                  "ops": ((1527.0, 1594.5, 1526.7, 1575.5, 1565.9), 175.8),
                  "reps": ((1525.8, 1493.9, 1570.1, 1503.5, 1532.9), 174.7)},
    "alltoall8": {"ecmp": ((1722.9, 1749.4, 1770.3, 1755.6, 1725.8), 347.4),
                  "ops": ((1306.3, 1309.2, 1309.9, 1311.5, 1324.5), 323.6),
                  "reps": ((1310.7, 1303.4, 1304.4, 1305.0, 1339.1), 323.6)},
    "alltoall16": {"ecmp": ((1619.5, 1684.8, 1691.9, 1663.5, 1623.6), 692.6),
                   "ops": ((1293.3, 1293.5, 1293.3, 1293.4, 1293.3), 644.3),
                   "reps": ((1293.2, 1293.1, 1293.4, 1293.2, 1293.3), 644.2)},
    "allreduce": {"ecmp": ((8411.2, 8465.0, 6734.0, 7199.4, 8734.6), 221.7),
                  "ops": ((2819.5, 2819.8, 2819.5, 2819.8, 2818.8), 90.7),
                  "reps": ((2817.7, 2818.1, 2817.8, 2817.7, 2817.9), 90.7)},
    "allreduce_t": {"ecmp": ((4290.3, 4622.0, 4726.6, 3408.1, 4126.3), 595.9),
                    "ops": ((2135.4, 2143.1, 2152.5, 2175.0, 2133.4), 424.0),
                    "reps": ((2095.7, 2095.2, 2095.0, 2094.8, 2095.1), 418.9)},
}
ARTIFACT_CM_DIR = os.path.join("htsim", "sim", "datacenter", "connection_matrices")
# REPS's and OPS's completion times (the mean over our seeds) within 10% of the mean of the
# artifact's five runs; where those five spread by more than that (the all-to-alls with 1 and
# 2 connections at a time, where the incasts of the random order decide), within their range.
COLLECTIVE_TOLERANCE = 0.10
# (scenario, title, description, [(variant label, matrix)])
AI_PANELS = [
    ("ai-alltoall", "AI panels: windowed all-to-all, the REPS artifact's matrices",
     "The REPS artifact's all-to-all matrices alltoall1.cm to alltoall16.cm: 32 nodes (hosts "
     "0 to 31, leaves 0 to 3 of the paper's 128-host fabric) each send 2 MB to each of the "
     "31 others, 1, 2, 4, 8 or 16 connections at a time (a connection's end starts the node's "
     "next through the matrix's triggers); no trimming, --connections=reuse (the artifact's "
     "-connections_mapping), as its run_all_symm.py runs them for the paper's panels "
     "(run_collective.py --trim off).",
     [("%d at a time" % n, "alltoall%d" % n) for n in (1, 2, 4, 8, 16)]),
    ("ai-allreduce", "AI panels: ring and butterfly all-reduce, the REPS artifact's matrices",
     "The REPS artifact's all-reduce matrices: allreduce.cm, a ring all-reduce on 16 of the "
     "32 nodes (16 chains at once, one from each node, each of 31 steps of 4 MB to the next "
     "node of the ring, a step started by the end of the previous one), and allreduce_t.cm, "
     "a butterfly all-reduce over 32 nodes (5 stages of 20 MB per node); hosts 0 to 31 of "
     "the paper's 128-host fabric, no trimming, --connections=reuse, as its "
     "run_all_symm.py runs them for the paper's panels (run_collective.py --trim off).",
     [("ring", "allreduce"), ("butterfly", "allreduce_t")]),
]


def claim_within(text, arm, metric, value, tol, reference="", counted=True):
    """Holds when metric(arm), the mean over seeds, is within tol (a fraction) of value."""
    unit = METRICS[metric][1]

    def check(d):
        v = d.agg(arm[0], arm[1], metric)
        if v is None:
            return None, "no data"
        return abs(v / value - 1) <= tol, "ours %s, reference %s (%+.1f%%)" % (
            fmt(v, unit), fmt(value, unit), (v / value - 1) * 100)
    return Claim(text, check, reference, counted)


def claim_between(text, arm, metric, lo, hi, reference="", counted=True):
    """Holds when metric(arm), the mean over seeds, lies in [lo, hi]."""
    unit = METRICS[metric][1]

    def check(d):
        v = d.agg(arm[0], arm[1], metric)
        if v is None:
            return None, "no data"
        return lo <= v <= hi, "ours %s, reference's range %s to %s" % (
            fmt(v, unit), fmt(lo, unit), fmt(hi, unit))
    return Claim(text, check, reference, counted)


def claim_falls(text, variants, selector, metric, step, overall, reference="", counted=True):
    """Holds when metric(selector) never rises by more than a factor step from one variant to
    the next, and the last is at most overall x the first."""
    unit = METRICS[metric][1]

    def check(d):
        vals = [d.agg(v, selector, metric) for v in variants]
        if any(v is None for v in vals):
            return None, "no data"
        ok = (all(b <= step * a for a, b in zip(vals, vals[1:])) and
              vals[-1] <= overall * vals[0])
        return ok, "%s (last / first %.2f)" % (" > ".join(fmt(v, unit) for v in vals),
                                               vals[-1] / vals[0])
    return Claim(text, check, reference, counted)


def collective_scenarios(artifact):
    """The REPS paper's AI-collective panels, each matrix of the artifact a variant, beside
    the authors' simulator (ARTIFACT_COLLECTIVES)."""
    source = "the REPS authors' simulator on the same matrix, 5 seeds"
    out = []
    for name, title, description, panels in AI_PANELS:
        why_not = None
        if not artifact:
            why_not = ("give --reps-artifact (a checkout of the REPS artifact) to replay its "
                       "matrices")
        variants, refs, claims = [], [], []
        for label, matrix in panels:
            path = os.path.join(artifact, ARTIFACT_CM_DIR, matrix + ".cm") if artifact else None
            if artifact and not os.path.isfile(path) and not why_not:
                why_not = "--reps-artifact: no %s" % path
            variants.append(Variant(label, ["--traceFile=" + (path or "none")]))
            theirs = ARTIFACT_COLLECTIVES[matrix]
            mean = {sel: statistics.fmean(theirs[sel][0]) for sel in theirs}
            for sel in ("ecmp", "ops", "reps"):
                runs = theirs[sel][0]
                refs.append(Reference(
                    "%s, %s completion time" % (label, sel.upper()),
                    ref_value((label, sel), "coll"),
                    "%.1f us (%.1f to %.1f; seed 1019: %.1f)" % (mean[sel], min(runs),
                                                                 max(runs), runs[0]),
                    source))
            for sel in ("ops", "reps"):
                refs.append(Reference("%s, %s mean FCT" % (label, sel.upper()),
                                      ref_value((label, sel), "fct_mean"),
                                      "%.1f us" % theirs[sel][1], source))
            for sel in ("reps", "ops"):
                lo, hi = min(theirs[sel][0]), max(theirs[sel][0])
                if hi / lo - 1 <= COLLECTIVE_TOLERANCE:
                    claims.append(claim_within(
                        "%s: %s completion time within %d%% of the reference's (%.1f us)" % (
                            label, sel.upper(), COLLECTIVE_TOLERANCE * 100, mean[sel]),
                        (label, sel), "coll", mean[sel], COLLECTIVE_TOLERANCE,
                        reference=source))
                else:
                    claims.append(claim_between(
                        "%s: %s completion time within the reference's range over its seeds "
                        "(%.1f to %.1f us: it spreads by %.0f%%, beyond the %d%% tolerance)" % (
                            label, sel.upper(), lo, hi, (hi / lo - 1) * 100,
                            COLLECTIVE_TOLERANCE * 100),
                        (label, sel), "coll", lo, hi, reference=source))
            claims.append(claim_at_least(
                "%s: ECMP completion time at least 1.1x REPS's" % label, (label, "ecmp"),
                (label, "reps"), 1.1, "coll", reference="%s: ECMP %.2fx REPS" % (
                    source, mean["ecmp"] / mean["reps"])))
            ratio = mean["reps"] / mean["ops"]
            if ratio <= 1.05:
                claims.append(claim_ratio(
                    "%s: REPS completion time at most 1.05x OPS's" % label, (label, "reps"),
                    (label, "ops"), 1.05, "coll",
                    reference="%s: REPS %.3fx OPS" % (source, ratio)))
            else:
                # There REPS is the slower, within the spread of the seeds: an observation.
                claims.append(claim_ratio(
                    "%s: OPS completion time at most REPS's, as in the reference" % label,
                    (label, "ops"), (label, "reps"), 1.0, "coll", counted=False,
                    reference="%s: REPS %.3fx OPS, within the spread of its seeds" % (
                        source, ratio)))
        if name == "ai-alltoall":
            labels = [label for label, _ in panels]
            for sel in ("reps", "ops"):
                means = [statistics.fmean(ARTIFACT_COLLECTIVES[m][sel][0]) for _, m in panels]
                claims.append(claim_falls(
                    "%s completion time falls with more connections at a time: no step up "
                    "by more than 2%%, 16 at a time at most 0.6x 1 at a time" % sel.upper(),
                    labels, sel, "coll", 1.02, 0.6, reference="%s: %s (%.2f)" % (
                        source, " > ".join("%.0f" % m for m in means), means[-1] / means[0])))
        out.append(Scenario(
            name, title, description,
            ["--pattern=trace", "--trim=false", "--connections=reuse"],
            ["ecmp", "ops", "reps"], variants=variants, seeds=3, cost=14,
            panels=("coll", "fct_mean", "fct_p99"), references=refs, claims=claims,
            unavailable=why_not))
    return out


def build_scenarios(quick, options, matrix=None, why_not=None, artifact=None, uet=None,
                    cc_names=()):
    """The scenarios of the full set, or of the quick set; options: the binary's options;
    matrix: the replayed prefix of the artifact's matrix (None, and why_not, without it); uet:
    a checkout of uet-htsim (the uec group), cc_names: what the binary's --cc accepts."""
    out = build_lb_scenarios(quick, options, matrix, why_not, artifact)
    out += uec_scenarios(uet, quick, options, set(cc_names))
    for s in out:
        if s.group != "uec":
            s.notes = NOTES.get(s.name, "")
    return out


def build_lb_scenarios(quick, options, matrix, why_not, artifact):
    """The load-balancing scenarios: REPS paper's figures and the UEC LB regression."""
    out = []
    size = "2MiB" if quick else "8MiB"
    fabric = QUICK_FABRIC if quick else []
    seeds = 2 if quick else 3
    tol = 1.05 if quick else 1.02
    ecmp_factor = 1.3 if quick else 1.5

    # 1. Symmetric permutation and tornado, 2 and 3 tiers.
    for pattern in ("permutation", "tornado"):
        for tiers in (2, 3):
            if quick and pattern != "permutation":
                continue
            name = "%s-%dtier" % (pattern, tiers)
            shape = ("the paper's 128-host 2-tier fabric (16 leaves x 8 hosts, 8 spines)"
                     if tiers == 2 else "the k=8 fat tree of 128 hosts (3 tiers)")
            if quick:
                shape = ("a 64-host 2-tier fabric (8 leaves x 8 hosts, 8 spines)" if tiers == 2
                         else "4 pods of the k=8 fat tree (64 hosts, 3 tiers)")
            base = ["--pattern=" + pattern, "--flowSize=" + size]
            if tiers == 3:
                base = ["--tiers=3"] + base + (QUICK_FABRIC_3TIER if quick else [])
            else:
                base += fabric
            ref = "%s: REPS level with or slightly ahead of OPS on symmetric fabrics" % PAPER
            out.append(Scenario(
                name, "symmetric %s, %d tiers" % (pattern, tiers),
                "A %s of %s per host on %s, 400 Gb/s links, window congestion control." % (
                    pattern, size, shape),
                base, ["ecmp", "ops", "reps"], seeds=seeds, cdf="fct",
                cost=(2 if quick else 20) * (1.5 if tiers == 3 else 1),
                claims=[
                    claim_ratio("REPS mean FCT within %d%% of OPS or better" % round(
                        (tol - 1) * 100), ("", "reps"), ("", "ops"), tol, "fct_mean",
                        reference=ref),
                    claim_ratio("REPS p99 FCT within %d%% of OPS or better" % round(
                        (tol - 1) * 100), ("", "reps"), ("", "ops"), tol, "fct_p99",
                        reference=ref),
                    claim_value("OPS mean FCT within 10% of the ideal (mean slowdown <= 1.10)",
                                ("", "ops"), "sd_mean", "<=", 1.10,
                                reference="%s: packet spraying near line rate" % PAPER),
                    claim_value("REPS mean FCT within 10% of the ideal (mean slowdown <= 1.10)",
                                ("", "reps"), "sd_mean", "<=", 1.10,
                                reference="%s: packet spraying near line rate" % PAPER),
                    claim_at_least("ECMP mean FCT at least %.1fx REPS's" % ecmp_factor,
                                   ("", "ecmp"), ("", "reps"), ecmp_factor, "fct_mean",
                                   reference="%s: ECMP hash collisions" % PAPER),
                    claim_value("REPS never freezes (no failures)", ("", "reps"), "freezes",
                                "==", 0, how="sum",
                                reference="%s: freezing only on failure signals" % PAPER),
                ]))

    # 2. Incast and web search: no freezing without failures.
    out.append(Scenario(
        "incast-8to1", "incast 8:1",
        "8 senders into host 0, %s each, on %s." % (
            size, "the 64-host quick fabric" if quick else "the paper's 128-host fabric"),
        ["--pattern=incast", "--incastSenders=8", "--flowSize=" + size] + fabric,
        ["ecmp", "ops", "reps"], seeds=seeds, cost=0.5 if quick else 2,
        claims=[claim_value("REPS never freezes (no failures)", ("", "reps"), "freezes", "==",
                            0, how="sum",
                            reference="%s: congestion alone never freezes" % PAPER)]))
    if not quick:
        out.append(Scenario(
            "websearch-80", "web search at 80% load",
            "Poisson arrivals of web-search flow sizes at 80% of the host link rate for 200 us "
            "on the paper's 128-host fabric.",
            ["--pattern=websearch", "--load=0.8", "--duration=200us"],
            ["ecmp", "ops", "reps"], seeds=seeds, cdf="slowdown", cost=20,
            panels=("fct_mean", "fct_p99", "sd_mean"),
            claims=[claim_value("REPS never freezes (no failures)", ("", "reps"), "freezes",
                                "==", 0, how="sum",
                                reference="%s: congestion alone never freezes" % PAPER)]))

    if not quick:
        out.append(replay_scenario(matrix, why_not))
        out.append(cables_scenario(artifact))
        out += collective_scenarios(artifact)

    # 3. Asymmetry: degraded leaf uplinks.
    micro = [Reference("OPS max FCT", ref_value(("", "ops"), "fct_max"), "~1,400 us",
                       PAPER + ", micro case, 32 MiB workload"),
             Reference("REPS max FCT", ref_value(("", "reps"), "fct_max"), "~800 us",
                       PAPER + ", micro case, 32 MiB workload"),
             Reference("REPS / OPS max FCT", ref_ratio(("", "reps"), ("", "ops"), "fct_max"),
                       "~0.57", PAPER + " (ratio of the two figures above)")]
    for name, title, args, desc in (
            ("asym-1x200G", "one leaf uplink at 200 Gb/s",
             ["--degradedLinks=1", "--degradedRate=200Gbps"],
             "one leaf uplink, drawn at random per seed, runs at 200 Gb/s"),
            ("asym-4x200G-leaf0", "4 uplinks of leaf 0 at 200 Gb/s",
             ["--degradedLinks=4", "--degradeLeaf=0", "--degradedRate=200Gbps"],
             "the first 4 uplinks of leaf 0 run at 200 Gb/s")):
        if quick and name != "asym-1x200G":
            continue
        out.append(Scenario(
            name, "asymmetry: " + title,
            "A permutation of %s per host on %s; %s." % (
                size, "the 64-host quick fabric" if quick else "the paper's 128-host fabric",
                desc),
            ["--pattern=permutation", "--flowSize=" + size] + fabric + args,
            ["ecmp", "ops", "reps"], seeds=seeds, panels=("fct_mean", "fct_max"),
            references=micro, cost=2 if quick else 20,
            claims=[claim_ratio("REPS max FCT at most 0.9x OPS's", ("", "reps"), ("", "ops"),
                                0.9, "fct_max",
                                reference="%s: OPS ~1,400 us, REPS ~800 us" % PAPER)]))

    # 4. Failures without trimming; freezing on and off.
    freeze_off = ("--freezing=false" if "freezing" in options
                  else "--ns3::RepsPathSelector::FreezingEnabled=false")
    fails = ((3, "5pct", "5% of the 64 leaf uplinks (3 links)"),) if quick else (
        (1, "1pct", "1% of the 128 leaf uplinks (1 link)"),
        (6, "5pct", "5% of the 128 leaf uplinks (6 links)"))
    for n, tag, desc in fails:
        claims = [
            claim_all_completed("REPS completes every flow", ("", "reps"),
                                reference="%s: REPS routes around failed links" % PAPER),
            claim_ratio("REPS drops %s than OPS" % ("fewer packets" if quick else
                                                    "at most half as many packets"),
                        ("", "reps"), ("", "ops"), 1.0 if quick else 0.5, "drops",
                        strict=quick, reference="%s: far fewer drops than OPS" % PAPER)]
        claims.append(claim_ratio(
            "freezing on vs off: REPS drops no more packets with freezing", ("", "reps"),
            ("", "reps-nofreeze"), 1.0, "drops", counted=False,
            reference="%s: freezing mitigates failures without trimming" % PAPER))
        claims.append(claim_ratio(
            "freezing on vs off: REPS mean FCT no longer with freezing", ("", "reps"),
            ("", "reps-nofreeze"), 1.0, "fct_mean", counted=False,
            reference="%s: freezing mitigates failures without trimming" % PAPER))
        sels = ["ops", "reps", Selector("reps-nofreeze", "reps", [freeze_off])]
        out.append(Scenario(
            "failures-" + tag, "failures without trimming: " + desc,
            "A permutation of %s per host on %s; %s fail for good at 20 us and stay "
            "blackholes (no rerouting, no trimming: drops are found by timeouts)." % (
                size, "the 64-host quick fabric" if quick else "the paper's 128-host fabric",
                desc.split("(")[1].rstrip(")")),
            ["--pattern=permutation", "--flowSize=" + size, "--failedLinks=%d" % n,
             "--failAt=20us"] + fabric,
            sels, seeds=seeds, panels=("fct_mean", "fct_max", "drops"), claims=claims,
            cost=2 if quick else 22))

    # 5. EV space.
    out.append(Scenario(
        "evspace-32", "EV space 32 vs 65536",
        "A permutation of %s per host on %s with 65536 and with 32 entropy values." % (
            size, "the 64-host quick fabric" if quick else "the paper's 128-host fabric"),
        ["--pattern=permutation", "--flowSize=" + size] + fabric, ["ops", "reps"],
        seeds=seeds, cost=2 if quick else 20,
        variants=[Variant("65536 EVs"), Variant("32 EVs", ["--evSpace=32"])],
        references=[
            Reference("REPS mean FCT, 32 / 65536 EVs",
                      ref_ratio(("32 EVs", "reps"), ("65536 EVs", "reps"), "fct_mean"),
                      "~1.08", PAPER),
            Reference("OPS mean FCT, 32 / 65536 EVs",
                      ref_ratio(("32 EVs", "ops"), ("65536 EVs", "ops"), "fct_mean"),
                      "1.21-1.64", PAPER)],
        claims=[
            claim_ratio("REPS loses under 10% with 32 EVs (mean FCT)", ("32 EVs", "reps"),
                        ("65536 EVs", "reps"), 1.10, "fct_mean",
                        reference="%s: REPS ~8%% slower" % PAPER),
            claim_ratio_of_ratios("OPS loses more than REPS with 32 EVs (mean FCT)",
                                  "reps", "ops", "32 EVs", "65536 EVs", "fct_mean",
                                  reference="%s: OPS 21-64%% slower" % PAPER)]))

    # 6. The UEC simulator's load-balancing regression.
    if quick:
        shape = ("a 64-host cut of its shape: 2 pods of 4 leaves x 8 hosts, 8 aggregation "
                 "switches per pod, 32 cores")
        fabric_uec = ["--pods=2", "--leaves=4", "--hostsPerLeaf=8", "--spines=8",
                      "--cores=32"]
        degraded = 2
    else:
        shape = ("a 3-tier k=16 fat tree of 1,024 hosts (16 pods of 8 leaves x 8 hosts, 8 "
                 "aggregation switches per pod, 64 cores)")
        fabric_uec = ["--pods=16", "--leaves=8", "--hostsPerLeaf=8", "--spines=8",
                      "--cores=64"]
        degraded = 8
    pub = {("healthy", "ops"): 212.8, ("healthy", "bitmap"): 200.5,
           ("healthy", "reps"): 198.2, ("degraded", "ops"): 280.8,
           ("degraded", "bitmap"): 220.3, ("degraded", "reps"): 206.7}
    refs = [Reference("%s max FCT, %s" % (s, v), ref_value((v, s), "fct_max"),
                      "%.1f us" % pub[(v, s)], UEC)
            for v in ("healthy", "degraded") for s in ("ops", "bitmap", "reps")]
    refs += [Reference("%s max FCT, degraded / healthy" % s,
                       ref_ratio(("degraded", s), ("healthy", s), "fct_max"),
                       "%.2f" % (pub[("degraded", s)] / pub[("healthy", s)]), UEC)
             for s in ("ops", "bitmap", "reps")]
    out.append(Scenario(
        "uec-lb-regression", "%s-host permutation, 128 EVs, trimming (UEC regression)" % (
            "64" if quick else "1,024"),
        "As in %s: 1,024 hosts in a 3-tier k=16 fat tree, 100 Gb/s links, 1 us per "
        "hop, queues of 1 BDP (43 packets of 4 KiB) with ECN between 9 and 35 packets, "
        "trimming on, 128 entropy values, a permutation of 2 MB per host; 'degraded': 8 "
        "links at 25%% of the link rate. Here: %s, the same links, queues, ECN, trimming, "
        "EVs and flows; 'degraded': %d leaf uplinks drawn at random at 25 Gb/s (both "
        "directions), where the regression slows the 8 core-to-aggregation downlinks of "
        "one aggregation switch. Its congestion control is NSCC, ours the window CC, so "
        "the figures are compared as an ordering and as degraded/healthy ratios. Its tail "
        "FCT is the largest FCT, compared with our max FCT." % (UEC, shape, degraded),
        ["--tiers=3"] + fabric_uec +
        ["--linkRate=100Gbps", "--linkDelay=1us", "--queuePackets=43",
         "--ecnKmin=9", "--ecnKmax=35", "--trim=true", "--evSpace=128",
         "--pattern=permutation", "--flowSize=2MB"],
        ["ops", "bitmap", "reps"], seeds=2, cdf="fct", cost=2.5 if quick else 60,
        variants=[Variant("healthy"),
                  Variant("degraded", ["--degradedLinks=%d" % degraded,
                                       "--degradedRate=25Gbps"])],
        panels=("fct_mean", "fct_max"), references=refs,
        claims=[
            claim_ratio_of_ratios("REPS degraded/healthy max-FCT ratio below OPS's",
                                  "reps", "ops", "degraded", "healthy", "fct_max",
                                  how="mean", reference="%s: OPS 1.32, REPS 1.04" % UEC),
            claim_order("tail FCT ordering REPS <= bitmap <= OPS, healthy", "healthy",
                        ["reps", "bitmap", "ops"], "fct_max",
                        reference="%s: 198.2 <= 200.5 <= 212.8 us" % UEC),
            claim_order("tail FCT ordering REPS <= bitmap <= OPS, degraded", "degraded",
                        ["reps", "bitmap", "ops"], "fct_max",
                        reference="%s: 206.7 <= 220.3 <= 280.8 us" % UEC)]))

    # 7. ACK coalescing.
    if not quick:
        ack = next((o for o in sorted(options) if re.match(r"ack(every|coalesc|ratio)", o,
                                                           re.I)), None)
        variants = [Variant("1 per ACK"), Variant("8 per ACK"), Variant("16 per ACK")]
        if ack:
            variants = [Variant("%d per ACK" % n, ["--%s=%d" % (ack, n)]) for n in (1, 8, 16)]
        out.append(Scenario(
            "ack-coalescing", "ACK coalescing: 1, 8, 16 packets per ACK",
            "A permutation of 8 MiB per host on the paper's 128-host fabric, the receiver "
            "acknowledging every packet, every 8th or every 16th.",
            ["--pattern=permutation", "--flowSize=8MiB"], ["ops", "reps"], seeds=seeds,
            variants=variants, cost=20,
            unavailable=None if ack else (
                "%s has no ACK-coalescing option in its --help" % PROGRAM),
            claims=[
                claim_ratio("REPS mean FCT with 16 packets per ACK within 10% of 1 per ACK",
                            ("16 per ACK", "reps"), ("1 per ACK", "reps"), 1.10, "fct_mean",
                            reference="%s: REPS works with coalesced ACKs" % PAPER),
                claim_value("REPS never freezes with 16 packets per ACK",
                            ("16 per ACK", "reps"), "freezes", "==", 0, how="sum"),
                # Without it the scenario would pass with an option that changes nothing. Under
                # spraying, out-of-order and gap-filling packets are acknowledged at once, so
                # far fewer than 15 of 16 ACKs are saved (see NOTES): the bound asks for a cut
                # that an ignored option cannot give.
                claim_ratio("ACKs really coalesced: REPS link packets (data and ACKs) with 16 "
                            "per ACK at most 97% of 1 per ACK", ("16 per ACK", "reps"),
                            ("1 per ACK", "reps"), 0.97, "link_packets",
                            reference="fewer ACKs on the links")]))
    return out


# ---------------------------------------------------------------------------------------------
# The uec group: uet-htsim's committed regression plans, rerun on the same fabrics
# ---------------------------------------------------------------------------------------------

# (short name, plan, committed output) in uet-htsim's htsim/sim/datacenter/.
UEC_PLANS = [
    ("snd", "validate_uec_sender.txt", "validate_outputs/validate_uec_sender.out"),
    ("rcv", "validate_uec_rcv.txt", "validate_outputs/validate_uec_rcv.out"),
    ("both", "validate_uec_both.txt", "validate_outputs/validate_uec_both.out"),
    ("lb-snd", "validate_load_balancing_snd.txt",
     "validate_outputs/validate_load_balancing_snd.out"),
    ("lb-rcv", "validate_load_balancing_rcv.txt",
     "validate_outputs/validate_load_balancing_rcv.out"),
    ("lb-failed-snd", "validate_load_balancing_failed_snd.txt",
     "validate_outputs/validate_load_balancing_failed_snd.out"),
    ("lb-failed-rcv", "validate_load_balancing_failed_rcv.txt",
     "validate_outputs/validate_load_balancing_failed_rcv.out"),
]
UET = "uet-htsim"
UEC_TOLERANCE = 0.10          # ours within 10% of uet-htsim's tail FCT
UEC_QUICK_HOSTS = 16          # --quick: the entries of 16 hosts only
UEC_SINGLE_PATH_SEEDS = 5     # -paths 1: one hash draw per seed, so several seeds

# uet-htsim's defaults (main_uec.cpp, main.h, uecpacket.h): what its plans do not set.
UET_LINK_GBPS = 100           # HOST_NIC
UET_HOP_US = 1                # hop_latency
UET_PACKET = 4150             # packet_size: the MTU with its 64 bytes of headers
UET_ACK = 64                  # ACKSIZE
UET_PATHS = 64                # path_entropy_size
UET_SACK_BYTES = 16384        # UecSink::_bytes_unacked_threshold
UET_END_US = 1000             # end_time
UET_LB = "mixed"              # load_balancing_algo
OUR_MTU = 4096                # our payload per packet beside its 4150-byte packets

# How every !Param maps onto our options (the manual's table, doc/reps-validation.rst). A
# parameter not listed here has no counterpart: its entry is reported unavailable with it.
UEC_PARAM_TABLE = [
    ("-tm FILE (the plan's matrix)", "--pattern=trace --traceFile=FILE --traceStartUnit=us"),
    ("its Nodes N, no -topo", "3-tier fat tree of K = (4N)^(1/3): --tiers=3 --pods=K "
     "--leaves=K/2 --hostsPerLeaf=K/2 --spines=K/2 --cores=K^2/4"),
    ("-topo F (2 tiers)", "--tiers=2 --leaves=Nodes/Radix_Down --hostsPerLeaf=Radix_Down "
     "--spines=Radix_Up, --linkRate and --linkDelay from its tier 0"),
    ("(defaults)", "--linkRate=100Gbps --linkDelay=1us --mtu=4096 --trim=true "
     "--baseRtt=fabric"),
    ("(queue: 1 BDP, its calculate_rtt)", "--queuePackets=BDP --ecnKmin=ceil(0.2 BDP) "
     "--ecnKmax=ceil(0.8 BDP) --rto=15us + 6 queue drain times"),
    ("-q N", "--queuePackets=N (the RTO follows, as there; the ECN thresholds stay at the "
     "BDP's)"),
    ("-end T", "--stopTime=T+1us (the workload starts at 1 us)"),
    ("-sender_cc_only, or no CC flag", "--cc=nscc"),
    ("-receiver_cc_only", "--cc=rccc --lastHopEcn=false"),
    ("-sender_cc -receiver_cc", "--cc=nscc --credits=true --lastHopEcn=false"),
    ("-cwnd N", "--ns3::NsccCongestionControl::InitialWindow=N x 4150 / its BDP bytes"),
    ("-paths N (default 64)", "--evSpace=N"),
    ("-load_balancing_algo oblivious / bitmap / reps", "--lb=ops / bitmap / reps; bitmap as "
     "its UecMpBitmap: --ns3::BitmapPathSelector::Order=Sweep, Paths=N (its -paths), "
     "MaxPenalty=15"),
    ("-paths 1 (single path)", "5 seeds (--RngRun 1 to 5, each drawing other switch hash "
     "salts): the tail is set by the most flows one link carries, one draw per seed there too; "
     "PASS when its tail lies within 10% of the range of ours"),
    ("no -load_balancing_algo (its default, mixed)", "--lb=reps (stand-in: mixed takes "
     "REPS's recycled EVs first)"),
    ("-load_balancing_algo mixed", "unavailable: no mixed selector"),
    ("-sack_threshold B (default 16384)", "--ackEveryBytes=B --ackEvery=65536; B below the "
     "payload: --ackEvery=1"),
    ("-failed N", "--slowLinks=N (--slowLinkFactor=0.25)"),
]


def uet_datacenter(root):
    """uet-htsim's datacenter folder inside a checkout (or the folder itself)."""
    for d in (os.path.join(root, "htsim", "sim", "datacenter"), root):
        if os.path.isfile(os.path.join(d, "validate_uec_sender.txt")):
            return os.path.abspath(d)
    return None


def parse_uet_plan(path):
    """The entries of one of uet-htsim's plans: matrix, !Experiment, !Param, !tailFCT, !FCT."""
    entries = []
    with open(path) as f:
        for raw in f:
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            if not line.startswith("!"):
                entries.append({"matrix": line, "name": "", "params": [], "tail": 0,
                                "fct": {}, "binary": ""})
                continue
            if not entries:
                continue
            key, _, value = line[1:].partition(" ")
            e = entries[-1]
            if key == "Experiment":
                e["name"] = value.strip()
            elif key == "Param":
                e["params"].append(value.split())
            elif key == "tailFCT":
                e["tail"] = float(value)
            elif key == "FCT":
                flow, target = value.split()
                e["fct"][flow] = float(target)
            elif key == "Binary":
                e["binary"] = value.strip()
    return entries


def parse_uet_output(path):
    """uet-htsim's committed results, one per experiment in plan order: its command line,
    tail FCT and pass/fail against the target, per-flow FCTs checked, and its summary line."""
    out = []
    with open(path, errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("Experiment:"):
                out.append({"name": line.split(":", 1)[1].strip(), "cmd": "", "tail": None,
                            "tail_pass": None, "fct": {}, "summary": ""})
            elif not out:
                continue
            elif line.startswith("Running "):
                out[-1]["cmd"] = line[len("Running "):].strip()
            else:
                m = re.match(r"\[(PASS|FAIL)\] Tail FCT ([0-9.e+]+) us", line)
                if m:
                    out[-1]["tail"] = float(m.group(2))
                    out[-1]["tail_pass"] = m.group(1) == "PASS"
                m = re.match(r"\[(PASS|FAIL)\] FCT ([0-9.e+]+) us for flow\s+(\S+)", line)
                if m:
                    out[-1]["fct"][m.group(3)] = float(m.group(2))
                if line.startswith("Summary:"):
                    out[-1]["summary"] = line[len("Summary:"):].strip()
    return out


def read_nodes(path):
    with open(path) as f:
        for line in f:
            words = line.split()
            if len(words) >= 2 and words[0] == "Nodes":
                return int(words[1])
    return None


def read_uet_topo(path):
    """A 2-tier .topo of uet-htsim: its header and tier blocks as dictionaries."""
    head, tiers, cur = {}, {}, None
    with open(path) as f:
        for line in f:
            words = line.split()
            if len(words) < 2:
                continue
            if words[0] == "Tier":
                cur = tiers.setdefault(int(words[1]), {})
            elif cur is None:
                head[words[0]] = words[1]
            else:
                cur[words[0]] = words[1]
    return head, tiers


def uet_rtt_us(hops, gbps):
    """uet-htsim's calculate_rtt (main_uec.cpp): propagation both ways plus one data packet
    and one ACK serialized on every hop of the diameter."""
    return (2 * hops * UET_HOP_US + (UET_PACKET * 8 / gbps) * hops / 1000.0 +
            (UET_ACK * 8 / gbps) * hops / 1000.0)


def map_uec_entry(entry, dc, options, cc_names):
    """Our options for one plan entry: (options, selector, notes, why_not)."""
    notes = []
    matrix = os.path.join(dc, entry["matrix"])
    if not os.path.isfile(matrix):
        return [], None, notes, "%s: no %s" % (UET, matrix)
    nodes = read_nodes(matrix)
    flags = {}
    sender, receiver = True, False          # main_uec.cpp's sender_driven, receiver_driven
    for p in entry["params"]:
        name, rest = p[0], p[1:]
        if name == "-sender_cc_only":
            sender, receiver = True, False
        elif name == "-receiver_cc_only":
            sender, receiver = False, True
        elif name == "-sender_cc":
            sender = True
        elif name == "-receiver_cc":
            receiver = True
        elif name in ("-end", "-paths", "-cwnd", "-q", "-failed", "-topo",
                      "-load_balancing_algo", "-sack_threshold") and len(rest) == 1:
            flags[name] = rest[0]
        else:
            return [], None, notes, "no counterpart for %s's %s" % (UET, " ".join(p))
    gbps = UET_LINK_GBPS
    delay_us = UET_HOP_US
    if "-topo" in flags:
        head, tiers = read_uet_topo(os.path.join(dc, flags["-topo"]))
        t0, t1 = tiers.get(0, {}), tiers.get(1, {})
        try:
            hosts_per_leaf = int(t0["Radix_Down"])
            spines = int(t0["Radix_Up"])
            gbps = float(t0["Downlink_speed_Gbps"])
            delay_us = int(t0["Downlink_Latency_ns"]) / 1000.0
            leaves = int(head["Nodes"]) // hosts_per_leaf
            ok = (head.get("Tiers") == "2" and float(t1["Downlink_speed_Gbps"]) == gbps and
                  int(t1["Downlink_Latency_ns"]) / 1000.0 == delay_us and
                  int(t1["Radix_Down"]) == leaves and
                  int(t0.get("Switch_Latency_ns", "0")) == 0 and
                  int(t1.get("Switch_Latency_ns", "0")) == 0)
        except (KeyError, ValueError):
            ok = False
        if not ok:
            return [], None, notes, "no counterpart for the topology %s" % flags["-topo"]
        shape = ["--tiers=2", "--leaves=%d" % leaves, "--hostsPerLeaf=%d" % hosts_per_leaf,
                 "--spines=%d" % spines]
        hops = 4
        ratio = hosts_per_leaf / spines
    else:
        k = round((4 * (nodes or 0)) ** (1.0 / 3))
        if not nodes or k * k * k != 4 * nodes or k % 2:
            return [], None, notes, "%s hosts is not a 3-tier fat tree of even K" % nodes
        shape = ["--tiers=3", "--pods=%d" % k, "--leaves=%d" % (k // 2),
                 "--hostsPerLeaf=%d" % (k // 2), "--spines=%d" % (k // 2),
                 "--cores=%d" % (k * k // 4)]
        hops = 6
        ratio = 1.0
    rtt_us = uet_rtt_us(hops, gbps)
    bdp_bytes = rtt_us * 1e-6 * gbps * 1e9 / 8
    bdp_pkt = math.ceil(bdp_bytes / UET_PACKET)
    queue = int(flags.get("-q", bdp_pkt))
    kmin, kmax = math.ceil(bdp_pkt * 0.2), math.ceil(bdp_pkt * 0.8)
    rto_us = 15 + queue * UET_PACKET * 6.0 * 8 / (gbps * 1e3)
    end_us = int(flags.get("-end", UET_END_US))
    opts = shape + [
        "--linkRate=%gGbps" % gbps, "--linkDelay=%gus" % delay_us, "--mtu=%d" % OUR_MTU,
        "--queuePackets=%d" % queue, "--ecnKmin=%d" % kmin, "--ecnKmax=%d" % kmax,
        "--trim=true", "--baseRtt=fabric", "--rto=%.3fus" % rto_us,
        "--pattern=trace", "--traceFile=" + matrix, "--traceStartUnit=us",
        "--stopTime=%dus" % (end_us + 1), "--evSpace=%s" % flags.get("-paths", UET_PATHS)]
    for option in ("traceStartUnit", "slowLinks"):
        if option not in options and (option != "slowLinks" or "-failed" in flags):
            return [], None, notes, "%s has no --%s" % (PROGRAM, option)
    if sender and not receiver:
        opts.append("--cc=nscc")
    elif receiver and not sender:
        if "rccc" not in cc_names:
            return [], None, notes, "needs --cc=rccc"
        opts += ["--cc=rccc", "--lastHopEcn=false"]
    else:
        if "credits" not in options:
            return [], None, notes, "needs --cc=nscc --credits=true"
        opts += ["--cc=nscc", "--credits=true", "--lastHopEcn=false"]
    if ratio > 1 and not sender:
        # uet-htsim turns its OversubscribedCC on at a ratio above 1:1 without sender CC, with
        # the least rate 0.9 / ratio (at least 1%).
        opts += ["--ns3::RcccPullPacer::OversubscriptionControl=true",
                 "--ns3::RcccPullPacer::MinRate=%.6g" % max(0.9 / ratio, 0.01)]
        notes.append("Oversubscribed %g:1 without sender CC: the pull pacer's oversubscription "
                     "control, least rate %.3g, as %s turns on." % (ratio, max(0.9 / ratio, 0.01),
                                                                   UET))
    if "-cwnd" in flags:
        if sender:
            share = int(flags["-cwnd"]) * UET_PACKET / bdp_bytes
            opts.append("--ns3::NsccCongestionControl::InitialWindow=%.4f" % share)
        if receiver:
            # Under RCCC the reference's -cwnd is the speculative credit, in packets.
            opts.append("--ns3::RcccSender::SpeculativeCredit=%d" %
                        (int(flags["-cwnd"]) * UET_PACKET))
    sack = int(flags.get("-sack_threshold", UET_SACK_BYTES))
    opts += (["--ackEvery=1"] if sack <= OUR_MTU else
             ["--ackEvery=65536", "--ackEveryBytes=%d" % sack])
    if "-failed" in flags:
        opts.append("--slowLinks=%s" % flags["-failed"])
    algo = flags.get("-load_balancing_algo")
    lb = {"oblivious": "ops", "bitmap": "bitmap", "reps": "reps", None: "reps"}.get(algo)
    if lb is None:
        return [], None, notes, "no counterpart for -load_balancing_algo %s" % algo
    if lb == "bitmap":
        # uet-htsim's UecMpBitmap: a permuted sweep over all -paths EVs, penalties (cap 15)
        # lifted one point per skip rather than by time.
        opts += ["--ns3::BitmapPathSelector::Order=Sweep",
                 "--ns3::BitmapPathSelector::Paths=%s" % flags.get("-paths", UET_PATHS),
                 "--ns3::BitmapPathSelector::MaxPenalty=15"]
        notes.append("Bitmap as %s's UecMpBitmap (Order=Sweep, all %s EVs, penalties up to "
                     "15)." % (UET, flags.get("-paths", UET_PATHS)))
    if algo is None:
        notes.append("%s's default load balancer is mixed (bitmap, taking REPS's recycled EVs "
                     "first); ours is REPS." % UET)
    notes.append("Fabric: %s, %d-packet queues (BDP %d packets) with ECN %d-%d, RTO %.1f us, "
                 "%s EVs." % (" ".join(shape), queue, bdp_pkt, kmin, kmax, rto_us,
                              flags.get("-paths", UET_PATHS)))
    return opts, Selector(lb), notes, None


def uec_tail(run, flows=None):
    """Our tail FCT as uet-htsim counts it: when the last finished flow finished, from the
    workload's start (its flows start at their matrix offsets)."""
    rec = run.record
    if not rec or "flow_end_us" not in rec:
        return None
    ends = [e for s, d, e in rec["flow_end_us"] if flows is None or (s, d) in flows]
    return max(ends) if ends else None


def single_path(entry):
    """An entry whose flows each keep one path (-paths 1): its tail is set by the most flows
    that one link carries under the switches' hash, one draw per seed in both simulators."""
    return any(p[0] == "-paths" and p[1:] == ["1"] for p in entry["params"])


def claim_uec_tail(entry, committed):
    target = entry["tail"]
    theirs = committed.get("tail") if committed else None
    passed = committed.get("tail_pass") if committed else None
    if single_path(entry) and passed is not False:
        def check_range(d):
            runs = [r for rs in d.by.values() for r in rs if r.record]
            tails = [t for t in (uec_tail(r) for r in runs) if t is not None]
            if not tails or theirs is None:
                return None, "no data"
            lo, hi = min(tails), max(tails)
            done = sum(r.record["result"]["completed"] for r in runs)
            total = sum(r.record["result"]["flows"] for r in runs)
            text = ("ours %.1f to %.1f us over %d seeds (mean %.1f), %s's %.1f us, target %g "
                    "us; %d/%d flows done" % (lo, hi, len(tails), statistics.fmean(tails), UET,
                                              theirs, target, done, total))
            ok = lo * (1 - UEC_TOLERANCE) <= theirs <= hi * (1 + UEC_TOLERANCE)
            return ok and done == total, text
        return Claim("single path: %s's tail (%.1f us; its target %g us) within 10%% of the "
                     "range of ours over %d hash draws" % (
                         UET, theirs if theirs is not None else float("nan"), target,
                         UEC_SINGLE_PATH_SEEDS), check_range, "%s's committed output" % UET)

    def check(d):
        runs = [r for rs in d.by.values() for r in rs if r.record]
        tails = [uec_tail(r) for r in runs]
        tails = [t for t in tails if t is not None]
        if not tails or theirs is None:
            return None, "no data"
        ours = statistics.fmean(tails)
        done = sum(r.record["result"]["completed"] for r in runs)
        total = sum(r.record["result"]["flows"] for r in runs)
        text = "ours %.1f us, %s's %.1f us (%+.1f%%), target %g us; %d/%d flows done" % (
            ours, UET, theirs, (ours / theirs - 1) * 100, target, done, total)
        return abs(ours / theirs - 1) <= UEC_TOLERANCE and done == total, text
    if passed is False:
        text = ("tail FCT: %s misses its own target (%s us): both reported" % (
            UET, "%g" % target))
        return Claim(text, check, "%s's committed output" % UET, counted=False)
    return Claim("tail FCT within %d%% of %s's (%s us; its target %g us)" % (
        UEC_TOLERANCE * 100, UET, "%.1f" % theirs if theirs is not None else "?", target),
        check, "%s's committed output" % UET)


def claim_uec_flow(flow, target, theirs):
    m = re.match(r"Uec_(\d+)_(\d+)$", flow)
    pair = {(int(m.group(1)), int(m.group(2)))} if m else set()

    def check(d):
        runs = [r for rs in d.by.values() for r in rs if r.record]
        ends = [uec_tail(r, pair) for r in runs]
        ends = [e for e in ends if e is not None]
        if not ends or theirs is None:
            return None, "no data"
        ours = statistics.fmean(ends)
        return abs(ours / theirs - 1) <= UEC_TOLERANCE, "ours %.1f us, %s's %.1f us (%+.1f%%)" % (
            ours, UET, theirs, (ours / theirs - 1) * 100)
    return Claim("FCT of %s within %d%% of %s's (%s us; its target %g us)" % (
        flow, UEC_TOLERANCE * 100, UET, "%.1f" % theirs if theirs else "?", target), check,
        "%s's committed output" % UET)


def uec_scenarios(root, quick, options, cc_names):
    """The uec group: every entry of uet-htsim's plans (the 16-host ones with --quick), then
    the REPS paper's congestion-control study (full set only)."""
    out = []
    dc = uet_datacenter(root) if root else None
    if not dc:
        why = ("give --uet-htsim DIR (a checkout of uet-htsim) to rerun its regression plans"
               if not root else "--uet-htsim: no %s plans in %s" % (UET, root))
        s = Scenario("uec", "%s's regression plans" % UET, "Reruns the entries of %s's "
                     "validate_uec_*.txt and validate_load_balancing_*.txt plans on the same "
                     "fabrics and compares the tail FCTs with its committed outputs." % UET,
                     [], ["reps"], seeds=1, unavailable=why)
        s.group = "uec"
        out.append(s)
    else:
        for short, plan, output in UEC_PLANS:
            entries = parse_uet_plan(os.path.join(dc, plan))
            committed = (parse_uet_output(os.path.join(dc, output))
                         if os.path.isfile(os.path.join(dc, output)) else [])
            for i, e in enumerate(entries):
                c = committed[i] if i < len(committed) else None
                if c and c["name"] != e["name"]:
                    c = next((x for x in committed if x["name"] == e["name"]), None)
                matrix = os.path.join(dc, e["matrix"])
                nodes = read_nodes(matrix) if os.path.isfile(matrix) else None
                if quick and nodes != UEC_QUICK_HOSTS:
                    continue
                opts, sel, notes, why = map_uec_entry(e, dc, options, cc_names)
                claims = [claim_uec_tail(e, c)]
                for flow, target in e["fct"].items():
                    claims.append(claim_uec_flow(flow, target,
                                                 c["fct"].get(flow) if c else None))
                refs = []
                if c:
                    notes.insert(0, "%s ran `%s`: tail FCT %s us (%s against its target), "
                                 "summary: %s." % (UET, c["cmd"], c["tail"],
                                                   "PASS" if c["tail_pass"] else "FAIL",
                                                   c["summary"] or "-"))
                hosts = nodes or 0
                s = Scenario(
                    "uec-%s-%d" % (short, i + 1), "%s: %s" % (plan, e["name"]),
                    "Entry %d of %s's %s (%s, %s hosts): %s." % (
                        i + 1, UET, plan, e["matrix"], nodes,
                        " ".join(" ".join(p) for p in e["params"]) or "no parameters"),
                    opts, [sel or Selector("reps")],
                    seeds=UEC_SINGLE_PATH_SEEDS if single_path(e) else 1, claims=claims,
                    references=refs, panels=(), unavailable=why,
                    cost=1 if hosts <= 16 else 20 if hosts <= 128 else 400)
                s.group = "uec"
                s.uec = {"plan": plan, "entry": e, "committed": c, "dc": dc}
                s.notes = " ".join(notes)
                out.append(s)
    if not quick:
        # The REPS paper's congestion-control study: OPS and REPS on the 128-host 8 MiB
        # permutation under each congestion control.
        for cc, opts in (("window", ["--cc=window"]), ("nscc", ["--cc=nscc"]),
                         ("rccc", ["--cc=rccc"])):
            why = None
            if cc not in cc_names:
                why = "needs --cc=%s" % cc
            tol = 1.03
            s = Scenario(
                "uec-cc-%s" % cc, "congestion-control study: OPS and REPS under %s" % cc,
                "A permutation of 8 MiB per host on the paper's 128-host 2-tier fabric (16 "
                "leaves x 8 hosts, 8 spines, 400 Gb/s), trimming on, congestion control %s, as "
                "in the REPS paper's study of REPS under several congestion controls." % cc,
                ["--pattern=permutation", "--flowSize=8MiB", "--trim=true"] + opts,
                ["ops", "reps"], seeds=2, cdf="fct", cost=25, unavailable=why,
                claims=[
                    claim_ratio("REPS mean FCT within 3% of OPS or better", ("", "reps"),
                                ("", "ops"), tol, "fct_mean",
                                reference="%s: REPS level with OPS under every CC" % PAPER),
                    claim_value("REPS mean FCT within 10% of the ideal (mean slowdown <= "
                                "1.10)", ("", "reps"), "sd_mean", "<=", 1.10,
                                reference="%s: packet spraying near line rate" % PAPER),
                    claim_value("OPS mean FCT within 10% of the ideal (mean slowdown <= "
                                "1.10)", ("", "ops"), "sd_mean", "<=", 1.10, counted=False,
                                reference="%s: packet spraying near line rate" % PAPER)])
            s.group = "uec"
            out.append(s)
    return out


def cc_names_of(binary):
    """The congestion controls --cc names in the binary's --help."""
    try:
        out = subprocess.run([binary, "--help"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return set()
    m = re.search(r"--cc:\s*Congestion control \(([^)]*)\)", out.stdout + out.stderr)
    if not m:
        return set()
    return set(w.strip() for w in re.split(r",|\bor\b", m.group(1)) if w.strip())


def write_uec_table(path, scenarios, results):
    """The uec group's summary: entry, uet-htsim's target, its committed tail FCT, ours,
    verdict; one line per entry (the details follow in the report)."""
    lines = ["| entry | %s's target (us) | its committed tail FCT (us) | ours (us) | verdict |"
             % UET, "|---|---|---|---|---|"]
    for s in scenarios:
        info = getattr(s, "uec", None)
        if not info:
            continue
        e, c = info["entry"], info["committed"]
        tail_claim = results[s.name][0]
        ok = tail_claim[1]
        ours = "n/a"
        m = re.match(r"ours ([0-9.]+) us", tail_claim[2] or "")
        if m:
            ours = m.group(1)
        if s.unavailable:
            verdict_text = "unavailable (%s)" % s.unavailable
        elif c and c["tail_pass"] is False:
            verdict_text = "%s misses its target; both reported" % UET
        else:
            verdict_text = "PASS" if ok else "no data" if ok is None else "FAIL"
        lines.append("| %s (%s) | %g | %s%s | %s | %s |" % (
            e["name"], s.name, e["tail"], "%.1f" % c["tail"] if c and c["tail"] else "-",
            "" if not c or c["tail_pass"] else " (FAIL)", ours, verdict_text))
    return lines


# ---------------------------------------------------------------------------------------------
# Running
# ---------------------------------------------------------------------------------------------


class RunError(Exception):
    """A run that gave no result: why (short), its command line and the tail of its output."""

    def __init__(self, reason, cmd=(), output=""):
        lines = [line for line in output.splitlines() if line.strip()]
        short = reason + (": " + lines[-1].strip()[:200] if lines else "")
        super().__init__(short)
        self.detail = "%s\n  %s\n%s" % (short, " ".join(cmd), "\n".join(lines[-20:]))


class Runner:
    def __init__(self, binary, work, timeout, any_build, wait):
        self.binary = binary
        self.work = work
        self.timeout = timeout
        self.any_build = any_build
        self.wait = wait
        self.lock = threading.Lock()
        self.children = set()
        self.stopping = False
        self._fp_cache = {}

    def library(self):
        libdir = os.path.join(os.path.dirname(os.path.dirname(self.binary)), "lib")
        try:
            return sorted(os.path.join(libdir, f) for f in os.listdir(libdir)
                          if "reps" in f and ".so" in f)
        except OSError:
            return []

    def fingerprint(self):
        """A hash of the binary and of the module library it loads."""
        h = hashlib.sha1()
        for path in [self.binary] + self.library():
            try:
                st = os.stat(path)
            except OSError:
                continue
            stamp = (path, st.st_size, st.st_mtime_ns)
            with self.lock:
                digest = self._fp_cache.get(stamp)
            if digest is None:
                d = hashlib.sha1()
                with open(path, "rb") as f:
                    for block in iter(lambda: f.read(1 << 20), b""):
                        d.update(block)
                digest = d.hexdigest()
                with self.lock:
                    self._fp_cache[stamp] = digest
            h.update(digest.encode())
        return h.hexdigest()[:16]

    def wait_for_binary(self):
        deadline = time.monotonic() + self.wait
        noted = False
        while not os.access(self.binary, os.X_OK):
            if time.monotonic() > deadline:
                return False
            if not noted:
                log("%s is missing (being rebuilt?); waiting up to %d s" % (self.binary,
                                                                            self.wait))
                noted = True
            time.sleep(10)
        return True

    def cache_path(self, run):
        digest = hashlib.sha1(json.dumps(run.key()).encode()).hexdigest()[:20]
        return os.path.join(self.work, digest + ".json")

    def cached(self, run, fingerprint):
        try:
            with open(self.cache_path(run)) as f:
                rec = json.load(f)
        except (OSError, ValueError):
            return None
        if rec.get("key") != run.key() or "result" not in rec:
            return None
        if not self.any_build and rec.get("build") != fingerprint:
            return None
        return rec

    def execute(self, run):
        """Run one selector and seed; returns the record, or raises RunError.

        A run that dies of a signal or cannot load its library is retried for up to --wait
        seconds: the binary or the library may be being rebuilt."""
        give_up = None
        while True:
            if self.stopping:
                raise RunError("interrupted")
            if not self.wait_for_binary():
                raise RunError("%s does not exist" % self.binary)
            fingerprint = self.fingerprint()
            with tempfile.TemporaryDirectory(prefix="reps-validate-") as tmp:
                js = os.path.join(tmp, "result.json")
                cs = os.path.join(tmp, "flows.csv")
                cmd = ([self.binary] + run.options +
                       ["--sampleInterval=0", "--quiet=true", "--json=" + js, "--csv=" + cs])
                logpath = os.path.join(tmp, "output.txt")
                with open(logpath, "w") as logf:
                    start = time.monotonic()
                    child = subprocess.Popen(cmd, stdout=logf, stderr=subprocess.STDOUT)
                    with self.lock:
                        self.children.add(child)
                    try:
                        status, usage = wait_child(child, self.timeout)
                    finally:
                        with self.lock:
                            self.children.discard(child)
                    wall = time.monotonic() - start
                with open(logpath, errors="replace") as logf:
                    output = logf.read()
                if status is None:
                    raise RunError("timed out after %d s" % self.timeout, cmd, output)
                transient = status < 0 or status == 127 or any(
                    m in output for m in ("symbol lookup error", "error while loading shared"))
                if transient and not self.stopping:
                    give_up = give_up or time.monotonic() + self.wait
                    if time.monotonic() < give_up:
                        log("%s: %s; a rebuild? retrying in 15 s" % (
                            run.describe(), "killed by signal %d" % -status if status < 0
                            else "exit status %d" % status))
                        time.sleep(15)
                        continue
                if status != 0:
                    raise RunError("exit status %d" % status, cmd, output)
                try:
                    with open(js) as f:
                        doc = json.load(f)
                    result = doc["results"][0]
                    fct, slowdown, ends = read_flows(
                        cs, time_us(doc.get("config", {}).get("startTime", "1us")))
                except (OSError, ValueError, KeyError, IndexError) as e:
                    raise RunError("unreadable output (%s)" % e, cmd, output)
            for big in ("link_bytes", "timeseries", "collectives"):
                result.pop(big, None)
            rec = {"key": run.key(), "options": run.options, "build": fingerprint,
                   "wall_s": round(wall, 3),
                   "cpu_s": round(usage.ru_utime + usage.ru_stime, 3),
                   "max_rss_mib": round(usage.ru_maxrss / 1024.0, 1),
                   "result": result, "flow_fct_us": fct, "flow_slowdown": slowdown,
                   "flow_end_us": ends}
            path = self.cache_path(run)
            tmpname = path + ".tmp%d" % os.getpid() + threading.current_thread().name
            with open(tmpname, "w") as f:
                json.dump(rec, f)
            os.replace(tmpname, path)
            return rec

    def stop(self):
        self.stopping = True
        with self.lock:
            for child in list(self.children):
                try:
                    child.kill()
                except OSError:
                    pass


def wait_child(child, timeout):
    """Wait for a child with a timeout; returns (exit status or None on timeout, rusage)."""
    deadline = time.monotonic() + timeout
    while True:
        pid, status, usage = os.wait4(child.pid, os.WNOHANG)
        if pid:
            child.returncode = os.waitstatus_to_exitcode(status)
            return child.returncode, usage
        if time.monotonic() > deadline:
            child.kill()
            _, status, usage = os.wait4(child.pid, 0)
            child.returncode = os.waitstatus_to_exitcode(status)
            return None, usage
        time.sleep(0.05)


def time_us(text):
    """A Time option's text (1us, 250ns, 2ms, 0) in microseconds."""
    m = re.match(r"^\s*([0-9.eE+-]+)\s*(ns|us|ms|s)?\s*$", str(text))
    if not m:
        return 0.0
    return float(m.group(1)) * {"ns": 1e-3, "us": 1.0, "ms": 1e3, "s": 1e6,
                                None: 1e6}[m.group(2)]


def read_flows(path, start_us):
    """FCTs and slowdowns of the completed flows, and (src, dst, end) of each, the end counted
    from the workload's start (start_us)."""
    fct, slowdown, ends = [], [], []
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            if row.get("completed") == "1" and row.get("background", "0") != "1":
                fct.append(round(float(row["fct_us"]), 3))
                slowdown.append(round(float(row["slowdown"]), 4))
                if row.get("start_us"):
                    ends.append((int(row["src"]), int(row["dst"]), round(
                        float(row["start_us"]) + float(row["fct_us"]) - start_us, 3)))
    return fct, slowdown, ends


def log(message):
    print("%s: %s" % (PROG, message), file=sys.stderr, flush=True)


def binary_options(binary):
    """The option names the binary's --help lists (None when it cannot be run)."""
    try:
        out = subprocess.run([binary, "--help"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if out.returncode < 0 or out.returncode == 127:
        return None   # killed, or its library cannot be loaded (a rebuild?)
    return set(re.findall(r"^\s+--([A-Za-z]\w*)", out.stdout + out.stderr, re.M))


# ---------------------------------------------------------------------------------------------
# Report and plots
# ---------------------------------------------------------------------------------------------


def evaluate(scenario, data):
    rows = []
    for c in scenario.claims:
        if scenario.unavailable:
            rows.append((c, None, "not available"))
            continue
        ok, ours = c.check(data)
        rows.append((c, ok, ours))
    return rows


def verdict(claim, ok, unavailable):
    if unavailable:
        return "n/a"
    if not claim.counted:
        return "info: " + ("agrees" if ok else "no data" if ok is None else "disagrees")
    return "PASS" if ok else "FAIL"


def mean_sd(values, unit):
    """Mean ± standard deviation over seeds, as table text (the unit is in the header)."""
    if not values:
        return "n/a"

    def num(v):
        if unit == "us":
            return "%.1f" % v
        if unit == "x":
            return "%.3f" % v
        if abs(v - round(v)) < 1e-9:
            return "%d" % round(v)
        return "%.0f" % v if abs(v) >= 100 else "%.1f" % v
    text = num(statistics.fmean(values))
    if len(values) > 1 and statistics.stdev(values) > 0:
        text += " ± " + num(statistics.stdev(values))
    return text


def git_describe():
    try:
        head = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"],
                              capture_output=True, text=True, timeout=30).stdout.strip()
        dirty = subprocess.run(["git", "-C", ROOT, "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True, timeout=30).stdout.strip()
        return head + (" with local changes" if dirty else "") if head else "unknown"
    except (OSError, subprocess.TimeoutExpired):
        return "unknown"


def write_report(path, scenarios, results, datas, mode, binary, seeds_of, plots, builds,
                 totals):
    lines = []
    add = lines.append
    passed = sum(1 for s in scenarios for c, ok, _ in results[s.name]
                 if c.counted and not s.unavailable and ok)
    failed = sum(1 for s in scenarios for c, ok, _ in results[s.name]
                 if c.counted and not s.unavailable and not ok)
    add("# Validation of the reps module against published figures")
    add("")
    add("Written by `utils/validate.py%s` on %s from the source tree at %s, with `%s`." % (
        " --quick" if mode == "quick" else "", datetime.date.today().isoformat(),
        git_describe(), os.path.relpath(binary, ROOT) if binary.startswith(ROOT) else binary))
    add("Every run is one path selector and one seed (`--RngRun`) of `%s`; tables give the mean "
        "over seeds ± the standard deviation, FCT in microseconds. Claims compare means over "
        "seeds (freezes and drops: totals or means as stated). References are the REPS "
        "paper's figures and %s." % (PROGRAM, UEC))
    add("")
    add("**Claims: %d passed, %d failed.** CPU time of the runs: %.0f s (%d runs)." % (
        passed, failed, totals["cpu"], totals["runs"]))
    if len(builds) > 1:
        add("")
        add("**Warning:** the runs come from %d different builds of the binary (it was rebuilt "
            "during the validation, or cached runs of an older build were reused)." % len(builds))
    add("")
    add("| scenario | description | seeds | passed | failed |")
    add("|---|---|---|---|---|")
    for s in scenarios:
        rows = results[s.name]
        if s.unavailable:
            add("| [%s](#%s) | %s | - | not available | |" % (s.name, s.name, s.title))
            continue
        p = sum(1 for c, ok, _ in rows if c.counted and ok)
        f = sum(1 for c, ok, _ in rows if c.counted and not ok)
        add("| [%s](#%s) | %s | %d | %d | %d |" % (s.name, s.name, s.title, seeds_of[s.name],
                                                   p, f))
    for s in scenarios:
        add("")
        add('<a id="%s"></a>' % s.name)
        add("")
        add("## %s: %s" % (s.name, s.title))
        add("")
        add(s.description)
        add("")
        if s.unavailable:
            add("**Not available:** %s. The scenario is listed and not counted." % s.unavailable)
            add("")
        if not s.unavailable:
            add("Command lines (seeds 1 to %d; the harness runs each selector as its own "
                "process with `--json`, `--csv`, `--quiet=true`, `--sampleInterval=0`):"
                % seeds_of[s.name])
            add("")
            add("```")
            for v in s.variants:
                groups = {}
                for sel in s.selectors:
                    groups.setdefault(tuple(sel.extra), []).append(sel.lb)
                for extra, lbs in groups.items():
                    line = " ".join([PROGRAM] + s.base + v.args + list(extra) +
                                    ["--lb=" + ",".join(lbs), "--RngRun=<seed>"])
                    if s.uec:   # the checkout's place is the reader's own
                        line = line.replace(s.uec["dc"], "DIR/htsim/sim/datacenter")
                    add(line)
            add("```")
            add("")
        data = datas[s.name]
        if not s.unavailable:
            add("| variant | selector | flows done (all seeds) | mean FCT | p99 FCT | max FCT | "
                "mean slowdown | drops | trims | retx | timeouts | freezes | CPU s |")
            add("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
            for v in s.variants:
                for sel in s.selectors:
                    arm = (v.label, sel.label)
                    runs = data.by.get(arm, [])
                    ok = [r for r in runs if r.record]
                    done = "%d/%d" % (sum(r.record["result"]["completed"] for r in ok),
                                      sum(r.record["result"]["flows"] for r in ok))
                    if len(ok) < len(runs):
                        done += " (%d run(s) failed)" % (len(runs) - len(ok))
                    cpu = sum(r.record.get("cpu_s", 0) for r in ok)
                    add("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %.0f |" % (
                        v.label or "-", sel.label, done,
                        mean_sd(data.values(*arm, "fct_mean"), "us"),
                        mean_sd(data.values(*arm, "fct_p99"), "us"),
                        mean_sd(data.values(*arm, "fct_max"), "us"),
                        mean_sd(data.values(*arm, "sd_mean"), "x"),
                        mean_sd(data.values(*arm, "drops"), ""),
                        mean_sd(data.values(*arm, "trims"), ""),
                        mean_sd(data.values(*arm, "retx"), ""),
                        mean_sd(data.values(*arm, "timeouts"), ""),
                        mean_sd(data.values(*arm, "freezes"), ""), cpu))
            add("")
        if s.references:
            add("Our figures beside the published ones:")
            add("")
            add("| quantity | ours | published | source |")
            add("|---|---|---|---|")
            for r in s.references:
                add("| %s | %s | %s | %s |" % (r.quantity, "n/a" if s.unavailable
                                               else r.ours(data), r.published, r.source))
            add("")
        if s.claims:
            add("| claim | ours | reference | result |")
            add("|---|---|---|---|")
            for c, ok, ours in results[s.name]:
                add("| %s | %s | %s | %s |" % (c.text, ours, c.reference or "-",
                                               "**%s**" % verdict(c, ok, s.unavailable)
                                               if c.counted and not s.unavailable
                                               else verdict(c, ok, s.unavailable)))
            add("")
        notes = []
        if s.notes:
            notes.append(s.notes)
        for c, ok, _ in results[s.name]:
            if s.unavailable or ok:
                continue
            if ok is None:
                notes.append("No data for '%s' (a run failed or a statistic is undefined)."
                             % c.text)
            else:
                notes.append("Disagrees with the reference: '%s' does not hold (reference: %s)."
                             % (c.text, c.reference or "-"))
        for r in data.by.values():
            for run in r:
                if run.error:
                    notes.append("Run %s failed (%s)." % (run.describe(), run.error))
        add("Notes: " + (" ".join(notes) if notes else "none."))
        add("")
        for p in plots.get(s.name, []):
            add("![%s](%s)" % (os.path.splitext(p)[0], p))
            add("")
    with open(path, "w") as f:
        f.write("\n".join(lines).rstrip() + "\n")
    return passed, failed


def import_pyplot():
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        return plt
    except ImportError:
        return None


def plot_bars(plt, s, data, out):
    panels = [p for p in s.panels]
    fig, axes = plt.subplots(1, len(panels), figsize=(3.6 * len(panels) + 0.6, 3.6),
                             squeeze=False)
    nsel = len(s.selectors)
    width = 0.8 / nsel
    for ax, metric in zip(axes[0], panels):
        label, unit, _ = METRICS[metric]
        for i, sel in enumerate(s.selectors):
            xs, ys, es = [], [], []
            for j, v in enumerate(s.variants):
                vals = data.values(v.label, sel.label, metric)
                if not vals:
                    continue
                xs.append(j + (i - (nsel - 1) / 2) * width)
                ys.append(statistics.fmean(vals))
                es.append(statistics.stdev(vals) if len(vals) > 1 else 0)
            ax.bar(xs, ys, width * 0.95, yerr=es, capsize=3, label=sel.label,
                   color="C%d" % i)
        ax.set_xticks(range(len(s.variants)))
        if len(s.variants) > 1:
            ax.set_xticklabels([v.label for v in s.variants], fontsize=8)
        else:
            ax.tick_params(axis="x", bottom=False, labelbottom=False)
        ax.set_title(label, fontsize=10)
        ax.set_ylabel("%s [%s]" % (label, unit) if unit and unit != "x" else label)
        ax.grid(True, axis="y", alpha=0.3)
    if axes[0][0].get_legend_handles_labels()[0]:
        axes[0][0].legend(fontsize=8)
    fig.suptitle("%s (error bars: std. dev. over seeds)" % s.name, fontsize=10)
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    plt.close(fig)


def plot_cdf(plt, s, data, out):
    key = "fct_us" if s.cdf == "fct" else "slowdown"
    fig, axes = plt.subplots(1, len(s.variants), figsize=(5.2 * len(s.variants), 3.8),
                             squeeze=False)
    drawn = False
    for ax, v in zip(axes[0], s.variants):
        for i, sel in enumerate(s.selectors):
            vals = sorted(data.flows(v.label, sel.label, key))
            if not vals:
                continue
            drawn = True
            ax.step(vals, [(k + 1) / len(vals) for k in range(len(vals))], where="post",
                    label="%s (n=%d)" % (sel.label, len(vals)), color="C%d" % i)
        ax.set_xlabel("flow completion time [us]" if s.cdf == "fct"
                      else "slowdown (FCT / ideal FCT)")
        ax.set_ylabel("fraction of flows")
        if s.cdf == "slowdown":
            ax.set_xscale("log")
        ax.set_ylim(0, 1.01)
        ax.grid(True, alpha=0.3)
        ax.set_title(v.label or s.name, fontsize=10)
        if ax.get_legend_handles_labels()[0]:
            ax.legend(fontsize=8)
    fig.suptitle("%s: CDF over all seeds" % s.name, fontsize=10)
    fig.tight_layout()
    if drawn:
        fig.savefig(out, dpi=110)
    plt.close(fig)
    return drawn


# ---------------------------------------------------------------------------------------------
# Main
# ---------------------------------------------------------------------------------------------


def positive_int():
    def parse(text):
        try:
            value = int(text)
        except ValueError:
            value = 0
        if value < 1:
            raise argparse.ArgumentTypeError("%r is not allowed; expected a whole number "
                                             ">= 1" % text)
        return value
    return parse


def non_negative_int():
    def parse(text):
        try:
            value = int(text)
        except ValueError:
            value = -1
        if value < 0:
            raise argparse.ArgumentTypeError("%r is not allowed; expected a whole number "
                                             ">= 0" % text)
        return value
    return parse


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog=PROG, description=__doc__.split("\n\n")[0],
        epilog="The last line printed is 'N passed, M failed'. Exit status: 0 when every "
               "claim holds, 1 when one fails, 2 on bad arguments.")
    parser.add_argument("--quick", action="store_true",
                        help="the reduced set for CI (64-host fabrics, 2 MiB or 2 MB flows, 2 "
                             "seeds; about a minute on two cores)")
    parser.add_argument("--only", default="", metavar="NAME[,NAME...]",
                        help="run only these scenarios (see --list)")
    parser.add_argument("--list", action="store_true", help="list the scenarios and exit")
    parser.add_argument("--binary", default=None, metavar="PATH",
                        help="the %s program (default: $REPS_BUILD_DIR/examples/%s, or "
                             "build/examples/%s)" % (PROGRAM, PROGRAM, PROGRAM))
    parser.add_argument("--out", default=None, metavar="DIR",
                        help="folder of the report and plots (default: doc/validation/; with "
                             "--quick: build/validation-quick/)")
    parser.add_argument("--work", default=os.path.join(ROOT, "build", "validation-runs"),
                        metavar="DIR",
                        help="folder of the cached results of single runs (default: "
                             "build/validation-runs/)")
    parser.add_argument("--reps-artifact", default=None, metavar="DIR",
                        help="a checkout of the REPS artifact (tommasobo/REPS_EuroSys_Artifact): "
                             "the websearch-replay, failed-cables-5pct, ai-alltoall and "
                             "ai-allreduce scenarios replay its connection matrices (without "
                             "it, they are reported unavailable)")
    parser.add_argument("--uet-htsim", default=None, metavar="DIR",
                        help="a checkout of uet-htsim (ultraethernet/uet-htsim): the uec group "
                             "reruns the entries of its regression plans "
                             "(htsim/sim/datacenter/validate_uec_*.txt and "
                             "validate_load_balancing_*.txt) with its matrices and topologies, "
                             "and compares them with its committed validate_outputs/*.out "
                             "(without it, the group is reported unavailable)")
    parser.add_argument("--seeds", type=positive_int(), default=None, metavar="N",
                        help="seeds (--RngRun 1 to N) of every scenario (default: each "
                             "scenario's own: 3, or 2 for the UEC regression; 2 with --quick)")
    parser.add_argument("-j", "--jobs", type=positive_int(), default=2, metavar="N",
                        help="runs in parallel (default: 2)")
    parser.add_argument("--any-build", action="store_true",
                        help="reuse cached runs even when the binary or library changed")
    parser.add_argument("--cached-only", action="store_true",
                        help="run nothing: write the report from the cached runs, the others "
                             "reported as not run")
    parser.add_argument("--timeout", type=positive_int(), default=3600,
                        metavar="SECONDS", help="limit of a single run (default: 3600)")
    parser.add_argument("--wait", type=non_negative_int(), default=600,
                        metavar="SECONDS",
                        help="how long to wait for a missing binary (being rebuilt) before "
                             "giving up (default: 600)")
    args = parser.parse_args(argv)

    binary = os.path.abspath(args.binary or default_binary())
    if args.out:
        out_dir = os.path.abspath(args.out)
    elif args.quick:
        out_dir = os.path.join(ROOT, "build", "validation-quick")
    else:
        out_dir = os.path.join(ROOT, "doc", "validation")
    mode = "quick" if args.quick else "full"

    options = binary_options(binary) if os.access(binary, os.X_OK) else None
    cc_names = cc_names_of(binary) if options is not None else set()
    matrix, why_not = artifact_prefix(args.reps_artifact, args.work)
    scenarios = build_scenarios(args.quick, options or set(), matrix, why_not,
                                args.reps_artifact, args.uet_htsim, cc_names)
    names = [s.name for s in scenarios]
    groups = sorted({s.group for s in scenarios if s.group})
    chosen = [n.strip() for n in args.only.split(",") if n.strip()]
    unknown = [n for n in chosen if n not in names and n not in groups]
    if unknown:
        parser.error("--only: unknown scenario(s) %s; allowed%s: %s, or the group%s %s" % (
            ", ".join(unknown), " with --quick" if args.quick else "", ", ".join(names),
            "s" if len(groups) > 1 else "", ", ".join(groups)))

    def selected(s):
        return not chosen or s.name in chosen or s.group in chosen
    scenarios = [s for s in scenarios if selected(s)]

    if args.list:
        costs = {}
        for s in scenarios:
            n = args.seeds or s.seeds
            runs = len(s.variants) * len(s.selectors) * n
            if not s.unavailable:
                costs.update((json.dumps(r.key()), s.cost) for r in s.runs(n))
            print("%-20s %s%s" % (s.name, s.title,
                                  " [not available: %s]" % s.unavailable
                                  if s.unavailable else ""))
            print("%-20s   %s, %d runs (%d seeds), ~%.0f s CPU" % (
                "", " ".join(s.base), runs, n, runs * s.cost))
        total = sum(costs.values())
        print("estimated: %d distinct runs, ~%.0f s CPU, ~%.0f min with -j %d" % (
            len(costs), total, total / 60.0 / args.jobs, args.jobs))
        if options is None:
            print("(%s not found or not runnable: options it may lack are not checked)" % binary)
        return 0

    if options is None:
        # Missing or not loadable: the build may be in progress.
        runner = Runner(binary, "", 0, False, args.wait)
        deadline = time.monotonic() + args.wait
        while True:
            if not runner.wait_for_binary():
                parser.error("--binary: %s does not exist or is not executable (build the "
                             "module first, or set REPS_BUILD_DIR)" % binary)
            options = binary_options(binary)
            if options is not None:
                break
            if time.monotonic() > deadline:
                parser.error("--binary: %s cannot be run (try it by hand)" % binary)
            log("%s cannot be run (being rebuilt?); retrying in 15 s" % binary)
            time.sleep(15)
        cc_names = cc_names_of(binary)
        scenarios = [s for s in build_scenarios(args.quick, options, matrix, why_not,
                                                args.reps_artifact, args.uet_htsim, cc_names)
                     if selected(s)]
    if "lb" not in options:
        parser.error("--binary: %s does not look like %s (no --lb option in its --help)" % (
            binary, PROGRAM))

    plt = import_pyplot()
    if plt is None:
        system = "/usr/bin/python3"
        if (os.path.exists(system) and not os.environ.get("REPS_VALIDATE_REEXEC")
                and os.path.realpath(sys.executable) != os.path.realpath(system)):
            # Debian's python3-matplotlib lives in the system interpreter; a python3 found
            # first on PATH (a virtualenv, pyenv) may not see it.
            os.environ["REPS_VALIDATE_REEXEC"] = "1"
            os.execv(system, [system, os.path.abspath(__file__)] +
                     (sys.argv[1:] if argv is None else list(argv)))
        log("matplotlib is not installed (Debian: apt-get install python3-matplotlib); the "
            "report has no plots")

    os.makedirs(args.work, exist_ok=True)
    os.makedirs(out_dir, exist_ok=True)
    runner = Runner(binary, args.work, args.timeout, args.any_build, args.wait)
    fingerprint = runner.fingerprint()

    seeds_of = {s.name: args.seeds or s.seeds for s in scenarios}
    all_runs, todo, by_key = [], [], {}
    for s in scenarios:
        if s.unavailable:
            continue
        for run in s.runs(seeds_of[s.name]):
            all_runs.append(run)
            k = json.dumps(run.key())
            if k in by_key:
                by_key[k].append(run)     # the same run shared by two scenarios
                continue
            by_key[k] = [run]
            rec = runner.cached(run, fingerprint)
            if rec is not None:
                run.record = rec
            else:
                todo.append(run)
    for runs in by_key.values():
        for r in runs[1:]:
            r.record = runs[0].record
    if args.cached_only:
        for run in todo:
            for r in by_key[json.dumps(run.key())]:
                r.error = "not run (--cached-only)"
        todo = []
    todo.sort(key=lambda r: -r.scenario.cost)   # the longest first: better packing on -j
    log("%d runs in %d scenario(s) (%s set); %d cached, %d to run with -j %d" % (
        len(by_key), len(scenarios), mode, len(by_key) - len(todo), len(todo), args.jobs))

    started = time.monotonic()
    done = [0]

    def work(run):
        t0 = time.monotonic()
        try:
            rec = runner.execute(run)
        except RunError as e:
            run.error = str(e)
            if not runner.stopping:
                log("FAILED %s: %s" % (run.describe(), e.detail))
            return
        for r in by_key[json.dumps(run.key())]:
            r.record = rec
        with runner.lock:
            done[0] += 1
            n = done[0]
        log("[%d/%d] %s: %.1f s (cpu %.1f s)" % (n, len(todo), run.describe(),
                                               time.monotonic() - t0, rec["cpu_s"]))

    def terminated(signum, frame):
        raise KeyboardInterrupt()
    signal.signal(signal.SIGTERM, terminated)
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs)
    try:
        futures = [pool.submit(work, run) for run in todo]
        for f in futures:
            f.result()
    except KeyboardInterrupt:
        runner.stop()
        pool.shutdown(wait=True, cancel_futures=True)
        log("interrupted; finished runs are cached in %s" % args.work)
        return 130
    pool.shutdown(wait=True)
    for runs in by_key.values():
        for r in runs[1:]:
            if r.error is None and runs[0].error:
                r.error = runs[0].error

    results, datas, plots = {}, {}, {}
    for s in scenarios:
        data = Data(s, [r for r in all_runs if r.scenario is s])
        results[s.name] = evaluate(s, data)
        datas[s.name] = data
        if plt is not None and not s.unavailable:
            files = []
            if s.panels:    # none for one selector beside a published figure (uec entries)
                bars = s.name + "-fct.png"
                plot_bars(plt, s, data, os.path.join(out_dir, bars))
                files.append(bars)
            if s.cdf:
                cdf = s.name + "-cdf.png"
                if plot_cdf(plt, s, data, os.path.join(out_dir, cdf)):
                    files.append(cdf)
            plots[s.name] = files

    records = {id(r.record): r.record for r in all_runs if r.record}
    builds = {rec.get("build") for rec in records.values()}
    totals = {"cpu": sum(rec.get("cpu_s", 0) for rec in records.values()),
              "runs": len(records)}
    # The uec group alone writes its own report beside the main one.
    only_uec = all(s.group == "uec" for s in scenarios)
    report = os.path.join(out_dir, "uec.md" if only_uec else "README.md")
    passed, failed = write_report(report, scenarios, results, datas, mode, binary, seeds_of,
                                  plots, builds, totals)
    if any(s.uec for s in scenarios):
        with open(report) as f:
            text = f.read().split("\n")
        at = next((i for i, line in enumerate(text) if line.startswith("| scenario |")),
                  len(text))
        table = ["The uec group beside %s's committed outputs (tail FCT: when the last flow "
                 "finished, from the start; verdict PASS: ours within %d%% of its committed "
                 "tail FCT, where it passes its own target):" % (UET, UEC_TOLERANCE * 100),
                 ""] + write_uec_table(report, scenarios, results) + [""]
        with open(report, "w") as f:
            f.write("\n".join(text[:at] + table + text[at:]))

    for s in scenarios:
        for c, ok, ours in results[s.name]:
            if s.unavailable:
                continue
            print("%s %s: %s -- %s" % (verdict(c, ok, False), s.name, c.text, ours))
        if s.unavailable:
            print("n/a   %s: not available (%s)" % (s.name, s.unavailable))
    print("report: %s; runs: %.0f s wall, %.0f s CPU over all %d runs (cached included)" % (
        os.path.relpath(report), time.monotonic() - started, totals["cpu"], totals["runs"]))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
