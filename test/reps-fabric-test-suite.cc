/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "reps-test-compat.h"

#include "ns3/boolean.h"
#include "ns3/clos-fabric-helper.h"
#include "ns3/clos-fabric.h"
#include "ns3/clos-plane.h"
#include "ns3/config.h"
#include "ns3/double.h"
#include "ns3/ecn-queue-disc.h"
#include "ns3/fabric-switch.h"
#include "ns3/failure-injector.h"
#include "ns3/failure-schedule.h"
#include "ns3/inet-socket-address.h"
#include "ns3/ipv4-l3-protocol.h"
#include "ns3/ipv4.h"
#include "ns3/node-list.h"
#include "ns3/packet.h"
#include "ns3/point-to-point-channel.h"
#include "ns3/point-to-point-helper.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/rdma-flow-launcher.h"
#include "ns3/rdma-helper.h"
#include "ns3/red-queue-disc.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/roce-bth-header.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/traffic-control-layer.h"
#include "ns3/udp-header.h"
#include "ns3/udp-l4-protocol.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <set>
#include <sstream>
#include <vector>

using namespace ns3;

namespace
{

/**
 * A 2-tier helper.
 * \param leaves leaves
 * \param hostsPerLeaf hosts per leaf
 * \param spines spines
 * \param parallel parallel links
 * \return the helper
 */
Ptr<ClosFabricHelper>
TwoTier(uint32_t leaves, uint32_t hostsPerLeaf, uint32_t spines, uint32_t parallel = 1)
{
    Ptr<ClosFabricHelper> h = CreateObject<ClosFabricHelper>();
    h->SetAttribute("Tiers", UintegerValue(2));
    h->SetAttribute("Leaves", UintegerValue(leaves));
    h->SetAttribute("HostsPerLeaf", UintegerValue(hostsPerLeaf));
    h->SetAttribute("Spines", UintegerValue(spines));
    h->SetAttribute("ParallelLinks", UintegerValue(parallel));
    return h;
}

/**
 * A 3-tier helper.
 * \param pods pods
 * \param leavesPerPod leaves per pod
 * \param aggsPerPod aggregation switches per pod
 * \param cores cores
 * \param hostsPerLeaf hosts per leaf
 * \param parallel parallel links
 * \return the helper
 */
Ptr<ClosFabricHelper>
ThreeTier(uint32_t pods,
          uint32_t leavesPerPod,
          uint32_t aggsPerPod,
          uint32_t cores,
          uint32_t hostsPerLeaf,
          uint32_t parallel = 1)
{
    Ptr<ClosFabricHelper> h = CreateObject<ClosFabricHelper>();
    h->SetAttribute("Tiers", UintegerValue(3));
    h->SetAttribute("Pods", UintegerValue(pods));
    h->SetAttribute("LeavesPerPod", UintegerValue(leavesPerPod));
    h->SetAttribute("AggsPerPod", UintegerValue(aggsPerPod));
    h->SetAttribute("Cores", UintegerValue(cores));
    h->SetAttribute("HostsPerLeaf", UintegerValue(hostsPerLeaf));
    h->SetAttribute("ParallelLinks", UintegerValue(parallel));
    return h;
}

/**
 * Send one UDP datagram from a host, straight through its UDP layer (no socket needed).
 * \param fabric the fabric
 * \param src source host
 * \param dst destination host
 * \param srcPort UDP source port
 * \param dstPort UDP destination port
 * \param size payload bytes
 */
void
SendUdp(Ptr<ClosFabric> fabric,
        uint32_t src,
        uint32_t dst,
        uint16_t srcPort,
        uint16_t dstPort,
        uint32_t size)
{
    fabric->GetHost(src)->GetObject<UdpL4Protocol>()->Send(Create<Packet>(size),
                                                           fabric->GetHostAddress(src),
                                                           fabric->GetHostAddress(dst),
                                                           srcPort,
                                                           dstPort);
}

/// One received datagram.
struct Reception
{
    uint32_t dst;       //!< Receiving host.
    uint32_t src;       //!< Sending host.
    uint16_t srcPort;   //!< UDP source port.
    Time at;            //!< Arrival time.
    bool ce;            //!< Whether the packet arrived marked CE.
    Ptr<Packet> packet; //!< The payload.
};

/// UDP receivers on fabric hosts.
class Receivers
{
  public:
    /**
     * Listen on a port of some hosts.
     * \param fabric the fabric
     * \param hosts the hosts
     * \param port the port
     */
    void Listen(Ptr<ClosFabric> fabric, const std::vector<uint32_t>& hosts, uint16_t port)
    {
        m_fabric = fabric;
        for (uint32_t h : hosts)
        {
            Ptr<Socket> s = Socket::CreateSocket(fabric->GetHost(h), UdpSocketFactory::GetTypeId());
            s->Bind(InetSocketAddress(Ipv4Address::GetAny(), port));
            s->SetIpRecvTos(true);
            s->SetRecvCallback(MakeCallback(&Receivers::Read, this));
            m_sockets[PeekPointer(s)] = h;
            m_keep.push_back(s);
        }
    }

    std::vector<Reception> received; //!< Everything received, in order.

  private:
    /**
     * Read a socket.
     * \param s the socket
     */
    void Read(Ptr<Socket> s)
    {
        Address from;
        while (Ptr<Packet> p = s->RecvFrom(from))
        {
            InetSocketAddress a = InetSocketAddress::ConvertFrom(from);
            SocketIpTosTag tos;
            bool ce = p->RemovePacketTag(tos) && (tos.GetTos() & 0x3) == Ipv4Header::ECN_CE;
            received.push_back({m_sockets[PeekPointer(s)],
                                m_fabric->GetHostIndex(a.GetIpv4()),
                                a.GetPort(),
                                Simulator::Now(),
                                ce,
                                p});
        }
    }

    Ptr<ClosFabric> m_fabric;              //!< The fabric.
    std::map<Socket*, uint32_t> m_sockets; //!< Socket -> host.
    std::vector<Ptr<Socket>> m_keep;       //!< Keeps the sockets alive.
};

/// Records the switch ports every packet leaves by, from the Forward traces.
class PathRecorder
{
  public:
    /**
     * Connect to every switch of a fabric.
     * \param fabric the fabric
     */
    void Attach(Ptr<ClosFabric> fabric)
    {
        NodeContainer switches = fabric->GetSwitches();
        for (uint32_t i = 0; i < switches.GetN(); i++)
        {
            switches.Get(i)->GetObject<FabricSwitch>()->TraceConnectWithoutContext(
                "Forward",
                MakeBoundCallback(&PathRecorder::OnForward, this, i));
        }
    }

    /// Hops (switch * 1000 + port) of each packet, by packet uid.
    std::map<uint64_t, std::vector<uint32_t>> hops;
    /// UDP source port of each packet, by packet uid.
    std::map<uint64_t, uint16_t> srcPort;

  private:
    /**
     * The Forward trace sink.
     * \param r the recorder
     * \param sw the switch number
     * \param p the packet
     * \param h its IPv4 header
     * \param in the input port
     * \param out the output port
     */
    static void OnForward(PathRecorder* r,
                          uint32_t sw,
                          Ptr<const Packet> p,
                          const Ipv4Header& h,
                          uint32_t in,
                          uint32_t out)
    {
        r->hops[p->GetUid()].push_back(sw * 1000 + out);
        UdpHeader udp;
        p->PeekHeader(udp);
        r->srcPort[p->GetUid()] = udp.GetSourcePort();
    }
};

/**
 * The node at the other end of a switch port.
 * \param sw the switch
 * \param port the port
 * \return the peer node
 */
Ptr<Node>
PeerOf(Ptr<FabricSwitch> sw, uint32_t port)
{
    Ptr<NetDevice> dev = sw->GetPortDevice(port);
    Ptr<PointToPointChannel> ch = DynamicCast<PointToPointChannel>(dev->GetChannel());
    Ptr<NetDevice> other = ch->GetDevice(0) == dev ? ch->GetDevice(1) : ch->GetDevice(0);
    return other->GetNode();
}

} // namespace

/**
 * \ingroup reps-test
 * Node, link, device and address counts of several 2-tier and 3-tier shapes, the wiring of
 * each tier, and the number of equal-cost paths and the base RTT the fabric reports.
 */
class FabricShapeTestCase : public TestCase
{
  public:
    FabricShapeTestCase()
        : TestCase("ClosFabric: node, link and address counts of 2- and 3-tier shapes")
    {
    }

  private:
    /**
     * Check one fabric.
     * \param f the fabric
     * \param hosts expected hosts
     * \param switches expected switches
     * \param links expected links
     * \param crossPaths expected equal-cost paths between host 0 and the last host
     */
    void Check(Ptr<ClosFabric> f,
               uint32_t hosts,
               uint32_t switches,
               uint32_t links,
               uint64_t crossPaths)
    {
        NS_TEST_ASSERT_MSG_EQ(f->GetNHosts(), hosts, "hosts");
        NS_TEST_ASSERT_MSG_EQ(f->GetNSwitches(), switches, "switches");
        NS_TEST_ASSERT_MSG_EQ(f->GetNLinks(), links, "links");
        NS_TEST_ASSERT_MSG_EQ(f->GetHosts().GetN(), hosts, "host container");
        NS_TEST_ASSERT_MSG_EQ(f->GetSwitches().GetN(), switches, "switch container");
        std::set<uint32_t> addresses;
        uint32_t devices = 0;
        for (uint32_t h = 0; h < hosts; h++)
        {
            Ptr<Ipv4> ipv4 = f->GetHost(h)->GetObject<Ipv4>();
            NS_TEST_ASSERT_MSG_NE(ipv4, nullptr, "hosts have IPv4");
            NS_TEST_ASSERT_MSG_EQ(ipv4->GetNInterfaces(), 2, "loopback and the NIC");
            Ipv4Address a = ipv4->GetAddress(1, 0).GetLocal();
            NS_TEST_ASSERT_MSG_EQ(a, f->GetHostAddress(h), "address of the NIC");
            NS_TEST_ASSERT_MSG_EQ(f->GetHostIndex(a), h, "address -> host");
            addresses.insert(a.Get());
            NS_TEST_ASSERT_MSG_EQ(f->GetLinkNode(f->GetHostLink(h), 1),
                                  f->GetLeaf(f->GetLeafOfHost(h)),
                                  "host link ends at the host's leaf");
        }
        NS_TEST_ASSERT_MSG_EQ(addresses.size(), hosts, "distinct addresses");
        NodeContainer sw = f->GetSwitches();
        for (uint32_t i = 0; i < sw.GetN(); i++)
        {
            NS_TEST_ASSERT_MSG_EQ(sw.Get(i)->GetObject<Ipv4>(), nullptr, "switches have no IP");
            NS_TEST_ASSERT_MSG_NE(sw.Get(i)->GetObject<FabricSwitch>(), nullptr, "forwarding");
            NS_TEST_ASSERT_MSG_EQ(sw.Get(i)->GetObject<FabricSwitch>()->GetNPorts(),
                                  sw.Get(i)->GetNDevices(),
                                  "every device is a port");
            devices += sw.Get(i)->GetNDevices();
        }
        NS_TEST_ASSERT_MSG_EQ(devices, 2 * links - hosts, "switch devices");
        NS_TEST_ASSERT_MSG_EQ(f->GetNEqualCostPaths(0, hosts - 1),
                              crossPaths,
                              "equal-cost paths host 0 -> last host");
        if (f->GetNHostsPerLeaf() > 1)
        {
            NS_TEST_ASSERT_MSG_EQ(f->GetNEqualCostPaths(0, 1), 1, "same leaf: one path");
        }
    }

    void DoRun() override
    {
        uint32_t before = NodeList::GetNNodes();
        // 2-tier, 4 leaves x 3 hosts, 2 spines.
        Ptr<ClosFabric> a = TwoTier(4, 3, 2)->Build();
        Check(a, 12, 6, 12 + 4 * 2, 2);
        NS_TEST_ASSERT_MSG_EQ(NodeList::GetNNodes() - before, 18, "nodes created");
        NS_TEST_ASSERT_MSG_EQ(a->GetLinks(ClosFabric::LEAF_SPINE).size(), 8, "leaf-spine links");
        for (uint32_t l = 0; l < 4; l++)
        {
            for (uint32_t s = 0; s < 2; s++)
            {
                uint32_t link = a->GetLeafSpineLink(l, s);
                NS_TEST_ASSERT_MSG_EQ(a->GetLinkNode(link, 0), a->GetLeaf(l), "side 0 leaf");
                NS_TEST_ASSERT_MSG_EQ(a->GetLinkNode(link, 1), a->GetSpine(s), "side 1 spine");
            }
        }
        // Base RTT across the spine: 4 links, 1 us each way, 4098 + 66 bytes at 400 Gb/s.
        Time expected = 4 * (MicroSeconds(2) + DataRate("400Gbps").CalculateBytesTxTime(4098) +
                             DataRate("400Gbps").CalculateBytesTxTime(66));
        NS_TEST_ASSERT_MSG_EQ(a->GetBaseRtt(0, 11), expected, "base RTT across the spine");
        NS_TEST_ASSERT_MSG_EQ(a->GetBisectionBandwidth(),
                              DataRate("1600Gbps"),
                              "bisection: half of 8 leaf up-links");

        // 2-tier with 2 parallel links: S * P^2 paths.
        Ptr<ClosFabric> b = TwoTier(3, 2, 3, 2)->Build();
        Check(b, 6, 6, 6 + 3 * 3 * 2, 12);
        NS_TEST_ASSERT_MSG_NE(b->GetLeafSpineLink(1, 2, 1),
                              b->GetLeafSpineLink(1, 2, 0),
                              "parallel links differ");

        // 3-tier: 2 pods x (2 leaves + 2 aggs), 4 cores, 2 hosts per leaf.
        Ptr<ClosFabric> c = ThreeTier(2, 2, 2, 4, 2)->Build();
        Check(c, 8, 4 + 4 + 4, 8 + 2 * 2 * 2 + 2 * 2 * 2, 4);
        NS_TEST_ASSERT_MSG_EQ(c->GetNEqualCostPaths(0, 2), 2, "same pod: one per agg");
        NS_TEST_ASSERT_MSG_EQ(c->GetPodOfHost(7), 1, "pod of the last host");
        // Agg 1 of each pod is linked to cores 2 and 3 only.
        NS_TEST_ASSERT_MSG_EQ(c->FindLink(c->GetAgg(0, 1), c->GetCore(0)),
                              ClosFabric::NO_LINK,
                              "agg 1 is not linked to core 0");
        NS_TEST_ASSERT_MSG_NE(c->FindLink(c->GetAgg(1, 1), c->GetCore(3)),
                              ClosFabric::NO_LINK,
                              "agg 1 is linked to core 3");

        // 3-tier with parallel links: C * P^4 paths across pods.
        Ptr<ClosFabric> d = ThreeTier(3, 2, 2, 2, 1, 2)->Build();
        Check(d, 6, 6 + 6 + 2, 6 + 6 * 2 * 2 + 6 * 1 * 2, 2 * 16);

        // k = 4 fat tree: 16 hosts, 20 switches, 48 links, 4 paths across pods.
        Ptr<ClosFabricHelper> k4 = CreateObject<ClosFabricHelper>();
        k4->SetFatTree(4);
        Ptr<ClosFabric> e = k4->Build();
        Check(e, 16, 20, 48, 4);
        std::ostringstream summary;
        e->PrintSummary(summary);
        NS_TEST_ASSERT_MSG_NE(summary.str().find("16 hosts"), std::string::npos, "summary");

        // Systems: with 2 systems, the pods of the fat tree land on different ranks.
        Ptr<ClosFabricHelper> mpi = CreateObject<ClosFabricHelper>();
        mpi->SetFatTree(4);
        mpi->SetAttribute("Systems", UintegerValue(2));
        Ptr<ClosFabric> g = mpi->Build();
        NS_TEST_ASSERT_MSG_EQ(g->GetHost(0)->GetSystemId(), 0, "pod 0 on rank 0");
        NS_TEST_ASSERT_MSG_EQ(g->GetHost(15)->GetSystemId(), 1, "pod 3 on rank 1");
        NS_TEST_ASSERT_MSG_EQ(g->GetAgg(3, 0)->GetSystemId(), 1, "agg of pod 3 on rank 1");
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * Every host reaches every other host, in a 2-tier and a 3-tier fabric.
 */
class FabricReachabilityTestCase : public TestCase
{
  public:
    FabricReachabilityTestCase()
        : TestCase("ClosFabric: every host reaches every other host (UDP)")
    {
    }

  private:
    /**
     * All-to-all through one fabric.
     * \param f the fabric
     */
    void AllToAll(Ptr<ClosFabric> f)
    {
        uint32_t n = f->GetNHosts();
        std::vector<uint32_t> all;
        for (uint32_t h = 0; h < n; h++)
        {
            all.push_back(h);
        }
        Receivers rx;
        rx.Listen(f, all, 5000);
        for (uint32_t s = 0; s < n; s++)
        {
            for (uint32_t d = 0; d < n; d++)
            {
                if (s != d)
                {
                    Simulator::Schedule(MicroSeconds(10 + d),
                                        &SendUdp,
                                        f,
                                        s,
                                        d,
                                        static_cast<uint16_t>(10000 + d),
                                        5000,
                                        200);
                }
            }
        }
        Simulator::Stop(MilliSeconds(1));
        Simulator::Run();
        std::vector<uint32_t> count(n * n, 0);
        for (const auto& r : rx.received)
        {
            count[r.src * n + r.dst]++;
        }
        for (uint32_t s = 0; s < n; s++)
        {
            for (uint32_t d = 0; d < n; d++)
            {
                NS_TEST_ASSERT_MSG_EQ(count[s * n + d],
                                      (s == d ? 0u : 1u),
                                      "datagram " << s << " -> " << d << " delivered once");
            }
        }
        Simulator::Destroy();
    }

    void DoRun() override
    {
        AllToAll(TwoTier(3, 2, 2)->Build());
        Ptr<ClosFabricHelper> k4 = CreateObject<ClosFabricHelper>();
        k4->SetFatTree(4);
        AllToAll(k4->Build());
        // A jumbo datagram (4 KiB payload and more) crosses unfragmented: one packet per hop.
        {
            Ptr<ClosFabricHelper> k4b = CreateObject<ClosFabricHelper>();
            k4b->SetFatTree(4);
            Ptr<ClosFabric> f = k4b->Build();
            PathRecorder rec;
            rec.Attach(f);
            Receivers rx;
            rx.Listen(f, {15}, 4791);
            Simulator::Schedule(MicroSeconds(1), &SendUdp, f, 0, 15, 5000, 4791, 8192);
            Simulator::Run();
            NS_TEST_ASSERT_MSG_EQ(rx.received.size(), 1, "delivered");
            NS_TEST_ASSERT_MSG_EQ(rx.received[0].packet->GetSize(), 8192, "whole");
            NS_TEST_ASSERT_MSG_EQ(rec.hops.size(), 1, "one packet, not fragments");
            NS_TEST_ASSERT_MSG_EQ(rec.hops.begin()->second.size(), 5, "5 switches across pods");
            Simulator::Destroy();
        }
        // ns-3's RED as the egress queue carries traffic too, set up for instantaneous ECN
        // marking between 20 and 80 packets (no averaging, no gentle ramp, no hard drop).
        Ptr<ClosFabricHelper> red = TwoTier(2, 2, 2);
        red->SetSwitchQueueDisc("ns3::RedQueueDisc",
                                "MaxSize",
                                QueueSizeValue(QueueSize("100p")),
                                "MinTh",
                                DoubleValue(20),
                                "MaxTh",
                                DoubleValue(80),
                                "UseEcn",
                                BooleanValue(true),
                                "QW",
                                DoubleValue(1.0),
                                "LInterm",
                                DoubleValue(1.0),
                                "Gentle",
                                BooleanValue(false),
                                "UseHardDrop",
                                BooleanValue(false));
        Ptr<ClosFabric> f = red->Build();
        NS_TEST_ASSERT_MSG_NE(DynamicCast<RedQueueDisc>(f->GetQueueDisc(f->GetHostLink(0), 1)),
                              nullptr,
                              "RED on the leaf port");
        AllToAll(f);
    }
};

/**
 * \ingroup reps-test
 * Between hosts in different pods, the packets of many source ports use exactly as many
 * distinct paths as the fabric has equal-cost paths; one 5-tuple always uses one path.
 */
class FabricPathDiversityTestCase : public TestCase
{
  public:
    FabricPathDiversityTestCase()
        : TestCase("ClosFabric: distinct paths used == equal-cost paths; a 5-tuple keeps its path")
    {
    }

  private:
    /**
     * Send from host 0 to the last host over many source ports and count paths.
     * \param f the fabric
     * \param ports how many source ports
     */
    void Check(Ptr<ClosFabric> f, uint32_t ports)
    {
        uint32_t dst = f->GetNHosts() - 1;
        PathRecorder rec;
        rec.Attach(f);
        Receivers rx;
        rx.Listen(f, {dst}, 4791);
        for (uint32_t i = 0; i < ports; i++)
        {
            Simulator::Schedule(NanoSeconds(100 * i),
                                &SendUdp,
                                f,
                                0,
                                dst,
                                static_cast<uint16_t>(49152 + i),
                                4791,
                                100);
        }
        // One 5-tuple, 50 times.
        for (uint32_t i = 0; i < 50; i++)
        {
            Simulator::Schedule(MicroSeconds(200) + NanoSeconds(100 * i),
                                &SendUdp,
                                f,
                                0,
                                dst,
                                7777,
                                4791,
                                100);
        }
        Simulator::Stop(MilliSeconds(2));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(rx.received.size(), ports + 50, "all delivered");
        std::set<std::vector<uint32_t>> paths;
        std::set<std::vector<uint32_t>> fixedPaths;
        std::map<uint16_t, std::vector<uint32_t>> byPort;
        for (const auto& [uid, hops] : rec.hops)
        {
            uint16_t sp = rec.srcPort[uid];
            if (sp == 7777)
            {
                fixedPaths.insert(hops);
            }
            else
            {
                paths.insert(hops);
            }
        }
        NS_TEST_ASSERT_MSG_EQ(paths.size(),
                              f->GetNEqualCostPaths(0, dst),
                              "distinct paths == equal-cost paths");
        NS_TEST_ASSERT_MSG_EQ(fixedPaths.size(), 1, "one 5-tuple, one path");
        Simulator::Destroy();
    }

    void DoRun() override
    {
        Ptr<ClosFabricHelper> k4 = CreateObject<ClosFabricHelper>();
        k4->SetFatTree(4);
        Check(k4->Build(), 200);
        Check(ThreeTier(2, 2, 2, 4, 1, 2)->Build(), 1000); // 4 * 2^4 = 64 paths
        Check(TwoTier(2, 1, 3, 2)->Build(), 200);          // 12 paths

        // Random per packet: one 5-tuple spreads over the paths.
        Ptr<ClosFabricHelper> spray = TwoTier(2, 1, 4);
        spray->SetPortSelector("ns3::RandomPortSelector");
        Ptr<ClosFabric> f = spray->Build();
        ClosFabricHelper::AssignStreams(f, 10);
        PathRecorder rec;
        rec.Attach(f);
        Receivers rx;
        rx.Listen(f, {1}, 4791);
        for (uint32_t i = 0; i < 100; i++)
        {
            Simulator::Schedule(NanoSeconds(100 * i), &SendUdp, f, 0, 1, 7777, 4791, 100);
        }
        Simulator::Run();
        std::set<std::vector<uint32_t>> paths;
        for (const auto& [uid, hops] : rec.hops)
        {
            paths.insert(hops);
        }
        NS_TEST_ASSERT_MSG_EQ(rx.received.size(), 100, "sprayed packets delivered");
        NS_TEST_ASSERT_MSG_EQ(paths.size(), 4, "one 5-tuple sprayed over all 4 paths");
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * The flow hash spreads source ports evenly over the equal-cost ports (chi-square), and
 * consecutive switches choose independently, unless they are given the same salt.
 */
class FabricHashSpreadTestCase : public TestCase
{
  public:
    FabricHashSpreadTestCase()
        : TestCase("FabricSwitch: flow hash spreads evenly, switches not correlated")
    {
    }

  private:
    /**
     * Joint distribution of (leaf choice, agg choice) over source ports.
     * \param f a 3-tier fabric
     * \param nPorts source ports
     * \param leafCounts filled with counts per leaf choice
     * \param joint filled with counts per (leaf choice, agg choice)
     */
    static void Choices(Ptr<ClosFabric> f,
                        uint32_t nPorts,
                        std::vector<uint32_t>& leafCounts,
                        std::vector<uint32_t>& joint)
    {
        uint32_t dst = f->GetNHosts() - 1;
        Ptr<FabricSwitch> leaf = f->GetLeaf(0)->GetObject<FabricSwitch>();
        std::vector<uint32_t> up = leaf->GetNextHops(dst);
        uint32_t n = up.size();
        leafCounts.assign(n, 0);
        joint.assign(n * n, 0);
        for (uint32_t i = 0; i < nPorts; i++)
        {
            uint16_t sp = static_cast<uint16_t>(1024 + i * 7);
            uint32_t p =
                leaf->GetFlowHashPort(f->GetHostAddress(0), f->GetHostAddress(dst), 17, sp, 4791);
            uint32_t a = std::find(up.begin(), up.end(), p) - up.begin();
            leafCounts[a]++;
            Ptr<FabricSwitch> agg = PeerOf(leaf, p)->GetObject<FabricSwitch>();
            std::vector<uint32_t> up2 = agg->GetNextHops(dst);
            uint32_t q =
                agg->GetFlowHashPort(f->GetHostAddress(0), f->GetHostAddress(dst), 17, sp, 4791);
            uint32_t b = std::find(up2.begin(), up2.end(), q) - up2.begin();
            joint[a * n + b]++;
        }
    }

    /**
     * Chi-square statistic against the uniform distribution.
     * \param counts the counts
     * \return the statistic
     */
    static double ChiSquare(const std::vector<uint32_t>& counts)
    {
        double total = 0;
        for (uint32_t c : counts)
        {
            total += c;
        }
        double expected = total / counts.size();
        double chi = 0;
        for (uint32_t c : counts)
        {
            chi += (c - expected) * (c - expected) / expected;
        }
        return chi;
    }

    void DoRun() override
    {
        // k = 8 fat tree: a leaf has 4 up-ports, an aggregation switch 4 up-ports.
        Ptr<ClosFabricHelper> h = CreateObject<ClosFabricHelper>();
        h->SetFatTree(8);
        Ptr<ClosFabric> f = h->Build();
        std::vector<uint32_t> leafCounts;
        std::vector<uint32_t> joint;
        Choices(f, 8000, leafCounts, joint);
        NS_TEST_ASSERT_MSG_EQ(leafCounts.size(), 4, "4 equal-cost up-ports");
        // Chi-square critical values at p = 0.001: 16.27 (3 dof), 37.70 (15 dof).
        NS_TEST_ASSERT_MSG_LT(ChiSquare(leafCounts), 16.27, "leaf spreads evenly");
        NS_TEST_ASSERT_MSG_LT(ChiSquare(joint), 37.70, "leaf and agg choices independent");

        // The check can fail: with one salt on every switch, the choices coincide.
        NodeContainer sw = f->GetSwitches();
        for (uint32_t i = 0; i < sw.GetN(); i++)
        {
            sw.Get(i)->GetObject<FabricSwitch>()->SetAttribute("Salt", UintegerValue(12345));
        }
        Choices(f, 8000, leafCounts, joint);
        NS_TEST_ASSERT_MSG_GT(ChiSquare(joint), 1000.0, "equal salts polarize");

        // A 2-tier leaf with 8 spines, 16000 ports: even over 8 (p = 0.001: 24.32, 7 dof).
        Ptr<ClosFabric> g = TwoTier(2, 1, 8)->Build();
        Ptr<FabricSwitch> leaf = g->GetLeaf(0)->GetObject<FabricSwitch>();
        std::vector<uint32_t> up = leaf->GetNextHops(1);
        std::vector<uint32_t> counts(up.size(), 0);
        for (uint32_t i = 0; i < 16000; i++)
        {
            uint32_t p = leaf->GetFlowHashPort(g->GetHostAddress(0),
                                               g->GetHostAddress(1),
                                               17,
                                               static_cast<uint16_t>(49152 + i % 16384),
                                               4791);
            counts[std::find(up.begin(), up.end(), p) - up.begin()]++;
        }
        NS_TEST_ASSERT_MSG_LT(ChiSquare(counts), 24.32, "8 spines used evenly");
        for (uint32_t c : counts)
        {
            NS_TEST_ASSERT_MSG_GT(c, 0u, "every spine used");
        }
        // Salts differ between switches by default.
        NS_TEST_ASSERT_MSG_NE(g->GetLeaf(0)->GetObject<FabricSwitch>()->GetSalt(),
                              g->GetLeaf(1)->GetObject<FabricSwitch>()->GetSalt(),
                              "distinct salts");
        Simulator::Destroy();

        // HashSeed 0 (the default) follows the run number: run 1 is HashSeed 1, another run
        // draws other salts; a HashSeed given explicitly holds whatever the run.
        const uint64_t run = RngSeedManager::GetRun();
        auto salt = [](uint64_t r, uint32_t seed) {
            RngSeedManager::SetRun(r);
            Ptr<ClosFabricHelper> helper = TwoTier(2, 1, 2);
            helper->SetAttribute("HashSeed", UintegerValue(seed));
            uint32_t v = helper->Build()->GetLeaf(0)->GetObject<FabricSwitch>()->GetSalt();
            Simulator::Destroy();
            return v;
        };
        NS_TEST_EXPECT_MSG_EQ(salt(1, 0), salt(1, 1), "run 1 must give HashSeed 1's salts");
        NS_TEST_EXPECT_MSG_NE(salt(2, 0), salt(1, 0), "another run must draw other salts");
        NS_TEST_EXPECT_MSG_EQ(salt(2, 7), salt(3, 7), "an explicit HashSeed must hold");
        RngSeedManager::SetRun(run);
    }
};

/**
 * \ingroup reps-test
 * A failed link blackholes exactly the flows hashed onto it while routing has not
 * converged; after the convergence delay traffic avoids it; once it is back (and the delay
 * passed) it carries traffic again.
 */
class FabricLinkFailureTestCase : public TestCase
{
  public:
    FabricLinkFailureTestCase()
        : TestCase("ClosFabric: failed link blackholes its flows, then routing avoids it, then "
                   "uses it again")
    {
    }

  private:
    /**
     * Send one packet per source port from host 0 to host 2.
     * \param f the fabric
     * \param at when
     * \param base first source port
     * \param n how many
     */
    static void Batch(Ptr<ClosFabric> f, Time at, uint16_t base, uint32_t n)
    {
        for (uint32_t i = 0; i < n; i++)
        {
            Simulator::Schedule(at + NanoSeconds(50 * i),
                                &SendUdp,
                                f,
                                0,
                                2,
                                static_cast<uint16_t>(base + i),
                                5000,
                                100);
        }
    }

    /// Without routing convergence, the failed link drops exactly the flows hashed onto it.
    void CheckBlackhole()
    {
        Ptr<ClosFabric> f = TwoTier(2, 2, 4)->Build();
        uint32_t link = f->GetLeafSpineLink(0, 1);
        Ptr<FabricSwitch> leaf = f->GetLeaf(0)->GetObject<FabricSwitch>();
        uint32_t deadPort = 0;
        for (uint32_t p = 0; p < leaf->GetNPorts(); p++)
        {
            if (leaf->GetPortDevice(p) == f->GetLinkDevice(link, 0))
            {
                deadPort = p;
            }
        }
        std::set<uint16_t> doomed;
        for (uint32_t i = 0; i < 200; i++)
        {
            uint16_t sp = 20000 + i;
            if (leaf->GetFlowHashPort(f->GetHostAddress(0), f->GetHostAddress(2), 17, sp, 5000) ==
                deadPort)
            {
                doomed.insert(sp);
            }
        }
        NS_TEST_ASSERT_MSG_GT(doomed.size(), 20u, "some flows hash onto the link");
        f->FailLink(link, MilliSeconds(1));
        Receivers rx;
        rx.Listen(f, {2}, 5000);
        Batch(f, MilliSeconds(2), 20000, 200);
        Batch(f, MilliSeconds(10), 20000, 200);
        Simulator::Stop(MilliSeconds(20));
        Simulator::Run();
        std::set<uint16_t> got;
        for (const auto& r : rx.received)
        {
            got.insert(r.srcPort);
        }
        NS_TEST_ASSERT_MSG_EQ(rx.received.size(),
                              2 * (200 - doomed.size()),
                              "everything not hashed onto the link arrives, twice");
        for (uint16_t sp : doomed)
        {
            NS_TEST_ASSERT_MSG_EQ(got.count(sp), 0, "flow " << sp << " blackholed");
        }
        ClosFabric::LinkCounters c = f->GetLinkCounters(link, 0);
        NS_TEST_ASSERT_MSG_EQ(c.droppedPackets, 2 * doomed.size(), "losses counted");
        NS_TEST_ASSERT_MSG_EQ(c.packets, 0, "nothing crossed the dead link");
        NS_TEST_ASSERT_MSG_EQ(f->IsLinkUp(link), false, "down");
        NS_TEST_ASSERT_MSG_EQ(f->IsLinkRouted(link), true, "still routed: no convergence");
        Simulator::Destroy();
    }

    /// Routing converges 1 ms after the failure; the link comes back at 5 ms and is used
    /// again once routing has learnt it.
    void CheckConvergence()
    {
        Ptr<ClosFabricHelper> h = TwoTier(2, 2, 4);
        h->SetPlaneAttribute("RoutingConvergenceDelay", TimeValue(MilliSeconds(1)));
        Ptr<ClosFabric> f = h->Build();
        uint32_t link = f->GetLeafSpineLink(0, 1);
        f->FailLink(link, MilliSeconds(1), MilliSeconds(5));
        Receivers rx;
        rx.Listen(f, {2}, 5000);
        Batch(f, MicroSeconds(1500), 20000, 200); // before convergence: some lost
        std::vector<uint64_t> lost(4);
        std::vector<uint64_t> carried(4);
        auto snapshot = [&](uint32_t i) {
            lost[i] = f->GetLinkCounters(link, 0).droppedPackets;
            carried[i] = f->GetLinkCounters(link, 0).packets;
        };
        Simulator::Schedule(MilliSeconds(2) + MicroSeconds(500), [&]() { snapshot(0); });
        Batch(f, MilliSeconds(3), 30000, 200); // converged: all arrive
        Simulator::Schedule(MilliSeconds(4) + MicroSeconds(500), [&]() { snapshot(1); });
        Batch(f, MilliSeconds(5) + MicroSeconds(500), 40000, 200); // up, not yet routed
        Simulator::Schedule(MilliSeconds(6) + MicroSeconds(500), [&]() { snapshot(2); });
        Batch(f, MilliSeconds(7), 50000, 200); // routed again
        Simulator::Schedule(MilliSeconds(8), [&]() { snapshot(3); });
        Simulator::Stop(MilliSeconds(10));
        Simulator::Run();
        uint32_t arrivals[4] = {0, 0, 0, 0};
        for (const auto& r : rx.received)
        {
            arrivals[(r.srcPort - 20000) / 10000]++;
        }
        NS_TEST_ASSERT_MSG_GT(lost[0], 0u, "blackhole before convergence");
        NS_TEST_ASSERT_MSG_EQ(arrivals[0], 200 - lost[0], "exactly those lost");
        NS_TEST_ASSERT_MSG_EQ(arrivals[1], 200, "after convergence all arrive");
        NS_TEST_ASSERT_MSG_EQ(lost[1], lost[0], "no new loss: the link is avoided");
        NS_TEST_ASSERT_MSG_EQ(arrivals[2], 200, "all arrive while the link is back");
        NS_TEST_ASSERT_MSG_EQ(carried[2], 0u, "not used until routing learns it is back");
        NS_TEST_ASSERT_MSG_EQ(arrivals[3], 200, "all arrive once it is routed");
        NS_TEST_ASSERT_MSG_GT(carried[3], 20u, "the link carries traffic again");
        NS_TEST_ASSERT_MSG_EQ(f->IsLinkRouted(link), true, "routed again");
        Simulator::Destroy();
    }

    /// After failures (three aggregation-core links, one of each of three aggregation
    /// switches, and a leaf uplink drawn at random) and convergence, every host still reaches
    /// every other over the remaining (asymmetric) wiring, and fewer paths are left where
    /// links failed.
    void CheckConnectedAfterRandomFailures()
    {
        Ptr<ClosFabricHelper> k4 = CreateObject<ClosFabricHelper>();
        k4->SetFatTree(4);
        k4->SetPlaneAttribute("RoutingConvergenceDelay", TimeValue(MicroSeconds(10)));
        Ptr<ClosFabric> f = k4->Build();
        uint64_t pathsBefore = 0;
        for (uint32_t d = 4; d < 16; d++)
        {
            pathsBefore += f->GetNEqualCostPaths(0, d) + f->GetNEqualCostPaths(d, 0);
        }
        std::vector<FailureSchedule::Event> events;
        NS_TEST_ASSERT_MSG_EQ(FailureSchedule::Parse("1us link:agg0.0-core0 down\n"
                                                     "1us link:agg1.1-core3 down\n"
                                                     "1us link:agg2.0-core1 down\n"
                                                     "1us uplinks:1#5 down\n",
                                                     events),
                              "",
                              "a valid schedule");
        Ptr<FailureInjector> injector = CreateObject<FailureInjector>();
        NS_TEST_ASSERT_MSG_EQ(injector->Schedule(f, events), "", "schedule");
        Receivers rx;
        std::vector<uint32_t> all;
        for (uint32_t h = 0; h < 16; h++)
        {
            all.push_back(h);
        }
        rx.Listen(f, all, 5000);
        for (uint32_t s = 0; s < 16; s++)
        {
            for (uint32_t d = 0; d < 16; d++)
            {
                if (s != d)
                {
                    Simulator::Schedule(MicroSeconds(100 + d),
                                        &SendUdp,
                                        f,
                                        s,
                                        d,
                                        static_cast<uint16_t>(30000 + s),
                                        5000,
                                        100);
                }
            }
        }
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(rx.received.size(), 16 * 15, "all pairs still connected");
        uint64_t pathsAfter = 0;
        for (uint32_t d = 4; d < 16; d++)
        {
            pathsAfter += f->GetNEqualCostPaths(0, d) + f->GetNEqualCostPaths(d, 0);
        }
        NS_TEST_ASSERT_MSG_LT(pathsAfter, pathsBefore, "failed links removed from the paths");
        uint64_t lost = 0;
        for (uint32_t l = 0; l < f->GetNLinks(); l++)
        {
            lost +=
                f->GetLinkCounters(l, 0).droppedPackets + f->GetLinkCounters(l, 1).droppedPackets;
        }
        NS_TEST_ASSERT_MSG_EQ(lost, 0, "converged before the traffic: nothing lost");
        Simulator::Destroy();
    }

    /// Uplinks drawn at random are reproducible from the stream: two elements that differ only
    /// by their gap draw the same links in the same order.
    void CheckRandomFailuresReproducible()
    {
        Ptr<ClosFabricHelper> k4 = CreateObject<ClosFabricHelper>();
        k4->SetFatTree(4);
        Ptr<ClosFabric> f = k4->Build();
        std::vector<FailureSchedule::Event> events;
        NS_TEST_ASSERT_MSG_EQ(FailureSchedule::Parse("0 uplinks:3#7 down\n"
                                                     "0 uplinks:3#7+1ns rate 100Gbps\n",
                                                     events),
                              "",
                              "a valid schedule");
        Ptr<FailureInjector> injector = CreateObject<FailureInjector>();
        NS_TEST_ASSERT_MSG_EQ(injector->Schedule(f, events), "", "schedule");
        std::vector<uint32_t> a = injector->GetEventLinks(0);
        std::vector<uint32_t> b = injector->GetEventLinks(1);
        NS_TEST_ASSERT_MSG_EQ((a == b), true, "same stream, same links");
        NS_TEST_ASSERT_MSG_EQ(std::set<uint32_t>(a.begin(), a.end()).size(), 3, "distinct");
        Simulator::Run();
        for (uint32_t l : a)
        {
            NS_TEST_ASSERT_MSG_EQ(f->GetLinkTier(l), ClosFabric::LEAF_AGG, "leaf uplinks");
            NS_TEST_ASSERT_MSG_EQ(f->GetLinkRate(l), DataRate("100Gbps"), "degraded");
            NS_TEST_ASSERT_MSG_EQ(f->IsLinkUp(l), false, "failed");
        }
        Simulator::Destroy();
    }

    void DoRun() override
    {
        CheckBlackhole();
        CheckConvergence();
        CheckConnectedAfterRandomFailures();
        CheckRandomFailuresReproducible();
    }
};

/**
 * \ingroup reps-test
 * A degraded link carries packets at its new rate, from the start and from a later time.
 */
class FabricDegradedLinkTestCase : public TestCase
{
  public:
    FabricDegradedLinkTestCase()
        : TestCase("ClosFabric: a degraded link carries at its new rate")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<ClosFabricHelper> h = TwoTier(2, 1, 1);
        h->SetSwitchQueueDisc("ns3::EcnQueueDisc",
                              "MaxSize",
                              QueueSizeValue(QueueSize("1000p")),
                              "Kmin",
                              QueueSizeValue(QueueSize("900p")),
                              "Kmax",
                              QueueSizeValue(QueueSize("950p")));
        Ptr<ClosFabric> f = h->Build();
        uint32_t link = f->GetLeafSpineLink(0, 0);
        f->DegradeLink(link, DataRate("100Gbps"));
        f->DegradeLink(link, DataRate("50Gbps"), MilliSeconds(1));
        NS_TEST_ASSERT_MSG_EQ(f->GetLinkRate(link), DataRate("100Gbps"), "degraded from start");
        Receivers rx;
        rx.Listen(f, {1}, 5000);
        const uint32_t n = 200;
        for (uint32_t i = 0; i < n; i++)
        {
            Simulator::Schedule(MicroSeconds(10), &SendUdp, f, 0, 1, 1000, 5000, 1000);
            Simulator::Schedule(MilliSeconds(2), &SendUdp, f, 0, 1, 1000, 5000, 1000);
        }
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(rx.received.size(), 2 * n, "all delivered");
        const double wireBits = (1000 + 8 + 20 + 2) * 8.0;
        double first = (rx.received[n - 1].at - rx.received[0].at).GetSeconds();
        double second = (rx.received[2 * n - 1].at - rx.received[n].at).GetSeconds();
        // ns-3 rounds each transmission time to its 1 ns resolution (82.4 ns -> 82 ns at
        // 100 Gb/s), hence the 1% tolerance; the 400 Gb/s host links would be 4x faster.
        NS_TEST_ASSERT_MSG_EQ_TOL((n - 1) * wireBits / first, 100e9, 1e9, "100 Gb/s");
        NS_TEST_ASSERT_MSG_EQ_TOL((n - 1) * wireBits / second, 50e9, 5e8, "50 Gb/s later");
        NS_TEST_ASSERT_MSG_EQ(f->GetLinkRate(link), DataRate("50Gbps"), "rate now");
        // The queue at the leaf held the backlog.
        ClosFabric::QueueStats q = f->GetQueueStats(link, 0);
        NS_TEST_ASSERT_MSG_EQ(q.hasDepth, true, "EcnQueueDisc depth");
        NS_TEST_ASSERT_MSG_GT(q.maxPackets, 100u, "backlog behind the slow link");
        NS_TEST_ASSERT_MSG_EQ(q.drops, 0, "no drops");
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * With trimming on, an incast of RoCEv2 data packets overflowing a small switch queue
 * arrives as trimmed headers instead of being dropped; without trimming, it is dropped.
 */
class FabricTrimmingTestCase : public TestCase
{
  public:
    FabricTrimmingTestCase()
        : TestCase("ClosFabric: trimming delivers headers of RoCEv2 packets a full queue cuts")
    {
    }

  private:
    /**
     * Send a RoCEv2-like data packet (BTH + payload + ICRC) over UDP 4791.
     * \param f the fabric
     * \param src source host
     * \param dst destination host
     * \param psn the PSN
     */
    static void SendRoce(Ptr<ClosFabric> f, uint32_t src, uint32_t dst, uint32_t psn)
    {
        Ptr<Packet> p = Create<Packet>(1000 + RoceBthHeader::ICRC_SIZE);
        RoceBthHeader bth;
        bth.SetOpCode(RoceBthHeader::RC_SEND_MIDDLE);
        bth.SetPsn(psn);
        p->AddHeader(bth);
        SocketIpTosTag tos; // ECT(0), as a RoCEv2 NIC sends
        tos.SetTos(Ipv4Header::ECN_ECT0);
        p->AddPacketTag(tos);
        f->GetHost(src)->GetObject<UdpL4Protocol>()->Send(p,
                                                          f->GetHostAddress(src),
                                                          f->GetHostAddress(dst),
                                                          static_cast<uint16_t>(50000 + src),
                                                          RoceBthHeader::UDP_PORT);
    }

    /**
     * Incast of 3 x 100 packets to host 3.
     * \param trimming the Trimming attribute
     * \param full filled with full-size arrivals
     * \param trimmed filled with trimmed arrivals
     * \param drops filled with the queue drops of the whole fabric
     * \param marked filled with the arrivals marked CE
     */
    static void Incast(bool trimming,
                       uint32_t& full,
                       uint32_t& trimmed,
                       uint64_t& drops,
                       uint32_t& marked)
    {
        Ptr<ClosFabricHelper> h = TwoTier(2, 2, 2);
        h->SetSwitchQueueDisc("ns3::EcnQueueDisc",
                              "Trimming",
                              BooleanValue(trimming),
                              "MaxSize",
                              QueueSizeValue(QueueSize("10p")),
                              "Kmin",
                              QueueSizeValue(QueueSize("8p")),
                              "Kmax",
                              QueueSizeValue(QueueSize("9p")));
        Ptr<ClosFabric> f = h->Build();
        Receivers rx;
        rx.Listen(f, {3}, RoceBthHeader::UDP_PORT);
        for (uint32_t src = 0; src < 3; src++)
        {
            for (uint32_t i = 0; i < 100; i++)
            {
                Simulator::Schedule(MicroSeconds(10), &SendRoce, f, src, 3, i);
            }
        }
        Simulator::Run();
        full = 0;
        trimmed = 0;
        marked = 0;
        for (const auto& r : rx.received)
        {
            marked += r.ce ? 1 : 0;
            RoceBthHeader bth;
            r.packet->RemoveHeader(bth);
            if (bth.IsTrimmed())
            {
                trimmed++;
                NS_ASSERT(r.packet->GetSize() == RoceBthHeader::ICRC_SIZE);
            }
            else
            {
                full++;
            }
        }
        drops = 0;
        uint64_t trims = 0;
        for (uint32_t link = 0; link < f->GetNLinks(); link++)
        {
            for (uint32_t side = 0; side < 2; side++)
            {
                ClosFabric::QueueStats q = f->GetQueueStats(link, side);
                drops += q.drops;
                trims += q.trims;
            }
        }
        NS_ASSERT(trims >= trimmed);
        Simulator::Destroy();
    }

    void DoRun() override
    {
        uint32_t full = 0;
        uint32_t trimmed = 0;
        uint64_t drops = 0;
        uint32_t marked = 0;
        Incast(true, full, trimmed, drops, marked);
        NS_TEST_ASSERT_MSG_GT(marked, 0u, "ECT packets arrive marked CE");
        NS_TEST_ASSERT_MSG_GT(trimmed, 0u, "some packets trimmed");
        NS_TEST_ASSERT_MSG_EQ(full + trimmed, 300, "every packet arrives, whole or trimmed");
        NS_TEST_ASSERT_MSG_EQ(drops, 0, "nothing dropped");
        Incast(false, full, trimmed, drops, marked);
        NS_TEST_ASSERT_MSG_EQ(trimmed, 0, "no trimming when off");
        NS_TEST_ASSERT_MSG_GT(drops, 0u, "drops instead");
        NS_TEST_ASSERT_MSG_EQ(full + drops, 300, "each packet delivered or dropped");
    }
};

/**
 * \ingroup reps-test
 * Adaptive mode sends two flows that the flow hash would put on one up-link over both,
 * following the queue depth.
 */
class FabricAdaptiveTestCase : public TestCase
{
  public:
    FabricAdaptiveTestCase()
        : TestCase("FabricSwitch: adaptive mode spreads colliding flows over the up-links")
    {
    }

  private:
    /**
     * Two 100-packet bursts from hosts 0 and 1 (leaf 0) to hosts 2 and 3 (leaf 1).
     * \param selector the TypeId of the switches' port selector
     * \param up0 filled with the packets on the up-link to spine 0
     * \param up1 filled with the packets on the up-link to spine 1
     * \param delivered filled with the packets delivered
     */
    static void Run(const std::string& selector, uint64_t& up0, uint64_t& up1, uint32_t& delivered)
    {
        Ptr<ClosFabricHelper> h = TwoTier(2, 2, 2);
        h->SetPortSelector(selector);
        h->SetSwitchQueueDisc("ns3::EcnQueueDisc",
                              "MaxSize",
                              QueueSizeValue(QueueSize("1000p")),
                              "Kmin",
                              QueueSizeValue(QueueSize("900p")),
                              "Kmax",
                              QueueSizeValue(QueueSize("950p")));
        Ptr<ClosFabric> f = h->Build();
        Ptr<FabricSwitch> leaf = f->GetLeaf(0)->GetObject<FabricSwitch>();
        // A source port for host 1 that collides with host 0's flow under the flow hash.
        uint32_t target =
            leaf->GetFlowHashPort(f->GetHostAddress(0), f->GetHostAddress(2), 17, 1000, 5000);
        uint16_t collide = 2000;
        while (
            leaf->GetFlowHashPort(f->GetHostAddress(1), f->GetHostAddress(3), 17, collide, 5000) !=
            target)
        {
            collide++;
        }
        Receivers rx;
        rx.Listen(f, {2, 3}, 5000);
        for (uint32_t i = 0; i < 100; i++)
        {
            Simulator::Schedule(MicroSeconds(10), &SendUdp, f, 0, 2, 1000, 5000, 1000);
            Simulator::Schedule(MicroSeconds(10), &SendUdp, f, 1, 3, collide, 5000, 1000);
        }
        Simulator::Run();
        up0 = f->GetLinkCounters(f->GetLeafSpineLink(0, 0), 0).packets;
        up1 = f->GetLinkCounters(f->GetLeafSpineLink(0, 1), 0).packets;
        delivered = rx.received.size();
        Simulator::Destroy();
    }

    void DoRun() override
    {
        uint64_t up0 = 0;
        uint64_t up1 = 0;
        uint32_t delivered = 0;
        Run("ns3::HashPortSelector", up0, up1, delivered);
        NS_TEST_ASSERT_MSG_EQ(delivered, 200, "flow hash: all delivered");
        NS_TEST_ASSERT_MSG_EQ(std::min(up0, up1), 0u, "flow hash: both flows on one up-link");
        Run("ns3::AdaptivePortSelector", up0, up1, delivered);
        NS_TEST_ASSERT_MSG_EQ(delivered, 200, "adaptive: all delivered");
        NS_TEST_ASSERT_MSG_GT(std::min(up0, up1), 60u, "adaptive: both up-links carry traffic");
    }
};

/**
 * \ingroup reps-test
 * Invalid shapes, links and plane attributes are refused with a message naming the parameter.
 */
class FabricValidationTestCase : public TestCase
{
  public:
    FabricValidationTestCase()
        : TestCase("ClosFabricHelper: invalid shapes and links name the parameter")
    {
    }

  private:
    /**
     * Check that a message mentions a word.
     * \param message the message
     * \param word the word
     */
    void Expect(const std::string& message, const std::string& word)
    {
        NS_TEST_ASSERT_MSG_NE(message.find(word),
                              std::string::npos,
                              "message \"" << message << "\" names " << word);
    }

    /// SetPlaneAttribute() refuses a name ClosPlane lacks and a value out of range or of
    /// another type (the first refusal is what Validate() says); a valid one reaches every plane.
    void CheckPlaneAttributes()
    {
        Ptr<ClosFabricHelper> name = TwoTier(2, 2, 2);
        name->SetPlaneAttribute("NoSuchDelay", TimeValue(MicroSeconds(1)));
        name->SetPlaneAttribute("RoutingConvergenceDelay", TimeValue(Seconds(-1)));
        Expect(name->Validate(), "SetPlaneAttribute: ns3::ClosPlane has no attribute NoSuchDelay");
        Ptr<ClosFabricHelper> range = TwoTier(2, 2, 2);
        range->SetPlaneAttribute("RoutingConvergenceDelay", TimeValue(Seconds(-1)));
        Expect(range->Validate(),
               "SetPlaneAttribute: ns3::ClosPlane::RoutingConvergenceDelay = -1e+09ns is out of "
               "range; allowed: a Time, at least +0");
        Ptr<ClosFabricHelper> type = TwoTier(2, 2, 2);
        type->SetPlaneAttribute("RoutingConvergenceDelay", UintegerValue(5));
        Expect(type->Validate(),
               "RoutingConvergenceDelay takes a ns3::TimeValue, not the value given");
        Ptr<ClosFabricHelper> good = TwoTier(2, 2, 2);
        good->SetAttribute("Planes", UintegerValue(2));
        good->SetPlaneAttribute("RoutingConvergenceDelay", StringValue("20us"));
        NS_TEST_ASSERT_MSG_EQ(good->Validate(), "", "a valid plane attribute");
        Ptr<ClosFabric> f = good->Build();
        for (uint32_t p = 0; p < f->GetNPlanes(); p++)
        {
            NS_TEST_ASSERT_MSG_EQ(f->GetPlane(p)->GetRoutingConvergenceDelay(),
                                  MicroSeconds(20),
                                  "plane " << p << " has the delay given");
        }
    }

    /// The helpers' own attributes and the RDMA helper's are checked before ns-3 applies them
    /// (ns-3 would abort): the message names the object, the attribute, the value and the
    /// allowed range; the first refusal is kept; a valid value is applied.
    void CheckHelperAttributes()
    {
        Ptr<ClosFabricHelper> tiers = TwoTier(2, 2, 2);
        tiers->SetAttribute("Tiers", UintegerValue(5));
        tiers->SetAttribute("Mtu", UintegerValue(10));
        NS_TEST_ASSERT_MSG_EQ(tiers->Validate(),
                              "SetAttribute: ns3::ClosFabricHelper::Tiers = 5 is out of range; "
                              "allowed: 2 to 3",
                              "Tiers = 5, the first refusal");
        Ptr<ClosFabricHelper> name = TwoTier(2, 2, 2);
        name->SetAttribute("Spine", UintegerValue(2));
        Expect(name->Validate(), "ns3::ClosFabricHelper has no attribute Spine");
        Ptr<ClosFabricHelper> delay = TwoTier(2, 2, 2);
        delay->SetAttribute("HostLinkDelay", StringValue("soon"));
        Expect(delay->Validate(),
               "ns3::ClosFabricHelper::HostLinkDelay = 'soon' is not a time; allowed: a Time, "
               "at least +0");
        Ptr<ClosFabricHelper> good = TwoTier(2, 2, 2);
        good->SetAttribute("Mtu", UintegerValue(2000));
        good->SetAttribute("HostLinkDelay", StringValue("3us"));
        NS_TEST_ASSERT_MSG_EQ(good->Validate(), "", "valid values");
        UintegerValue mtu;
        good->GetAttribute("Mtu", mtu);
        NS_TEST_ASSERT_MSG_EQ(mtu.Get(), 2000, "a valid value is applied");
        TimeValue hostDelay;
        good->GetAttribute("HostLinkDelay", hostDelay);
        NS_TEST_ASSERT_MSG_EQ(hostDelay.Get(), MicroSeconds(3), "a valid string is applied");

        RdmaHelper qp;
        NS_TEST_ASSERT_MSG_EQ(qp.Validate(), "", "a new RdmaHelper is valid");
        qp.SetQueuePairAttribute("Mtu", UintegerValue(70000));
        NS_TEST_ASSERT_MSG_EQ(qp.Validate(),
                              "RdmaHelper::SetQueuePairAttribute: ns3::RdmaQueuePair::Mtu = 70000 "
                              "is out of range; allowed: 0 to 65000",
                              "queue pair Mtu");
        RdmaHelper ps;
        ps.SetPathSelector("ns3::RepsPathSelector", "FreezeDuration", TimeValue(Seconds(5)));
        Expect(ps.Validate(),
               "RdmaHelper::SetPathSelector: ns3::RepsPathSelector::FreezeDuration = ");
        Expect(ps.Validate(), "is out of range; allowed: a Time, +1ns to +1s");
        RdmaHelper type;
        type.SetCongestionControl("ns3::NoSuchControl");
        Expect(type.Validate(), "RdmaHelper::SetCongestionControl: unknown TypeId");
        RdmaHelper attr;
        attr.SetPathSelectorAttribute("NoSuchKnob", UintegerValue(1));
        Expect(attr.Validate(), "ns3::EcmpPathSelector has no attribute NoSuchKnob");
        RdmaHelper launcherRdma;
        Ptr<RdmaFlowLauncher> launcher =
            CreateObject<RdmaFlowLauncher>(NodeContainer(), &launcherRdma);
        launcher->SetAttribute("ConnectionMapping", StringValue("Sometimes"));
        Expect(launcher->Validate(),
               "RdmaFlowLauncher::SetAttribute: ns3::RdmaFlowLauncher::ConnectionMapping = "
               "Sometimes is not allowed; allowed: ");
        Expect(launcher->Validate(), "Pair");
        Ptr<RdmaFlowLauncher> pair = CreateObject<RdmaFlowLauncher>(NodeContainer(), &launcherRdma);
        pair->SetAttribute("ConnectionMapping", StringValue("Pair"));
        NS_TEST_ASSERT_MSG_EQ(pair->Validate(), "", "a valid mapping");
        RdmaHelper fine;
        fine.SetPathSelector("ns3::RepsPathSelector", "FreezeDuration", StringValue("50us"));
        fine.SetQueuePairAttribute("Mtu", UintegerValue(1024));
        NS_TEST_ASSERT_MSG_EQ(fine.Validate(), "", "valid values are taken");
    }

    void DoRun() override
    {
        NS_TEST_ASSERT_MSG_EQ(TwoTier(2, 2, 2)->Validate(), "", "valid 2-tier");
        Expect(TwoTier(2, 2, 0)->Validate(), "Spines");
        Expect(TwoTier(0, 2, 2)->Validate(), "Leaves");
        Expect(TwoTier(2, 0, 2)->Validate(), "HostsPerLeaf");
        Ptr<ClosFabricHelper> radix = TwoTier(2, 40, 2);
        radix->SetAttribute("LeafRadix", UintegerValue(32));
        Expect(radix->Validate(), "HostsPerLeaf");
        Expect(radix->Validate(), "LeafRadix");
        Ptr<ClosFabricHelper> radix2 = TwoTier(2, 30, 4);
        radix2->SetAttribute("LeafRadix", UintegerValue(32));
        Expect(radix2->Validate(), "LeafRadix");
        radix2->SetAttribute("LeafRadix", UintegerValue(34));
        NS_TEST_ASSERT_MSG_EQ(radix2->Validate(), "", "30 + 4 ports fit 34");
        Expect(ThreeTier(2, 2, 2, 3, 1)->Validate(), "Cores");
        Expect(ThreeTier(2, 2, 0, 4, 1)->Validate(), "AggsPerPod");
        Expect(ThreeTier(0, 2, 2, 4, 1)->Validate(), "Pods");
        Ptr<ClosFabricHelper> k = CreateObject<ClosFabricHelper>();
        k->SetFatTree(5);
        Expect(k->Validate(), "k");
        Ptr<ClosFabricHelper> ecn = TwoTier(2, 2, 2);
        ecn->SetSwitchQueueDisc("ns3::EcnQueueDisc", "Kmin", QueueSizeValue(QueueSize("90p")));
        Expect(ecn->Validate(), "Kmin (90p)");
        // Queue sizes: the checkers accept 0, the queues cannot work with it.
        Ptr<ClosFabricHelper> empty = TwoTier(2, 2, 2);
        empty->SetSwitchQueueDisc("ns3::EcnQueueDisc", "MaxSize", QueueSizeValue(QueueSize("0p")));
        Expect(empty->Validate(), "MaxSize (0p)");
        Ptr<ClosFabricHelper> prio = TwoTier(2, 2, 2);
        prio->SetSwitchQueueDisc("ns3::EcnQueueDisc",
                                 "PriorityBandMaxSize",
                                 QueueSizeValue(QueueSize("0p")));
        Expect(prio->Validate(), "PriorityBandMaxSize");
        Ptr<ClosFabricHelper> host = TwoTier(2, 2, 2);
        host->SetAttribute("HostQueueSize", QueueSizeValue(QueueSize("0p")));
        Expect(host->Validate(), "HostQueueSize");
        Ptr<ClosFabricHelper> mask = TwoTier(64, 8, 2);
        mask->SetAttribute("HostAddressMask", Ipv4MaskValue(Ipv4Mask("255.255.255.0")));
        Expect(mask->Validate(), "HostAddressMask");
        Ptr<ClosFabricHelper> qd = TwoTier(2, 2, 2);
        qd->SetSwitchQueueDisc("ns3::NoSuchQueueDisc");
        Expect(qd->Validate(), "SetSwitchQueueDisc");
        CheckPlaneAttributes();
        CheckHelperAttributes();

        Ptr<ClosFabric> f = TwoTier(2, 2, 2)->Build();
        NS_TEST_ASSERT_MSG_EQ(f->FindLink(f->GetLeaf(0), f->GetLeaf(1)),
                              ClosFabric::NO_LINK,
                              "leaves are not linked");
        Expect(f->ValidateLink(ClosFabric::NO_LINK), "link");
        Expect(f->ValidateLink(f->GetNLinks()), "link");
        NS_TEST_ASSERT_MSG_EQ(f->ValidateLink(0), "", "link 0 exists");
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * A ClosPlane built by hand through its construction API checks its own invariants: the
 * shape, the order and roles of the nodes, the ends, wiring and parallel index of every link,
 * and that the wiring is complete before it computes the tables; a ClosFabric made of it
 * names its links and nodes as the plane does.
 */
class FabricConstructionTestCase : public TestCase
{
  public:
    FabricConstructionTestCase()
        : TestCase("ClosPlane: the construction API checks shape, nodes, links and wiring")
    {
    }

  private:
    /**
     * Check that a message mentions a word.
     * \param message the message
     * \param word the word
     */
    void Expect(const std::string& message, const std::string& word)
    {
        NS_TEST_ASSERT_MSG_NE(message.find(word),
                              std::string::npos,
                              "message \"" << message << "\" names " << word);
    }

    /// \return a 2-tier shape: 2 leaves of 1 host, 1 spine
    static ClosPlane::Shape SmallShape()
    {
        ClosPlane::Shape shape;
        shape.tiers = 2;
        shape.hostsPerLeaf = 1;
        shape.leavesPerPod = 2;
        shape.spines = 1;
        shape.addressBase = Ipv4Address("10.0.0.0");
        shape.hostRate = DataRate("100Gbps");
        shape.leafUplinkRate = DataRate("100Gbps");
        return shape;
    }

    /**
     * Link two nodes with a new channel.
     * \param a side 0
     * \param b side 1
     * \return the two devices
     */
    static std::pair<Ptr<PointToPointNetDevice>, Ptr<PointToPointNetDevice>> Wire(Ptr<Node> a,
                                                                                  Ptr<Node> b)
    {
        PointToPointHelper p2p;
        NetDeviceContainer d = p2p.Install(a, b);
        return {DynamicCast<PointToPointNetDevice>(d.Get(0)),
                DynamicCast<PointToPointNetDevice>(d.Get(1))};
    }

    /// Invalid shapes name the field.
    void CheckShapes()
    {
        NS_TEST_ASSERT_MSG_EQ(ClosPlane::ValidateShape(SmallShape()), "", "valid shape");
        ClosPlane::Shape bad = SmallShape();
        bad.tiers = 4;
        Expect(ClosPlane::ValidateShape(bad), "tiers");
        bad = SmallShape();
        bad.spines = 0;
        Expect(ClosPlane::ValidateShape(bad), "spines");
        bad = SmallShape();
        bad.tiers = 3;
        Expect(ClosPlane::ValidateShape(bad), "aggsPerPod");
        bad = SmallShape();
        bad.hostRate = DataRate(0);
        Expect(ClosPlane::ValidateShape(bad), "hostRate");
    }

    /**
     * Add the nodes of SmallShape(), checking the order and roles.
     * \param f the plane
     * \return the nodes: host 0, host 1, leaf 0, leaf 1, spine 0
     */
    std::vector<Ptr<Node>> AddNodes(Ptr<ClosPlane> f)
    {
        const ClosFabric::Role roles[] = {ClosFabric::HOST,
                                          ClosFabric::HOST,
                                          ClosFabric::LEAF,
                                          ClosFabric::LEAF,
                                          ClosFabric::SPINE};
        std::vector<Ptr<Node>> nodes;
        for (uint32_t i = 0; i < 5; i++)
        {
            NS_TEST_EXPECT_MSG_EQ(f->GetRoleOfIndex(i), roles[i], "role of index " << i);
            Ptr<Node> node = CreateObject<Node>();
            if (roles[i] != ClosFabric::HOST)
            {
                node->AggregateObject(CreateObject<TrafficControlLayer>());
                node->AggregateObject(CreateObject<FabricSwitch>());
            }
            if (i == 0)
            {
                Expect(f->ValidateNewNode(node, ClosFabric::LEAF), "HOST");
            }
            NS_TEST_EXPECT_MSG_EQ(f->AddNode(node, roles[i]), i, "fabric index");
            nodes.push_back(node);
        }
        Expect(f->ValidateNewNode(nodes[0], ClosFabric::CORE), "room");
        return nodes;
    }

    void DoRun() override
    {
        CheckShapes();
        Ptr<ClosPlane> f = CreateObject<ClosPlane>();
        f->SetShape(SmallShape());
        Expect(f->ValidateNewNode(nullptr, ClosFabric::HOST), "null");
        std::vector<Ptr<Node>> n = AddNodes(f);
        Ptr<Node> host0 = n[0];
        Ptr<Node> host1 = n[1];
        Ptr<Node> leaf0 = n[2];
        Ptr<Node> leaf1 = n[3];
        Ptr<Node> spine = n[4];

        auto wrongLeaf = Wire(host0, leaf1);
        Expect(f->ValidateNewLink(ClosFabric::HOST_LEAF, wrongLeaf.first, wrongLeaf.second, 0),
               "not linked");
        auto h0 = Wire(host0, leaf0);
        Expect(f->ValidateNewLink(ClosFabric::LEAF_SPINE, h0.first, h0.second, 0), "LEAF_SPINE");
        Expect(f->ValidateNewLink(ClosFabric::HOST_LEAF, h0.second, h0.first, 0), "side 0");
        Expect(f->ValidateNewLink(ClosFabric::HOST_LEAF, h0.first, wrongLeaf.second, 0), "channel");
        NS_TEST_ASSERT_MSG_EQ(f->AddLink(ClosFabric::HOST_LEAF, h0.first, h0.second), 0, "link 0");
        auto again = Wire(host0, leaf0);
        Expect(f->ValidateNewLink(ClosFabric::HOST_LEAF, again.first, again.second, 0), "parallel");
        Expect(f->ValidateWiring(), "HOST_LEAF");
        auto h1 = Wire(host1, leaf1);
        f->AddLink(ClosFabric::HOST_LEAF, h1.first, h1.second);
        Expect(f->ValidateWiring(), "LEAF_SPINE");
        auto up0 = Wire(leaf0, spine);
        Expect(f->ValidateNewLink(ClosFabric::LEAF_SPINE, up0.first, up0.second, 1), "k (1)");
        f->AddLink(ClosFabric::LEAF_SPINE, up0.first, up0.second, 0);
        auto up1 = Wire(leaf1, spine);
        f->AddLink(ClosFabric::LEAF_SPINE, up1.first, up1.second, 0);
        NS_TEST_ASSERT_MSG_EQ(f->ValidateWiring(), "", "complete");
        f->Finish();

        NS_TEST_ASSERT_MSG_EQ(f->IsFinished(), true, "finished");
        Expect(f->ValidateNewLink(ClosFabric::HOST_LEAF, again.first, again.second, 0), "finished");
        NS_TEST_ASSERT_MSG_EQ(f->GetLinkName(2), "leaf0-spine0", "link name");
        NS_TEST_ASSERT_MSG_EQ(f->GetNEqualCostPaths(0, 1), 1, "one path");
        // The switches' tables are those of ClosRoutes: leaf 0 reaches host 1 over port 1.
        Ptr<FabricSwitch> sw = leaf0->GetObject<FabricSwitch>();
        NS_TEST_ASSERT_MSG_EQ(sw->GetNextHops(1).size(), 1, "one port");
        NS_TEST_ASSERT_MSG_EQ(sw->GetNextHops(1)[0], 1, "the spine port");
        for (uint32_t s = 2; s < 5; s++)
        {
            Ptr<FabricSwitch> x = n[s]->GetObject<FabricSwitch>();
            for (uint32_t h = 0; h < 2; h++)
            {
                NS_TEST_EXPECT_MSG_EQ((x->GetNextHops(h) == f->GetRoutes().GetPorts(s, h)),
                                      true,
                                      "switch " << s << " host " << h);
            }
        }
        // The plane alone makes a fabric of one plane, whose links are the plane's.
        Ptr<ClosFabric> fabric = CreateObject<ClosFabric>();
        Expect(fabric->ValidateNewPlane(CreateObject<ClosPlane>()), "finished");
        fabric->AddPlane(f);
        NS_TEST_ASSERT_MSG_EQ(fabric->GetNPlanes(), 1, "one plane");
        NS_TEST_ASSERT_MSG_EQ(fabric->GetPlane(0), f, "the plane itself");
        NS_TEST_ASSERT_MSG_EQ(fabric->GetNLinks(), f->GetNLinks(), "the plane's links");
        NS_TEST_ASSERT_MSG_EQ(fabric->GetLinkName(2), "leaf0-spine0", "link name");
        NS_TEST_ASSERT_MSG_EQ(fabric->GetNodeName(spine), "spine0", "node name");
        NS_TEST_ASSERT_MSG_EQ(fabric->FindLink(leaf1, spine), 3, "link of two nodes");
        NS_TEST_ASSERT_MSG_EQ(&fabric->GetRoutes(), &f->GetRoutes(), "plane 0's routes");
        Expect(fabric->ValidateNewPlane(f), "plane 0 of this fabric already");
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * The switch queue disc is configured like TrafficControlHelper configures one: the values
 * given to SetSwitchQueueDisc() or by Config::SetDefault() reach every switch queue, the
 * type's defaults the others; what the queue disc would refuse is refused by Validate().
 */
class FabricQueueConfigTestCase : public TestCase
{
  public:
    FabricQueueConfigTestCase()
        : TestCase("ClosFabricHelper: switch queue discs take their own attributes and defaults")
    {
    }

  private:
    /**
     * Build a fabric and read an attribute of every switch queue.
     * \param h a helper
     * \param name an attribute of the switch queues
     * \return the values seen (one when every queue has the same)
     */
    static std::set<std::string> Values(Ptr<ClosFabricHelper> h, const std::string& name)
    {
        Ptr<ClosFabric> f = h->Build();
        std::set<std::string> values;
        NodeContainer switches = f->GetSwitches();
        for (uint32_t i = 0; i < switches.GetN(); i++)
        {
            Ptr<FabricSwitch> sw = switches.Get(i)->GetObject<FabricSwitch>();
            for (uint32_t p = 0; p < sw->GetNPorts(); p++)
            {
                StringValue v;
                sw->GetPortQueueDisc(p)->GetAttribute(name, v);
                values.insert(v.Get());
            }
        }
        return values;
    }

    /**
     * Check that every switch queue has a value.
     * \param h a helper
     * \param name an attribute of the switch queues
     * \param value the value expected in all of them
     * \param what what is checked
     */
    void ExpectAll(Ptr<ClosFabricHelper> h,
                   const std::string& name,
                   const std::string& value,
                   const std::string& what)
    {
        NS_TEST_EXPECT_MSG_EQ((Values(h, name) == std::set<std::string>{value}),
                              true,
                              what << ": every switch queue has " << name << " = " << value);
    }

    /**
     * Check that a message mentions a word.
     * \param message the message
     * \param word the word
     */
    void Expect(const std::string& message, const std::string& word)
    {
        NS_TEST_ASSERT_MSG_NE(message.find(word),
                              std::string::npos,
                              "message \"" << message << "\" names " << word);
    }

    /// The values that reach the queues: the type's defaults, Config::SetDefault(), the factory.
    void CheckReach()
    {
        for (const auto& [name, value] : std::map<std::string, std::string>{{"MaxSize", "100p"},
                                                                            {"Kmin", "20p"},
                                                                            {"Kmax", "80p"},
                                                                            {"Trimming", "false"}})
        {
            ExpectAll(TwoTier(2, 1, 2), name, value, "default");
        }
        Config::SetDefault("ns3::EcnQueueDisc::Kmin", QueueSizeValue(QueueSize("30p")));
        ExpectAll(TwoTier(2, 1, 2), "Kmin", "30p", "Config::SetDefault");
        Config::SetDefault("ns3::EcnQueueDisc::Kmin", QueueSizeValue(QueueSize("20p")));

        Ptr<ClosFabricHelper> h = TwoTier(2, 1, 2);
        h->SetSwitchQueueDisc("ns3::EcnQueueDisc",
                              "MaxSize",
                              QueueSizeValue(QueueSize("50p")),
                              "Kmin",
                              StringValue("10p"),
                              "Trimming",
                              BooleanValue(true));
        ExpectAll(h, "MaxSize", "50p", "SetSwitchQueueDisc");
        ExpectAll(h, "Kmin", "10p", "SetSwitchQueueDisc (a StringValue)");
        ExpectAll(h, "Trimming", "true", "SetSwitchQueueDisc");
        ExpectAll(h, "Kmax", "80p", "not given");
        h->SetSwitchQueueDisc("ns3::FifoQueueDisc");
        ExpectAll(h, "MaxSize", "1000p", "another call replaces the type: FIFO's own default");

        Ptr<ClosFabricHelper> red = TwoTier(2, 1, 2);
        red->SetSwitchQueueDisc("ns3::RedQueueDisc",
                                "MinTh",
                                DoubleValue(15),
                                "MaxTh",
                                DoubleValue(45));
        ExpectAll(red, "MinTh", "15", "RED");
        ExpectAll(red, "MaxTh", "45", "RED");
    }

    /// What is refused, before Build(), with a message that names it.
    void CheckRefused()
    {
        Ptr<ClosFabricHelper> h = TwoTier(2, 1, 2);
        h->SetSwitchQueueDisc("ns3::EcnQueueDisc", "NoSuchAttribute", UintegerValue(1));
        Expect(h->Validate(), "NoSuchAttribute");
        h->SetSwitchQueueDisc("ns3::EcnQueueDisc", "Kmin", StringValue("many"));
        Expect(h->Validate(), "Kmin");
        h->SetSwitchQueueDisc("ns3::Node");
        Expect(h->Validate(), "not a QueueDisc");
        h->SetSwitchQueueDisc("ns3::RedQueueDisc", "Trimming", BooleanValue(true));
        Expect(h->Validate(), "Trimming");
        h->SetSwitchQueueDisc("ns3::EcnQueueDisc");
        NS_TEST_ASSERT_MSG_EQ(h->Validate(), "", "a valid call clears the refusal");

        h->SetSwitchQueueDisc("ns3::EcnQueueDisc", "Kmax", QueueSizeValue(QueueSize("10p")));
        Expect(h->Validate(), "Kmin (20p) must be smaller than Kmax (10p)");
        h->SetSwitchQueueDisc("ns3::EcnQueueDisc", "Kmin", QueueSizeValue(QueueSize("1000B")));
        Expect(h->Validate(), "unit of MaxSize");
        h->SetSwitchQueueDisc("ns3::EcnQueueDisc",
                              "MaxSize",
                              QueueSizeValue(QueueSize("100000B")),
                              "Kmin",
                              QueueSizeValue(QueueSize("20000B")),
                              "Kmax",
                              QueueSizeValue(QueueSize("80000B")));
        NS_TEST_ASSERT_MSG_EQ(h->Validate(), "", "thresholds in bytes");

        Config::SetDefault("ns3::EcnQueueDisc::Kmin", QueueSizeValue(QueueSize("90p")));
        std::string error = TwoTier(2, 1, 2)->Validate();
        ObjectFactory factory("ns3::EcnQueueDisc", "Kmax", QueueSizeValue(QueueSize("95p")));
        std::string fine = EcnQueueDisc::Validate(factory);
        Config::SetDefault("ns3::EcnQueueDisc::Kmin", QueueSizeValue(QueueSize("20p")));
        Expect(error, "Kmin (90p)");
        NS_TEST_ASSERT_MSG_EQ(fine, "", "Kmax given to the factory, Kmin by Config::SetDefault");
    }

    void DoRun() override
    {
        CheckReach();
        CheckRefused();
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * A 1024-host 2-tier fabric builds in seconds.
 */
class FabricLargeBuildTestCase : public TestCase
{
  public:
    FabricLargeBuildTestCase()
        : TestCase("ClosFabric: 1024-host 2-tier and 3-tier fabrics build in seconds")
    {
    }

  private:
    void DoRun() override
    {
        auto start = std::chrono::steady_clock::now();
        Ptr<ClosFabric> f = TwoTier(32, 32, 16)->Build();
        double twoTier =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        NS_TEST_ASSERT_MSG_EQ(f->GetNHosts(), 1024, "hosts");
        NS_TEST_ASSERT_MSG_EQ(f->GetNLinks(), 1024 + 32 * 16, "links");
        NS_TEST_ASSERT_MSG_EQ(f->GetNEqualCostPaths(0, 1023), 16, "paths");
        NS_TEST_ASSERT_MSG_LT(twoTier, 30.0, "2-tier build time (s)");
        Simulator::Destroy();

        start = std::chrono::steady_clock::now();
        Ptr<ClosFabricHelper> k16 = CreateObject<ClosFabricHelper>();
        k16->SetFatTree(16);
        Ptr<ClosFabric> g = k16->Build();
        double threeTier =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        NS_TEST_ASSERT_MSG_EQ(g->GetNHosts(), 1024, "hosts");
        NS_TEST_ASSERT_MSG_EQ(g->GetNEqualCostPaths(0, 1023), 64, "paths");
        NS_TEST_ASSERT_MSG_LT(threeTier, 60.0, "3-tier build time (s)");
        std::cout << "1024-host build: 2-tier (32 x 32, 16 spines) " << twoTier
                  << " s, 3-tier (k = 16 fat tree) " << threeTier << " s" << std::endl;
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * The switch decrements the TTL of what it forwards and drops, with DROP_TTL, a packet that
 * would leave it with a TTL of 0: between two hosts of one leaf, a datagram sent with TTL 2
 * arrives with TTL 1, and one sent with TTL 1 is dropped at the leaf.
 */
class FabricTtlTestCase : public TestCase
{
  public:
    FabricTtlTestCase()
        : TestCase("FabricSwitch: TTL 2 is forwarded with TTL 1, TTL 1 is dropped (DROP_TTL)")
    {
    }

  private:
    /// One packet seen by a trace.
    struct Seen
    {
        uint16_t srcPort; //!< UDP source port.
        uint8_t ttl;      //!< TTL in its IPv4 header.
        int reason;       //!< Drop reason (-1 when not a drop).
    };

    std::vector<Seen> m_forwarded; //!< Forward trace of the switches.
    std::vector<Seen> m_dropped;   //!< Drop trace of the switches.
    std::vector<Seen> m_delivered; //!< Local delivery at the destination host.

    void Forwarded(Ptr<const Packet> p, const Ipv4Header& h, uint32_t in, uint32_t out)
    {
        if (h.GetProtocol() != UdpL4Protocol::PROT_NUMBER)
        {
            return; // the destination's ICMP "port unreachable" on its way back
        }
        UdpHeader udp;
        p->PeekHeader(udp);
        m_forwarded.push_back({udp.GetSourcePort(), h.GetTtl(), -1});
    }

    void Dropped(Ptr<const Packet> p, const Ipv4Header& h, FabricSwitch::DropReason reason)
    {
        if (h.GetProtocol() != UdpL4Protocol::PROT_NUMBER)
        {
            return;
        }
        UdpHeader udp;
        p->PeekHeader(udp);
        m_dropped.push_back({udp.GetSourcePort(), h.GetTtl(), static_cast<int>(reason)});
    }

    void Delivered(const Ipv4Header& h, Ptr<const Packet> p, uint32_t interface)
    {
        if (h.GetProtocol() != UdpL4Protocol::PROT_NUMBER)
        {
            return;
        }
        UdpHeader udp;
        p->PeekHeader(udp);
        m_delivered.push_back({udp.GetSourcePort(), h.GetTtl(), -1});
    }

    /**
     * Send one datagram with a given TTL.
     * \param f the fabric
     * \param srcPort UDP source port (names the datagram)
     * \param ttl its TTL
     */
    static void SendWithTtl(Ptr<ClosFabric> f, uint16_t srcPort, uint8_t ttl)
    {
        Ptr<Packet> p = Create<Packet>(100);
        SocketIpTtlTag tag;
        tag.SetTtl(ttl);
        p->AddPacketTag(tag);
        f->GetHost(0)->GetObject<UdpL4Protocol>()->Send(p,
                                                        f->GetHostAddress(0),
                                                        f->GetHostAddress(1),
                                                        srcPort,
                                                        5000);
    }

    void DoRun() override
    {
        // Hosts 0 and 1 hang off the same leaf: one switch between them.
        Ptr<ClosFabric> f = TwoTier(2, 2, 1)->Build();
        NodeContainer switches = f->GetSwitches();
        for (uint32_t i = 0; i < switches.GetN(); i++)
        {
            Ptr<FabricSwitch> sw = switches.Get(i)->GetObject<FabricSwitch>();
            sw->TraceConnectWithoutContext("Forward",
                                           MakeCallback(&FabricTtlTestCase::Forwarded, this));
            sw->TraceConnectWithoutContext("Drop", MakeCallback(&FabricTtlTestCase::Dropped, this));
        }
        f->GetHost(1)->GetObject<Ipv4L3Protocol>()->TraceConnectWithoutContext(
            "LocalDeliver",
            MakeCallback(&FabricTtlTestCase::Delivered, this));
        Simulator::Schedule(MicroSeconds(1), &SendWithTtl, f, 1002, 2);
        Simulator::Schedule(MicroSeconds(5), &SendWithTtl, f, 1001, 1);
        Simulator::Stop(MilliSeconds(1));
        Simulator::Run();

        uint64_t ttlDrops = 0;
        for (uint32_t i = 0; i < switches.GetN(); i++)
        {
            ttlDrops += switches.Get(i)->GetObject<FabricSwitch>()->GetCounters().ttlDrops;
        }

        // The TTL-2 datagram is forwarded and delivered with TTL 1; the TTL-1 one is dropped (the
        // Drop trace shows the TTL it arrived with).
        std::vector<Seen> want = {{1002, 1, -1}};
        auto same = [](const std::vector<Seen>& a, const std::vector<Seen>& b) {
            return a.size() == b.size() &&
                   std::equal(a.begin(), a.end(), b.begin(), [](const Seen& x, const Seen& y) {
                       return x.srcPort == y.srcPort && x.ttl == y.ttl && x.reason == y.reason;
                   });
        };
        auto show = [](const std::vector<Seen>& v) {
            std::ostringstream os;
            for (const Seen& x : v)
            {
                os << "(port " << x.srcPort << ", TTL " << +x.ttl << ", reason " << x.reason
                   << ") ";
            }
            return os.str();
        };
        NS_TEST_EXPECT_MSG_EQ(
            same(m_forwarded, want),
            true,
            "only the TTL-2 datagram forwarded, with TTL 1: " << show(m_forwarded));
        NS_TEST_EXPECT_MSG_EQ(
            same(m_delivered, want),
            true,
            "only the TTL-2 datagram delivered, with TTL 1: " << show(m_delivered));
        NS_TEST_EXPECT_MSG_EQ(
            same(m_dropped, {{1001, 1, FabricSwitch::DROP_TTL}}),
            true,
            "only the TTL-1 datagram dropped, with DROP_TTL: " << show(m_dropped));
        NS_TEST_EXPECT_MSG_EQ(ttlDrops, 1, "TTL drop counter");
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * Tests of the Clos fabric: shapes, forwarding, hashing, failures, validation.
 */
class RepsFabricTestSuite : public TestSuite
{
  public:
    RepsFabricTestSuite()
        : TestSuite("reps-fabric", TestSuite::Type::UNIT)
    {
        AddTestCase(new FabricShapeTestCase, reps::kQuick);
        AddTestCase(new FabricReachabilityTestCase, reps::kQuick);
        AddTestCase(new FabricPathDiversityTestCase, reps::kQuick);
        AddTestCase(new FabricHashSpreadTestCase, reps::kQuick);
        AddTestCase(new FabricLinkFailureTestCase, reps::kQuick);
        AddTestCase(new FabricDegradedLinkTestCase, reps::kQuick);
        AddTestCase(new FabricTrimmingTestCase, reps::kQuick);
        AddTestCase(new FabricAdaptiveTestCase, reps::kQuick);
        AddTestCase(new FabricValidationTestCase, reps::kQuick);
        AddTestCase(new FabricConstructionTestCase, reps::kQuick);
        AddTestCase(new FabricQueueConfigTestCase, reps::kQuick);
        AddTestCase(new FabricTtlTestCase, reps::kQuick);
        AddTestCase(new FabricLargeBuildTestCase, reps::kExtensive);
    }
};

/// The suite instance.
static RepsFabricTestSuite g_repsFabricTestSuite;
