"""reps.Config and reps.Simulator: the command line's checks of attribute defaults, and an
empty simulation."""

import pytest

import reps


def test_set_default_checked():
    with pytest.raises(ValueError, match="ns3::RepsPathSelector has no attribute 'Nope'"):
        reps.Config.SetDefault("ns3::RepsPathSelector::Nope", 1)
    with pytest.raises(ValueError, match="BufferSize"):
        reps.Config.SetDefault("ns3::RepsPathSelector::BufferSize", "many")
    reps.Config.SetDefault("ns3::RepsPathSelector::BufferSize", 16)
    reps.Config.Reset()


def test_set_and_connect_need_a_path():
    with pytest.raises(ValueError, match="not a path to an attribute"):
        reps.Config.Set("Mtu", 1500)
    with pytest.raises(ValueError, match="no object matches /NodeList/99"):
        reps.Config.Set("/NodeList/99/Nope", 1)
    assert reps.Config.ConnectWithoutContext("/NodeList/*/DeviceList/*/PhyTxBegin", print) == 0


def test_simulator():
    with pytest.raises(ValueError, match="must be >= 0"):
        reps.Simulator.Stop(-1)
    reps.Simulator.Stop(1e-6)
    reps.Simulator.Run()
    assert reps.Simulator.Now() == pytest.approx(1e-6)
    reps.Simulator.Destroy()
    assert reps.Simulator.Now() == 0
