#!/usr/bin/env python3
"""Runs a grid of experiment configurations times a list of seeds, and tabulates the results
with 95% confidence intervals.

Every point of the grid (the cross product of the --vary options) is run once per seed, each
run a separate process of the program (reps-lb-comparison by default, or --example), up to -j
at a time.

What a program must accept to be swept (every example of the module does):
  --RngRun=N     the run number (ns-3's CommandLine gives every program this one)
  --json=FILE    write the run's result file there: an object with "config" (holding
                 "RngRun": N) and "results", a list with one entry per path selector compared,
                 each with "lb" (its name), "flows", "completed" and any of the metrics below
                 (the shape of the manual's "Result files")
  --quiet=true   print no table (optional: the output is discarded)
  --NAME=VALUE   for every option varied with --vary NAME=...
A program that takes them another way says so with --pass (how the run number, the result
file and the quiet flag are given; "{seed}" and "{json}" are replaced, e.g.
--pass "--seed {seed} --out {json}") and --option (how a varied option is given, with
"{name}" and "{value}"). A run's JSON is written under OUT/runs/ and renamed into
place only when the example exits successfully, so an interrupted sweep resumes where it
stopped: runs whose result file exists and is complete are skipped. When every run is done (or
failed), the table is written:

  OUT/summary.csv   one row per configuration and path selector: for every metric, the mean
                    over the seeds and the half-width of its 95% confidence interval
                    (Student's t, from scipy.stats), and the number of seeds
  OUT/summary.md    the same as a markdown table, "mean ± half-width"
  OUT/summary.json  the same for utils/plot.py (plots with error bars)

Metrics, from each run's JSON (see the manual, "Result files"): fct_mean and fct_p99 (us, of
the completed flows), slowdown_mean and slowdown_p99, collective_us (when the workload is a
collective), incomplete (flows not done by --stopTime) and drops.

The path selectors compared are the example's --lb list (every run reports each of them on the
same flows); give it after "--" with any other fixed option, or vary it with --vary lb=...
(a comma inside a value is written "\\,").

Runs are separate processes: the module has no Python binding yet to run a point inside
the sweep's own process. Backend (below) is the one place where such a runner would plug in
(one worker process per -j, each running its points through the module).

The statistics come from Debian's python3-numpy and python3-scipy.

Exit status: 0 when every run succeeded, 1 when some failed (the table holds the others;
OUT/runs/*.err keep each failure's messages), 2 on bad usage.

Examples:
  utils/sweep.py --out results/load --vary load=0.3,0.5,0.7 --seeds 1-10 -j 2 -- \\
      --pattern=websearch --lb=ecmp,ops,reps --duration=200us
  utils/sweep.py --out results/load --summarize   # the table again, from the runs on disk
  utils/plot.py results/load/summary.json --out results/load/plots
"""

import argparse
import concurrent.futures
import csv
import hashlib
import itertools
import json
import math
import os
import re
import shlex
import subprocess
import sys

try:
    import numpy
    import scipy.stats
except ImportError as missing:
    # Debian's python3-numpy and python3-scipy live in the system interpreter; a python3
    # found first on PATH (a virtualenv, pyenv) may not see them.
    SYSTEM = "/usr/bin/python3"
    if (__name__ == "__main__" and os.path.exists(SYSTEM)
            and not os.environ.get("REPS_SWEEP_REEXEC")
            and os.path.realpath(sys.executable) != os.path.realpath(SYSTEM)):
        os.environ["REPS_SWEEP_REEXEC"] = "1"
        os.execv(SYSTEM, [SYSTEM, os.path.abspath(__file__)] + sys.argv[1:])
    sys.exit("sweep.py: error: %s (%s); install Debian's python3-numpy and python3-scipy "
             "(utils/run-tests.sh does)" % (missing, sys.executable))

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# How the sweep gives a run its number, result file and quiet flag (--pass), and a varied
# option (--option), unless told otherwise.
DEFAULT_PASS = "--RngRun={seed} --json={json} --quiet=true"
DEFAULT_OPTION = "--{name}={value}"

# Options the sweep sets itself for every run (with the default --pass).
RESERVED = {"RngRun": "--seeds", "json": "the sweep (OUT/runs)", "csv": "the sweep",
            "quiet": "the sweep"}

# (name, unit, how to read it from one result entry of the JSON)
METRICS = (
    ("fct_mean", "us", lambda r: (r.get("fct_us") or {}).get("mean")),
    ("fct_p99", "us", lambda r: (r.get("fct_us") or {}).get("p99")),
    ("slowdown_mean", "x", lambda r: (r.get("slowdown") or {}).get("mean")),
    ("slowdown_p99", "x", lambda r: (r.get("slowdown") or {}).get("p99")),
    ("collective_us", "us", lambda r: r.get("collective_us")),
    ("incomplete", "flows", lambda r: r["flows"] - r["completed"]),
    ("drops", "packets", lambda r: r.get("drops")),
)



class UsageError(Exception):
    """Bad command-line input, with the message to print."""


def mean_ci(values):
    """(mean, half-width of the 95% confidence interval of the mean, n); half-width is None
    for a single value. Student's t interval: t(0.975, n - 1) * s / sqrt(n)."""
    v = numpy.asarray(values, dtype=float)
    n = len(v)
    mean = float(v.mean())
    if n < 2:
        return mean, None, n
    sem = float(v.std(ddof=1)) / math.sqrt(n)
    return mean, float(scipy.stats.t.ppf(0.975, n - 1)) * sem, n


class Backend:
    """Runs one point of the grid: the program with its arguments, writing its result file.
    The subprocess backend is the only one: a run inside a worker process through the module's
    Python binding would be a second one with the same run()."""

    def run(self, args, timeout):
        """Runs args; returns (exit status or None on timeout, standard error)."""
        try:
            proc = subprocess.run(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                  text=True, timeout=timeout)
            return proc.returncode, proc.stderr
        except subprocess.TimeoutExpired:
            return None, "did not finish within --timeout (%g s)\n" % timeout


class Invocation:
    """How the sweep gives a program its options (--pass, --option)."""

    def __init__(self, pass_template=DEFAULT_PASS, option_template=DEFAULT_OPTION):
        self.pass_words = shlex.split(pass_template)
        self.option_words = shlex.split(option_template)
        joined = " ".join(self.pass_words)
        if "{seed}" not in joined or "{json}" not in joined:
            raise UsageError("--pass: '%s' must contain {seed} and {json}" % pass_template)
        if "{name}" not in " ".join(self.option_words):
            raise UsageError("--option: '%s' must contain {name}" % option_template)
        for words, keys in ((self.pass_words, ("seed", "json")),
                            (self.option_words, ("name", "value"))):
            for w in words:
                try:
                    w.format(**{k: "" for k in keys})
                except (KeyError, IndexError, ValueError):
                    raise UsageError("'%s': only %s can be replaced"
                                     % (w, " and ".join("{%s}" % k for k in keys)))
        # With the default, the options the sweep sets cannot be given after "--" or varied.
        self.reserved = RESERVED if pass_template == DEFAULT_PASS else {}

    def options(self, config):
        """The arguments of a configuration's varied options."""
        return [w.format(name=n, value=v) for n, v in config for w in self.option_words]

    def run_options(self, seed, json_path):
        """The arguments giving a run its number and result file."""
        return [w.format(seed=seed, json=json_path) for w in self.pass_words]


def parse_seeds(text):
    """'1-5', '1,3,7' or a mix ('1-3,10') into a sorted list of distinct run numbers >= 1."""
    seeds = set()
    for part in text.split(","):
        part = part.strip()
        m = re.fullmatch(r"(\d+)(?:-(\d+))?", part)
        if not m:
            raise UsageError("--seeds: '%s' is not a run number or a range A-B (e.g. 1-10 or "
                             "1,2,5)" % part)
        lo = int(m.group(1))
        hi = int(m.group(2)) if m.group(2) else lo
        if lo < 1 or hi < lo:
            raise UsageError("--seeds: '%s': run numbers start at 1 and a range A-B needs "
                             "A <= B" % part)
        if hi - lo >= 100000:
            raise UsageError("--seeds: '%s' has more than 100000 run numbers" % part)
        seeds.update(range(lo, hi + 1))
    return sorted(seeds)


def split_values(text):
    """Splits a --vary value list on commas, keeping escaped ones ("\\,")."""
    parts = re.split(r"(?<!\\),", text)
    return [p.replace("\\,", ",") for p in parts]


def parse_vary(items, known, reserved=RESERVED):
    """[(name, [values])] from the --vary arguments, checked against the example's options."""
    grid = []
    for item in items:
        name, sep, values = item.partition("=")
        name = name.strip().lstrip("-")
        if not sep or not name:
            raise UsageError("--vary: '%s' is not NAME=V1,V2,..." % item)
        if name in reserved:
            raise UsageError("--vary: --%s is set by %s, not varied" % (name, reserved[name]))
        if known is not None and name not in known:
            raise UsageError("--vary: the example has no option --%s; it has: %s"
                             % (name, ", ".join(sorted(known))))
        if any(n == name for n, _ in grid):
            raise UsageError("--vary: %s is given twice; list all its values in one --vary" % name)
        vals = split_values(values)
        if any(v == "" for v in vals):
            raise UsageError("--vary: %s has an empty value in '%s'" % (name, values))
        if len(set(vals)) != len(vals):
            raise UsageError("--vary: %s lists a value twice in '%s'" % (name, values))
        grid.append((name, vals))
    return grid


def example_options(example):
    """The option names the example's --help lists (None if it cannot be asked)."""
    try:
        out = subprocess.run([example, "--help"], capture_output=True, text=True, timeout=60)
    except OSError as e:
        raise UsageError("--example: cannot run %s: %s" % (example, e.strerror))
    except subprocess.TimeoutExpired:
        raise UsageError("--example: %s --help did not finish in 60 s" % example)
    names = set(re.findall(r"^\s+--([A-Za-z][A-Za-z0-9]*):", out.stdout + out.stderr, re.M))
    names = {n for n in names if not n.startswith("Print")}
    return names or None


def run_key(config, seed):
    """A file name for one run: readable option values and a hash that keeps it unique."""
    text = ",".join("%s=%s" % kv for kv in config)
    slug = re.sub(r"[^A-Za-z0-9.]+", "-", text).strip("-")[:80] or "default"
    digest = hashlib.sha1(text.encode()).hexdigest()[:8]
    return "%s_%s_seed%d" % (slug, digest, seed)


def complete_result(path, seed):
    """The parsed result file if it is a finished run of this seed, else None."""
    try:
        with open(path) as f:
            doc = json.load(f)
        if doc["config"]["RngRun"] != seed or not doc["results"]:
            return None
        for r in doc["results"]:
            r["lb"], r["flows"], r["completed"]
        return doc
    except (OSError, ValueError, KeyError, TypeError):
        return None


def run_one(backend, invocation, example, fixed, config, seed, runs_dir, timeout):
    """Runs one configuration and seed; returns (ok, message)."""
    key = run_key(config, seed)
    final = os.path.join(runs_dir, key + ".json")
    tmp = final + ".tmp"
    err = os.path.join(runs_dir, key + ".err")
    args = [example] + list(fixed) + invocation.options(config)
    args += invocation.run_options(seed, tmp)
    status, stderr = backend.run(args, timeout)
    if status == 0 and complete_result(tmp, seed) is not None:
        os.replace(tmp, final)
        if os.path.exists(err):
            os.remove(err)
        return True, key
    if status == 0:
        stderr += ("exited 0 but wrote no complete result file for run %d (see --help: what a "
                   "program must accept)\n" % seed)
    with open(err, "w") as f:
        f.write("command: %s\n%s" % (" ".join(args), stderr))
    if os.path.exists(tmp):
        os.remove(tmp)
    first = next((l for l in stderr.splitlines() if l.strip()), "no message")
    return False, "%s: %s (exit %s; see %s)" % (key, first, status, err)


def summarize(grid, seeds, runs_dir, out):
    """Reads every run of the grid and writes summary.{csv,md,json}; returns the rows."""
    names = [n for n, _ in grid]
    rows, missing = [], 0
    for values in itertools.product(*[v for _, v in grid]):
        config = list(zip(names, values))
        per_lb = {}
        order = []
        for seed in seeds:
            doc = complete_result(os.path.join(runs_dir, run_key(config, seed) + ".json"), seed)
            if doc is None:
                missing += 1
                continue
            for r in doc["results"]:
                if r["lb"] not in per_lb:
                    per_lb[r["lb"]] = {m: [] for m, _, _ in METRICS}
                    order.append(r["lb"])
                for m, _, get in METRICS:
                    v = get(r)
                    if v is not None:
                        per_lb[r["lb"]][m].append(float(v))
        for lb in order:
            row = {"config": dict(config), "lb": lb, "metrics": {}}
            for m, unit, _ in METRICS:
                vals = per_lb[lb][m]
                if vals:
                    mean, ci, n = mean_ci(vals)
                    row["metrics"][m] = {"mean": mean, "ci95": ci, "n": n, "unit": unit}
            rows.append(row)
    used = [m for m, _, _ in METRICS if any(m in r["metrics"] for r in rows)]
    with open(os.path.join(out, "summary.json"), "w") as f:
        # Every metric is a time, a ratio of times or a count: none can be negative, and
        # utils/plot.py clips their intervals at zero.
        json.dump({"sweep": {"vary": [{"name": n, "values": v} for n, v in grid],
                             "seeds": seeds, "metrics": used, "nonnegative": used},
                   "rows": rows}, f, indent=1)
    with open(os.path.join(out, "summary.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(names + ["lb"] + [c for m in used for c in (m, m + "_ci95", m + "_n")])
        for r in rows:
            cells = [r["config"][n] for n in names] + [r["lb"]]
            for m in used:
                s = r["metrics"].get(m)
                cells += ["%.6g" % s["mean"], "" if s["ci95"] is None else "%.6g" % s["ci95"],
                          s["n"]] if s else ["", "", 0]
            w.writerow(cells)
    units = {m: u for m, u, _ in METRICS}
    with open(os.path.join(out, "summary.md"), "w") as f:
        f.write("| %s |\n" % " | ".join(names + ["lb", "seeds"] +
                                        ["%s (%s)" % (m, units[m]) for m in used]))
        f.write("|%s\n" % ("---|" * (len(names) + 2 + len(used))))
        for r in rows:
            n = max((s["n"] for s in r["metrics"].values()), default=0)
            cells = [str(r["config"][k]) for k in names] + [r["lb"], str(n)]
            for m in used:
                s = r["metrics"].get(m)
                if not s:
                    cells.append("-")
                elif s["ci95"] is None:
                    cells.append("%.4g" % s["mean"])
                else:
                    cells.append("%.4g ± %.2g" % (s["mean"], s["ci95"]))
            f.write("| %s |\n" % " | ".join(cells))
    return rows, missing


def default_example():
    build = os.environ.get("REPS_BUILD_DIR", os.path.join(ROOT, "build"))
    return os.path.join(build, "examples", "reps-lb-comparison")


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    fixed = []
    if "--" in argv:
        i = argv.index("--")
        argv, fixed = argv[:i], argv[i + 1:]
    parser = argparse.ArgumentParser(
        description="Run a grid of options x seeds of a reps example in parallel and tabulate "
                    "means with 95% confidence intervals.",
        epilog="Options after '--' are given unchanged to every run. A program to be swept "
               "takes --RngRun=N, --json=FILE (writes its result file there) and --quiet=true, "
               "or says with --pass how it takes them; see the top of utils/sweep.py for the "
               "result file's shape.")
    parser.add_argument("--out", required=True, help="directory for runs/ and the summary")
    parser.add_argument("--vary", action="append", default=[], metavar="NAME=V1,V2",
                        help="an option of the example and its values (repeatable; the grid is "
                             "the cross product)")
    parser.add_argument("--seeds", default="1-5",
                        help="run numbers (--RngRun), e.g. 1-10 or 1,2,5 (default: 1-5)")
    parser.add_argument("-j", "--jobs", type=int, default=1, help="runs at a time (default: 1)")
    parser.add_argument("--example", default=None,
                        help="the program to sweep, an example of the module or one's own "
                             "(default: $REPS_BUILD_DIR or build/, examples/reps-lb-comparison)")
    parser.add_argument("--pass", dest="pass_template", default=DEFAULT_PASS,
                        metavar="TEMPLATE",
                        help="how a run gets its number and result file, {seed} and {json} "
                             "replaced (default: '%s')" % DEFAULT_PASS.replace("%", "%%"))
    parser.add_argument("--option", dest="option_template", default=DEFAULT_OPTION,
                        metavar="TEMPLATE",
                        help="how a varied option is given, {name} and {value} replaced "
                             "(default: '%s')" % DEFAULT_OPTION)
    parser.add_argument("--timeout", type=float, default=None,
                        help="seconds a run may take before it is stopped and counted failed")
    parser.add_argument("--summarize", action="store_true",
                        help="run nothing; write the table from the runs already on disk")
    parser.add_argument("--dry-run", action="store_true",
                        help="print the runs that would be started, start none")
    args = parser.parse_args(argv)

    try:
        if args.jobs < 1 or args.jobs > 256:
            raise UsageError("-j: %d runs at a time; allowed: 1 to 256" % args.jobs)
        if args.timeout is not None and not args.timeout > 0:
            raise UsageError("--timeout: %g s; allowed: a positive number of seconds"
                             % args.timeout)
        seeds = parse_seeds(args.seeds)
        invocation = Invocation(args.pass_template, args.option_template)
        for a in fixed:
            name = a.lstrip("-").split("=", 1)[0]
            if name in invocation.reserved:
                raise UsageError("'%s' after '--': --%s is set by %s"
                                 % (a, name, invocation.reserved[name]))
        example = os.path.abspath(args.example or default_example())
        if not os.access(example, os.X_OK):
            raise UsageError("--example: %s is not an executable (build the module first: "
                             "utils/run-tests.sh)" % example)
        known = None
        if not args.summarize and args.option_template == DEFAULT_OPTION:
            known = example_options(example)
        grid = parse_vary(args.vary, known, invocation.reserved)
    except UsageError as e:
        print("sweep.py: error: %s" % e, file=sys.stderr)
        return 2

    runs_dir = os.path.join(args.out, "runs")
    os.makedirs(runs_dir, exist_ok=True)
    names = [n for n, _ in grid]
    configs = [list(zip(names, v)) for v in itertools.product(*[v for _, v in grid])]
    todo, skipped = [], 0
    for config in configs:
        for seed in seeds:
            path = os.path.join(runs_dir, run_key(config, seed) + ".json")
            if complete_result(path, seed) is not None:
                skipped += 1
            else:
                todo.append((config, seed))

    failed = []
    if args.dry_run:
        for config, seed in todo:
            print(" ".join([example] + fixed + invocation.options(config) +
                           invocation.run_options(seed, os.path.join(
                               runs_dir, run_key(config, seed) + ".json.tmp"))))
        return 0
    if not args.summarize:
        print("sweep.py: %d configurations x %d seeds: %d to run, %d already done (skipped)"
              % (len(configs), len(seeds), len(todo), skipped), file=sys.stderr)
        done = 0
        with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
            backend = Backend()
            futures = [pool.submit(run_one, backend, invocation, example, fixed, c, s, runs_dir,
                                   args.timeout) for c, s in todo]
            for fut in concurrent.futures.as_completed(futures):
                ok, message = fut.result()
                done += 1
                if not ok:
                    failed.append(message)
                    print("sweep.py: run failed: %s" % message, file=sys.stderr)
                print("sweep.py: %d/%d runs finished" % (done, len(todo)), file=sys.stderr)

    rows, missing = summarize(grid, seeds, runs_dir, args.out)
    print("sweep.py: %d rows (configuration x path selector) in %s/summary.{csv,md,json}%s"
          % (len(rows), args.out, "; %d runs missing" % missing if missing else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
