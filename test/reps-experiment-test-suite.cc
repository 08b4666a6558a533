/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "../examples/skip-round-robin-path-selector.h"
#include "reps-test-compat.h"

#include "ns3/clos-fabric-helper.h"
#include "ns3/clos-fabric.h"
#include "ns3/config.h"
#include "ns3/ecmp-path-selector.h"
#include "ns3/fabric-experiment.h"
#include "ns3/fabric-switch.h"
#include "ns3/ideal-fct.h"
#include "ns3/pfc-port.h"
#include "ns3/pfc-switch.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/queue-disc.h"
#include "ns3/rdma-flow-launcher.h"
#include "ns3/rdma-helper.h"
#include "ns3/rdma-stack.h"
#include "ns3/ring-all-reduce.h"
#include "ns3/roce-ack-header.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/tcp-background.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"
#include "ns3/workload-helper.h"
#include "ns3/workload-runner.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <unistd.h>

using namespace ns3;

namespace
{

/// Payload bytes per packet in these tests.
constexpr uint32_t MTU = 1000;

/**
 * A 2-tier fabric of 2 leaves x 2 hosts and 2 spines at 100 Gb/s, with the RDMA stack on
 * every host.
 * \return the fabric
 */
Ptr<ClosFabric>
SmallRdmaFabric()
{
    Config::SetDefault("ns3::PointToPointNetDevice::Mtu", UintegerValue(1500));
    Ptr<ClosFabricHelper> h = CreateObject<ClosFabricHelper>();
    h->SetAttribute("Leaves", UintegerValue(2));
    h->SetAttribute("HostsPerLeaf", UintegerValue(2));
    h->SetAttribute("Spines", UintegerValue(2));
    for (const char* rate : {"HostLinkRate", "LeafUplinkRate"})
    {
        h->SetAttribute(rate, DataRateValue(DataRate("100Gbps")));
    }
    Ptr<ClosFabric> fabric = h->Build();
    ClosFabricHelper::AssignStreams(fabric, 10);
    return fabric;
}

/**
 * \param fabric a fabric whose hosts have the RDMA stack.
 * \return payload bytes placed by every receiving queue pair, per (sender, receiver) host.
 */
std::map<std::pair<uint32_t, uint32_t>, uint64_t>
BytesReceived(Ptr<ClosFabric> fabric)
{
    std::map<std::pair<uint32_t, uint32_t>, uint64_t> bytes;
    for (uint32_t h = 0; h < fabric->GetNHosts(); ++h)
    {
        Ptr<RdmaStack> stack = fabric->GetHost(h)->GetObject<RdmaStack>();
        for (uint32_t qpn = 1; qpn <= stack->GetNQueuePairs(); ++qpn)
        {
            Ptr<RdmaQueuePair> qp = stack->GetQueuePair(qpn);
            uint32_t from = fabric->GetHostIndex(qp->GetRemoteAddress());
            if (qp->GetStats().bytesReceived > 0)
            {
                bytes[{from, h}] += qp->GetStats().bytesReceived;
            }
        }
    }
    return bytes;
}

/**
 * \param fabric the fabric.
 * \param src a host.
 * \param dst another host.
 * \return the base RTT between them for full packets.
 */
Time
PairRtt(Ptr<ClosFabric> fabric, uint32_t src, uint32_t dst)
{
    return fabric->GetBaseRtt(src, dst, MTU + 44, 64);
}

/// Stops the simulation.
void
Stop()
{
    Simulator::Stop();
}

} // namespace

/**
 * \ingroup reps-test
 * Flows carried by RDMA queue pairs: every flow completes, every byte arrives exactly once at
 * its destination, no flow beats its ideal completion time, and background flows are pinned
 * by ECMP whatever the main path selector.
 */
class RdmaFlowLauncherTestCase : public TestCase
{
  public:
    RdmaFlowLauncherTestCase()
        : TestCase("RDMA flow launcher: every byte of every flow delivered, FCT >= ideal")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<ClosFabric> fabric = SmallRdmaFabric();
        NodeContainer hosts = fabric->GetHosts();
        Time baseRtt = fabric->GetBaseRtt(0, 3, MTU + 44, 64);
        RdmaHelper rdma;
        rdma.SetPathSelector("ns3::OpsPathSelector");
        rdma.SetCongestionControl("ns3::RdmaWindowCongestionControl");
        rdma.SetQueuePairAttribute("Mtu", UintegerValue(MTU));
        rdma.SetQueuePairAttribute("BaseRtt", TimeValue(baseRtt));
        RdmaHelper background = rdma;
        background.SetPathSelector("ns3::EcmpPathSelector");
        rdma.Install(hosts);
        Ptr<RdmaFlowLauncher> launcher = CreateObject<RdmaFlowLauncher>(hosts, &rdma, &background);

        WorkloadHelper wl(hosts.GetN());
        wl.AssignStreams(1);
        wl.SetStartTime(MicroSeconds(1));
        std::vector<FlowSpec> flows = wl.Permutation(64 * 1024 + 123);
        std::vector<FlowSpec> more = wl.Tornado(10000); // a second message on some pairs
        flows.insert(flows.end(), more.begin(), more.end());
        std::vector<FlowSpec> bg = wl.Background(0.5, 20000);
        flows.insert(flows.end(), bg.begin(), bg.end());
        launcher->Prepare(flows);
        rdma.AssignStreams(hosts, 100);

        Ptr<WorkloadRunner> runner = CreateObject<WorkloadRunner>();
        runner->SetLauncher(launcher->GetLauncher());
        IdealFct::Packets packets{MTU, 44 + IdealFct::LINK_FRAMING, 64 + IdealFct::LINK_FRAMING};
        runner->GetStats().SetIdealCallback(
            Callback<Time, const FlowSpec&>([fabric, packets](const FlowSpec& f) {
                return IdealFct::Compute(IdealFct::PathOf(fabric, f.src, f.dst), f.bytes, packets);
            }));
        runner->SetAllCompletedCallback(MakeCallback(&Stop));
        runner->Schedule(flows);
        Simulator::Stop(MilliSeconds(10));
        Simulator::Run();

        NS_TEST_ASSERT_MSG_EQ(runner->GetCompleted(), flows.size(), "every flow completes");
        std::map<std::pair<uint32_t, uint32_t>, uint64_t> expected;
        for (const FlowSpec& f : flows)
        {
            expected[{f.src, f.dst}] += f.bytes;
        }
        std::map<std::pair<uint32_t, uint32_t>, uint64_t> received = BytesReceived(fabric);
        NS_TEST_ASSERT_MSG_EQ(received.size(), expected.size(), "pairs that received data");
        for (const auto& [pair, bytes] : expected)
        {
            NS_TEST_ASSERT_MSG_EQ(received[pair],
                                  bytes,
                                  "bytes from host " << pair.first << " to " << pair.second);
        }
        for (const FlowStats::Record& r : runner->GetStats().GetRecords())
        {
            NS_TEST_ASSERT_MSG_GT_OR_EQ(runner->GetStats().GetSlowdown(r),
                                        0.999,
                                        "flow " << r.flow.id << " beat its ideal FCT");
        }
        uint32_t pinned = 0;
        for (const Ptr<RdmaQueuePair>& qp : launcher->GetSenders())
        {
            pinned += qp->GetPathSelector()->GetName() == "ecmp" ? 1 : 0;
        }
        NS_TEST_ASSERT_MSG_EQ(pinned, bg.size(), "one ECMP queue pair per background flow");
        RdmaQueuePairStats totals = launcher->GetSenderTotals();
        NS_TEST_ASSERT_MSG_GT_OR_EQ(totals.packetsSent,
                                    (64 * 1024 + 123) / MTU * hosts.GetN(),
                                    "packets counted");
        NS_TEST_ASSERT_MSG_EQ(totals.messagesCompleted, flows.size(), "messages completed");
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * The launcher's ConnectionMapping: two flows of one pair posted together run side by side
 * on two queue pairs under Flow and one after the other on one under Pair; under Reuse a flow
 * that starts after its pair's previous flow finished rides that flow's queue pair (its
 * selector and window), while one that overlaps gets a new one; a pair opened with
 * PreparePair keeps its one connection under every mapping.
 */
class ConnectionMappingTestCase : public TestCase
{
  public:
    ConnectionMappingTestCase()
        : TestCase("RDMA flow launcher: one connection per flow, per pair, or reused with state")
    {
    }

  private:
    /// What one run of the scenario gave.
    struct Outcome
    {
        std::vector<Time> fct;                 //!< FCT of each flow, by flow id.
        std::vector<Ptr<RdmaQueuePair>> rides; //!< Queue pair each flow rode, by flow id.
        size_t senders{0};                     //!< Sending queue pairs created.
    };

    /**
     * Flows 0 and 1 (host 0 to 3, 200 kB, both at 1 us), flow 2 (the same pair, 1 kB) once
     * both have finished, flows 3 and 4 (host 1 to 2) started together 1 ms later.
     * \param mapping the ConnectionMapping
     * \param openPair whether host 0 to 3 is opened first with PreparePair
     * \return the outcome
     */
    Outcome Run(const std::string& mapping, bool openPair)
    {
        Ptr<ClosFabric> fabric = SmallRdmaFabric();
        NodeContainer hosts = fabric->GetHosts();
        RdmaHelper rdma;
        rdma.SetPathSelector("ns3::RepsPathSelector");
        rdma.SetCongestionControl("ns3::RdmaWindowCongestionControl");
        rdma.SetQueuePairAttribute("Mtu", UintegerValue(MTU));
        rdma.SetQueuePairAttribute("BaseRtt", TimeValue(PairRtt(fabric, 0, 3)));
        rdma.Install(hosts);
        Ptr<RdmaFlowLauncher> launcher = CreateObject<RdmaFlowLauncher>(hosts, &rdma);
        launcher->SetAttribute("ConnectionMapping", StringValue(mapping));
        std::vector<FlowSpec> flows(5);
        const uint32_t src[] = {0, 0, 0, 1, 1};
        const uint32_t dst[] = {3, 3, 3, 2, 2};
        const uint64_t bytes[] = {200000, 200000, 1000, 1000, 1000};
        const Time start[] = {MicroSeconds(1),
                              MicroSeconds(1),
                              MilliSeconds(1),
                              MilliSeconds(2),
                              MilliSeconds(2)};
        for (uint32_t i = 0; i < flows.size(); ++i)
        {
            flows[i].id = i;
            flows[i].src = src[i];
            flows[i].dst = dst[i];
            flows[i].bytes = bytes[i];
            flows[i].start = start[i];
        }
        if (openPair)
        {
            launcher->PreparePair(0, 3, 0, false);
        }
        launcher->Prepare(flows);
        rdma.AssignStreams(hosts, 100);
        Outcome out;
        out.rides.resize(flows.size());
        Ptr<WorkloadRunner> runner = CreateObject<WorkloadRunner>();
        runner->SetLauncher(launcher->GetLauncher());
        launcher->TraceConnectWithoutContext(
            "FlowPosted",
            Callback<void, const FlowSpec&, Ptr<RdmaQueuePair>>(
                [&out](const FlowSpec& f, Ptr<RdmaQueuePair> qp) { out.rides[f.id] = qp; }));
        runner->SetAllCompletedCallback(MakeCallback(&Stop));
        runner->Schedule(flows);
        Simulator::Stop(MilliSeconds(10));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(runner->GetCompleted(), flows.size(), mapping << ": all complete");
        for (const FlowStats::Record& r : runner->GetStats().GetRecords())
        {
            out.fct.push_back(r.completed ? FlowStats::GetFct(r) : Time::Max());
        }
        out.senders = launcher->GetSenders().size();
        Simulator::Destroy();
        return out;
    }

    void DoRun() override
    {
        Outcome flow = Run("Flow", false);
        NS_TEST_ASSERT_MSG_EQ(flow.senders, 5, "Flow: a queue pair per flow");
        // Side by side, the two 200 kB flows share the NIC and finish within 10% of each other.
        NS_TEST_EXPECT_MSG_LT(std::abs((flow.fct[1] - flow.fct[0]).GetSeconds()),
                              0.1 * flow.fct[0].GetSeconds(),
                              "Flow: overlapping flows of a pair run side by side");

        Outcome pair = Run("Pair", false);
        NS_TEST_ASSERT_MSG_EQ(pair.senders, 2, "Pair: a queue pair per pair of hosts");
        // Queued behind the first, the second message finishes at least its own serialization
        // (16 us of 200 kB at 100 Gb/s) after it.
        const Time serialization = DataRate("100Gbps").CalculateBytesTxTime(200000);
        NS_TEST_EXPECT_MSG_GT(pair.fct[1],
                              pair.fct[0] + 0.9 * serialization,
                              "Pair: the second message waits for the first");
        NS_TEST_EXPECT_MSG_EQ(pair.rides[0], pair.rides[2], "Pair: one connection");

        Outcome reuse = Run("Reuse", false);
        NS_TEST_ASSERT_MSG_EQ(reuse.senders, 4, "Reuse: a new connection only when all are busy");
        NS_TEST_EXPECT_MSG_NE(reuse.rides[0], reuse.rides[1], "Reuse: overlapping flows");
        NS_TEST_EXPECT_MSG_EQ(
            (reuse.rides[2] == reuse.rides[0] || reuse.rides[2] == reuse.rides[1]),
            true,
            "Reuse: a later flow rides a finished connection of its pair");
        NS_TEST_EXPECT_MSG_GT(reuse.rides[2]->GetStats().messagesCompleted,
                              1,
                              "Reuse: the connection carried two flows");

        Outcome open = Run("Flow", true);
        NS_TEST_EXPECT_MSG_EQ(open.rides[0], open.rides[1], "PreparePair: one connection");
        NS_TEST_EXPECT_MSG_EQ(open.rides[0], open.rides[2], "PreparePair: one connection");
        NS_TEST_EXPECT_MSG_NE(open.rides[3], open.rides[4], "other pairs: one per flow");
    }
};

/**
 * \ingroup reps-test
 * A ring all-reduce over RDMA queue pairs completes, and the receivers placed exactly the
 * bytes of the 2(N-1) chunks every host sent to its right neighbour.
 */
class RdmaAllReduceTestCase : public TestCase
{
  public:
    RdmaAllReduceTestCase()
        : TestCase("Ring all-reduce over RDMA completes and delivers 2(N-1) chunks per hop")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<ClosFabric> fabric = SmallRdmaFabric();
        NodeContainer hosts = fabric->GetHosts();
        RdmaHelper rdma;
        rdma.SetPathSelector("ns3::RepsPathSelector");
        rdma.SetCongestionControl("ns3::RdmaWindowCongestionControl");
        rdma.SetQueuePairAttribute("Mtu", UintegerValue(MTU));
        rdma.SetQueuePairAttribute("BaseRtt", TimeValue(fabric->GetBaseRtt(0, 3, MTU + 44, 64)));
        rdma.Install(hosts);
        Ptr<RdmaFlowLauncher> launcher = CreateObject<RdmaFlowLauncher>(hosts, &rdma);
        // Ring order 0, 2, 1, 3: every hop crosses the spines.
        std::vector<uint32_t> ring = {0, 2, 1, 3};
        for (uint32_t i = 0; i < 4; ++i)
        {
            launcher->PreparePair(ring[i], ring[(i + 1) % 4], 0, false);
        }
        rdma.AssignStreams(hosts, 100);
        Ptr<WorkloadRunner> runner = CreateObject<WorkloadRunner>();
        runner->SetLauncher(launcher->GetLauncher());
        Ptr<RingAllReduce> ar = CreateObject<RingAllReduce>();
        const uint64_t data = 4 * 50000;
        ar->SetAttribute("DataBytes", UintegerValue(data));
        ar->SetAttribute("StartTime", TimeValue(MicroSeconds(2)));
        ar->SetHosts(ring);
        ar->SetLauncher(runner->GetLauncher());
        ar->Start();
        Simulator::Stop(MilliSeconds(10));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(ar->IsComplete(), true, "the collective completes");
        NS_TEST_ASSERT_MSG_EQ(launcher->GetSenders().size(), 4, "one queue pair per ring hop");
        std::map<std::pair<uint32_t, uint32_t>, uint64_t> received = BytesReceived(fabric);
        for (uint32_t i = 0; i < 4; ++i)
        {
            uint64_t hop = received[std::make_pair(ring[i], ring[(i + 1) % 4])];
            NS_TEST_ASSERT_MSG_EQ(hop, 2 * 3 * data / 4, "2(N-1) chunks of data/N, hop " << i);
        }
        for (const RingAllReduce::Step& s : ar->GetStepRecords())
        {
            NS_TEST_ASSERT_MSG_EQ((s.start >= s.inputArrived), true, "step after its input");
        }
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * A whole experiment on a tiny fabric: every flow completes, the result has the fabric and
 * transport totals and the time series, a failure is recorded as events, and running the same
 * path selector twice gives the same completion times.
 */
class FabricExperimentTestCase : public TestCase
{
  public:
    FabricExperimentTestCase()
        : TestCase("Fabric experiment: complete, reproducible results with every field")
    {
    }

  private:
    void DoRun() override
    {
        FabricExperiment e;
        e.lb = "ecmp,reps";
        e.leaves = 2;
        e.hostsPerLeaf = 2;
        e.spines = 2;
        e.flowSize = "64KiB";
        e.mtu = 1024;
        e.failedLinks = 1;
        e.failLeaf = 0;
        e.failAt = "5us";
        e.failFor = "10us";
        e.sampleInterval = "2us";
        e.quiet = true;
        e.Check();
        NS_TEST_ASSERT_MSG_EQ(e.GetSelectors().size(), 2, "two selectors");
        RunResult a = e.Run(e.GetSelectors()[1]);
        RunResult b = e.Run(e.GetSelectors()[1]);
        NS_TEST_ASSERT_MSG_EQ(a.lb, "reps", "scheme name");
        NS_TEST_ASSERT_MSG_EQ(a.flows.GetFlowCount(), 4, "a permutation of 4 hosts");
        NS_TEST_ASSERT_MSG_EQ(a.flows.GetCompletedCount(), 4, "every flow completes");
        NS_TEST_ASSERT_MSG_GT_OR_EQ(a.packets, 4 * 64U, "64 packets per flow at least");
        NS_TEST_ASSERT_MSG_EQ(a.linkBytes.size(), 8, "4 uplinks, both directions");
        NS_TEST_ASSERT_MSG_EQ(a.events.size(), 2, "down and up");
        NS_TEST_ASSERT_MSG_EQ((a.events[0].time < a.events[1].time), true, "events in order");
        NS_TEST_ASSERT_MSG_EQ(a.timeseries.size(), 4, "queue, drops, delivered, completed");
        NS_TEST_ASSERT_MSG_GT(a.extra["base_rtt_us"], 0, "base RTT recorded");
        NS_TEST_ASSERT_MSG_GT(a.extra["link_packets"], a.packets, "data and ACKs on links");
        for (uint32_t i = 0; i < 4; ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(a.flows.GetRecords()[i].finished,
                                  b.flows.GetRecords()[i].finished,
                                  "the same run reproduces flow " << i);
        }
        ExperimentReport report;
        e.FillConfig(report);
        report.AddResult(a);
        NS_TEST_ASSERT_MSG_NE(report.ToJson().find("\"failedLinks\": 1"),
                              std::string::npos,
                              "options in the JSON config");
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * The ideal FCT is a lower bound that an idle fabric reaches: flows one at a time (each
 * waits for the previous), of every size from 1 B to 8 MiB, within a rack, across the fabric
 * and (3 tiers) across pods, on 2 and 3 tiers, with one plane and with two: no slowdown below
 * 0.999, and 1.000 +- 0.001 for every flow that fits the initial window on one plane (at most
 * 1.011 on two, where the ideal lets packets pass each other on different planes).
 */
class IdealFctTestCase : public TestCase
{
  public:
    IdealFctTestCase()
        : TestCase("Ideal FCT: an idle fabric gives every flow a slowdown of 1, never below")
    {
    }

  private:
    void DoRun() override
    {
        for (uint32_t tiers : {2, 3})
        {
            const std::string trace = WriteTrace(tiers == 3);
            for (uint32_t planes : {1, 2})
            {
                FabricExperiment e;
                e.lb = "reps";
                e.tiers = tiers;
                e.leaves = 2;
                e.hostsPerLeaf = 2;
                e.spines = 2;
                e.pods = tiers == 3 ? 2 : 1;
                e.cores = tiers == 3 ? 2 : 0;
                e.planes = planes;
                e.pattern = "trace";
                e.traceFile = trace;
                e.quiet = true;
                e.Check();
                RunResult r = e.Run(e.GetSelectors()[0]);
                NS_TEST_ASSERT_MSG_EQ(r.flows.GetCompletedCount(),
                                      r.flows.GetFlowCount(),
                                      tiers << " tiers, " << planes << " planes: all complete");
                const uint64_t window = 100000; // below every initial window here
                for (const FlowStats::Record& rec : r.flows.GetRecords())
                {
                    const double sd = r.flows.GetSlowdown(rec);
                    NS_TEST_EXPECT_MSG_GT_OR_EQ(sd,
                                                0.999,
                                                tiers << " tiers, " << planes << " planes, "
                                                      << rec.flow.bytes << " B to host "
                                                      << rec.flow.dst << ": beat the ideal");
                    // Over two planes the ideal lets no packet wait behind another past the
                    // NIC; REPS's choice of planes may queue two in a row on one (1% at most
                    // here).
                    const double centre = planes == 1 ? 1.0 : 1.005;
                    const double tolerance = planes == 1 ? 0.001 : 0.006;
                    if (rec.flow.bytes <= window)
                    {
                        NS_TEST_EXPECT_MSG_EQ_TOL(sd,
                                                  centre,
                                                  tolerance,
                                                  tiers << " tiers, " << planes << " planes, "
                                                        << rec.flow.bytes << " B to host "
                                                        << rec.flow.dst << ": not ideal");
                    }
                }
                Simulator::Destroy();
            }
            std::remove(trace.c_str());
        }
    }

    /**
     * Write the trace: every size to a host in the rack (1), across the fabric (3, or 5 in
     * the other pod with 3 tiers; 8 hosts then), each flow 1 us after the previous completed.
     * \param otherPod whether to send to a host of the other pod too (3 tiers)
     * \return its path
     */
    static std::string WriteTrace(bool otherPod)
    {
        const uint64_t sizes[] =
            {1, 100, 1000, 4095, 4096, 4097, 10000, 65536, 100000, 262144, 1048576, 8388608};
        char path[] = "/tmp/reps-ideal-fct-XXXXXX";
        int fd = mkstemp(path);
        NS_ABORT_MSG_IF(fd < 0, "cannot create a temporary file");
        close(fd);
        std::ofstream out(path);
        uint32_t id = 0;
        std::vector<uint32_t> destinations{1, 3};
        if (otherPod)
        {
            destinations.push_back(5);
        }
        for (uint32_t dst : destinations)
        {
            for (uint64_t bytes : sizes)
            {
                out << "1us 0 " << dst << " " << bytes;
                if (id > 0)
                {
                    out << " after=" << id - 1;
                }
                out << "\n";
                ++id;
            }
        }
        return path;
    }
};

/**
 * \ingroup reps-test
 * The reference's failed cables (--failedCables): from the start time on, switch-to-switch link
 * directions fail at the first packets that cross them, one more than the share of the links
 * allows, never a host link and never one that would cut a pair of hosts apart (every flow of
 * REPS completes even when every direction may fail); a share of 0 fails nothing.
 */
class CableFailureTestCase : public TestCase
{
  public:
    CableFailureTestCase()
        : TestCase("Failed cables: the first directions traffic crosses, within the share")
    {
    }

  private:
    /**
     * \param share --failedCables
     * \param lb the path selector
     * \return the result of a permutation on 4 leaves x 2 hosts and 4 spines (24 links)
     */
    static RunResult Run(const std::string& share, const std::string& lb)
    {
        FabricExperiment e;
        e.lb = lb;
        e.leaves = 4;
        e.hostsPerLeaf = 2;
        e.spines = 4;
        e.flowSize = "256KiB";
        e.quiet = true;
        e.Set("failedCables", share);
        e.Set("cableFailStart", "3us");
        e.Check();
        RunResult r = e.Run(e.GetSelectors()[0]);
        Simulator::Destroy();
        return r;
    }

    void DoRun() override
    {
        RunResult some = Run("0.3", "reps");
        // floor(0.3 x 24) + 1 directions: the share is checked before each failure.
        NS_TEST_ASSERT_MSG_EQ(some.extra["failed_cables"], 8, "one more than 0.3 x 24 links");
        NS_TEST_EXPECT_MSG_EQ(some.flows.GetCompletedCount(), 8, "REPS completes every flow");
        uint32_t failures = 0;
        for (const RunEvent& ev : some.events)
        {
            if (ev.label.find(" fails") == std::string::npos)
            {
                continue;
            }
            ++failures;
            NS_TEST_EXPECT_MSG_GT_OR_EQ(ev.time, MicroSeconds(3), "not before the start");
            NS_TEST_EXPECT_MSG_EQ(ev.label.find("host"), std::string::npos, "no host link");
        }
        NS_TEST_EXPECT_MSG_EQ(failures, 8, "one event per failed direction");
        NS_TEST_EXPECT_MSG_GT(some.drops, 0, "failed directions lose packets");

        // Every direction allowed: some are spared so that every pair keeps a path.
        RunResult all = Run("1", "reps");
        NS_TEST_EXPECT_MSG_LT(all.extra["failed_cables"], 32, "some directions spared");
        NS_TEST_EXPECT_MSG_GT(all.extra["failed_cables"], 8, "more fail with a larger share");
        NS_TEST_EXPECT_MSG_EQ(all.flows.GetCompletedCount(), 8, "no pair cut apart");

        RunResult none = Run("0", "reps");
        NS_TEST_EXPECT_MSG_EQ(none.extra.count("failed_cables"), 0, "0: no controller");
        NS_TEST_EXPECT_MSG_EQ(none.drops, 0, "0: nothing lost");
    }
};

/**
 * \ingroup reps-test
 * Every option of the experiments reaches the objects that need it: read back from the switch
 * queues, the switches, the links, the queue pairs, their path selectors and congestion
 * controllers built for a run.
 */
class ExperimentOptionsReachObjectsTestCase : public TestCase
{
  public:
    ExperimentOptionsReachObjectsTestCase()
        : TestCase("Fabric experiment: every option is read back from the objects built")
    {
    }

  private:
    /// What one sending queue pair was built with.
    struct QpSeen
    {
        std::map<std::string, std::string> attrs; //!< Its attributes and its selector's.
        Time rto;                                 //!< GetRto().
        Time baseRtt;                             //!< GetBaseRtt().
        Time pathRtt;                             //!< The fabric's RTT of its pair.
        Time longestRtt;                          //!< The fabric's longest RTT.
        std::string cc;                           //!< Its congestion control.
        uint32_t evSpace;                         //!< Its selector's entropy space.
    };

    /// What the built callback saw.
    struct Seen
    {
        std::map<std::string, std::string> fabric; //!< Read off the fabric.
        std::vector<QpSeen> qps;                   //!< The senders.
    };

    /**
     * \param o an object
     * \param name one of its attributes
     * \return the attribute as a string, or "-" when it has none
     */
    static std::string Attr(Ptr<Object> o, const std::string& name)
    {
        StringValue v;
        return o->GetAttributeFailSafe(name, v) ? v.Get() : "-";
    }

    /**
     * Read what a run built.
     * \param seen where
     * \param f the fabric
     * \param qps the sending queue pairs
     */
    static void Built(Seen* seen, Ptr<ClosFabric> f, const std::vector<Ptr<RdmaQueuePair>>& qps)
    {
        seen->fabric.clear();
        seen->qps.clear();
        uint32_t uplink = f->GetLeafSpineLink(0, 0);
        seen->fabric["rate"] = std::to_string(f->GetLinkRate(uplink).GetBitRate());
        seen->fabric["delay"] = std::to_string(f->GetLinkDelay(uplink).GetNanoSeconds());
        seen->fabric["deviceMtu"] = std::to_string(f->GetLinkDevice(uplink, 0)->GetMtu());
        Ptr<QueueDisc> q = f->GetQueueDisc(uplink, 0);
        for (const char* a : {"MarkOn",
                              "ControlPriority",
                              "Trimming",
                              "MaxSize",
                              "Kmin",
                              "Kmax",
                              "TrimMode",
                              "TrimSize",
                              "LastHopEcn"})
        {
            seen->fabric[a] = Attr(q, a);
        }
        seen->fabric["PortSelector"] = f->GetLeaf(0)
                                           ->GetObject<FabricSwitch>()
                                           ->GetPortSelector()
                                           ->GetInstanceTypeId()
                                           .GetName();
        Ptr<PortSelector> lb = f->GetSpine(0)->GetObject<FabricSwitch>()->GetPortSelector();
        seen->fabric["FlowletTimeout"] = Attr(lb, "FlowletTimeout");
        seen->fabric["FlowletTableSize"] = Attr(lb, "FlowletTableSize");
        Ptr<PfcSwitch> pfc = f->GetLeaf(0)->GetObject<PfcSwitch>();
        seen->fabric["pfc"] = pfc ? "true" : "false";
        for (const char* a : {"ThresholdMode", "Alpha", "StaticThreshold", "SharedBufferSize"})
        {
            seen->fabric[std::string("Pfc") + a] = pfc ? Attr(pfc, a) : "-";
        }
        seen->fabric["planes"] = std::to_string(f->GetNPlanes());
        seen->fabric["hostPorts"] =
            std::to_string(f->GetHost(0)->GetObject<RdmaStack>()->GetNPlanes());
        seen->fabric["hostPfcPort"] =
            f->GetLinkDevice(f->GetHostLink(0), 0)->GetObject<PfcPort>() ? "true" : "false";
        uint32_t systems = 0;
        for (uint32_t h = 0; h < f->GetNHosts(); ++h)
        {
            systems = std::max(systems, f->GetHost(h)->GetSystemId() + 1);
        }
        seen->fabric["systems"] = std::to_string(systems);
        const uint32_t ack = 12 + RoceAckHeader::SIZE + 4 + 28;
        for (const Ptr<RdmaQueuePair>& qp : qps)
        {
            QpSeen s;
            for (const char* a :
                 {"Trimming", "Mtu", "RtoBackoff", "AckEvery", "AckEveryBytes", "AckDelay"})
            {
                s.attrs[a] = Attr(qp, a);
            }
            Ptr<PathSelector> ps = qp->GetPathSelector();
            for (const char* a : {"Variant", "FreezingEnabled", "FreezeDuration", "LastHopNacks"})
            {
                s.attrs[a] = Attr(ps, a);
            }
            s.rto = qp->GetRto();
            s.baseRtt = qp->GetBaseRtt();
            uint32_t mtu = qp->GetMtu() + 44;
            s.pathRtt = f->GetBaseRtt(f->GetHostIndex(qp->GetLocalAddress()),
                                      f->GetHostIndex(qp->GetRemoteAddress()),
                                      mtu,
                                      ack);
            s.longestRtt = f->GetBaseRtt(0, f->GetNHosts() - 1, mtu, ack);
            s.cc = qp->GetCongestionControl()->GetInstanceTypeId().GetName();
            s.evSpace = ps->GetEntropySpace();
            seen->qps.push_back(s);
        }
    }

    void DoRun() override
    {
        FabricExperiment e;
        e.leaves = 2;
        e.hostsPerLeaf = 2;
        e.spines = 2;
        e.flowSize = "16KiB";
        e.linkRate = "100Gbps";
        e.linkDelay = "2us";
        e.mtu = 2048;
        e.Set("queuePackets", "50");
        e.Set("ecnKmin", "10");
        e.Set("ecnKmax", "40");
        e.trim = true;
        e.Set("markOn", "enqueue");
        e.Set("controlPriority", "false");
        e.Set("lastHopEcn", "false");
        e.Set("lastHopNacks", "path");
        e.forwarding = "dlb";
        e.Set("dlbTimeout", "13us");
        e.Set("dlbTableSize", "96");
        e.Set("trimMode", "uec");
        e.Set("trimSize", "80");
        e.cc = "dcqcn";
        e.Set("evSpace", "128");
        e.rto = "33us";
        e.Set("minRto", "40us");
        e.Set("rtoBackoff", "true");
        e.Set("ackEvery", "8");
        e.Set("ackEveryBytes", "16KiB");
        e.Set("ackDelay", "3us");
        e.Set("opsVariant", "deck");
        e.Set("freezing", "false");
        e.Set("freezeDuration", "3ms");
        e.lb = "ops,reps";
        e.planes = 2;
        e.quiet = true;
        e.Check();
        Seen seen;
        e.SetBuiltCallback(MakeBoundCallback(&Built, &seen));
        e.Run(e.GetSelectors()[0]);
        NS_TEST_ASSERT_MSG_EQ(seen.fabric["rate"], "100000000000", "--linkRate");
        NS_TEST_ASSERT_MSG_EQ(seen.fabric["delay"], "2000", "--linkDelay");
        NS_TEST_ASSERT_MSG_EQ(seen.fabric["deviceMtu"],
                              std::to_string(2048 + 12 + 4 + 8 + 20),
                              "--mtu: the devices carry a full packet");
        NS_TEST_ASSERT_MSG_EQ(seen.fabric["MarkOn"], "Enqueue", "--markOn");
        NS_TEST_ASSERT_MSG_EQ(seen.fabric["ControlPriority"], "false", "--controlPriority");
        NS_TEST_ASSERT_MSG_EQ(seen.fabric["Trimming"], "true", "--trim in the switches");
        NS_TEST_ASSERT_MSG_EQ(seen.fabric["MaxSize"], "50p", "--queuePackets");
        NS_TEST_ASSERT_MSG_EQ(seen.fabric["TrimMode"], "Uec", "--trimMode");
        NS_TEST_ASSERT_MSG_EQ(seen.fabric["TrimSize"], "80", "--trimSize");
        NS_TEST_ASSERT_MSG_EQ(seen.fabric["LastHopEcn"], "false", "--lastHopEcn");
        NS_TEST_ASSERT_MSG_EQ(seen.fabric["Kmin"], "10p", "--ecnKmin");
        NS_TEST_ASSERT_MSG_EQ(seen.fabric["Kmax"], "40p", "--ecnKmax");
        NS_TEST_ASSERT_MSG_EQ(seen.fabric["PortSelector"], "ns3::DlbPortSelector", "--forwarding");
        NS_TEST_ASSERT_MSG_EQ(Time(seen.fabric["FlowletTimeout"]),
                              MicroSeconds(13),
                              "--dlbTimeout in every switch");
        NS_TEST_ASSERT_MSG_EQ(seen.fabric["FlowletTableSize"], "96", "--dlbTableSize");
        NS_TEST_ASSERT_MSG_EQ(seen.fabric["planes"], "2", "--planes in the fabric");
        NS_TEST_ASSERT_MSG_EQ(seen.fabric["hostPorts"], "2", "--planes: a NIC port per plane");
        NS_TEST_ASSERT_MSG_EQ(seen.fabric["systems"], "1", "--systems (1: one rank)");
        NS_TEST_ASSERT_MSG_EQ(seen.qps.size(), 4, "one sender per host");
        for (QpSeen& qp : seen.qps)
        {
            NS_TEST_ASSERT_MSG_EQ(qp.attrs["Trimming"], "true", "--trim in the queue pairs");
            NS_TEST_ASSERT_MSG_EQ(qp.attrs["Mtu"], "2048", "--mtu in the queue pairs");
            NS_TEST_ASSERT_MSG_EQ(qp.attrs["RtoBackoff"], "true", "--rtoBackoff");
            NS_TEST_ASSERT_MSG_EQ(qp.attrs["AckEvery"], "8", "--ackEvery");
            NS_TEST_ASSERT_MSG_EQ(qp.attrs["AckEveryBytes"], "16384", "--ackEveryBytes");
            NS_TEST_ASSERT_MSG_EQ(Time(qp.attrs["AckDelay"]), MicroSeconds(3), "--ackDelay");
            NS_TEST_ASSERT_MSG_EQ(qp.attrs["Variant"], "Deck", "--opsVariant");
            NS_TEST_ASSERT_MSG_EQ(qp.attrs["LastHopNacks"], "Path", "--lastHopNacks");
            NS_TEST_ASSERT_MSG_EQ(qp.rto, MicroSeconds(40), "--rto, raised to --minRto");
            NS_TEST_ASSERT_MSG_EQ(qp.cc, "ns3::DcqcnCongestionControl", "--cc");
            NS_TEST_ASSERT_MSG_EQ(qp.evSpace, 128, "--evSpace");
            NS_TEST_ASSERT_MSG_EQ(qp.baseRtt, qp.pathRtt, "--baseRtt=pair: the pair's own RTT");
        }
        e.Run(e.GetSelectors()[1]);
        for (QpSeen& qp : seen.qps)
        {
            NS_TEST_ASSERT_MSG_EQ(qp.attrs["FreezingEnabled"], "false", "--freezing");
            NS_TEST_ASSERT_MSG_EQ(Time(qp.attrs["FreezeDuration"]),
                                  MilliSeconds(3),
                                  "--freezeDuration");
        }

        // The defaults: with --baseRtt=fabric every pair gets the fabric's longest RTT; the
        // reference RTO rule is that RTT plus the drain time of four full queues.
        FabricExperiment d;
        d.leaves = 2;
        d.hostsPerLeaf = 2;
        d.spines = 2;
        d.flowSize = "16KiB";
        d.mtu = 2048;
        d.baseRtt = "fabric";
        d.lb = "reps";
        d.quiet = true;
        d.Check();
        d.SetBuiltCallback(MakeBoundCallback(&Built, &seen));
        d.Run(d.GetSelectors()[0]);
        Time drain = DataRate("400Gbps").CalculateBytesTxTime(100 * (2048 + 44 + 2));
        for (QpSeen& qp : seen.qps)
        {
            NS_TEST_ASSERT_MSG_EQ(qp.baseRtt, qp.longestRtt, "--baseRtt=fabric");
            NS_TEST_ASSERT_MSG_EQ(qp.rto, qp.longestRtt + 4 * drain, "--rto=reference");
            NS_TEST_ASSERT_MSG_EQ(qp.attrs["Trimming"], "false", "no trimming by default");
            NS_TEST_ASSERT_MSG_EQ(qp.attrs["FreezingEnabled"], "true", "freezing by default");
        }
        NS_TEST_ASSERT_MSG_EQ(seen.fabric["MarkOn"], "Dequeue", "dequeue marking by default");
        NS_TEST_ASSERT_MSG_EQ(seen.fabric["ControlPriority"], "true", "control first by default");
        NS_TEST_ASSERT_MSG_EQ(seen.fabric["pfc"], "false", "no PFC by default");
        NS_TEST_ASSERT_MSG_EQ(seen.fabric["hostPfcPort"], "false", "no PFC on hosts by default");

        // The PFC options reach every switch's PfcSwitch and every NIC's PfcPort.
        FabricExperiment p;
        p.leaves = 2;
        p.hostsPerLeaf = 2;
        p.spines = 2;
        p.flowSize = "16KiB";
        p.mtu = 2048;
        p.lb = "reps";
        p.quiet = true;
        p.pfc = true;
        p.Set("pfcMode", "static");
        p.Set("pfcAlpha", "0.5");
        p.Set("pfcThreshold", "96KiB");
        p.Set("pfcBuffer", "3MiB");
        p.Check();
        p.SetBuiltCallback(MakeBoundCallback(&Built, &seen));
        p.Run(p.GetSelectors()[0]);
        NS_TEST_ASSERT_MSG_EQ(seen.fabric["pfc"], "true", "--pfc");
        NS_TEST_ASSERT_MSG_EQ(seen.fabric["hostPfcPort"], "true", "--pfc on the host NICs");
        NS_TEST_ASSERT_MSG_EQ(seen.fabric["PfcThresholdMode"], "Static", "--pfcMode");
        NS_TEST_ASSERT_MSG_EQ(seen.fabric["PfcAlpha"], "0.5", "--pfcAlpha");
        NS_TEST_ASSERT_MSG_EQ(seen.fabric["PfcStaticThreshold"], "98304", "--pfcThreshold");
        NS_TEST_ASSERT_MSG_EQ(seen.fabric["PfcSharedBufferSize"], "3145728", "--pfcBuffer");

        // The workload options of the collectives and the training loop reach the collective.
        for (const auto& [pattern, flows] :
             std::vector<std::pair<std::string, uint32_t>>{{"allgather", 4 * 3},
                                                           {"reducescatter", 4 * 3},
                                                           {"butterfly", 4 * 4}})
        {
            FabricExperiment c;
            c.leaves = 2;
            c.hostsPerLeaf = 2;
            c.spines = 2;
            c.flowSize = "16KiB";
            c.pattern = pattern;
            c.lb = "ecmp";
            c.quiet = true;
            c.Check();
            RunResult r = c.Run(c.GetSelectors()[0]);
            NS_TEST_ASSERT_MSG_EQ(r.flows.GetCollectives().size(), 1, "--pattern=" << pattern);
            NS_TEST_ASSERT_MSG_EQ(r.flows.GetCollectives()[0].name, pattern, "--pattern");
            NS_TEST_ASSERT_MSG_EQ(r.flows.GetCompletedCount(), flows, pattern << " flows");
            uint64_t bytes = pattern == "butterfly" ? 2 * 3 * 16384 : 3 * 16384;
            NS_TEST_ASSERT_MSG_EQ(r.flows.GetCollectives()[0].bytes, bytes, "--flowSize");
        }
        FabricExperiment t;
        t.leaves = 2;
        t.hostsPerLeaf = 2;
        t.spines = 2;
        t.flowSize = "16KiB";
        t.pattern = "training";
        t.iterations = 3;
        t.computeTime = "7us";
        t.collective = "reducescatter";
        t.lb = "ecmp";
        t.quiet = true;
        t.Check();
        RunResult r = t.Run(t.GetSelectors()[0]);
        NS_TEST_ASSERT_MSG_EQ(r.flows.GetCollectives().size(), 1, "one training loop");
        const FlowStats::Collective& loop = r.flows.GetCollectives()[0];
        NS_TEST_ASSERT_MSG_EQ(loop.name, "training", "--pattern=training");
        NS_TEST_ASSERT_MSG_EQ(loop.completed, true, "the run waits through the compute phases");
        NS_TEST_ASSERT_MSG_EQ(loop.iterations.size(), 3, "--iterations");
        NS_TEST_ASSERT_MSG_EQ(r.flows.GetCompletedCount(), 3 * 4 * 3, "--collective=reducescatter");
        NS_TEST_ASSERT_MSG_EQ(loop.bytes, 3 * 3 * 16384, "--flowSize per iteration");
        Time sum = Seconds(0);
        for (Time it : loop.iterations)
        {
            NS_TEST_ASSERT_MSG_GT(it, MicroSeconds(7), "--computeTime in every iteration");
            sum += it;
        }
        NS_TEST_ASSERT_MSG_EQ(sum, loop.finished - loop.start, "iterations add up");

        // --pattern=nccl: the NCCL-style collective with its options; every transfer
        // completes, the bytes are the algorithm's, and a run repeats bit for bit.
        struct NcclRun
        {
            std::string operation;
            std::string algorithm;
            std::string qps;
            uint64_t bytes; // sent by all hosts over the fabric, 4 hosts, 64 KiB
        };

        for (const NcclRun& c : std::vector<NcclRun>{{"allreduce", "ring", "1", 4 * 6 * 16384},
                                                     {"allreduce", "tree", "2", 6 * 65536},
                                                     {"allgather", "ring", "2", 4 * 3 * 16384},
                                                     {"alltoall", "ring", "1", 4 * 3 * 16384}})
        {
            Time first;
            for (int run = 0; run < 2; ++run)
            {
                FabricExperiment n;
                n.leaves = 2;
                n.hostsPerLeaf = 2;
                n.spines = 2;
                n.flowSize = "64KiB";
                n.pattern = "nccl";
                n.lb = "reps";
                n.quiet = true;
                n.Set("ncclOperation", c.operation);
                n.Set("ncclAlgorithm", c.algorithm);
                n.Set("qpsPerConnection", c.qps);
                n.Set("ncclChunkBytes", "8KiB");
                n.Check();
                RunResult r = n.Run(n.GetSelectors()[0]);
                const std::string what = c.operation + "/" + c.algorithm;
                NS_TEST_ASSERT_MSG_EQ(r.flows.GetCollectives().size(), 1, what);
                const FlowStats::Collective& nc = r.flows.GetCollectives()[0];
                NS_TEST_ASSERT_MSG_EQ(nc.name, "nccl-" + c.operation + "-" + c.algorithm, what);
                NS_TEST_ASSERT_MSG_EQ(nc.completed, true, what << ": completes");
                NS_TEST_ASSERT_MSG_EQ(nc.bytes, c.bytes, what << ": the algorithm's bytes");
                NS_TEST_ASSERT_MSG_EQ(r.flows.GetCompletedCount(),
                                      r.flows.GetFlowCount(),
                                      what << ": every transfer");
                if (run == 0)
                {
                    first = nc.finished - nc.start;
                }
                else
                {
                    NS_TEST_ASSERT_MSG_EQ(nc.finished - nc.start, first, what << ": repeats");
                }
            }
        }

        // --ncclAlgorithm=hierarchical on servers of 4 GPUs, rail-optimised: the rails' phase
        // stays on the rail leaves (no byte crosses a spine), where the ring's cross-server hops
        // change rails; the servers' phases take the scale-up domains.
        for (const std::string algorithm : {"ring", "hierarchical"})
        {
            FabricExperiment h;
            h.leaves = 4;
            h.hostsPerLeaf = 2;
            h.spines = 2;
            h.flowSize = "256KiB";
            h.pattern = "nccl";
            h.lb = "reps";
            h.quiet = true;
            h.Set("gpusPerServer", "4");
            h.Set("wiring", "RailOptimised");
            h.Set("ncclAlgorithm", algorithm);
            h.Check();
            RunResult r = h.Run(h.GetSelectors()[0]);
            const FlowStats::Collective& nc = r.flows.GetCollectives().at(0);
            NS_TEST_ASSERT_MSG_EQ(nc.completed, true, algorithm << ": completes");
            uint64_t spineBytes = 0;
            for (const LinkLoad& l : r.linkBytes)
            {
                spineBytes += l.bytes; // every link but the hosts'
            }
            NS_TEST_ASSERT_MSG_GT(r.extra["scale_up_bytes"], 0, algorithm << ": scale-up used");
            if (algorithm == "ring")
            {
                NS_TEST_ASSERT_MSG_GT(spineBytes, 0, "ring: cross-server hops change rails");
            }
            else
            {
                NS_TEST_ASSERT_MSG_EQ(spineBytes, 0, "hierarchical: every rail on its leaf");
                // 2 servers: each GPU sends 2(S-1)/S x B/G = 64 KiB of payload on its rail.
                NS_TEST_ASSERT_MSG_EQ(nc.bytes, 8 * 65536 + 8 * 2 * 3 * 65536, "the bytes");
            }
        }

        // --jobs and --jobLayout: one collective per job, its flows inside its host set.
        FabricExperiment j;
        j.leaves = 2;
        j.hostsPerLeaf = 4;
        j.spines = 2;
        j.flowSize = "16KiB";
        j.pattern = "allgather";
        j.jobs = 2;
        j.jobLayout = "interleaved";
        j.lb = "ecmp";
        j.quiet = true;
        j.Check();
        RunResult rj = j.Run(j.GetSelectors()[0]);
        NS_TEST_ASSERT_MSG_EQ(rj.flows.GetCollectives().size(), 2, "--jobs=2: two collectives");
        for (uint32_t g = 0; g < 2; ++g)
        {
            NS_TEST_ASSERT_MSG_EQ(rj.flows.GetCollectives()[g].group, g + 1, "job groups");
            NS_TEST_ASSERT_MSG_EQ(rj.flows.GetCollectives()[g].completed, true, "job completes");
        }
        NS_TEST_ASSERT_MSG_EQ(rj.flows.GetCompletedCount(), 2 * 4 * 3, "two 4-host all-gathers");
        for (const FlowStats::Record& f : rj.flows.GetRecords())
        {
            NS_TEST_ASSERT_MSG_EQ(f.flow.src % 2, f.flow.group - 1, "--jobLayout=interleaved");
            NS_TEST_ASSERT_MSG_EQ(f.flow.dst % 2, f.flow.group - 1, "flows stay in the job");
        }

        // --pattern=trace --traceFile: the trace's flows, the dependent one after its input.
        std::string path = CreateTempDirFilename("reps-experiment.trace");
        {
            std::ofstream out(path);
            out << "0 0 3 20000\n1us 2 1 30000\n3us 1 0 4000 after=0\n";
        }
        FabricExperiment tr;
        tr.leaves = 2;
        tr.hostsPerLeaf = 2;
        tr.spines = 2;
        tr.pattern = "trace";
        tr.traceFile = path;
        tr.lb = "reps";
        tr.quiet = true;
        tr.Check();
        RunResult rt = tr.Run(tr.GetSelectors()[0]);
        NS_TEST_ASSERT_MSG_EQ(rt.flows.GetCompletedCount(), 3, "--traceFile: every flow");
        std::map<uint64_t, const FlowStats::Record*> bySize;
        for (const FlowStats::Record& f : rt.flows.GetRecords())
        {
            bySize[f.flow.bytes] = &f;
        }
        NS_TEST_ASSERT_MSG_EQ(bySize.at(30000)->flow.src, 2, "trace hosts");
        NS_TEST_ASSERT_MSG_EQ(bySize.at(4000)->flow.start,
                              bySize.at(20000)->finished + MicroSeconds(3),
                              "a dependent flow starts its delay after its input completed");
        std::remove(path.c_str());
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * ns-3 TCP background flows next to the RDMA flows: every RDMA flow still delivers every byte,
 * every TCP sink receives exactly its flow's bytes, the RDMA statistics count only the RDMA
 * flows, and the same run number reproduces the results.
 */
class TcpBackgroundExperimentTestCase : public TestCase
{
  public:
    TcpBackgroundExperimentTestCase()
        : TestCase("Fabric experiment: TCP background flows share the fabric with RDMA")
    {
    }

  private:
    void DoRun() override
    {
        FabricExperiment e;
        e.lb = "ecmp,reps";
        e.leaves = 2;
        e.hostsPerLeaf = 4;
        e.spines = 2;
        e.linkRate = "100Gbps";
        e.flowSize = "128KiB";
        e.mtu = 1024;
        e.tcpBackground = 0.5;
        e.tcpBackgroundSize = "128KiB";
        e.sampleInterval = "0";
        e.quiet = true;
        e.Check();
        NS_TEST_ASSERT_MSG_EQ(TcpBackground::PickPairs(8, 0.5, 3100).size(), 4, "half the hosts");
        NS_TEST_ASSERT_MSG_EQ(
            (TcpBackground::PickPairs(8, 0.5, 3100) == TcpBackground::PickPairs(8, 0.5, 3100)),
            true,
            "the same hosts every time");
        for (const auto& [src, dst] : TcpBackground::PickPairs(8, 1, 3100))
        {
            NS_TEST_ASSERT_MSG_NE(src, dst, "a flow to another host");
        }
        for (uint32_t k = 0; k < 2; ++k)
        {
            RunResult a = e.Run(e.GetSelectors()[k]);
            NS_TEST_ASSERT_MSG_EQ(a.flows.GetFlowCount(), 8, "RDMA statistics: the permutation");
            NS_TEST_ASSERT_MSG_EQ(a.flows.GetCompletedCount(), 8, "every RDMA flow completes");
            for (const auto& rec : a.flows.GetRecords())
            {
                NS_TEST_ASSERT_MSG_EQ(rec.flow.bytes, 128 * 1024U, "an RDMA flow of the workload");
            }
            const TcpBackgroundResult& t = a.tcpBackground;
            NS_TEST_ASSERT_MSG_EQ(t.flows, 4, "half of 8 hosts send TCP");
            NS_TEST_ASSERT_MSG_EQ(t.completed, 4, "every TCP flow completes");
            NS_TEST_ASSERT_MSG_EQ(t.bytes, 4 * 128 * 1024U, "the sinks receive every byte");
            NS_TEST_ASSERT_MSG_EQ(t.fctUs.size(), 4, "one completion time per flow");
            NS_TEST_ASSERT_MSG_GT(t.goodputGbps, 0, "goodput measured");
            NS_TEST_ASSERT_MSG_LT(t.goodputGbps, 4 * 100.0, "below the senders' line rate");
            RunResult b = e.Run(e.GetSelectors()[k]);
            NS_TEST_ASSERT_MSG_EQ(b.simTime, a.simTime, "the same run reproduces");
            NS_TEST_ASSERT_MSG_EQ((b.tcpBackground.fctUs == t.fctUs), true, "same TCP FCTs");
            for (uint32_t i = 0; i < 8; ++i)
            {
                NS_TEST_ASSERT_MSG_EQ(a.flows.GetRecords()[i].finished,
                                      b.flows.GetRecords()[i].finished,
                                      "the same run reproduces RDMA flow " << i);
            }
            ExperimentReport report;
            report.AddResult(a);
            NS_TEST_ASSERT_MSG_NE(report.ToJson().find("\"tcp_background\""),
                                  std::string::npos,
                                  "TCP background in the JSON");
        }
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * The fabric's ECN queues and ns-3's TCP: NewReno's segments are not ECN-capable, so a queue
 * drops the ones it selects and marks none; DCTCP's are, so the same queues mark them instead.
 * Every TCP flow delivers its bytes either way.
 */
class TcpBackgroundEcnTestCase : public TestCase
{
  public:
    TcpBackgroundEcnTestCase()
        : TestCase("Fabric experiment: DCTCP background flows are ECN-marked, NewReno's dropped")
    {
    }

  private:
    /**
     * \param variant the TCP congestion control.
     * \return the run under ECMP.
     */
    static RunResult Run(const std::string& variant)
    {
        FabricExperiment e;
        e.lb = "ecmp";
        e.leaves = 2;
        e.hostsPerLeaf = 2;
        e.spines = 2;
        e.linkRate = "100Gbps";
        e.flowSize = "4096";
        e.mtu = 1024;
        e.tcpBackground = 1;
        e.tcpBackgroundSize = "256KiB";
        e.tcpVariant = variant;
        e.sampleInterval = "0";
        e.quiet = true;
        e.Check();
        return e.Run(e.GetSelectors()[0]);
    }

    void DoRun() override
    {
        RunResult reno = Run("TcpNewReno");
        RunResult dctcp = Run("TcpDctcp");
        for (const RunResult* r : {&reno, &dctcp})
        {
            NS_TEST_ASSERT_MSG_EQ(r->flows.GetCompletedCount(), 4, "every RDMA flow completes");
            NS_TEST_ASSERT_MSG_EQ(r->tcpBackground.completed, 4, "every TCP flow completes");
            NS_TEST_ASSERT_MSG_EQ(r->tcpBackground.bytes, 4 * 256 * 1024U, "every TCP byte");
        }
        // The tiny RDMA flows never reach the marking threshold: marks and early drops are the
        // TCP flows'.
        NS_TEST_ASSERT_MSG_EQ(reno.ecnMarks, 0, "NewReno segments are not ECN-capable");
        NS_TEST_ASSERT_MSG_GT(reno.drops, 0, "so the queues drop them");
        NS_TEST_ASSERT_MSG_GT(dctcp.ecnMarks, 0, "DCTCP segments are marked");
        NS_TEST_ASSERT_MSG_EQ(dctcp.drops, 0, "instead of dropped");
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * A scheme's results do not depend on what ran before it: queue pairs start their path
 * selectors at the first packet, after RdmaHelper::AssignStreams, so ECMP draws its EVs from
 * the assigned streams and not from whatever stream numbers earlier runs left over.
 */
class ExperimentOrderIndependenceTestCase : public TestCase
{
  public:
    ExperimentOrderIndependenceTestCase()
        : TestCase("Fabric experiment: a scheme's results do not depend on the schemes run before")
    {
    }

  private:
    static std::vector<Time> EcmpFinishTimes(const std::string& lbList)
    {
        FabricExperiment e;
        e.lb = lbList;
        e.leaves = 4;
        e.hostsPerLeaf = 4;
        e.spines = 4;
        e.flowSize = "64KiB";
        e.mtu = 1024;
        e.sampleInterval = "0us";
        e.quiet = true;
        e.Check();
        RunResult ecmp;
        for (const auto& selector : e.GetSelectors())
        {
            RunResult r = e.Run(selector);
            if (r.lb == "ecmp")
            {
                ecmp = r;
            }
        }
        std::vector<Time> finished;
        for (const auto& record : ecmp.flows.GetRecords())
        {
            finished.push_back(record.finished);
        }
        return finished;
    }

    void DoRun() override
    {
        std::vector<Time> alone = EcmpFinishTimes("ecmp");
        std::vector<Time> after = EcmpFinishTimes("ops,reps,ecmp");
        NS_TEST_ASSERT_MSG_EQ(alone.size(), 16, "a permutation of 16 hosts");
        NS_TEST_ASSERT_MSG_EQ((alone == after),
                              true,
                              "ECMP's flows finish at other times when OPS and REPS ran first");
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * A path selector defined outside the module (the one of examples/reps-custom-selector.cc) is
 * found by its short name and by its TypeId, skips EVs after bad feedback, and runs in
 * FabricExperiment, where every flow completes.
 */
class CustomSelectorTestCase : public TestCase
{
  public:
    CustomSelectorTestCase()
        : TestCase("A selector defined outside the module: found by name, completes every flow")
    {
    }

  private:
    void DoRun() override
    {
        PathSelectorNames::Choice byName;
        PathSelectorNames::Choice byTid;
        std::string error;
        NS_TEST_ASSERT_MSG_EQ(PathSelectorNames::Lookup("rrskip", byName, error), true, error);
        NS_TEST_ASSERT_MSG_EQ(byName.tid, SkipRoundRobinPathSelector::GetTypeId(), "TypeId");
        NS_TEST_ASSERT_MSG_EQ(
            PathSelectorNames::Lookup("ns3::SkipRoundRobinPathSelector", byTid, error),
            true,
            error);
        NS_TEST_ASSERT_MSG_EQ(byTid.name, "rrskip", "short name of the TypeId");
        std::vector<std::string> names = PathSelectorNames::GetAvailableNames();
        NS_TEST_ASSERT_MSG_EQ((std::find(names.begin(), names.end(), "rrskip") != names.end()),
                              true,
                              "listed with the module's selectors");

        // The rule: round-robin, an EV with bad feedback skipped once, a good ACK forgives.
        Ptr<PathSelector> s = CreateObject<SkipRoundRobinPathSelector>();
        s->SetAttribute("Paths", UintegerValue(4));
        s->SetAttribute("EntropyBase", UintegerValue(100));
        s->SetAttribute("EntropySpace", UintegerValue(1000));
        s->Start(PathSelectorContext());
        std::vector<uint16_t> evs;
        for (uint32_t i = 0; i < 4; ++i)
        {
            evs.push_back(s->NextEntropy(false));
        }
        NS_TEST_ASSERT_MSG_EQ((evs == std::vector<uint16_t>{100, 101, 102, 103}), true, "in turn");
        s->OnAck(101, true, MicroSeconds(10));
        s->OnLoss(102);
        s->OnNack(103);
        s->OnAck(103, false, MicroSeconds(10));
        evs.clear();
        for (uint32_t i = 0; i < 5; ++i)
        {
            evs.push_back(s->NextEntropy(false));
        }
        NS_TEST_ASSERT_MSG_EQ((evs == std::vector<uint16_t>{100, 103, 100, 101, 102}),
                              true,
                              "101 and 102 skipped once, 103 forgiven");
        NS_TEST_ASSERT_MSG_EQ(s->GetChoiceCount(PathSelector::ROUND_ROBIN), 9, "counted");

        // The smallest entropy space, asked of each selector through PathSelector::Validate().
        const std::map<std::string, uint32_t> minSpace = {{"rrskip", 1},
                                                          {"ops", 1},
                                                          {"mp", 8},
                                                          {"bitmap", 64},
                                                          {"mrc", 128}};
        for (const auto& [name, min] : minSpace)
        {
            PathSelectorNames::Choice c;
            NS_TEST_ASSERT_MSG_EQ(PathSelectorNames::Lookup(name, c, error), true, error);
            NS_TEST_ASSERT_MSG_EQ(PathSelectorNames::GetMinEntropySpace(c), min, name);
        }

        FabricExperiment e;
        e.lb = "ops,rrskip";
        e.leaves = 2;
        e.hostsPerLeaf = 4;
        e.spines = 2;
        e.flowSize = "128KiB";
        e.failedLinks = 1;
        e.failLeaf = 0;
        e.failAt = "5us";
        e.quiet = true;
        e.Check();
        NS_TEST_ASSERT_MSG_EQ(e.GetSelectors().size(), 2, "two selectors");
        RunResult r = e.Run(e.GetSelectors()[1]);
        NS_TEST_ASSERT_MSG_EQ(r.lb, "rrskip", "the result carries the short name");
        NS_TEST_ASSERT_MSG_EQ(r.flows.GetFlowCount(), 8, "a permutation of 8 hosts");
        NS_TEST_ASSERT_MSG_EQ(r.flows.GetCompletedCount(), 8, "every flow completes");
    }
};

/**
 * \ingroup reps-test
 * The UEC regression's scenarios as options: --pattern=single, bidir and outcastincast make
 * the flows of uet-htsim's one.cm, bidir.cm and outcast_incast.cm; --spines below
 * --hostsPerLeaf is an oversubscribed leaf-spine whose ratio reaches the summary and the JSON;
 * --slowLinks picks the links uet-htsim's -failed N picks (3 tiers: the core-to-agg
 * direction of agg 0's first core links; 2 tiers: every link of the first spines), at a
 * quarter of the rate with the queue and ECN thresholds scaled, and leaves the other
 * direction and the other links alone; --traceStartUnit=us reads a matrix's start times as
 * uet-htsim's htsim_uec does. Every run is reproduced bit for bit.
 */
class UecScenarioOptionsTestCase : public TestCase
{
  public:
    UecScenarioOptionsTestCase()
        : TestCase("UEC scenarios: patterns, oversubscription, -failed N links, us starts")
    {
    }

  private:
    /// What the built callback read off the fabric.
    struct Seen
    {
        std::vector<std::pair<uint64_t, std::string>> rates; //!< (bit/s, "side:link") per side.
        std::map<std::string, std::string> queues;           //!< "link:side" -> size/kmin/kmax.
    };

    static void Built(Seen* seen, Ptr<ClosFabric> f, const std::vector<Ptr<RdmaQueuePair>>&)
    {
        seen->rates.clear();
        seen->queues.clear();
        for (ClosFabric::Tier tier :
             {ClosFabric::LEAF_SPINE, ClosFabric::LEAF_AGG, ClosFabric::AGG_CORE})
        {
            if (f->GetNTiers() == 2 && tier != ClosFabric::LEAF_SPINE)
            {
                continue;
            }
            if (f->GetNTiers() == 3 && tier == ClosFabric::LEAF_SPINE)
            {
                continue;
            }
            for (uint32_t link : f->GetLinks(tier))
            {
                for (uint32_t side : {0U, 1U})
                {
                    DataRateValue rate;
                    f->GetLinkDevice(link, side)->GetAttribute("DataRate", rate);
                    const std::string name = f->GetNodeName(f->GetLinkNode(link, side)) + "->" +
                                             f->GetNodeName(f->GetLinkNode(link, 1 - side));
                    seen->rates.emplace_back(rate.Get().GetBitRate(), name);
                    Ptr<QueueDisc> q = f->GetQueueDisc(link, side);
                    StringValue size;
                    StringValue kmin;
                    StringValue kmax;
                    q->GetAttribute("MaxSize", size);
                    q->GetAttribute("Kmin", kmin);
                    q->GetAttribute("Kmax", kmax);
                    seen->queues[name] = size.Get() + "/" + kmin.Get() + "/" + kmax.Get();
                }
            }
        }
    }

    /**
     * \param e an experiment, checked
     * \param seen where the built fabric is read
     * \return its run, twice: the second must give the same completion times
     */
    RunResult RunTwice(FabricExperiment& e, Seen* seen)
    {
        e.SetBuiltCallback(MakeBoundCallback(&UecScenarioOptionsTestCase::Built, seen));
        RunResult a = e.Run(e.GetSelectors()[0]);
        Simulator::Destroy();
        RunResult b = e.Run(e.GetSelectors()[0]);
        Simulator::Destroy();
        NS_TEST_EXPECT_MSG_EQ(a.flows.GetRecords().size(), b.flows.GetRecords().size(), "flows");
        for (size_t i = 0; i < a.flows.GetRecords().size() && i < b.flows.GetRecords().size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(a.flows.GetRecords()[i].finished,
                                  b.flows.GetRecords()[i].finished,
                                  "the same run reproduces flow " << i);
        }
        return a;
    }

    void DoRun() override
    {
        Seen seen;
        // One connection, then one each way, across a 2-tier fabric of 8 hosts.
        for (const char* pattern : {"single", "bidir"})
        {
            FabricExperiment e;
            e.lb = "reps";
            e.leaves = 2;
            e.hostsPerLeaf = 4;
            e.spines = 2;
            e.flowSize = "128KiB";
            e.pattern = pattern;
            e.quiet = true;
            e.Check();
            RunResult r = RunTwice(e, &seen);
            const auto& flows = r.flows.GetRecords();
            const bool bidir = std::string(pattern) == "bidir";
            NS_TEST_ASSERT_MSG_EQ(flows.size(), (bidir ? 2U : 1U), pattern);
            NS_TEST_EXPECT_MSG_EQ(flows[0].flow.src, 0, "host 0 sends");
            NS_TEST_EXPECT_MSG_EQ(flows[0].flow.dst, 7, "to the last host, under another leaf");
            if (bidir)
            {
                NS_TEST_EXPECT_MSG_EQ(flows[1].flow.src, 7, "and back");
                NS_TEST_EXPECT_MSG_EQ(flows[1].flow.dst, 0, "and back");
            }
            NS_TEST_EXPECT_MSG_EQ(r.flows.GetCompletedCount(), flows.size(), "all complete");
        }

        // outcast_incast.cm's shape: 1 -> 0; 2 -> 0 and 2 -> 4..12; 3 -> 0 and 3 -> 13..21.
        {
            FabricExperiment e;
            e.lb = "ops";
            e.leaves = 6;
            e.hostsPerLeaf = 4;
            e.spines = 4;
            e.flowSize = "64KiB";
            e.pattern = "outcastincast";
            e.incastSenders = 3;
            e.outcastFlows = 9;
            e.quiet = true;
            e.Check();
            RunResult r = RunTwice(e, &seen);
            const auto& flows = r.flows.GetRecords();
            NS_TEST_ASSERT_MSG_EQ(flows.size(), 21U, "3 incast and 18 outcast flows");
            std::map<uint32_t, std::vector<uint32_t>> bySrc;
            for (const auto& f : flows)
            {
                bySrc[f.flow.src].push_back(f.flow.dst);
            }
            NS_TEST_EXPECT_MSG_EQ(bySrc[1].size(), 1U, "host 1: the victim, into host 0 only");
            NS_TEST_EXPECT_MSG_EQ(bySrc[1][0], 0, "host 1 into host 0");
            NS_TEST_EXPECT_MSG_EQ(bySrc[2].size(), 10U, "host 2: host 0 and 9 others");
            NS_TEST_EXPECT_MSG_EQ(bySrc[2][1], 4, "host 2's outcast starts at host 4");
            NS_TEST_EXPECT_MSG_EQ(bySrc[3].back(), 21, "host 3's outcast ends at host 21");
            NS_TEST_EXPECT_MSG_EQ(r.flows.GetCompletedCount(), 21, "all complete");
        }

        // 4:1 leaf-spine (8 hosts per leaf, 2 spines) with -failed 1: spine 0 slowed.
        {
            FabricExperiment e;
            e.lb = "ops";
            e.leaves = 2;
            e.hostsPerLeaf = 8;
            e.spines = 2;
            e.flowSize = "64KiB";
            e.linkRate = "100Gbps";
            e.trim = true;
            e.slowLinks = 1;
            e.Set("queuePackets", "43");
            e.Set("ecnKmin", "9");
            e.Set("ecnKmax", "35");
            e.quiet = true;
            e.Check();
            std::ostringstream setup;
            e.PrintSetup(setup);
            NS_TEST_EXPECT_MSG_NE(setup.str().find("oversubscription 4:1 (8 hosts x 100Gbps per "
                                                   "leaf over 2 up-links x 100Gbps)"),
                                  std::string::npos,
                                  "the ratio in the summary: " << setup.str());
            NS_TEST_EXPECT_MSG_NE(setup.str().find("1 spines (both directions) slowed (uet-htsim "
                                                   "-failed 1) to 25% of 100Gbps, queues 11 "
                                                   "packets, ECN 2-9"),
                                  std::string::npos,
                                  "the slow links in the summary: " << setup.str());
            RunResult r = RunTwice(e, &seen);
            uint32_t slow = 0;
            for (const auto& [bps, name] : seen.rates)
            {
                const bool spine0 = name.find("spine0") != std::string::npos;
                NS_TEST_EXPECT_MSG_EQ(bps, (spine0 ? 25000000000ULL : 100000000000ULL), name);
                NS_TEST_EXPECT_MSG_EQ(seen.queues[name],
                                      (spine0 ? "11p/2p/9p" : "43p/9p/35p"),
                                      name);
                slow += spine0 ? 1 : 0;
            }
            NS_TEST_EXPECT_MSG_EQ(slow, 4U, "2 leaves x 2 directions of spine 0");
            NS_TEST_ASSERT_MSG_EQ(r.slowLinks.size(), 4U, "every slow direction in the result");
            NS_TEST_EXPECT_MSG_EQ(r.slowLinks[0].rateBps, 25000000000ULL, "rate in the result");
            NS_TEST_EXPECT_MSG_EQ(r.slowLinks[0].queuePackets, 11, "queue in the result");
            ExperimentReport report;
            e.FillConfig(report);
            report.AddResult(r);
            const std::string json = report.ToJson();
            NS_TEST_EXPECT_MSG_NE(json.find("\"oversubscription\": 4"),
                                  std::string::npos,
                                  "the ratio in the JSON");
            NS_TEST_EXPECT_MSG_NE(json.find("\"spine0->leaf1 at 25000Mbps, queue 11 packets, ECN "
                                            "2-9 (--slowLinks)\""),
                                  std::string::npos,
                                  "each slow direction in the JSON's events");
            NS_TEST_EXPECT_MSG_EQ(r.flows.GetCompletedCount(), r.flows.GetFlowCount(), "done");
        }

        // K = 4 fat tree with -failed 1: core -> agg0.0 of agg 0's first core link only.
        {
            FabricExperiment e;
            e.lb = "reps";
            e.tiers = 3;
            e.pods = 4;
            e.leaves = 2;
            e.hostsPerLeaf = 2;
            e.spines = 2;
            e.cores = 4;
            e.flowSize = "64KiB";
            e.trim = true;
            e.slowLinks = 1;
            e.quiet = true;
            e.Check();
            std::ostringstream setup;
            e.PrintSetup(setup);
            NS_TEST_EXPECT_MSG_NE(setup.str().find("oversubscription 1:1"),
                                  std::string::npos,
                                  "no oversubscription stated: " << setup.str());
            RunResult r = RunTwice(e, &seen);
            std::vector<std::string> slowNames;
            for (const auto& [bps, name] : seen.rates)
            {
                if (bps != 400000000000ULL)
                {
                    NS_TEST_EXPECT_MSG_EQ(bps, 100000000000ULL, name);
                    slowNames.push_back(name);
                    NS_TEST_EXPECT_MSG_EQ(seen.queues[name], "25p/5p/20p", name);
                }
            }
            NS_TEST_ASSERT_MSG_EQ(slowNames.size(), 1U, "one direction");
            NS_TEST_EXPECT_MSG_EQ(slowNames[0].rfind("core", 0), 0U, "core side");
            NS_TEST_EXPECT_MSG_NE(slowNames[0].find("->agg0.0"), std::string::npos, "agg 0");
            NS_TEST_ASSERT_MSG_EQ(r.slowLinks.size(), 1U, "in the result");
            NS_TEST_EXPECT_MSG_EQ(r.slowLinks[0].link, slowNames[0], "the same link");
            NS_TEST_EXPECT_MSG_EQ(r.flows.GetCompletedCount(), r.flows.GetFlowCount(), "done");
        }

        // htsim_uec reads "start 40" as 40 us; the REPS artifact's htsim as 40 ps.
        {
            char path[] = "/tmp/reps-uec-tm-XXXXXX";
            int fd = mkstemp(path);
            NS_TEST_ASSERT_MSG_NE(fd, -1, "temporary file");
            close(fd);
            {
                std::ofstream tm(path);
                tm << "Nodes 8\nConnections 2\n7->0 id 1 start 0 size 200000\n"
                      "5->0 id 2 start 40 size 20000\n";
            }
            for (const char* unit : {"us", "ps"})
            {
                FabricExperiment e;
                e.lb = "ops";
                e.leaves = 2;
                e.hostsPerLeaf = 4;
                e.spines = 2;
                e.pattern = "trace";
                e.traceFile = path;
                e.traceStartUnit = unit;
                e.quiet = true;
                e.Check();
                RunResult r = RunTwice(e, &seen);
                const auto& flows = r.flows.GetRecords();
                NS_TEST_ASSERT_MSG_EQ(flows.size(), 2U, "two connections");
                const Time gap = flows[1].flow.start - flows[0].flow.start;
                const Time expected = std::string(unit) == "us" ? MicroSeconds(40) : Seconds(0);
                NS_TEST_EXPECT_MSG_EQ(gap, expected, "start 40 in " << unit);
            }
            std::remove(path);
        }
    }
};

/**
 * \ingroup reps-test
 * The experiment tests.
 */
class RepsExperimentTestSuite : public TestSuite
{
  public:
    RepsExperimentTestSuite()
        : TestSuite("reps-experiment", TestSuite::Type::UNIT)
    {
        AddTestCase(new RdmaFlowLauncherTestCase(), reps::kQuick);
        AddTestCase(new ConnectionMappingTestCase(), reps::kQuick);
        AddTestCase(new RdmaAllReduceTestCase(), reps::kQuick);
        AddTestCase(new ExperimentOrderIndependenceTestCase, reps::kQuick);
        AddTestCase(new FabricExperimentTestCase(), reps::kQuick);
        AddTestCase(new IdealFctTestCase(), reps::kQuick);
        AddTestCase(new CableFailureTestCase(), reps::kQuick);
        AddTestCase(new ExperimentOptionsReachObjectsTestCase(), reps::kQuick);
        AddTestCase(new TcpBackgroundExperimentTestCase(), reps::kQuick);
        AddTestCase(new TcpBackgroundEcnTestCase(), reps::kQuick);
        AddTestCase(new CustomSelectorTestCase(), reps::kQuick);
        AddTestCase(new UecScenarioOptionsTestCase(), reps::kQuick);
    }
};

/// The one instance.
static RepsExperimentTestSuite g_repsExperimentTestSuite;
