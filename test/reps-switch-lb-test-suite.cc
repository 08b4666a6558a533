/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "../examples/drill-port-selector.h"
#include "reps-test-compat.h"

#include "ns3/adaptive-port-selector.h"
#include "ns3/boolean.h"
#include "ns3/clos-fabric-helper.h"
#include "ns3/clos-fabric.h"
#include "ns3/data-rate.h"
#include "ns3/ecn-queue-disc.h"
#include "ns3/enum.h"
#include "ns3/fabric-experiment.h"
#include "ns3/fabric-switch.h"
#include "ns3/glb-port-selector.h"
#include "ns3/hash-port-selector.h"
#include "ns3/inet-socket-address.h"
#include "ns3/ipv4-header.h"
#include "ns3/ipv4-queue-disc-item.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/path-selector-names.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/random-port-selector.h"
#include "ns3/roce-bth-header.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/test.h"
#include "ns3/udp-header.h"
#include "ns3/udp-l4-protocol.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <vector>

using namespace ns3;

namespace
{

/// Payload of the test datagrams (bytes); 1030 bytes on the wire with UDP, IPv4 and PPP.
constexpr uint32_t kPayload = 1000;

/**
 * A 2-tier fabric of 2 leaves x 2 hosts and 2 spines with 10 Gb/s links (a 1000-byte
 * datagram is on the wire for 824 ns), big queues, no ECN.
 * \param selector the TypeId of the switches' port selector
 * \param tableSize FlowletTableSize of the switches (DLB and GLB)
 * \param timeout FlowletTimeout of the switches (DLB and GLB)
 * \param aging GlbAgingTime of the switches (GLB)
 * \return the fabric
 */
Ptr<ClosFabric>
SmallFabric(const std::string& selector,
            uint32_t tableSize = 4096,
            Time timeout = MicroSeconds(8),
            Time aging = MicroSeconds(50))
{
    Ptr<ClosFabricHelper> h = CreateObject<ClosFabricHelper>();
    h->SetAttribute("Tiers", UintegerValue(2));
    h->SetAttribute("Leaves", UintegerValue(2));
    h->SetAttribute("HostsPerLeaf", UintegerValue(2));
    h->SetAttribute("Spines", UintegerValue(2));
    for (const char* rate : {"HostLinkRate", "LeafUplinkRate"})
    {
        h->SetAttribute(rate, DataRateValue(DataRate("10Gbps")));
    }
    h->SetPortSelector(selector);
    h->SetSwitchQueueDisc("ns3::EcnQueueDisc",
                          "MaxSize",
                          QueueSizeValue(QueueSize("1000p")),
                          "Kmin",
                          QueueSizeValue(QueueSize("900p")),
                          "Kmax",
                          QueueSizeValue(QueueSize("950p")));
    TypeId dlb = DlbPortSelector::GetTypeId();
    if (h->GetPortSelectorType() == dlb || h->GetPortSelectorType().IsChildOf(dlb))
    {
        h->SetPortSelectorAttribute("FlowletTableSize", UintegerValue(tableSize));
        h->SetPortSelectorAttribute("FlowletTimeout", TimeValue(timeout));
    }
    if (h->GetPortSelectorType() == GlbPortSelector::GetTypeId())
    {
        h->SetPortSelectorAttribute("GlbAgingTime", TimeValue(aging));
    }
    Ptr<ClosFabric> f = h->Build();
    ClosFabricHelper::AssignStreams(f, 100);
    return f;
}

/**
 * \tparam T a PortSelector subclass
 * \param node a switch node
 * \return its port selector (null when not a T)
 */
template <typename T>
Ptr<T>
SelectorOf(Ptr<Node> node)
{
    return DynamicCast<T>(node->GetObject<FabricSwitch>()->GetPortSelector());
}

/**
 * Send one UDP datagram of kPayload bytes.
 * \param f the fabric
 * \param src sending host
 * \param dst receiving host
 * \param srcPort source port (the entropy value)
 */
void
Send(Ptr<ClosFabric> f, uint32_t src, uint32_t dst, uint16_t srcPort)
{
    f->GetHost(src)->GetObject<UdpL4Protocol>()->Send(Create<Packet>(kPayload),
                                                      f->GetHostAddress(src),
                                                      f->GetHostAddress(dst),
                                                      srcPort,
                                                      5000);
}

/// What leaf 0 forwarded up: per packet, its destination host, source port and up-link port.
struct Uplinked
{
    uint32_t dst;     //!< Destination host.
    uint16_t srcPort; //!< UDP source port.
    uint32_t port;    //!< Egress port at leaf 0.
    Time at;          //!< When.
};

/// Records what leaf 0 sends to its up-links.
class UplinkLog
{
  public:
    /**
     * \param f the fabric
     */
    explicit UplinkLog(Ptr<ClosFabric> f)
        : m_fabric(f)
    {
        Ptr<FabricSwitch> leaf = f->GetLeaf(0)->GetObject<FabricSwitch>();
        for (uint32_t p : leaf->GetNextHops(2))
        {
            m_uplinks.insert(p);
        }
        leaf->TraceConnectWithoutContext("Forward", MakeCallback(&UplinkLog::Forwarded, this));
    }

    std::vector<Uplinked> log; //!< Everything sent up, in order.

    /// \return the up-link ports of leaf 0
    const std::set<uint32_t>& Uplinks() const
    {
        return m_uplinks;
    }

  private:
    /**
     * Forward trace of leaf 0.
     * \param p the packet (UDP header first)
     * \param ip its IPv4 header
     * \param in ingress port
     * \param out egress port
     */
    void Forwarded(Ptr<const Packet> p, const Ipv4Header& ip, uint32_t in, uint32_t out)
    {
        if (m_uplinks.count(out) == 0)
        {
            return;
        }
        uint8_t b[2];
        p->CopyData(b, 2);
        log.push_back({m_fabric->GetHostIndex(ip.GetDestination()),
                       static_cast<uint16_t>((b[0] << 8) | b[1]),
                       out,
                       Simulator::Now()});
    }

    Ptr<ClosFabric> m_fabric;     //!< The fabric.
    std::set<uint32_t> m_uplinks; //!< Up-link ports of leaf 0.
};

/// Counts datagrams delivered to some hosts.
class Sink
{
  public:
    /**
     * \param f the fabric
     * \param hosts the receiving hosts
     */
    Sink(Ptr<ClosFabric> f, const std::vector<uint32_t>& hosts)
    {
        for (uint32_t h : hosts)
        {
            Ptr<Socket> s = Socket::CreateSocket(f->GetHost(h), UdpSocketFactory::GetTypeId());
            s->Bind(InetSocketAddress(Ipv4Address::GetAny(), 5000));
            s->SetRecvCallback(MakeCallback(&Sink::Read, this));
            m_keep.push_back(s);
        }
    }

    uint32_t received{0}; //!< Datagrams received.

  private:
    /**
     * \param s a socket with data
     */
    void Read(Ptr<Socket> s)
    {
        while (s->Recv())
        {
            received++;
        }
    }

    std::vector<Ptr<Socket>> m_keep; //!< The sockets.
};

/**
 * \ingroup reps-test
 * Per-packet adaptive routing counts the packet on the wire: a port that is serialising a
 * packet with an empty queue is busier than an idle port, and its backlog is the part of the
 * packet not yet sent.
 */
class SwitchLbAdaptiveWireTestCase : public TestCase
{
  public:
    SwitchLbAdaptiveWireTestCase()
        : TestCase("Adaptive forwarding counts the packet on the wire")
    {
    }

  private:
    /**
     * Read the load of the up-links of leaf 0 while a packet is on the wire.
     * \param lb the port selector of leaf 0
     * \param uplinks the up-link ports
     */
    void Probe(Ptr<AdaptivePortSelector> lb, std::set<uint32_t> uplinks)
    {
        for (uint32_t p : uplinks)
        {
            m_backlog.push_back(lb->GetPortLoad().GetBacklogBytes(p));
            m_drain.push_back(lb->GetPortLoad().GetDrainTime(p));
        }
    }

    void DoRun() override
    {
        Ptr<ClosFabric> f = SmallFabric("ns3::AdaptivePortSelector");
        Ptr<FabricSwitch> leaf = f->GetLeaf(0)->GetObject<FabricSwitch>();
        // Host 1's source port that the flow hash puts on host 0's up-link.
        uint32_t target =
            leaf->GetFlowHashPort(f->GetHostAddress(0), f->GetHostAddress(2), 17, 1000, 5000);
        uint16_t collide = 2000;
        while (
            leaf->GetFlowHashPort(f->GetHostAddress(1), f->GetHostAddress(3), 17, collide, 5000) !=
            target)
        {
            collide++;
        }
        UplinkLog up(f);
        Sink sink(f, {2, 3});
        const uint32_t pairs = 20;
        for (uint32_t i = 0; i < pairs; i++)
        {
            // Host 1's datagram reaches the leaf 100 ns after host 0's, which is then on the
            // wire of its up-link with nothing queued behind it.
            Time t = MicroSeconds(10 * (i + 1));
            Simulator::Schedule(t, &Send, f, 0, 2, 1000);
            Simulator::Schedule(t + NanoSeconds(100), &Send, f, 1, 3, collide);
        }
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(sink.received, 2 * pairs, "every datagram delivered");
        NS_TEST_ASSERT_MSG_EQ(up.log.size(), 2 * pairs, "every datagram went up");
        for (uint32_t i = 0; i + 1 < up.log.size(); i += 2)
        {
            NS_TEST_ASSERT_MSG_EQ(up.log[i].dst, 2, "host 0's datagram first");
            NS_TEST_ASSERT_MSG_NE(up.log[i].port,
                                  up.log[i + 1].port,
                                  "pair " << i / 2 << ": the second datagram avoids the up-link "
                                          << "still sending the first");
        }
        // Where the first datagram leaves the leaf, look at the up-links 412 ns later: half of
        // its 1030 bytes (824 ns at 10 Gb/s) are still to go on one up-link, nothing on the other.
        Time first = up.log[0].at;
        Simulator::Destroy();

        f = SmallFabric("ns3::AdaptivePortSelector");
        Ptr<AdaptivePortSelector> lb = SelectorOf<AdaptivePortSelector>(f->GetLeaf(0));
        UplinkLog up2(f);
        Simulator::Schedule(MicroSeconds(10), &Send, f, 0, 2, 1000);
        Simulator::Schedule(first + NanoSeconds(412),
                            &SwitchLbAdaptiveWireTestCase::Probe,
                            this,
                            lb,
                            up2.Uplinks());
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(m_backlog.size(), 2, "two up-links probed");
        uint64_t busy = std::max(m_backlog[0], m_backlog[1]);
        uint64_t idle = std::min(m_backlog[0], m_backlog[1]);
        NS_TEST_ASSERT_MSG_EQ(idle, 0, "the other up-link is idle");
        NS_TEST_ASSERT_MSG_EQ_TOL(busy, 515, 2, "half of the 1030 bytes still on the wire");
        Time drain = std::max(m_drain[0], m_drain[1]);
        NS_TEST_ASSERT_MSG_EQ_TOL(drain.GetNanoSeconds(), 412, 2, "the rest of 824 ns");
        Simulator::Destroy();
    }

    std::vector<uint64_t> m_backlog; //!< Backlog of each up-link at the probe.
    std::vector<Time> m_drain;       //!< Drain time of each up-link at the probe.
};

/**
 * \ingroup reps-test
 * Adaptive forwarding breaks ties between equally loaded ports at random (from the switch's
 * stream), not by the flow hash: one flow's packets, each finding every up-link idle, spread
 * over the up-links, and the same streams give the same choices.
 */
class SwitchLbAdaptiveTieTestCase : public TestCase
{
  public:
    SwitchLbAdaptiveTieTestCase()
        : TestCase("Adaptive forwarding breaks ties at random from the switch's stream")
    {
    }

  private:
    /**
     * One flow of 60 datagrams 5 us apart.
     * \return the up-link of each datagram
     */
    static std::vector<uint32_t> Run()
    {
        Ptr<ClosFabric> f = SmallFabric("ns3::AdaptivePortSelector");
        UplinkLog up(f);
        for (uint32_t i = 0; i < 60; i++)
        {
            Simulator::Schedule(MicroSeconds(5 * (i + 1)), &Send, f, 0, 2, 1000);
        }
        Simulator::Run();
        std::vector<uint32_t> ports;
        for (const Uplinked& u : up.log)
        {
            ports.push_back(u.port);
        }
        Simulator::Destroy();
        return ports;
    }

    void DoRun() override
    {
        std::vector<uint32_t> a = Run();
        NS_TEST_ASSERT_MSG_EQ(a.size(), 60, "every datagram went up");
        std::map<uint32_t, uint32_t> perPort;
        for (uint32_t p : a)
        {
            perPort[p]++;
        }
        NS_TEST_ASSERT_MSG_EQ(perPort.size(), 2, "both up-links used by one flow");
        for (const auto& [port, n] : perPort)
        {
            // Binomial(60, 1/2): below 15 with probability about 1e-4.
            NS_TEST_ASSERT_MSG_GT_OR_EQ(n, 15u, "up-link " << port << " gets its share");
        }
        NS_TEST_ASSERT_MSG_EQ((Run() == a), true, "the same streams give the same choices");
    }
};

/**
 * \ingroup reps-test
 * DLB: the quality rule, a new flowlet on the port of best quality, a live flowlet that stays
 * on its port, and aging: a gap longer than the flowlet timeout starts a new flowlet.
 */
class SwitchLbDlbQualityTestCase : public TestCase
{
  public:
    SwitchLbDlbQualityTestCase()
        : TestCase("DLB: new flowlets take the port of best quality; live flowlets stay")
    {
    }

  private:
    void DoRun() override
    {
        // The rule: 8 levels, equal weights.
        NS_TEST_ASSERT_MSG_EQ(DlbPortSelector::Quality(0, 0, 8, 1, 1), 0, "idle");
        NS_TEST_ASSERT_MSG_EQ(DlbPortSelector::Quality(1.0, 1.0, 8, 1, 1),
                              7,
                              "busy and a full delay range: the worst level");
        NS_TEST_ASSERT_MSG_EQ(DlbPortSelector::Quality(1.0, 0, 8, 1, 1),
                              4,
                              "busy, no queueing delay: half way (7 / 2 rounded up)");
        NS_TEST_ASSERT_MSG_EQ(DlbPortSelector::Quality(1.0, 0, 8, 1, 0), 7, "load only");
        NS_TEST_ASSERT_MSG_EQ(DlbPortSelector::Quality(1.0, 0, 8, 0, 1), 0, "delay only");
        NS_TEST_ASSERT_MSG_EQ(DlbPortSelector::Quality(3.0, 5.0, 8, 1, 1),
                              7,
                              "saturates at the top level");
        NS_TEST_ASSERT_MSG_EQ(DlbPortSelector::Quality(0.5, 0, 4, 1, 0),
                              2,
                              "half load of 4 levels");
        NS_TEST_ASSERT_MSG_EQ(DlbPortSelector::Quality(0, 0.3, 8, 1, 3),
                              2,
                              "weights: (0 + 3 x 2 + 2) / 4");

        Ptr<ClosFabric> f = SmallFabric("ns3::DlbPortSelector");
        Ptr<DlbPortSelector> lb = SelectorOf<DlbPortSelector>(f->GetLeaf(0));
        UplinkLog up(f);
        Sink sink(f, {2, 3});
        // Flow A (host 0, port 1000): 100 datagrams back to back at the line rate, from 10 us.
        const Time gap = NanoSeconds(830);
        for (uint32_t i = 0; i < 100; i++)
        {
            Simulator::Schedule(MicroSeconds(10) + gap * i, &Send, f, 0, 2, 1000);
        }
        // Flow B (host 1) starts 40 us later, while A's up-link is fully loaded.
        for (uint32_t i = 0; i < 20; i++)
        {
            Simulator::Schedule(MicroSeconds(50) + gap * i, &Send, f, 1, 3, 3000);
        }
        // A again after 100 us of silence: a new flowlet.
        Simulator::Schedule(MicroSeconds(200), &Send, f, 0, 2, 1000);
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(sink.received, 121, "every datagram delivered");
        std::set<uint32_t> portsA;
        std::set<uint32_t> portsB;
        for (const Uplinked& u : up.log)
        {
            if (u.at < MicroSeconds(150))
            {
                (u.dst == 2 ? portsA : portsB).insert(u.port);
            }
        }
        NS_TEST_ASSERT_MSG_EQ(portsA.size(), 1, "flow A's live flowlet stays on one port");
        NS_TEST_ASSERT_MSG_EQ(portsB.size(), 1, "flow B's live flowlet stays on one port");
        NS_TEST_ASSERT_MSG_NE(*portsA.begin(),
                              *portsB.begin(),
                              "B's flowlet avoids the up-link loaded by A");
        const DlbPortSelector::Counters& c = lb->GetCounters();
        NS_TEST_ASSERT_MSG_EQ(c.flowlets, 3, "A, B, and A after its idle gap");
        NS_TEST_ASSERT_MSG_EQ(c.collisions, 0, "no collisions in 4096 buckets");
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * DLB: a flow whose bucket holds another flow's live flowlet takes the flow-hash port, and the
 * collision is counted; with a large table there is none.
 */
class SwitchLbDlbCollisionTestCase : public TestCase
{
  public:
    SwitchLbDlbCollisionTestCase()
        : TestCase("DLB: a bucket collision falls back to the flow hash and is counted")
    {
    }

  private:
    /**
     * 64 flows from hosts 0 and 1, 5 datagrams each, round robin (each host sends at its line
     * rate, so a flow's datagrams are 26 us apart: within the 50 us flowlet timeout used here).
     * \param tableSize FlowletTableSize
     * \param counters filled with leaf 0's counters
     * \param onePort filled with the number of flows whose datagrams all took one up-link
     * \return datagrams delivered
     */
    static uint32_t Run(uint32_t tableSize, DlbPortSelector::Counters& counters, uint32_t& onePort)
    {
        Ptr<ClosFabric> f = SmallFabric("ns3::DlbPortSelector", tableSize, MicroSeconds(50));
        Ptr<DlbPortSelector> lb = SelectorOf<DlbPortSelector>(f->GetLeaf(0));
        UplinkLog up(f);
        Sink sink(f, {2, 3});
        for (uint32_t k = 0; k < 5; k++)
        {
            for (uint16_t flow = 0; flow < 64; flow++)
            {
                uint32_t src = flow % 2;
                Simulator::Schedule(MicroSeconds(1) + NanoSeconds(10) * (k * 64 + flow),
                                    &Send,
                                    f,
                                    src,
                                    src + 2,
                                    static_cast<uint16_t>(1000 + flow));
            }
        }
        Simulator::Run();
        counters = lb->GetCounters();
        std::map<uint16_t, std::set<uint32_t>> ports;
        for (const Uplinked& u : up.log)
        {
            ports[u.srcPort].insert(u.port);
        }
        onePort = 0;
        for (const auto& [sport, set] : ports)
        {
            onePort += set.size() == 1 ? 1 : 0;
        }
        uint32_t n = sink.received;
        Simulator::Destroy();
        return n;
    }

    void DoRun() override
    {
        DlbPortSelector::Counters c;
        uint32_t onePort = 0;
        NS_TEST_ASSERT_MSG_EQ(Run(16, c, onePort), 320, "16 buckets: every datagram delivered");
        NS_TEST_ASSERT_MSG_GT(c.collisions, 0u, "64 live flows in 16 buckets collide");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(c.flowlets,
                                    16u,
                                    "a bucket's flowlet stays live: one flowlet per bucket");
        NS_TEST_ASSERT_MSG_EQ((c.collisions + c.flowlets <= 320), true, "each datagram once");
        NS_TEST_ASSERT_MSG_EQ(onePort, 64, "colliding flows keep their hash port");
        NS_TEST_ASSERT_MSG_EQ(Run(1048576, c, onePort), 320, "1M buckets: all delivered");
        NS_TEST_ASSERT_MSG_EQ(c.collisions, 0, "1M buckets: no collision among 64 flows");
        NS_TEST_ASSERT_MSG_EQ(c.flowlets, 64, "1M buckets: one flowlet per flow");
        NS_TEST_ASSERT_MSG_EQ(onePort, 64, "live flowlets keep their port");
    }
};

/**
 * \ingroup reps-test
 * GLB: the metric a packet carries is the worst hop of its path; the destination leaf stores
 * it per (source leaf, up-link) and a packet going back carries it to the source leaf's
 * congestion-to-leaf table; entries age out.
 */
class SwitchLbGlbPropagationTestCase : public TestCase
{
  public:
    SwitchLbGlbPropagationTestCase()
        : TestCase("GLB: path metrics travel in the packets and come back on reverse traffic")
    {
    }

  private:
    /**
     * Forward trace of leaf 1: the GLB fields of the packets from leaf 0.
     * \param p the packet
     * \param ip its IPv4 header
     * \param in ingress port
     * \param out egress port
     */
    void AtLeaf1(Ptr<const Packet> p, const Ipv4Header& ip, uint32_t in, uint32_t out)
    {
        if (ip.GetDestination() == m_fabric->GetHostAddress(2))
        {
            m_fields.push_back(GlbPortSelector::DecodeGlb(ip.GetIdentification()));
            m_fromLeaf0 = m_leaf1->GetCongestionFromLeaf(0, m_fields.back().upLink);
        }
    }

    /// Read leaf 0's congestion-to-leaf-1 entries.
    void ReadLeaf0()
    {
        m_toLeaf1.clear();
        for (uint32_t u = 0; u < 2; u++)
        {
            m_toLeaf1.push_back(m_leaf0->GetCongestionToLeaf(1, u));
        }
    }

    void DoRun() override
    {
        GlbPortSelector::GlbFields f;
        f.upLink = 17;
        f.metric = 5;
        f.fbUpLink = 3;
        f.fbMetric = 6;
        GlbPortSelector::GlbFields g = GlbPortSelector::DecodeGlb(GlbPortSelector::EncodeGlb(f));
        NS_TEST_ASSERT_MSG_EQ(g.upLink, 17, "up-link field round trip");
        NS_TEST_ASSERT_MSG_EQ(g.metric, 5, "metric field round trip");
        NS_TEST_ASSERT_MSG_EQ(g.fbUpLink, 3, "feedback up-link round trip");
        NS_TEST_ASSERT_MSG_EQ(g.fbMetric, 6, "feedback metric round trip");

        m_fabric = SmallFabric("ns3::GlbPortSelector");
        m_leaf0 = SelectorOf<GlbPortSelector>(m_fabric->GetLeaf(0));
        m_leaf1 = SelectorOf<GlbPortSelector>(m_fabric->GetLeaf(1));
        // Both spines' down-links to leaf 1 at 1 Gb/s: whichever spine the flowlet takes, its
        // last hop is busy after the first packet.
        for (uint32_t spine = 0; spine < 2; spine++)
        {
            m_fabric->GetLinkDevice(m_fabric->GetLeafSpineLink(1, spine), 1)
                ->SetDataRate(DataRate("1Gbps"));
        }
        m_fabric->GetLeaf(1)->GetObject<FabricSwitch>()->TraceConnectWithoutContext(
            "Forward",
            MakeCallback(&SwitchLbGlbPropagationTestCase::AtLeaf1, this));
        Sink sink(m_fabric, {0, 2});
        for (uint32_t i = 0; i < 4; i++)
        {
            Simulator::Schedule(MicroSeconds(1) + NanoSeconds(830) * i,
                                &Send,
                                m_fabric,
                                0,
                                2,
                                1000);
        }
        // Before any packet goes back, leaf 0 knows nothing.
        Simulator::Schedule(MicroSeconds(40), &SwitchLbGlbPropagationTestCase::ReadLeaf0, this);
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(m_fields.size(), 4, "four packets reached leaf 1");
        NS_TEST_ASSERT_MSG_EQ(m_toLeaf1[0] + m_toLeaf1[1],
                              -2,
                              "no feedback without reverse traffic");
        uint32_t u = m_fields.back().upLink;
        NS_TEST_ASSERT_MSG_LT(u, 2, "the source leaf wrote its up-link");
        NS_TEST_ASSERT_MSG_EQ(m_fields.front().metric, 0, "the first packet found the path idle");
        NS_TEST_ASSERT_MSG_GT(m_fields.back().metric,
                              0u,
                              "the last packet carries the busy 1 Gb/s down-link's metric");
        NS_TEST_ASSERT_MSG_EQ(m_fromLeaf0,
                              static_cast<int32_t>(m_fields.back().metric),
                              "leaf 1 stored the metric for (leaf 0, up-link)");
        uint32_t carried = m_fields.back().metric;
        Simulator::Destroy();

        // The same, then host 2 answers: the answer carries the entry back to leaf 0, which
        // forgets it after GlbAgingTime (50 us).
        m_fields.clear();
        m_fabric = SmallFabric("ns3::GlbPortSelector");
        m_leaf0 = SelectorOf<GlbPortSelector>(m_fabric->GetLeaf(0));
        m_leaf1 = SelectorOf<GlbPortSelector>(m_fabric->GetLeaf(1));
        for (uint32_t spine = 0; spine < 2; spine++)
        {
            m_fabric->GetLinkDevice(m_fabric->GetLeafSpineLink(1, spine), 1)
                ->SetDataRate(DataRate("1Gbps"));
        }
        m_fabric->GetLeaf(1)->GetObject<FabricSwitch>()->TraceConnectWithoutContext(
            "Forward",
            MakeCallback(&SwitchLbGlbPropagationTestCase::AtLeaf1, this));
        Sink sink2(m_fabric, {0, 2});
        for (uint32_t i = 0; i < 4; i++)
        {
            Simulator::Schedule(MicroSeconds(1) + NanoSeconds(830) * i,
                                &Send,
                                m_fabric,
                                0,
                                2,
                                1000);
        }
        // The four packets reach leaf 1 by about 40 us (the 1 Gb/s hop takes 8.2 us each).
        Simulator::Schedule(MicroSeconds(60), &Send, m_fabric, 2, 0, 7000);
        Simulator::Schedule(MicroSeconds(80), &SwitchLbGlbPropagationTestCase::ReadLeaf0, this);
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(m_fields.back().upLink, u, "same choice with the same streams");
        NS_TEST_ASSERT_MSG_EQ(m_toLeaf1[u],
                              static_cast<int32_t>(carried),
                              "leaf 0 learnt the metric of its up-link toward leaf 1");
        NS_TEST_ASSERT_MSG_EQ(m_toLeaf1[1 - u], -1, "and nothing of the other up-link");
        NS_TEST_ASSERT_MSG_EQ(m_leaf0->GetFeedbackCount(), 1, "one feedback entry");
        NS_TEST_ASSERT_MSG_EQ(sink2.received, 5, "every datagram delivered");
        Simulator::Destroy();

        m_fields.clear();
        m_fabric = SmallFabric("ns3::GlbPortSelector");
        m_leaf0 = SelectorOf<GlbPortSelector>(m_fabric->GetLeaf(0));
        m_leaf1 = SelectorOf<GlbPortSelector>(m_fabric->GetLeaf(1));
        Sink sink3(m_fabric, {0, 2});
        for (uint32_t i = 0; i < 4; i++)
        {
            Simulator::Schedule(MicroSeconds(1) + NanoSeconds(830) * i,
                                &Send,
                                m_fabric,
                                0,
                                2,
                                1000);
        }
        Simulator::Schedule(MicroSeconds(10), &Send, m_fabric, 2, 0, 7000);
        Simulator::Schedule(MicroSeconds(100), &SwitchLbGlbPropagationTestCase::ReadLeaf0, this);
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(m_toLeaf1[0] + m_toLeaf1[1], -2, "entries age out after 50 us");
        NS_TEST_ASSERT_MSG_EQ(m_leaf0->GetFeedbackCount(), 1, "it had been learnt");
        Simulator::Destroy();
        m_fabric = nullptr;
        m_leaf0 = nullptr;
        m_leaf1 = nullptr;
    }

    Ptr<ClosFabric> m_fabric;                         //!< The fabric.
    Ptr<GlbPortSelector> m_leaf0;                     //!< Leaf 0's port selector.
    Ptr<GlbPortSelector> m_leaf1;                     //!< Leaf 1's port selector.
    std::vector<GlbPortSelector::GlbFields> m_fields; //!< Fields seen at leaf 1.
    int32_t m_fromLeaf0{-1};                          //!< Leaf 1's entry after the last packet.
    std::vector<int32_t> m_toLeaf1;                   //!< Leaf 0's entries, when read.
};

/**
 * \ingroup reps-test
 * GLB avoids a degraded spine down-link (spine 0 to leaf 1 at 1 Gb/s, the rest at 10 Gb/s)
 * that leaf 0's DLB cannot see: its up-link to spine 0 is idle between bursts.
 */
class SwitchLbGlbAvoidsDegradedTestCase : public TestCase
{
  public:
    SwitchLbGlbAvoidsDegradedTestCase()
        : TestCase("GLB avoids a degraded spine down-link that leaf-local DLB cannot see")
    {
    }

  private:
    /**
     * 60 bursts of 4 datagrams from host 0 to host 2 (a new flow each, 20 us apart), each
     * answered by host 2.
     * \param selector ns3::DlbPortSelector or ns3::GlbPortSelector
     * \param delivered filled with the datagrams delivered
     * \return the datagrams leaf 0 sent to spine 0
     */
    static uint64_t Run(const std::string& selector, uint32_t& delivered)
    {
        // Entries live 200 us: GLB tries the degraded path again about every 10 bursts.
        Ptr<ClosFabric> f = SmallFabric(selector, 4096, MicroSeconds(8), MicroSeconds(200));
        f->GetLinkDevice(f->GetLeafSpineLink(1, 0), 1)->SetDataRate(DataRate("1Gbps"));
        Sink sink(f, {0, 2});
        for (uint32_t k = 0; k < 60; k++)
        {
            Time t = MicroSeconds(1 + 20 * k);
            for (uint32_t i = 0; i < 4; i++)
            {
                Simulator::Schedule(t + NanoSeconds(830) * i,
                                    &Send,
                                    f,
                                    0,
                                    2,
                                    static_cast<uint16_t>(1000 + k));
            }
            Simulator::Schedule(t + MicroSeconds(12), &Send, f, 2, 0, 7000);
        }
        Simulator::Run();
        uint64_t viaSpine0 = f->GetLinkCounters(f->GetLeafSpineLink(0, 0), 0).packets;
        delivered = sink.received;
        Simulator::Destroy();
        return viaSpine0;
    }

    void DoRun() override
    {
        uint32_t delivered = 0;
        uint64_t dlb = Run("ns3::DlbPortSelector", delivered);
        NS_TEST_ASSERT_MSG_EQ(delivered, 300, "DLB: every datagram delivered");
        uint64_t glb = Run("ns3::GlbPortSelector", delivered);
        NS_TEST_ASSERT_MSG_EQ(delivered, 300, "GLB: every datagram delivered");
        NS_TEST_ASSERT_MSG_GT_OR_EQ(dlb, 60u, "DLB sends a fair share over the degraded spine");
        NS_TEST_ASSERT_MSG_LT(2 * glb, dlb, "GLB sends less than half as much over it");
    }
};

/**
 * \ingroup reps-test
 * UEC trimming: a RoCEv2 data packet that does not fit is cut to TrimSize bytes (IPv4 header
 * included) with the trimmed DSCP and the BTH's trimmed bit; header trimming is unchanged;
 * end to end, a run with UEC trimming delivers every flow like header trimming.
 */
class SwitchLbUecTrimTestCase : public TestCase
{
  public:
    SwitchLbUecTrimTestCase()
        : TestCase("EcnQueueDisc: UEC trimming to TrimSize bytes with the trimmed DSCP")
    {
    }

  private:
    /**
     * A RoCEv2 data packet.
     * \return the item
     */
    static Ptr<Ipv4QueueDiscItem> Data()
    {
        Ptr<Packet> p = Create<Packet>(1000);
        RoceBthHeader bth;
        bth.SetOpCode(RoceBthHeader::RC_SEND_MIDDLE);
        bth.SetPsn(77);
        p->AddHeader(bth);
        UdpHeader udp;
        udp.SetSourcePort(49152);
        udp.SetDestinationPort(RoceBthHeader::UDP_PORT);
        p->AddHeader(udp);
        Ipv4Header ip;
        ip.SetSource(Ipv4Address("10.0.0.1"));
        ip.SetDestination(Ipv4Address("10.0.0.2"));
        ip.SetProtocol(17);
        ip.SetPayloadSize(p->GetSize());
        ip.SetTtl(64);
        ip.SetEcn(Ipv4Header::ECN_ECT0);
        return Create<Ipv4QueueDiscItem>(p, Address(), 0x0800, ip);
    }

    /**
     * Fill a queue and trim one more packet.
     * \param mode TrimMode
     * \param size TrimSize
     * \return the trimmed item
     */
    static Ptr<Ipv4QueueDiscItem> TrimOne(EcnQueueDisc::TrimMode mode, uint32_t size)
    {
        Ptr<EcnQueueDisc> q = CreateObject<EcnQueueDisc>();
        q->SetAttribute("MaxSize", QueueSizeValue(QueueSize("10p")));
        q->SetAttribute("Kmin", QueueSizeValue(QueueSize("2p")));
        q->SetAttribute("Kmax", QueueSizeValue(QueueSize("8p")));
        q->SetAttribute("Trimming", BooleanValue(true));
        q->SetAttribute("TrimMode", EnumValue(mode));
        q->SetAttribute("TrimSize", UintegerValue(size));
        q->Initialize();
        for (uint32_t i = 0; i < 10; i++)
        {
            q->Enqueue(Data());
        }
        Ptr<QueueDiscItem> t = q->PrepareEnqueue(Data());
        q->Enqueue(t);
        Ptr<Ipv4QueueDiscItem> first = DynamicCast<Ipv4QueueDiscItem>(q->Dequeue());
        q->Dispose();
        return first;
    }

    void DoRun() override
    {
        Ptr<Ipv4QueueDiscItem> h = TrimOne(EcnQueueDisc::TRIM_HEADER, 64);
        NS_TEST_ASSERT_MSG_EQ(h->GetPacket()->GetSize(), 24, "header: UDP + BTH + ICRC");
        NS_TEST_ASSERT_MSG_EQ(h->GetHeader().GetDscp(), 0, "header: DSCP kept");
        for (uint32_t size : {64u, 44u, 300u})
        {
            Ptr<Ipv4QueueDiscItem> u = TrimOne(EcnQueueDisc::TRIM_UEC, size);
            NS_TEST_ASSERT_MSG_EQ(u->GetPacket()->GetSize() + 20, size, "uec: TrimSize bytes");
            NS_TEST_ASSERT_MSG_EQ(u->GetHeader().GetPayloadSize(),
                                  size - 20,
                                  "uec: IPv4 length fixed");
            NS_TEST_ASSERT_MSG_EQ(u->GetHeader().GetDscp(), 46, "uec: the trimmed DSCP");
            NS_TEST_ASSERT_MSG_EQ(u->GetHeader().GetEcn(), Ipv4Header::ECN_ECT0, "ECN kept");
            Ptr<Packet> p = u->GetPacket()->Copy();
            UdpHeader udp;
            p->RemoveHeader(udp);
            NS_TEST_ASSERT_MSG_EQ(udp.GetSourcePort(), 49152, "entropy kept");
            uint8_t raw[8];
            u->GetPacket()->CopyData(raw, 8);
            NS_TEST_ASSERT_MSG_EQ(static_cast<uint32_t>(raw[4] << 8 | raw[5]),
                                  size - 20,
                                  "UDP length field");
            RoceBthHeader bth;
            p->RemoveHeader(bth);
            NS_TEST_ASSERT_MSG_EQ(bth.IsTrimmed(), true, "BTH trimmed mark");
            NS_TEST_ASSERT_MSG_EQ(bth.GetPsn(), 77, "PSN kept");
        }
        Ptr<EcnQueueDisc> q = CreateObject<EcnQueueDisc>();
        NS_TEST_ASSERT_MSG_EQ(q->SetAttributeFailSafe("TrimSize", UintegerValue(43)),
                              false,
                              "TrimSize below the headers");
        NS_TEST_ASSERT_MSG_EQ(q->SetAttributeFailSafe("TrimmedDscp", UintegerValue(64)),
                              false,
                              "TrimmedDscp above 63");
        q->Dispose();

        // End to end: an incast that overflows, trimmed both ways, every flow completes.
        for (const char* mode : {"header", "uec"})
        {
            FabricExperiment e;
            e.lb = "ops";
            e.leaves = 2;
            e.hostsPerLeaf = 4;
            e.spines = 2;
            e.pattern = "incast";
            e.incastSenders = 4;
            e.flowSize = "256KiB";
            e.Set("queuePackets", "20");
            e.Set("ecnKmin", "5");
            e.Set("ecnKmax", "15");
            e.trim = true;
            e.Set("trimMode", mode);
            e.quiet = true;
            e.Check();
            RunResult r = e.Run(e.GetSelectors()[0]);
            NS_TEST_ASSERT_MSG_EQ(r.flows.GetCompletedCount(),
                                  r.flows.GetFlowCount(),
                                  mode << ": every flow completes");
            NS_TEST_ASSERT_MSG_GT(r.trims, 0u, mode << ": packets were trimmed");
            NS_TEST_ASSERT_MSG_EQ(r.drops, 0, mode << ": nothing dropped");
        }
    }
};

/**
 * \ingroup reps-test
 * Attributes of the port selectors refuse values out of range; each lives once, on the class
 * that uses it (GLB has DLB's flowlet and quality attributes, DLB has no GLB attribute); the
 * helper refuses a type, an attribute or a value through Validate().
 */
class SwitchLbAttributeTestCase : public TestCase
{
  public:
    SwitchLbAttributeTestCase()
        : TestCase("Port selectors: attributes out of range are refused")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<DlbPortSelector> lb = CreateObject<DlbPortSelector>();
        NS_TEST_ASSERT_MSG_EQ(
            lb->SetAttributeFailSafe("FlowletTimeout", TimeValue(NanoSeconds(999))),
            false,
            "FlowletTimeout below 1 us");
        NS_TEST_ASSERT_MSG_EQ(
            lb->SetAttributeFailSafe("FlowletTimeout", TimeValue(MicroSeconds(51))),
            false,
            "FlowletTimeout above 50 us");
        NS_TEST_ASSERT_MSG_EQ(
            lb->SetAttributeFailSafe("FlowletTimeout", TimeValue(MicroSeconds(50))),
            true,
            "FlowletTimeout of 50 us");
        NS_TEST_ASSERT_MSG_EQ(lb->SetAttributeFailSafe("FlowletTableSize", UintegerValue(15)),
                              false,
                              "FlowletTableSize below 16");
        NS_TEST_ASSERT_MSG_EQ(lb->SetAttributeFailSafe("QualityLevels", UintegerValue(1)),
                              false,
                              "QualityLevels below 2");
        NS_TEST_ASSERT_MSG_EQ(lb->SetAttributeFailSafe("LoadWeight", UintegerValue(101)),
                              false,
                              "LoadWeight above 100");
        NS_TEST_ASSERT_MSG_EQ(
            lb->SetAttributeFailSafe("LoadTimeConstant", TimeValue(NanoSeconds(10))),
            false,
            "LoadTimeConstant below 100 ns");
        NS_TEST_ASSERT_MSG_EQ(
            lb->SetAttributeFailSafe("LoadTimeConstant", TimeValue(MicroSeconds(2))),
            true,
            "LoadTimeConstant of 2 us");
        NS_TEST_ASSERT_MSG_EQ(lb->GetPortLoad().GetLoadTimeConstant(),
                              MicroSeconds(2),
                              "LoadTimeConstant reaches the port-load monitor");
        NS_TEST_ASSERT_MSG_EQ(lb->SetAttributeFailSafe("DelayRange", TimeValue(NanoSeconds(9))),
                              false,
                              "DelayRange below 10 ns");
        NS_TEST_ASSERT_MSG_EQ(lb->SetAttributeFailSafe("GlbAgingTime", TimeValue(MicroSeconds(5))),
                              false,
                              "DLB has no GLB attribute");
        lb->Dispose();

        Ptr<GlbPortSelector> glb = CreateObject<GlbPortSelector>();
        NS_TEST_ASSERT_MSG_EQ(
            glb->SetAttributeFailSafe("GlbAgingTime", TimeValue(MilliSeconds(11))),
            false,
            "GlbAgingTime above 10 ms");
        NS_TEST_ASSERT_MSG_EQ(
            glb->SetAttributeFailSafe("FlowletTimeout", TimeValue(MicroSeconds(20))),
            true,
            "GLB has DLB's FlowletTimeout");
        glb->Dispose();

        Ptr<AdaptivePortSelector> adaptive = CreateObject<AdaptivePortSelector>();
        NS_TEST_ASSERT_MSG_EQ(
            adaptive->SetAttributeFailSafe("FlowletTimeout", TimeValue(MicroSeconds(20))),
            false,
            "adaptive forwarding has no flowlet attribute");
        adaptive->Dispose();

        // The helper refuses a bad selector through Validate(), naming what is wrong.
        auto refused = [](std::function<void(Ptr<ClosFabricHelper>)> configure) {
            Ptr<ClosFabricHelper> h = CreateObject<ClosFabricHelper>();
            configure(h);
            return h->Validate();
        };
        std::string error =
            refused([](Ptr<ClosFabricHelper> h) { h->SetPortSelector("ns3::EcmpPathSelector"); });
        NS_TEST_ASSERT_MSG_NE(error.find("not a constructible subclass of ns3::PortSelector"),
                              std::string::npos,
                              error);
        error = refused([](Ptr<ClosFabricHelper> h) {
            h->SetPortSelector("ns3::DlbPortSelector", "FlowletTimeout", TimeValue(Seconds(1)));
        });
        NS_TEST_ASSERT_MSG_NE(error.find("ns3::DlbPortSelector::FlowletTimeout = +1e+09ns is out of range"),
                              std::string::npos,
                              error);
        error = refused([](Ptr<ClosFabricHelper> h) {
            h->SetPortSelector("ns3::DlbPortSelector");
            h->SetPortSelectorAttribute("GlbAgingTime", TimeValue(MicroSeconds(20)));
        });
        NS_TEST_ASSERT_MSG_NE(error.find("ns3::DlbPortSelector has no attribute GlbAgingTime"),
                              std::string::npos,
                              error);
        error = refused([](Ptr<ClosFabricHelper> h) {
            h->SetPortSelector("ns3::GlbPortSelector", "GlbAgingTime", TimeValue(MicroSeconds(20)));
            h->SetPortSelectorAttribute("FlowletTableSize", UintegerValue(64));
        });
        NS_TEST_ASSERT_MSG_EQ(error, "", "GLB with its own and DLB's attributes");
    }
};

/**
 * \ingroup reps-test
 * The PortSelector contract, without a fabric: Pick() takes a set of one port as is (no draw,
 * no DoPick()), fires PortChosen for every packet, hashes to Flow::hashPort, and a random
 * choice is uniform and follows the selector's stream.
 */
class SwitchLbPickTestCase : public TestCase
{
  public:
    SwitchLbPickTestCase()
        : TestCase("PortSelector: Pick() of one port, the hash port, random picks and the trace")
    {
    }

  private:
    /**
     * PortChosen sink.
     * \param port the port
     * \param candidates the number of equal-cost ports
     * \param flow the flow
     */
    void Chosen(uint32_t port, uint32_t candidates, const PortSelector::Flow& flow)
    {
        m_chosen.push_back(port);
        m_candidates += candidates;
    }

    /**
     * \param stream the stream of a RandomPortSelector
     * \return its picks among ports 4, 6 and 9 for 300 packets
     */
    static std::vector<uint32_t> RandomPicks(int64_t stream)
    {
        Ptr<PortSelector> random = CreateObject<RandomPortSelector>();
        NS_ABORT_MSG_IF(random->AssignStreams(stream) != 1, "one stream");
        const uint32_t ports[] = {4, 6, 9};
        PortSelector::Flow flow;
        flow.hashPort = 6;
        std::vector<uint32_t> picks;
        for (uint32_t i = 0; i < 300; i++)
        {
            picks.push_back(random->Pick(ports, 3, flow));
        }
        random->Dispose();
        return picks;
    }

    void DoRun() override
    {
        Ptr<PortSelector> hash = CreateObject<HashPortSelector>();
        hash->TraceConnectWithoutContext("PortChosen",
                                         MakeCallback(&SwitchLbPickTestCase::Chosen, this));
        const uint32_t ports[] = {3, 5, 7};
        PortSelector::Flow flow;
        flow.hashPort = 7;
        NS_TEST_ASSERT_MSG_EQ(hash->Pick(ports, 3, flow), 7, "hash: the flow-hash port");
        NS_TEST_ASSERT_MSG_EQ(hash->Pick(ports + 1, 1, flow), 5, "one port: taken as is");
        NS_TEST_ASSERT_MSG_EQ(m_chosen.size(), 2, "PortChosen for every packet");
        NS_TEST_ASSERT_MSG_EQ(m_candidates, 4, "PortChosen: the number of candidates");
        hash->Dispose();

        std::vector<uint32_t> a = RandomPicks(7);
        std::map<uint32_t, uint32_t> perPort;
        for (uint32_t p : a)
        {
            perPort[p]++;
        }
        NS_TEST_ASSERT_MSG_EQ(perPort.size(), 3, "random: every port");
        for (const auto& [port, n] : perPort)
        {
            // Binomial(300, 1/3): below 70 with probability about 1e-4.
            NS_TEST_ASSERT_MSG_GT(n, 70u, "random: port " << port << " gets its share");
        }
        NS_TEST_ASSERT_MSG_EQ((RandomPicks(7) == a), true, "random: the same stream, the same");
        NS_TEST_ASSERT_MSG_EQ((RandomPicks(8) != a), true, "random: another stream, others");
    }

    std::vector<uint32_t> m_chosen; //!< Ports chosen.
    uint32_t m_candidates{0};       //!< Sum of the candidates of every choice.
};

/**
 * \ingroup reps-test
 * The selector of examples/reps-custom-switch-lb.cc, written outside the module: found by its
 * word and its TypeId, installed by the helper on every switch, it spreads two colliding flows
 * over the up-links and delivers every datagram; a FabricExperiment with --forwarding=drill
 * completes every flow.
 */
class SwitchLbCustomSelectorTestCase : public TestCase
{
  public:
    SwitchLbCustomSelectorTestCase()
        : TestCase("A port selector written outside the module runs by its TypeId")
    {
    }

  private:
    void DoRun() override
    {
        TypeId tid;
        std::string error;
        NS_TEST_ASSERT_MSG_EQ(PortSelectorNames::Lookup("drill", tid, error), true, error);
        NS_TEST_ASSERT_MSG_EQ(tid, DrillPortSelector::GetTypeId(), "found by its word");
        NS_TEST_ASSERT_MSG_EQ(PortSelectorNames::Lookup("ns3::DrillPortSelector", tid, error),
                              true,
                              error);

        Ptr<ClosFabric> f = SmallFabric("ns3::DrillPortSelector");
        for (uint32_t i = 0; i < f->GetSwitches().GetN(); i++)
        {
            NS_TEST_ASSERT_MSG_NE(SelectorOf<DrillPortSelector>(f->GetSwitches().Get(i)),
                                  nullptr,
                                  "every switch has its own");
        }
        Ptr<FabricSwitch> leaf = f->GetLeaf(0)->GetObject<FabricSwitch>();
        uint32_t target =
            leaf->GetFlowHashPort(f->GetHostAddress(0), f->GetHostAddress(2), 17, 1000, 5000);
        uint16_t collide = 2000;
        while (
            leaf->GetFlowHashPort(f->GetHostAddress(1), f->GetHostAddress(3), 17, collide, 5000) !=
            target)
        {
            collide++;
        }
        UplinkLog up(f);
        Sink sink(f, {2, 3});
        for (uint32_t i = 0; i < 50; i++)
        {
            Simulator::Schedule(MicroSeconds(1) + NanoSeconds(830) * i, &Send, f, 0, 2, 1000);
            Simulator::Schedule(MicroSeconds(1) + NanoSeconds(830) * i, &Send, f, 1, 3, collide);
        }
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(sink.received, 100, "every datagram delivered");
        std::map<uint32_t, uint32_t> perPort;
        for (const Uplinked& u : up.log)
        {
            perPort[u.port]++;
        }
        NS_TEST_ASSERT_MSG_EQ(perPort.size(), 2, "both up-links used");
        for (const auto& [port, n] : perPort)
        {
            NS_TEST_ASSERT_MSG_GT(n, 30u, "up-link " << port << " carries its share");
        }
        Simulator::Destroy();

        FabricExperiment e;
        e.lb = "ecmp";
        e.leaves = 2;
        e.hostsPerLeaf = 4;
        e.spines = 2;
        e.flowSize = "128KiB";
        e.forwarding = "drill";
        e.quiet = true;
        e.Check();
        RunResult r = e.Run(e.GetSelectors()[0]);
        NS_TEST_ASSERT_MSG_EQ(r.flows.GetCompletedCount(), 8, "every flow completes");
    }
};

/**
 * \ingroup reps-test
 * On a permutation with ECMP entropy values (one path per queue pair), switch-side DLB and
 * per-packet adaptive forwarding finish the last flow sooner than hash ECMP.
 */
class SwitchLbPermutationTestCase : public TestCase
{
  public:
    SwitchLbPermutationTestCase()
        : TestCase("DLB and adaptive forwarding beat hash ECMP on a permutation (ECMP EVs)")
    {
    }

  private:
    /**
     * \param forwarding --forwarding
     * \return the FCT summary (us)
     */
    static SampleSummary Run(const std::string& forwarding)
    {
        FabricExperiment e;
        e.lb = "ecmp";
        // Two leaves: every collision a leaf can avoid is at its own up-links (DLB is local to
        // the leaf; it cannot see a spine's down-link to another leaf).
        e.leaves = 2;
        e.hostsPerLeaf = 8;
        e.spines = 8;
        e.flowSize = "512KiB";
        e.forwarding = forwarding;
        e.quiet = true;
        e.Check();
        RunResult r = e.Run(e.GetSelectors()[0]);
        NS_ABORT_MSG_IF(r.flows.GetCompletedCount() != 16, "every flow completes");
        return r.flows.GetFctSummaryUs();
    }

    void DoRun() override
    {
        SampleSummary hash = Run("hash");
        SampleSummary dlb = Run("dlb");
        SampleSummary adaptive = Run("adaptive");
        NS_TEST_ASSERT_MSG_LT(dlb.max, hash.max, "DLB: the slowest flow finishes sooner");
        NS_TEST_ASSERT_MSG_LT(dlb.mean, hash.mean, "DLB: mean FCT below hash ECMP's");
        NS_TEST_ASSERT_MSG_LT(adaptive.max, hash.max, "adaptive: the slowest flow sooner");
        // No flow needs more than about its ideal time: 512 KiB at 400 Gb/s is 10.5 us.
        NS_TEST_ASSERT_MSG_LT(dlb.max, 2 * dlb.min + 5, "DLB: no flow held up by a collision");
    }
};

/**
 * \ingroup reps-test
 * Switch-side load balancing: the port selectors (hash, random, adaptive, DLB, GLB, and one
 * written outside the module).
 */
class RepsSwitchLbTestSuite : public TestSuite
{
  public:
    RepsSwitchLbTestSuite()
        : TestSuite("reps-switch-lb", TestSuite::Type::UNIT)
    {
        AddTestCase(new SwitchLbAdaptiveWireTestCase, reps::kQuick);
        AddTestCase(new SwitchLbAdaptiveTieTestCase, reps::kQuick);
        AddTestCase(new SwitchLbDlbQualityTestCase, reps::kQuick);
        AddTestCase(new SwitchLbDlbCollisionTestCase, reps::kQuick);
        AddTestCase(new SwitchLbGlbPropagationTestCase, reps::kQuick);
        AddTestCase(new SwitchLbGlbAvoidsDegradedTestCase, reps::kQuick);
        AddTestCase(new SwitchLbUecTrimTestCase, reps::kQuick);
        AddTestCase(new SwitchLbAttributeTestCase, reps::kQuick);
        AddTestCase(new SwitchLbPickTestCase, reps::kQuick);
        AddTestCase(new SwitchLbCustomSelectorTestCase, reps::kQuick);
        AddTestCase(new SwitchLbPermutationTestCase, reps::kQuick);
    }
};

/// The suite instance.
static RepsSwitchLbTestSuite g_repsSwitchLbTestSuite;

} // namespace
