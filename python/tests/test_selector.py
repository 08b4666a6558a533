"""Path selectors written in Python: registered by name, run in lb=[...], deterministic, their
errors raised from run(), their handles dead after the run."""

import json
import os
import subprocess
import sys

import pytest

import reps


class RoundRobin(reps.PathSelector):
    """EVs in turn over `paths` EVs; counts what it is told."""

    paths = 8
    instances = []

    def __init__(self):
        super().__init__()
        self.next = 0
        self.kinds = {}
        self.started = False
        RoundRobin.instances.append(self)

    def start(self):
        self.started = True

    def next_entropy(self, retransmission):
        ev = self.entropy_base + self.next % min(self.paths, self.entropy_space)
        self.next += 1
        return ev, self.ROUND_ROBIN

    def feedback(self, ev, kind, rtt, last_hop):
        assert self.entropy_base <= ev < self.entropy_base + self.entropy_space
        assert rtt >= 0
        self.kinds[kind] = self.kinds.get(kind, 0) + 1

    def counters(self):
        return {"good": self.kinds.get(self.GOOD, 0)}


class Random(reps.PathSelector):
    def next_entropy(self, retransmission):
        return self.random_entropy()


reps.register_selector("test-rr", RoundRobin)
reps.register_selector("test-random", Random)


def test_registered_and_runs(tiny):
    RoundRobin.instances.clear()
    assert "test-rr" in reps.registered_selectors()
    results = reps.Experiment(**tiny).run(lb=["ops", "test-rr"])
    r = results["test-rr"]
    assert r.lb == "test-rr"
    assert r.completed == 4 and r.drops == 0
    # One object per sending queue pair, started, told of every packet's outcome.
    assert len(RoundRobin.instances) == 4
    assert all(s.started for s in RoundRobin.instances)
    assert sum(s.next for s in RoundRobin.instances) == r.packets
    assert sum(s.kinds.get(s.GOOD, 0) for s in RoundRobin.instances) > 0


def test_same_seed_same_result_and_rngrun_differs(tiny):
    def run(rng):
        return json.loads(reps.Experiment(**tiny, RngRun=rng).run(lb="test-random").to_json())

    a, b, c = run(1), run(1), run(2)
    for r in (a, b, c):  # the host's time
        for k in ("wall_s", "wall_us_per_link_packet"):
            r["results"][0].pop(k)
    assert a == b
    assert a["results"] != c["results"]


def test_factory_variant_and_decorator(tiny):
    @reps.register_selector("test-rr2")
    class Two(RoundRobin):
        paths = 2

    assert Two.paths == 2  # the decorator returns the class
    RoundRobin.instances.clear()
    reps.Experiment(**tiny).run(lb="test-rr2")
    assert RoundRobin.instances and all(isinstance(s, Two) for s in RoundRobin.instances)

    def make():
        s = RoundRobin()
        s.paths = 1
        return s

    reps.register_selector("test-rr1", make)
    RoundRobin.instances.clear()
    reps.Experiment(**tiny).run(lb="test-rr1")
    assert len(RoundRobin.instances) == 4


def test_handle_detached_after_run(tiny):
    RoundRobin.instances.clear()
    reps.Experiment(**tiny).run(lb="test-rr")
    s = RoundRobin.instances[0]
    assert not s.attached
    with pytest.raises(RuntimeError, match="test-rr"):
        s.random_entropy()
    with pytest.raises(RuntimeError):
        s.entropy_base


def test_exception_in_selector_raises_from_run(tiny):
    class Failing(reps.PathSelector):
        calls = 0

        def next_entropy(self, retransmission):
            Failing.calls += 1
            if Failing.calls == 5:
                raise ZeroDivisionError("selector gave up")
            return self.entropy_base

    reps.register_selector("test-failing", Failing)
    with pytest.raises(ZeroDivisionError, match="selector gave up"):
        reps.Experiment(**tiny).run(lb=["test-failing", "ecmp"])
    assert Failing.calls == 5  # no Python call after the exception
    # The next run is fine.
    assert reps.Experiment(**tiny).run(lb="test-rr")["test-rr"].completed == 4


@pytest.mark.parametrize("answer, message", [
    (lambda s: s.entropy_base + s.entropy_space, r"returned 65536; allowed: an EV in \[0, 65536\)"),
    (lambda s: -1, r"returned -1; allowed: an EV in"),
    (lambda s: "seven", "next_entropy"),
    (lambda s: (s.entropy_base, 99), "choice"),
])
def test_bad_answer_is_an_error(tiny, answer, message):
    class Bad(reps.PathSelector):
        def next_entropy(self, retransmission):
            return answer(self)

    reps.register_selector("test-bad", Bad)
    with pytest.raises((ValueError, TypeError), match=message):
        reps.Experiment(**tiny).run(lb="test-bad")


def test_bad_counters_is_an_error(tiny):
    class BadCounters(Random):
        def counters(self):
            return {"x": -3}

    reps.register_selector("test-badcounters", BadCounters)
    with pytest.raises(ValueError, match="counters\\(\\) has the entry 'x': -3; allowed"):
        reps.Experiment(**tiny).run(lb="test-badcounters")


@pytest.mark.parametrize("name, message", [
    ("reps", "module"),
    ("ops", "module"),
    ("", "name"),
    ("has space", "name"),
    ("a/b", "name"),
])
def test_refused_names(name, message):
    with pytest.raises(ValueError, match=message):
        reps.register_selector(name, Random)


def test_refused_factories():
    class NotASelector:
        def next_entropy(self, retransmission):
            return 0

    with pytest.raises(TypeError, match="not a subclass of reps.PathSelector"):
        reps.register_selector("test-x", NotASelector)

    class NoMethod(reps.PathSelector):
        pass

    with pytest.raises(TypeError, match="next_entropy"):
        reps.register_selector("test-x", NoMethod)
    with pytest.raises(TypeError):
        reps.register_selector("test-x", 42)


def test_factory_returning_wrong_object(tiny):
    reps.register_selector("test-wrong", lambda: object())
    with pytest.raises((TypeError, ValueError), match="test-wrong"):
        reps.Experiment(**tiny).run(lb="test-wrong")


def test_unknown_name_in_lb_names_the_registered(tiny):
    with pytest.raises(ValueError, match="test-rr"):
        reps.Experiment(**tiny).run(lb="test-nope")


def test_python_twin_of_rrskip_matches_cpp(examples_dir, tmp_path):
    """examples/python/custom-selector.py's pyrrskip gives the C++ rrskip's results."""
    source = os.environ.get("REPS_SOURCE_DIR")
    script = os.path.join(source or "", "examples", "python", "custom-selector.py")
    if not os.path.exists(script):
        pytest.skip("REPS_SOURCE_DIR does not hold examples/python/custom-selector.py")
    cpp_json, py_json = tmp_path / "cpp.json", tmp_path / "py.json"
    subprocess.run([os.path.join(examples_dir, "reps-custom-selector"), "--lb=rrskip",
                    "--quiet", "--json=%s" % cpp_json], check=True, capture_output=True)
    subprocess.run([sys.executable, script, "--lb=pyrrskip",
                    "--json=%s" % py_json], check=True, capture_output=True,
                   env=dict(os.environ))
    cpp = json.loads(cpp_json.read_text())["results"]
    py = json.loads(py_json.read_text())["results"]
    assert len(cpp) == len(py) == 1
    assert cpp[0].pop("lb") == "rrskip" and py[0].pop("lb") == "pyrrskip"
    for r in (cpp[0], py[0]):  # the host's time; the script schedules one event of its own
        r.pop("wall_s")
        r.pop("wall_us_per_link_packet")
        r.pop("simulator_events")
    assert cpp == py
