#!/usr/bin/env python3
"""Checks that CMakeLists.txt and wscript build the same module.

Compares, between the CMake files (CMakeLists.txt, examples/CMakeLists.txt) and the waf files
(wscript, examples/wscript): the library sources, the public headers, the test sources and the
examples with their sources (a source protoc generates from a listed schema, NAME.pb.cc from
NAME.proto, is in wscript's sources only: CMake compiles it by a custom command). The experiment layer (reps_experiment_library() in CMake, a second
module in waf) counts with the module's files. Also fails when a listed file does not exist, or
when a .cc/.h file under model/, helper/, workload/, experiment/, test/ or examples/ is listed nowhere. Exit status 0 when all agree.

Usage: utils/check-build-lists.py [MODULE_DIR]
"""

import os
import re
import sys


def cmake_calls(text, name):
    """Yields the argument lists of every call of the CMake command `name`."""
    text = re.sub(r"#[^\n]*", "", text)
    for match in re.finditer(r"\b%s\s*\(" % re.escape(name), text):
        depth, start, i = 1, match.end(), match.end()
        while depth:
            if text[i] == "(":
                depth += 1
            elif text[i] == ")":
                depth -= 1
            i += 1
        yield text[start : i - 1].split()


def keyword_lists(args, keywords):
    """Splits a CMake argument list into {keyword: [values]}."""
    out, current = {}, None
    for arg in args:
        if arg in keywords:
            current = arg
            out.setdefault(arg, [])
        elif current is not None:
            out[current].append(arg)
    return out


def from_cmake(root):
    lib_keys = {"LIBNAME", "SOURCE_FILES", "HEADER_FILES", "LIBRARIES_TO_LINK", "TEST_SOURCES",
                "DEPRECATED_HEADER_FILES", "MODULE_ENABLED_FEATURES", "PRIVATE_HEADER_FILES"}
    text = open(os.path.join(root, "CMakeLists.txt")).read()
    calls = list(cmake_calls(text, "build_lib"))
    if len(calls) != 1:
        sys.exit("CMakeLists.txt: expected one build_lib() call, found %d" % len(calls))
    lists = keyword_lists(calls[0], lib_keys)
    # The experiment layer's library (reps_experiment_library) is a second module for waf.
    for call in cmake_calls(text, "reps_experiment_library"):
        extra = keyword_lists(call, {"SOURCE_FILES", "HEADER_FILES"})
        for key in ("SOURCE_FILES", "HEADER_FILES"):
            lists.setdefault(key, []).extend(extra.get(key, []))
    result = {
        "sources": sorted(lists.get("SOURCE_FILES", [])),
        "headers": sorted(lists.get("HEADER_FILES", [])),
        "tests": sorted(lists.get("TEST_SOURCES", [])),
        "examples": {},
    }
    examples = os.path.join(root, "examples", "CMakeLists.txt")
    if os.path.exists(examples):
        for call in cmake_calls(open(examples).read(), "build_lib_example"):
            ex = keyword_lists(call, {"NAME", "SOURCE_FILES", "HEADER_FILES", "LIBRARIES_TO_LINK"})
            name = ex["NAME"][0]
            result["examples"][name] = sorted("examples/" + s for s in ex.get("SOURCE_FILES", []))
    return result


class _Obj:
    def __init__(self, kind, name=None):
        self.kind, self.name, self.source = kind, name, []


class _Env:
    ENABLE_EXAMPLES = True
    ENABLE_TESTS = True


class _Bld:
    """Just enough of waf's build context to run the module's wscript files."""

    def __init__(self, root):
        self.root, self.objs, self.env, self.cwd = root, [], _Env(), root

    def create_ns3_module(self, name, deps=None):
        obj = _Obj("module", name)
        self.objs.append(obj)
        return obj

    def create_ns3_module_test_library(self, name):
        obj = _Obj("test", name)
        self.objs.append(obj)
        return obj

    def create_ns3_program(self, name, deps=None):
        obj = _Obj("program", name)
        obj.dir = os.path.relpath(self.cwd, self.root)
        self.objs.append(obj)
        return obj

    def __call__(self, features=None, **kwargs):
        obj = _Obj(features)
        self.objs.append(obj)
        return obj

    def recurse(self, subdir):
        saved = self.cwd
        self.cwd = os.path.join(self.cwd, subdir)
        run_wscript(self, os.path.join(self.cwd, "wscript"))
        self.cwd = saved


def run_wscript(bld, path):
    scope = {}
    exec(compile(open(path).read(), path, "exec"), scope)
    scope["build"](bld)


def as_list(source):
    return source.split() if isinstance(source, str) else list(source)


def from_waf(root):
    bld = _Bld(root)
    run_wscript(bld, os.path.join(root, "wscript"))
    result = {"sources": [], "headers": [], "tests": [], "examples": {}}
    for obj in bld.objs:
        files = as_list(obj.source)
        if obj.kind == "module":
            result["sources"] += files
        elif obj.kind == "test":
            result["tests"] += files
        elif obj.kind == "ns3header":
            result["headers"] += files
        elif obj.kind == "program":
            result["examples"][obj.name] = sorted(os.path.join(obj.dir, f) for f in files)
    # A source protoc generates from a schema (NAME.pb.cc from NAME.proto) is compiled from the
    # schema in CMake by a custom command, outside build_lib(); waf lists it as a source. It
    # counts when its schema exists and CMakeLists.txt names the schema.
    cmake_text = open(os.path.join(root, "CMakeLists.txt")).read()
    result["sources"] = [f for f in result["sources"]
                         if not (f.endswith(".pb.cc")
                                 and os.path.exists(os.path.join(root, f[:-6] + ".proto"))
                                 and os.path.basename(f[:-6] + ".proto") in cmake_text)]
    for key in ("sources", "headers", "tests"):
        result[key] = sorted(result[key])
    return result


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                           os.path.join(os.path.dirname(__file__), ".."))
    cmake, waf = from_cmake(root), from_waf(root)
    errors = []
    for key in ("sources", "headers", "tests"):
        only_cmake = sorted(set(cmake[key]) - set(waf[key]))
        only_waf = sorted(set(waf[key]) - set(cmake[key]))
        for f in only_cmake:
            errors.append("%s: %s is in CMakeLists.txt but not in wscript" % (key, f))
        for f in only_waf:
            errors.append("%s: %s is in wscript but not in CMakeLists.txt" % (key, f))
    for name in sorted(set(cmake["examples"]) | set(waf["examples"])):
        c, w = cmake["examples"].get(name), waf["examples"].get(name)
        if c is None:
            errors.append("example %s is in examples/wscript but not in examples/CMakeLists.txt"
                          % name)
        elif w is None:
            errors.append("example %s is in examples/CMakeLists.txt but not in examples/wscript"
                          % name)
        elif c != w:
            errors.append("example %s: sources differ (CMake %s, waf %s)" % (name, c, w))

    listed = set(cmake["sources"]) | set(cmake["headers"]) | set(cmake["tests"])
    for files in cmake["examples"].values():
        listed |= set(files)
    for f in sorted(listed):
        if not os.path.exists(os.path.join(root, f)):
            errors.append("%s is listed but does not exist" % f)
    for sub in ("model", "helper", "workload", "experiment", "test", "examples"):
        top = os.path.join(root, sub)
        if not os.path.isdir(top):
            continue
        for name in sorted(os.listdir(top)):
            rel = "%s/%s" % (sub, name)
            if name.endswith(".cc") and rel not in listed:
                errors.append("%s is not listed in CMakeLists.txt" % rel)
            if name.endswith(".h") and sub in ("model", "helper", "workload", "experiment") and \
                    rel not in listed:
                errors.append("%s is not listed in CMakeLists.txt" % rel)

    if errors:
        print("CMakeLists.txt and wscript disagree:")
        for e in errors:
            print("  - " + e)
        return 1
    print("CMakeLists.txt and wscript agree: %d sources, %d headers, %d test sources, "
          "%d examples" % (len(cmake["sources"]), len(cmake["headers"]), len(cmake["tests"]),
                           len(cmake["examples"])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
