"""reps: load balancing in AI fabrics, for ns-3 (Python bindings).

    import reps
    exp = reps.Experiment(leaves=2, hostsPerLeaf=2, spines=2, flowSize="256KiB")
    results = exp.run(lb=["ecmp", "reps"])
    print(results)                      # the table reps-lb-comparison prints
    results["reps"].fct_us.p99          # the fields of reps-lb-comparison --json
    results.to_json()

Every option of reps-lb-comparison is a keyword of Experiment, by the same name, with the
same checks and messages (ValueError). A script that builds its own fabric, transport and
workload step by step uses the helpers of reps.script (ClosFabricHelper, RdmaHelper,
WorkloadHelper, RdmaFlowLauncher, WorkloadRunner), exported here too. The manual's chapter
"Python" (doc/reps-python.rst) describes the API and its limits.
"""

import json as _json

from . import _reps
from .selector import PathSelector, register_selector, registered_selectors

__all__ = ["Experiment", "Results", "Record", "Config", "Simulator", "option_names",
           "trace_callbacks", "PathSelector", "register_selector", "registered_selectors"]


def _text(name, value):
    """An option's value as the command line writes it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float, str)):
        return str(value) if not isinstance(value, float) else repr(value)
    if isinstance(value, (list, tuple)):
        return ",".join(_text(name, v) for v in value)
    raise ValueError("--%s: %r is not an option value; allowed: a string, a number, a "
                     "boolean or a list of them" % (name, value))


class Record:
    """A JSON object with attribute access: r.fct_us.p99 is r["fct_us"]["p99"]."""

    def __init__(self, data):
        self._data = data

    def __getattr__(self, name):
        try:
            return _wrap(self._data[name])
        except KeyError:
            raise AttributeError("no field %r; fields: %s"
                                 % (name, ", ".join(sorted(self._data)))) from None

    def __getitem__(self, key):
        return _wrap(self._data[key])

    def __contains__(self, key):
        return key in self._data

    def __iter__(self):
        return iter(self._data)

    def __dir__(self):
        return sorted(set(self._data) | set(super().__dir__()))

    def keys(self):
        return self._data.keys()

    def to_dict(self):
        """The fields as plain dicts and lists (what json.loads gives)."""
        return self._data

    def __eq__(self, other):
        return isinstance(other, Record) and self._data == other._data

    def __repr__(self):
        return "Record(%s)" % ", ".join("%s=%r" % (k, v) for k, v in self._data.items()
                                        if not isinstance(v, (dict, list)))


def _wrap(value):
    if isinstance(value, dict):
        return Record(value)
    if isinstance(value, list):
        return [_wrap(v) for v in value]
    return value


class Results:
    """What Experiment.run() gives: the JSON of reps-lb-comparison --json.

    results.config is the configuration (every option); results.results the results, one per
    path selector in the order run; results["reps"] the result of one. str(results) is the
    setup line and table the example prints.
    """

    def __init__(self, json_text, table):
        self._json = json_text
        self._data = _json.loads(json_text)
        self._table = table

    @property
    def config(self):
        return Record(self._data["config"])

    @property
    def results(self):
        return [Record(r) for r in self._data["results"]]

    def __getitem__(self, lb):
        if isinstance(lb, int):
            return Record(self._data["results"][lb])
        for r in self._data["results"]:
            if r["lb"] == lb:
                return Record(r)
        raise KeyError("no result for %r; run: %s"
                       % (lb, ", ".join(r["lb"] for r in self._data["results"])))

    def __iter__(self):
        return iter(self.results)

    def __len__(self):
        return len(self._data["results"])

    def to_dict(self):
        """The JSON as plain dicts and lists."""
        return self._data

    def to_json(self, indent=2):
        """The JSON text, as reps-lb-comparison --json writes it (indent=2)."""
        if indent == 2:
            return self._json
        return _json.dumps(self._data, indent=indent)

    def __str__(self):
        return self._table

    def __repr__(self):
        return "Results(%s)" % ", ".join(
            "%s: %d/%d flows, mean FCT %.3g us" % (r["lb"], r["completed"], r["flows"],
                                                   r["fct_us"]["mean"] or 0)
            for r in self._data["results"])


class Experiment:
    """The experiment of reps-lb-comparison: one fabric and workload, run per path selector.

    Experiment(**options) takes every option of reps-lb-comparison by its name (leaves=4,
    flowSize="1MiB", lb="ecmp,reps", RngRun=3, ...), also ns-3 attribute defaults
    ("ns3::RepsPathSelector::FreezeDuration": "20us", given through a dict) and ns-3 global
    values (RngSeed). A refused value raises ValueError with the command line's message.
    """

    def __init__(self, **options):
        self._options = [(name, _text(name, value)) for name, value in options.items()]
        self._core = _reps.Experiment(self._options)

    def run(self, lb=None):
        """Run every path selector of lb (a list or comma list; default: the lb option)."""
        if isinstance(lb, str):
            lb = [s.strip() for s in lb.split(",")]
        json_text, table = self._core.run(list(lb or []))
        return Results(json_text, table)

    def connect(self, target, fn, context=False):
        """Connect fn, in every run, to a trace source of what the run builds.

        target: "QueuePair/NAME", "PathSelector/NAME", "CongestionControl/NAME" (those of every
        sending queue pair; a selector without the source is skipped), "Fabric/NAME", or an
        ns-3 Config path ("/NodeList/*/.../NAME"). fn gets the trace's arguments (a Time in
        seconds), after the object's name when context=True. An exception raised by fn stops
        the run and is raised again by run().
        """
        self._core.connect(target, fn, bool(context))
        return self

    @property
    def config(self):
        """The configuration the options give: every option, defaults included."""
        return Record(_json.loads(self._core.config())["config"])

    @property
    def options(self):
        """The options given, as the command line would take them."""
        return dict(self._options)


def option_names():
    """The names of every option of Experiment, in the order of --help."""
    return _reps.Experiment.option_names()


def trace_callbacks():
    """The callback types of the trace sources a Python callable can be connected to."""
    return _reps.trace_callbacks()


class Config:
    """ns-3's Config: attribute defaults and values by path, trace hooks by path."""

    @staticmethod
    def SetDefault(path, value):
        """A default for every object made from now on ("ns3::Type::Attribute")."""
        _reps.config_set_default(path, _text(path, value))

    @staticmethod
    def Set(path, value):
        """Set an attribute of every object the path matches ("/NodeList/0/.../Name")."""
        _reps.config_set(path, _text(path, value))

    @staticmethod
    def Reset():
        """ns-3's attribute defaults and global values as they were before any change."""
        _reps.config_reset()

    @staticmethod
    def Connect(path, fn):
        """Connect fn(context, *args) to the trace source of every object the path matches;
        returns how many were connected."""
        return _reps.config_connect(path, fn, True)

    @staticmethod
    def ConnectWithoutContext(path, fn):
        """Connect fn(*args) to the trace source of every object the path matches."""
        return _reps.config_connect(path, fn, False)


class Simulator:
    """ns-3's Simulator. Run() raises again the exception of a trace hook."""

    @staticmethod
    def Run():
        _reps.simulator_run()

    @staticmethod
    def Stop(seconds=None):
        """Stop now (None) or after a delay in seconds."""
        if seconds is None:
            _reps.simulator_stop_now()
        else:
            _reps.simulator_stop(float(seconds))

    @staticmethod
    def Now():
        """The simulated time, in seconds."""
        return _reps.simulator_now()

    @staticmethod
    def Destroy():
        """Free every simulated object; handles made before raise from now on."""
        _reps.simulator_destroy()


# The helpers of a research script (reps.script), as reps.ClosFabricHelper, ...
from .script import *  # noqa: E402,F401,F403
from .script import __all__ as _script_all  # noqa: E402

__all__ += _script_all
