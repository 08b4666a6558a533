#!/usr/bin/env python3
"""Plots the results of the reps experiments as PNG files.

Reads the files written by the examples' --json (the summary) and --csv (one row per flow)
options, any number of them, and writes:

  fct_cdf.png        CDF of flow completion times, one line per scheme (needs a CSV file)
  slowdown_cdf.png   CDF of slowdowns, one line per scheme (needs a CSV file)
  link_load.png      bytes per fabric link, one panel per scheme ("link_bytes" in the JSON)
  spine_share.png    share of the bytes going up into each spine (2 tiers) or core (3 tiers),
                     one bar per scheme: which spines each path selector's packets took
                     ("link_bytes" in the JSON)
  plane_share.png    share of the bytes each plane of a multi-plane fabric carried, one stacked
                     bar per scheme ("planes" in the JSON, written with --planes > 1)
  link_heatmap.png   utilization of every switch-to-switch link over time, uplinks above
                     downlinks, one panel per scheme (the "link_utilization" time series,
                     written with --linkSeries)
  sweep_<metric>.png from a utils/sweep.py summary.json: every metric's mean per configuration
                     and path selector with its 95% confidence interval as error bars (a
                     line over the varied option when one numeric option is varied, with
                     the option's own values as ticks when they are integers; grouped bars
                     otherwise); the error bars of a quantity that cannot be negative (every
                     metric sweep.py writes: "nonnegative" in summary.json) stop at zero
  scaling.png        CPU seconds against link packets, log-log, one line per series with its
                     fitted exponent (the JSON of utils/benchmark.py --scaling)
  busbw.png          from the --json of reps-collective-bench: bus bandwidth (GB/s) against
                     message size on a log2 axis, one line per path selector (and file); a
                     size whose run did not complete is a missing point (listed on stdout),
                     and a dashed line marks the line rate when the file's config gives
                     "linkRate_bps"
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
  utils/plot.py results/bench.json --out results/plots      (reps-collective-bench --json)
"""

import argparse
import csv
import json
import math
import os
import sys

KINDS = ("fct_cdf", "slowdown_cdf", "link_load", "spine_share", "plane_share", "link_heatmap",
         "ts", "sweep", "scaling", "busbw")

# Rank of a node in the fabric, from its name: traffic from a lower to a higher rank goes up.
RANKS = (("host", 0), ("leaf", 1), ("agg", 2), ("spine", 3), ("core", 3))


def node_rank(name):
    for prefix, rank in RANKS:
        if name.startswith(prefix):
            return rank
    return -1


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
    if isinstance(doc, dict) and "sweep" in doc:
        try:
            for v in doc["sweep"]["vary"]:
                v["name"], list(v["values"])
            for r in doc["rows"]:
                for v in doc["sweep"]["vary"]:
                    r["config"][v["name"]]
                for m in r["metrics"].values():
                    float(m["mean"]), m["ci95"], m["unit"]
                r["lb"]
            len(doc["sweep"]["seeds"]), list(doc["sweep"]["metrics"])
        except (KeyError, TypeError, ValueError) as e:
            raise InputError("%s: a sweep summary (utils/sweep.py) with a missing or malformed "
                             "field: %s" % (path, e))
        return doc
    if isinstance(doc, dict) and isinstance(doc.get("scaling"), list):
        # utils/benchmark.py: its runs are not experiment results.
        for i, r in enumerate(doc["scaling"]):
            if not isinstance(r, dict) or not all(
                    isinstance(r.get(k), (int, float)) for k in ("link_packets", "cpu_s")) \
                    or not isinstance(r.get("series"), str):
                raise InputError('%s: scaling[%d] needs "series", "link_packets" and "cpu_s"'
                                 % (path, i))
        return {"results": [], "scaling": doc["scaling"], "fits": doc.get("fits", [])}
    if isinstance(doc, dict) and "selectors" in doc and "results" not in doc:
        return {"results": [], "bench": check_bench(path, doc)}
    if not isinstance(doc, dict) or not isinstance(doc.get("results"), list):
        raise InputError('%s: expected an object with a "results" array (the --json of the '
                         'examples) or a "selectors" object (the --json of '
                         'reps-collective-bench)' % path)
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


def check_bench(path, doc):
    """The --json of reps-collective-bench, checked: {"config": {...}, "selectors": {lb:
    {"sizes": [{"bytes", "busbw_GBps", "completed", ...}, ...]}}}."""
    what = "%s: a reps-collective-bench JSON" % path
    selectors = doc["selectors"]
    if not isinstance(selectors, dict) or not selectors:
        raise InputError('%s needs "selectors" to be an object with at least one path selector'
                         % what)
    config = doc.get("config", {})
    if not isinstance(config, dict):
        raise InputError('%s needs "config" to be an object' % what)
    rate = config.get("linkRate_bps")
    if rate is not None and (isinstance(rate, bool) or not isinstance(rate, (int, float))
                             or not rate > 0):
        raise InputError('%s: config.linkRate_bps must be a positive number (bits/s), not %r'
                         % (what, rate))
    for lb, entry in selectors.items():
        rows = entry.get("sizes") if isinstance(entry, dict) else None
        if not isinstance(rows, list):
            raise InputError('%s: selectors.%s has no "sizes" array' % (what, lb))
        if not rows:
            raise InputError("%s: selectors.%s.sizes is empty (no size was run)" % (what, lb))
        for i, r in enumerate(rows):
            ok = (isinstance(r, dict) and isinstance(r.get("completed"), bool)
                  and isinstance(r.get("bytes"), int) and not isinstance(r["bytes"], bool)
                  and r["bytes"] > 0)
            if ok and r["completed"]:
                b = r.get("busbw_GBps")
                ok = isinstance(b, (int, float)) and not isinstance(b, bool) and math.isfinite(b)
            if not ok:
                raise InputError('%s: selectors.%s.sizes[%d] needs a positive integer "bytes", '
                                 'a boolean "completed" and, when completed, a number '
                                 '"busbw_GBps"' % (what, lb, i))
    return doc


def size_label(n):
    """A size as nccl-tests users write it: 65536 -> 64KiB, 1572864 -> 1.5MiB."""
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= scale:
            return "%g%s" % (round(n / scale, 2), unit)
    return "%dB" % n


CSV_NEEDED = ("lb", "fct_us", "slowdown", "completed")


def load_csv(path):
    try:
        with open(path, newline="") as f:
            reader = csv.DictReader(f)
            missing = [c for c in CSV_NEEDED if c not in (reader.fieldnames or [])]
            if missing and "busbw_GBps" in (reader.fieldnames or []):
                raise InputError("%s: the --csv of reps-collective-bench; plot its --json "
                                 "instead" % path)
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


def top_tier_share(r):
    """{switch: bytes going up into it} for the top tier of the fabric, from link_bytes."""
    ups = []
    for l in r.get("link_bytes", []):
        a, _, b = l["link"].partition("->")
        b = b.split("#")[0]
        if node_rank(b) > node_rank(a):
            ups.append((b, node_rank(b), l["bytes"]))
    if not ups:
        return {}
    top = max(rank for _, rank, _ in ups)
    share = {}
    for b, rank, n in ups:
        if rank == top:
            share[b] = share.get(b, 0) + n
    return share


def plot_spine_share(plt, runs, out):
    shares = [(name, top_tier_share(r)) for name, r in runs]
    shares = [(name, s) for name, s in shares if s]
    switches = sorted({k for _, s in shares for k in s},
                      key=lambda k: (k.rstrip("0123456789.") , float(
                          "".join(c for c in k if c.isdigit() or c == ".") or 0)))
    fig, ax = plt.subplots(figsize=(max(6.4, 0.35 * len(switches) * len(shares) + 2), 3.6))
    width = 0.8 / len(shares)
    for i, (name, s) in enumerate(shares):
        total = sum(s.values()) or 1
        xs = [j + (i - (len(shares) - 1) / 2) * width for j in range(len(switches))]
        ax.bar(xs, [100.0 * s.get(k, 0) / total for k in switches], width, label=name)
    ax.axhline(100.0 / len(switches), color="k", lw=0.8, ls="--")
    ax.set_xticks(range(len(switches)))
    ax.set_xticklabels(switches, rotation=90 if len(switches) > 16 else 0, fontsize=7)
    ax.set_ylabel("% of upward bytes")
    ax.set_title("bytes going up into each %s (dashed: even share)"
                 % ("core" if switches and switches[0].startswith("core") else "spine"),
                 fontsize=10)
    ax.legend(fontsize=8)
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    plt.close(fig)


def plot_plane_share(plt, runs, out):
    runs = [(name, r["planes"]) for name, r in runs if r.get("planes")]
    fig, ax = plt.subplots(figsize=(max(6.4, 0.6 * len(runs) + 2), 3.6))
    planes = max(len(p) for _, p in runs)
    bottom = [0.0] * len(runs)
    for k in range(planes):
        share = [100.0 * p[k]["share"] if k < len(p) else 0.0 for _, p in runs]
        ax.bar(range(len(runs)), share, 0.6, bottom=bottom, label="plane %d" % k)
        bottom = [b + s for b, s in zip(bottom, share)]
    ax.axhline(100.0 / planes, color="k", lw=0.8, ls="--")
    ax.set_xticks(range(len(runs)))
    ax.set_xticklabels([name for name, _ in runs], rotation=90 if len(runs) > 8 else 0,
                       fontsize=7)
    ax.set_ylabel("% of the bytes the hosts sent")
    ax.set_title("share of each plane (dashed: an even share of plane 0)", fontsize=10)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    plt.close(fig)


def plot_link_heatmap(plt, runs, out):
    runs = [(name, r) for name, r in runs if "link_utilization" in r.get("timeseries", {})]
    fig, axes = plt.subplots(len(runs), 1, figsize=(8, 3.2 * len(runs) + 0.6), squeeze=False)
    for ax, (name, r) in zip(axes[:, 0], runs):
        ts = r["timeseries"]["link_utilization"]
        names = list(ts["series"])

        def up(n):
            a, _, b = n.partition("-")
            return node_rank(b.split("_")[0]) > node_rank(a)
        order = [n for n in names if up(n)] + [n for n in names if not up(n)]
        rows = [[0.0 if v is None else v for v in ts["series"][n]] for n in order]
        t = ts["t_us"]
        extent = (t[0] if t else 0, t[-1] if t else 1, len(order), 0)
        im = ax.imshow(rows, aspect="auto", interpolation="nearest", cmap="viridis", vmin=0,
                       vmax=1, extent=extent)
        nup = sum(1 for n in names if up(n))
        ax.axhline(nup, color="w", lw=1.0)
        if len(order) <= 48:
            ax.set_yticks([i + 0.5 for i in range(len(order))])
            ax.set_yticklabels(order, fontsize=6)
        else:
            ax.set_yticks([nup / 2, nup + (len(order) - nup) / 2])
            ax.set_yticklabels(["uplinks", "downlinks"], fontsize=8)
        ax.set_title("%s: link utilization (uplinks above the white line)" % name, fontsize=10)
        ax.set_xlabel("simulated time [us]")
        fig.colorbar(im, ax=ax, label="fraction of link rate")
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


def as_number(text):
    try:
        return float(text)
    except ValueError:
        return None


def error_bars(stats, nonnegative):
    """The lower and upper error bar lengths of (mean, ci95) points: the 95% interval, cut at
    zero below for a quantity that cannot be negative."""
    lower, upper = [], []
    for s in stats:
        half = s["ci95"] or 0
        upper.append(half)
        lower.append(min(half, max(s["mean"], 0.0)) if nonnegative else half)
    return [lower, upper]


def integer_ticks(values):
    """The x ticks of a varied option: its own values when they are all integers (leaves=2,4,8
    gives ticks 2, 4, 8, not 2.5 or 7.5), None otherwise (matplotlib chooses)."""
    nums = [as_number(v) for v in values]
    if nums and all(n is not None and float(n).is_integer() for n in nums):
        return sorted({int(n) for n in nums})
    return None


def is_nonnegative(summary, metric):
    """Whether a sweep's metric cannot be negative (summary.json says; older summaries: every
    metric utils/sweep.py writes is a time, a ratio of times or a count)."""
    listed = summary["sweep"].get("nonnegative")
    return metric in listed if listed is not None else True


def plot_sweep(plt, summary, metric, out):
    """One metric of a sweep summary: mean and 95% confidence interval per configuration and
    path selector."""
    vary = summary["sweep"]["vary"]
    rows = [r for r in summary["rows"] if metric in r["metrics"]]
    lbs = []
    for r in rows:
        if r["lb"] not in lbs:
            lbs.append(r["lb"])
    unit = rows[0]["metrics"][metric]["unit"]
    fig, ax = plt.subplots(figsize=(7, 4))
    numeric = len(vary) == 1 and all(as_number(v) is not None for v in vary[0]["values"])
    nonnegative = is_nonnegative(summary, metric)
    if numeric:
        name = vary[0]["name"]
        xs_all = [as_number(v) for v in vary[0]["values"]]
        # Selectors side by side around each value, so that their error bars do not hide
        # each other.
        dodge = 0.012 * ((max(xs_all) - min(xs_all)) or 1.0)
        for i, lb in enumerate(lbs):
            shift = (i - (len(lbs) - 1) / 2) * dodge
            pts = sorted((as_number(r["config"][name]), r["metrics"][metric]) for r in rows
                         if r["lb"] == lb)
            ax.errorbar([x + shift for x, _ in pts], [s["mean"] for _, s in pts],
                        yerr=error_bars([s for _, s in pts], nonnegative), marker="o",
                        capsize=3, label=lb)
        ax.set_xlabel(name)
        ticks = integer_ticks(vary[0]["values"])
        if ticks is not None:
            ax.set_xticks(ticks)
            ax.set_xticklabels([str(t) for t in ticks])
    else:
        configs = []
        for r in rows:
            key = ", ".join("%s=%s" % (v["name"], r["config"][v["name"]]) for v in vary)
            if key not in configs:
                configs.append(key)
        width = 0.8 / max(len(lbs), 1)
        for i, lb in enumerate(lbs):
            xs, ys, es = [], [], []
            for r in rows:
                if r["lb"] != lb:
                    continue
                key = ", ".join("%s=%s" % (v["name"], r["config"][v["name"]]) for v in vary)
                xs.append(configs.index(key) + (i - (len(lbs) - 1) / 2) * width)
                ys.append(r["metrics"][metric]["mean"])
                es.append(r["metrics"][metric])
            ax.bar(xs, ys, width, yerr=error_bars(es, nonnegative), capsize=3, label=lb)
        ax.set_xticks(range(len(configs)))
        ax.set_xticklabels(configs or [""], rotation=20, ha="right", fontsize=8)
    ax.set_ylabel("%s [%s]" % (metric, unit))
    ax.set_title("%s: mean and 95%% confidence interval over %d seeds"
                 % (metric, len(summary["sweep"]["seeds"])), fontsize=9)
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
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


def plot_busbw(plt, lines, titles, rates, out):
    """Bus bandwidth against size: lines is [(name, [(bytes, GB/s or None), ...])], None for
    a size that did not complete (a gap in the line, not a zero); rates the line rates in
    GB/s."""
    fig, ax = plt.subplots(figsize=(7, 4.2))
    sizes = sorted({b for _, pts in lines for b, _ in pts})
    top = 0.0
    for name, pts in lines:
        pts = sorted(pts)
        missing = [size_label(b) for b, v in pts if v is None]
        if missing:
            name += ": %s incomplete" % ", ".join(missing)
        ax.plot([b for b, _ in pts], [math.nan if v is None else v for _, v in pts],
                marker="o", label=name)
        top = max([top] + [v for _, v in pts if v is not None])
    for i, rate in enumerate(sorted(set(rates))):
        ax.axhline(rate, color="k" if i == 0 else "0.5", lw=0.8, ls="--",
                   label="line rate (%g Gb/s)" % (rate * 8))
        top = max(top, rate)
    ax.set_xscale("log", base=2)
    ax.set_xticks(sizes)
    ax.set_xticklabels([size_label(b) if i % (len(sizes) // 13 + 1) == 0 else ""
                        for i, b in enumerate(sizes)],
                       rotation=45 if len(sizes) > 8 else 0, fontsize=8)
    ax.minorticks_off()
    # Every size in view, those with no completed point too (autoscaling skips them).
    margin = 2 if len(sizes) == 1 else 1.4
    ax.set_xlim(sizes[0] / margin, sizes[-1] * margin)
    ax.set_ylim(0, top * 1.08 or 1)
    ax.set_xlabel("message size")
    ax.set_ylabel("bus bandwidth [GB/s]")
    ax.set_title("bus bandwidth: %s" % "; ".join(titles), fontsize=10)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    plt.close(fig)


def bench_lines(benches):
    """The lines of busbw.png from [(path, bench JSON)], named by path selector (and by file
    when there are several files), the plot's title parts, the line rates in GB/s and one
    note per path selector with sizes that did not complete."""
    dup = {lb for _, doc in benches for lb in doc["selectors"]} if len(benches) > 1 else set()
    lines, titles, rates, notes = [], [], [], []
    for path, doc in benches:
        config = doc.get("config", {})
        if "operation" in config:
            title = "%s%s%s" % (config["operation"],
                                " (%s)" % config["algorithm"] if "algorithm" in config else "",
                                ", %s ranks" % config["ranks"] if "ranks" in config else "")
            if title not in titles:
                titles.append(title)
        if "linkRate_bps" in config:
            rates.append(config["linkRate_bps"] / 8e9)  # GB/s of 10^9 bytes
        for lb, entry in doc["selectors"].items():
            pts = [(r["bytes"], r["busbw_GBps"] if r["completed"] else None)
                   for r in entry["sizes"]]
            missing = [size_label(b) for b, v in sorted(pts) if v is None]
            if missing:
                notes.append("%s: %s did not complete at %s; drawn as missing points"
                             % (path, lb, ", ".join(missing)))
            lines.append((label(lb, path, dup), pts))
    return lines, titles or ["reps-collective-bench"], rates, notes


def main(argv=None):
    parser = argparse.ArgumentParser(
        description="Plot reps experiment results (JSON from --json, CSV from --csv) as PNGs.",
        epilog="Writes fct_cdf.png, slowdown_cdf.png, link_load.png and ts_<name>.png for "
               "every time series, when the inputs hold the data. From the --json of "
               "reps-collective-bench (one or more files): busbw.png, bus bandwidth in GB/s "
               "against message size on a log2 axis, one line per path selector and file; "
               "sizes that did not complete are gaps, listed in a note on stdout; a dashed "
               "line marks the line rate when the file's config gives linkRate_bps "
               "(e.g. utils/plot.py results/bench.json --out results/plots).")
    parser.add_argument("files", nargs="+", metavar="FILE",
                        help="result files: *.json (summary, sweep summary or "
                             "reps-collective-bench) and/or *.csv (flows)")
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

    runs, flows, sweeps, scaling, fits, benches = [], [], [], [], [], []
    try:
        for path in args.files:
            if path.endswith(".csv"):
                flows += [(lb, path, v) for lb, v in load_csv(path).items()]
            elif path.endswith(".json"):
                doc = load_json(path)
                if "sweep" in doc:
                    sweeps.append((path, doc))
                else:
                    runs += [(r["lb"], path, r) for r in doc["results"]]
                    scaling += doc.get("scaling", [])
                    fits += doc.get("fits", [])
                    if "bench" in doc:
                        benches.append((path, doc["bench"]))
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
        if not named_flows:
            pass
        elif not any(v["fct"] for _, v in named_flows):
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
    if "spine_share" in kinds and any(top_tier_share(r) for _, r in named_runs):
        plot_spine_share(plt, named_runs, target("spine_share"))
    if "plane_share" in kinds and any(r.get("planes") for _, r in named_runs):
        plot_plane_share(plt, named_runs, target("plane_share"))
    if "link_heatmap" in kinds and any("link_utilization" in r.get("timeseries", {})
                                       for _, r in named_runs):
        plot_link_heatmap(plt, named_runs, target("link_heatmap"))
    if "ts" in kinds:
        keys = []
        for _, r in named_runs:
            # Per-link utilization has one series per link: drawn as the heatmap instead.
            keys += [k for k in r.get("timeseries", {})
                     if k not in keys and k != "link_utilization"]
        for key in keys:
            plot_timeseries(plt, named_runs, key, target("ts_" + key))
    if "sweep" in kinds:
        for i, (path, doc) in enumerate(sweeps):
            tag = "" if len(sweeps) == 1 else "%d_" % (i + 1)
            for metric in doc["sweep"]["metrics"]:
                if any(metric in r["metrics"] for r in doc["rows"]):
                    plot_sweep(plt, doc, metric, target("sweep_" + tag + metric))
    if "scaling" in kinds and scaling:
        plot_scaling(plt, scaling, fits, target("scaling"))
    if "busbw" in kinds and benches:
        lines, titles, rates, notes = bench_lines(benches)
        for note in notes:
            print("plot.py: note: " + note)
        plot_busbw(plt, lines, titles, rates, target("busbw"))
    if not written:
        fail("nothing to plot in %s" % ", ".join(args.files))
    for path in written:
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
