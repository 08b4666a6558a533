#!/usr/bin/env python3
"""Checks --failureFile of reps-lb-comparison end to end, on a 16-host fabric.

1. A schedule with every kind of event (a link down for good, a switch down and up, a flapping
   link, a rate change, random loss and bit errors) runs under OPS and REPS; the JSON has one
   "failures" entry per line that takes an element down or changes it, in line order, with the
   documented fields; the down, switch and flap lines lost packets, the loss and ber lines lost
   packets to their models, the rate line none; every flow completes.
2. REPS stops sending into the link that failed for good much sooner than OPS (its
   recovery_us is at most half of OPS's): the reaction the schedule is there to measure.
3. Files that are wrong only once resolved against the fabric (unknown node, a host as a
   switch, 'up' of an element that is up, a second 'down', a flap overlapping a down period,
   nodes that are not linked) are refused with exit status 1 and a message naming the file,
   the line and the problem; so are uplinks elements the fabric cannot meet.
4. Drawn uplinks of the file next to --failedLinks (one FailureInjector plays both): the file's
   line has its "failures" entry, the option's link only its "events" marker.

Usage: check-failure-file.py EXAMPLES_DIR
"""

import json
import os
import subprocess
import sys
import tempfile

SHAPE = ["--leaves=4", "--hostsPerLeaf=4", "--spines=4", "--flowSize=1MiB", "--quiet"]

SCHEDULE = """# every kind of event
20us link:leaf0-spine0 down
10us switch:spine1 down
40us switch:spine1 up
0 link:leaf1-spine2 flap 5us 20us 3   # three times down for 5 us
0 link:leaf2-spine3 rate 100Gbps
0 link:host5-leaf1 loss 0.05
0 link:leaf3-spine3 ber 1e-6
"""

BAD = [
    ("20us link:leaf0-spine9 down\n", "line 1: element 'link:leaf0-spine9': no node 'spine9'"),
    ("20us switch:host1 down\n", "line 1: element 'switch:host1': host1 is a host"),
    ("\n20us link:leaf0-spine0 up\n", "line 2: link:leaf0-spine0 is not down at that time"),
    ("20us link:leaf0-spine0 down\n30us link:leaf0-spine0 down\n",
     "line 2: link:leaf0-spine0 is already down at that time (since line 1)"),
    ("30us link:leaf0-spine0 down\n0 link:leaf0-spine0 flap 5us 20us 3\n",
     "is already down at that time"),
    ("20us link:leaf0-leaf1 down\n", "line 1: element 'link:leaf0-leaf1': no such link"),
    ("20us link:leaf0-spine0 down\n20us link:leaf0-spine0 up\n",
     "line 2: link:leaf0-spine0 comes up at the time it went down (line 1)"),
    # Plane elements on a single-plane fabric.
    ("\n20us plane:1 down\n", "line 2: element 'plane:1': no plane 1 in this fabric (it has 1 plane"),
    ("20us switch:p1.spine0 down\n", "line 1: element 'switch:p1.spine0': no node 'p1.spine0'"),
    ("20us plane:9 down\n", "line 1: element 'plane:9': the plane after 'plane:' must be a number"),
    ("0 plane:0 loss 0.5\n", "line 1: action 'loss' applies to links, not to a plane"),
    # Uplinks elements the 16-host fabric cannot meet, or without the stream of their draw.
    ("20us uplinks:17#5000 down\n",
     "line 1: element 'uplinks:17#5000': 17 uplinks asked, the fabric has 16 (of every plane)"),
    ("\n20us uplinks:2@leaf4 down\n",
     "line 2: element 'uplinks:2@leaf4': no leaf 4 in this fabric (leaves 0 to 3)"),
    ("20us uplinks:2 down\n", "line 1: element 'uplinks:2': uplinks drawn at random need the "
     "stream of the draw"),
]

results = []


def check(name, ok, detail=""):
    results.append(ok)
    print("%s: %s%s" % ("PASS" if ok else "FAIL", name, "" if ok or not detail else ": " + detail))


PLANE_SCHEDULE = """10us switch:p1.spine0 down
0 link:host5-p1.leaf1 flap 5us 20us 3
30us plane:1 down   # the whole plane, for good
"""


def plane_schedule(example, tmp):
    """Plane elements on a 2-plane fabric: a switch of plane 1, a host's link in plane 1 and
    the whole plane 1 are reported like other elements, and every flow completes."""
    sched = os.path.join(tmp, "planes.txt")
    with open(sched, "w") as f:
        f.write(PLANE_SCHEDULE)
    out = os.path.join(tmp, "planes.json")
    run = subprocess.run([example] + SHAPE + ["--planes=2", "--lb=ops,reps",
                                              "--failureFile=" + sched, "--json=" + out],
                         capture_output=True, text=True, timeout=600)
    if run.returncode != 0:
        check("planes: the run with plane elements succeeds", False, run.stderr[-500:])
        return
    with open(out) as f:
        doc = json.load(f)
    for r in doc["results"]:
        lb = r["lb"]
        by = {f["line"]: f for f in r.get("failures", [])}
        check("planes %s: one entry per line" % lb, sorted(by) == [1, 2, 3], str(sorted(by)))
        if sorted(by) != [1, 2, 3]:
            continue
        check("planes %s: elements as written" % lb,
              [by[k]["element"] for k in (1, 2, 3)]
              == ["switch:p1.spine0", "link:host5-p1.leaf1", "plane:1"])
        check("planes %s: the plane's switch and the whole plane lost packets" % lb,
              by[1]["drops"] > 0 and by[3]["drops"] > 0 and by[3]["recovery_us"] is not None,
              str([by[1], by[3]]))
        check("planes %s: every flow completes over plane 0" % lb,
              r["completed"] == r["flows"], "%d of %d" % (r["completed"], r["flows"]))
        check("planes %s: per-plane load reported" % lb,
              [p["plane"] for p in r.get("planes", [])] == [0, 1], str(r.get("planes")))


def uplinks_schedule(example, tmp):
    """Drawn uplinks of the file, staggered, next to --failedLinks: the file's line has its
    "failures" entry, the option's link has none but its "events" marker, and both fail."""
    sched = os.path.join(tmp, "uplinks.txt")
    with open(sched, "w") as f:
        f.write("20us uplinks:2#5000+10us down\n100us uplinks:2#5000+10us up\n")
    out = os.path.join(tmp, "uplinks.json")
    run = subprocess.run([example] + SHAPE + ["--lb=reps", "--failedLinks=1", "--failAt=30us",
                                              "--failureFile=" + sched, "--json=" + out],
                         capture_output=True, text=True, timeout=600)
    if run.returncode != 0:
        check("uplinks: the run with uplinks elements succeeds", False, run.stderr[-500:])
        return
    with open(out) as f:
        r = json.load(f)["results"][0]
    failures = r.get("failures", [])
    check("uplinks: one entry, the file's line",
          [(f["line"], f["element"], f["action"], f["t_us"]) for f in failures]
          == [(1, "uplinks:2#5000+10us", "down", 20)], str(failures))
    labels = [(e["t_us"], e["label"]) for e in r["events"]]
    check("uplinks: the option's link is an event at 30 us",
          any(t == 30 and l.endswith(" down") and not l.startswith("uplinks:")
              for t, l in labels), str(labels))
    check("uplinks: every flow completes", r["completed"] == r["flows"],
          "%d of %d" % (r["completed"], r["flows"]))


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    example = os.path.join(sys.argv[1], "reps-lb-comparison")
    with tempfile.TemporaryDirectory() as tmp:
        sched = os.path.join(tmp, "failures.txt")
        with open(sched, "w") as f:
            f.write(SCHEDULE)
        out = os.path.join(tmp, "r.json")
        run = subprocess.run([example] + SHAPE + ["--lb=ops,reps", "--failureFile=" + sched,
                                                  "--json=" + out],
                             capture_output=True, text=True, timeout=600)
        if not run.returncode == 0:
            check("the run with every kind of event succeeds", False, run.stderr[-500:])
            return 1
        with open(out) as f:
            doc = json.load(f)
        recovery = {}
        for r in doc["results"]:
            lb = r["lb"]
            failures = r.get("failures", [])
            lines = [f["line"] for f in failures]
            check("%s: one entry per line, in line order" % lb, lines == [2, 3, 5, 6, 7, 8],
                  str(lines))
            by = {f["line"]: f for f in failures}
            fields = {"line", "element", "action", "t_us", "drops", "lost", "last_drop_us",
                      "recovery_us"}
            check("%s: every entry has the documented fields" % lb,
                  all(set(f) == fields for f in failures), str(failures[:1]))
            if lines != [2, 3, 5, 6, 7, 8]:
                continue
            check("%s: down, switch and flap lines lost packets while down" % lb,
                  by[2]["drops"] > 0 and by[3]["drops"] > 0 and by[5]["drops"] > 0,
                  str([by[k]["drops"] for k in (2, 3, 5)]))
            check("%s: the switch's last drop falls while it was down (10 to 40 us)" % lb,
                  10 <= by[3]["last_drop_us"] <= 40.001, str(by[3]))
            check("%s: loss and bit errors lost packets; a rate change none" % lb,
                  by[7]["lost"] > 0 and by[8]["lost"] > 0 and by[6]["drops"] == 0
                  and by[6]["lost"] == 0, str([by[6], by[7], by[8]]))
            check("%s: flap has no recovery time, down has one" % lb,
                  by[5]["recovery_us"] is None and by[2]["recovery_us"] is not None)
            check("%s: every flow completes" % lb, r["completed"] == r["flows"],
                  "%d of %d" % (r["completed"], r["flows"]))
            recovery[lb] = by[2]["recovery_us"]
        if len(recovery) == 2:
            check("REPS stops sending into the dead link at least twice as fast as OPS",
                  recovery["reps"] * 2 <= recovery["ops"], str(recovery))
        plane_schedule(example, tmp)
        uplinks_schedule(example, tmp)
        for i, (text, want) in enumerate(BAD):
            path = os.path.join(tmp, "bad%d.txt" % i)
            with open(path, "w") as f:
                f.write(text)
            run = subprocess.run([example] + SHAPE + ["--lb=reps", "--failureFile=" + path],
                                 capture_output=True, text=True, timeout=120)
            msg = run.stdout + run.stderr
            check("bad schedule %d refused: %s" % (i, want),
                  run.returncode == 1 and ("--failureFile: %s: %s" % (path, want)) in msg
                  if "line" in want.split(":")[0] else run.returncode == 1 and want in msg,
                  msg.strip()[-300:])
    failed = results.count(False)
    print("%d passed, %d failed" % (len(results) - failed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
