"""reps.Experiment: the options, the results, bit-identity with reps-lb-comparison, determinism
and the isolation of one run's ns-3 state from the next."""

import json
import os
import subprocess
import sys

import pytest

import reps

# Fields that measure the machine, not the simulation, and the output paths
# (test/compare-reference.py ignores the same).
IGNORED = {"wall_s", "wall_us_per_link_packet", "json", "csv"}


def strip(value):
    if isinstance(value, dict):
        return {k: strip(v) for k, v in value.items() if k not in IGNORED}
    if isinstance(value, list):
        return [strip(v) for v in value]
    return value


def test_issue_command():
    """The command of the issue prints the example's table."""
    proc = subprocess.run(
        [sys.executable, "-c",
         "import reps; print(reps.Experiment(leaves=2, hostsPerLeaf=2, spines=2, "
         "flowSize='256KiB').run(lb=['ecmp','reps']))"],
        capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("fabric: 2 tiers, 4 hosts")
    assert any(line.startswith("ecmp ") and "4/4" in line for line in lines)
    assert any(line.startswith("reps ") and "4/4" in line for line in lines)


def test_results_have_the_json_fields(tiny):
    results = reps.Experiment(**tiny).run(lb=["ecmp", "reps"])
    assert [r.lb for r in results] == ["ecmp", "reps"]
    reps_result = results["reps"]
    assert reps_result.flows == 4 and reps_result.completed == 4
    assert reps_result.fct_us.p99 >= reps_result.fct_us.p50 > 0
    for field in ("drops", "trims", "retransmissions", "ecn_marks", "freezes", "max_queue_bytes",
                  "slowdown", "link_bytes", "sim_time_us", "packets"):
        assert field in reps_result, field
    assert results.config.leaves == 2 and results.config.lb == "ecmp,reps"
    assert json.loads(results.to_json()) == results.to_dict()
    with pytest.raises(AttributeError, match="no field 'nosuch'"):
        reps_result.nosuch
    with pytest.raises(KeyError, match="no result for 'ops'"):
        results["ops"]


def test_values_of_python_types(tiny):
    """Booleans, numbers and lists are written as the command line writes them."""
    config = reps.Experiment(**tiny, trim=True, load=0.25, lb=["ops", "reps"], RngRun=4).config
    assert config.trim is True and config.load == 0.25 and config.lb == "ops,reps"
    assert config.RngRun == 4


def test_same_as_command_line(tiny, examples_dir, tmp_path):
    """Bit for bit the JSON of reps-lb-comparison --json with the same options and run."""
    options = dict(tiny, degradedLinks=1, failedLinks=1, failAt="20us", RngRun=3,
                   sampleInterval="10us", lb="ecmp,ops,reps")
    out = tmp_path / "cli.json"
    args = ["--%s=%s" % (k, reps._text(k, v)) for k, v in options.items()]
    subprocess.run([os.path.join(examples_dir, "reps-lb-comparison")] + args +
                   ["--json=%s" % out], check=True, stdout=subprocess.DEVNULL, timeout=120)
    cli = strip(json.loads(out.read_text()))
    py = strip(reps.Experiment(**options).run().to_dict())
    assert py == cli


def test_deterministic_and_isolated(tiny):
    """Two runs with the same options agree; a run with other options and defaults in between
    leaves nothing behind (Config::Reset between experiments)."""
    first = strip(reps.Experiment(**tiny).run(lb=["ops", "reps"]).to_dict())
    other = dict(tiny, RngRun=7, ecnKmin=5, ecnKmax=10, trim=True)
    other["ns3::RepsPathSelector::FreezeDuration"] = "3us"
    changed = strip(reps.Experiment(**other).run(lb=["ops", "reps"]).to_dict())
    again = strip(reps.Experiment(**tiny).run(lb=["ops", "reps"]).to_dict())
    assert first == again
    assert changed["results"] != first["results"]
    assert again["config"]["RngRun"] == 1


def test_run_number_changes_results(tiny):
    a = reps.Experiment(**dict(tiny, RngRun=1, flowSize="1MiB")).run(lb="ecmp")
    b = reps.Experiment(**dict(tiny, RngRun=2, flowSize="1MiB")).run(lb="ecmp")
    assert strip(a.to_dict()["results"]) != strip(b.to_dict()["results"])


def test_option_names():
    names = reps.option_names()
    assert names[0] == "lb" and "flowSize" in names and "RngRun" in names


def test_json_and_csv_options_write_files(tiny, tmp_path):
    results = reps.Experiment(**tiny, json=str(tmp_path / "r.json"),
                              csv=str(tmp_path / "r.csv")).run(lb="reps")
    assert strip(json.loads((tmp_path / "r.json").read_text())) == strip(results.to_dict())
    assert (tmp_path / "r.csv").read_text().startswith("lb,id,src,dst")
