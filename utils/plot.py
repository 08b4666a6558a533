#!/usr/bin/env python3
"""Plots the results of the reps experiments as PNG files.

Reads the files written by the examples' --json (the summary) and --csv (one row per flow)
options, any number of them, and writes:

  fct_cdf.png        CDF of flow completion times, one line per scheme (needs a CSV file)
  slowdown_cdf.png   CDF of slowdowns, one line per scheme (needs a CSV file)
  link_load.png      bytes per fabric link, one panel per scheme ("link_bytes" in the JSON)
  scaling.png        CPU seconds against link packets, log-log, one line per series with its
                     fitted exponent (the JSON of utils/benchmark.py --scaling)
  ts_<name>.png      every time series of the JSON ("timeseries" -> <name>), e.g.
                     ts_queue_bytes.png (queue depth over time) and ts_drops.png (drops over
                     time), one panel per scheme, with the run's "events" (link failures...)
                     drawn as vertical lines

A scheme is named by the "lb" field (JSON) or column (CSV); when several files hold the same
scheme, the file name is added to tell them apart. Plots whose data is absent are skipped with
a note. Needs Python 3 and matplotlib (Debian: python3-matplotlib); uses the Agg backend, so no
display is needed.

JSON time series (see doc/reps-workloads.rst): results[i]["timeseries"] is an object whose
keys name a set of series sampled at common times:
  {"queue_bytes": {"unit": "bytes", "t_us": [t0, t1, ...],
                   "series": {"leaf": [v0, v1, ...], "spine": [...]}}}
Every series has as many values as t_us; value i covers the interval (t_us[i-1], t_us[i]]
(a count during it, or a sample or maximum of a level), and is drawn as a step.
results[i]["events"] is a list of
{"t_us": x, "label": "..."}.

Exit status: 0 on success, 2 on bad input (the message says which file and why).

Examples:
  utils/plot.py results/lb.json results/lb.csv --out results/plots
  utils/plot.py a.json b.json --only link_load,ts
"""

import argparse
import csv
import json
import math
import os
import sys

KINDS = ("fct_cdf", "slowdown_cdf", "link_load", "ts", "scaling")


class InputError(Exception):
    """A file that cannot be used, with the reason."""


def fail(message):
    print("plot.py: error: %s" % message, file=sys.stderr)
    sys.exit(2)


def load_json(path):
    try:
        with open(path) as f:
            doc = json.load(f)
    except OSError as e:
        raise InputError("%s: cannot read: %s" % (path, e.strerror))
    except json.JSONDecodeError as e:
        raise InputError("%s: not valid JSON: %s" % (path, e))
    if isinstance(doc, dict) and isinstance(doc.get("scaling"), list):
        # utils/benchmark.py: its runs are not experiment results.
        for i, r in enumerate(doc["scaling"]):
            if not isinstance(r, dict) or not all(
                    isinstance(r.get(k), (int, float)) for k in ("link_packets", "cpu_s")) \
                    or not isinstance(r.get("series"), str):
                raise InputError('%s: scaling[%d] needs "series", "link_packets" and "cpu_s"'
                                 % (path, i))
        return {"results": [], "scaling": doc["scaling"], "fits": doc.get("fits", [])}
    if not isinstance(doc, dict) or not isinstance(doc.get("results"), list):
        raise InputError('%s: expected an object with a "results" array (the output of --json)'
                         % path)
    for i, r in enumerate(doc["results"]):
        if not isinstance(r, dict) or not isinstance(r.get("lb"), str):
            raise InputError('%s: results[%d] has no "lb" name' % (path, i))
        series = r.get("timeseries", {})
        if not isinstance(series, dict):
            raise InputError('%s: results[%d].timeseries must be an object' % (path, i))
        for name, ts in series.items():
            if (not isinstance(ts, dict) or not isinstance(ts.get("t_us"), list)
                    or not isinstance(ts.get("series"), dict)):
                raise InputError('%s: results[%d].timeseries.%s needs "t_us" and "series"'
                                 % (path, i, name))
            for sname, values in ts["series"].items():
                if not isinstance(values, list) or len(values) != len(ts["t_us"]):
                    raise InputError("%s: results[%d].timeseries.%s.series.%s must have as "
                                     "many values as t_us" % (path, i, name, sname))
        links = r.get("link_bytes", [])
        if not isinstance(links, list) or any(
                not isinstance(l, dict) or "bytes" not in l or "link" not in l for l in links):
            raise InputError('%s: results[%d].link_bytes must be a list of {"link", "bytes", ...}'
                             % (path, i))
    return doc


CSV_NEEDED = ("lb", "fct_us", "slowdown", "completed")


def load_csv(path):
    try:
        with open(path, newline="") as f:
            reader = csv.DictReader(f)
            missing = [c for c in CSV_NEEDED if c not in (reader.fieldnames or [])]
            if missing:
                raise InputError("%s: not a flow CSV of the reps examples (missing columns: %s)"
                                 % (path, ", ".join(missing)))
            per_lb = {}
            for n, row in enumerate(reader, start=2):
                if row["completed"] != "1":
                    continue
                try:
                    fct = float(row["fct_us"])
                    slowdown = float(row["slowdown"])
                except (TypeError, ValueError):
                    raise InputError("%s:%d: fct_us/slowdown are not numbers" % (path, n))
                entry = per_lb.setdefault(row["lb"], {"fct": [], "slowdown": []})
                entry["fct"].append(fct)
                entry["slowdown"].append(slowdown)
            return per_lb
    except OSError as e:
        raise InputError("%s: cannot read: %s" % (path, e.strerror))
    except csv.Error as e:
        raise InputError("%s: not valid CSV: %s" % (path, e))


def label(lb, path, duplicates):
    if lb in duplicates:
        return "%s (%s)" % (lb, os.path.splitext(os.path.basename(path))[0])
    return lb


def plot_cdf(plt, flows, key, xlabel, out):
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    for name, values in flows:
        v = sorted(values[key])
        if not v:
            continue
        y = [(i + 1) / len(v) for i in range(len(v))]
        ax.step(v, y, where="post", label="%s (n=%d)" % (name, len(v)))
    ax.set_xlabel(xlabel)
    ax.set_ylabel("fraction of flows")
    lo = min(min(values[key]) for _, values in flows if values[key])
    hi = max(max(values[key]) for _, values in flows if values[key])
    if lo > 0 and hi / lo > 20:
        ax.set_xscale("log")
    ax.set_ylim(0, 1.01)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    plt.close(fig)


def plot_link_load(plt, runs, out):
    runs = [(name, r) for name, r in runs if r.get("link_bytes")]
    fig, axes = plt.subplots(len(runs), 1, figsize=(max(6.4, 0.08 * max(
        len(r["link_bytes"]) for _, r in runs) + 2), 2.4 * len(runs) + 0.6), squeeze=False)
    from matplotlib.patches import Patch
    for ax, (name, r) in zip(axes[:, 0], runs):
        # Grouped by tier (and direction), in the order the file lists them within a tier.
        order = {}
        for l in r["link_bytes"]:
            order.setdefault(l.get("tier", ""), len(order))
        links = sorted(r["link_bytes"], key=lambda l: order[l.get("tier", "")])
        total = sum(l["bytes"] for l in links) or 1
        tiers = sorted(set(l.get("tier", "") for l in links))
        colors = {t: "C%d" % i for i, t in enumerate(tiers)}
        x = range(len(links))
        ax.bar(x, [100.0 * l["bytes"] / total for l in links],
               color=[colors[l.get("tier", "")] for l in links], width=0.85)
        mean = 100.0 / len(links)
        ax.axhline(mean, color="k", lw=0.8, ls="--")
        ax.set_title("%s: bytes per link (dashed: even share)" % name, fontsize=10)
        ax.set_ylabel("% of bytes")
        if len(links) <= 32:
            ax.set_xticks(list(x))
            ax.set_xticklabels([l["link"] for l in links], rotation=90, fontsize=7)
        else:
            ax.set_xticks([])
            ax.set_xlabel("%d links" % len(links))
        if len(tiers) > 1:
            ax.legend(handles=[Patch(color=colors[t], label=t) for t in tiers], fontsize=8)
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    plt.close(fig)


def plot_timeseries(plt, runs, key, out):
    runs = [(name, r) for name, r in runs if key in r.get("timeseries", {})]
    fig, axes = plt.subplots(len(runs), 1, figsize=(7.5, 2.4 * len(runs) + 0.6), sharex=True,
                             squeeze=False)
    for ax, (name, r) in zip(axes[:, 0], runs):
        ts = r["timeseries"][key]
        for sname, values in ts["series"].items():
            # Value i covers the interval (t_us[i-1], t_us[i]]: draw it as a step.
            ax.plot(ts["t_us"], [math.nan if v is None else v for v in values], label=sname,
                    drawstyle="steps-pre")
        for e in r.get("events", []):
            ax.axvline(e["t_us"], color="r", lw=0.8, ls=":")
            ax.annotate(e.get("label", ""), (e["t_us"], 1.0), xycoords=("data", "axes fraction"),
                        fontsize=6, rotation=90, va="top", ha="right", color="r")
        ax.set_title(name, fontsize=10)
        ax.set_ylabel("%s [%s]" % (key, ts.get("unit", "")))
        ax.grid(True, alpha=0.3)
        if len(ts["series"]) > 1:
            ax.legend(fontsize=8)
    axes[-1, 0].set_xlabel("simulated time [us]")
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    plt.close(fig)


def plot_scaling(plt, scaling, fits, out):
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    exponents = {f.get("series"): f.get("exponent") for f in fits}
    for series in sorted({r["series"] for r in scaling}):
        pts = sorted((r["link_packets"], r["cpu_s"]) for r in scaling if r["series"] == series)
        b = exponents.get(series)
        name = series + (" (b = %.2f)" % b if isinstance(b, (int, float)) else "")
        ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=name)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("link packets (transmissions over links)")
    ax.set_ylabel("CPU seconds (whole process)")
    ax.set_title("cost = a x (link packets)^b")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize="small")
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    plt.close(fig)


def main(argv=None):
    parser = argparse.ArgumentParser(
        description="Plot reps experiment results (JSON from --json, CSV from --csv) as PNGs.",
        epilog="Writes fct_cdf.png, slowdown_cdf.png, link_load.png and ts_<name>.png for "
               "every time series, when the inputs hold the data.")
    parser.add_argument("files", nargs="+", metavar="FILE",
                        help="result files: *.json (summary) and/or *.csv (flows)")
    parser.add_argument("--out", default=".", help="directory for the PNGs (default: .)")
    parser.add_argument("--prefix", default="", help="prefix of every PNG's name")
    parser.add_argument("--only", default=",".join(KINDS),
                        help="comma list of plots to make, from: %s (default: all)"
                             % ", ".join(KINDS))
    args = parser.parse_args(argv)

    kinds = [k.strip() for k in args.only.split(",") if k.strip()]
    bad = [k for k in kinds if k not in KINDS]
    if bad or not kinds:
        fail("--only: unknown plot(s) %s; allowed: %s" % (", ".join(bad) or "''", ", ".join(KINDS)))

    runs, flows, scaling, fits = [], [], [], []
    try:
        for path in args.files:
            if path.endswith(".csv"):
                flows += [(lb, path, v) for lb, v in load_csv(path).items()]
            elif path.endswith(".json"):
                doc = load_json(path)
                runs += [(r["lb"], path, r) for r in doc["results"]]
                scaling += doc.get("scaling", [])
                fits += doc.get("fits", [])
            else:
                raise InputError("%s: expected a .json or .csv file" % path)
    except InputError as e:
        fail(str(e))

    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        # Debian's python3-matplotlib lives in the system interpreter; a python3 found first
        # on PATH (a virtualenv, pyenv) may not see it.
        system = "/usr/bin/python3"
        if (os.path.exists(system) and not os.environ.get("REPS_PLOT_REEXEC")
                and os.path.realpath(sys.executable) != os.path.realpath(system)):
            os.environ["REPS_PLOT_REEXEC"] = "1"
            os.execv(system, [system, os.path.abspath(__file__)] + sys.argv[1:])
        fail("matplotlib is not installed (Debian: apt-get install python3-matplotlib)")

    os.makedirs(args.out, exist_ok=True)
    written = []

    def target(name):
        path = os.path.join(args.out, args.prefix + name + ".png")
        written.append(path)
        return path

    lbs = [lb for lb, _, _ in flows]
    dup = {lb for lb in lbs if lbs.count(lb) > 1}
    named_flows = [(label(lb, path, dup), v) for lb, path, v in flows]
    lbs = [lb for lb, _, _ in runs]
    dup = {lb for lb in lbs if lbs.count(lb) > 1}
    named_runs = [(label(lb, path, dup), r) for lb, path, r in runs]

    if "fct_cdf" in kinds or "slowdown_cdf" in kinds:
        if not any(v["fct"] for _, v in named_flows):
            print("plot.py: note: no completed flows in a CSV file; no FCT/slowdown CDF",
                  file=sys.stderr)
        else:
            if "fct_cdf" in kinds:
                plot_cdf(plt, named_flows, "fct", "flow completion time [us]", target("fct_cdf"))
            if "slowdown_cdf" in kinds:
                plot_cdf(plt, named_flows, "slowdown", "slowdown (FCT / ideal FCT)",
                         target("slowdown_cdf"))
    if "link_load" in kinds:
        if any(r.get("link_bytes") for _, r in named_runs):
            plot_link_load(plt, named_runs, target("link_load"))
        elif named_runs:
            print("plot.py: note: no link_bytes in the JSON; no link load plot", file=sys.stderr)
    if "ts" in kinds:
        keys = []
        for _, r in named_runs:
            keys += [k for k in r.get("timeseries", {}) if k not in keys]
        for key in keys:
            plot_timeseries(plt, named_runs, key, target("ts_" + key))
    if "scaling" in kinds and scaling:
        plot_scaling(plt, scaling, fits, target("scaling"))
    if not written:
        fail("nothing to plot in %s" % ", ".join(args.files))
    for path in written:
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
