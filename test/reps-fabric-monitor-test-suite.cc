/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "reps-test-compat.h"

#include "ns3/boolean.h"
#include "ns3/clos-fabric-helper.h"
#include "ns3/clos-fabric.h"
#include "ns3/fabric-monitor.h"
#include "ns3/inet-socket-address.h"
#include "ns3/ipv4-header.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/test.h"
#include "ns3/udp-l4-protocol.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/uinteger.h"

#include <map>

using namespace ns3;

namespace
{

/// UDP payload of the test datagrams.
constexpr uint32_t PAYLOAD = 1000;
/// Bytes a datagram occupies on a link: payload, UDP, IPv4 and PPP headers.
constexpr uint32_t ON_WIRE = PAYLOAD + 8 + 20 + 2;

/**
 * A 2-tier fabric of 2 leaves x 2 hosts and 2 spines, 10 Gb/s links.
 * \return the fabric
 */
Ptr<ClosFabric>
SmallFabric()
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
    return h->Build();
}

/**
 * Send one ECN-capable UDP datagram of PAYLOAD bytes.
 * \param fabric the fabric
 * \param src source host
 * \param dst destination host
 */
void
Send(Ptr<ClosFabric> fabric, uint32_t src, uint32_t dst)
{
    Ptr<Packet> p = Create<Packet>(PAYLOAD);
    SocketIpTosTag tos;
    tos.SetTos(Ipv4Header::ECN_ECT0);
    p->AddPacketTag(tos);
    fabric->GetHost(src)->GetObject<UdpL4Protocol>()->Send(p,
                                                           fabric->GetHostAddress(src),
                                                           fabric->GetHostAddress(dst),
                                                           5000,
                                                           6000);
}

/**
 * Open a UDP socket on port 6000 of every host, so that the test datagrams are received
 * (not answered with ICMP port-unreachable messages that would add traffic).
 * \param fabric the fabric
 * \return the sockets (keep them until the end of the run)
 */
std::vector<Ptr<Socket>>
Sinks(Ptr<ClosFabric> fabric)
{
    std::vector<Ptr<Socket>> sockets;
    for (uint32_t h = 0; h < fabric->GetNHosts(); ++h)
    {
        Ptr<Socket> s = Socket::CreateSocket(fabric->GetHost(h), UdpSocketFactory::GetTypeId());
        s->Bind(InetSocketAddress(Ipv4Address::GetAny(), 6000));
        sockets.push_back(s);
    }
    return sockets;
}

/**
 * \param r a result.
 * \param name a time series.
 * \return it (the test fails on a missing series through the null pointer check).
 */
const TimeSeries*
Series(const RunResult& r, const std::string& name)
{
    for (const TimeSeries& ts : r.timeseries)
    {
        if (ts.GetName() == name)
        {
            return &ts;
        }
    }
    return nullptr;
}

/**
 * \param ts a time series.
 * \return the sum of every value of every series.
 */
double
Sum(const TimeSeries* ts)
{
    double total = 0;
    for (size_t s = 0; s < ts->GetSeriesNames().size(); ++s)
    {
        for (double v : ts->GetValues(s))
        {
            total += v;
        }
    }
    return total;
}

} // namespace

/**
 * \ingroup reps-test
 * The monitor counts every byte where it went: the uplinks of the sending leaf, the downlinks
 * into the receiving leaf, and the host link of the receiver; nothing is dropped at low load.
 */
class FabricMonitorBytesTestCase : public TestCase
{
  public:
    FabricMonitorBytesTestCase()
        : TestCase("Fabric monitor: bytes per link and delivered bytes add up")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<ClosFabric> fabric = SmallFabric();
        std::vector<Ptr<Socket>> sinks = Sinks(fabric);
        const uint32_t packets = 50;
        for (uint32_t i = 0; i < packets; ++i)
        {
            Simulator::Schedule(MicroSeconds(i), &Send, fabric, 0, 2);
        }
        Ptr<FabricMonitor> monitor = CreateObject<FabricMonitor>();
        monitor->SetAttribute("Interval", TimeValue(MicroSeconds(10)));
        monitor->SetFabric(fabric);
        monitor->Start();
        Simulator::Run();
        RunResult r;
        monitor->Fill(r);

        NS_TEST_ASSERT_MSG_EQ(r.linkBytes.size(), 8, "4 switch links x 2 directions");
        std::map<std::string, uint64_t> byTier;
        for (const LinkLoad& l : r.linkBytes)
        {
            byTier[l.tier] += l.bytes;
            NS_TEST_ASSERT_MSG_EQ(l.rateBps, 10000000000ULL, "link rate");
            if (l.tier == "leaf-spine:up" && l.bytes > 0)
            {
                NS_TEST_ASSERT_MSG_EQ(l.link.rfind("leaf0->spine", 0), 0, "sent up by leaf 0");
            }
        }
        NS_TEST_ASSERT_MSG_EQ(byTier["leaf-spine:up"], packets * ON_WIRE, "every byte goes up");
        NS_TEST_ASSERT_MSG_EQ(byTier["leaf-spine:down"], packets * ON_WIRE, "and comes down");
        NS_TEST_ASSERT_MSG_EQ(r.drops, 0, "no drop at low load");
        NS_TEST_ASSERT_MSG_EQ(r.maxQueueBytesPerTier.count("leaf"), 1, "leaf tier");
        NS_TEST_ASSERT_MSG_EQ(r.maxQueueBytesPerTier.count("spine"), 1, "spine tier");

        const TimeSeries* delivered = Series(r, "delivered_bytes");
        const TimeSeries* queue = Series(r, "queue_bytes");
        const TimeSeries* drops = Series(r, "drops");
        NS_TEST_ASSERT_MSG_NE(delivered, nullptr, "delivered_bytes series");
        NS_TEST_ASSERT_MSG_NE(queue, nullptr, "queue_bytes series");
        NS_TEST_ASSERT_MSG_NE(drops, nullptr, "drops series");
        NS_TEST_ASSERT_MSG_EQ(Sum(delivered), packets * ON_WIRE, "delivered to host 2");
        NS_TEST_ASSERT_MSG_EQ(Sum(drops), 0, "no drop in any interval");
        NS_TEST_ASSERT_MSG_EQ(queue->GetSeriesNames().size(), 2, "leaf and spine series");
        NS_TEST_ASSERT_MSG_GT(queue->GetSize(), 4U, "one sample per 10 us");
        for (size_t i = 1; i < queue->GetSize(); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ_TOL(queue->GetTimesUs()[i] - queue->GetTimesUs()[i - 1],
                                      10,
                                      1e-9,
                                      "sample spacing");
        }
        NS_TEST_ASSERT_MSG_EQ(monitor->GetLinkPackets(), 4 * packets, "4 links per packet");
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * Packets sent into links that are down are counted as drops, in the intervals in which they
 * were lost, and the drops series adds up to the total.
 */
class FabricMonitorFailureTestCase : public TestCase
{
  public:
    FabricMonitorFailureTestCase()
        : TestCase("Fabric monitor: drops on failed links, over time")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<ClosFabric> fabric = SmallFabric();
        std::vector<Ptr<Socket>> sinks = Sinks(fabric);
        // Both uplinks of leaf 0 are down from 20 to 40 us: a blackhole for host 0's traffic.
        fabric->FailLink(fabric->GetLeafSpineLink(0, 0), MicroSeconds(20), MicroSeconds(40));
        fabric->FailLink(fabric->GetLeafSpineLink(0, 1), MicroSeconds(20), MicroSeconds(40));
        const uint32_t packets = 60;
        for (uint32_t i = 0; i < packets; ++i)
        {
            Simulator::Schedule(MicroSeconds(i), &Send, fabric, 0, 2);
        }
        Ptr<FabricMonitor> monitor = CreateObject<FabricMonitor>();
        monitor->SetAttribute("Interval", TimeValue(MicroSeconds(10)));
        monitor->SetFabric(fabric);
        monitor->Start();
        Simulator::Run();
        RunResult r;
        monitor->Fill(r);

        const TimeSeries* drops = Series(r, "drops");
        const TimeSeries* delivered = Series(r, "delivered_bytes");
        NS_TEST_ASSERT_MSG_NE(drops, nullptr, "drops series");
        NS_TEST_ASSERT_MSG_GT_OR_EQ(r.drops, 18U, "about 20 us of packets lost");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(r.drops, 22U, "only while the links were down");
        NS_TEST_ASSERT_MSG_EQ(Sum(drops), r.drops, "the series adds up to the total");
        NS_TEST_ASSERT_MSG_EQ(Sum(delivered) / ON_WIRE + r.drops, packets, "lost or delivered");
        for (size_t i = 0; i < drops->GetSize(); ++i)
        {
            double end = drops->GetTimesUs()[i];
            double lost = drops->GetValues(0)[i] + drops->GetValues(1)[i];
            NS_TEST_ASSERT_MSG_EQ((lost == 0 || (end > 20 && end <= 50)),
                                  true,
                                  "drops only in intervals overlapping the failure (" << end
                                                                                      << " us)");
            NS_TEST_ASSERT_MSG_EQ(drops->GetValues(0)[i], 0, "no queue drop");
        }
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * Two senders bursting into one host build a queue at the receiver's leaf; the monitor sees
 * it in the per-tier maximum and in the queue_bytes series.
 */
class FabricMonitorQueueTestCase : public TestCase
{
  public:
    FabricMonitorQueueTestCase()
        : TestCase("Fabric monitor: queue depth per switch tier")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<ClosFabric> fabric = SmallFabric();
        std::vector<Ptr<Socket>> sinks = Sinks(fabric);
        // Hosts 0 (leaf 0) and 3 (leaf 1) each send 30 back-to-back packets to host 2 (leaf 1):
        // twice the host link's rate, so leaf 1's port to host 2 queues.
        for (uint32_t i = 0; i < 30; ++i)
        {
            Simulator::Schedule(NanoSeconds(1 + i * 824), &Send, fabric, 0, 2);
            Simulator::Schedule(NanoSeconds(1 + i * 824), &Send, fabric, 3, 2);
        }
        Ptr<FabricMonitor> monitor = CreateObject<FabricMonitor>();
        monitor->SetAttribute("Interval", TimeValue(MicroSeconds(5)));
        monitor->SetFabric(fabric);
        monitor->Start();
        Simulator::Run();
        RunResult r;
        monitor->Fill(r);
        NS_TEST_ASSERT_MSG_GT(r.maxQueueBytesPerTier["leaf"], 10 * ON_WIRE, "leaf queue built");
        NS_TEST_ASSERT_MSG_EQ(r.maxQueueBytes, r.maxQueueBytesPerTier["leaf"], "deepest is a leaf");
        NS_TEST_ASSERT_MSG_EQ(r.drops, 0, "the queue holds the burst");
        const TimeSeries* queue = Series(r, "queue_bytes");
        NS_TEST_ASSERT_MSG_NE(queue, nullptr, "queue_bytes series");
        double leafMax = 0;
        for (size_t s = 0; s < queue->GetSeriesNames().size(); ++s)
        {
            if (queue->GetSeriesNames()[s] == "leaf")
            {
                for (double v : queue->GetValues(s))
                {
                    leafMax = std::max(leafMax, v);
                }
            }
        }
        NS_TEST_ASSERT_MSG_GT(leafMax, 0, "a sample caught the queue");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(leafMax, r.maxQueueBytes, "samples stay below the maximum");
        Simulator::Destroy();
    }
};

/**
 * Per-link series: link_utilization integrates, over time and over leaf 0's uplinks, to the
 * bytes host 0 sent to another leaf; and port_queue_bytes lists the port that queued (leaf 1's
 * port to host 2 under a 2:1 incast) first, with BusiestPorts series.
 */
class FabricMonitorPerLinkTestCase : public TestCase
{
  public:
    FabricMonitorPerLinkTestCase()
        : TestCase("Fabric monitor: per-link utilization adds up to the bytes sent; busiest port")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<ClosFabric> fabric = SmallFabric();
        std::vector<Ptr<Socket>> sinks = Sinks(fabric);
        for (uint32_t i = 0; i < 30; ++i)
        {
            Simulator::Schedule(NanoSeconds(1 + i * 824), &Send, fabric, 0, 2);
            Simulator::Schedule(NanoSeconds(1 + i * 824), &Send, fabric, 3, 2);
        }
        Ptr<FabricMonitor> monitor = CreateObject<FabricMonitor>();
        monitor->SetAttribute("Interval", TimeValue(MicroSeconds(5)));
        monitor->SetAttribute("PerLinkSeries", BooleanValue(true));
        monitor->SetAttribute("BusiestPorts", UintegerValue(3));
        monitor->SetFabric(fabric);
        monitor->Start();
        Simulator::Run();
        RunResult r;
        monitor->Fill(r);
        const TimeSeries* util = Series(r, "link_utilization");
        NS_TEST_ASSERT_MSG_NE(util, nullptr, "link_utilization series");
        // 2 leaves x 2 spines, both directions.
        NS_TEST_ASSERT_MSG_EQ(util->GetSeriesNames().size(), 8, "one series per directed link");
        double bytes = 0;
        const std::vector<double>& t = util->GetTimesUs();
        for (size_t s = 0; s < util->GetSeriesNames().size(); ++s)
        {
            const std::string& name = util->GetSeriesNames()[s];
            if (name.rfind("leaf0-spine", 0) != 0)
            {
                continue;
            }
            for (size_t k = 0; k < t.size(); ++k)
            {
                double seconds = (t[k] - (k == 0 ? 0.0 : t[k - 1])) * 1e-6;
                bytes += util->GetValues(s)[k] * 10e9 * seconds / 8;
                // Bytes count when a packet has arrived: at most one packet above capacity.
                double onePacket = 8.0 * ON_WIRE / (10e9 * seconds);
                NS_TEST_EXPECT_MSG_LT_OR_EQ(util->GetValues(s)[k],
                                            1.0 + onePacket,
                                            "at most the link rate and one packet");
            }
        }
        NS_TEST_EXPECT_MSG_EQ_TOL(bytes, 30.0 * ON_WIRE, 1e-6 * ON_WIRE, "bytes sent up");
        const TimeSeries* ports = Series(r, "port_queue_bytes");
        NS_TEST_ASSERT_MSG_NE(ports, nullptr, "port_queue_bytes series");
        NS_TEST_ASSERT_MSG_EQ(ports->GetSeriesNames().size(), 3, "BusiestPorts series");
        NS_TEST_EXPECT_MSG_EQ(ports->GetSeriesNames()[0], "leaf1-host2", "the incast port first");
        NS_TEST_EXPECT_MSG_EQ(ports->GetSize(), util->GetSize(), "sampled together");
        double peak = 0;
        for (double v : ports->GetValues(0))
        {
            peak = std::max(peak, v);
        }
        NS_TEST_EXPECT_MSG_GT(peak, 10 * ON_WIRE, "its queue was sampled");
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * The fabric monitor tests.
 */
class RepsFabricMonitorTestSuite : public TestSuite
{
  public:
    RepsFabricMonitorTestSuite()
        : TestSuite("reps-fabric-monitor", TestSuite::Type::UNIT)
    {
        AddTestCase(new FabricMonitorBytesTestCase(), reps::kQuick);
        AddTestCase(new FabricMonitorFailureTestCase(), reps::kQuick);
        AddTestCase(new FabricMonitorQueueTestCase(), reps::kQuick);
        AddTestCase(new FabricMonitorPerLinkTestCase(), reps::kQuick);
    }
};

/// The one instance.
static RepsFabricMonitorTestSuite g_repsFabricMonitorTestSuite;
