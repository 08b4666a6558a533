#!/usr/bin/env python3
"""Runs an example with --json and checks the summary it writes.

Checks that the JSON parses; that "config" records every option the example lists in --help;
that every result has the fields of the documented shape (doc/reps-workloads.rst) with the
right types, "tcp_background" (ns-3 TCP background flows) checked when present; that the CSV written alongside has one row per flow; with --linkSeries=true, that "link_utilization"
has one series per direction of every switch-to-switch link of link_bytes with values in
[0, 1.05] (bytes count when a packet has arrived, so an interval may hold one packet more
than its capacity), "port_queue_bytes" 8 series sampled at the same times, and that
utils/plot.py draws link_heatmap.png and spine_share.png from it; "pfc" (lossless fabric) present exactly when --pfc=true, with totals that are the sums of its ports
and no drop; and, with --expect-slower
SLOW:FAST1,FAST2, that the mean FCT of scheme SLOW is at least 1.2 times that of each FAST one.

Usage: check-example-json.py [--expect-slower ecmp:ops,reps] PROGRAM [ARGS...]
Exit status 0 when every check passes.
"""

import csv
import json
import os
import re
import subprocess
import sys
import tempfile

RESULT_FIELDS = {
    "lb": str, "flows": int, "completed": int, "fct_us": dict, "slowdown": dict,
    "drops": int, "trims": int, "retransmissions": int, "ecn_marks": int, "freezes": int,
    "max_queue_bytes": int, "sim_time_us": (int, float), "wall_s": (int, float), "packets": int,
    "max_queue_bytes_per_tier": dict, "link_bytes": list, "timeseries": dict, "events": list,
    "collectives": list,
}

TCP_BACKGROUND_FIELDS = {
    "flows": int, "completed": int, "size_bytes": int, "bytes": int,
    "goodput_gbps": (int, float), "fct_us": dict,
}


PFC_FIELDS = {
    "pauses_sent": int, "resumes_sent": int, "pauses_received": int,
    "paused_us": (int, float), "pauses_sent_per_tier": dict, "ports": list,
}

PFC_PORT_FIELDS = {
    "port": str, "tier": str, "pauses_sent": int, "resumes_sent": int,
    "pauses_received": int, "paused_us": (int, float),
}


def fail(message):
    print("check-example-json: FAIL: " + message)
    sys.exit(1)


def check_pfc(r):
    """Checks the pfc object of one result of a lossless fabric."""
    lb, p = r["lb"], r["pfc"]
    if not isinstance(p, dict):
        fail("result %s: pfc is not an object" % lb)
    for key, kind in PFC_FIELDS.items():
        if not isinstance(p.get(key), kind):
            fail("result %s: pfc.%s missing or not %s" % (lb, key, kind))
    for port in p["ports"]:
        for key, kind in PFC_PORT_FIELDS.items():
            if not isinstance(port.get(key), kind):
                fail("result %s: pfc.ports[].%s missing or not %s" % (lb, key, kind))
    for key in ("pauses_sent", "resumes_sent", "pauses_received"):
        total = sum(port[key] for port in p["ports"])
        if total != p[key]:
            fail("result %s: pfc.%s is %d, its ports sum to %d" % (lb, key, p[key], total))
    if sum(p["pauses_sent_per_tier"].values()) != p["pauses_sent"]:
        fail("result %s: pfc.pauses_sent_per_tier does not sum to pauses_sent" % lb)
    if r["drops"] != 0:
        fail("result %s: %d drops in a lossless fabric" % (lb, r["drops"]))


def check_tcp_background(lb, t):
    """Checks the tcp_background object of one result."""
    if not isinstance(t, dict):
        fail("result %s: tcp_background is not an object" % lb)
    for key, kind in TCP_BACKGROUND_FIELDS.items():
        if key not in t or not isinstance(t[key], kind) or isinstance(t[key], bool):
            fail("result %s: tcp_background.%s missing or not %s" % (lb, key, kind))
    for key in ("mean", "min", "p50", "p99", "max"):
        if key not in t["fct_us"]:
            fail("result %s: tcp_background.fct_us.%s missing" % (lb, key))
    if t["flows"] <= 0 or t["bytes"] <= 0 or t["goodput_gbps"] <= 0:
        fail("result %s: tcp_background delivered nothing (%d flows, %d bytes)"
             % (lb, t["flows"], t["bytes"]))
    if t["completed"] > t["flows"]:
        fail("result %s: tcp_background: %d of %d flows completed"
             % (lb, t["completed"], t["flows"]))
    if t["size_bytes"] > 0:
        # A sized flow never delivers more than its size; a completed one delivers all of it.
        if t["bytes"] > t["flows"] * t["size_bytes"] or \
                t["bytes"] < t["completed"] * t["size_bytes"]:
            fail("result %s: tcp_background: %d bytes for %d flows of %d bytes, %d completed"
                 % (lb, t["bytes"], t["flows"], t["size_bytes"], t["completed"]))
        if t["completed"] > 0 and t["fct_us"]["mean"] is None:
            fail("result %s: tcp_background: completed flows without FCT" % lb)


def check_link_series(r):
    ts = r["timeseries"]
    for key in ("link_utilization", "port_queue_bytes"):
        if key not in ts:
            fail("result %s: --linkSeries=true but no %s series" % (r["lb"], key))
    util = ts["link_utilization"]
    links = {l["link"].replace("->", "-").replace("#", "_") for l in r["link_bytes"]}
    if set(util["series"]) != links:
        fail("result %s: link_utilization series %s are not the links of link_bytes %s"
             % (r["lb"], sorted(util["series"]), sorted(links)))
    for name, values in util["series"].items():
        if any(not (0 <= v <= 1.05) for v in values):
            fail("result %s: link_utilization.%s outside [0, 1.05]: %s" % (r["lb"], name, values))
    ports = ts["port_queue_bytes"]
    if len(ports["series"]) != 8 or ports["t_us"] != util["t_us"]:
        fail("result %s: port_queue_bytes has %d series (want 8) or other sample times"
             % (r["lb"], len(ports["series"])))


def main():
    args = sys.argv[1:]
    slower = None
    if len(args) >= 2 and args[0] == "--expect-slower":
        slow, fast = args[1].split(":")
        slower = (slow, fast.split(","))
        args = args[2:]
    if not args:
        fail("no program given")
    help_text = subprocess.run(args[:1] + ["--help"], capture_output=True, text=True).stdout
    program_options = help_text.split("Program Options:")[-1].split("General Arguments:")[0]
    options = re.findall(r"^\s+--(\w+):", program_options, re.M)
    if not options:
        fail("no option found in --help")
    with tempfile.TemporaryDirectory() as tmp:
        jpath, cpath = os.path.join(tmp, "r.json"), os.path.join(tmp, "r.csv")
        run = subprocess.run(args + ["--json=" + jpath, "--csv=" + cpath], capture_output=True,
                             text=True)
        if run.returncode != 0:
            fail("the example exited with %d:\n%s%s" % (run.returncode, run.stdout, run.stderr))
        with open(jpath) as f:
            doc = json.load(f)
        with open(cpath, newline="") as f:
            rows = list(csv.DictReader(f))
        if "--linkSeries=true" in args:
            plot = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "utils",
                                "plot.py")
            out = subprocess.run([sys.executable, plot, jpath, "--out", tmp, "--only",
                                  "link_heatmap,spine_share"], capture_output=True, text=True)
            if "matplotlib is not installed" not in out.stderr and not all(
                    os.path.exists(os.path.join(tmp, f + ".png"))
                    for f in ("link_heatmap", "spine_share")):
                fail("plot.py drew no link_heatmap.png and spine_share.png: " + out.stderr)
    missing = [o for o in options if o not in doc["config"]]
    if missing:
        fail("config lacks options %s" % missing)
    if not doc["results"]:
        fail("no results")
    flows = 0
    for r in doc["results"]:
        for key, kind in RESULT_FIELDS.items():
            if key not in r or not isinstance(r[key], kind):
                fail("result %s: field %s missing or not %s" % (r.get("lb"), key, kind))
        for key in ("mean", "p50", "p99", "max"):
            if key not in r["fct_us"]:
                fail("result %s: fct_us.%s missing" % (r["lb"], key))
        for key in ("mean", "p99"):
            if key not in r["slowdown"]:
                fail("result %s: slowdown.%s missing" % (r["lb"], key))
        if "collective_us" not in r:
            fail("result %s: collective_us missing" % r["lb"])
        if r["completed"] != r["flows"]:
            fail("result %s: %d of %d flows completed" % (r["lb"], r["completed"], r["flows"]))
        if r["packets"] <= 0:
            fail("result %s: no packet sent" % r["lb"])
        if "tcp_background" in r:
            check_tcp_background(r["lb"], r["tcp_background"])
        if "--linkSeries=true" in args:
            check_link_series(r)
        if ("pfc" in r) != (doc["config"].get("pfc") is True):
            fail("result %s: pfc object %s, but --pfc=%s" % (r["lb"], "present" if "pfc" in r
                                                              else "absent",
                                                              doc["config"].get("pfc")))
        if "pfc" in r:
            check_pfc(r)
        flows += r["flows"]
    if len(rows) != flows:
        fail("CSV has %d rows for %d flows" % (len(rows), flows))
    if slower:
        fct = {r["lb"]: r["fct_us"]["mean"] for r in doc["results"]}
        for fast in slower[1]:
            if not fct[slower[0]] >= 1.2 * fct[fast]:
                fail("mean FCT of %s (%.1f us) is not 1.2 x that of %s (%.1f us)"
                     % (slower[0], fct[slower[0]], fast, fct[fast]))
        print("mean FCT: " + ", ".join("%s %.1f us" % kv for kv in fct.items()))
    print("check-example-json: %d results, %d flows, %d options: OK"
          % (len(doc["results"]), flows, len(options)))


if __name__ == "__main__":
    main()
