"""Trace hooks: Python callables connected to the trace sources of what a run builds, and an
exception raised in one."""

import pytest

import reps


def test_hook_receives_events(tiny):
    exp = reps.Experiment(**tiny, failedLinks=1, failAt="5us")
    freezes, sent, chosen = [], [], []
    exp.connect("PathSelector/FreezeStarted", freezes.append)
    exp.connect("QueuePair/PacketSent", lambda where, psn, ev, rtx: sent.append((where, psn)),
                context=True)
    exp.connect("PathSelector/EntropyChosen", lambda ev, why, rtx: chosen.append(ev))
    results = exp.run(lb=["ecmp", "reps"])
    # Every data packet the hosts sent, in both runs, went through the hook.
    assert len(sent) == sum(r.packets for r in results)
    assert len(chosen) == len(sent)
    assert {where for where, _ in sent} == {"QueuePair/%d" % i for i in range(4)}
    # Only REPS freezes; the hook sees as many freezes as the results count.
    assert len(freezes) == results["reps"].freezes
    assert all(isinstance(t, float) and t > 0 for t in freezes)


def test_hook_on_config_path(tiny):
    changes = []
    exp = reps.Experiment(**tiny, failedLinks=1, failAt="5us", failFor="10us")
    exp.connect("Fabric/LinkState", lambda link, up: changes.append(up))
    exp.run(lb="reps")
    assert changes[:2] == [False, True]


def test_exception_in_hook_propagates(tiny):
    calls = []

    def hook(ev, why, rtx):
        calls.append(ev)
        if len(calls) == 10:
            raise KeyError("stop here")

    exp = reps.Experiment(**tiny)
    exp.connect("PathSelector/EntropyChosen", hook)
    with pytest.raises(KeyError, match="stop here"):
        exp.run(lb=["reps", "ecmp"])
    # The run stopped at the exception: no hook ran after it, and no second run started.
    assert len(calls) == 10
    # The interpreter and ns-3 are fine: the next run works.
    assert reps.Experiment(**tiny).run(lb="reps")["reps"].completed == 4


def test_bad_targets(tiny):
    exp = reps.Experiment(**tiny)
    with pytest.raises(ValueError, match="ns3::PathSelector has no trace source 'Nope'"):
        exp.connect("PathSelector/Nope", print)
    with pytest.raises(ValueError, match="unknown target 'Switch'"):
        exp.connect("Switch/Drop", print)
    with pytest.raises(ValueError, match="names no trace source"):
        exp.connect("QueuePair", print)


def test_every_callback_type_is_known():
    callbacks = reps.trace_callbacks()
    assert "ns3::PathSelector::EntropyChosenTracedCallback" in callbacks
    assert "ns3::RepsPathSelector::FreezeTracedCallback" in callbacks
