#!/usr/bin/env python3
"""Checks that the module's folders stay layers, and that its code stays readable.

The layers, lowest first: model/ (the simulation models), helper/ (what a research script
installs: fabric, RDMA stack, workload generators, statistics), workload/ (the traffic that
runs during a simulation: collectives, the training loop, the workload runner, the failure
injector) and experiment/ (the command-line experiment, option checking, reports, progress,
monitors). A file may include headers of its own layer and of
the layers below it, never of a layer above: an include of "ns3/<name>.h" or "<name>.h" is
mapped to the folder that holds <name>.h. Also checked:
  - no function defined in model/, helper/, workload/, experiment/ or examples/ is longer
    than 80 lines
    (GetTypeId excepted: it is a declarative list of attributes and trace sources);
  - no file of experiment/ is longer than 600 lines.

Usage: check-layers.py [MODULE_DIR]     (default: the folder above this script)
Exit status 0 when every rule holds, 1 otherwise (each violation printed).
"""

import os
import re
import sys

LAYERS = ["model", "helper", "workload", "experiment"]
MAX_FUNCTION_LINES = 80
MAX_EXPERIMENT_FILE_LINES = 600
INCLUDE = re.compile(r'^\s*#\s*include\s+"(?:ns3/)?([\w.-]+\.h)"')


def sources(root, folder):
    base = os.path.join(root, folder)
    for dirpath, _, files in os.walk(base):
        for name in sorted(files):
            if name.endswith((".h", ".cc")):
                yield os.path.join(dirpath, name)


def strip_code(text):
    """The text with comments, string and character literals and preprocessor lines blanked
    (newlines kept, so that line numbers stay), leaving only the braces that nest code."""
    out = []
    i = 0
    n = len(text)
    line_start = True
    while i < n:
        c = text[i]
        if line_start and c == "#":
            # A preprocessor directive, with its continuation lines.
            while i < n and text[i] != "\n":
                if text[i] == "\\" and i + 1 < n and text[i + 1] == "\n":
                    out.append("\n")
                    i += 2
                    continue
                i += 1
            continue
        if c == "/" and text.startswith("//", i):
            while i < n and text[i] != "\n":
                i += 1
            continue
        if c == "/" and text.startswith("/*", i):
            close = text.find("*/", i + 2)
            close = n if close < 0 else close + 2
            out.append(re.sub(r"[^\n]", " ", text[i:close]))
            i = close
            continue
        raw = re.match(r'R"([^()\\ ]{0,16})\(', text[i:i + 20]) if c == "R" else None
        if raw and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            close = text.find(")" + raw.group(1) + '"', i)
            close = n if close < 0 else close + len(raw.group(1)) + 2
            out.append(re.sub(r"[^\n]", " ", text[i:close]))
            i = close
            continue
        if c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(" " * (min(j, n - 1) - i + 1))
            i = j + 1
            continue
        out.append(c)
        if c == "\n":
            line_start = True
        elif not c.isspace():
            line_start = False
        i += 1
    return "".join(out)


def block_kind(head, context):
    """What a '{' opens, from the code before it (head) and the block it is in (context):
    'namespace', 'class', 'function' or 'other' (statements, initializers, enums)."""
    if context in ("function", "other"):
        return "other"
    head = " ".join(head.split())
    if re.match(r"^(inline\s+)?namespace\b", head) or re.match(r"^extern\s*$", head):
        return "namespace"
    # Not a declaration's parameter list: an initializer ("x = {"), a lambda at namespace scope.
    before_paren = re.sub(r"\boperator\s*[^\w\s(]+\s*\(", "operator(", head).split("(")[0]
    if "(" in head and "=" not in before_paren and not head.rstrip().endswith("="):
        return "function"
    if re.search(r"\b(class|struct|union)\b", head) and not re.search(r"\benum\b", head):
        return "class"
    return "other"


def function_name(head):
    """The (qualified) name of the function whose declaration is head."""
    head = re.sub(r"\boperator\s*([^\w\s(]+|\(\))\s*\(", r"operator\1(", " ".join(head.split()))
    m = re.search(r"([A-Za-z_~][\w:~]*(?:operator\S*?)?)\s*\(", head)
    return m.group(1) if m else ""


def functions(text):
    """(name, first line, length) of every function body defined at namespace or class scope
    of a C++ source, nested namespaces and classes included; length counts the lines from
    the '{' to the matching '}'. Raises ValueError when the braces do not balance."""
    code = strip_code(text)
    stack = []  # (kind, name, line of the '{')
    found = []
    head_start = 0
    line = 1
    for i, c in enumerate(code):
        if c == "\n":
            line += 1
        elif c in ";{}":
            context = stack[-1][0] if stack else "namespace"
            if c == "{":
                head = code[head_start:i]
                if context == "class":
                    head = re.sub(r"^\s*(public|protected|private)\s*:", "", head)
                kind = block_kind(head, context)
                stack.append((kind, function_name(head) if kind == "function" else "", line))
            elif c == "}":
                if not stack:
                    raise ValueError("line %d: '}' closes no block" % line)
                kind, name, first = stack.pop()
                if kind == "function":
                    found.append((name, first, line - first + 1))
            head_start = i + 1
        elif c == ":" and stack and stack[-1][0] == "class":
            # An access specifier ends a member declaration's head.
            if re.search(r"\b(public|protected|private)\s*$", code[head_start:i]):
                head_start = i + 1
    if stack:
        raise ValueError("line %d: '{' never closed" % stack[-1][2])
    return found


def long_functions(path):
    """(name, first line, length) of the functions of a source longer than the limit
    (GetTypeId excepted)."""
    return [(name, first, length)
            for name, first, length in functions(open(path, encoding="utf-8").read())
            if length > MAX_FUNCTION_LINES and not name.endswith("GetTypeId")]


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
                try:
                    long = long_functions(path)
                except ValueError as e:
                    problems.append("%s: cannot find its functions: %s"
                                    % (os.path.relpath(path, root), e))
                    continue
                for name, line, length in long:
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
