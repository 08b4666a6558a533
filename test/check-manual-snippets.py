#!/usr/bin/env python3
"""Checks that the code the manual's "Writing a research script" shows compiles as written:
every C++ block of doc/reps-research-script.rst is a region of examples/reps-research-script.cc
(marked "// [name]" ... "// [name end]"), quoted exactly, and every marked region is shown; the
CMake block is examples/out-of-tree/CMakeLists.txt as it is. The program is compiled and run by
the build (and against the installed package by the test reps-install-external), so a snippet
that names something undefined, or that drifted from the program, fails here. Likewise every
Python block of the section "Writing a script step by step" of doc/reps-python.rst, but its
examples, is a region of examples/python/research-script.py (marked "# [name]" ...
"# [name end]"), which the Python tests run.

Usage: check-manual-snippets.py [MODULE_DIR]
Prints one line per check and "N passed, M failed"; exit status 0 when none failed.
"""

import os
import re
import sys
import textwrap

results = []


def check(name, ok, detail=""):
    results.append(ok)
    print("%s: %s%s" % ("PASS" if ok else "FAIL", name, "" if ok or not detail else ": " + detail))


def blocks(rst, language):
    """The bodies of the rst's '.. sourcecode:: <language>' blocks (at any indentation, e.g.
    in a list item), dedented."""
    out = []
    lines = rst.splitlines()
    i = 0
    while i < len(lines):
        m = re.fullmatch(r"( *)\.\. sourcecode:: *%s\s*" % re.escape(language), lines[i])
        i += 1
        if not m:
            continue
        indent = len(m.group(1)) + 1
        body = []
        while i < len(lines) and (not lines[i].strip() or
                                  len(lines[i]) - len(lines[i].lstrip(" ")) >= indent):
            body.append(lines[i])
            i += 1
        out.append(textwrap.dedent("\n".join(body)).strip("\n"))
    return out


def regions(source, comment="//"):
    """{name: dedented text} of the regions '// [name]' ... '// [name end]' (or another
    comment marker)."""
    found = {}
    c = re.escape(comment)
    for m in re.finditer(r"^[ \t]*%s \[([a-z-]+)\]\n(.*?)^[ \t]*%s \[\1 end\]\n" % (c, c),
                         source, re.M | re.S):
        found[m.group(1)] = textwrap.dedent(m.group(2)).strip("\n")
    return found


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
    with open(os.path.join(root, "doc", "reps-research-script.rst")) as f:
        rst = f.read()
    with open(os.path.join(root, "examples", "reps-research-script.cc")) as f:
        program = f.read()
    with open(os.path.join(root, "examples", "out-of-tree", "CMakeLists.txt")) as f:
        cmake = f.read().strip("\n")

    marked = regions(program)
    check("the program marks the regions the manual shows", len(marked) >= 6, str(sorted(marked)))
    shown = blocks(rst, "cpp")
    for n, block in enumerate(shown, 1):
        name = next((k for k, v in marked.items() if v == block), None)
        check("C++ block %d of the chapter is a region of the program" % n, name is not None,
              "not found in examples/reps-research-script.cc:\n" + block)
    for name, text in sorted(marked.items()):
        check("region [%s] is shown in the chapter" % name, text in shown)
    cmake_blocks = blocks(rst, "cmake")
    check("the chapter shows examples/out-of-tree/CMakeLists.txt as it is",
          cmake in cmake_blocks, "%d cmake blocks" % len(cmake_blocks))

    # The Python twin, in the chapter "Python": the blocks of its section that are not
    # examples of a refusal (those show a comment with the message).
    with open(os.path.join(root, "doc", "reps-python.rst")) as f:
        python_rst = f.read()
    with open(os.path.join(root, "examples", "python", "research-script.py")) as f:
        script = f.read()
    section = re.search(r"^Writing a script step by step\n=+\n(.*?)^\S[^\n]*\n=+\n", python_rst,
                        re.M | re.S)
    check("the chapter \"Python\" has the section \"Writing a script step by step\"",
          section is not None)
    py_marked = regions(script, "#")
    check("the Python script marks the regions the section shows", len(py_marked) >= 6,
          str(sorted(py_marked)))
    py_shown = [b for b in blocks(section.group(1) if section else "", "python")
                if "# ValueError" not in b]
    for n, block in enumerate(py_shown, 1):
        name = next((k for k, v in py_marked.items() if v == block), None)
        check("Python block %d of the section is a region of the script" % n, name is not None,
              "not found in examples/python/research-script.py:\n" + block)
    for name, text in sorted(py_marked.items()):
        check("region [%s] of the script is shown in the section" % name, text in py_shown)

    failed = results.count(False)
    print("%d passed, %d failed" % (len(results) - failed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
