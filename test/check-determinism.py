#!/usr/bin/env python3
"""Determinism of the examples that write JSON, on tiny fabrics.

For each of reps-lb-comparison, reps-allreduce, reps-link-failure, reps-asymmetric and
reps-custom-selector:
  1. two runs with the same options and --RngRun write the same JSON, byte for byte apart from
     the wall-clock fields (wall_s, wall_us_per_link_packet), and the same per-flow CSV;
  2. a run with another --RngRun draws other flows: its per-flow CSV differs;
  3. the results do not depend on the order of --lb: --lb=A,B and --lb=B,A give the same
     result per path selector (JSON without the wall-clock fields, and CSV rows).
Each run writes its files into a folder of its own under the same names, so that the paths
recorded in the JSON's configuration are the same.

Usage:
  check-determinism.py EXAMPLES_DIR [--only EXAMPLE]

  EXAMPLES_DIR  folder holding the built examples
  --only        check one example

Prints one line per check and "N passed, M failed"; exit status 0 when none failed.
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

TINY = ["--leaves=2", "--hostsPerLeaf=4", "--spines=2", "--flowSize=64KiB", "--quiet"]

# Example: (its tiny options, the two path selectors whose order is swapped).
EXAMPLES = {
    "reps-lb-comparison": (TINY, ("ops", "reps")),
    "reps-allreduce": (TINY + ["--pods=2", "--cores=2", "--tierList=2", "--ring=random"],
                       ("ops", "reps")),
    "reps-link-failure": (TINY + ["--failedLinks=1", "--failFor=20us"], ("ecmp", "reps")),
    "reps-asymmetric": (TINY + ["--degradedLinks=1"], ("ops", "reps")),
    "reps-custom-selector": (TINY, ("rrskip", "reps")),
}

WALL = re.compile(r'"(wall_s|wall_us_per_link_packet)":\s*[-+0-9.eE]+')
WALL_FIELDS = {"wall_s", "wall_us_per_link_packet"}


def run(program, args, folder):
    """Run an example in its own folder; return (JSON text, CSV text)."""
    os.makedirs(folder, exist_ok=True)
    command = [program] + args + ["--json=out.json", "--csv=out.csv"]
    done = subprocess.run(command, cwd=folder, capture_output=True, text=True, timeout=300)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command)}: status {done.returncode}\n{done.stderr[-500:]}")
    with open(os.path.join(folder, "out.json"), encoding="utf-8") as f:
        text = f.read()
    with open(os.path.join(folder, "out.csv"), encoding="utf-8") as f:
        csv = f.read()
    return text, csv


def strip_wall(value):
    """A JSON value without the wall-clock fields."""
    if isinstance(value, dict):
        return {k: strip_wall(v) for k, v in value.items() if k not in WALL_FIELDS}
    if isinstance(value, list):
        return [strip_wall(v) for v in value]
    return value


def by_selector(json_text, csv_text):
    """Per path selector (its name before any ':'), the result and the CSV rows."""
    results = {}
    for r in strip_wall(json.loads(json_text))["results"]:
        results.setdefault(r["lb"].split(":")[0], []).append(r)
    rows = {}
    for line in csv_text.splitlines()[1:]:
        rows.setdefault(line.split(",", 1)[0].split(":")[0], []).append(line)
    return results, rows


def check(example, program, tmp):
    """(check name, None or why it failed) of one example."""
    args, (a, b) = EXAMPLES[example]
    base = args + [f"--lb={a},{b}"]
    out = []
    first = run(program, base + ["--RngRun=1"], os.path.join(tmp, example, "first"))
    again = run(program, base + ["--RngRun=1"], os.path.join(tmp, example, "again"))
    same = WALL.sub("WALL", first[0]) == WALL.sub("WALL", again[0]) and first[1] == again[1]
    out.append(("same --RngRun, same JSON and CSV",
                None if same else "the JSON or CSV of two identical runs differ"))

    other = run(program, base + ["--RngRun=2"], os.path.join(tmp, example, "other"))
    out.append(("other --RngRun, other flows",
                None if other[1] != first[1] else "--RngRun=1 and --RngRun=2 give the same CSV"))

    swapped = run(program, args + [f"--lb={b},{a}", "--RngRun=1"],
                  os.path.join(tmp, example, "swapped"))
    r1, rows1 = by_selector(*first)
    r2, rows2 = by_selector(*swapped)
    why = None
    for lb in (a, b):
        if r1.get(lb) != r2.get(lb):
            why = f"--lb={a},{b} and --lb={b},{a} give other JSON results for {lb}"
        elif rows1.get(lb) != rows2.get(lb):
            why = f"--lb={a},{b} and --lb={b},{a} give other CSV rows for {lb}"
        if why:
            break
    out.append((f"--lb={a},{b} = --lb={b},{a}", why))
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("examples_dir")
    parser.add_argument("--only")
    args = parser.parse_args()
    tmp = tempfile.mkdtemp(prefix="reps-determinism-")
    passed = failed = 0
    try:
        for example in EXAMPLES:
            if args.only and example != args.only:
                continue
            try:
                program = os.path.join(os.path.abspath(args.examples_dir), example)
                results = check(example, program, tmp)
            except (OSError, RuntimeError, subprocess.SubprocessError, ValueError) as e:
                results = [("runs", str(e))]
            for name, why in results:
                print(f"{'FAIL' if why else 'ok  '} {example}: {name}" + (f": {why}" if why else ""))
                failed += 1 if why else 0
                passed += 0 if why else 1
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
