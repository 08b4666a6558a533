/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup reps
 * A research script written against the module's helpers alone (no experiment layer), the
 * one the manual's chapter "Writing a research script" builds step by step.
 *
 * Question: when one leaf uplink runs at a quarter of its rate, how much of the traffic that
 * leaf sends upward does a path selector still put on it, and what does that cost the flows?
 *
 *   ./ns3 run "reps-research-script --selector=ns3::RepsPathSelector"
 *   ./ns3 run "reps-research-script --selector=ns3::OpsPathSelector --degradedRate=25Gbps"
 *   ./ns3 run "reps-research-script --ns3::RepsPathSelector::FreezeDuration=1ms"
 *
 * The regions between "// [name]" and "// [name end]" are the ones the manual shows (the test
 * reps-manual-snippets checks that the chapter quotes them as they are here).
 */

#include "ns3/core-module.h"
#include "ns3/network-module.h"
#include "ns3/reps-module.h"

#include <fstream>
#include <iomanip>
#include <iostream>

using namespace ns3;

namespace
{

/// What the trace sinks count.
struct Counters
{
    uint64_t sent{0};     //!< Data packets sent, retransmissions included.
    uint64_t retx{0};     //!< Retransmissions.
    uint64_t freezes{0};  //!< REPS freezes started.
    uint64_t evGood{0};   //!< Feedback: the packet's path was fine.
    uint64_t evMarked{0}; //!< Feedback: ECN-marked, NACKed or lost.
};

/// Step 6: trace sinks. PacketSent(psn, ev, retransmission) of every sending queue pair.
void
PacketSent(Counters* c, uint32_t /* psn */, uint16_t /* ev */, bool retransmission)
{
    ++c->sent;
    c->retx += retransmission ? 1 : 0;
}

/// Feedback(ev, kind) of every path selector: what came back for an entropy value.
void
Feedback(Counters* c, uint16_t /* ev */, PathSelector::Feedback::Kind kind)
{
    ++(kind == PathSelector::Feedback::GOOD ? c->evGood : c->evMarked);
}

/// FreezeStarted(time) of REPS.
void
FreezeStarted(Counters* c, Time /* time */)
{
    ++c->freezes;
}

// [params]
/// The study's parameters.
struct Params
{
    std::string selector = "ns3::RepsPathSelector"; //!< PathSelector TypeId.
    uint32_t leaves = 4;                             //!< Leaf switches.
    uint32_t hostsPerLeaf = 4;                       //!< Hosts per leaf.
    uint32_t spines = 4;                             //!< Spine switches.
    DataRate linkRate{"100Gbps"};                    //!< Rate of every link.
    DataRate degradedRate{"25Gbps"};                 //!< Rate of the degraded uplink.
    uint64_t flowBytes = 1 << 20;                    //!< Bytes per flow.
    uint32_t mtu = 4096;                             //!< Payload bytes of a full packet.
    std::string json;                                //!< Result file ("": none).
};
// [params end]

/**
 * Step 1, continued: check the parameters before anything is built.
 * \param p the parameters
 * \return an empty string, or what is wrong, naming the option and what is allowed
 */
std::string
CheckParams(const Params& p)
{
    std::string error =
        RdmaHelper::ValidateTypeId(p.selector, PathSelector::GetTypeId(), "--selector");
    if (error.empty() && (p.leaves < 2 || p.spines < 2 || p.hostsPerLeaf < 1 ||
                          p.leaves > 1024 || p.spines > 1024 || p.hostsPerLeaf > 1024))
    {
        error = "--leaves, --spines, --hostsPerLeaf: allowed: 2 to 1024, 2 to 1024, 1 to 1024";
    }
    else if (error.empty() && (p.flowBytes == 0 || p.flowBytes > (uint64_t(1) << 40)))
    {
        error = "--flowBytes: allowed: 1 to 2^40 bytes";
    }
    else if (error.empty() && (p.degradedRate.GetBitRate() == 0 || p.degradedRate > p.linkRate))
    {
        error = "--degradedRate: allowed: above 0 and at most --linkRate";
    }
    return error;
}

/**
 * Step 2: the fabric, by attributes of ClosFabricHelper.
 * \param p the parameters
 * \return the fabric
 */
Ptr<ClosFabric>
BuildFabric(const Params& p)
{
    // [fabric]
    Ptr<ClosFabricHelper> fabricHelper = CreateObject<ClosFabricHelper>();
    fabricHelper->SetAttribute("Tiers", UintegerValue(2));
    fabricHelper->SetAttribute("Leaves", UintegerValue(p.leaves));
    fabricHelper->SetAttribute("HostsPerLeaf", UintegerValue(p.hostsPerLeaf));
    fabricHelper->SetAttribute("Spines", UintegerValue(p.spines));
    fabricHelper->SetAttribute("HostLinkRate", DataRateValue(p.linkRate));
    fabricHelper->SetAttribute("LeafUplinkRate", DataRateValue(p.linkRate));
    // The devices' MTU holds a full packet's payload and its headers (IPv4, UDP, BTH, ...).
    fabricHelper->SetAttribute("Mtu", UintegerValue(p.mtu + 104));
    // [fabric end]
    // [queues]
    fabricHelper->SetSwitchQueueDisc("ns3::EcnQueueDisc",
                                     "MaxSize", QueueSizeValue(QueueSize("100p")),
                                     "Kmin", QueueSizeValue(QueueSize("20p")),
                                     "Kmax", QueueSizeValue(QueueSize("80p")),
                                     "Trimming", BooleanValue(false));
    // [queues end]
    // [build]
    Ptr<ClosFabric> fabric = fabricHelper->Build();
    ClosFabricHelper::AssignStreams(fabric, 100);
    // [build end]
    return fabric;
}

/**
 * Step 6: trace sources of the sending queue pairs and their path selectors.
 * \param launcher the launcher holding the queue pairs
 * \param counters what the sinks count
 */
void
ConnectTraces(Ptr<RdmaFlowLauncher> launcher, Counters* counters)
{
    // [traces]
    for (Ptr<RdmaQueuePair> qp : launcher->GetSenders())
    {
        qp->TraceConnectWithoutContext("PacketSent", MakeBoundCallback(&PacketSent, counters));
        Ptr<PathSelector> ps = qp->GetPathSelector();
        ps->TraceConnectWithoutContext("Feedback", MakeBoundCallback(&Feedback, counters));
        // Only REPS has this source; TraceConnectWithoutContext says false elsewhere.
        ps->TraceConnectWithoutContext("FreezeStarted",
                                       MakeBoundCallback(&FreezeStarted, counters));
    }
    // [traces end]
}

/**
 * Step 8: results: FCTs from the runner's statistics, bytes per uplink from the fabric.
 * \param p the parameters
 * \param fabric the fabric
 * \param stats the flows' statistics
 * \param c the trace sinks' counts
 */
void
Report(const Params& p, Ptr<ClosFabric> fabric, const FlowStats& stats, const Counters& c)
{
    SampleSummary fct = stats.GetFctSummaryUs();
    SampleSummary slowdown = stats.GetSlowdownSummary();
    uint64_t upBytes = 0;
    for (uint32_t s = 0; s < p.spines; ++s)
    {
        upBytes += fabric->GetLinkCounters(fabric->GetLeafSpineLink(0, s), 0).bytes;
    }
    uint64_t slowBytes = fabric->GetLinkCounters(fabric->GetLeafSpineLink(0, 0), 0).bytes;
    std::cout << std::fixed << std::setprecision(1) << "selector " << p.selector << ", "
              << fabric->GetNHosts() << " hosts, uplink leaf0-spine0 at "
              << p.degradedRate.GetBitRate() / 1e9 << " of " << p.linkRate.GetBitRate() / 1e9
              << " Gb/s\n"
              << "flows completed   " << stats.GetCompletedCount() << " of "
              << stats.GetFlowCount() << "\n"
              << "FCT mean / p99    " << fct.mean << " / " << fct.p99 << " us\n"
              << "slowdown mean     " << std::setprecision(2) << slowdown.mean << "\n"
              << std::setprecision(1) << "leaf 0 upward bytes on the slow uplink "
              << (upBytes ? 100.0 * slowBytes / upBytes : 0.0) << "% (even share "
              << 100.0 / p.spines << "%)\n"
              << "packets sent " << c.sent << ", retransmissions " << c.retx
              << ", feedback good " << c.evGood << " / bad " << c.evMarked << ", REPS freezes "
              << c.freezes << "\n";
}

/**
 * Step 8, continued: the results as a file utils/sweep.py reads (its "what a program must
 * accept"): the run number in "config", one entry per path selector in "results".
 * \param p the parameters
 * \param fabric the fabric
 * \param stats the flows' statistics
 * \param c the trace sinks' counts
 * \return false when the file cannot be written (said on the standard error)
 */
bool
WriteJson(const Params& p, Ptr<ClosFabric> fabric, const FlowStats& stats, const Counters& c)
{
    std::ofstream out(p.json);
    SampleSummary fct = stats.GetFctSummaryUs();
    SampleSummary slowdown = stats.GetSlowdownSummary();
    uint64_t upBytes = 0;
    for (uint32_t s = 0; s < p.spines; ++s)
    {
        upBytes += fabric->GetLinkCounters(fabric->GetLeafSpineLink(0, s), 0).bytes;
    }
    uint64_t slowBytes = fabric->GetLinkCounters(fabric->GetLeafSpineLink(0, 0), 0).bytes;
    out << std::setprecision(10) << "{\"config\": {\"RngRun\": " << RngSeedManager::GetRun()
        << ", \"selector\": \"" << p.selector << "\", \"leaves\": " << p.leaves
        << ", \"hostsPerLeaf\": " << p.hostsPerLeaf << ", \"spines\": " << p.spines
        << ", \"flowBytes\": " << p.flowBytes << ", \"mtu\": " << p.mtu
        << "},\n \"results\": [{\"lb\": \"" << p.selector << "\", \"flows\": " << stats.GetFlowCount()
        << ", \"completed\": " << stats.GetCompletedCount() << ", \"fct_us\": {\"mean\": "
        << fct.mean << ", \"p99\": " << fct.p99 << "}, \"slowdown\": {\"mean\": " << slowdown.mean
        << ", \"p99\": " << slowdown.p99 << "}, \"slow_uplink_share\": "
        << (upBytes ? double(slowBytes) / upBytes : 0.0) << ", \"retransmissions\": " << c.retx
        << "}]}\n";
    if (!out)
    {
        std::cerr << "error: --json: cannot write " << p.json << "\n";
    }
    return bool(out);
}

} // namespace

int
main(int argc, char* argv[])
{
    // Step 1: parameters, from the command line (any attribute default too: --ns3::...).
    Params p;
    CommandLine cmd(__FILE__);
    cmd.AddValue("selector", "PathSelector TypeId of the queue pairs", p.selector);
    cmd.AddValue("leaves", "Leaf switches", p.leaves);
    cmd.AddValue("hostsPerLeaf", "Hosts under every leaf", p.hostsPerLeaf);
    cmd.AddValue("spines", "Spine switches", p.spines);
    cmd.AddValue("linkRate", "Rate of every link", p.linkRate);
    cmd.AddValue("degradedRate", "Rate of leaf 0's uplink to spine 0", p.degradedRate);
    cmd.AddValue("flowBytes", "Bytes per flow of the permutation", p.flowBytes);
    cmd.AddValue("mtu", "Payload bytes of a full packet", p.mtu);
    cmd.AddValue("json", "Write the results to this file (for utils/sweep.py)", p.json);
    cmd.Parse(argc, argv);
    std::string error = CheckParams(p);
    if (!error.empty())
    {
        std::cerr << "error: " << error << "\n";
        return 1;
    }

    // Step 2: the fabric.
    Ptr<ClosFabric> fabric = BuildFabric(p);
    NodeContainer hosts = fabric->GetHosts();

    // Step 3: the fault under study, from the start.
    // [fault]
    uint32_t slowLink = fabric->GetLeafSpineLink(0, 0);
    fabric->DegradeLink(slowLink, p.degradedRate);
    // [fault end]

    // Step 4: RDMA on every host, one path selector type for every queue pair.
    // [transport]
    Time baseRtt = fabric->GetBaseRtt(0, hosts.GetN() - 1, p.mtu + 60, 64);
    RdmaHelper rdma;
    rdma.SetPathSelector(p.selector);
    rdma.SetCongestionControl("ns3::RdmaWindowCongestionControl");
    rdma.SetQueuePairAttribute("Mtu", UintegerValue(p.mtu));
    rdma.SetQueuePairAttribute("BaseRtt", TimeValue(baseRtt));
    rdma.SetQueuePairAttribute("Rto", TimeValue(5 * baseRtt));
    rdma.Install(hosts);
    // [transport end]

    // Step 5: the workload: a random permutation, one flow per host, at 1 us.
    // [workload]
    WorkloadHelper workload(hosts.GetN());
    workload.SetStartTime(MicroSeconds(1));
    workload.AssignStreams(200);
    std::vector<FlowSpec> flows = workload.Permutation(p.flowBytes);
    Ptr<RdmaFlowLauncher> launcher = CreateObject<RdmaFlowLauncher>(hosts, &rdma);
    launcher->Prepare(flows);
    rdma.AssignStreams(hosts, 300);
    Ptr<WorkloadRunner> runner = CreateObject<WorkloadRunner>();
    runner->SetLauncher(launcher->GetLauncher());
    runner->GetStats().SetIdeal(p.linkRate, baseRtt);
    runner->Schedule(flows);
    // [workload end]

    // Step 6: trace sources.
    Counters counters;
    ConnectTraces(launcher, &counters);

    // Step 7: run until the last flow completes (or 1 s of simulated time).
    // [run]
    runner->SetAllCompletedCallback(MakeCallback(static_cast<void (*)()>(&Simulator::Stop)));
    Simulator::Stop(Seconds(1));
    Simulator::Run();
    // [run end]

    // Step 8: results.
    const FlowStats& stats = runner->GetStats();
    Report(p, fabric, stats, counters);
    bool written = p.json.empty() || WriteJson(p, fabric, stats, counters);
    bool done = written && stats.GetCompletedCount() == stats.GetFlowCount();
    Simulator::Destroy();
    return done ? 0 : 1;
}
