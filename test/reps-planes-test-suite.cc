/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "reps-test-compat.h"

#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/reps-module.h"
#include "ns3/traffic-control-layer.h"

#include <map>
#include <set>
#include <sstream>
#include <tuple>
#include <vector>

using namespace ns3;

/**
 * \file
 * \ingroup reps-test
 * Multi-plane fabrics (ClosFabricHelper Planes): the planes are disjoint and addressed per
 * plane; the NIC sends every packet on plane EV mod P, so OPS and REPS use every plane and
 * ECMP one; a whole plane that fails mid-run is seen at its time and the sprayed flows still
 * deliver every byte once, in order, and MRC moves its data off the failed plane within a
 * few RTOs; Planes = 1 builds the single-plane fabric; bad Planes
 * values are refused. The fabric numbers the links plane after plane and maps each back to
 * its plane's own number, its traces give the fabric's numbers, and it takes only planes of
 * one shape over the same hosts.
 */

namespace
{

/**
 * A small 2-tier fabric of some planes: 2 leaves of 2 hosts, 2 spines, 100 Gb/s.
 * \param planes the number of planes
 * \return the helper, ready to Build()
 */
Ptr<ClosFabricHelper>
PlaneFabric(uint32_t planes)
{
    Ptr<ClosFabricHelper> h = CreateObject<ClosFabricHelper>();
    h->SetAttribute("Leaves", UintegerValue(2));
    h->SetAttribute("HostsPerLeaf", UintegerValue(2));
    h->SetAttribute("Spines", UintegerValue(2));
    h->SetAttribute("HostLinkRate", DataRateValue(DataRate("100Gbps")));
    h->SetAttribute("LeafUplinkRate", DataRateValue(DataRate("100Gbps")));
    h->SetAttribute("Planes", UintegerValue(planes));
    return h;
}

/**
 * The UDP source port of a RoCEv2 packet as it leaves a device (PPP header first), and whether
 * it is a CNP (which takes the plane of the packet it answers, not of its own port).
 * \param p the packet
 * \param[out] sport its UDP source port
 * \return false when it is not a RoCEv2 packet other than a CNP
 */
bool
SourcePort(Ptr<const Packet> p, uint16_t& sport)
{
    Ptr<Packet> c = p->Copy();
    PppHeader ppp;
    c->RemoveHeader(ppp);
    Ipv4Header ip;
    c->RemoveHeader(ip);
    if (ip.GetProtocol() != 17)
    {
        return false;
    }
    UdpHeader udp;
    c->RemoveHeader(udp);
    RoceBthHeader bth;
    if (udp.GetDestinationPort() != RoceBthHeader::UDP_PORT || c->PeekHeader(bth) == 0)
    {
        return false;
    }
    c->RemoveHeader(bth);
    sport = udp.GetSourcePort();
    return bth.GetOpCode() != RoceBthHeader::CNP;
}

/// Packets seen leaving the host ports, per plane, and those on the wrong plane.
struct PlaneTally
{
    uint32_t planes{1};                //!< Number of planes.
    std::map<uint32_t, uint64_t> sent; //!< RoCEv2 packets per plane.
    uint64_t wrongPlane{0};            //!< Packets whose EV maps to another plane.
    std::set<uint32_t> evPlanes;       //!< Planes of the EVs seen.

    /**
     * PhyTxBegin of a host port.
     * \param plane the port's plane
     * \param p the packet
     */
    void Sent(uint32_t plane, Ptr<const Packet> p)
    {
        uint16_t sport = 0;
        if (!SourcePort(p, sport))
        {
            return;
        }
        ++sent[plane];
        evPlanes.insert(PathSelector::PlaneOfEntropy(sport, planes));
        if (PathSelector::PlaneOfEntropy(sport, planes) != plane)
        {
            ++wrongPlane;
        }
    }
};

/**
 * Watch every host port of a fabric.
 * \param f the fabric
 * \param tally where to count
 */
void
WatchHostPorts(Ptr<ClosFabric> f, PlaneTally* tally)
{
    tally->planes = f->GetNPlanes();
    for (uint32_t h = 0; h < f->GetNHosts(); ++h)
    {
        for (uint32_t p = 0; p < f->GetNPlanes(); ++p)
        {
            f->GetLinkDevice(f->GetHostLink(h, p), 0)
                ->TraceConnectWithoutContext("PhyTxBegin",
                                             MakeCallback(&PlaneTally::Sent, tally).Bind(p));
        }
    }
}

/// One queue pair and what its receiver saw.
struct PlaneFlow
{
    Ptr<RdmaQueuePair> sender;       //!< Sender.
    Ptr<RdmaQueuePair> receiver;     //!< Receiver.
    std::vector<uint64_t> posted;    //!< Message sizes posted.
    std::vector<uint64_t> received;  //!< Message sizes delivered, in order.
    std::vector<uint64_t> completed; //!< Message sizes completed at the sender.

    /// Receiver callback. \param id message \param size bytes \param t time
    void Received(uint64_t id, uint64_t size, Time t)
    {
        received.push_back(size);
    }

    /// Sender callback. \param id message \param size bytes \param fct completion time
    void Completed(uint64_t id, uint64_t size, Time fct)
    {
        completed.push_back(size);
    }

    /// \return whether every message arrived once, in order, and every byte was placed once
    bool Exact() const
    {
        uint64_t bytes = 0;
        for (uint64_t b : posted)
        {
            bytes += b;
        }
        return received == posted && completed == posted &&
               receiver->GetStats().bytesReceived == bytes;
    }
};

/**
 * Connect src -> dst and post messages.
 * \param f the fabric
 * \param rdma the helper (stacks installed)
 * \param src sender host
 * \param dst receiver host
 * \param sizes message sizes
 * \param flow what is seen
 */
void
Connect(Ptr<ClosFabric> f,
        RdmaHelper& rdma,
        uint32_t src,
        uint32_t dst,
        const std::vector<uint64_t>& sizes,
        PlaneFlow& flow)
{
    rdma.SetQueuePairAttribute("BaseRtt", TimeValue(f->GetBaseRtt(src, dst, 4140, 66)));
    auto qps = rdma.CreateQueuePair(f->GetHost(src), f->GetHost(dst));
    flow.sender = qps.first;
    flow.receiver = qps.second;
    flow.receiver->SetReceiveCallback(MakeCallback(&PlaneFlow::Received, &flow));
    for (uint64_t s : sizes)
    {
        flow.posted.push_back(s);
        flow.sender->PostSend(s, MakeCallback(&PlaneFlow::Completed, &flow));
    }
}

/**
 * Build by hand, through the construction API, a plane of 2 leaves of 1 host each and some
 * spines over two given hosts.
 * \param hosts the two hosts
 * \param base the network of the host addresses
 * \param spines the number of spines
 * \return the finished plane
 */
Ptr<ClosPlane>
HandPlane(const NodeContainer& hosts, Ipv4Address base, uint32_t spines)
{
    ClosPlane::Shape shape;
    shape.tiers = 2;
    shape.hostsPerLeaf = 1;
    shape.leavesPerPod = 2;
    shape.spines = spines;
    shape.addressBase = base;
    shape.hostRate = DataRate("100Gbps");
    shape.leafUplinkRate = DataRate("100Gbps");
    Ptr<ClosPlane> plane = CreateObject<ClosPlane>();
    plane->SetShape(shape);
    std::vector<Ptr<Node>> nodes;
    for (uint32_t i = 0; i < 4 + spines; ++i)
    {
        Ptr<Node> node = i < 2 ? hosts.Get(i) : CreateObject<Node>();
        if (i >= 2)
        {
            node->AggregateObject(CreateObject<TrafficControlLayer>());
            node->AggregateObject(CreateObject<FabricSwitch>());
        }
        plane->AddNode(node, plane->GetRoleOfIndex(i));
        nodes.push_back(node);
    }
    PointToPointHelper p2p;
    auto link = [&](ClosPlane::Tier tier, Ptr<Node> a, Ptr<Node> b) {
        NetDeviceContainer d = p2p.Install(a, b);
        plane->AddLink(tier,
                       DynamicCast<PointToPointNetDevice>(d.Get(0)),
                       DynamicCast<PointToPointNetDevice>(d.Get(1)));
    };
    link(ClosPlane::HOST_LEAF, nodes[0], nodes[2]);
    link(ClosPlane::HOST_LEAF, nodes[1], nodes[3]);
    for (uint32_t leaf = 0; leaf < 2; ++leaf)
    {
        for (uint32_t spine = 0; spine < spines; ++spine)
        {
            link(ClosPlane::LEAF_SPINE, nodes[2 + leaf], nodes[4 + spine]);
        }
    }
    plane->Finish();
    return plane;
}

/// Link state changes seen on a LinkState or RouteState trace source.
struct StateLog
{
    /// (link, up, time in ns) of every change, in order.
    std::vector<std::tuple<uint32_t, bool, int64_t>> changes;

    /**
     * The trace sink.
     * \param link the link
     * \param up its new state
     */
    void Changed(uint32_t link, bool up)
    {
        changes.emplace_back(link, up, Simulator::Now().GetNanoSeconds());
    }

    /**
     * \param link a link
     * \param down when it went down (ns)
     * \param up when it came back (ns)
     * \return whether exactly these two changes were seen
     */
    bool Is(uint32_t link, int64_t down, int64_t up) const
    {
        return changes == std::vector<std::tuple<uint32_t, bool, int64_t>>{{link, false, down},
                                                                           {link, true, up}};
    }
};

} // namespace

/**
 * \ingroup reps-test
 * Links of a 2-plane fabric, 2-tier and 3-tier (with parallel links), are numbered plane 0's
 * first, then plane 1's: the (plane, local number) of every link maps back to it, and the
 * fabric's answers about a link (name, tier, nodes, devices) are its plane's about the local
 * number; FindLink(), GetLinks() and GetHostLink() give the fabric's numbers.
 */
class PlanesLinkNumberingTestCase : public TestCase
{
  public:
    PlanesLinkNumberingTestCase()
        : TestCase("Planes: links numbered plane by plane; (plane, local link) maps back")
    {
    }

  private:
    /**
     * Check the numbering of every link of a fabric of two planes.
     * \param f the fabric
     * \param what which fabric, for the messages
     */
    void CheckLinks(Ptr<ClosFabric> f, const std::string& what)
    {
        NS_TEST_ASSERT_MSG_EQ(f->GetNPlanes(), 2, what);
        Ptr<ClosPlane> p0 = f->GetPlane(0);
        Ptr<ClosPlane> p1 = f->GetPlane(1);
        NS_TEST_ASSERT_MSG_EQ(p1->GetPlaneIndex(), 1, what + ": the plane knows its index");
        NS_TEST_ASSERT_MSG_EQ(f->GetPlaneFirstLink(0), 0, what + ": plane 0's links first");
        NS_TEST_ASSERT_MSG_EQ(f->GetPlaneFirstLink(1), p0->GetNLinks(), what + ": then 1's");
        NS_TEST_ASSERT_MSG_EQ(f->GetNLinks(), p0->GetNLinks() + p1->GetNLinks(), what);
        for (uint32_t link = 0; link < f->GetNLinks(); ++link)
        {
            const uint32_t p = f->GetPlaneOfLink(link);
            const uint32_t local = f->GetLocalLink(link);
            Ptr<ClosPlane> plane = f->GetPlane(p);
            const std::string l = what + ", link " + std::to_string(link);
            NS_TEST_ASSERT_MSG_EQ(p, (link < p0->GetNLinks() ? 0U : 1U), l + ": its plane");
            NS_TEST_ASSERT_MSG_LT(local, plane->GetNLinks(), l + ": a link of the plane");
            if (local >= plane->GetNLinks())
            {
                continue; // reported: the plane has no such link to compare with
            }
            NS_TEST_ASSERT_MSG_EQ(f->GetPlaneFirstLink(p) + local, link, l + ": maps back");
            NS_TEST_ASSERT_MSG_EQ(f->GetLinkName(link), plane->GetLinkName(local), l);
            NS_TEST_ASSERT_MSG_EQ(f->GetLinkTier(link), plane->GetLinkTier(local), l);
            NS_TEST_ASSERT_MSG_EQ(f->GetLinkDevice(link, 0), plane->GetLinkDevice(local, 0), l);
            Ptr<Node> a = plane->GetLinkNode(local, 0);
            Ptr<Node> b = plane->GetLinkNode(local, 1);
            NS_TEST_ASSERT_MSG_EQ(f->GetLinkNode(link, 1), b, l);
            NS_TEST_ASSERT_MSG_EQ(f->GetPlaneOfNode(b), p, l + ": its switch is in its plane");
            uint32_t k = 0; // which of the parallel links, as the plane finds it
            while (k < plane->GetNParallelLinks() && plane->FindLink(a, b, k) != local)
            {
                ++k;
            }
            NS_TEST_ASSERT_MSG_LT(k, plane->GetNParallelLinks(), l + ": the plane finds it");
            NS_TEST_ASSERT_MSG_EQ(f->FindLink(a, b, k), link, l + ": found by its nodes");
            NS_TEST_ASSERT_MSG_EQ(f->FindLink(b, a, k), link, l + ": either way round");
        }
        for (uint32_t tier = ClosPlane::HOST_LEAF; tier <= ClosPlane::AGG_CORE; ++tier)
        {
            std::vector<uint32_t> expected;
            for (uint32_t p = 0; p < 2; ++p)
            {
                for (uint32_t local : f->GetPlane(p)->GetLinks(static_cast<ClosPlane::Tier>(tier)))
                {
                    expected.push_back(f->GetPlaneFirstLink(p) + local);
                }
            }
            NS_TEST_ASSERT_MSG_EQ((f->GetLinks(static_cast<ClosFabric::Tier>(tier)) == expected),
                                  true,
                                  what + ": the links of tier " + std::to_string(tier));
        }
        for (uint32_t h = 0; h < f->GetNHosts(); ++h)
        {
            NS_TEST_ASSERT_MSG_EQ(f->GetHostLink(h, 1),
                                  f->GetPlaneFirstLink(1) + p1->GetHostLink(h),
                                  what + ": host link in plane 1");
        }
        NS_TEST_ASSERT_MSG_NE(f->ValidateLink(f->GetNLinks()), "", what + ": no link beyond");
    }

    void DoRun() override
    {
        CheckLinks(PlaneFabric(2)->Build(), "2 tiers");
        Ptr<ClosFabricHelper> h = CreateObject<ClosFabricHelper>();
        h->SetAttribute("Tiers", UintegerValue(3));
        h->SetAttribute("Pods", UintegerValue(2));
        h->SetAttribute("LeavesPerPod", UintegerValue(2));
        h->SetAttribute("AggsPerPod", UintegerValue(2));
        h->SetAttribute("Cores", UintegerValue(2));
        h->SetAttribute("HostsPerLeaf", UintegerValue(2));
        h->SetAttribute("ParallelLinks", UintegerValue(2));
        h->SetAttribute("Planes", UintegerValue(2));
        CheckLinks(h->Build(), "3 tiers");
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * A link of plane 1 fails and comes back, routing converging 10 us after each change: the
 * fabric's LinkState and RouteState traces give the link's fabric number, the plane's own
 * traces its plane number, plane 0 sees nothing, and routing is changed in plane 1 only.
 */
class PlanesTraceNumbersTestCase : public TestCase
{
  public:
    PlanesTraceNumbersTestCase()
        : TestCase("Planes: the fabric's LinkState and RouteState give fabric link numbers")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<ClosFabricHelper> h = PlaneFabric(2);
        h->SetPlaneAttribute("RoutingConvergenceDelay", TimeValue(MicroSeconds(10)));
        Ptr<ClosFabric> f = h->Build();
        Ptr<ClosPlane> p0 = f->GetPlane(0);
        Ptr<ClosPlane> p1 = f->GetPlane(1);
        const uint32_t local = p1->GetLeafSpineLink(1, 0);
        const uint32_t link = f->GetPlaneFirstLink(1) + local;
        NS_TEST_ASSERT_MSG_EQ(f->GetLinkName(link), "p1.leaf1-p1.spine0", "a link of plane 1");
        StateLog fabricLink;
        StateLog fabricRoute;
        StateLog planeLink;
        StateLog planeRoute;
        StateLog plane0;
        f->TraceConnectWithoutContext("LinkState", MakeCallback(&StateLog::Changed, &fabricLink));
        f->TraceConnectWithoutContext("RouteState", MakeCallback(&StateLog::Changed, &fabricRoute));
        p1->TraceConnectWithoutContext("LinkState", MakeCallback(&StateLog::Changed, &planeLink));
        p1->TraceConnectWithoutContext("RouteState", MakeCallback(&StateLog::Changed, &planeRoute));
        p0->TraceConnectWithoutContext("LinkState", MakeCallback(&StateLog::Changed, &plane0));
        p0->TraceConnectWithoutContext("RouteState", MakeCallback(&StateLog::Changed, &plane0));
        f->FailLink(link, MicroSeconds(5), MicroSeconds(50));
        bool routedMidway[3] = {true, true, true};
        Simulator::Schedule(MicroSeconds(30), [&]() {
            routedMidway[0] = f->IsLinkRouted(link);
            routedMidway[1] = p1->IsLinkRouted(local);
            routedMidway[2] = p0->IsLinkRouted(local);
        });
        Simulator::Stop(MicroSeconds(100));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(fabricLink.Is(link, 5000, 50000), true, "fabric LinkState");
        NS_TEST_ASSERT_MSG_EQ(fabricRoute.Is(link, 15000, 60000), true, "fabric RouteState");
        NS_TEST_ASSERT_MSG_EQ(planeLink.Is(local, 5000, 50000), true, "plane 1's LinkState");
        NS_TEST_ASSERT_MSG_EQ(planeRoute.Is(local, 15000, 60000), true, "plane 1's RouteState");
        NS_TEST_ASSERT_MSG_EQ(plane0.changes.size(), 0, "plane 0 changed nothing");
        NS_TEST_ASSERT_MSG_EQ(routedMidway[0], false, "the failed link left routing");
        NS_TEST_ASSERT_MSG_EQ(routedMidway[1], false, "in its plane");
        NS_TEST_ASSERT_MSG_EQ(routedMidway[2], true, "plane 0's link of that number stayed");
        NS_TEST_ASSERT_MSG_EQ(f->IsLinkRouted(link), true, "routed again once back");
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * ClosFabric::AddPlane() takes planes of the first plane's shape over the same hosts, with host
 * addresses of their own; ValidateNewPlane() says why it refuses an unfinished plane, a plane
 * added twice, another shape, other hosts or overlapping addresses. A plane added second is
 * plane 1: its switches are named p1.*, and its addresses name its hosts.
 */
class PlanesAddPlaneTestCase : public TestCase
{
  public:
    PlanesAddPlaneTestCase()
        : TestCase("Planes: AddPlane refuses other shapes, other hosts, shared addresses")
    {
    }

  private:
    /**
     * Check that a message mentions some words.
     * \param message the message
     * \param words the words
     */
    void Expect(const std::string& message, const std::string& words)
    {
        NS_TEST_ASSERT_MSG_NE(message.find(words),
                              std::string::npos,
                              "message \"" << message << "\" says " << words);
    }

    void DoRun() override
    {
        NodeContainer hosts;
        hosts.Create(2);
        NodeContainer others;
        others.Create(2);
        Ptr<ClosPlane> first = HandPlane(hosts, Ipv4Address("10.0.0.0"), 2);
        Ptr<ClosFabric> f = CreateObject<ClosFabric>();
        NS_TEST_ASSERT_MSG_EQ(f->ValidateNewPlane(first), "", "the first plane sets the shape");
        f->AddPlane(first);
        Expect(f->ValidateNewPlane(nullptr), "finished");
        Expect(f->ValidateNewPlane(CreateObject<ClosPlane>()), "finished");
        Expect(f->ValidateNewPlane(first), "plane 0 of this fabric already");
        Expect(f->ValidateNewPlane(HandPlane(hosts, Ipv4Address("11.0.0.0"), 3)),
               "differs from that of plane 0 in spines");
        Expect(f->ValidateNewPlane(HandPlane(others, Ipv4Address("11.0.0.0"), 2)),
               "host 0 of the plane is not host 0 of plane 0");
        Expect(f->ValidateNewPlane(HandPlane(hosts, Ipv4Address("10.0.0.1"), 2)),
               "overlap those of plane 0");
        Ptr<ClosPlane> second = HandPlane(hosts, Ipv4Address("11.0.0.0"), 2);
        NS_TEST_ASSERT_MSG_EQ(f->ValidateNewPlane(second), "", "same shape and hosts");
        f->AddPlane(second);
        NS_TEST_ASSERT_MSG_EQ(f->GetNPlanes(), 2, "two planes");
        NS_TEST_ASSERT_MSG_EQ(second->GetPlaneIndex(), 1, "plane 1");
        NS_TEST_ASSERT_MSG_EQ(f->GetNodeName(second->GetSpine(1)), "p1.spine1", "its names");
        NS_TEST_ASSERT_MSG_EQ(f->GetLinkName(f->GetHostLink(1, 1)), "host1-p1.leaf1", "link");
        NS_TEST_ASSERT_MSG_EQ(f->GetNLinks(), 12, "6 links per plane");
        NS_TEST_ASSERT_MSG_EQ(f->GetHostIndex(Ipv4Address("11.0.0.2")), 1, "plane 1 address");
        NS_TEST_ASSERT_MSG_EQ(f->GetHostIndex(Ipv4Address("12.0.0.1")), 2, "no such address");
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * Three planes are disjoint: every switch is in exactly one plane and named after it, every
 * link joins a host or switches of one plane, every host has one port and one address per
 * plane, the host's routes reach a plane's addresses over that plane's port only, and the
 * switches of a plane route every host of the fabric.
 */
class PlanesDisjointTestCase : public TestCase
{
  public:
    PlanesDisjointTestCase()
        : TestCase("Planes: disjoint switches, links, addresses and routes per plane")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t planes = 3;
        Ptr<ClosFabric> f = PlaneFabric(planes)->Build();
        NS_TEST_ASSERT_MSG_EQ(f->GetNPlanes(), planes, "three planes");
        const uint32_t perPlane = f->GetPlane(1)->GetNLinks();
        NS_TEST_ASSERT_MSG_EQ(f->GetNLinks(), planes * perPlane, "links numbered across planes");
        NS_TEST_ASSERT_MSG_EQ(f->GetNSwitches(), planes * 4, "4 switches per plane");
        // Every switch in exactly one plane, named after it.
        std::set<uint32_t> ids;
        NodeContainer switches = f->GetSwitches();
        for (uint32_t i = 0; i < switches.GetN(); ++i)
        {
            Ptr<Node> sw = switches.Get(i);
            NS_TEST_ASSERT_MSG_EQ(ids.insert(sw->GetId()).second, true, "a switch listed once");
            uint32_t p = f->GetPlaneOfNode(sw);
            // Every plane is a ClosPlane of its own: a switch is in exactly one (its plane).
            std::set<uint32_t> owners;
            for (uint32_t q = 0; q < planes; ++q)
            {
                NodeContainer c = f->GetPlane(q)->GetSwitches();
                for (uint32_t k = 0; k < c.GetN(); ++k)
                {
                    if (c.Get(k) == sw)
                    {
                        owners.insert(q);
                    }
                }
            }
            NS_TEST_ASSERT_MSG_EQ(owners.size(), 1U, "a switch is in one plane");
            NS_TEST_ASSERT_MSG_EQ(owners.count(p), 1U, "its own plane");
            std::string name = f->GetNodeName(sw);
            const bool prefixed = name.rfind("p", 0) == 0;
            NS_TEST_ASSERT_MSG_EQ(prefixed, (p > 0), "only planes > 0 carry a prefix: " + name);
            if (p > 0)
            {
                NS_TEST_ASSERT_MSG_EQ(name.rfind("p" + std::to_string(p) + ".", 0),
                                      0,
                                      "plane prefix of " + name);
            }
        }
        // Every link within one plane; links of a plane are contiguous.
        for (uint32_t link = 0; link < f->GetNLinks(); ++link)
        {
            uint32_t p = f->GetPlaneOfLink(link);
            NS_TEST_ASSERT_MSG_EQ(p, link / perPlane, "links of a plane are contiguous");
            for (uint32_t side = 0; side < 2; ++side)
            {
                Ptr<Node> n = f->GetLinkNode(link, side);
                if (f->GetRole(n) != ClosFabric::HOST)
                {
                    NS_TEST_ASSERT_MSG_EQ(f->GetPlaneOfNode(n),
                                          p,
                                          "link " + f->GetLinkName(link) + " stays in its plane");
                }
            }
        }
        // Addresses and host routes per plane.
        for (uint32_t h = 0; h < f->GetNHosts(); ++h)
        {
            Ptr<Ipv4> ipv4 = f->GetHost(h)->GetObject<Ipv4>();
            NS_TEST_ASSERT_MSG_EQ(ipv4->GetNInterfaces(), 1 + planes, "loopback + one per plane");
            for (uint32_t p = 0; p < planes; ++p)
            {
                Ipv4Address a = f->GetHostAddress(h, p);
                NS_TEST_ASSERT_MSG_EQ(a, Ipv4Address((10 + p) << 24 | (1 + h)), "the scheme");
                NS_TEST_ASSERT_MSG_EQ(ipv4->GetAddress(1 + p, 0).GetLocal(), a, "port address");
                NS_TEST_ASSERT_MSG_EQ(ipv4->GetNetDevice(1 + p),
                                      f->GetLinkDevice(f->GetHostLink(h, p), 0),
                                      "the port of plane p is the host's link in plane p");
                NS_TEST_ASSERT_MSG_EQ(f->GetHostIndex(a), h, "any plane's address names host");
                // The route to another host's plane-p address leaves on the plane-p port.
                Ipv4Header header;
                header.SetDestination(f->GetHostAddress((h + 1) % f->GetNHosts(), p));
                Socket::SocketErrno err;
                Ptr<Ipv4Route> route =
                    ipv4->GetRoutingProtocol()->RouteOutput(nullptr, header, nullptr, err);
                NS_TEST_ASSERT_MSG_EQ((route != nullptr), true, "a route");
                NS_TEST_ASSERT_MSG_EQ(route->GetOutputDevice(),
                                      ipv4->GetNetDevice(1 + p),
                                      "no host route crosses planes");
            }
        }
        // Every switch routes to every host, over ports of its own plane.
        for (uint32_t p = 0; p < planes; ++p)
        {
            Ptr<ClosPlane> plane = f->GetPlane(p);
            NS_TEST_ASSERT_MSG_EQ(plane->RecomputeRoutes(), 0, "every host reachable in a plane");
            NS_TEST_ASSERT_MSG_EQ(plane->GetNEqualCostPaths(0, 3), 2, "two spines per plane");
        }
        // Names resolve to links of the right plane.
        uint32_t l = f->FindLink(f->GetPlane(1)->GetLeaf(0), f->GetPlane(1)->GetSpine(1));
        NS_TEST_ASSERT_MSG_EQ(f->GetLinkName(l), "p1.leaf0-p1.spine1", "plane 1 link name");
        NS_TEST_ASSERT_MSG_EQ(f->GetPlaneOfLink(l), 1, "plane 1 link");
        NS_TEST_ASSERT_MSG_EQ(f->GetLinkName(f->GetHostLink(2, 2)), "host2-p2.leaf1", "host link");
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * On two planes, every packet leaves on plane PlaneOfEntropy(EV, 2): one OPS or REPS queue pair
 * uses both planes, one ECMP queue pair one plane only; a permutation under OPS loads every
 * plane's spines; every byte arrives once, in order.
 */
class PlanesSprayTestCase : public TestCase
{
  public:
    PlanesSprayTestCase()
        : TestCase("Planes: each packet leaves on plane EV mod P; OPS and REPS use every plane, "
                   "ECMP one")
    {
    }

  private:
    /**
     * One queue pair host 0 -> host 3 with a selector.
     * \param selector its TypeId name
     * \param[out] tally what the host ports sent
     * \return whether the messages arrived exactly once, in order
     */
    bool OneQp(const std::string& selector, PlaneTally& tally)
    {
        Ptr<ClosFabric> f = PlaneFabric(2)->Build();
        WatchHostPorts(f, &tally);
        RdmaHelper rdma;
        rdma.SetPathSelector(selector);
        rdma.Install(f->GetHosts());
        rdma.AssignStreams(f->GetHosts(), 7);
        PlaneFlow flow;
        Connect(f, rdma, 0, 3, {300000, 1, 65536}, flow);
        Simulator::Stop(MilliSeconds(5));
        Simulator::Run();
        // The context reaches the selector when the first packet leaves.
        NS_TEST_EXPECT_MSG_EQ(flow.sender->GetPathSelector()->GetPlanes(),
                              2,
                              "the queue pair tells its selector the planes");
        bool exact = flow.Exact();
        Simulator::Destroy();
        return exact;
    }

    void DoRun() override
    {
        for (const char* sel : {"ns3::OpsPathSelector", "ns3::RepsPathSelector"})
        {
            PlaneTally t;
            NS_TEST_ASSERT_MSG_EQ(OneQp(sel, t), true, std::string(sel) + ": every byte once");
            NS_TEST_ASSERT_MSG_EQ(t.wrongPlane, 0, std::string(sel) + ": plane = EV mod P");
            NS_TEST_ASSERT_MSG_GT(t.sent[0], 20, std::string(sel) + ": plane 0 used");
            NS_TEST_ASSERT_MSG_GT(t.sent[1], 20, std::string(sel) + ": plane 1 used");
        }
        PlaneTally ecmp;
        NS_TEST_ASSERT_MSG_EQ(OneQp("ns3::EcmpPathSelector", ecmp), true, "ECMP: every byte");
        NS_TEST_ASSERT_MSG_EQ(ecmp.wrongPlane, 0, "ECMP: plane = EV mod P");
        NS_TEST_ASSERT_MSG_EQ(ecmp.evPlanes.size(), 1, "ECMP keeps one plane (data and ACKs)");
        NS_TEST_ASSERT_MSG_EQ(ecmp.sent.size(), 1, "ECMP: one plane's ports only");

        // A permutation under OPS: every plane's spine links carry traffic.
        Ptr<ClosFabric> f = PlaneFabric(2)->Build();
        RdmaHelper rdma;
        rdma.SetPathSelector("ns3::OpsPathSelector");
        rdma.Install(f->GetHosts());
        rdma.AssignStreams(f->GetHosts(), 11);
        std::vector<PlaneFlow> flows(4);
        for (uint32_t h = 0; h < 4; ++h)
        {
            Connect(f, rdma, h, (h + 2) % 4, {200000}, flows[h]);
        }
        Simulator::Stop(MilliSeconds(5));
        Simulator::Run();
        for (uint32_t h = 0; h < 4; ++h)
        {
            NS_TEST_ASSERT_MSG_EQ(flows[h].Exact(), true, "permutation: every byte once");
        }
        for (uint32_t p = 0; p < 2; ++p)
        {
            for (uint32_t link : f->GetPlane(p)->GetLinks(ClosFabric::LEAF_SPINE))
            {
                uint32_t global = f->GetPlaneFirstLink(p) + link;
                NS_TEST_ASSERT_MSG_GT(f->GetLinkCounters(global, 0).bytes,
                                      0,
                                      "every plane carries traffic: " + f->GetLinkName(global));
            }
        }
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * A whole plane fails mid-run (failure schedule "plane:1 down"): every link of plane 1, host
 * links included, goes down at that time and no other; OPS and REPS queue pairs still deliver
 * every message once and in order, over plane 0; the schedule's outcome counts the drops.
 */
class PlaneFailureTestCase : public TestCase
{
  public:
    PlaneFailureTestCase()
        : TestCase("Planes: a plane failed mid-run is seen at its time; OPS and REPS still deliver "
                   "exactly once, in order")
    {
    }

  private:
    /// LinkState trace: a link changed state.
    /// \param downs where to record \param link the link \param up its state
    static void LinkState(std::vector<std::pair<uint32_t, int64_t>>* downs, uint32_t link, bool up)
    {
        if (!up)
        {
            downs->emplace_back(link, Simulator::Now().GetNanoSeconds());
        }
    }

    void DoRun() override
    {
        for (const char* sel : {"ns3::OpsPathSelector", "ns3::RepsPathSelector"})
        {
            Ptr<ClosFabric> f = PlaneFabric(2)->Build();
            std::vector<std::pair<uint32_t, int64_t>> downs;
            f->TraceConnectWithoutContext("LinkState", MakeBoundCallback(&LinkState, &downs));
            std::vector<FailureSchedule::Event> events;
            NS_TEST_ASSERT_MSG_EQ(FailureSchedule::Parse("15us plane:1 down\n", events), "", "");
            Ptr<FailureInjector> injector = CreateObject<FailureInjector>();
            NS_TEST_ASSERT_MSG_EQ(injector->Schedule(f, events), "", "a valid schedule");
            RdmaHelper rdma;
            rdma.SetPathSelector(sel);
            rdma.Install(f->GetHosts());
            rdma.AssignStreams(f->GetHosts(), 3);
            std::vector<PlaneFlow> flows(2);
            Connect(f, rdma, 0, 2, {100000, 4096, 100000}, flows[0]);
            Connect(f, rdma, 3, 1, {150000, 50000}, flows[1]);
            Simulator::Stop(MilliSeconds(50));
            Simulator::Run();
            const uint32_t perPlane = f->GetPlane(1)->GetNLinks();
            NS_TEST_ASSERT_MSG_EQ(downs.size(), perPlane, "every link of plane 1 went down");
            for (const auto& [link, ns] : downs)
            {
                NS_TEST_ASSERT_MSG_EQ(f->GetPlaneOfLink(link), 1, "only plane 1's links");
                NS_TEST_ASSERT_MSG_EQ(ns, 15000, "at the time of the schedule");
            }
            for (const PlaneFlow& flow : flows)
            {
                NS_TEST_ASSERT_MSG_EQ(flow.Exact(),
                                      true,
                                      std::string(sel) + ": every message once, in order");
            }
            std::vector<FailureInjector::Outcome> out = injector->GetOutcomes();
            NS_TEST_ASSERT_MSG_EQ(out.size(), 1, "one outcome");
            NS_TEST_ASSERT_MSG_EQ(out[0].element, "plane:1", "the element as written");
            NS_TEST_ASSERT_MSG_GT(out[0].drops, 0, "packets sent into the dead plane were lost");
            Simulator::Destroy();
        }
    }
};

/**
 * \ingroup reps-test
 * MRC on two planes, plane 1 failed mid-run (every link of it, host ports included): the
 * senders' data leaves plane 1 within a few RTOs of the failure (the EVs of plane 1 time out,
 * become ASSUMED_BAD and carry only probes), plane 0 carries the rest, and every message is
 * delivered exactly once and in order; OPS, which never learns, keeps spraying plane 1.
 */
class MrcPlaneFailoverTestCase : public TestCase
{
  public:
    MrcPlaneFailoverTestCase()
        : TestCase("Planes: MRC moves data off a failed plane within a few RTOs, exactly once")
    {
    }

  private:
    /// Data packets leaving the host ports, per plane, and the last one's time.
    struct DataLog
    {
        Time failAt;                        //!< When plane 1 fails.
        std::map<uint32_t, Time> last;      //!< Last data packet sent, per plane.
        std::map<uint32_t, uint64_t> after; //!< Data packets sent after the failure, per plane.

        /**
         * PhyTxBegin of a host port.
         * \param plane the port's plane
         * \param p the packet
         */
        void Sent(uint32_t plane, Ptr<const Packet> p)
        {
            Ptr<Packet> c = p->Copy();
            PppHeader ppp;
            c->RemoveHeader(ppp);
            Ipv4Header ip;
            c->RemoveHeader(ip);
            UdpHeader udp;
            RoceBthHeader bth;
            if (ip.GetProtocol() != 17 || c->RemoveHeader(udp) == 0 ||
                udp.GetDestinationPort() != RoceBthHeader::UDP_PORT || c->PeekHeader(bth) == 0 ||
                bth.GetOpCode() > RoceBthHeader::RC_SEND_ONLY)
            {
                return; // ACKs, CNPs, probes and their replies
            }
            last[plane] = Simulator::Now();
            if (Simulator::Now() > failAt)
            {
                ++after[plane];
            }
        }
    };

    /**
     * A permutation of 1 MiB per host on two planes, plane 1 down at 20 us.
     * \param selector the path selector's TypeId name
     * \param[out] log what the host ports sent
     * \param[out] rto the first sender's RTO
     * \return whether every message arrived exactly once, in order
     */
    bool Run(const std::string& selector, DataLog& log, Time& rto)
    {
        Ptr<ClosFabric> f = PlaneFabric(2)->Build();
        log.failAt = MicroSeconds(20);
        std::vector<FailureSchedule::Event> events;
        NS_TEST_EXPECT_MSG_EQ(FailureSchedule::Parse("20us plane:1 down\n", events), "", "");
        Ptr<FailureInjector> injector = CreateObject<FailureInjector>();
        NS_TEST_EXPECT_MSG_EQ(injector->Schedule(f, events), "", "a valid schedule");
        for (uint32_t h = 0; h < f->GetNHosts(); ++h)
        {
            for (uint32_t p = 0; p < f->GetNPlanes(); ++p)
            {
                f->GetLinkDevice(f->GetHostLink(h, p), 0)
                    ->TraceConnectWithoutContext("PhyTxBegin",
                                                 MakeCallback(&DataLog::Sent, &log).Bind(p));
            }
        }
        RdmaHelper rdma;
        rdma.SetPathSelector(selector);
        rdma.Install(f->GetHosts());
        rdma.AssignStreams(f->GetHosts(), 5);
        std::vector<PlaneFlow> flows(4);
        for (uint32_t h = 0; h < 4; ++h)
        {
            Connect(f, rdma, h, (h + 2) % 4, {1 << 20}, flows[h]);
        }
        Simulator::Stop(MilliSeconds(50));
        Simulator::Run();
        rto = flows[0].sender->GetRto();
        bool exact = true;
        for (const PlaneFlow& flow : flows)
        {
            exact = exact && flow.Exact();
        }
        Simulator::Destroy();
        return exact;
    }

    void DoRun() override
    {
        DataLog mrc;
        Time rto;
        NS_TEST_ASSERT_MSG_EQ(Run("ns3::MrcPathSelector", mrc, rto),
                              true,
                              "MRC: every message once, in order");
        std::ostringstream os;
        os << "RTO " << rto.As(Time::US) << ", last data on plane 1 at " << mrc.last[1].As(Time::US)
           << ", " << mrc.after[1] << " data packets into it after "
           << "the failure, " << mrc.after[0] << " on plane 0, last at "
           << mrc.last[0].As(Time::US);
        NS_TEST_EXPECT_MSG_GT(mrc.after[1], 0, "data was lost before MRC learned: " + os.str());
        NS_TEST_EXPECT_MSG_LT(mrc.last[1],
                              mrc.failAt + 3 * rto,
                              "data off the failed plane within a few RTOs: " + os.str());
        NS_TEST_EXPECT_MSG_GT(mrc.last[0],
                              mrc.failAt + 3 * rto,
                              "plane 0 carries the rest: " + os.str());

        DataLog ops;
        NS_TEST_ASSERT_MSG_EQ(Run("ns3::OpsPathSelector", ops, rto), true, "OPS: exactly once");
        NS_TEST_EXPECT_MSG_GT(ops.last[1],
                              mrc.failAt + 3 * rto,
                              "OPS keeps spraying the failed plane");
    }
};

/**
 * \ingroup reps-test
 * Planes = 1 builds the single-plane fabric exactly (node ids, names, addresses, links, and the
 * same completion time of a flow); Planes outside 1 .. 8 and addressing without room for the
 * planes' networks are refused with a message naming the attribute.
 */
class PlanesOneAndBadValuesTestCase : public TestCase
{
  public:
    PlanesOneAndBadValuesTestCase()
        : TestCase("Planes: Planes=1 is the single-plane fabric; bad values refused")
    {
    }

  private:
    /**
     * Build a fabric, describe it, run one OPS flow.
     * \param helper the helper
     * \return a description: node ids and names, addresses, links, the flow's completion time
     */
    static std::string Describe(Ptr<ClosFabricHelper> helper)
    {
        Ptr<ClosFabric> f = helper->Build();
        ClosFabricHelper::AssignStreams(f, 100);
        std::ostringstream os;
        NodeContainer all(f->GetHosts(), f->GetSwitches());
        for (uint32_t i = 0; i < all.GetN(); ++i)
        {
            os << all.Get(i)->GetId() << ":" << f->GetNodeName(all.Get(i)) << " ";
        }
        for (uint32_t h = 0; h < f->GetNHosts(); ++h)
        {
            os << f->GetHostAddress(h) << " ";
        }
        for (uint32_t l = 0; l < f->GetNLinks(); ++l)
        {
            os << f->GetLinkName(l) << " ";
        }
        RdmaHelper rdma;
        rdma.SetPathSelector("ns3::OpsPathSelector");
        rdma.Install(f->GetHosts());
        rdma.AssignStreams(f->GetHosts(), 5);
        PlaneFlow flow;
        Connect(f, rdma, 0, 3, {500000}, flow);
        Time done;
        flow.sender->PostSend(1,
                              MakeBoundCallback(
                                  +[](Time* t, uint64_t, uint64_t, Time) { *t = Simulator::Now(); },
                                  &done));
        Simulator::Run();
        os << done.GetPicoSeconds() << " " << flow.Exact();
        Simulator::Destroy();
        return os.str();
    }

    void DoRun() override
    {
        Ptr<ClosFabricHelper> plain = CreateObject<ClosFabricHelper>();
        plain->SetAttribute("Leaves", UintegerValue(2));
        plain->SetAttribute("HostsPerLeaf", UintegerValue(2));
        plain->SetAttribute("Spines", UintegerValue(2));
        plain->SetAttribute("HostLinkRate", DataRateValue(DataRate("100Gbps")));
        plain->SetAttribute("LeafUplinkRate", DataRateValue(DataRate("100Gbps")));
        std::string single = Describe(plain);
        NS_TEST_ASSERT_MSG_EQ(Describe(PlaneFabric(1)), single, "Planes=1: the same fabric");
        NS_TEST_ASSERT_MSG_NE(Describe(PlaneFabric(2)), single, "Planes=2: another fabric");

        Ptr<ClosFabricHelper> h = PlaneFabric(1);
        for (uint32_t bad : {0U, 9U})
        {
            NS_TEST_ASSERT_MSG_EQ(h->SetAttributeFailSafe("Planes", UintegerValue(bad)),
                                  false,
                                  "Planes checker refuses " + std::to_string(bad));
        }
        h->SetAttribute("Planes", UintegerValue(8));
        h->SetAttribute("HostAddressBase", Ipv4AddressValue("250.0.0.0"));
        std::string error = h->Validate();
        NS_TEST_ASSERT_MSG_NE(error.find("no room for the networks of 8 planes"),
                              std::string::npos,
                              "address space too small for the planes: " + error);
        h->SetAttribute("HostAddressBase", Ipv4AddressValue("10.0.0.0"));
        NS_TEST_ASSERT_MSG_EQ(h->Validate(), "", "8 planes from 10.0.0.0/8 fit");
        h->SetAttribute("Pfc", BooleanValue(true));
        NS_TEST_ASSERT_MSG_NE(h->Validate().find("Pfc needs Planes = 1"),
                              std::string::npos,
                              "PFC refused on several planes");
    }
};

/**
 * \ingroup reps-test
 * The reps-planes test suite.
 */
class RepsPlanesTestSuite : public TestSuite
{
  public:
    RepsPlanesTestSuite()
        : TestSuite("reps-planes", TestSuite::Type::UNIT)
    {
        AddTestCase(new PlanesDisjointTestCase(), reps::kQuick);
        AddTestCase(new PlanesSprayTestCase(), reps::kQuick);
        AddTestCase(new PlaneFailureTestCase(), reps::kQuick);
        AddTestCase(new MrcPlaneFailoverTestCase(), reps::kQuick);
        AddTestCase(new PlanesOneAndBadValuesTestCase(), reps::kQuick);
        AddTestCase(new PlanesLinkNumberingTestCase(), reps::kQuick);
        AddTestCase(new PlanesTraceNumbersTestCase(), reps::kQuick);
        AddTestCase(new PlanesAddPlaneTestCase(), reps::kQuick);
    }
};

/// The suite instance.
static RepsPlanesTestSuite g_repsPlanesTestSuite;
