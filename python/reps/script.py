"""The helpers of a research script, for Python: what examples/reps-research-script.cc does
with ClosFabricHelper, RdmaHelper, WorkloadHelper, RdmaFlowLauncher and WorkloadRunner, step
by step, with the same results.

    import reps
    fabric = reps.ClosFabricHelper(Leaves=4, HostsPerLeaf=4, Spines=4).build()
    rdma = reps.RdmaHelper()
    rdma.set_path_selector("reps")
    rdma.install(fabric)
    workload = reps.WorkloadHelper(fabric.n_hosts)
    flows = workload.permutation("1MiB")
    launcher = reps.RdmaFlowLauncher(fabric, rdma)
    launcher.prepare(flows)
    runner = reps.WorkloadRunner(launcher)
    runner.schedule(flows)
    stats = runner.run(time_limit="1s")
    print(stats.fct_summary_us().mean)
    reps.Simulator.Destroy()

The classes are those of the core (reps._reps); this module adds what is written in Python.
The trace hooks get an EV's feedback kind and choice as the integers reps.PathSelector names
(reps.PathSelector.GOOD, ECN, NACK, LOST; FIXED, RANDOM, ...).
The manual's chapter "Python", section "Writing a script step by step", describes them.
"""

import math as _math

from . import _reps

Time = _reps.Time
FlowSpec = _reps.FlowSpec
FlowRecord = _reps.FlowRecord
SampleSummary = _reps.SampleSummary
ClosFabricHelper = _reps.ClosFabricHelper
ClosFabric = _reps.ClosFabric
FailureInjector = _reps.FailureInjector
RdmaHelper = _reps.RdmaHelper
WorkloadHelper = _reps.WorkloadHelper
RdmaFlowLauncher = _reps.RdmaFlowLauncher
QueuePair = _reps.QueuePair
ObjectHandle = _reps.ObjectHandle
WorkloadRunner = _reps.WorkloadRunner
FlowStats = _reps.FlowStats

__all__ = ["Time", "FlowSpec", "FlowRecord", "SampleSummary", "ClosFabricHelper", "ClosFabric",
           "FailureInjector", "RdmaHelper", "WorkloadHelper", "RdmaFlowLauncher", "QueuePair",
           "ObjectHandle", "WorkloadRunner", "FlowStats", "RngSeedManager", "rate_bps"]


def rate_bps(rate):
    """A rate ("25Gbps", or an int in bit/s) in bit/s, read as the helpers read it."""
    return _reps.rate_bps(rate)


class RngSeedManager:
    """ns-3's RngSeedManager: the run number (--RngRun) and the seed (--RngSeed)."""

    @staticmethod
    def SetRun(run):
        _reps.rng_set_run(run)

    @staticmethod
    def GetRun():
        return _reps.rng_get_run()

    @staticmethod
    def SetSeed(seed):
        _reps.rng_set_seed(seed)

    @staticmethod
    def GetSeed():
        return _reps.rng_get_seed()


def _run(self, time_limit=None):
    """Run the simulation until every flow has completed, or for at most time_limit (a
    reps.Time, "1s" or seconds; None: no limit); returns the statistics (self.stats).
    Simulator.Destroy() is the script's to call, once it has read what it needs."""
    from . import Simulator
    self.stop_when_all_completed()
    if time_limit is not None:
        _reps.simulator_stop_after(time_limit)
    Simulator.Run()
    return self.stats


WorkloadRunner.run = _run


def _number(value):
    """A statistic for JSON: NaN (an empty sample) as None."""
    return None if isinstance(value, float) and _math.isnan(value) else value


def _summary_to_dict(self):
    return {k: _number(getattr(self, k)) for k in ("count", "mean", "min", "p50", "p99", "max")}


def _summary_repr(self):
    return "SampleSummary(%s)" % ", ".join("%s=%r" % kv for kv in self.to_dict().items())


SampleSummary.to_dict = _summary_to_dict
SampleSummary.__repr__ = _summary_repr


def _record_to_dict(self):
    """The record as plain values: times in microseconds, None where the flow did not
    complete."""
    f = self.flow
    return {"id": f.id, "src": f.src, "dst": f.dst, "bytes": f.bytes, "start_us": f.start.us,
            "tag": f.tag, "completed": self.completed, "ideal_us": self.ideal.us,
            "finished_us": self.finished.us if self.completed else None,
            "fct_us": self.fct.us if self.completed else None,
            "slowdown": self.slowdown if self.completed else None}


def _record_repr(self):
    return "FlowRecord(%s)" % ", ".join("%s=%r" % kv for kv in self.to_dict().items())


FlowRecord.to_dict = _record_to_dict
FlowRecord.__repr__ = _record_repr


def _stats_to_dict(self):
    """Everything the statistics hold, as plain values (a copy that outlives the
    simulation): counts, the FCT (us) and slowdown summaries, and one dict per flow."""
    return {"flows": self.flow_count, "completed": self.completed_count,
            "fct_us": self.fct_summary_us().to_dict(),
            "slowdown": self.slowdown_summary().to_dict(),
            "records": [r.to_dict() for r in self.records]}


def _stats_column(self, name):
    """One field of every flow's record (a key of FlowRecord.to_dict()), as a list."""
    return [r[name] for r in (r.to_dict() for r in self.records)]


FlowStats.to_dict = _stats_to_dict
FlowStats.column = _stats_column
