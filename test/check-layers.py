#!/usr/bin/env python3
"""Checks that the module's folders stay layers, and that its code stays readable.

The layers, lowest first: model/ (the simulation models), helper/ (what a research script
installs: fabric, RDMA stack, workloads) and experiment/ (the command-line experiment, option
checking, reports, progress, monitors). A file may include headers of its own layer and of
the layers below it, never of a layer above: an include of "ns3/<name>.h" or "<name>.h" is
mapped to the folder that holds <name>.h. Also checked:
  - no function defined in model/, helper/, experiment/ or examples/ is longer than 80 lines
    (GetTypeId excepted: it is a declarative list of attributes and trace sources);
  - no file of experiment/ is longer than 600 lines.

Usage: check-layers.py [MODULE_DIR]     (default: the folder above this script)
Exit status 0 when every rule holds, 1 otherwise (each violation printed).
"""

import os
import re
import sys

LAYERS = ["model", "helper", "experiment"]
MAX_FUNCTION_LINES = 80
MAX_EXPERIMENT_FILE_LINES = 600
INCLUDE = re.compile(r'^\s*#\s*include\s+"(?:ns3/)?([\w.-]+\.h)"')
SIGNATURE = re.compile(r"^(?:[\w:<>*&]+\s+)*([A-Za-z_~][\w:~]*)\s*\(")


def sources(root, folder):
    base = os.path.join(root, folder)
    for dirpath, _, files in os.walk(base):
        for name in sorted(files):
            if name.endswith((".h", ".cc")):
                yield os.path.join(dirpath, name)


def long_functions(path):
    """(name, first line, length) of top-level function bodies ('{' and '}' at column 0)."""
    lines = open(path, encoding="utf-8").read().split("\n")
    found = []
    i = 0
    while i < len(lines):
        if lines[i] != "{":
            i += 1
            continue
        end = i
        while end < len(lines) and lines[end] != "}":
            end += 1
        name = ""
        for back in range(i - 1, max(i - 12, -1), -1):
            m = SIGNATURE.match(lines[back])
            if m:
                name = m.group(1)
                break
        length = end - i + 1
        if length > MAX_FUNCTION_LINES and not name.endswith("GetTypeId") and name:
            found.append((name, i + 1, length))
        i = end + 1
    return found


def main(argv):
    root = os.path.abspath(argv[0] if argv else os.path.join(os.path.dirname(__file__), ".."))
    layer_of = {}
    for level, folder in enumerate(LAYERS):
        for path in sources(root, folder):
            layer_of[os.path.basename(path)] = (level, folder)
    problems = []
    for level, folder in enumerate(LAYERS):
        for path in sources(root, folder):
            rel = os.path.relpath(path, root)
            for number, line in enumerate(open(path, encoding="utf-8"), 1):
                m = INCLUDE.match(line)
                if m and m.group(1) in layer_of:
                    target_level, target_folder = layer_of[m.group(1)]
                    if target_level > level:
                        problems.append("%s:%d: %s/ includes %s from %s/, a higher layer"
                                        % (rel, number, folder, m.group(1), target_folder))
            if folder == "experiment":
                n = sum(1 for _ in open(path, encoding="utf-8"))
                if n > MAX_EXPERIMENT_FILE_LINES:
                    problems.append("%s: %d lines (experiment files stay under %d)"
                                    % (rel, n, MAX_EXPERIMENT_FILE_LINES))
    for folder in LAYERS + ["examples"]:
        for path in sources(root, folder):
            if path.endswith(".cc"):
                for name, line, length in long_functions(path):
                    problems.append("%s:%d: %s is %d lines long (at most %d)"
                                    % (os.path.relpath(path, root), line, name, length,
                                       MAX_FUNCTION_LINES))
    for p in problems:
        print("check-layers: " + p)
    if problems:
        print("check-layers: FAIL: %d problem(s)" % len(problems))
        return 1
    print("check-layers: PASS: %d files in %d layers" % (len(layer_of), len(LAYERS)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
