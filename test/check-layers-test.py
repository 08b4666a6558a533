#!/usr/bin/env python3
"""Tests test/check-layers.py on the small module tree of test/data/check-layers.

The fixture sources hold functions over 80 lines where the checker once could not see them:
the first function of an anonymous namespace, a function right after an anonymous namespace
that holds only a struct (whose closing brace is "};"), a member function defined in its
class. They must be reported; short functions right after an anonymous namespace, a function
of exactly 80 lines, a long GetTypeId and braces in comments, strings, raw strings and
preprocessor lines must not. One upward include must be reported too.

Usage: check-layers-test.py [MODULE_DIR]     (default: the folder above this script)
Exit status 0 when the checker reports exactly what it should, 1 otherwise.
"""

import importlib.util
import os
import subprocess
import sys

EXPECTED = [
    "helper/upward-include.cc:7: helper/ includes fixture-experiment.h from experiment/, "
    "a higher layer",
    "model/after-anonymous-namespace.cc:24: FirstInAnonymousNamespace is 88 lines long "
    "(at most 80)",
    "model/after-anonymous-namespace.cc:117: LongAfterAnonymousNamespace is 84 lines long "
    "(at most 80)",
    "model/after-anonymous-namespace.cc:214: Add is 85 lines long (at most 80)",
    "examples/long-main.cc:20: main is 84 lines long (at most 80)",
]


def load_checker(path):
    spec = importlib.util.spec_from_file_location("check_layers", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main(argv):
    root = os.path.abspath(argv[0] if argv else os.path.join(os.path.dirname(__file__), ".."))
    checker = os.path.join(root, "test", "check-layers.py")
    fixture = os.path.join(root, "test", "data", "check-layers")
    failures = []

    run = subprocess.run([sys.executable, checker, fixture], stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, universal_newlines=True)
    reported = [line[len("check-layers: "):] for line in run.stdout.splitlines()
                if line.startswith("check-layers: ") and "FAIL" not in line]
    if run.returncode != 1:
        failures.append("exit status %d on the fixture, expected 1" % run.returncode)
    for line in EXPECTED:
        if line not in reported:
            failures.append("not reported: " + line)
    for line in reported:
        if line not in EXPECTED:
            failures.append("reported, but should not be: " + line)

    # Braces that do not balance are a problem of their own, never a silently skipped file.
    functions = load_checker(checker).functions
    for text in ("int\nF()\n{\n", "}\n", "namespace ns3\n{\n"):
        try:
            functions(text)
            failures.append("unbalanced braces accepted: %r" % text)
        except ValueError:
            pass
    nested = "namespace a\n{\nnamespace b\n{\nstruct S\n{\n};\nint\nF()\n{\n}\n}\n}\n"
    if functions(nested) != [("F", 10, 2)]:
        failures.append("nested namespaces: %r" % (functions(nested),))

    for f in failures:
        print("check-layers-test: " + f)
    if failures:
        print("check-layers-test: FAIL: %d problem(s); the checker printed:\n%s"
              % (len(failures), run.stdout))
        return 1
    print("check-layers-test: PASS: %d problems reported as expected, none else"
          % len(EXPECTED))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
