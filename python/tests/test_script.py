"""The helpers of a research script (reps.script): the Python twin of reps-research-script gives
its report and JSON bit for bit; refused attributes and indices raise ValueError naming the
object, the attribute and what is allowed; handles raise RuntimeError after Simulator.Destroy();
hooks on the queue pairs; determinism."""

import importlib.util
import os
import subprocess

import pytest

import reps

# A 4-host fabric whose permutation of 256 KiB flows runs in milliseconds.
TINY = ["--leaves=2", "--hostsPerLeaf=2", "--spines=2", "--flowBytes=262144"]


@pytest.fixture(autouse=True)
def fresh_ns3():
    """Every test starts and ends with ns-3's defaults and no simulation."""
    reps.Config.Reset()
    yield
    reps.Simulator.Destroy()
    reps.Config.Reset()


@pytest.fixture
def research_script():
    """examples/python/research-script.py, as a module."""
    source = os.environ.get("REPS_SOURCE_DIR")
    path = source and os.path.join(source, "examples", "python", "research-script.py")
    if not path or not os.path.exists(path):
        pytest.skip("REPS_SOURCE_DIR not set (run through ctest)")
    spec = importlib.util.spec_from_file_location("research_script", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def cpp_research_script():
    path = os.path.join(os.environ.get("REPS_EXAMPLES_DIR", ""), "reps-research-script")
    if not os.path.exists(path):
        pytest.skip("REPS_EXAMPLES_DIR does not hold reps-research-script (run through ctest)")
    return path


def tiny_fabric(selector="ops", **attributes):
    """Steps 2 to 5 of the research script on 4 hosts; returns fabric, launcher, runner."""
    fabric = reps.ClosFabricHelper(Leaves=2, HostsPerLeaf=2, Spines=2, HostLinkRate="100Gbps",
                                   LeafUplinkRate="100Gbps", **attributes).build()
    reps.ClosFabricHelper.assign_streams(fabric, 100)
    base_rtt = fabric.base_rtt(0, fabric.n_hosts - 1, 4156, 64)
    rdma = reps.RdmaHelper()
    rdma.set_path_selector(selector)
    rdma.set_queue_pair_attribute("BaseRtt", base_rtt)
    rdma.install(fabric)
    workload = reps.WorkloadHelper(fabric.n_hosts)
    workload.set_start_time("1us")
    workload.assign_streams(200)
    flows = workload.permutation("256KiB")
    launcher = reps.RdmaFlowLauncher(fabric, rdma)
    launcher.prepare(flows)
    rdma.assign_streams(fabric, 300)
    runner = reps.WorkloadRunner(launcher)
    runner.stats.set_ideal("100Gbps", base_rtt)
    runner.schedule(flows)
    return fabric, launcher, runner


@pytest.mark.parametrize("options", [
    [],
    ["--selector=ns3::OpsPathSelector", "--RngRun=3"],
    ["--selector=ns3::EcmpPathSelector", "--degradedRate=10Gbps", "--RngRun=2"],
    ["--ns3::RepsPathSelector::FreezeDuration=1us", "--mtu=2048"],
], ids=["reps", "ops-run3", "ecmp-10G", "reps-freeze"])
def test_same_as_cpp_example(options, research_script, cpp_research_script, tmp_path, capfd):
    """The Python twin prints the same report and writes the same JSON, byte for byte."""
    args = TINY + options
    cpp = subprocess.run([cpp_research_script] + args + ["--json=%s" % (tmp_path / "cpp.json")],
                         capture_output=True, text=True, timeout=60)
    assert cpp.returncode == 0, cpp.stderr
    assert research_script.main(args + ["--json=%s" % (tmp_path / "py.json")]) == 0
    assert capfd.readouterr().out == cpp.stdout
    assert (tmp_path / "py.json").read_text() == (tmp_path / "cpp.json").read_text()


def test_script_refusals_match(research_script, cpp_research_script, capfd):
    """A refused parameter ends both programs with status 1 and the same message."""
    for bad in (["--selector=ns3::Nope"], ["--leaves=1"], ["--degradedRate=200Gbps"]):
        cpp = subprocess.run([cpp_research_script] + TINY + bad, capture_output=True, text=True,
                             timeout=60)
        assert research_script.main(TINY + bad) == 1 == cpp.returncode
        assert capfd.readouterr().err == cpp.stderr


def test_determinism(research_script, tmp_path, capfd):
    """The same run number gives the same results; another gives others."""
    def run(rng):
        out = tmp_path / ("r%d.json" % rng)
        assert research_script.main(TINY + ["--selector=ns3::OpsPathSelector",
                                            "--RngRun=%d" % rng, "--json=%s" % out]) == 0
        return out.read_text()

    first, again, other = run(1), run(1), run(2)
    capfd.readouterr()
    assert first == again
    assert other != first
    assert '"RngRun": 2' in other


@pytest.mark.parametrize("make, message", [
    (lambda: reps.ClosFabricHelper(Nope=1),
     r"ClosFabricHelper.set: ns3::ClosFabricHelper has no attribute Nope; allowed: .*Leaves"),
    (lambda: reps.ClosFabricHelper(Mtu=70000),
     r"ClosFabricHelper.set: ns3::ClosFabricHelper::Mtu = 70000 is out of range; "
     r"allowed: 68 to 65535"),
    (lambda: reps.ClosFabricHelper(Tiers=4), r"Tiers = 4 is out of range; allowed: 2 to 3"),
    (lambda: reps.ClosFabricHelper(HostLinkDelay="soon"),
     r"HostLinkDelay = 'soon' is not a time; allowed: a Time, at least"),
    (lambda: reps.ClosFabricHelper(Pfc="maybe"), r"Pfc = maybe is not allowed; allowed: (bool|true or false)"),
    (lambda: reps.ClosFabricHelper(Leaves=[4]), r"Leaves = \[4\] is not an attribute value"),
    (lambda: reps.ClosFabricHelper(Leaves=reps.Time("1us")), r"Leaves takes a ns3::UintegerValue"),
    (lambda: reps.ClosFabricHelper().set_switch_queue_disc("ns3::Nope"),
     r"set_switch_queue_disc: unknown TypeId \"ns3::Nope\" \(expected a subclass of ns3::QueueDisc\)"),
    (lambda: reps.ClosFabricHelper().set_switch_queue_disc("ns3::EcnQueueDisc", Kmin=3),
     r"set_switch_queue_disc: ns3::EcnQueueDisc::Kmin = 3 is not allowed"),
    (lambda: reps.ClosFabricHelper().set_switch_queue_disc("ns3::EcnQueueDisc", Nope=3),
     r"ns3::EcnQueueDisc has no attribute Nope; allowed: .*MaxSize"),
    (lambda: reps.ClosFabricHelper(Leaves=0).build(), r"ClosFabricHelper.build: Leaves must be >= 1"),
    (lambda: reps.RdmaHelper().set_path_selector("nope"),
     r"RdmaHelper.set_path_selector: unknown path selector 'nope'; allowed: .*reps"),
    (lambda: reps.RdmaHelper().set_path_selector("reps", BufferSize=0),
     r"ns3::RepsPathSelector::BufferSize = 0 is out of range; allowed: 1 to"),
    (lambda: reps.RdmaHelper().set_congestion_control("cubic"),
     r"set_congestion_control: unknown congestion control 'cubic'; allowed: .*dcqcn"),
    (lambda: reps.RdmaHelper().set_queue_pair_attribute("Mtu", 70000),
     r"RdmaHelper.set_queue_pair_attribute: ns3::RdmaQueuePair::Mtu = 70000 is out of range"),
    (lambda: reps.RdmaHelper().set_path_selector_attribute("FreezeDuration", "1us"),
     r"ns3::EcmpPathSelector has no attribute FreezeDuration"),
    (lambda: reps.WorkloadHelper(1), r"WorkloadHelper: hosts: 1 is out of range; allowed: 2 to"),
    (lambda: reps.WorkloadHelper(4).permutation("1.5B"), r"is not a whole number of bytes"),
    (lambda: reps.WorkloadHelper(4).incast(4, 0, 10), r"incast: senders: 4 is out of range"),
    (lambda: reps.WorkloadHelper(4).set_start_time("-1us"), r"times cannot be negative"),
    (lambda: reps.Time("5 parsecs"), r"Time: '5 parsecs' is not"),
])
def test_refused_values_raise(make, message):
    with pytest.raises(ValueError, match=message):
        make()


def test_refused_indices_and_times():
    fabric, launcher, runner = tiny_fabric()
    with pytest.raises(ValueError, match=r"leaf_spine_link: leaf 2 is out of range; allowed: 0 to 1"):
        fabric.leaf_spine_link(2, 0)
    with pytest.raises(ValueError, match=r"leaf_agg_link: needs a 3-tier fabric"):
        fabric.leaf_agg_link(0, 0)
    with pytest.raises(ValueError, match=r"link_counters: link -1 is out of range"):
        fabric.link_counters(-1, 0)
    with pytest.raises(ValueError, match=r"link_counters: direction 2 is out of range"):
        fabric.link_counters(0, 2)
    with pytest.raises(ValueError, match=r"base_rtt: src and dst are both host 1"):
        fabric.base_rtt(1, 1)
    with pytest.raises(ValueError, match=r"degrade_link: rate: '0Gbps'"):
        fabric.degrade_link(0, "0Gbps")
    with pytest.raises(ValueError, match=r"fail_link: up_at 10us is not after at 20us"):
        fabric.fail_link(0, "20us", "10us")
    with pytest.raises(ValueError, match=r"schedule_failures: line 1"):
        fabric.schedule_failures("10us link:leaf0-spine9 down")
    with pytest.raises(ValueError, match=r"RdmaFlowLauncher: ns3::RdmaFlowLauncher::"
                                         r"ConnectionMapping = Sometimes is not allowed; "
                                         r"allowed: Flow, Pair, Reuse"):
        reps.RdmaFlowLauncher(fabric, reps.RdmaHelper(), ConnectionMapping="Sometimes")
    with pytest.raises(ValueError, match=r"install: host 0 already has an RDMA stack"):
        reps.RdmaHelper().install(fabric)
    flow = reps.FlowSpec()
    flow.id, flow.src, flow.dst, flow.bytes = 99, 0, 7, 1000
    with pytest.raises(ValueError, match=r"schedule: flow 99 goes from host 0 to host 7; "
                                         r"allowed: two different hosts of 0 to 3"):
        runner.schedule([flow])
    flow.dst = 1
    flow.id = 0
    with pytest.raises(ValueError, match=r"schedule: flow id 0 is used twice"):
        runner.schedule([flow])
    with pytest.raises(ValueError, match=r"connect: .*has no trace source 'Nope'"):
        launcher.connect("PathSelector/Nope", print)


def test_mtu_too_small_for_the_queue_pairs():
    """What RdmaQueuePair::Connect() would abort on is refused before it."""
    fabric = reps.ClosFabricHelper(Leaves=2, HostsPerLeaf=2, Spines=2, Mtu=1500).build()
    rdma = reps.RdmaHelper()
    rdma.install(fabric)
    with pytest.raises(ValueError, match=r"RdmaFlowLauncher: RdmaQueuePair: Mtu \(4096\) needs "
                                         r"an IPv4 MTU of at least 4140"):
        reps.RdmaFlowLauncher(fabric, rdma)


def test_hooks_on_queue_pairs_and_selectors():
    fabric, launcher, runner = tiny_fabric()
    sent, chosen, changes = [], [], []
    assert launcher.connect("QueuePair/PacketSent",
                            lambda qp, psn, ev, rtx: sent.append(qp), context=True) == 4
    qp = launcher.senders[1]
    qp.path_selector.connect("EntropyChosen", lambda ev, why, rtx: chosen.append(why))
    assert qp.path_selector.type_id == "ns3::OpsPathSelector"
    fabric.connect("LinkState", lambda link, up: changes.append((link, up)))
    fabric.fail_link(fabric.leaf_spine_link(1, 1), "5us", "15us")
    stats = runner.run(time_limit="10ms")
    assert stats.completed_count == stats.flow_count == 4
    totals = launcher.sender_totals
    # Every data packet of every sending queue pair went through the hook, by its name.
    assert len(sent) == totals["packets_sent"] > 0
    assert sorted(set(sent)) == ["QueuePair/%d" % i for i in range(4)]
    assert len(chosen) == qp.stats["packets_sent"]
    assert set(chosen) == {reps.PathSelector.RANDOM}
    assert changes == [(fabric.leaf_spine_link(1, 1), False), (fabric.leaf_spine_link(1, 1), True)]


def test_python_path_selector_in_a_script():
    """A selector written in Python is named like the module's."""
    @reps.register_selector("script-rr")
    class RoundRobin(reps.PathSelector):
        def __init__(self):
            super().__init__()
            self.n = 0

        def next_entropy(self, retransmission):
            self.n += 1
            return self.entropy_base + self.n % 8, self.ROUND_ROBIN

    fabric, launcher, runner = tiny_fabric(selector="script-rr")
    chosen = []
    launcher.connect("PathSelector/EntropyChosen", lambda ev, why, rtx: chosen.append(why))
    assert runner.run(time_limit="10ms").completed_count == 4
    assert chosen and set(chosen) == {reps.PathSelector.ROUND_ROBIN}


def test_servers_and_rails():
    """Servers of 2 GPUs on a rail-optimised fabric: the fabric names them, every flow of a
    permutation completes, and the summary states the wiring."""
    fabric, launcher, runner = tiny_fabric(GpusPerServer=2, Wiring="RailOptimised")
    assert (fabric.gpus_per_server, fabric.n_servers) == (2, 2)
    assert [fabric.server_of_host(h) for h in range(4)] == [0, 0, 1, 1]
    assert "rail-optimised: 2 rails" in fabric.summary()
    assert "2 servers x 2 GPUs" in fabric.summary()
    assert runner.run(time_limit="10ms").completed_count == 4
    with pytest.raises(ValueError, match=r"server_of_host: host 4 is out of range"):
        fabric.server_of_host(4)


def test_exception_in_hook_stops_the_run():
    fabric, launcher, runner = tiny_fabric()
    calls = []

    def hook(psn, ev, rtx):
        calls.append(psn)
        if len(calls) == 5:
            raise KeyError("enough")

    launcher.connect("QueuePair/PacketSent", hook)
    with pytest.raises(KeyError, match="enough"):
        runner.run()
    assert len(calls) == 5
    assert runner.stats.completed_count == 0


def test_results_as_python_objects():
    fabric, launcher, runner = tiny_fabric()
    stats = runner.run(time_limit="1s")
    fct = stats.fct_summary_us()
    assert fct.count == 4 and fct.p99 >= fct.p50 >= fct.min > 0
    assert stats.slowdown_summary().mean >= 1
    records = stats.records
    assert [r.flow.id for r in records] == [0, 1, 2, 3]
    assert all(r.completed and r.fct > r.ideal * 0.5 for r in records)
    assert records[0].fct.us == pytest.approx(stats.column("fct_us")[0])
    d = stats.to_dict()
    assert d["flows"] == 4 and d["completed"] == 4 and len(d["records"]) == 4
    assert d["fct_us"]["mean"] == fct.mean
    assert stats.last_completion == max(r.finished for r in records)
    assert launcher.selector_counters["packets"] == launcher.sender_totals["packets_sent"]
    up = fabric.link_counters(fabric.leaf_spine_link(0, 0), 0)
    assert up["bytes"] > 0 and up["dropped_packets"] == 0


def test_use_after_destroy_raises():
    fabric, launcher, runner = tiny_fabric()
    qp = launcher.senders[0]
    selector = qp.path_selector
    stats = runner.stats
    helper = reps.ClosFabricHelper(Leaves=2, HostsPerLeaf=2, Spines=2)
    runner.run()
    reps.Simulator.Destroy()
    for use, what in [(lambda: fabric.n_hosts, "reps.ClosFabric"),
                      (lambda: fabric.link_counters(0, 0), "reps.ClosFabric"),
                      (lambda: launcher.senders, "reps.RdmaFlowLauncher"),
                      (lambda: qp.stats, "reps.QueuePair"),
                      (lambda: selector.connect("Feedback", print), "reps.QueuePair.path_selector"),
                      (lambda: runner.schedule([]), "reps.WorkloadRunner"),
                      (lambda: stats.fct_summary_us(), "reps.FlowStats"),
                      (lambda: runner.stats, "reps.WorkloadRunner")]:
        with pytest.raises(RuntimeError, match=what + r" .*was destroyed by Simulator.Destroy"):
            use()
    # The helpers hold configuration only: they build again.
    assert helper.build().n_hosts == 4


def test_objects_live_while_the_simulation_needs_them():
    """Handles Python lets go of keep their objects until Simulator.Destroy()."""
    def start():
        fabric, launcher, runner = tiny_fabric()
        return runner.stats, fabric.n_hosts

    stats, hosts = start()  # the fabric, RdmaHelper, launcher and runner handles are gone
    reps.Simulator.Stop(1e-3)
    reps.Simulator.Run()
    assert stats.completed_count == hosts


def test_workload_generators_and_trace_file(tmp_path):
    workload = reps.WorkloadHelper(8)
    workload.set_start_time(reps.Time("2us"))
    assert len(workload.tornado(1000)) == 8
    assert len(workload.all_to_all("8KiB", 2)) == 8 * 7 * 2
    assert {f.dst for f in workload.incast(3, 5, "4KiB")} == {5}
    assert len(workload.poisson("websearch", 0.5, "100Gbps", "5ms")) > 0
    trace = tmp_path / "flows.txt"
    trace.write_text("# start src dst bytes\n0us 0 5 1MiB\n2.5us 3 1 65536\n")
    flows = workload.flow_trace(str(trace), first_id=100)
    assert [(f.id, f.src, f.dst, f.bytes, f.start.ns) for f in flows] == \
        [(100, 0, 5, 1 << 20, 2000), (101, 3, 1, 65536, 4500)]
    trace.write_text("0us 0 5 1MiB\n1us 3 1 4096 after=0\n")
    with pytest.raises(ValueError, match=r"line 2: the flow waits for another flow"):
        workload.flow_trace(str(trace))


def test_failure_schedule_on_the_fabric():
    fabric, launcher, runner = tiny_fabric()
    injector = fabric.schedule_failures("5us link:leaf0-spine1 down\n10us link:leaf0-spine1 up\n")
    states = []
    fabric.connect("LinkState", lambda link, up: states.append(up))
    runner.run(time_limit="10ms")
    assert states == [False, True]
    assert injector.outcomes()[0]["action"] == "down"


def test_failure_schedule_on_scale_up_links():
    """Servers of 2 GPUs: a scale-up link is failed by name, numbered after the planes' links
    and named back; a link number out of range raises ValueError."""
    fabric, launcher, runner = tiny_fabric(GpusPerServer=2)
    injector = fabric.schedule_failures("5us link:host1-scaleup0 down\n8us switch:scaleup1 down\n")
    assert injector.event_links(0) == [fabric.n_links + 1]
    assert injector.link_name(fabric.n_links + 1) == "host1-scaleup0"
    assert [injector.link_name(l) for l in injector.event_links(1)] == [
        "host2-scaleup1", "host3-scaleup1"]
    with pytest.raises(ValueError, match=r"FailureInjector.link_name: link"):
        injector.link_name(fabric.n_links + 4)
    runner.run(time_limit="10ms")
    assert [o["action"] for o in injector.outcomes()] == ["down", "down"]


def test_time():
    t = reps.Time("8us")
    assert (5 * t).ns == 40000 and (t * 5) == reps.Time("40us") and str(t) == "8us"
    assert t / reps.Time("2us") == 4.0 and float(t) == pytest.approx(8e-6)
    assert reps.Time(2.5e-6) == reps.Time("2500ns") == reps.Time("2.5us")
    with pytest.raises(ValueError, match=r"Time: 'inf' is not a time"):
        reps.Time(float("inf"))
    fabric = reps.ClosFabricHelper(LeafUplinkDelay=1.5e-6, Leaves=2, Spines=2).build()
    assert fabric.link_delay(fabric.leaf_spine_link(0, 1)) == reps.Time("1500ns")
