#!/usr/bin/env python3
"""Runs an example with --json and compares its results with a stored reference, field by field.

The module promises the same results, bit for bit, for the same options and run number: a
refactoring must not change them, and a change of the model must come with a new reference
(run with --update). Fields that measure the machine rather than the simulation (wall_s,
wall_us_per_link_packet), the count of simulator events (which depends on the ns-3 release's
own devices and queues) and the output paths are ignored.

Usage: compare-reference.py [--update] REFERENCE.json PROGRAM [ARGS...]
Exit status 0 when the results equal the reference (or it was written), 1 when they differ,
2 on bad usage.
"""

import json
import os
import subprocess
import sys
import tempfile

IGNORED = {"wall_s", "wall_us_per_link_packet", "simulator_events", "json", "csv"}


def strip(value):
    """The value without the fields that are not results of the simulation."""
    if isinstance(value, dict):
        return {k: strip(v) for k, v in value.items() if k not in IGNORED}
    if isinstance(value, list):
        return [strip(v) for v in value]
    return value


def differences(ref, got, path, out, limit=20):
    """Appends to out the paths where got differs from ref (at most limit)."""
    if len(out) >= limit:
        return
    if isinstance(ref, dict) and isinstance(got, dict):
        for key in sorted(set(ref) | set(got)):
            if key not in ref or key not in got:
                out.append("%s.%s: only in %s" % (path, key, "reference" if key in ref else "run"))
            else:
                differences(ref[key], got[key], "%s.%s" % (path, key), out, limit)
    elif isinstance(ref, list) and isinstance(got, list):
        if len(ref) != len(got):
            out.append("%s: %d entries in the reference, %d in the run" % (path, len(ref), len(got)))
        for i, (a, b) in enumerate(zip(ref, got)):
            differences(a, b, "%s[%d]" % (path, i), out, limit)
    elif ref != got:
        out.append("%s: reference %r, run %r" % (path, ref, got))


def main(argv):
    update = False
    if argv and argv[0] == "--update":
        update = True
        argv = argv[1:]
    if len(argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    reference, program, args = argv[0], argv[1], argv[2:]
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "run.json")
        proc = subprocess.run([program] + args + ["--json=" + out, "--quiet=true"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if proc.returncode != 0:
            print("compare-reference: FAIL: %s exited with %d: %s"
                  % (program, proc.returncode, proc.stderr.strip()[-500:]))
            return 1
        with open(out) as f:
            got = strip(json.load(f))
    if update:
        with open(reference, "w") as f:
            json.dump(got, f, sort_keys=True, separators=(",", ":"))
            f.write("\n")
        print("compare-reference: wrote %s" % reference)
        return 0
    try:
        with open(reference) as f:
            ref = json.load(f)
    except (OSError, ValueError) as e:
        print("compare-reference: FAIL: cannot read %s: %s" % (reference, e))
        return 1
    diffs = []
    differences(ref, got, "", diffs)
    if diffs:
        print("compare-reference: FAIL: the results differ from %s:" % reference)
        for d in diffs:
            print("  " + d)
        print("(a deliberate change of the model: regenerate with --update)")
        return 1
    print("compare-reference: PASS: identical to %s" % reference)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
