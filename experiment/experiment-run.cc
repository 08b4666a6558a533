/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "experiment-run.h"

#include "distributed-run.h"
#include "experiment-streams.h"
#include "option-parser.h"

#include "ns3/all-to-all-collective.h"
#include "ns3/boolean.h"
#include "ns3/clos-fabric-helper.h"
#include "ns3/clos-fabric.h"
#include "ns3/config.h"
#include "ns3/double.h"
#include "ns3/ecn-queue-disc.h"
#include "ns3/enum.h"
#include "ns3/fabric-trace-helper.h"
#include "ns3/flow-size-cdf.h"
#include "ns3/ideal-fct.h"
#include "ns3/log.h"
#include "ns3/pfc-switch.h"
#include "ns3/queue-size.h"
#include "ns3/ring-all-reduce.h"
#include "ns3/roce-ack-header.h"
#include "ns3/roce-bth-header.h"
#include "ns3/roce-credit-request-header.h"
#include "ns3/shuffle.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <chrono>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ExperimentRun");

namespace
{

/// IPv4 + UDP header bytes in front of every RoCEv2 packet.
constexpr uint32_t IP_UDP = 20 + 8;

/**
 * Stop when this part is done and the other one too.
 * \param mine the part that just completed.
 * \param other the other part.
 */
void
PartDone(bool* mine, const bool* other)
{
    *mine = true;
    if (*other)
    {
        Simulator::Stop();
    }
}

/**
 * The bound argument of PartDone() with its parameter's own type: MakeBoundCallback() takes the
 * type of the bound value, and a bool* bound to a const bool* parameter makes ns-3's Callback
 * downcast its implementation to the wrong type (undefined behaviour, reported by
 * UndefinedBehaviorSanitizer's vptr check).
 * \param done the flag
 * \return its address, as const
 */
const bool*
PeerDone(const bool& done)
{
    return &done;
}

} // namespace

ExperimentRun::ExperimentRun(const FabricExperiment& experiment,
                             const PathSelectorNames::Choice& choice)
    : m_exp(experiment),
      m_parsed(experiment.GetParsed()),
      m_choice(choice)
{
    m_result.lb = choice.name;
}

RunResult
ExperimentRun::Execute()
{
    NS_LOG_FUNCTION(this << m_choice.name);
    BuildFabric();
    EnableCaptures();
    InstallTransport();
    MakeWorkload();
    ScheduleWorkload();
    AddTcpBackground();
    InjectFaults();
    StartMonitors();
    Simulator::Stop(m_parsed.stop);
    auto wallStart = std::chrono::steady_clock::now();
    Simulator::Run();
    m_result.wallSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count();
    Collect();
    Simulator::Destroy();
    DistributedRun::Restart();
    return m_result;
}

void
ExperimentRun::BuildFabric()
{
    const FabricExperiment& e = m_exp;
    // The devices must carry a full RoCEv2 packet of Mtu payload bytes.
    m_packetBytes = e.mtu + RoceBthHeader::SIZE + RoceBthHeader::ICRC_SIZE + IP_UDP +
                    (m_parsed.receiverCredits ? RoceCreditRequestHeader::SIZE : 0);
    m_ackBytes = RoceBthHeader::SIZE + RoceAckHeader::SIZE + RoceBthHeader::ICRC_SIZE + IP_UDP;
    Ptr<ClosFabricHelper> fh = CreateObject<ClosFabricHelper>();
    fh->SetAttribute("Mtu", UintegerValue(std::max<uint32_t>(1500, m_packetBytes)));
    fh->SetAttribute("Tiers", UintegerValue(e.tiers));
    fh->SetAttribute("HostsPerLeaf", UintegerValue(e.hostsPerLeaf));
    if (e.tiers == 2)
    {
        fh->SetAttribute("Leaves", UintegerValue(e.leaves));
        fh->SetAttribute("Spines", UintegerValue(e.spines));
    }
    else
    {
        fh->SetAttribute("Pods", UintegerValue(e.pods));
        fh->SetAttribute("LeavesPerPod", UintegerValue(e.leaves));
        fh->SetAttribute("AggsPerPod", UintegerValue(e.spines));
        fh->SetAttribute("Cores", UintegerValue(e.cores));
    }
    for (const char* rate : {"HostLinkRate", "LeafUplinkRate", "AggUplinkRate"})
    {
        fh->SetAttribute(rate, DataRateValue(m_parsed.linkRate));
    }
    for (const char* delay : {"HostLinkDelay", "LeafUplinkDelay", "AggUplinkDelay"})
    {
        fh->SetAttribute(delay, TimeValue(m_parsed.linkDelay));
    }
    // The switch queue's size, ECN thresholds, marking, priority and trimming are attributes of
    // ns3::EcnQueueDisc that the options set as defaults (FabricOptions), as --reconverge sets
    // ns3::ClosPlane's RoutingConvergenceDelay; --trim also reaches the queue pairs, so it is
    // given here.
    fh->SetSwitchQueueDisc("ns3::EcnQueueDisc", "Trimming", BooleanValue(e.trim));
    fh->SetPortSelector(m_parsed.portSelector);
    fh->SetAttribute("Pfc", BooleanValue(e.pfc));
    fh->SetAttribute("Planes", UintegerValue(e.planes));
    fh->SetAttribute("Systems", UintegerValue(e.systems));
    m_fabric = fh->Build();
    ClosFabricHelper::AssignStreams(m_fabric, ExperimentStreams::FABRIC);
    m_hosts = m_fabric->GetHosts();
    // The longest base RTT: host 0 to the last host crosses the whole fabric.
    m_fabricRtt = m_fabric->GetBaseRtt(0, m_hosts.GetN() - 1, m_packetBytes, m_ackBytes);
    SlowDownLinks();
}

Callback<Time, const FlowSpec&>
ExperimentRun::IdealFctCallback() const
{
    Ptr<const ClosFabric> f = m_fabric;
    IdealFct::Packets packets;
    packets.payload = m_exp.mtu;
    packets.header = m_packetBytes - m_exp.mtu + IdealFct::LINK_FRAMING;
    packets.ack = m_ackBytes + IdealFct::LINK_FRAMING;
    const uint32_t planes = f->GetNPlanes();
    return Callback<Time, const FlowSpec&>([f, packets, planes](const FlowSpec& flow) {
        const std::vector<IdealFct::Hop> path = IdealFct::PathOf(f, flow.src, flow.dst);
        // Two GPUs of one server share one scale-up path, whatever the planes.
        const uint32_t spread = f->IsSameServer(flow.src, flow.dst) ? 1 : planes;
        return path.empty() ? Time::Max() : IdealFct::Compute(path, flow.bytes, packets, spread);
    });
}

void
ExperimentRun::InstallTransport()
{
    const FabricExperiment& e = m_exp;
    // The selectors' attributes (EntropySpace, OPS's Variant, REPS's freezing) and the queue
    // pairs' timers and ACK coalescing are defaults that the options set (FabricOptions).
    m_rdma.SetPathSelector(m_choice.tid.GetName());
    m_rdma.SetCongestionControl(m_parsed.ccType);
    m_rdma.SetQueuePairAttribute("Mtu", UintegerValue(e.mtu));
    m_rdma.SetQueuePairAttribute("BaseRtt", TimeValue(m_fabricRtt));
    if (e.baseRtt == "pair")
    {
        Ptr<ClosFabric> f = m_fabric;
        const uint32_t data = m_packetBytes;
        const uint32_t ack = m_ackBytes;
        m_rdma.SetBaseRttCallback(
            RdmaHelper::BaseRttCallback([f, data, ack](Ipv4Address a, Ipv4Address b) {
                return f->GetBaseRtt(f->GetHostIndex(a), f->GetHostIndex(b), data, ack);
            }));
    }
    m_rdma.SetQueuePairAttribute("Trimming", BooleanValue(e.trim));
    m_rdma.SetQueuePairAttribute("Rto", TimeValue(QueuePairRto(m_fabricRtt)));
    m_backgroundRdma = m_rdma;
    m_backgroundRdma.SetPathSelector("ns3::EcmpPathSelector");
    m_rdma.Install(m_hosts);
    m_launcher = CreateObject<RdmaFlowLauncher>(m_hosts, &m_rdma, &m_backgroundRdma);
}

const std::map<std::string, ExperimentRun::PatternMaker>&
ExperimentRun::Patterns()
{
    static const std::map<std::string, PatternMaker> patterns = {
        {"permutation",
         [](ExperimentRun& r) { r.m_flows = r.m_workload->Permutation(r.m_parsed.flowBytes); }},
        {"tornado",
         [](ExperimentRun& r) { r.m_flows = r.m_workload->Tornado(r.m_parsed.flowBytes); }},
        {"incast",
         [](ExperimentRun& r) {
             r.m_flows = r.m_workload->Incast(r.m_exp.incastSenders, 0, r.m_parsed.flowBytes);
         }},
        {"outcastincast",
         [](ExperimentRun& r) {
             r.m_flows = r.m_workload->OutcastIncast(r.m_exp.incastSenders,
                                                     r.m_exp.outcastFlows,
                                                     r.m_parsed.flowBytes);
         }},
        {"single",
         [](ExperimentRun& r) { r.m_flows = r.m_workload->Pair(r.m_parsed.flowBytes, false); }},
        {"bidir",
         [](ExperimentRun& r) { r.m_flows = r.m_workload->Pair(r.m_parsed.flowBytes, true); }},
        {"websearch", [](ExperimentRun& r) { r.MakePoisson(); }},
        {"hadoop", [](ExperimentRun& r) { r.MakePoisson(); }},
        {"allreduce", [](ExperimentRun& r) { r.MakeAllReduce(); }},
        {"alltoall", [](ExperimentRun& r) { r.MakeAllToAll(); }},
        {"allgather", [](ExperimentRun& r) { r.MakeSteppedCollective(); }},
        {"reducescatter", [](ExperimentRun& r) { r.MakeSteppedCollective(); }},
        {"butterfly", [](ExperimentRun& r) { r.MakeSteppedCollective(); }},
        {"training", [](ExperimentRun& r) { r.MakeTraining(); }},
        {"trace", [](ExperimentRun& r) { r.MakeTrace(); }},
        {"nccl", [](ExperimentRun& r) { r.MakeNccl(); }},
        {"chakra", [](ExperimentRun& r) { r.MakeChakra(); }},
    };
    return patterns;
}

void
ExperimentRun::MakePoisson()
{
    FlowSizeCdf sizes;
    std::string error;
    bool ok = sizes.Load(m_exp.cdf.empty() ? m_exp.pattern : m_exp.cdf, error);
    NS_ABORT_MSG_UNLESS(ok, error);
    m_flows = m_workload->Poisson(sizes, m_exp.load, m_parsed.linkRate, m_parsed.duration);
}

void
ExperimentRun::MakeAllReduce()
{
    Ptr<RingAllReduce> ar = CreateObject<RingAllReduce>();
    ar->SetAttribute("DataBytes", UintegerValue(m_parsed.flowBytes));
    m_collective = ar;
    m_ringOrder = RingOrder();
    uint32_t n = m_hosts.GetN();
    for (uint32_t i = 0; i < n; ++i)
    {
        m_launcher->PreparePair(m_ringOrder[i], m_ringOrder[(i + 1) % n], 0, false);
    }
}

void
ExperimentRun::MakeAllToAll()
{
    Ptr<AllToAllCollective> a2a = CreateObject<AllToAllCollective>();
    a2a->SetAttribute("BytesPerPeer", UintegerValue(m_parsed.flowBytes));
    a2a->SetAttribute("FlowsPerPeer", UintegerValue(m_exp.qpsPerPeer));
    m_collective = a2a;
    uint32_t n = m_hosts.GetN();
    for (uint32_t i = 0; i < n; ++i)
    {
        for (uint32_t j = 0; j < n; ++j)
        {
            for (uint32_t q = 0; i != j && q < m_exp.qpsPerPeer; ++q)
            {
                m_launcher->PreparePair(i, j, q, false);
            }
        }
    }
}

void
ExperimentRun::MakeWorkload()
{
    // The same for every path selector: fixed streams, --RngRun changes them.
    m_workload = std::make_unique<WorkloadHelper>(m_hosts.GetN());
    m_workload->AssignStreams(ExperimentStreams::WORKLOAD);
    m_workload->SetStartTime(m_parsed.start);
    bool collective = !m_exp.GetCollectiveKind().empty();
    if (!collective)
    {
        Patterns().at(m_exp.pattern)(*this);
    }
    if (m_exp.background > 0)
    {
        std::vector<FlowSpec> bg =
            m_workload->Background(m_exp.background, m_parsed.backgroundBytes);
        m_flows.insert(m_flows.end(), bg.begin(), bg.end());
    }
    // Collectives number their flows after the others.
    m_firstCollectiveId = static_cast<uint32_t>(m_flows.size());
    if (collective)
    {
        MakeJobs();
    }
}

void
ExperimentRun::ScheduleWorkload()
{
    m_launcher->Prepare(m_flows);
    m_rdma.AssignStreams(m_hosts, ExperimentStreams::RDMA);
    if (!m_exp.GetBuiltCallback().IsNull())
    {
        m_exp.GetBuiltCallback()(m_fabric, m_launcher->GetSenders());
    }
    m_runner = CreateObject<WorkloadRunner>();
    m_runner->SetLauncher(m_launcher->GetLauncher());
    m_runner->GetStats().SetIdealCallback(IdealFctCallback());
    if (DistributedRun::IsEnabled())
    {
        ScheduleOwnFlows();
        return;
    }
    m_runner->SetAllCompletedCallback(MakeCallback(&ExperimentRun::RdmaPartDone, this));
    m_runner->Schedule(m_flows);
    m_totalFlows = static_cast<uint32_t>(m_flows.size());
    if (m_collective)
    {
        m_collective->SetAttribute("StartTime", TimeValue(m_parsed.start));
        m_collective->SetAttribute("FirstFlowId", UintegerValue(m_firstCollectiveId));
        if (m_ringOrder.empty())
        {
            m_collective->SetHosts(m_hosts.GetN());
        }
        else
        {
            m_collective->SetHosts(m_ringOrder);
        }
        m_collective->SetLauncher(m_runner->GetLauncher());
        m_collective->SetCompletedCallback(MakeCallback(&ExperimentRun::RdmaPartDone, this));
        m_collective->Start();
        m_totalFlows += m_collective->GetFlowCount();
    }
    StartJobs();
}

void
ExperimentRun::AddTcpBackground()
{
    if (m_exp.tcpBackground <= 0)
    {
        return;
    }
    // TCP sockets are created inside ns-3's applications when they start, so their attributes
    // can only be given as defaults. Full-size segments that never need IP fragmentation: the
    // device MTU less the IPv4 header and the largest TCP header (options included).
    Config::SetDefault("ns3::TcpSocket::SegmentSize",
                       UintegerValue(std::max<uint32_t>(1500, m_packetBytes) - 20 - 60));
    // ns-3's 1 s minimum RTO, 3 s SYN timeout and 1 s initial RTT estimate are WAN values: in
    // a fabric of microsecond RTTs a segment or SYN dropped by a marking queue would stall its
    // flow for seconds.
    Time minRto = m_parsed.tcpMinRto;
    Config::SetDefault("ns3::TcpSocketBase::MinRto", TimeValue(minRto));
    Config::SetDefault("ns3::TcpSocket::ConnTimeout", TimeValue(minRto));
    // A lone segment is ACKed after the delayed-ACK timeout (ns-3: 200 ms); below the RTO, as
    // in Linux (40 ms against 200 ms), or every such segment times out and the window
    // collapses to one segment.
    Config::SetDefault("ns3::TcpSocket::DelAckTimeout", TimeValue(minRto / 5));
    Config::SetDefault("ns3::RttEstimator::InitialEstimation", TimeValue(minRto));
    m_tcp.Install(
        m_fabric,
        TcpBackground::PickPairs(m_hosts.GetN(), m_exp.tcpBackground, ExperimentStreams::TCP_PAIRS),
        m_parsed.tcpBackgroundBytes,
        m_parsed.start,
        m_parsed.tcpVariant);
    if (m_parsed.tcpBackgroundBytes > 0)
    {
        m_completion.tcp = false;
        m_tcp.SetAllCompletedCallback(
            MakeBoundCallback(&PartDone, &m_completion.tcp, PeerDone(m_completion.rdma)));
    }
}

void
ExperimentRun::StartMonitors()
{
    m_monitor = CreateObject<FabricMonitor>();
    m_monitor->SetAttribute("Interval", TimeValue(m_parsed.sample));
    m_monitor->SetAttribute("PerLinkSeries", BooleanValue(m_exp.linkSeries));
    m_monitor->SetFabric(m_fabric);
    m_monitor->SetRunner(m_runner);
    m_monitor->Start();
    // An MPI run: rank 0 prints the progress of its own flows (and has some to count).
    if (!m_exp.quiet && DistributedRun::GetRank() == 0 &&
        (!DistributedRun::IsEnabled() || m_totalFlows > 0))
    {
        m_progress = CreateObject<ProgressReporter>();
        m_progress->SetLabel(m_choice.name);
        Ptr<WorkloadRunner> runner = m_runner;
        const uint32_t total = m_totalFlows;
        m_progress->SetFlowCounters(
            Callback<uint32_t>([runner]() { return runner->GetCompleted(); }),
            Callback<uint32_t>([total]() { return total; }));
        m_progress->Start();
    }
}

void
ExperimentRun::Collect()
{
    RunResult& r = m_result;
    r.simTime = Simulator::Now();
    r.flows = m_runner->GetStats();
    if (m_collective)
    {
        r.flows.AddCollective(m_collective->GetRecord());
    }
    for (const Ptr<Collective>& c : m_jobs)
    {
        r.flows.AddCollective(c->GetRecord());
    }
    m_monitor->Fill(r);
    if (m_injector)
    {
        r.failures = m_injector->GetOutcomes();
    }
    r.tcpBackground = m_tcp.GetResult(r.simTime);
    RdmaQueuePairStats totals = m_launcher->GetSenderTotals();
    r.packets = totals.packetsSent;
    r.retransmissions = totals.retransmissions;
    r.freezes = m_launcher->GetFreezes();
    uint64_t linkPackets = m_monitor->GetLinkPackets();
    r.extra["timeouts"] = totals.timeouts;
    r.extra["nacks"] = totals.nacksReceived;
    r.extra["nacks_last_hop"] = totals.lastHopNacksReceived;
    r.extra["ecn_acks"] = totals.ecnAcks;
    if (m_launcher->UsesReceiverCredits())
    {
        r.extra["pulls"] = totals.pullsReceived;
        r.extra["rts"] = totals.rtsSent;
    }
    r.extra["queue_pairs"] = m_launcher->GetSenders().size();
    if (m_cables)
    {
        r.extra["failed_cables"] = m_cables->GetFailed().size();
    }
    r.extra["base_rtt_us"] = m_fabricRtt.ToDouble(Time::US);
    r.extra["link_packets"] = linkPackets;
    r.extra["wall_us_per_link_packet"] = linkPackets ? r.wallSeconds * 1e6 / linkPackets : 0.0;
    // Events the simulator executed in this run (every rank's, summed, on the distributed engine).
    r.extra["simulator_events"] = Simulator::GetEventCount();
    if (DistributedRun::IsEnabled())
    {
        GatherRanks();
    }
}

std::vector<uint32_t>
ExperimentRun::RingOrder()
{
    uint32_t n = m_fabric->GetNHosts();
    if (m_exp.ring == "random")
    {
        return m_workload->Shuffle(n);
    }
    std::vector<uint32_t> order(n);
    uint32_t perLeaf = m_fabric->GetNHostsPerLeaf();
    uint32_t nLeaves = m_fabric->GetNLeaves();
    for (uint32_t k = 0; k < n; ++k)
    {
        // Interleaved: consecutive ring positions sit on consecutive leaves, so that every hop
        // of the ring crosses the fabric.
        order[k] = m_exp.ring == "sequential" ? k : (k % nLeaves) * perLeaf + k / nLeaves;
    }
    return order;
}

uint64_t
ExperimentRun::LargestPfcBuffer() const
{
    uint64_t largest = 0;
    NodeContainer switches = m_fabric->GetSwitches();
    for (uint32_t i = 0; i < switches.GetN(); i++)
    {
        Ptr<PfcSwitch> pfc = switches.Get(i)->GetObject<PfcSwitch>();
        if (pfc)
        {
            largest = std::max(largest, pfc->GetBufferSize());
        }
    }
    return largest;
}

Time
ExperimentRun::QueuePairRto(Time fabricRtt) const
{
    if (m_exp.rto == "basertt")
    {
        return Time(0); // the queue pair's own rule: 5 x its base RTT
    }
    if (m_exp.rto != "reference")
    {
        return m_parsed.rto;
    }
    // The fabric's longest unloaded RTT plus the time four full switch queues take to drain.
    // A lossless switch bounds an egress queue by its whole buffer, not by the per-port size
    // (PfcSwitch::Setup), so with PFC a full queue is the largest switch buffer: a packet that
    // only waited in paused and deep queues is not declared lost.
    uint64_t fullQueue = m_exp.GetAlias("queuePackets").GetUnsigned() * (m_packetBytes + 2);
    if (m_exp.pfc)
    {
        fullQueue = std::max(fullQueue, LargestPfcBuffer());
    }
    Time drain = m_parsed.linkRate.CalculateBytesTxTime(fullQueue); // + PPP header above
    return fabricRtt + 4 * drain;
}

} // namespace ns3
