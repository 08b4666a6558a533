#!/usr/bin/env python3
"""Mutation testing of the reps model: do the tests notice a realistic one-line bug?

Each mutant of test/mutants.json replaces one exact pattern of a model file (the pattern must
occur exactly once) and names the tests that should fail with it. The tool copies the
repository into a scratch folder (never touching the real tree), builds it there once, and then,
one mutant at a time: applies the mutant, rebuilds incrementally (the test runner and the
GoogleTest binary), runs the mutant's tests, and restores the file. A mutant is

  killed     a test failed (or timed out, or the build broke at link time),
  survived   every test passed: a test is missing, unless the mutant is listed as equivalent
             or accepted (its 'survivor' field says why),
  stillborn  it did not compile (a mistake in the list; not counted).

Prints one line per mutant, the score (killed over mutants run) and every survivor with its
reason; exits 1 when a mutant without a 'survivor' reason survived or a baseline test fails.

Usage:
  utils/mutation-test.py [--list] [--only N[,N...]] [-j JOBS] [--workdir DIR] [--keep]

  --list     print the mutants and exit
  --only     run only these mutants (ids from --list)
  -j         mutants run in parallel, each in its own copy of the tree (default 1)
  --workdir  scratch folder (default /tmp/reps-mutation)
  --timeout  seconds a mutant's tests may take (default 900)

Each copy is built with ccache (CCACHE_BASEDIR set to the copy, so that it shares the cache of
the usual build/); the first build of a copy takes a few minutes, a mutant about a minute.
"""

import argparse
import concurrent.futures
import filecmp
import json
import os
import shutil
import subprocess
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "test", "mutants.json")
TARGETS = ["reps-test-runner", "reps-gtest"]


def load_mutants():
    with open(DATA, encoding="utf-8") as f:
        mutants = json.load(f)["mutants"]
    for m in mutants:
        path = os.path.join(ROOT, m["file"])
        with open(path, encoding="utf-8") as f:
            count = f.read().count(m["pattern"])
        if count != 1:
            sys.exit(f"mutation-test.py: mutant {m['id']}: the pattern occurs {count} times in "
                     f"{m['file']} (must be exactly once): {m['pattern']!r}")
        for t in m["tests"]:
            if not (t.startswith("suite:") or t.startswith("gtest:")):
                sys.exit(f"mutation-test.py: mutant {m['id']}: test '{t}' is neither "
                         "'suite:NAME[@FULLNESS]' nor 'gtest:FILTER'")
    return mutants


def log(msg):
    print(msg, flush=True)


class Tree:
    """A copy of the repository with its own build folder."""

    def __init__(self, workdir, index):
        self.src = os.path.join(workdir, f"tree-{index}")
        self.build = os.path.join(self.src, "build")
        self.env = dict(os.environ, CCACHE_BASEDIR=self.src,
                        CMAKE_CXX_COMPILER_LAUNCHER=os.environ.get(
                            "CMAKE_CXX_COMPILER_LAUNCHER",
                            "ccache" if shutil.which("ccache") else ""))

    def run(self, command, timeout=None, cwd=None):
        return subprocess.run(command, cwd=cwd or self.src, env=self.env, capture_output=True,
                              text=True, timeout=timeout)

    def prepare(self):
        os.makedirs(self.src, exist_ok=True)
        # The repository's files (tracked, and new ones not ignored), copied when they differ,
        # so that a copy reused from an earlier run rebuilds only what changed.
        done = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard",
                               "-z"], cwd=ROOT, capture_output=True, text=True)
        if done.returncode != 0:
            sys.exit(f"mutation-test.py: git ls-files failed: {done.stderr}")
        for name in filter(None, done.stdout.split("\0")):
            source = os.path.join(ROOT, name)
            target = os.path.join(self.src, name)
            if not os.path.isfile(source):
                continue
            if os.path.exists(target) and filecmp.cmp(source, target, shallow=False):
                continue
            os.makedirs(os.path.dirname(target), exist_ok=True)
            shutil.copy2(source, target)
        if not os.path.exists(os.path.join(self.build, "CMakeCache.txt")):
            done = self.run(["cmake", "-S", ".", "-B", "build", "-G", "Ninja",
                             "-DCMAKE_BUILD_TYPE=Release", "-DREPS_BUILD_EXAMPLES=OFF"])
            if done.returncode != 0:
                sys.exit(f"mutation-test.py: configure failed in {self.src}:\n{done.stdout}"
                         f"{done.stderr}")
        ok, output = self.compile()
        if not ok:
            sys.exit(f"mutation-test.py: the unmutated tree does not build:\n{output[-3000:]}")

    def compile(self):
        done = self.run(["cmake", "--build", "build", "-j", "1"]
                        + [a for t in TARGETS for a in ("--target", t)])
        return done.returncode == 0, done.stdout + done.stderr

    def test(self, spec, timeout):
        """Run one test spec; return (passed, detail)."""
        kind, _, what = spec.partition(":")
        if kind == "suite":
            name, _, fullness = what.partition("@")
            command = [os.path.join(self.build, "reps-test-runner"), f"--suite={name}",
                       f"--fullness={fullness or 'QUICK'}"]
        else:
            command = [os.path.join(self.build, "reps-gtest"), f"--gtest_filter={what}",
                       "--gtest_brief=1"]
        try:
            done = self.run(command, timeout=timeout, cwd=self.build)
        except subprocess.TimeoutExpired:
            return False, f"{spec}: timed out after {timeout} s"
        if done.returncode != 0:
            lines = [l.strip() for l in (done.stdout + done.stderr).splitlines() if l.strip()]
            failed = [l for l in lines if "FAIL" in l or "terminate" in l or "error" in l]
            detail = (failed or lines or [f"status {done.returncode}"])[0]
            return False, f"{spec}: {detail[:200]}"
        return True, spec

    def mutate(self, m):
        path = os.path.join(self.src, m["file"])
        with open(path, encoding="utf-8") as f:
            original = f.read()
        with open(path, "w", encoding="utf-8") as f:
            f.write(original.replace(m["pattern"], m["replacement"], 1))
        return path, original


def run_mutant(tree, m, timeout):
    path, original = tree.mutate(m)
    start = time.time()
    try:
        ok, output = tree.compile()
        if not ok:
            errors = [l for l in output.splitlines() if ": error:" in l]
            if errors:
                return "stillborn", errors[0], time.time() - start
            return "killed", "the build failed at link time", time.time() - start
        for spec in m["tests"]:
            passed, detail = tree.test(spec, timeout)
            if not passed:
                return "killed", detail, time.time() - start
        return "survived", "every test passed: " + ", ".join(m["tests"]), time.time() - start
    finally:
        with open(path, "w", encoding="utf-8") as f:
            f.write(original)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--list", action="store_true")
    parser.add_argument("--only")
    parser.add_argument("-j", "--jobs", type=int, default=1)
    parser.add_argument("--workdir", default="/tmp/reps-mutation")
    parser.add_argument("--timeout", type=float, default=900)
    args = parser.parse_args()
    if args.jobs < 1:
        parser.error("-j takes a number of jobs >= 1")
    workdir = os.path.abspath(args.workdir)
    if workdir == ROOT or workdir.startswith(ROOT + os.sep):
        parser.error("--workdir must be outside the repository (the real tree is never mutated)")

    mutants = load_mutants()
    if args.list:
        for m in mutants:
            tag = "  [expected survivor]" if "survivor" in m else ""
            log(f"{m['id']:3d}  {m['file']}: {m['pattern'].strip()!r} -> "
                f"{m['replacement'].strip()!r}{tag}\n     {m['why']}\n     tests: "
                f"{', '.join(m['tests'])}")
        return 0
    if args.only:
        try:
            wanted = {int(x) for x in args.only.split(",")}
        except ValueError:
            parser.error(f"--only takes mutant ids separated by commas, not '{args.only}'")
        unknown = wanted - {m["id"] for m in mutants}
        if unknown:
            parser.error(f"--only: no mutant {sorted(unknown)}; ids run from 1 to {len(mutants)}")
        mutants = [m for m in mutants if m["id"] in wanted]

    jobs = min(args.jobs, len(mutants))
    trees = [Tree(workdir, i) for i in range(jobs)]
    log(f"preparing {jobs} cop{'y' if jobs == 1 else 'ies'} of the tree in {workdir}")
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        list(pool.map(Tree.prepare, trees))
    # Baseline: every test named by a mutant passes on the unmutated tree.
    specs = sorted({t for m in mutants for t in m["tests"]})
    for spec in specs:
        passed, detail = trees[0].test(spec, args.timeout)
        if not passed:
            log(f"baseline FAILED: {detail}")
            return 1
    log(f"baseline: {len(specs)} test sets pass unmutated")

    free = list(trees)
    lock = threading.Lock()
    results = {}

    def work(m):
        with lock:
            tree = free.pop()
        try:
            outcome = run_mutant(tree, m, args.timeout)
        finally:
            with lock:
                free.append(tree)
        status, detail, seconds = outcome
        results[m["id"]] = outcome
        log(f"{m['id']:3d} {status.upper():9s} {seconds:5.0f} s  {m['file']}: {m['why']}\n"
            f"              {detail}")

    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        list(pool.map(work, mutants))

    run = [m for m in mutants if results[m["id"]][0] != "stillborn"]
    killed = [m for m in run if results[m["id"]][0] == "killed"]
    survivors = [m for m in run if results[m["id"]][0] == "survived"]
    stillborn = [m for m in mutants if results[m["id"]][0] == "stillborn"]
    equivalent = [m for m in survivors if "survivor" in m]
    log("")
    score = 100.0 * len(killed) / len(run) if run else 0.0
    log(f"mutation score: {len(killed)} of {len(run)} killed ({score:.1f}%); "
        f"{len(survivors)} survived ({len(equivalent)} listed as equivalent or accepted); "
        f"{len(stillborn)} did not compile")
    for m in survivors:
        reason = m.get("survivor", "NO REASON LISTED: add a test that kills it")
        log(f"  survivor {m['id']}: {m['file']}: {m['pattern'].strip()!r} -> "
            f"{m['replacement'].strip()!r}\n    {reason}")
    for m in stillborn:
        log(f"  did not compile {m['id']}: {results[m['id']][1]}")
    unexplained = [m for m in survivors if "survivor" not in m]
    return 1 if unexplained or stillborn else 0


if __name__ == "__main__":
    sys.exit(main())
