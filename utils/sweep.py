#!/usr/bin/env python3
"""Runs a grid of experiment configurations times a list of seeds, and tabulates the results
with 95% confidence intervals.

Every point of the grid (the cross product of the --vary options) is run once per seed, each
run a separate process of the program (reps-lb-comparison by default, or --example), up to -j
at a time; or, with --backend inprocess, inside -j worker processes through the Python module
(below).

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

--backend chooses how a point runs. subprocess (the default) starts the program once per run,
as above. inprocess runs the module's own experiment program, reps-lb-comparison, inside -j
worker processes through the Python module (import reps; the one of the example's build,
BUILD/python next to BUILD/examples, else the one on PYTHONPATH): each worker imports it once
and runs its points one after the other, a point being
  reps.Experiment(**options, RngRun=seed, quiet=True, json=OUT/runs/KEY.json.tmp).run()
with the options after "--" and the varied ones by name. The module writes the result file as
the command line does, so the run files are those of the subprocess backend but for the fields
that measure the host: "wall_s" (the wall-clock seconds of a path selector's run) and
"wall_us_per_link_packet" of every entry of "results", which differ between two runs of the
same point whichever the backend; the table does not use them. A refused option fails the
point with the command line's message in its .err file; a worker that crashes or exceeds
--timeout is replaced by a new one and the point counted failed. Only reps-lb-comparison can
be run so (another --example, --pass or --option is a usage error), and the options after
"--" must be --NAME=VALUE.

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
import multiprocessing
import os
import queue
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import traceback

try:
    # A worker of --backend inprocess loads this file as __mp_main__ and needs no statistics.
    if __name__ != "__mp_main__":
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


class SubprocessBackend:
    """Runs a point as a process of the program, with its arguments (--backend subprocess)."""

    def __init__(self, invocation, example, fixed):
        self.invocation = invocation
        self.example = example
        self.fixed = list(fixed)
        self.running = set()  # the processes under way
        self.lock = threading.Lock()
        self.closed = False

    def describe(self, config, seed, json_path):
        """The command that runs the point (for --dry-run and the .err file)."""
        return " ".join(self.args(config, seed, json_path))

    def args(self, config, seed, json_path):
        return ([self.example] + self.fixed + self.invocation.options(config)
                + self.invocation.run_options(seed, json_path))

    def start(self, points):
        """Gets ready to run this many points (nothing to do: a process per run)."""

    def close(self, now=False):
        """Starts no more runs; now: also stops those under way (Ctrl-C)."""
        with self.lock:
            self.closed = True
            running = list(self.running)
        if now:
            for proc in running:
                proc.kill()

    def run(self, config, seed, json_path, timeout):
        """Runs a point writing its result file to json_path; returns (exit status, None on
        timeout, and standard error)."""
        with self.lock:
            if self.closed:
                return None, "stopped: the sweep was interrupted\n"
            proc = subprocess.Popen(self.args(config, seed, json_path),
                                    stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            self.running.add(proc)
        try:
            try:
                _, stderr = proc.communicate(timeout=timeout)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.communicate()
                return None, "did not finish within --timeout (%g s)\n" % timeout
        finally:
            with self.lock:
                self.running.discard(proc)
        if self.closed and proc.returncode != 0:
            return None, "stopped: the sweep was interrupted\n"
        return proc.returncode, stderr


# The module's own experiment program, the only one the Python module can run in-process.
INPROCESS_EXAMPLE = "reps-lb-comparison"


def inprocess_options(fixed):
    """[(name, value)] of the options after "--", for reps.Experiment (each --NAME=VALUE)."""
    options = []
    for a in fixed:
        name, sep, value = a.lstrip("-").partition("=")
        if not a.startswith("-") or not sep or not name:
            raise UsageError("'%s' after '--': --backend inprocess gives the options to "
                             "reps.Experiment by name and needs each as --NAME=VALUE" % a)
        options.append((name, value))
    return options


def python_dir(example):
    """BUILD/python when the example is BUILD/examples/NAME and the module was built there."""
    d = os.path.join(os.path.dirname(os.path.dirname(example)), "python")
    return d if os.path.isfile(os.path.join(d, "reps", "__init__.py")) else None


def signal_name(number):
    try:
        return signal.Signals(number).name
    except ValueError:
        return "signal %d" % number


def inprocess_worker(conn, module_dir, capture):
    """A worker process of --backend inprocess: imports reps once, then runs the points it is
    sent, one at a time (ns-3's simulator is one per process), until it gets None. Its standard
    output is discarded; its standard error (the module's messages, a crash's) goes to the file
    capture, emptied before each point and sent back with its outcome."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the sweep stops its workers itself
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    err = os.open(capture, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_APPEND, 0o600)
    os.dup2(err, 2)
    import faulthandler
    faulthandler.enable()  # a crash in the simulation leaves its Python stack in capture

    def captured():
        sys.stderr.flush()
        with open(capture, errors="replace") as f:
            return f.read()

    try:
        if module_dir:
            sys.path.insert(0, module_dir)
        import reps
        conn.send(("ready", reps.__file__))
    except BaseException:
        traceback.print_exc()
        conn.send(("failed", captured()))
        return
    while True:
        job = conn.recv()
        if job is None:
            return
        options, seed, json_path = job
        os.ftruncate(2, 0)
        try:
            reps.Experiment(**dict(options), RngRun=seed, quiet=True, json=json_path).run()
            conn.send((0, captured()))
        except ValueError as e:
            # A refused option: the command line's message, as it prints it before exit 1.
            print("error: %s" % e, file=sys.stderr)
            conn.send((1, captured()))
        except Exception:
            traceback.print_exc()
            conn.send((1, captured()))


class Worker:
    """One worker process of --backend inprocess and the pipe to it."""

    START_LIMIT = 120  # seconds a new worker may take to import reps

    def __init__(self, context, module_dir, capture):
        self.capture = capture
        self.conn, child = context.Pipe()
        self.process = context.Process(target=inprocess_worker, name="sweep-worker",
                                       args=(child, module_dir, capture), daemon=True)
        self.process.start()
        child.close()
        self.ready = None  # None: not known yet; else (True, path of reps) or (False, why)

    def wait_ready(self):
        """(True, path of the module) once the worker has imported reps, or (False, why)."""
        if self.ready is None:
            why = "it did not import reps within %d s" % self.START_LIMIT
            try:
                if self.conn.poll(self.START_LIMIT):
                    kind, text = self.conn.recv()
                    self.ready = (kind == "ready", text)
                else:
                    self.ready = (False, why)
            except (EOFError, OSError):
                self.ready = (False, self.died("before it imported reps"))
            if not self.ready[0]:
                self.stop()
        return self.ready

    def died(self, when):
        """What became of a worker whose pipe closed, with what it wrote."""
        self.process.join(5)
        code = self.process.exitcode
        if code is not None and code < 0:
            what = "was killed by %s" % signal_name(-code)
        else:
            what = "exited (status %s)" % code
        return "the worker process %s %s\n%s" % (what, when, self.read_capture())

    def read_capture(self):
        try:
            with open(self.capture, errors="replace") as f:
                return f.read()
        except OSError:
            return ""

    def run(self, job, timeout):
        """Runs one point; returns (status, standard error, alive), status as the subprocess
        backend's: 0, 1 for a refused option or an error, -N for a crash by signal N, None on
        timeout."""
        ok, why = self.wait_ready()
        if not ok:
            return 1, "a new worker process could not start: %s" % why, False
        try:
            self.conn.send(job)
            if self.conn.poll(timeout):
                status, stderr = self.conn.recv()
                return status, stderr, True
        except (EOFError, OSError):
            self.process.join(5)
            code = self.process.exitcode
            return (code if code and code < 0 else 1,
                    "crashed: %s" % self.died("while running this point (a new worker runs "
                                              "the next points)"), False)
        stderr = self.read_capture()
        self.stop()
        return None, ("did not finish within --timeout (%g s); its worker process was "
                      "stopped and a new one runs the next points\n%s" % (timeout, stderr)), False

    def stop(self):
        """Ends the worker now."""
        if self.process.is_alive():
            self.process.kill()
        self.process.join()
        self.conn.close()

    def close(self):
        """Asks the worker to finish, then ends it."""
        try:
            if self.process.is_alive():
                self.conn.send(None)
                self.process.join(10)
        except OSError:
            pass
        self.stop()


class InprocessBackend:
    """Runs points of reps-lb-comparison's experiment through the Python module, in worker
    processes (--backend inprocess): one point at a time in each, -j of them."""

    def __init__(self, example, fixed, jobs):
        self.options = inprocess_options(fixed)
        self.module_dir = python_dir(example)
        self.jobs = jobs
        self.capture_dir = None
        self.context = multiprocessing.get_context("spawn")
        self.idle = queue.Queue()
        self.workers = []
        self.lock = threading.Lock()
        self.serial = 0
        self.closed = False

    def point_options(self, config):
        """The options of a point: those after "--", then the varied ones (the later of two
        with the same name wins, as on the command line)."""
        merged = {}
        for name, value in self.options + list(config):
            merged.pop(name, None)
            merged[name] = value
        return list(merged.items())

    def describe(self, config, seed, json_path):
        kwargs = dict(self.point_options(config), RngRun=seed, quiet=True, json=json_path)
        return "reps.Experiment(**%r).run()" % kwargs

    def new_worker(self):
        with self.lock:
            return self.new_worker_locked()

    def new_worker_locked(self):
        self.serial += 1
        capture = os.path.join(self.capture_dir, "worker%d.stderr" % self.serial)
        worker = Worker(self.context, self.module_dir, capture)
        self.workers.append(worker)
        return worker

    def start(self, points):
        """Starts the workers (at most one per point) and waits until they imported reps;
        raises UsageError when the module cannot be imported."""
        self.capture_dir = tempfile.mkdtemp(prefix="reps-sweep-workers-")
        started = [self.new_worker() for _ in range(min(self.jobs, points))]
        for worker in started:
            ok, why = worker.wait_ready()
            if not ok:
                self.close(now=True)
                raise UsageError("--backend inprocess: a worker process could not import the "
                                 "Python module reps (built with the module when pybind11 is "
                                 "installed, REPS_PYTHON=ON, in BUILD/python; or give its "
                                 "folder in PYTHONPATH):\n%s" % why.strip())
            self.idle.put(worker)

    def run(self, config, seed, json_path, timeout):
        worker = self.idle.get()
        status, stderr, alive = 1, "", False
        try:
            status, stderr, alive = worker.run((self.point_options(config), seed, json_path),
                                               timeout)
        finally:
            if not alive:
                worker = self.replace(worker)
            self.idle.put(worker)
        if self.closed and status != 0:
            status, stderr = None, "stopped: the sweep was interrupted\n"
        return status, stderr

    def replace(self, worker):
        """A new worker in place of one that died or was stopped (none once closed)."""
        worker.stop()
        try:
            os.remove(worker.capture)
        except OSError:
            pass
        with self.lock:
            if worker in self.workers:
                self.workers.remove(worker)
            return worker if self.closed else self.new_worker_locked()

    def close(self, now=False):
        """Ends every worker: when idle, or now (those running a point too)."""
        with self.lock:
            self.closed = True
            workers, self.workers = self.workers, []
        for worker in workers:
            worker.stop() if now else worker.close()
        if self.capture_dir:
            shutil.rmtree(self.capture_dir, ignore_errors=True)
        # The workers gone, the helper process that 'spawn' starts (multiprocessing's resource
        # tracker) is ended too rather than left to notice the sweep's exit.
        from multiprocessing import resource_tracker
        stop = getattr(resource_tracker._resource_tracker, "_stop", None)
        if stop and not any(w.process.is_alive() for w in workers):
            stop()


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


def run_one(backend, config, seed, runs_dir, timeout):
    """Runs one configuration and seed; returns (ok, message)."""
    key = run_key(config, seed)
    final = os.path.join(runs_dir, key + ".json")
    tmp = final + ".tmp"
    err = os.path.join(runs_dir, key + ".err")
    status, stderr = backend.run(config, seed, tmp, timeout)
    if status == 0 and complete_result(tmp, seed) is not None:
        os.replace(tmp, final)
        if os.path.exists(err):
            os.remove(err)
        return True, key
    if status == 0:
        stderr += ("exited 0 but wrote no complete result file for run %d (see --help: what a "
                   "program must accept)\n" % seed)
    with open(err, "w") as f:
        f.write("command: %s\n%s" % (backend.describe(config, seed, tmp), stderr))
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


def check_inprocess(example, args):
    """Raises UsageError when --backend inprocess cannot run this sweep."""
    if os.path.basename(example) != INPROCESS_EXAMPLE:
        raise UsageError("--backend inprocess runs the experiment of %s through the Python "
                         "module (reps.Experiment), which cannot run another program such as "
                         "%s; sweep it with --backend subprocess"
                         % (INPROCESS_EXAMPLE, example))
    for flag, given, default in (("--pass", args.pass_template, DEFAULT_PASS),
                                 ("--option", args.option_template, DEFAULT_OPTION)):
        if given != default:
            raise UsageError("%s: --backend inprocess gives the options to reps.Experiment by "
                             "name, not on a command line; %s applies to --backend subprocess"
                             % (flag, flag))


def run_all(backend, todo, runs_dir, args):
    """Runs the points, -j at a time; returns the messages of those that failed."""
    failed, done = [], 0
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs)
    try:
        futures = [pool.submit(run_one, backend, c, s, runs_dir, args.timeout) for c, s in todo]
        for fut in concurrent.futures.as_completed(futures):
            ok, message = fut.result()
            done += 1
            if not ok:
                failed.append(message)
                print("sweep.py: run failed: %s" % message, file=sys.stderr)
            print("sweep.py: %d/%d runs finished" % (done, len(todo)), file=sys.stderr)
    finally:
        # On Ctrl-C, the points not started yet are not started.
        pool.shutdown(wait=False, cancel_futures=True)
    return failed


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
    parser.add_argument("-j", "--jobs", type=int, default=1,
                        help="runs at a time (default: 1); with --backend inprocess, the "
                             "number of worker processes")
    parser.add_argument("--backend", choices=("subprocess", "inprocess"), default="subprocess",
                        help="how a point runs: subprocess (default), a process of the program "
                             "per run; inprocess, reps-lb-comparison's experiment through the "
                             "Python module reps (reps.Experiment(...).run()) in -j worker "
                             "processes, each importing it once and running many points, with "
                             "the same result files (but for the wall-clock fields wall_s and "
                             "wall_us_per_link_packet); only for reps-lb-comparison, options "
                             "after '--' as --NAME=VALUE")
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
                        help="seconds a run may take before it is stopped and counted failed "
                             "(with --backend inprocess, by ending its worker process, which a "
                             "new one replaces)")
    parser.add_argument("--summarize", action="store_true",
                        help="run nothing; write the table from the runs already on disk")
    parser.add_argument("--dry-run", action="store_true",
                        help="print the runs that would be started (commands; with "
                             "--backend inprocess, reps.Experiment calls), start none")
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
        if args.backend == "inprocess":
            check_inprocess(example, args)
            backend = InprocessBackend(example, fixed, args.jobs)
        else:
            backend = SubprocessBackend(invocation, example, fixed)
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
            print(backend.describe(config, seed, os.path.join(
                runs_dir, run_key(config, seed) + ".json.tmp")))
        return 0
    if not args.summarize:
        print("sweep.py: %d configurations x %d seeds: %d to run, %d already done (skipped)"
              % (len(configs), len(seeds), len(todo), skipped), file=sys.stderr)
        try:
            if todo:
                backend.start(len(todo))
        except UsageError as e:
            print("sweep.py: error: %s" % e, file=sys.stderr)
            return 2
        try:
            failed = run_all(backend, todo, runs_dir, args)
        except KeyboardInterrupt:
            backend.close(now=True)
            print("sweep.py: interrupted; the same command resumes the sweep", file=sys.stderr)
            return 130
        backend.close()

    rows, missing = summarize(grid, seeds, runs_dir, args.out)
    print("sweep.py: %d rows (configuration x path selector) in %s/summary.{csv,md,json}%s"
          % (len(rows), args.out, "; %d runs missing" % missing if missing else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
