/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fabric-experiment.h"

#include "all-to-all-collective.h"
#include "clos-fabric-helper.h"
#include "fabric-monitor.h"
#include "flow-size-cdf.h"
#include "option-parser.h"
#include "progress-reporter.h"
#include "rdma-flow-launcher.h"
#include "rdma-helper.h"
#include "ring-all-reduce.h"
#include "tcp-background.h"
#include "workload-helper.h"
#include "workload-runner.h"

#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/ecn-queue-disc.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/ops-path-selector.h"
#include "ns3/queue-size.h"
#include "ns3/random-shuffle.h"
#include "ns3/reps-path-selector.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/roce-ack-header.h"
#include "ns3/roce-bth-header.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <iomanip>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FabricExperiment");

namespace
{

/// IPv4 + UDP header bytes in front of every RoCEv2 packet.
constexpr uint32_t IP_UDP = 20 + 8;

/**
 * Base RTT between two hosts, for FlowStats.
 * \param fabric the fabric.
 * \param packetBytes IPv4 size of a data packet.
 * \param ackBytes IPv4 size of an ACK.
 * \param src a host.
 * \param dst another host.
 * \return the RTT.
 */
Time
PairRtt(Ptr<ClosFabric> fabric, uint32_t packetBytes, uint32_t ackBytes, uint32_t src, uint32_t dst)
{
    return fabric->GetBaseRtt(src, dst, packetBytes, ackBytes);
}

/**
 * Base RTT between the hosts of two RDMA addresses, for RdmaHelper::SetBaseRttCallback.
 * \param fabric the fabric.
 * \param packetBytes IPv4 size of a data packet.
 * \param ackBytes IPv4 size of an ACK.
 * \param a an address.
 * \param b another address.
 * \return the RTT.
 */
Time
AddressRtt(Ptr<ClosFabric> fabric,
           uint32_t packetBytes,
           uint32_t ackBytes,
           Ipv4Address a,
           Ipv4Address b)
{
    return fabric->GetBaseRtt(fabric->GetHostIndex(a),
                              fabric->GetHostIndex(b),
                              packetBytes,
                              ackBytes);
}

/// What must finish before a run stops early.
struct Completion
{
    bool rdma{false}; //!< Every RDMA flow and collective completed.
    bool tcp{true};   //!< Every sized TCP background flow completed (true when none is sized).
};

/**
 * AllCompleted callback of the runner: stop, unless sized TCP flows are still running.
 * \param c the completion state.
 */
void
RdmaDone(Completion* c)
{
    c->rdma = true;
    if (c->tcp)
    {
        Simulator::Stop();
    }
}

/**
 * AllCompleted callback of the TCP background: stop, unless RDMA flows are still running.
 * \param c the completion state.
 */
void
TcpDone(Completion* c)
{
    c->tcp = true;
    if (c->rdma)
    {
        Simulator::Stop();
    }
}

/**
 * \param runner the runner.
 * \return its completed flows.
 */
uint32_t
Completed(Ptr<WorkloadRunner> runner)
{
    return runner->GetCompleted();
}

/**
 * \param total flows the run will have.
 * \return total.
 */
uint32_t
Total(uint32_t total)
{
    return total;
}

const std::vector<std::string> g_patterns =
    {"permutation", "tornado", "incast", "alltoall", "allreduce", "websearch", "hadoop"};
const std::vector<std::string> g_forwardingNames = {"hash", "random", "adaptive"};

/**
 * \param cc the value of --cc: a short name or a TypeId name.
 * \return the congestion controller's TypeId; exits with a message when there is none.
 */
TypeId
CongestionControlOrExit(const std::string& cc)
{
    TypeId tid;
    std::string error;
    if (!CongestionControlNames::Lookup(cc, tid, error))
    {
        OptionParser::Exit("--cc: " + error);
    }
    return tid;
}

} // namespace

FabricExperiment::FabricExperiment()
    : lb("ecmp,ops,flowlet,reps"),
      tiers(2),
      leaves(0),
      hostsPerLeaf(0),
      spines(0),
      pods(0),
      cores(0),
      linkRate("400Gbps"),
      linkDelay("1us"),
      mtu(4096),
      queuePackets(100),
      ecnKmin(20),
      ecnKmax(80),
      trim(false),
      markOn("dequeue"),
      controlPriority(true),
      baseRtt("pair"),
      rto("reference"),
      minRto("0"),
      rtoBackoff(false),
      opsVariant("uniform"),
      freezing(true),
      freezeDuration("10ms"),
      forwarding("hash"),
      cc("window"),
      pattern("permutation"),
      flowSize("2MiB"),
      load(0.5),
      duration("100us"),
      cdf(""),
      incastSenders(8),
      qpsPerPeer(1),
      ring("interleaved"),
      background(0),
      backgroundSize("8MiB"),
      tcpBackground(0),
      tcpBackgroundSize("8MiB"),
      tcpMinRto("1ms"),
      tcpVariant(""),
      degradedLinks(0),
      degradedRate("200Gbps"),
      degradeLeaf(-1),
      failedLinks(0),
      failAt("20us"),
      failFor("0"),
      failGap("0"),
      failLeaf(-1),
      reconverge("never"),
      evSpace(65536),
      rngRun(RngSeedManager::GetRun()),
      startTime("1us"),
      stopTime("100ms"),
      sampleInterval("10us"),
      json(""),
      csv(""),
      quiet(false),
      m_checked(false),
      m_flowBytes(0),
      m_backgroundBytes(0),
      m_tcpBackgroundBytes(0)
{
}

void
FabricExperiment::AddOptions(CommandLine& cmd)
{
    // Every help text ends with the unit or the allowed values, in parentheses.
    cmd.AddValue("lb",
                 "Path selectors to compare (comma list of " +
                     OptionParser::Join(PathSelectorNames::GetAvailableNames()) +
                     ", or PathSelector TypeIds)",
                 lb);
    cmd.AddValue("tiers",
                 "Fabric tiers (2: leaf-spine, 3: pods of leaves and aggregation "
                 "switches under cores)",
                 tiers);
    // A shape option left at 0 takes its tier's default: the REPS paper's 128-host fabrics, the
    // 2-tier one (16 leaves x 8 hosts, 8 spines) or the k = 8 fat tree (8 pods of 4 leaves x 4
    // hosts and 4 aggregation switches, 16 cores), both without oversubscription.
    cmd.AddValue("leaves",
                 "Leaf switches; with 3 tiers, leaves per pod (switches; 0: 16 with 2 tiers, 4 "
                 "with 3)",
                 leaves);
    cmd.AddValue("hostsPerLeaf",
                 "Hosts under every leaf (hosts; 0: 8 with 2 tiers, 4 with 3)",
                 hostsPerLeaf);
    cmd.AddValue("spines",
                 "Spine switches; with 3 tiers, aggregation switches per pod (switches; 0: 8 "
                 "with 2 tiers, 4 with 3)",
                 spines);
    cmd.AddValue("pods", "Pods, 3 tiers only (pods; 0: 8)", pods);
    cmd.AddValue("cores",
                 "Core switches, 3 tiers only, a multiple of --spines (switches; 0: 16)",
                 cores);
    cmd.AddValue("linkRate", "Rate of every link (DataRate, e.g. 400Gbps)", linkRate);
    cmd.AddValue("linkDelay", "Propagation delay of every link (Time, e.g. 1us)", linkDelay);
    cmd.AddValue("mtu", "Payload of a full packet (bytes, 64 to 9000)", mtu);
    cmd.AddValue("queuePackets", "Size of every switch egress queue (packets)", queuePackets);
    cmd.AddValue("ecnKmin", "Queue length above which ECN marking starts (packets)", ecnKmin);
    cmd.AddValue("ecnKmax", "Queue length above which every packet is marked (packets)", ecnKmax);
    cmd.AddValue("forwarding",
                 "How switches pick among equal-cost ports (hash: the 5-tuple with the entropy "
                 "value, as ECMP switches do; random: per packet; adaptive: the least-loaded "
                 "port, switch-side adaptive routing)",
                 forwarding);
    cmd.AddValue("trim",
                 "Full switch queues trim packets to headers instead of dropping them "
                 "(true/false)",
                 trim);
    cmd.AddValue("markOn",
                 "When switch queues decide ECN: dequeue (from the queue a data packet leaves "
                 "behind, the REPS evaluation's switches) or enqueue (from the queue it finds)",
                 markOn);
    cmd.AddValue("controlPriority",
                 "Switch queues serve ACKs, NACKs, CNPs and trimmed headers ahead of data "
                 "(true/false)",
                 controlPriority);
    cmd.AddValue("baseRtt",
                 "Base RTT given to each queue pair (pair: its own path's unloaded RTT; "
                 "fabric: the fabric's longest), which sets its window, REPS's failure threshold "
                 "and exploration, the flowlet gap",
                 baseRtt);
    cmd.AddValue("rto",
                 "Retransmission timeout of the queue pairs (reference: the fabric's longest "
                 "unloaded RTT plus the drain time of four full queues; basertt: 5 x the queue "
                 "pair's base RTT; or a Time, e.g. 50us)",
                 rto);
    cmd.AddValue("minRto",
                 "Lower bound of every queue pair's retransmission timeout; 0: none (Time)",
                 minRto);
    cmd.AddValue("rtoBackoff",
                 "Double the retransmission timeout after each timeout without progress, up to "
                 "64x (true/false)",
                 rtoBackoff);
    cmd.AddValue("opsVariant",
                 "OPS: uniform (a uniformly random entropy value per packet, the REPS paper's "
                 "OPS) or deck (every entropy value once per shuffled round)",
                 opsVariant);
    cmd.AddValue("freezing",
                 "REPS enters freezing on a failure signal (true/false; false: the paper's "
                 "'freezing disabled' ablation)",
                 freezing);
    cmd.AddValue("freezeDuration",
                 "How long REPS stays frozen (Time, > 0 and <= 1s)",
                 freezeDuration);
    cmd.AddValue("cc",
                 "Congestion control (" +
                     OptionParser::Join(CongestionControlNames::GetAvailableNames()) +
                     ", or an RdmaCongestionControl TypeId)",
                 cc);
    cmd.AddValue("pattern",
                 "Traffic pattern (permutation, tornado, incast, alltoall, allreduce, websearch "
                 "or hadoop)",
                 pattern);
    cmd.AddValue("flowSize",
                 "Bytes per flow; alltoall: per pair of hosts; allreduce: data per host (bytes "
                 "with optional unit, e.g. 4096, 64KiB, 8MiB, 1MB)",
                 flowSize);
    cmd.AddValue("load",
                 "websearch/hadoop: offered load per host (fraction of the link rate, 0 to 1)",
                 load);
    cmd.AddValue("duration",
                 "websearch/hadoop: flows arrive during this window (Time, e.g. 100us)",
                 duration);
    cmd.AddValue("cdf",
                 "websearch/hadoop: flow-size distribution (websearch, hadoop, or a file of "
                 "'<bytes> <cumulative percent>' lines; empty: the pattern's own)",
                 cdf);
    cmd.AddValue("incastSenders", "incast: senders into host 0 (hosts)", incastSenders);
    cmd.AddValue("qpsPerPeer", "alltoall: queue pairs per pair of hosts (QPs)", qpsPerPeer);
    cmd.AddValue("ring",
                 "allreduce: ring order (sequential: host i to i+1; interleaved: each hop to "
                 "the next leaf; random)",
                 ring);
    cmd.AddValue("background",
                 "Share of hosts that also send one ECMP-pinned background flow (0 to 1)",
                 background);
    cmd.AddValue("backgroundSize",
                 "Size of a background flow (bytes with optional unit)",
                 backgroundSize);
    cmd.AddValue("tcpBackground",
                 "Share of hosts that also send one ns-3 TCP flow (BulkSend to a random other "
                 "host) from the workload start (0 to 1)",
                 tcpBackground);
    cmd.AddValue("tcpBackgroundSize",
                 "Size of a TCP background flow (bytes with optional unit; 0: send until the "
                 "run ends)",
                 tcpBackgroundSize);
    cmd.AddValue("tcpMinRto",
                 "Minimum retransmission timeout of the TCP background flows, also their SYN "
                 "timeout and initial RTT estimate; their delayed-ACK timeout is a fifth of it "
                 "(Time, > 0; ns-3's defaults: 1s, 3s, 1s, 200ms)",
                 tcpMinRto);
    cmd.AddValue("tcpVariant",
                 "Congestion control of the TCP background flows (a TcpCongestionOps name, e.g. "
                 "TcpNewReno, TcpDctcp, TcpBic, TcpCubic in newer ns-3; empty: ns-3's default)",
                 tcpVariant);
    cmd.AddValue("degradedLinks",
                 "Leaf uplinks slowed down to --degradedRate (links)",
                 degradedLinks);
    cmd.AddValue("degradedRate",
                 "Rate of the degraded links (DataRate, e.g. 200Gbps)",
                 degradedRate);
    cmd.AddValue("degradeLeaf",
                 "Degrade the first uplinks of this leaf; -1: uplinks drawn at random (leaf "
                 "index)",
                 degradeLeaf);
    cmd.AddValue("failedLinks", "Leaf uplinks that fail (links)", failedLinks);
    cmd.AddValue("failAt", "When the first failure happens (Time)", failAt);
    cmd.AddValue("failFor", "How long each failed link stays down; 0: for good (Time)", failFor);
    cmd.AddValue("failGap", "Time between two successive failures (Time)", failGap);
    cmd.AddValue("failLeaf",
                 "Fail the first uplinks of this leaf; -1: uplinks drawn at random (leaf index)",
                 failLeaf);
    cmd.AddValue("reconverge",
                 "Routing stops using a failed link this long after it fails (Time, or never: "
                 "the link stays a blackhole while down)",
                 reconverge);
    cmd.AddValue("evSpace",
                 "Entropy values (UDP source ports) a path selector may use (1 to 65536)",
                 evSpace);
    cmd.AddValue("RngRun",
                 "ns-3 run number: another run draws another workload, other hash salts and "
                 "other random links (run number)",
                 rngRun);
    cmd.AddValue("startTime", "When the workload starts (Time)", startTime);
    cmd.AddValue("stopTime",
                 "Simulated-time limit of a run; flows not done by then count as incomplete "
                 "(Time)",
                 stopTime);
    cmd.AddValue("sampleInterval",
                 "Interval of the time series written to the JSON; 0: none (Time)",
                 sampleInterval);
    cmd.AddValue("json", "Write the JSON summary to this file (path; -: standard output)", json);
    cmd.AddValue("csv", "Write one CSV row per flow to this file (path; -: standard output)", csv);
    cmd.AddValue("quiet", "No progress lines on standard error (true/false)", quiet);
}

void
FabricExperiment::ApplyTierDefaults()
{
    NS_LOG_FUNCTION(this);
    auto orDefault = [](uint32_t& value, uint32_t def) {
        if (value == 0)
        {
            value = def;
        }
    };
    if (tiers == 3)
    {
        orDefault(leaves, 4);
        orDefault(hostsPerLeaf, 4);
        orDefault(spines, 4);
        orDefault(pods, 8);
        orDefault(cores, 16);
    }
    else
    {
        orDefault(leaves, 16);
        orDefault(hostsPerLeaf, 8);
        orDefault(spines, 8);
        orDefault(pods, 1);
        orDefault(cores, 1);
    }
}

uint32_t
FabricExperiment::GetHosts() const
{
    return tiers == 3 ? pods * leaves * hostsPerLeaf : leaves * hostsPerLeaf;
}

void
FabricExperiment::Check()
{
    m_selectors = PathSelectorNames::ParseListOrExit("--lb", lb);
    RngSeedManager::SetRun(rngRun);
    if (tiers != 2 && tiers != 3)
    {
        std::ostringstream msg;
        msg << "--tiers: " << tiers << " is not allowed; allowed: 2 (leaf-spine) or 3 (pods)";
        OptionParser::Exit(msg.str());
    }
    ApplyTierDefaults();
    OptionParser::CheckRangeOrExit("--leaves", leaves, 1, 4096);
    OptionParser::CheckRangeOrExit("--hostsPerLeaf", hostsPerLeaf, 1, 4096);
    OptionParser::CheckRangeOrExit("--spines", spines, 1, 4096);
    if (tiers == 3)
    {
        OptionParser::CheckRangeOrExit("--pods", pods, 1, 4096);
        OptionParser::CheckRangeOrExit("--cores", cores, 1, 65536);
    }
    OptionParser::CheckRangeOrExit("--hosts (leaves x hostsPerLeaf)", GetHosts(), 2, 1 << 20);
    m_linkRate = OptionParser::RateOrExit("--linkRate", linkRate);
    m_linkDelay = OptionParser::TimeOrExit("--linkDelay", linkDelay);
    OptionParser::CheckRangeOrExit("--mtu", mtu, 64, 9000);
    OptionParser::CheckRangeOrExit("--queuePackets", queuePackets, 1, 1000000);
    OptionParser::CheckRangeOrExit("--ecnKmin", ecnKmin, 0, queuePackets);
    OptionParser::CheckRangeOrExit("--ecnKmax", ecnKmax, ecnKmin, queuePackets);
    m_ccType = CongestionControlOrExit(cc).GetName();
    OptionParser::ChoiceOrExit("--forwarding", forwarding, g_forwardingNames);
    OptionParser::ChoiceOrExit("--pattern", pattern, g_patterns);
    m_flowBytes = OptionParser::BytesOrExit("--flowSize", flowSize, 1);
    if (pattern == "allreduce" && m_flowBytes < GetHosts())
    {
        std::ostringstream msg;
        msg << "--flowSize: allreduce needs at least one byte per host (" << GetHosts()
            << " bytes)";
        OptionParser::Exit(msg.str());
    }
    if (pattern == "alltoall" && m_flowBytes < qpsPerPeer)
    {
        OptionParser::Exit("--flowSize: alltoall needs at least one byte per queue pair");
    }
    if (!(load > 0 && load <= 1))
    {
        std::ostringstream msg;
        msg << "--load: " << load << " is out of range; expected a value in (0, 1]";
        OptionParser::Exit(msg.str());
    }
    m_duration = OptionParser::TimeOrExit("--duration", duration);
    if ((pattern == "websearch" || pattern == "hadoop") && !m_duration.IsStrictlyPositive())
    {
        OptionParser::Exit("--duration: must be greater than zero for " + pattern);
    }
    FlowSizeCdf sizes;
    std::string error;
    if (!sizes.Load(cdf.empty() ? (pattern == "hadoop" ? "hadoop" : "websearch") : cdf, error))
    {
        OptionParser::Exit("--cdf: " + error);
    }
    if (pattern == "incast")
    {
        OptionParser::CheckRangeOrExit("--incastSenders", incastSenders, 1, GetHosts() - 1);
    }
    OptionParser::CheckRangeOrExit("--qpsPerPeer", qpsPerPeer, 1, 1024);
    OptionParser::ChoiceOrExit("--ring", ring, {"sequential", "interleaved", "random"});
    OptionParser::CheckRangeOrExit("--background", background, 0, 1);
    m_backgroundBytes = OptionParser::BytesOrExit("--backgroundSize", backgroundSize, 1);
    OptionParser::CheckRangeOrExit("--tcpBackground", tcpBackground, 0, 1);
    m_tcpBackgroundBytes = OptionParser::BytesOrExit("--tcpBackgroundSize", tcpBackgroundSize);
    m_tcpMinRto = OptionParser::TimeOrExit("--tcpMinRto", tcpMinRto);
    if (!m_tcpMinRto.IsStrictlyPositive())
    {
        OptionParser::Exit("--tcpMinRto: must be > 0, e.g. 1ms");
    }
    m_tcpVariant = TypeId();
    if (!tcpVariant.empty())
    {
        std::string name = tcpVariant.rfind("ns3::", 0) == 0 ? tcpVariant : "ns3::" + tcpVariant;
        TypeId tid;
        if (!TypeId::LookupByNameFailSafe(name, &tid) ||
            !tid.IsChildOf(TypeId::LookupByName("ns3::TcpCongestionOps")) || !tid.HasConstructor())
        {
            OptionParser::Exit("--tcpVariant: '" + tcpVariant +
                               "' is not a TCP congestion control of this ns-3 (e.g. "
                               "TcpNewReno, TcpDctcp, TcpBic, TcpVegas)");
        }
        m_tcpVariant = tid;
    }
    uint32_t nLeaves = tiers == 3 ? pods * leaves : leaves;
    uint32_t uplinksPerLeaf = spines;
    OptionParser::CheckRangeOrExit("--degradeLeaf", degradeLeaf, -1, nLeaves - 1.0);
    OptionParser::CheckRangeOrExit("--failLeaf", failLeaf, -1, nLeaves - 1.0);
    OptionParser::CheckRangeOrExit("--degradedLinks",
                                   degradedLinks,
                                   0,
                                   degradeLeaf >= 0 ? uplinksPerLeaf : nLeaves * uplinksPerLeaf);
    OptionParser::CheckRangeOrExit("--failedLinks",
                                   failedLinks,
                                   0,
                                   failLeaf >= 0 ? uplinksPerLeaf : nLeaves * uplinksPerLeaf);
    m_degradedRate = OptionParser::RateOrExit("--degradedRate", degradedRate);
    m_failAt = OptionParser::TimeOrExit("--failAt", failAt);
    m_failFor = OptionParser::TimeOrExit("--failFor", failFor);
    m_failGap = OptionParser::TimeOrExit("--failGap", failGap);
    m_reconverge =
        reconverge == "never" ? Time::Max() : OptionParser::TimeOrExit("--reconverge", reconverge);
    OptionParser::CheckRangeOrExit("--evSpace", evSpace, 1, 65536);
    OptionParser::ChoiceOrExit("--markOn", markOn, {"dequeue", "enqueue"});
    OptionParser::ChoiceOrExit("--baseRtt", baseRtt, {"pair", "fabric"});
    OptionParser::ChoiceOrExit("--opsVariant", opsVariant, {"uniform", "deck"});
    m_rto = Time(0);
    if (rto != "reference" && rto != "basertt")
    {
        m_rto = OptionParser::TimeOrExit("--rto (reference, basertt or a Time)", rto);
        if (!m_rto.IsStrictlyPositive() || m_rto > Seconds(10))
        {
            OptionParser::Exit("--rto: " + rto +
                               " is out of range; allowed: reference, basertt, or a Time in "
                               "(0, 10s]");
        }
    }
    m_minRto = OptionParser::TimeOrExit("--minRto", minRto);
    if (m_minRto.IsStrictlyNegative() || m_minRto > Seconds(10))
    {
        OptionParser::Exit("--minRto: " + minRto + " is out of range; allowed: 0 to 10s");
    }
    m_freezeDuration = OptionParser::TimeOrExit("--freezeDuration", freezeDuration);
    if (!m_freezeDuration.IsStrictlyPositive() || m_freezeDuration > Seconds(1))
    {
        OptionParser::Exit("--freezeDuration: " + freezeDuration +
                           " is out of range; allowed: a Time in (0, 1s]");
    }
    m_start = OptionParser::TimeOrExit("--startTime", startTime);
    m_stop = OptionParser::TimeOrExit("--stopTime", stopTime);
    if (m_stop <= m_start)
    {
        OptionParser::Exit("--stopTime: must be later than --startTime");
    }
    m_sample = OptionParser::TimeOrExit("--sampleInterval", sampleInterval);
    for (const auto& [option, path] :
         {std::make_pair("--json", json), std::make_pair("--csv", csv)})
    {
        if (!path.empty() && path != "-" && !std::ofstream(path))
        {
            OptionParser::Exit(std::string(option) + ": cannot write '" + path + "'");
        }
    }
    // The fabric's own checks (e.g. cores a multiple of the aggregation switches).
    Ptr<ClosFabricHelper> helper = CreateObject<ClosFabricHelper>();
    helper->SetAttribute("Tiers", UintegerValue(tiers));
    helper->SetAttribute("HostsPerLeaf", UintegerValue(hostsPerLeaf));
    if (tiers == 2)
    {
        helper->SetAttribute("Leaves", UintegerValue(leaves));
        helper->SetAttribute("Spines", UintegerValue(spines));
    }
    else
    {
        helper->SetAttribute("Pods", UintegerValue(pods));
        helper->SetAttribute("LeavesPerPod", UintegerValue(leaves));
        helper->SetAttribute("AggsPerPod", UintegerValue(spines));
        helper->SetAttribute("Cores", UintegerValue(cores));
    }
    std::string fabricError = helper->Validate();
    if (!fabricError.empty())
    {
        OptionParser::Exit("fabric (--tiers, --leaves, --spines, --pods, --cores): " + fabricError);
    }
    m_checked = true;
}

const std::vector<PathSelectorNames::Choice>&
FabricExperiment::GetSelectors() const
{
    return m_selectors;
}

void
FabricExperiment::FillConfig(ExperimentReport& report) const
{
    report.SetConfig("lb", lb);
    report.SetConfig("tiers", tiers);
    report.SetConfig("leaves", leaves);
    report.SetConfig("hostsPerLeaf", hostsPerLeaf);
    report.SetConfig("spines", spines);
    report.SetConfig("pods", pods);
    report.SetConfig("cores", cores);
    report.SetConfig("hosts", GetHosts());
    report.SetConfig("linkRate", linkRate);
    report.SetConfig("linkRate_bps", m_linkRate.GetBitRate());
    report.SetConfig("linkDelay", linkDelay);
    report.SetConfig("mtu", mtu);
    report.SetConfig("queuePackets", queuePackets);
    report.SetConfig("ecnKmin", ecnKmin);
    report.SetConfig("ecnKmax", ecnKmax);
    report.SetConfig("trim", trim);
    report.SetConfig("markOn", markOn);
    report.SetConfig("controlPriority", controlPriority);
    report.SetConfig("baseRtt", baseRtt);
    report.SetConfig("rto", rto);
    report.SetConfig("minRto", minRto);
    report.SetConfig("rtoBackoff", rtoBackoff);
    report.SetConfig("opsVariant", opsVariant);
    report.SetConfig("freezing", freezing);
    report.SetConfig("freezeDuration", freezeDuration);
    report.SetConfig("forwarding", forwarding);
    report.SetConfig("cc", cc);
    report.SetConfig("pattern", pattern);
    report.SetConfig("flowSize", flowSize);
    report.SetConfig("flowSize_bytes", m_flowBytes);
    report.SetConfig("load", load);
    report.SetConfig("duration", duration);
    report.SetConfig("cdf", cdf);
    report.SetConfig("incastSenders", incastSenders);
    report.SetConfig("qpsPerPeer", qpsPerPeer);
    report.SetConfig("ring", ring);
    report.SetConfig("background", background);
    report.SetConfig("backgroundSize", backgroundSize);
    report.SetConfig("tcpBackground", tcpBackground);
    report.SetConfig("tcpBackgroundSize", tcpBackgroundSize);
    report.SetConfig("tcpMinRto", tcpMinRto);
    report.SetConfig("tcpVariant", tcpVariant);
    report.SetConfig("degradedLinks", degradedLinks);
    report.SetConfig("degradedRate", degradedRate);
    report.SetConfig("degradeLeaf", degradeLeaf);
    report.SetConfig("failedLinks", failedLinks);
    report.SetConfig("failAt", failAt);
    report.SetConfig("failFor", failFor);
    report.SetConfig("failGap", failGap);
    report.SetConfig("failLeaf", failLeaf);
    report.SetConfig("reconverge", reconverge);
    report.SetConfig("evSpace", evSpace);
    report.SetConfig("startTime", startTime);
    report.SetConfig("stopTime", stopTime);
    report.SetConfig("sampleInterval", sampleInterval);
    report.SetConfig("RngRun", RngSeedManager::GetRun());
    report.SetConfig("RngSeed", RngSeedManager::GetSeed());
    report.SetConfig("json", json);
    report.SetConfig("csv", csv);
    report.SetConfig("quiet", quiet);
}

void
FabricExperiment::PrintSetup(std::ostream& os) const
{
    os << "fabric: " << tiers << " tiers, " << GetHosts() << " hosts, ";
    if (tiers == 2)
    {
        os << leaves << " leaves x " << hostsPerLeaf << " hosts, " << spines << " spines";
    }
    else
    {
        os << pods << " pods of " << leaves << " leaves x " << hostsPerLeaf << " hosts and "
           << spines << " aggregation switches, " << cores << " cores";
    }
    os << ", " << linkRate << " links, " << linkDelay << " delay, queues " << queuePackets
       << " packets (ECN " << ecnKmin << "-" << ecnKmax << ")" << (trim ? ", trimming" : "")
       << "\n";
    os << "workload: " << pattern;
    if (pattern == "websearch" || pattern == "hadoop")
    {
        os << " at load " << load << " for " << duration;
    }
    else
    {
        os << ", " << flowSize << (pattern == "allreduce" ? " per host" : " per flow");
    }
    os << ", cc " << cc << ", EV space " << evSpace;
    if (degradedLinks)
    {
        os << ", " << degradedLinks << " uplinks at " << degradedRate;
    }
    if (failedLinks)
    {
        os << ", " << failedLinks << " uplinks fail at " << failAt << " for "
           << (m_failFor.IsZero() ? std::string("good") : failFor);
    }
    if (background > 0)
    {
        os << ", " << background * 100 << "% hosts send background flows";
    }
    if (tcpBackground > 0)
    {
        os << ", " << tcpBackground * 100 << "% hosts send a TCP flow ("
           << (m_tcpBackgroundBytes ? tcpBackgroundSize : std::string("unlimited"))
           << (tcpVariant.empty() ? std::string("") : ", " + tcpVariant) << ")";
    }
    os << "\n";
}

std::vector<uint32_t>
FabricExperiment::RingOrder(WorkloadHelper& workload, Ptr<ClosFabric> fabric) const
{
    uint32_t n = fabric->GetNHosts();
    if (ring == "random")
    {
        return workload.Shuffle(n);
    }
    std::vector<uint32_t> order(n);
    uint32_t perLeaf = fabric->GetNHostsPerLeaf();
    uint32_t nLeaves = fabric->GetNLeaves();
    for (uint32_t k = 0; k < n; ++k)
    {
        // Interleaved: consecutive ring positions sit on consecutive leaves, so that every hop
        // of the ring crosses the fabric.
        order[k] = ring == "sequential" ? k : (k % nLeaves) * perLeaf + k / nLeaves;
    }
    return order;
}

std::vector<uint32_t>
FabricExperiment::PickUplinks(Ptr<ClosFabric> fabric,
                              uint32_t n,
                              int32_t leaf,
                              uint32_t seed,
                              const std::string& option) const
{
    std::vector<uint32_t> candidates;
    uint32_t nLeaves = fabric->GetNLeaves();
    for (uint32_t l = 0; l < nLeaves; ++l)
    {
        if (leaf >= 0 && l != static_cast<uint32_t>(leaf))
        {
            continue;
        }
        uint32_t ups = tiers == 2 ? fabric->GetNSpines() : fabric->GetNAggsPerPod();
        for (uint32_t u = 0; u < ups; ++u)
        {
            candidates.push_back(tiers == 2 ? fabric->GetLeafSpineLink(l, u)
                                            : fabric->GetLeafAggLink(l, u));
        }
    }
    NS_ABORT_MSG_IF(n > candidates.size(),
                    option << ": " << n << " links asked, only " << candidates.size()
                           << " uplinks to choose from");
    if (n == 0)
    {
        return {};
    }
    if (leaf >= 0)
    {
        // The first n uplinks of the leaf, in order (a reproducible, easy-to-name choice).
        candidates.resize(n);
        return candidates;
    }
    // A random choice that depends on --RngRun, the same for every path selector.
    Ptr<UniformRandomVariable> rng = CreateObject<UniformRandomVariable>();
    rng->SetStream(seed);
    RandomShuffle(candidates, rng);
    candidates.resize(n);
    return candidates;
}

Time
FabricExperiment::QueuePairRto(Time fabricRtt, uint32_t packetBytes) const
{
    if (rto == "basertt")
    {
        return Time(0); // the queue pair's own rule: 5 x its base RTT
    }
    if (rto != "reference")
    {
        return m_rto;
    }
    // The fabric's longest unloaded RTT plus the time four full switch queues take to drain.
    Time drain = m_linkRate.CalculateBytesTxTime(static_cast<uint64_t>(queuePackets) *
                                                 (packetBytes + 2)); // + PPP header
    return fabricRtt + 4 * drain;
}

void
FabricExperiment::SetSelectorOptions(RdmaHelper& rdma, TypeId selector) const
{
    // TypeId::IsChildOf() is false for the type itself.
    auto isA = [selector](TypeId base) { return selector == base || selector.IsChildOf(base); };
    if (isA(OpsPathSelector::GetTypeId()))
    {
        rdma.SetPathSelectorAttribute(
            "Variant",
            EnumValue(opsVariant == "deck" ? OpsPathSelector::DECK : OpsPathSelector::UNIFORM));
    }
    if (isA(RepsPathSelector::GetTypeId()))
    {
        rdma.SetPathSelectorAttribute("FreezingEnabled", BooleanValue(freezing));
        rdma.SetPathSelectorAttribute("FreezeDuration", TimeValue(m_freezeDuration));
    }
}

void
FabricExperiment::SetBuiltCallback(BuiltCallback cb)
{
    m_built = cb;
}

RunResult
FabricExperiment::Run(const PathSelectorNames::Choice& choice)
{
    NS_LOG_FUNCTION(this << choice.name);
    NS_ABORT_MSG_UNLESS(m_checked, "FabricExperiment: call Check() before Run()");
    RunResult result;
    result.lb = choice.name;

    // The fabric; its devices must carry a full RoCEv2 packet of Mtu payload bytes.
    uint32_t packetBytes = mtu + RoceBthHeader::SIZE + RoceBthHeader::ICRC_SIZE + IP_UDP;
    Ptr<ClosFabricHelper> fh = CreateObject<ClosFabricHelper>();
    fh->SetAttribute("Mtu", UintegerValue(std::max<uint32_t>(1500, packetBytes)));
    fh->SetAttribute("Tiers", UintegerValue(tiers));
    fh->SetAttribute("HostsPerLeaf", UintegerValue(hostsPerLeaf));
    if (tiers == 2)
    {
        fh->SetAttribute("Leaves", UintegerValue(leaves));
        fh->SetAttribute("Spines", UintegerValue(spines));
    }
    else
    {
        fh->SetAttribute("Pods", UintegerValue(pods));
        fh->SetAttribute("LeavesPerPod", UintegerValue(leaves));
        fh->SetAttribute("AggsPerPod", UintegerValue(spines));
        fh->SetAttribute("Cores", UintegerValue(cores));
    }
    for (const char* rate : {"HostLinkRate", "LeafUplinkRate", "AggUplinkRate"})
    {
        fh->SetAttribute(rate, DataRateValue(m_linkRate));
    }
    for (const char* delay : {"HostLinkDelay", "LeafUplinkDelay", "AggUplinkDelay"})
    {
        fh->SetAttribute(delay, TimeValue(m_linkDelay));
    }
    fh->SetAttribute("QueueMaxSize",
                     QueueSizeValue(QueueSize(QueueSizeUnit::PACKETS, queuePackets)));
    fh->SetAttribute("EcnKmin", QueueSizeValue(QueueSize(QueueSizeUnit::PACKETS, ecnKmin)));
    fh->SetAttribute("EcnKmax", QueueSizeValue(QueueSize(QueueSizeUnit::PACKETS, ecnKmax)));
    fh->SetAttribute("Trimming", BooleanValue(trim));
    fh->SetSwitchQueueDisc("ns3::EcnQueueDisc",
                           "MarkOn",
                           EnumValue(markOn == "enqueue" ? EcnQueueDisc::MARK_ON_ENQUEUE
                                                         : EcnQueueDisc::MARK_ON_DEQUEUE),
                           "ControlPriority",
                           BooleanValue(controlPriority));
    fh->SetAttribute("RoutingConvergenceDelay", TimeValue(m_reconverge));
    fh->SetAttribute("ForwardingMode",
                     StringValue(forwarding == "random"     ? "Random"
                                 : forwarding == "adaptive" ? "Adaptive"
                                                            : "FlowHash"));
    Ptr<ClosFabric> fabric = fh->Build();
    ClosFabricHelper::AssignStreams(fabric, 100);
    NodeContainer hosts = fabric->GetHosts();
    uint32_t n = hosts.GetN();

    uint32_t ackBytes =
        RoceBthHeader::SIZE + RoceAckHeader::SIZE + RoceBthHeader::ICRC_SIZE + IP_UDP;
    // The longest base RTT: host 0 to the last host crosses the whole fabric.
    Time fabricRtt = fabric->GetBaseRtt(0, n - 1, packetBytes, ackBytes);

    // RDMA on every host.
    RdmaHelper rdma;
    rdma.SetPathSelector(choice.tid.GetName(), "EntropySpace", UintegerValue(evSpace));
    SetSelectorOptions(rdma, choice.tid);
    rdma.SetCongestionControl(m_ccType);
    rdma.SetQueuePairAttribute("Mtu", UintegerValue(mtu));
    rdma.SetQueuePairAttribute("BaseRtt", TimeValue(fabricRtt));
    if (baseRtt == "pair")
    {
        rdma.SetBaseRttCallback(MakeBoundCallback(&AddressRtt, fabric, packetBytes, ackBytes));
    }
    rdma.SetQueuePairAttribute("Trimming", BooleanValue(trim));
    rdma.SetQueuePairAttribute("Rto", TimeValue(QueuePairRto(fabricRtt, packetBytes)));
    rdma.SetQueuePairAttribute("MinRto", TimeValue(m_minRto));
    rdma.SetQueuePairAttribute("RtoBackoff", BooleanValue(rtoBackoff));
    RdmaHelper backgroundRdma = rdma;
    backgroundRdma.SetPathSelector("ns3::EcmpPathSelector", "EntropySpace", UintegerValue(evSpace));
    rdma.Install(hosts);
    RdmaFlowLauncher launcher(hosts, &rdma, &backgroundRdma);

    // The workload: the same for every path selector (fixed streams, --RngRun changes them).
    WorkloadHelper wl(n);
    wl.AssignStreams(1000);
    wl.SetStartTime(m_start);
    std::vector<FlowSpec> flows;
    Ptr<Collective> collective;
    std::vector<uint32_t> ringOrder;
    if (pattern == "permutation")
    {
        flows = wl.Permutation(m_flowBytes);
    }
    else if (pattern == "tornado")
    {
        flows = wl.Tornado(m_flowBytes);
    }
    else if (pattern == "incast")
    {
        flows = wl.Incast(incastSenders, 0, m_flowBytes);
    }
    else if (pattern == "websearch" || pattern == "hadoop")
    {
        FlowSizeCdf sizes;
        std::string error;
        bool ok = sizes.Load(cdf.empty() ? pattern : cdf, error);
        NS_ABORT_MSG_UNLESS(ok, error);
        flows = wl.Poisson(sizes, load, m_linkRate, m_duration);
    }
    if (background > 0)
    {
        std::vector<FlowSpec> bg = wl.Background(background, m_backgroundBytes);
        flows.insert(flows.end(), bg.begin(), bg.end());
    }
    uint32_t firstCollectiveId = static_cast<uint32_t>(flows.size());
    if (pattern == "allreduce")
    {
        Ptr<RingAllReduce> ar = CreateObject<RingAllReduce>();
        ar->SetAttribute("DataBytes", UintegerValue(m_flowBytes));
        collective = ar;
        ringOrder = RingOrder(wl, fabric);
        for (uint32_t i = 0; i < n; ++i)
        {
            launcher.PreparePair(ringOrder[i], ringOrder[(i + 1) % n], 0, false);
        }
    }
    else if (pattern == "alltoall")
    {
        Ptr<AllToAllCollective> a2a = CreateObject<AllToAllCollective>();
        a2a->SetAttribute("BytesPerPeer", UintegerValue(m_flowBytes));
        a2a->SetAttribute("FlowsPerPeer", UintegerValue(qpsPerPeer));
        collective = a2a;
        for (uint32_t i = 0; i < n; ++i)
        {
            for (uint32_t j = 0; j < n; ++j)
            {
                for (uint32_t q = 0; i != j && q < qpsPerPeer; ++q)
                {
                    launcher.PreparePair(i, j, q, false);
                }
            }
        }
    }
    launcher.Prepare(flows);
    rdma.AssignStreams(hosts, 2000);
    if (!m_built.IsNull())
    {
        m_built(fabric, launcher.GetSenders());
    }

    Ptr<WorkloadRunner> runner = CreateObject<WorkloadRunner>();
    runner->SetLauncher(launcher.GetLauncher());
    runner->GetStats().SetIdeal(m_linkRate, fabricRtt);
    runner->GetStats().SetBaseRttCallback(
        MakeBoundCallback(&PairRtt, fabric, packetBytes, ackBytes));
    Completion completion;
    runner->SetAllCompletedCallback(MakeBoundCallback(&RdmaDone, &completion));
    runner->Schedule(flows);
    uint32_t totalFlows = static_cast<uint32_t>(flows.size());
    if (collective)
    {
        collective->SetAttribute("StartTime", TimeValue(m_start));
        collective->SetAttribute("FirstFlowId", UintegerValue(firstCollectiveId));
        if (ringOrder.empty())
        {
            collective->SetHosts(n);
        }
        else
        {
            collective->SetHosts(ringOrder);
        }
        collective->SetLauncher(runner->GetLauncher());
        collective->Start();
        totalFlows += collective->GetFlowCount();
    }

    // ns-3 TCP background flows: the same hosts and destinations for every path selector.
    TcpBackground tcp;
    if (tcpBackground > 0)
    {
        // Full-size segments that never need IP fragmentation: the device MTU less the IPv4
        // header and the largest TCP header (options included).
        Config::SetDefault("ns3::TcpSocket::SegmentSize",
                           UintegerValue(std::max<uint32_t>(1500, packetBytes) - 20 - 60));
        // ns-3's 1 s minimum RTO, 3 s SYN timeout and 1 s initial RTT estimate are WAN values:
        // in a fabric of microsecond RTTs a segment or SYN dropped by a marking queue would
        // stall its flow for seconds.
        Config::SetDefault("ns3::TcpSocketBase::MinRto", TimeValue(m_tcpMinRto));
        Config::SetDefault("ns3::TcpSocket::ConnTimeout", TimeValue(m_tcpMinRto));
        // A lone segment is ACKed after the delayed-ACK timeout (ns-3: 200 ms); below the RTO,
        // as in Linux (40 ms against 200 ms), or every such segment times out and the window
        // collapses to one segment.
        Config::SetDefault("ns3::TcpSocket::DelAckTimeout", TimeValue(m_tcpMinRto / 5));
        Config::SetDefault("ns3::RttEstimator::InitialEstimation", TimeValue(m_tcpMinRto));
        tcp.Install(fabric,
                    TcpBackground::PickPairs(n, tcpBackground, 3100),
                    m_tcpBackgroundBytes,
                    m_start,
                    m_tcpVariant);
        if (m_tcpBackgroundBytes > 0)
        {
            completion.tcp = false;
            tcp.SetAllCompletedCallback(MakeBoundCallback(&TcpDone, &completion));
        }
    }

    // Faults, the same for every path selector.
    uint32_t seed = 3000;
    for (uint32_t link : PickUplinks(fabric, degradedLinks, degradeLeaf, seed, "--degradedLinks"))
    {
        fabric->DegradeLink(link, m_degradedRate, Seconds(0));
        result.events.push_back({Seconds(0), fabric->GetLinkName(link) + " at " + degradedRate});
    }
    std::vector<uint32_t> failed =
        PickUplinks(fabric, failedLinks, failLeaf, seed + 1, "--failedLinks");
    for (size_t k = 0; k < failed.size(); ++k)
    {
        Time at = m_failAt + m_failGap * static_cast<int64_t>(k);
        Time up = m_failFor.IsStrictlyPositive() ? at + m_failFor : Time::Max();
        fabric->FailLink(failed[k], at, up);
        result.events.push_back({at, fabric->GetLinkName(failed[k]) + " down"});
        if (up != Time::Max())
        {
            result.events.push_back({up, fabric->GetLinkName(failed[k]) + " up"});
        }
    }

    std::stable_sort(result.events.begin(),
                     result.events.end(),
                     [](const RunEvent& a, const RunEvent& b) { return a.time < b.time; });

    Ptr<FabricMonitor> monitor = CreateObject<FabricMonitor>();
    monitor->SetAttribute("Interval", TimeValue(m_sample));
    monitor->SetFabric(fabric);
    monitor->SetRunner(runner);
    monitor->Start();

    Ptr<ProgressReporter> progress;
    if (!quiet)
    {
        progress = CreateObject<ProgressReporter>();
        progress->SetLabel(choice.name);
        progress->SetFlowCounters(MakeBoundCallback(&Completed, runner),
                                  MakeBoundCallback(&Total, totalFlows));
        progress->Start();
    }

    Simulator::Stop(m_stop);
    auto wallStart = std::chrono::steady_clock::now();
    Simulator::Run();
    result.wallSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count();
    result.simTime = Simulator::Now();

    result.flows = runner->GetStats();
    if (collective)
    {
        result.flows.AddCollective(collective->GetRecord());
    }
    monitor->Fill(result);
    result.tcpBackground = tcp.GetResult(result.simTime);
    RdmaQueuePairStats totals = launcher.GetSenderTotals();
    result.packets = totals.packetsSent;
    result.retransmissions = totals.retransmissions;
    result.freezes = launcher.GetFreezes();
    uint64_t linkPackets = monitor->GetLinkPackets();
    result.extra["timeouts"] = totals.timeouts;
    result.extra["nacks"] = totals.nacksReceived;
    result.extra["ecn_acks"] = totals.ecnAcks;
    result.extra["queue_pairs"] = launcher.GetSenders().size();
    result.extra["base_rtt_us"] = fabricRtt.ToDouble(Time::US);
    result.extra["link_packets"] = linkPackets;
    result.extra["wall_us_per_link_packet"] =
        linkPackets ? result.wallSeconds * 1e6 / linkPackets : 0.0;
    Simulator::Destroy();
    return result;
}

void
FabricExperiment::RunAll(std::ostream& os, ExperimentReport& report)
{
    NS_LOG_FUNCTION(this);
    FillConfig(report);
    PrintSetup(os);
    for (const PathSelectorNames::Choice& choice : m_selectors)
    {
        report.AddResult(Run(choice));
    }
    os << "\n";
    report.PrintTable(os);
    WriteOutputs(report);
}

void
FabricExperiment::WriteOutputs(const ExperimentReport& report) const
{
    std::string error;
    if (!json.empty() && !report.WriteJson(json, error))
    {
        OptionParser::Exit("--json: " + error);
    }
    if (!csv.empty() && !report.WriteCsv(csv, error))
    {
        OptionParser::Exit("--csv: " + error);
    }
}

} // namespace ns3
