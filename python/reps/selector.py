"""Path selectors written in Python.

    import reps

    @reps.register_selector("pyops")
    class PyOps(reps.PathSelector):
        def next_entropy(self, retransmission):
            return self.random_entropy()

    reps.Experiment(lb="ops,pyops").run()

A subclass of reps.PathSelector is registered under a short name; lb=[...], --lb of the
experiment and every helper that takes a path selector by name or TypeId then find it like
one of the module's ("ns3::PythonPathSelector::<name>"). The simulation makes a new object for
each connection (each queue pair's start) by calling the class, or the factory given instead,
with no argument, and calls its methods:

    next_entropy(self, retransmission)      required: the EV of the next packet, or
                                            (EV, choice) with choice one of the constants
                                            FIXED, RANDOM (the default), EXPLORE, RECYCLED,
                                            FROZEN, ROUND_ROBIN
    feedback(self, ev, kind, rtt, last_hop) what came back for an EV: kind GOOD, ECN, NACK or
                                            LOST, rtt in seconds (0 if unknown), last_hop for
                                            a NACK of a packet trimmed at the last hop
    timeout(self)                           the connection's retransmission timer fired
    probe_reply(self, ev, rtt)              the reply to send_probe(ev)
    counters(self)                          a dict of the selector's own counters (name: int)
    start(self)                             after __init__, before the first packet

and gives it random_entropy(), random_integer(max) (from the selector's ns-3 random stream:
RngRun and AssignStreams govern them, so use them rather than Python's random module),
send_probe(ev), and entropy_base, entropy_space, planes, base_rtt, rto (seconds),
bdp_packets, trimming, packets and name. An exception in a method, or an EV outside
[entropy_base, entropy_base + entropy_space), stops the run and is raised again by run() or
Simulator.Run(). After its connection is gone, the object's methods raise RuntimeError.

Every packet calls Python: see the manual's chapter "Python" for the cost.
"""

from . import _reps

PathSelector = _reps.PathSelector


def register_selector(name, factory=None):
    """Register a path selector under a short name; returns its TypeId's name.

    factory: a subclass of reps.PathSelector, or a callable with no argument returning a new
    one (e.g. functools.partial(MyClass, paths=16) for a variant). Without factory, a class
    decorator: @reps.register_selector("name"). Registering a name again replaces its
    factory; at most 64 names per process.
    """
    if factory is None:
        def decorate(cls):
            register_selector(name, cls)
            return cls
        return decorate
    if isinstance(factory, type):
        if not issubclass(factory, PathSelector):
            raise TypeError("register_selector(%r): %s is not a subclass of reps.PathSelector"
                            % (name, factory.__name__))
        if not callable(getattr(factory, "next_entropy", None)):
            raise TypeError("register_selector(%r): %s has no method next_entropy(self, "
                            "retransmission)" % (name, factory.__name__))
    return _reps.register_selector(str(name), factory)


def registered_selectors():
    """The names of the path selectors registered from Python, in order."""
    return _reps.registered_selectors()
