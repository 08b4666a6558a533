#!/usr/bin/env python3
"""Checks a distributed run against the sequential one.

Runs PROGRAM (an example built on the experiment layer, e.g. reps-lb-comparison, from an ns-3
tree configured with --enable-mpi) once sequentially (--systems=1) and once on N MPI ranks
(mpirun -np N ... --systems=N), then checks that:

- the partition is the documented one: every host on a rank, the hosts of a leaf (2 tiers) or
  pod (3 tiers) together, and as many links between ranks, all remote channels, as the rule
  gives (the line "MPI: ..." printed by rank 0);
- rank 0 wrote the JSON and CSV of the sequential run: the same flows and bytes, the same
  completion times to the nanosecond (or within --tolerance-ns, reported per flow), the same
  counters; only wall-clock fields and --systems differ.

Usage: check-mpi.py [--np N] [--tolerance-ns NS] PROGRAM [ARGS...]
As root, Open MPI's mpirun needs OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1: the
script sets them. Exit status 0 when every check passed.
"""

import argparse
import csv
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

IGNORED = {"wall_s", "wall_us_per_link_packet", "simulator_events", "json", "csv", "systems",
           "quiet"}


def strip(value):
    if isinstance(value, dict):
        return {k: strip(v) for k, v in value.items() if k not in IGNORED}
    if isinstance(value, list):
        return [strip(v) for v in value]
    return value


def expected_cut(config, ranks):
    """Links between ranks under ClosFabricHelper's rule (one link per pair of switches; every
    plane is cut as plane 0)."""
    planes = config.get("planes", 1)
    if config["tiers"] == 2:
        leaves, spines = config["leaves"], config["spines"]
        return planes * sum(1 for leaf in range(leaves) for spine in range(spines)
                            if leaf * ranks // leaves != spine % ranks)
    pods, aggs, cores = config["pods"], config["spines"], config["cores"]
    per_agg = cores // aggs
    return planes * sum(1 for pod in range(pods) for agg in range(aggs)
                        for core in range(agg * per_agg, (agg + 1) * per_agg)
                        if pod * ranks // pods != core % ranks)


def run(cmd, env):
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          env=env, timeout=3600)
    if proc.returncode != 0:
        sys.stdout.write(proc.stdout[-4000:])
        raise SystemExit(f"check-mpi: FAIL: {' '.join(cmd)} exited with {proc.returncode}")
    return proc.stdout


def read_csv(path):
    with open(path, newline="") as f:
        return {(row["lb"], int(row["id"])): row for row in csv.DictReader(f)}


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--np", type=int, default=2, help="MPI ranks (default 2)")
    parser.add_argument("--tolerance-ns", type=float, default=0.0,
                        help="largest difference of a flow's completion time (default 0)")
    parser.add_argument("--mpirun", default="mpirun", help="the MPI launcher")
    parser.add_argument("program")
    parser.add_argument("args", nargs=argparse.REMAINDER)
    a = parser.parse_args()
    if a.np < 2:
        parser.error("--np must be at least 2")
    mpirun = shutil.which(a.mpirun)
    if not mpirun:
        raise SystemExit(f"check-mpi: FAIL: no {a.mpirun} (Debian: openmpi-bin)")
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_rmaps_base_oversubscribe="1")
    tmp = tempfile.mkdtemp(prefix="reps-check-mpi-")
    try:
        out = {}
        for name, prefix, extra in (("sequential", [], ["--systems=1", "--quiet"]),
                                    ("mpi", [mpirun, "-np", str(a.np)],
                                     [f"--systems={a.np}"])):
            json_path = os.path.join(tmp, name + ".json")
            csv_path = os.path.join(tmp, name + ".csv")
            out[name] = run(prefix + [a.program] + a.args + extra +
                            [f"--json={json_path}", f"--csv={csv_path}"], env)
            with open(json_path) as f:
                out[name + ".json"] = json.load(f)
            out[name + ".csv"] = read_csv(csv_path)
        seq, par = out["sequential.json"], out["mpi.json"]
        failures = []

        # The partition, as rank 0 printed it.
        m = re.search(r"MPI: (\d+) ranks, hosts per rank ([\d ]+), (\d+) links between ranks "
                      r"\(remote channels\), lookahead (\S+)", out["mpi"])
        if not m:
            failures.append("rank 0 printed no 'MPI: ...' partition line")
        else:
            hosts = [int(h) for h in m.group(2).split()]
            config = seq["config"]
            if int(m.group(1)) != a.np or len(hosts) != a.np:
                failures.append(f"{m.group(1)} ranks, expected {a.np}")
            if sum(hosts) != config["hosts"] or min(hosts) == 0:
                failures.append(f"hosts per rank {hosts} do not cover {config['hosts']} hosts")
            cut = expected_cut(config, a.np)
            if int(m.group(3)) != cut:
                failures.append(f"{m.group(3)} links between ranks, the partition gives {cut}")
            print(f"check-mpi: partition: hosts per rank {hosts}, {m.group(3)} remote "
                  f"channels, lookahead {m.group(4)}")

        # The flows, to the nanosecond.
        sflows, pflows = out["sequential.csv"], out["mpi.csv"]
        if set(sflows) != set(pflows):
            failures.append(f"flows differ: {len(sflows)} sequential, {len(pflows)} on MPI")
        worst, worst_rel, total, differ = 0.0, 0.0, 0.0, 0
        for key in sorted(set(sflows) & set(pflows)):
            s, p = sflows[key], pflows[key]
            for col in ("src", "dst", "bytes", "start_us", "completed"):
                if s[col] != p[col]:
                    failures.append(f"flow {key}: {col} {s[col]} sequential, {p[col]} on MPI")
            if s["end_us"] and p["end_us"]:
                diff = abs(float(s["end_us"]) - float(p["end_us"])) * 1000.0
                differ += diff > 0.5
                total += diff
                worst = max(worst, diff)
                worst_rel = max(worst_rel, diff / (float(s["fct_us"]) * 1000.0))
        print(f"check-mpi: {len(sflows)} flows, {differ} complete at another time; largest "
              f"difference {worst:.0f} ns ({100 * worst_rel:.2f}% of a flow's FCT), mean "
              f"{total / max(1, len(sflows)):.1f} ns")
        if worst > a.tolerance_ns:
            failures.append(f"a flow completes {worst:.3f} ns apart (tolerance "
                            f"{a.tolerance_ns} ns)")

        # Everything else the JSON holds.
        if a.tolerance_ns == 0 and strip(seq) != strip(par):
            for sr, pr in zip(seq["results"], par["results"]):
                for k in sorted(set(strip(sr)) | set(strip(pr))):
                    if strip(sr).get(k) != strip(pr).get(k):
                        failures.append(f"{sr['lb']}: {k} differs: "
                                        f"{str(strip(sr).get(k))[:200]} sequential, "
                                        f"{str(strip(pr).get(k))[:200]} on MPI")
        for f in failures:
            print(f"check-mpi: FAIL: {f}")
        if failures:
            return 1
        walls = [(r["lb"], r["wall_s"]) for r in seq["results"]]
        pwalls = {r["lb"]: r["wall_s"] for r in par["results"]}
        for lb, wall in walls:
            print(f"check-mpi: {lb}: wall {wall:.3f} s sequential, {pwalls[lb]:.3f} s on "
                  f"{a.np} ranks")
        print(f"check-mpi: PASS: {a.np} ranks give the sequential results")
        return 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
