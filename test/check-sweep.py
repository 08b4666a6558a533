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
  7. utils/plot.py draws the table with error bars (when matplotlib is installed), cuts the
     error bars of quantities that cannot be negative at zero, and gives an option with
     integer values integer ticks;
  8. the 95% interval is Student's t from scipy (a sample whose interval is known), and
     --help says "95%" and states what a program must accept (--RngRun, --json, --quiet);
  9. a program of one's own that takes the options another way (the research script:
     --RngRun and --json, no --quiet) is swept with --pass, and a bad --pass is refused;
 10. --backend inprocess (reps-lb-comparison's experiment through the Python module, in worker
     processes) writes the run files of the subprocess backend, byte for byte but for the
     fields that measure the host (HOST_FIELDS), and the same summary; resumes; fails a refused
     value with the command line's message in the .err file; stops a run past --timeout and
     goes on with a new worker; refuses another --example, naming --backend. Without the
     Python module (import reps fails; CTest gives PYTHONPATH when it is built), the checks
     that run it are skipped with a notice.

Usage: check-sweep.py EXAMPLES_DIR
Prints one line per check and "N passed, M failed"; exit status 0 when none failed.
"""

import csv
import glob
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SWEEP = os.path.join(HERE, "..", "utils", "sweep.py")
PLOT = os.path.join(HERE, "..", "utils", "plot.py")
FIXED = ["--", "--leaves=4", "--hostsPerLeaf=2", "--spines=2", "--lb=ecmp,reps"]
# The in-process checks: a fabric of 4 hosts, each run a few milliseconds of CPU.
TINY = ["--", "--leaves=2", "--hostsPerLeaf=2", "--spines=2", "--flowSize=256KiB",
        "--lb=ecmp,reps"]
# The fields of a result file that measure the host, not the simulation: they differ between
# two runs of the same point, whichever the backend (utils/sweep.py's docstring).
HOST_FIELDS = ("wall_s", "wall_us_per_link_packet")

results = []


def check(name, ok, detail=""):
    results.append(ok)
    print("%s: %s%s" % ("PASS" if ok else "FAIL", name, "" if ok or not detail else ": " + detail))


def sweep(example, out, *args):
    cmd = [sys.executable, SWEEP, "--example", example, "--out", out] + list(args)
    return subprocess.run(cmd, capture_output=True, text=True, timeout=600)


def load(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def check_statistics_and_help():
    sweep_module = load("sweep", SWEEP)
    mean, half, n = sweep_module.mean_ci([1.0, 2.0, 3.0, 4.0])
    # t(0.975, 3) = 3.182446, s = 1.290994: 3.182446 * 1.290994 / 2
    check("95% interval of 1,2,3,4 is 2.5 +- 2.0543 (Student's t, 3 degrees of freedom)",
          mean == 2.5 and n == 4 and abs(half - 2.054260) < 1e-5, "%r %r" % (mean, half))
    _, half40, _ = sweep_module.mean_ci([float(i % 7) for i in range(40)])
    check("a single value has no interval; 40 values have one",
          sweep_module.mean_ci([3.0])[1] is None and half40 > 0)
    p = subprocess.run([sys.executable, SWEEP, "--help"], capture_output=True, text=True)
    text = " ".join(p.stdout.split())
    check("--help says 95% and what a program must accept",
          p.returncode == 0 and "95% confidence" in text and "95%%" not in text
          and all(w in text for w in ("--RngRun=N", "--json=FILE", "--quiet=true", "--pass")),
          text[:400])
    check("--help documents --backend subprocess and inprocess",
          all(w in text for w in ("--backend {subprocess,inprocess}", "reps.Experiment")),
          text[-600:])


def check_plot_helpers():
    plot = load("plot", PLOT)
    stats = [{"mean": 1.0, "ci95": 3.0}, {"mean": 10.0, "ci95": 2.0}, {"mean": 5.0, "ci95": None}]
    check("error bars of a non-negative quantity stop at zero",
          plot.error_bars(stats, True) == [[1.0, 2.0, 0], [3.0, 2.0, 0]],
          str(plot.error_bars(stats, True)))
    check("error bars of a signed quantity are the whole interval",
          plot.error_bars(stats, False) == [[3.0, 2.0, 0], [3.0, 2.0, 0]])
    check("an option with integer values gets its values as ticks",
          plot.integer_ticks(["8", "2", "4"]) == [2, 4, 8]
          and plot.integer_ticks(["0.5", "1"]) is None
          and plot.integer_ticks(["256KiB"]) is None)


def check_own_program(examples, tmp):
    script = os.path.join(examples, "reps-research-script")
    out = os.path.join(tmp, "own")
    small = ["--", "--leaves=2", "--hostsPerLeaf=2", "--spines=2", "--flowBytes=65536"]
    p = sweep(script, out, "--pass", "--RngRun={seed} --json={json}", "--vary",
              "degradedRate=10Gbps,50Gbps", "--seeds", "1-2", *small)
    rows = table(out)["rows"] if p.returncode == 0 else []
    check("a program that takes --RngRun and --json but no --quiet is swept with --pass",
          p.returncode == 0 and len(rows) == 2
          and all(r["metrics"]["fct_mean"]["n"] == 2 for r in rows),
          "exit %d: %s" % (p.returncode, p.stderr[-400:]))
    p = sweep(script, os.path.join(tmp, "own-default"), "--seeds", "1", *small)
    errs = glob.glob(os.path.join(tmp, "own-default", "runs", "*.err"))
    kept = "".join(open(e).read() for e in errs)
    check("with the default --pass, the program's refusal of --quiet is kept",
          p.returncode == 1 and "quiet" in kept, "exit %d: %s" % (p.returncode, kept[-300:]))
    true = "/bin/true"
    if os.access(true, os.X_OK):
        p = sweep(true, os.path.join(tmp, "silent"), "--pass", "--run {seed} --file {json}",
                  "--option", "--{name} {value}", "--vary", "x=1", "--seeds", "1")
        errs = glob.glob(os.path.join(tmp, "silent", "runs", "*.err"))
        kept = "".join(open(e).read() for e in errs)
        check("a program that exits 0 without writing its result file counts as failed",
              p.returncode == 1 and "wrote no complete result file" in kept
              and "--run 1 --file" in kept and "--x 1" in kept, kept[-300:])
    p = sweep(script, out, "--pass=--RngRun={seed}")
    check("a --pass without {json} is refused",
          p.returncode == 2 and "--pass:" in p.stderr and "{json}" in p.stderr, p.stderr)


def mask_host_fields(text):
    """A result file's text with the values of HOST_FIELDS replaced by '*'."""
    return re.sub(r'("(?:%s)": )[^,\n}\]]+' % "|".join(HOST_FIELDS), r"\1*", text)


def run_files(out):
    """{name: text with the host fields masked} of a sweep's run files."""
    files = {}
    for path in sorted(glob.glob(os.path.join(out, "runs", "*.json"))):
        with open(path) as f:
            files[os.path.basename(path)] = mask_host_fields(f.read())
    return files


def error_lines(out):
    """The 'error: ' lines of a sweep's .err files."""
    lines = []
    for path in glob.glob(os.path.join(out, "runs", "*.err")):
        with open(path) as f:
            lines += [l for l in f.read().splitlines() if l.startswith("error: ")]
    return lines


def check_inprocess(examples, tmp):
    example = os.path.join(examples, "reps-lb-comparison")
    script = os.path.join(examples, "reps-research-script")
    p = sweep(script, os.path.join(tmp, "foreign"), "--backend", "inprocess", "--pass",
              "--RngRun={seed} --json={json}", "--seeds", "1")
    check("--backend inprocess with another --example is a usage error naming --backend",
          p.returncode == 2 and "--backend inprocess" in p.stderr
          and "reps-lb-comparison" in p.stderr and "--backend subprocess" in p.stderr,
          "exit %d: %s" % (p.returncode, p.stderr[-300:]))
    probe = subprocess.run([sys.executable, "-c", "import reps"], capture_output=True,
                           text=True, timeout=120)
    if probe.returncode != 0:
        last = (probe.stderr.strip().splitlines() or ["?"])[-1]
        print("note: the Python module reps cannot be imported (%s); --backend inprocess not "
              "checked (build it with REPS_PYTHON, and set PYTHONPATH)" % last)
        return

    # The same grid, seeds and --out with each backend (the result files record --json's path).
    out = os.path.join(tmp, "inprocess")
    grid = ["--vary", "spines=1,2", "--seeds", "1-3", "-j", "2"]
    p = sweep(example, out, *(grid + TINY))
    os.rename(out, out + "-subprocess")
    q = sweep(example, out, "--backend", "inprocess", *(grid + TINY))
    sub, inp = run_files(out + "-subprocess"), run_files(out)
    check("in-process sweep with -j 2 (2 worker processes) runs the 6 points",
          p.returncode == 0 and q.returncode == 0 and len(inp) == 6
          and "6 to run, 0 already done" in q.stderr,
          "exit %d/%d, %d runs: %s" % (p.returncode, q.returncode, len(inp), q.stderr[-500:]))
    differ = [k for k in sorted(set(sub) | set(inp)) if sub.get(k) != inp.get(k)]
    check("in-process run files are those of the subprocess backend but for %s"
          % ", ".join(HOST_FIELDS), len(sub) == 6 and not differ, "differ: %s" % differ[:3])
    def summaries(d):
        return [open(os.path.join(d, n)).read() for n in ("summary.json", "summary.csv",
                                                          "summary.md")]
    check("in-process summary equals the subprocess one",
          summaries(out) == summaries(out + "-subprocess"))
    q = sweep(example, out, "--backend", "inprocess", *(grid + TINY))
    check("in-process resume runs nothing new",
          q.returncode == 0 and "0 to run, 6 already done" in q.stderr, q.stderr[-300:])
    q = sweep(example, out, "--backend", "inprocess", "--dry-run", "--vary", "spines=1,2",
              "--seeds", "1-4", *TINY)
    lines = q.stdout.splitlines()
    check("in-process --dry-run lists the points left as reps.Experiment calls",
          q.returncode == 0 and len(lines) == 2
          and all(l.startswith("reps.Experiment(**{") and "'RngRun': 4" in l for l in lines),
          q.stdout[-300:])

    bad = ["--vary", "mtu=4096,10", "--seeds", "1"]
    p = sweep(example, os.path.join(tmp, "bad-subprocess"), *(bad + TINY))
    q = sweep(example, os.path.join(tmp, "bad-inprocess"), "--backend", "inprocess",
              *(bad + TINY))
    want, got = error_lines(os.path.join(tmp, "bad-subprocess")), \
        error_lines(os.path.join(tmp, "bad-inprocess"))
    check("in-process, a refused value fails its point with the command line's message",
          p.returncode == 1 and q.returncode == 1 and len(got) == 1 and "--mtu" in got[0]
          and got == want and len(table(os.path.join(tmp, "bad-inprocess"))["rows"]) == 2,
          "exit %d/%d: %s against %s" % (p.returncode, q.returncode, got, want))

    # The first point (256 MiB per host, some 10 s of CPU) is stopped after 1 s; the second
    # (256 KiB, some 10 ms) runs in a new worker.
    slow = os.path.join(tmp, "slow")
    q = sweep(example, slow, "--backend", "inprocess", "--timeout", "1", "-j", "1",
              "--vary", "flowSize=256MiB,256KiB", "--seeds", "1",
              *[a for a in TINY if not a.startswith("--flowSize")])
    kept = "".join(open(e).read() for e in glob.glob(os.path.join(slow, "runs", "*.err")))
    done = glob.glob(os.path.join(slow, "runs", "flowSize-256KiB_*.json"))
    check("in-process, a run past --timeout fails and a new worker runs the next",
          q.returncode == 1 and "did not finish within --timeout (1 s)" in kept
          and len(done) == 1, "exit %d: %s %s" % (q.returncode, kept[-300:], q.stderr[-300:]))


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
        check_statistics_and_help()
        check_plot_helpers()
        check_own_program(sys.argv[1], tmp)
        check_inprocess(sys.argv[1], tmp)
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
