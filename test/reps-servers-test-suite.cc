/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "reps-test-compat.h"

#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/reps-module.h"

#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

/**
 * \file
 * \ingroup reps-test
 * Servers of several GPUs and rail-optimised fabrics (ClosFabricHelper GpusPerServer,
 * ScaleUpRate, ScaleUpDelay, Wiring): traffic between two GPUs of one server takes the
 * server's scale-up switch, never a plane, and completes at the scale-up rate; GPU g of every
 * server sits on rail leaf g of its group (2 and 3 tiers); a cross-rail flow crosses a spine
 * and a same-rail one stays on its leaf; GpusPerServer = 1 builds the fabric without servers;
 * bad values are refused with the parameter and its range; NcclCollective's communicator
 * groups the hosts by server.
 */

namespace
{

/**
 * A small 2-tier fabric of servers.
 * \param leaves leaves
 * \param hostsPerLeaf hosts per leaf
 * \param gpus GPUs per server
 * \param wiring "Clos" or "RailOptimised"
 * \return the helper, ready to Build()
 */
Ptr<ClosFabricHelper>
ServerFabric(uint32_t leaves, uint32_t hostsPerLeaf, uint32_t gpus, const std::string& wiring)
{
    Ptr<ClosFabricHelper> h = CreateObject<ClosFabricHelper>();
    h->SetAttribute("Leaves", UintegerValue(leaves));
    h->SetAttribute("HostsPerLeaf", UintegerValue(hostsPerLeaf));
    h->SetAttribute("Spines", UintegerValue(2));
    h->SetAttribute("HostLinkRate", DataRateValue(DataRate("100Gbps")));
    h->SetAttribute("LeafUplinkRate", DataRateValue(DataRate("100Gbps")));
    h->SetAttribute("GpusPerServer", UintegerValue(gpus));
    h->SetAttribute("Wiring", StringValue(wiring));
    return h;
}

/// One queue pair's message and when it completed.
struct OneFlow
{
    Time fct;          //!< Completion time seen by the sender.
    uint64_t bytes{0}; //!< Bytes completed.
    bool done{false};  //!< Whether it completed.

    /// Sender callback. \param id message \param size bytes \param t completion time
    void Completed(uint64_t id, uint64_t size, Time t)
    {
        fct = t;
        bytes = size;
        done = true;
    }
};

/**
 * Run one message from src to dst on a fabric and return what the sender saw.
 * \param f the fabric
 * \param src sender host
 * \param dst receiver host
 * \param bytes message size
 * \return the flow
 */
OneFlow
RunOne(Ptr<ClosFabric> f, uint32_t src, uint32_t dst, uint64_t bytes)
{
    RdmaHelper rdma;
    rdma.SetPathSelector("ns3::EcmpPathSelector");
    rdma.SetQueuePairAttribute("BaseRtt", TimeValue(f->GetBaseRtt(src, dst, 4140, 66)));
    rdma.Install(f->GetHosts());
    rdma.AssignStreams(f->GetHosts(), 3);
    OneFlow flow;
    auto qps = rdma.CreateQueuePair(f->GetHost(src), f->GetHost(dst));
    qps.first->PostSend(bytes, MakeCallback(&OneFlow::Completed, &flow));
    Simulator::Stop(MilliSeconds(2));
    Simulator::Run();
    return flow;
}

/**
 * \param f a fabric
 * \param tier a tier
 * \return the bytes carried by the links of that tier of every plane, both directions
 */
uint64_t
TierBytes(Ptr<ClosFabric> f, ClosPlane::Tier tier)
{
    uint64_t bytes = 0;
    for (uint32_t link : f->GetLinks(tier))
    {
        bytes += f->GetLinkCounters(link, 0).bytes + f->GetLinkCounters(link, 1).bytes;
    }
    return bytes;
}

} // namespace

/**
 * \ingroup reps-test
 * Two GPUs of one server: the flow crosses the scale-up switch only (every link of the planes
 * carries nothing, the two scale-up links carry the data and the ACKs) and completes at the
 * scale-up rate, faster than the NIC could send it; the stack knows its peer.
 */
class SameServerTestCase : public TestCase
{
  public:
    SameServerTestCase()
        : TestCase("Servers: a same-server flow takes the scale-up domain, at its rate")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<ClosFabricHelper> h = ServerFabric(2, 4, 4, "Clos");
        h->SetAttribute("ScaleUpRate", DataRateValue(DataRate("3200Gbps")));
        h->SetAttribute("ScaleUpDelay", TimeValue(NanoSeconds(100)));
        Ptr<ClosFabric> f = h->Build();
        NS_TEST_ASSERT_MSG_EQ(f->GetGpusPerServer(), 4, "4 GPUs per server");
        NS_TEST_ASSERT_MSG_EQ(f->GetNServers(), 2, "8 hosts, 2 servers");
        NS_TEST_ASSERT_MSG_EQ(f->IsSameServer(1, 2), true, "hosts 1 and 2: server 0");
        NS_TEST_ASSERT_MSG_EQ(f->IsSameServer(3, 4), false, "host 4 is on server 1");
        Ptr<ScaleUpDomain> su = f->GetScaleUp();
        NS_TEST_ASSERT_MSG_NE(su, nullptr, "a scale-up domain");
        NS_TEST_ASSERT_MSG_EQ(f->GetNodeName(su->GetSwitch(1)), "scaleup1", "its name");
        NS_TEST_ASSERT_MSG_EQ(su->GetLinkName(5), "host5-scaleup1", "a scale-up link's name");
        const uint64_t bytes = 1000000;
        OneFlow flow = RunOne(f, 1, 2, bytes);
        NS_TEST_ASSERT_MSG_EQ(flow.done, true, "the flow completed");
        NS_TEST_ASSERT_MSG_EQ(flow.bytes, bytes, "every byte");
        Ptr<RdmaStack> stack = f->GetHost(1)->GetObject<RdmaStack>();
        NS_TEST_ASSERT_MSG_EQ(stack->IsScaleUpPeer(f->GetHostAddress(2)), true, "a peer");
        NS_TEST_ASSERT_MSG_EQ(stack->IsScaleUpPeer(f->GetHostAddress(4)), false, "not a peer");
        NS_TEST_ASSERT_MSG_EQ(stack->GetLineRate(f->GetHostAddress(2)),
                              DataRate("3200Gbps"),
                              "the scale-up rate toward a peer");
        for (uint32_t link = 0; link < f->GetNLinks(); ++link)
        {
            NS_TEST_ASSERT_MSG_EQ(f->GetLinkCounters(link, 0).bytes +
                                      f->GetLinkCounters(link, 1).bytes,
                                  0,
                                  "fabric link " << f->GetLinkName(link) << " carried nothing");
        }
        NS_TEST_ASSERT_MSG_GT(su->GetLinkCounters(1, 0).bytes, bytes, "data up host 1's link");
        NS_TEST_ASSERT_MSG_GT(su->GetLinkCounters(2, 1).bytes, bytes, "data down host 2's");
        NS_TEST_ASSERT_MSG_GT(su->GetLinkCounters(1, 1).bytes, 0, "ACKs back to host 1");
        NS_TEST_ASSERT_MSG_EQ(su->GetLinkCounters(0, 0).bytes, 0, "host 0's link idle");
        // 1 MB at 3.2 Tb/s is 2.5 us (plus headers and one RTT); the NIC alone needs 80 us.
        const Time scaleUp = DataRate("3200Gbps").CalculateBytesTxTime(bytes);
        NS_TEST_ASSERT_MSG_GT(flow.fct, scaleUp, "not faster than the scale-up rate");
        NS_TEST_ASSERT_MSG_LT(flow.fct, 2 * scaleUp, "at the scale-up rate: " << flow.fct);
        // The ideal completion time follows the same two hops.
        const std::vector<IdealFct::Hop> path = IdealFct::PathOf(f, 1, 2);
        NS_TEST_ASSERT_MSG_EQ(path.size(), 2, "two scale-up hops");
        NS_TEST_ASSERT_MSG_EQ(path[0].rate, DataRate("3200Gbps"), "at the scale-up rate");
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * Failure schedules on the scale-up domain: link:host<h>-scaleup<s> and switch:scaleup<s>
 * resolve to the GPUs' scale-up links (numbered after the planes' links), a GPU of another
 * server is refused by name; a degraded link runs a same-server flow at its new rate, a
 * down link holds the flow (its packets dropped and counted) until it is back up.
 */
class ScaleUpFailureTestCase : public TestCase
{
  public:
    ScaleUpFailureTestCase()
        : TestCase("Servers: failure schedules fail and degrade scale-up links")
    {
    }

  private:
    /// \param schedule a failure schedule \param [out] injector its injector \return the flow
    OneFlow Run(const std::string& schedule, Ptr<FailureInjector>& injector)
    {
        Ptr<ClosFabricHelper> h = ServerFabric(2, 4, 4, "Clos");
        h->SetAttribute("ScaleUpRate", DataRateValue(DataRate("3200Gbps")));
        Ptr<ClosFabric> f = h->Build();
        m_planeLinks = f->GetNLinks();
        if (!schedule.empty())
        {
            std::vector<FailureSchedule::Event> events;
            NS_TEST_EXPECT_MSG_EQ(FailureSchedule::Parse(schedule, events), "", "parsed");
            injector = CreateObject<FailureInjector>();
            NS_TEST_EXPECT_MSG_EQ(injector->Schedule(f, events), "", "scheduled");
        }
        return RunOne(f, 1, 2, 1000000);
    }

    void DoRun() override
    {
        const Time healthy = DataRate("3200Gbps").CalculateBytesTxTime(1000000);
        Ptr<FailureInjector> injector;
        // Resolution: one GPU's link, a whole server's domain, a GPU of another server.
        OneFlow flow = Run("0 link:host2-scaleup0 rate 100Gbps\n"
                           "50us switch:scaleup1 down\n"
                           "60us switch:scaleup1 up\n",
                           injector);
        const uint32_t planes = m_planeLinks;
        NS_TEST_ASSERT_MSG_EQ(planes, 8 + 2 * 2, "8 host links, 2 leaves x 2 spines");
        if (injector->GetEventLinks(0).size() != 1 || injector->GetEventLinks(1).size() != 4)
        {
            NS_TEST_ASSERT_MSG_EQ(injector->GetEventLinks(0).size(), 1, "one link");
            NS_TEST_ASSERT_MSG_EQ(injector->GetEventLinks(1).size(), 4, "server 1's 4 GPUs");
            return;
        }
        NS_TEST_ASSERT_MSG_EQ(injector->GetEventLinks(0)[0], planes + 2, "after the planes'");
        NS_TEST_ASSERT_MSG_EQ(injector->GetLinkName(planes + 2), "host2-scaleup0", "its name");
        NS_TEST_ASSERT_MSG_EQ(injector->GetEventLinks(1).size(), 4, "server 1's 4 GPUs");
        NS_TEST_ASSERT_MSG_EQ(injector->GetEventLinks(1)[0], planes + 4, "from GPU 4");
        // Degraded to 100 Gb/s: the flow takes 1 MB at that rate (80 us), not 2.5 us.
        NS_TEST_ASSERT_MSG_EQ(flow.done, true, "the degraded flow completes");
        NS_TEST_ASSERT_MSG_GT(flow.fct,
                              DataRate("100Gbps").CalculateBytesTxTime(1000000),
                              "at the degraded rate");
        Simulator::Destroy();

        // Down for the first 30 us: the flow waits for the link, its packets are dropped.
        flow = Run("0 link:host2-scaleup0 down\n30us link:host2-scaleup0 up\n", injector);
        NS_TEST_ASSERT_MSG_EQ(flow.done, true, "completes once the link is back");
        NS_TEST_ASSERT_MSG_GT(flow.fct, MicroSeconds(30), "not before the link is back");
        if (injector->GetOutcomes().size() != 1)
        {
            NS_TEST_ASSERT_MSG_EQ(injector->GetOutcomes().size(), 1, "one down line");
            return;
        }
        NS_TEST_ASSERT_MSG_GT(injector->GetOutcomes()[0].drops, 0, "packets dropped while down");
        Simulator::Destroy();

        // A healthy run, for scale.
        flow = Run("", injector);
        NS_TEST_ASSERT_MSG_LT(flow.fct, 2 * healthy, "healthy: at the scale-up rate");
        Simulator::Destroy();

        // GPU 5 is on server 1: no link to scaleup0.
        Ptr<ClosFabricHelper> h = ServerFabric(2, 4, 4, "Clos");
        Ptr<ClosFabric> f = h->Build();
        std::vector<FailureSchedule::Event> events;
        FailureSchedule::Parse("0 link:host5-scaleup0 down\n", events);
        injector = CreateObject<FailureInjector>();
        NS_TEST_ASSERT_MSG_EQ(injector->Schedule(f, events),
                              "line 1: element 'link:host5-scaleup0': no such link in this fabric "
                              "(host5 and scaleup0 are not linked; a scale-up switch scaleup<s> "
                              "links the GPUs of server s)",
                              "refused by name");
        Simulator::Destroy();
    }

    uint32_t m_planeLinks{0}; //!< Links of the planes of the last fabric built.
};

/**
 * \ingroup reps-test
 * Rail-optimised wiring, 2 and 3 tiers: GPU g of every server of a group of HostsPerLeaf
 * servers sits on rail leaf g of the group (the host's link really ends at that leaf, and
 * every leaf has HostsPerLeaf hosts); the Clos wiring keeps a server on one leaf; the summary
 * states the wiring.
 */
class RailWiringTestCase : public TestCase
{
  public:
    RailWiringTestCase()
        : TestCase("Rails: GPU g of every server of a group sits on rail leaf g")
    {
    }

  private:
    /**
     * Check where every host of a fabric sits.
     * \param f the fabric
     * \param gpus GPUs per server
     * \param rails whether rail-optimised
     * \param what which fabric, for the messages
     */
    void CheckWiring(Ptr<ClosFabric> f, uint32_t gpus, bool rails, const std::string& what)
    {
        const uint32_t perLeaf = f->GetNHostsPerLeaf();
        std::vector<uint32_t> hostsOnLeaf(f->GetNLeaves(), 0);
        for (uint32_t h = 0; h < f->GetNHosts(); ++h)
        {
            const uint32_t server = h / gpus;
            const uint32_t g = h % gpus;
            const uint32_t expected = rails ? server / perLeaf * gpus + g : h / perLeaf;
            const std::string m = what + ", host " + std::to_string(h);
            NS_TEST_ASSERT_MSG_EQ(f->GetServerOfHost(h), server, m + ": its server");
            NS_TEST_ASSERT_MSG_EQ(f->GetLeafOfHost(h), expected, m + ": its leaf");
            NS_TEST_ASSERT_MSG_EQ(f->GetLinkNode(f->GetHostLink(h), 1),
                                  f->GetLeaf(expected),
                                  m + ": its link ends at that leaf");
            ++hostsOnLeaf[expected];
        }
        for (uint32_t l = 0; l < f->GetNLeaves(); ++l)
        {
            NS_TEST_ASSERT_MSG_EQ(hostsOnLeaf[l], perLeaf, what + ": hosts of leaf " << l);
        }
    }

    void DoRun() override
    {
        // 2 tiers: 4 leaves of 2 hosts, 4 servers of 2 GPUs: groups of 2 servers on 2 rails.
        Ptr<ClosFabric> f = ServerFabric(4, 2, 2, "RailOptimised")->Build();
        CheckWiring(f, 2, true, "2-tier rail-optimised");
        NS_TEST_ASSERT_MSG_EQ(f->GetShape().rails, 2, "2 rails");
        std::ostringstream summary;
        f->PrintSummary(summary);
        NS_TEST_ASSERT_MSG_NE(summary.str().find("rail-optimised: 2 rails"),
                              std::string::npos,
                              "the summary states the wiring: " << summary.str());
        NS_TEST_ASSERT_MSG_NE(summary.str().find("4 servers x 2 GPUs"),
                              std::string::npos,
                              "and the servers");
        Simulator::Destroy();

        f = ServerFabric(2, 4, 4, "Clos")->Build();
        CheckWiring(f, 4, false, "2-tier Clos, 4 GPUs per server");
        Simulator::Destroy();

        // 3 tiers: 2 pods of 4 leaves of 2 hosts, servers of 4 GPUs (a group spans 4 leaves).
        Ptr<ClosFabricHelper> h = CreateObject<ClosFabricHelper>();
        h->SetAttribute("Tiers", UintegerValue(3));
        h->SetAttribute("Pods", UintegerValue(2));
        h->SetAttribute("LeavesPerPod", UintegerValue(4));
        h->SetAttribute("AggsPerPod", UintegerValue(2));
        h->SetAttribute("Cores", UintegerValue(2));
        h->SetAttribute("HostsPerLeaf", UintegerValue(2));
        h->SetAttribute("GpusPerServer", UintegerValue(4));
        h->SetAttribute("Wiring", StringValue("RailOptimised"));
        f = h->Build();
        CheckWiring(f, 4, true, "3-tier rail-optimised");
        NS_TEST_ASSERT_MSG_EQ(f->GetPodOfHost(8), 1, "server 2 is in pod 1");
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * A rail-optimised 2-tier fabric: a flow between GPUs of two servers of one group on
 * different rails crosses a spine, one on the same rail stays on its rail leaf, and neither
 * touches a scale-up link.
 */
class CrossRailTestCase : public TestCase
{
  public:
    CrossRailTestCase()
        : TestCase("Rails: a cross-rail flow crosses a spine, a same-rail one does not")
    {
    }

  private:
    void DoRun() override
    {
        const uint64_t bytes = 100000;
        // Host 0 is GPU 0 of server 0 (rail leaf 0), host 3 GPU 1 of server 1 (rail leaf 1).
        Ptr<ClosFabric> f = ServerFabric(4, 2, 2, "RailOptimised")->Build();
        NS_TEST_ASSERT_MSG_NE(f->GetLeafOfHost(0), f->GetLeafOfHost(3), "two rails");
        OneFlow cross = RunOne(f, 0, 3, bytes);
        NS_TEST_ASSERT_MSG_EQ(cross.done, true, "the cross-rail flow completed");
        NS_TEST_ASSERT_MSG_GT(TierBytes(f, ClosPlane::LEAF_SPINE), bytes, "it crossed a spine");
        for (uint32_t h = 0; h < f->GetNHosts(); ++h)
        {
            NS_TEST_ASSERT_MSG_EQ(f->GetScaleUp()->GetLinkCounters(h, 0).bytes,
                                  0,
                                  "no scale-up link used, host " << h);
        }
        Simulator::Destroy();

        // Host 2 is GPU 0 of server 1: rail leaf 0, as host 0.
        f = ServerFabric(4, 2, 2, "RailOptimised")->Build();
        NS_TEST_ASSERT_MSG_EQ(f->GetLeafOfHost(0), f->GetLeafOfHost(2), "one rail");
        OneFlow same = RunOne(f, 0, 2, bytes);
        NS_TEST_ASSERT_MSG_EQ(same.done, true, "the same-rail flow completed");
        NS_TEST_ASSERT_MSG_EQ(TierBytes(f, ClosPlane::LEAF_SPINE), 0, "it stayed on the leaf");
        NS_TEST_ASSERT_MSG_GT(TierBytes(f, ClosPlane::HOST_LEAF), bytes, "over host links");
        NS_TEST_ASSERT_MSG_EQ(f->GetNEqualCostPaths(0, 3), 2, "2 spines, 2 paths across rails");
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * A rail-only fabric (one rail leaf per GPU index, no spines): a flow between GPUs of two
 * servers on different rails crosses the sender's scale-up switch to the GPU of its server on
 * the destination's rail, which forwards it onto that rail; the sender's own rail link sends
 * nothing; a same-rail flow stays on its rail leaf; base RTT and summary follow the relay.
 */
class RailOnlyTestCase : public TestCase
{
  public:
    RailOnlyTestCase()
        : TestCase("Rail-only: cross-rail traffic is relayed by a peer GPU over the scale-up")
    {
    }

  private:
    void DoRun() override
    {
        const uint64_t bytes = 100000;
        // 2 servers of 2 GPUs, rail leaves 0 and 1: host 0 (server 0, rail 0) to host 3
        // (server 1, rail 1) through host 1 (server 0, rail 1).
        Ptr<ClosFabric> f = ServerFabric(2, 2, 2, "RailOnly")->Build();
        NS_TEST_ASSERT_MSG_EQ(f->GetNSpines(), 0, "no spines");
        NS_TEST_ASSERT_MSG_EQ(f->GetNLinks(), 4, "the rail links only");
        NS_TEST_ASSERT_MSG_EQ(f->GetRelay(0, 3), 1, "host 1 relays host 0's packets to host 3");
        NS_TEST_ASSERT_MSG_EQ(f->GetRelay(0, 2), f->GetNHosts(), "same rail: no relay");
        NS_TEST_ASSERT_MSG_NE(f->GetBaseRtt(0, 3), Time::Max(), "a finite base RTT");
        std::ostringstream summary;
        f->PrintSummary(summary);
        NS_TEST_ASSERT_MSG_NE(summary.str().find("rail-only: 2 rail leaves"),
                              std::string::npos,
                              "the summary states the wiring: " << summary.str());
        OneFlow cross = RunOne(f, 0, 3, bytes);
        NS_TEST_ASSERT_MSG_EQ(cross.done, true, "the cross-rail flow completed");
        NS_TEST_ASSERT_MSG_EQ(cross.bytes, bytes, "every byte");
        Ptr<ScaleUpDomain> su = f->GetScaleUp();
        NS_TEST_ASSERT_MSG_GT(su->GetLinkCounters(0, 0).bytes, bytes, "host 0 to its switch");
        NS_TEST_ASSERT_MSG_GT(su->GetLinkCounters(1, 1).bytes, bytes, "then to host 1");
        NS_TEST_ASSERT_MSG_GT(f->GetLinkCounters(f->GetHostLink(1), 0).bytes,
                              bytes,
                              "host 1 forwards onto rail 1");
        NS_TEST_ASSERT_MSG_EQ(f->GetLinkCounters(f->GetHostLink(0), 0).bytes,
                              0,
                              "host 0's own rail link sends nothing");
        NS_TEST_ASSERT_MSG_GT(f->GetLinkCounters(f->GetHostLink(2), 0).bytes,
                              0,
                              "the ACKs come back through host 2 on rail 0");
        Simulator::Destroy();

        f = ServerFabric(2, 2, 2, "RailOnly")->Build();
        OneFlow same = RunOne(f, 0, 2, bytes);
        NS_TEST_ASSERT_MSG_EQ(same.done, true, "the same-rail flow completed");
        for (uint32_t h = 0; h < f->GetNHosts(); ++h)
        {
            NS_TEST_ASSERT_MSG_EQ(f->GetScaleUp()->GetLinkCounters(h, 0).bytes,
                                  0,
                                  "no scale-up link used, host " << h);
        }
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * GpusPerServer = 1 (the default) builds the fabric without servers: no scale-up domain, the
 * same nodes, links, summary and flow completion time as a helper that never heard of
 * servers.
 */
class OneGpuTestCase : public TestCase
{
  public:
    OneGpuTestCase()
        : TestCase("Servers: GpusPerServer = 1 is the fabric without servers")
    {
    }

  private:
    /**
     * \param explicitOne whether to set GpusPerServer = 1 and Wiring = Clos explicitly
     * \param summary where to put the fabric's summary
     * \param nodes where to put the number of nodes
     * \return the completion time of a cross-fabric flow
     */
    Time Run(bool explicitOne, std::string& summary, uint32_t& nodes)
    {
        Ptr<ClosFabricHelper> h = CreateObject<ClosFabricHelper>();
        h->SetAttribute("Leaves", UintegerValue(2));
        h->SetAttribute("HostsPerLeaf", UintegerValue(2));
        h->SetAttribute("Spines", UintegerValue(2));
        if (explicitOne)
        {
            h->SetAttribute("GpusPerServer", UintegerValue(1));
            h->SetAttribute("Wiring", StringValue("Clos"));
            h->SetAttribute("ScaleUpRate", DataRateValue(DataRate("1000Gbps")));
        }
        Ptr<ClosFabric> f = h->Build();
        NS_TEST_EXPECT_MSG_EQ(f->GetScaleUp(), nullptr, "no scale-up domain");
        NS_TEST_EXPECT_MSG_EQ(f->GetGpusPerServer(), 1, "one GPU per server");
        NS_TEST_EXPECT_MSG_EQ(f->GetNServers(), 4, "every host a server");
        std::ostringstream os;
        f->PrintSummary(os);
        summary = os.str();
        nodes = NodeList::GetNNodes();
        OneFlow flow = RunOne(f, 0, 3, 200000);
        Simulator::Destroy();
        return flow.fct;
    }

    void DoRun() override
    {
        std::string plain;
        std::string one;
        uint32_t plainNodes = 0;
        uint32_t oneNodes = 0;
        const Time a = Run(false, plain, plainNodes);
        const Time b = Run(true, one, oneNodes);
        NS_TEST_ASSERT_MSG_EQ(a, b, "the same completion time");
        NS_TEST_ASSERT_MSG_EQ(plain, one, "the same summary");
        NS_TEST_ASSERT_MSG_EQ(plainNodes, oneNodes, "the same nodes");
    }
};

/**
 * \ingroup reps-test
 * Bad values of the servers' attributes are refused, with the parameter and what is allowed.
 */
class ServersBadValuesTestCase : public TestCase
{
  public:
    ServersBadValuesTestCase()
        : TestCase("Servers: bad GpusPerServer, Wiring and combinations are refused")
    {
    }

  private:
    /**
     * \param h a helper
     * \param expected a part of the message Validate() must give
     */
    void Refused(Ptr<ClosFabricHelper> h, const std::string& expected)
    {
        const std::string error = h->Validate();
        NS_TEST_ASSERT_MSG_NE(error.find(expected),
                              std::string::npos,
                              "expected '" << expected << "', got '" << error << "'");
    }

    void DoRun() override
    {
        for (uint32_t bad : {0U, 65U})
        {
            Ptr<ClosFabricHelper> h = ServerFabric(2, 4, 2, "Clos");
            h->SetAttribute("GpusPerServer", UintegerValue(bad));
            Refused(h, "GpusPerServer");
        }
        Refused(ServerFabric(2, 4, 3, "Clos"),
                "HostsPerLeaf (4) must be a multiple of GpusPerServer (3) with Wiring Clos");
        Refused(ServerFabric(3, 2, 2, "RailOptimised"),
                "Leaves (3) must be a multiple of GpusPerServer (2) with Wiring RailOptimised");
        Refused(ServerFabric(2, 2, 1, "RailOptimised"),
                "Wiring RailOptimised needs GpusPerServer >= 2");
        Refused(ServerFabric(4, 2, 2, "RailOnly"),
                "Leaves (4) must equal GpusPerServer (2) with Wiring RailOnly");
        Ptr<ClosFabricHelper> h = ServerFabric(2, 2, 2, "RailOnly");
        h->SetAttribute("Tiers", UintegerValue(3));
        Refused(h, "Wiring RailOnly needs Tiers = 2");
        h = ServerFabric(2, 4, 2, "Clos");
        h->SetAttribute("Pfc", BooleanValue(true));
        Refused(h, "Pfc needs GpusPerServer = 1");
        h = ServerFabric(2, 4, 2, "Clos");
        h->SetAttribute("Systems", UintegerValue(2));
        Refused(h, "Systems > 1 needs GpusPerServer = 1");
        h = ServerFabric(2, 4, 2, "Clos");
        h->SetAttribute("ScaleUpRate", DataRateValue(DataRate(0)));
        Refused(h, "ScaleUpRate must be positive");
        h = ServerFabric(2, 4, 2, "Clos");
        h->SetAttribute("Wiring", StringValue("Mesh"));
        Refused(h, "Wiring");
        NS_TEST_ASSERT_MSG_EQ(ServerFabric(2, 4, 2, "Clos")->Validate(), "", "a valid one");
        NS_TEST_ASSERT_MSG_EQ(ScaleUpDomain::ValidateShape(2, 1).empty(), false, "G = 1");
    }
};

/**
 * \ingroup reps-test
 * NcclCollective's communicator groups its hosts by server once told the GPUs per server, so
 * that the schedule's chains inside a server and PXN hops are scale-up transfers.
 */
class NcclServersTestCase : public TestCase
{
  public:
    NcclServersTestCase()
        : TestCase("Servers: NcclCollective's communicator groups the hosts by server")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<NcclCollective> nccl = CreateObject<NcclCollective>();
        nccl->SetHosts(8);
        NcclCommunicator one = nccl->GetCommunicator();
        NS_TEST_ASSERT_MSG_EQ(one.server[7], 7, "one GPU per server by default");
        nccl->SetGpusPerServer(4);
        NcclCommunicator four = nccl->GetCommunicator();
        const std::vector<uint32_t> servers{0, 0, 0, 0, 1, 1, 1, 1};
        const std::vector<uint32_t> local{0, 1, 2, 3, 0, 1, 2, 3};
        NS_TEST_ASSERT_MSG_EQ((four.server == servers), true, "servers of 4 GPUs");
        NS_TEST_ASSERT_MSG_EQ((four.local == local), true, "GPU indices");
        NS_TEST_ASSERT_MSG_EQ(nccl->Check(), "", "a valid communicator");
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * The reps-servers test suite.
 */
class RepsServersTestSuite : public TestSuite
{
  public:
    RepsServersTestSuite()
        : TestSuite("reps-servers", TestSuite::Type::UNIT)
    {
        AddTestCase(new SameServerTestCase(), reps::kQuick);
        AddTestCase(new RailWiringTestCase(), reps::kQuick);
        AddTestCase(new CrossRailTestCase(), reps::kQuick);
        AddTestCase(new RailOnlyTestCase(), reps::kQuick);
        AddTestCase(new OneGpuTestCase(), reps::kQuick);
        AddTestCase(new ServersBadValuesTestCase(), reps::kQuick);
        AddTestCase(new NcclServersTestCase(), reps::kQuick);
        AddTestCase(new ScaleUpFailureTestCase(), reps::kQuick);
    }
};

/// The suite instance.
static RepsServersTestSuite g_repsServersTestSuite;
