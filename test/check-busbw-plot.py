#!/usr/bin/env python3
"""utils/plot.py on reps-collective-bench's --json: the bench runs on a tiny fabric (2 leaves
x 2 hosts, 2 spines, two sizes, ECMP and REPS) and plot.py draws busbw.png from it, a PNG that
is not empty; a second run cut short by --stopTime leaves 1 MiB incomplete, and plotting both
files still succeeds with a note on stdout naming that size for each selector; files that are
not usable bench results are refused with a one-line error naming the file and the fault, exit
status 2 and no traceback.

Usage: check-busbw-plot.py BENCH OUT_DIR
(BENCH: the reps-collective-bench program; run with the Python that has matplotlib)"""

import json
import os
import re
import subprocess
import sys

PLOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "utils", "plot.py")
FABRIC = ["--leaves=2", "--hostsPerLeaf=2", "--spines=2", "--lb=ecmp,reps"]
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"

failures = []


def check(name, ok, detail=""):
    print("%s: %s%s" % ("PASS" if ok else "FAIL", name, "" if ok or not detail else ": " + detail))
    if not ok:
        failures.append(name)


def plot(files, out):
    return subprocess.run([sys.executable, PLOT] + files + ["--only", "busbw", "--out", out],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def png_ok(path):
    if not os.path.isfile(path) or os.path.getsize(path) == 0:
        return False
    with open(path, "rb") as f:
        return f.read(len(PNG_MAGIC)) == PNG_MAGIC


def main():
    bench, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    full = os.path.join(out, "bench.json")
    cut = os.path.join(out, "bench-cut.json")
    png = os.path.join(out, "busbw.png")
    for path in (full, cut, png):
        if os.path.exists(path):
            os.remove(path)

    subprocess.run([bench] + FABRIC + ["--sizes=64KiB,256KiB", "--json=" + full], check=True,
                   stdout=subprocess.DEVNULL)
    r = plot([full], out)
    check("busbw.png from one bench JSON", r.returncode == 0 and png_ok(png),
          "status %d: %s%s" % (r.returncode, r.stdout, r.stderr))

    # 64 KiB completes in about 51 us on this fabric, 1 MiB does not by 60 us; the bench then
    # exits with status 1 and writes the incomplete rows.
    b = subprocess.run([bench] + FABRIC + ["--sizes=64KiB,1MiB", "--stopTime=60us",
                                           "--json=" + cut], stdout=subprocess.DEVNULL)
    rows = {lb: [(s["bytes"], s["completed"]) for s in v["sizes"]]
            for lb, v in json.load(open(cut))["selectors"].items()}
    check("the cut run leaves 1 MiB incomplete",
          b.returncode == 1 and all(r == [(65536, True), (1048576, False)] for r in rows.values())
          and len(rows) == 2, "status %d, rows %r" % (b.returncode, rows))
    os.remove(png)
    r = plot([full, cut], out)
    notes = [l for l in r.stdout.splitlines() if "did not complete" in l]
    check("two files, incomplete sizes as a note on stdout",
          r.returncode == 0 and png_ok(png) and len(notes) == 2 and all(
              "bench-cut.json: %s did not complete at 1MiB" % lb in n
              for lb, n in zip(("ecmp", "reps"), notes)),
          "status %d: %s%s" % (r.returncode, r.stdout, r.stderr))

    bad = {
        "empty-sizes.json": ({"config": {}, "selectors": {"reps": {"sizes": []}}},
                             "selectors.reps.sizes is empty"),
        "not-bench.json": ({"rows": []}, 'expected an object with a "results" array .* or a '
                           '"selectors" object'),
        "bad-row.json": ({"selectors": {"ecmp": {"sizes": [{"bytes": 65536}]}}},
                         r'selectors.ecmp.sizes\[0\] needs a positive integer "bytes", a '
                         'boolean "completed"'),
        "truncated.json": ('{"selectors": {', "not valid JSON"),
        "missing.json": (None, "cannot read: No such file or directory"),
    }
    for name, (content, expect) in bad.items():
        path = os.path.join(out, name)
        if content is None:
            if os.path.exists(path):
                os.remove(path)
        else:
            with open(path, "w") as f:
                f.write(content if isinstance(content, str) else json.dumps(content))
        r = plot([path], out)
        lines = r.stderr.strip().splitlines()
        check("refuses %s" % name,
              r.returncode == 2 and len(lines) == 1 and "Traceback" not in r.stderr
              and re.fullmatch(r"plot\.py: error: %s: .*%s.*" % (re.escape(path), expect),
                               lines[0]) is not None,
              "status %d: %r" % (r.returncode, r.stderr))

    print("check-busbw-plot: %s" % ("FAIL" if failures else "PASS"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
