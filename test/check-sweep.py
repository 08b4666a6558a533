#!/usr/bin/env python3
"""Checks utils/sweep.py on a small grid of reps-lb-comparison runs (2 flow sizes x 2 seeds,
then 6 seeds).

  1. the first sweep runs 4 processes and its table has one row per configuration and path
     selector, each metric with n = 2 seeds and a confidence interval;
  2. every mean in the table is the mean of the runs' own JSON files;
  3. the second sweep (seeds 1-6) runs only the 8 new runs (resume) and the 95% confidence
     interval of the mean FCT shrinks for every row;
  4. a truncated result file is not taken for a finished run: it is run again;
  5. a run that fails (a value the example refuses) makes the sweep exit 1 with the example's
     message kept, and the table still holds the runs that succeeded;
  6. bad usage (an option the example does not have, bad seeds) exits 2 naming the option;
  7. utils/plot.py draws the table with error bars (when matplotlib is installed).

Usage: check-sweep.py EXAMPLES_DIR
Prints one line per check and "N passed, M failed"; exit status 0 when none failed.
"""

import csv
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SWEEP = os.path.join(HERE, "..", "utils", "sweep.py")
PLOT = os.path.join(HERE, "..", "utils", "plot.py")
FIXED = ["--", "--leaves=4", "--hostsPerLeaf=2", "--spines=2", "--lb=ecmp,reps"]

results = []


def check(name, ok, detail=""):
    results.append(ok)
    print("%s: %s%s" % ("PASS" if ok else "FAIL", name, "" if ok or not detail else ": " + detail))


def sweep(example, out, *args):
    cmd = [sys.executable, SWEEP, "--example", example, "--out", out] + list(args)
    return subprocess.run(cmd, capture_output=True, text=True, timeout=600)


def table(out):
    with open(os.path.join(out, "summary.json")) as f:
        return json.load(f)


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    example = os.path.join(sys.argv[1], "reps-lb-comparison")
    tmp = tempfile.mkdtemp(prefix="reps-sweep-")
    try:
        out = os.path.join(tmp, "grid")
        grid = ["--vary", "flowSize=128KiB,256KiB", "-j", "2"]

        p = sweep(example, out, *(grid + ["--seeds", "1-2"] + FIXED))
        runs = glob.glob(os.path.join(out, "runs", "*.json"))
        check("first sweep succeeds with 4 runs", p.returncode == 0 and len(runs) == 4,
              "exit %d, %d runs: %s" % (p.returncode, len(runs), p.stderr[-500:]))
        two = table(out)
        rows = {(r["config"]["flowSize"], r["lb"]): r for r in two["rows"]}
        check("one row per configuration and path selector",
              sorted(rows) == [("128KiB", "ecmp"), ("128KiB", "reps"),
                               ("256KiB", "ecmp"), ("256KiB", "reps")], str(sorted(rows)))
        check("every metric over 2 seeds with a confidence interval",
              all(m["n"] == 2 and m["ci95"] is not None for r in two["rows"]
                  for m in r["metrics"].values()))

        # The table's means against the runs' own files.
        ok, detail = True, ""
        for (size, lb), r in rows.items():
            vals = []
            for path in runs:
                with open(path) as f:
                    doc = json.load(f)
                if doc["config"]["flowSize"] == size:
                    vals += [x["fct_us"]["mean"] for x in doc["results"] if x["lb"] == lb]
            want = sum(vals) / len(vals)
            got = r["metrics"]["fct_mean"]["mean"]
            if len(vals) != 2 or abs(got - want) > 1e-9 * max(1.0, abs(want)):
                ok, detail = False, "%s/%s: table %r, runs %r" % (size, lb, got, vals)
        check("table means are the means of the runs", ok, detail)
        with open(os.path.join(out, "summary.csv")) as f:
            header = next(csv.reader(f))
        check("CSV has mean, ci95 and n per metric",
              {"fct_mean", "fct_mean_ci95", "fct_mean_n", "fct_p99_ci95"} <= set(header),
              str(header))

        p = sweep(example, out, *(grid + ["--seeds", "1-6"] + FIXED))
        check("resume runs only the new seeds",
              p.returncode == 0 and "8 to run, 4 already done" in p.stderr, p.stderr[-300:])
        six = table(out)
        shrunk = []
        for r in six["rows"]:
            key = (r["config"]["flowSize"], r["lb"])
            before = rows[key]["metrics"]["fct_mean"]["ci95"]
            after = r["metrics"]["fct_mean"]["ci95"]
            shrunk.append((key, before, after, r["metrics"]["fct_mean"]["n"]))
        check("confidence intervals shrink with 6 seeds",
              all(n == 6 and a < b for _, b, a, n in shrunk), str(shrunk))

        victim = sorted(glob.glob(os.path.join(out, "runs", "*seed3.json")))[0]
        with open(victim, "r+") as f:
            f.truncate(100)
        p = sweep(example, out, *(grid + ["--seeds", "1-6"] + FIXED))
        check("a truncated result is run again",
              p.returncode == 0 and "1 to run, 11 already done" in p.stderr, p.stderr[-300:])

        bad = os.path.join(tmp, "bad")
        p = sweep(example, bad, "--vary", "mtu=4096,10", "--seeds", "1", *FIXED)
        errs = glob.glob(os.path.join(bad, "runs", "*.err"))
        kept = "".join(open(e).read() for e in errs)
        check("a failing run: exit 1, the example's message kept, the others tabulated",
              p.returncode == 1 and len(errs) == 1 and "--mtu" in kept
              and len(table(bad)["rows"]) == 2, "exit %d, %s" % (p.returncode, kept[-300:]))

        p = sweep(example, bad, "--vary", "noSuchOption=1,2")
        check("an unknown option is refused, naming it",
              p.returncode == 2 and "--vary: the example has no option --noSuchOption"
              in p.stderr, p.stderr)
        p = sweep(example, bad, "--seeds", "5-2")
        check("bad seeds are refused, naming --seeds",
              p.returncode == 2 and "--seeds:" in p.stderr, p.stderr)
        p = sweep(example, bad, "--", "--RngRun=4")
        check("a run number after -- is refused (seeds come from --seeds)",
              p.returncode == 2 and "--RngRun is set by --seeds" in p.stderr, p.stderr)

        plots = os.path.join(tmp, "plots")
        p = subprocess.run([sys.executable, PLOT, os.path.join(out, "summary.json"),
                            "--out", plots, "--only", "sweep"],
                           capture_output=True, text=True, timeout=300)
        if "matplotlib is not installed" in p.stderr:
            print("note: matplotlib not installed; plot.py not checked")
        else:
            check("plot.py draws the sweep with error bars",
                  p.returncode == 0 and os.path.exists(os.path.join(plots, "sweep_fct_mean.png")),
                  p.stderr[-300:])
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    failed = results.count(False)
    print("%d passed, %d failed" % (len(results) - failed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
