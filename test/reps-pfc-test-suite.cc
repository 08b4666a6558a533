/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "reps-test-compat.h"

#include "ns3/core-module.h"
#include "ns3/experiment-report.h"
#include "ns3/fabric-experiment.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/reps-module.h"
#include "ns3/traffic-control-module.h"

#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

/**
 * \file
 * \ingroup reps-test
 * PFC (IEEE 802.1Qbb): the PAUSE frame's wire format, the headroom formula, the timing of
 * PAUSE and XON on a spine -> leaf link to the nanosecond, and a lossless fabric under an 8:1
 * incast (no drop anywhere, pauses spreading to the spines) with each transport variant.
 */

namespace
{

/// One queue pair and what it delivered.
struct PfcFlow
{
    Ptr<RdmaQueuePair> sender;   //!< Sender side.
    Ptr<RdmaQueuePair> receiver; //!< Receiver side.
    uint64_t posted{0};          //!< Bytes posted.
    uint64_t completed{0};       //!< Bytes completed at the sender.

    /// Sender completion callback.
    void Completed(uint64_t id, uint64_t size, Time fct)
    {
        completed += size;
    }
};

/**
 * A two-tier fabric of 100 Gb/s links of 1 us, with small switch queues.
 * \param leaves leaves
 * \param hostsPerLeaf hosts per leaf
 * \param spines spines
 * \param pfc whether the fabric is lossless
 * \return the helper, ready to Build()
 */
Ptr<ClosFabricHelper>
PfcFabric(uint32_t leaves, uint32_t hostsPerLeaf, uint32_t spines, bool pfc)
{
    Ptr<ClosFabricHelper> h = CreateObject<ClosFabricHelper>();
    h->SetAttribute("Leaves", UintegerValue(leaves));
    h->SetAttribute("HostsPerLeaf", UintegerValue(hostsPerLeaf));
    h->SetAttribute("Spines", UintegerValue(spines));
    h->SetAttribute("HostLinkRate", DataRateValue(DataRate("100Gbps")));
    h->SetAttribute("LeafUplinkRate", DataRateValue(DataRate("100Gbps")));
    h->SetSwitchQueueDisc("ns3::EcnQueueDisc",
                          "MaxSize",
                          QueueSizeValue(QueueSize("30p")),
                          "Kmin",
                          QueueSizeValue(QueueSize("5p")),
                          "Kmax",
                          QueueSizeValue(QueueSize("25p")));
    h->SetAttribute("Pfc", BooleanValue(pfc));
    return h;
}

/**
 * Connect src -> dst and post one message.
 * \param fabric the fabric
 * \param rdma the helper (stack installed)
 * \param src sending host
 * \param dst receiving host
 * \param bytes message size
 * \param flow what is seen
 */
void
ConnectFlow(Ptr<ClosFabric> fabric,
            RdmaHelper& rdma,
            uint32_t src,
            uint32_t dst,
            uint64_t bytes,
            PfcFlow& flow)
{
    rdma.SetQueuePairAttribute("BaseRtt", TimeValue(fabric->GetBaseRtt(src, dst, 4140, 66)));
    auto qps = rdma.CreateQueuePair(fabric->GetHost(src), fabric->GetHost(dst));
    flow.sender = qps.first;
    flow.receiver = qps.second;
    flow.posted = bytes;
    flow.sender->PostSend(bytes, MakeCallback(&PfcFlow::Completed, &flow));
}

/// Drops of every switch queue of a fabric.
uint64_t
FabricDrops(Ptr<ClosFabric> fabric)
{
    uint64_t drops = 0;
    for (uint32_t link = 0; link < fabric->GetNLinks(); link++)
    {
        for (uint32_t side = 0; side < 2; side++)
        {
            drops += fabric->GetQueueStats(link, side).drops;
        }
    }
    return drops;
}

/// PAUSE frames sent by the ports of some switches, and their paused time.
struct PauseTotals
{
    uint64_t sent{0};     //!< PAUSE (XOFF) frames sent.
    uint64_t received{0}; //!< PAUSE frames received.
    Time paused;          //!< Time the lossless priority was stopped.
};

/**
 * \param nodes switches or hosts
 * \return the totals of the PfcPorts of their devices
 */
PauseTotals
Pauses(const NodeContainer& nodes)
{
    PauseTotals t;
    for (uint32_t i = 0; i < nodes.GetN(); i++)
    {
        for (uint32_t d = 0; d < nodes.Get(i)->GetNDevices(); d++)
        {
            Ptr<PfcPort> port = nodes.Get(i)->GetDevice(d)->GetObject<PfcPort>();
            if (port)
            {
                t.sent += port->GetCounters().pausesSent;
                t.received += port->GetCounters().pausesReceived;
                t.paused += port->GetPausedTime(port->GetPriority());
            }
        }
    }
    return t;
}

} // namespace

/**
 * \ingroup reps-test
 * The PFC frame: 64 bytes, MAC control EtherType and opcode, per-priority quanta and the
 * class-enable vector survive serialization; a frame of other bytes is not taken for PFC; a
 * quantum is 512 bit times.
 */
class PfcHeaderTestCase : public TestCase
{
  public:
    PfcHeaderTestCase()
        : TestCase("PFC frame: 802.1Qbb fields, 64-byte minimum frame, quanta time")
    {
    }

  private:
    void DoRun() override
    {
        PfcHeader h;
        h.SetSource(Mac48Address("00:00:00:00:00:2a"));
        h.SetQuanta(3, 65535);
        h.SetQuanta(5, 0);
        Ptr<Packet> p = Create<Packet>();
        p->AddHeader(h);
        NS_TEST_EXPECT_MSG_EQ(p->GetSize(), 64u, "the minimum Ethernet frame");
        uint8_t bytes[64];
        p->CopyData(bytes, 64);
        NS_TEST_EXPECT_MSG_EQ(+bytes[0], 0x01, "destination 01-80-C2-00-00-01");
        NS_TEST_EXPECT_MSG_EQ(+bytes[5], 0x01, "destination 01-80-C2-00-00-01");
        auto u16 = [&bytes](int i) { return (bytes[i] << 8) | bytes[i + 1]; };
        NS_TEST_EXPECT_MSG_EQ(u16(12), 0x8808, "MAC control EtherType");
        NS_TEST_EXPECT_MSG_EQ(u16(14), 0x0101, "PFC opcode");
        NS_TEST_EXPECT_MSG_EQ(u16(16), 0x28, "class-enable vector: 3 and 5");
        NS_TEST_EXPECT_MSG_EQ(u16(24), 65535, "quanta of priority 3");
        PfcHeader r;
        p->RemoveHeader(r);
        NS_TEST_EXPECT_MSG_EQ(r.IsValid(), true, "a PFC frame");
        NS_TEST_EXPECT_MSG_EQ(r.GetClassEnableVector(), 0x28, "vector");
        NS_TEST_EXPECT_MSG_EQ(r.IsEnabled(3), true, "priority 3 enabled");
        NS_TEST_EXPECT_MSG_EQ(r.IsEnabled(4), false, "priority 4 not enabled");
        NS_TEST_EXPECT_MSG_EQ(r.GetQuanta(3), 65535, "quanta of 3");
        NS_TEST_EXPECT_MSG_EQ(r.GetQuanta(5), 0, "XON for 5");
        NS_TEST_EXPECT_MSG_EQ(r.GetSource(), Mac48Address("00:00:00:00:00:2a"), "source");

        // 64 zero bytes: read straight from a buffer (no header was ever added to a packet).
        Buffer zeros;
        zeros.AddAtStart(64);
        zeros.Begin().WriteU8(0, 64);
        PfcHeader x;
        NS_TEST_EXPECT_MSG_EQ(x.Deserialize(zeros.Begin()), 64u, "reads a whole frame");
        NS_TEST_EXPECT_MSG_EQ(x.IsValid(), false, "zeros are not a PFC frame");

        // A truncated frame (63 bytes of a valid one) is not read at all.
        Ptr<Packet> full = Create<Packet>();
        full->AddHeader(h);
        uint8_t frame[64];
        full->CopyData(frame, 64);
        Ptr<Packet> cut = Create<Packet>(frame, 63);
        PfcHeader t;
        NS_TEST_EXPECT_MSG_EQ(cut->RemoveHeader(t), 0u, "63 bytes are not read");
        NS_TEST_EXPECT_MSG_EQ(t.IsValid(), false, "and are not a PFC frame");
        NS_TEST_EXPECT_MSG_EQ(cut->GetSize(), 63u, "the packet is left as it was");

        // 1000 quanta = 512000 bits: 5.12 us at 100 Gb/s, 1.28 us at 400 Gb/s.
        NS_TEST_EXPECT_MSG_EQ(PfcHeader::QuantaToTime(1000, DataRate("100Gbps")),
                              NanoSeconds(5120),
                              "quanta x 512 bit times");
        NS_TEST_EXPECT_MSG_EQ(PfcHeader::QuantaToTime(1000, DataRate("400Gbps")),
                              NanoSeconds(1280),
                              "quanta x 512 bit times");
    }
};

/**
 * \ingroup reps-test
 * The headroom of a port: 2 x rate x delay + 3 MTU frames + the PAUSE frame, and every port of
 * a built fabric gets the headroom of its own link; the switch buffer is the shared buffer plus
 * every headroom.
 */
class PfcHeadroomTestCase : public TestCase
{
  public:
    PfcHeadroomTestCase()
        : TestCase("PFC headroom from link rate, propagation delay and MTU")
    {
    }

  private:
    void DoRun() override
    {
        // 100 Gb/s x 1 us = 12500 bytes each way; 3 x (9000 + 2) + 64.
        NS_TEST_EXPECT_MSG_EQ(
            PfcSwitch::ComputeHeadroom(DataRate("100Gbps"), MicroSeconds(1), 9000),
            2 * 12500 + 3 * 9002 + 64,
            "100 Gb/s, 1 us, MTU 9000");
        NS_TEST_EXPECT_MSG_EQ(
            PfcSwitch::ComputeHeadroom(DataRate("400Gbps"), MicroSeconds(2), 1500),
            2 * 100000 + 3 * 1502 + 64,
            "400 Gb/s, 2 us, MTU 1500");
        // A fraction of a byte in flight is rounded up.
        NS_TEST_EXPECT_MSG_EQ(PfcSwitch::ComputeHeadroom(DataRate("1Gbps"), NanoSeconds(1), 1500),
                              2 * 1 + 3 * 1502 + 64,
                              "1 bit in flight rounds up to a byte");

        Ptr<ClosFabricHelper> h = PfcFabric(2, 2, 1, true);
        h->SetAttribute("LeafUplinkDelay", TimeValue(MicroSeconds(3)));
        h->SetPfcAttribute("SharedBufferSize", UintegerValue(1000000));
        Ptr<ClosFabric> fabric = h->Build();
        Ptr<Node> leaf = fabric->GetLeaf(0);
        Ptr<PfcSwitch> pfc = leaf->GetObject<PfcSwitch>();
        NS_TEST_ASSERT_MSG_NE(pfc, nullptr, "a PfcSwitch on every switch");
        Ptr<FabricSwitch> sw = leaf->GetObject<FabricSwitch>();
        uint64_t total = 1000000;
        for (uint32_t p = 0; p < sw->GetNPorts(); p++)
        {
            Ptr<PfcPort> port = sw->GetPortDevice(p)->GetObject<PfcPort>();
            uint64_t expected = PfcSwitch::ComputeHeadroom(port->GetRate(), port->GetDelay(), 9000);
            NS_TEST_EXPECT_MSG_EQ(pfc->GetIngress(p).headroom, expected, "port headroom");
            total += expected;
        }
        NS_TEST_EXPECT_MSG_EQ(pfc->GetBufferSize(), total, "shared buffer plus headroom");
        NS_TEST_EXPECT_MSG_EQ(pfc->GetXoffThreshold(),
                              125000,
                              "dynamic threshold of an empty switch: Alpha (1/8) x the buffer");
        Ptr<EcnQueueDisc> qd = DynamicCast<EcnQueueDisc>(sw->GetPortQueueDisc(0));
        NS_TEST_EXPECT_MSG_EQ(qd->GetMaxSize(),
                              QueueSize(QueueSizeUnit::PACKETS, total / 20 + 1),
                              "an egress queue holds the whole buffer");
        // Two host ports (1 us) and one up-link (3 us).
        NS_TEST_EXPECT_MSG_EQ(total, 1000000 + 2 * (25000 + 27070) + (75000 + 27070), "sum");
        Simulator::Destroy();

        // PFC stops the data band of an EcnQueueDisc: other switch queues are refused.
        Ptr<ClosFabricHelper> red = PfcFabric(2, 2, 1, true);
        red->SetSwitchQueueDisc("ns3::RedQueueDisc");
        NS_TEST_EXPECT_MSG_NE(red->Validate().find("Pfc needs ns3::EcnQueueDisc"),
                              std::string::npos,
                              "Pfc with RED is refused with a message");
        Ptr<ClosFabricHelper> mpi = PfcFabric(2, 2, 1, true);
        mpi->SetAttribute("Systems", UintegerValue(2));
        NS_TEST_EXPECT_MSG_NE(mpi->Validate().find("Pfc needs Systems = 1"),
                              std::string::npos,
                              "Pfc over MPI ranks is refused with a message");
        red->SetAttribute("Pfc", BooleanValue(false));
        NS_TEST_EXPECT_MSG_EQ(red->Validate(), "", "RED without PFC is fine");
    }
};

/**
 * \ingroup reps-test
 * Two PfcPorts on one 100 Gb/s link of 1 us, to the nanosecond: a PAUSE frame waits for the
 * frame on the wire, is serialized (5 ns for 64 bytes) and propagates (1 us); the priority it
 * names stops for quanta x 512 bit times and resumes by itself when that time ends; an XON
 * resumes it at once; a PAUSE for another priority does not stop the data.
 */
class PfcPortTimingTestCase : public TestCase
{
  public:
    PfcPortTimingTestCase()
        : TestCase("PFC port: PAUSE after the frame on the wire, quanta expiry and XON, to the ns")
    {
    }

  private:
    std::vector<std::pair<Time, uint16_t>> m_received; //!< PauseReceived at b.
    std::vector<std::pair<Time, Time>> m_resumed;      //!< Resumed at b (when, paused for).
    std::vector<std::pair<Time, bool>> m_states;       //!< Data paused at b, sampled.

    void DoRun() override
    {
        NodeContainer nodes;
        nodes.Create(2);
        PointToPointHelper p2p;
        p2p.SetDeviceAttribute("DataRate", DataRateValue(DataRate("100Gbps")));
        p2p.SetChannelAttribute("Delay", TimeValue(MicroSeconds(1)));
        NetDeviceContainer devices = p2p.Install(nodes);
        Ptr<PfcPort> a = CreateObject<PfcPort>();
        Ptr<PfcPort> b = CreateObject<PfcPort>();
        devices.Get(0)->AggregateObject(a);
        devices.Get(1)->AggregateObject(b);
        b->TraceConnectWithoutContext("PauseReceived",
                                      MakeCallback(&PfcPortTimingTestCase::Received, this));
        b->TraceConnectWithoutContext("Resumed",
                                      MakeCallback(&PfcPortTimingTestCase::Resumed, this));
        // A 1000-byte IPv4 packet (1002 bytes with PPP: 80.16 ns) is on the wire from 0 ns.
        Simulator::Schedule(Time(0), [&devices]() {
            devices.Get(0)->Send(Create<Packet>(1000), devices.Get(1)->GetAddress(), 0x0800);
        });
        // PAUSE for priority 3 (1000 quanta: 5.12 us) at 10 ns: it waits for that frame.
        Simulator::Schedule(NanoSeconds(10), &PfcPort::SendPause, a, 3, 1000);
        // PAUSE for priority 5 only: priority 3 (the data) is not touched by it.
        Simulator::Schedule(MicroSeconds(10), &PfcPort::SendPause, a, 5, 1000);
        // PAUSE for priority 3 at 20 us, XON for it at 21 us.
        Simulator::Schedule(MicroSeconds(20), &PfcPort::SendPause, a, 3, 65535);
        Simulator::Schedule(MicroSeconds(21), &PfcPort::SendPause, a, 3, 0);
        // Samples one ns before and after each change (an event at the very ns of a change
        // may run before it).
        for (Time t : {NanoSeconds(1084),
                       NanoSeconds(1086),
                       NanoSeconds(6204),
                       NanoSeconds(6206),
                       MicroSeconds(12),
                       NanoSeconds(22004),
                       NanoSeconds(22006)})
        {
            Simulator::Schedule(t, [this, b]() {
                m_states.emplace_back(Simulator::Now(), b->IsDataPaused());
            });
        }
        Simulator::Run();

        // The first frame ends at 80 ns (80.16 rounded by ns-3's time resolution); the PAUSE
        // then takes 5 ns of serialization and 1000 ns of propagation.
        NS_TEST_ASSERT_MSG_EQ(m_received.size(), 4u, "four PFC frames arrived");
        NS_TEST_EXPECT_MSG_EQ(m_received[0].first, NanoSeconds(80 + 5 + 1000), "after the frame");
        NS_TEST_EXPECT_MSG_EQ(m_received[0].second, 1000, "its quanta");
        NS_TEST_EXPECT_MSG_EQ(m_received[1].first, NanoSeconds(10000 + 5 + 1000), "idle link");
        NS_TEST_EXPECT_MSG_EQ(m_received[3].second, 0, "XON");
        NS_TEST_EXPECT_MSG_EQ(m_received[3].first, NanoSeconds(21000 + 5 + 1000), "XON arrives");
        std::vector<std::pair<Time, bool>> expected = {{NanoSeconds(1084), false},
                                                       {NanoSeconds(1086), true},
                                                       {NanoSeconds(6204), true},
                                                       {NanoSeconds(6206), false},
                                                       {MicroSeconds(12), false},
                                                       {NanoSeconds(22004), true},
                                                       {NanoSeconds(22006), false}};
        NS_TEST_ASSERT_MSG_EQ(m_states.size(), expected.size(), "samples");
        for (std::size_t i = 0; i < expected.size(); i++)
        {
            NS_TEST_EXPECT_MSG_EQ(m_states[i].second,
                                  expected[i].second,
                                  "data paused at " << expected[i].first);
        }
        // Resumed: priority 3 after 5120 ns (expiry), priority 5 after 5120 ns, priority 3
        // after 1000 ns (XON).
        NS_TEST_ASSERT_MSG_EQ(m_resumed.size(), 3u, "three resumes");
        NS_TEST_EXPECT_MSG_EQ(m_resumed[0].first, NanoSeconds(1085 + 5120), "quanta expiry");
        NS_TEST_EXPECT_MSG_EQ(m_resumed[0].second, NanoSeconds(5120), "paused 1000 quanta");
        NS_TEST_EXPECT_MSG_EQ(m_resumed[2].first, NanoSeconds(22005), "XON resumes at once");
        NS_TEST_EXPECT_MSG_EQ(m_resumed[2].second, NanoSeconds(1000), "paused until XON");
        NS_TEST_EXPECT_MSG_EQ(b->GetPausedTime(3), NanoSeconds(5120 + 1000), "paused time of 3");
        NS_TEST_EXPECT_MSG_EQ(b->GetPausedTime(5), NanoSeconds(5120), "paused time of 5");
        NS_TEST_EXPECT_MSG_EQ(a->GetCounters().pausesSent, 3, "PAUSE frames sent");
        NS_TEST_EXPECT_MSG_EQ(a->GetCounters().resumesSent, 1, "XON frames sent");
        NS_TEST_EXPECT_MSG_EQ(b->GetCounters().pausesReceived, 3, "PAUSE frames received");
        NS_TEST_EXPECT_MSG_EQ(b->GetCounters().resumesReceived, 1, "XON frames received");
        NS_TEST_EXPECT_MSG_EQ(b->GetCounters().pauses, 2, "the data stopped twice");
        Simulator::Destroy();
    }

    /// PauseReceived at b.
    void Received(uint8_t priority, uint16_t quanta)
    {
        m_received.emplace_back(Simulator::Now(), quanta);
    }

    /// Resumed at b.
    void Resumed(uint8_t priority, Time paused)
    {
        m_resumed.emplace_back(Simulator::Now(), paused);
    }
};

/**
 * \ingroup reps-test
 * PAUSE and XON on the spine -> leaf 1 link, to the nanosecond. Host 0 (leaf 0, through the
 * spine) and host 2 (leaf 1) send to host 3 (leaf 1): leaf 1's queue toward host 3 fills, and
 * the bytes leaf 1 holds from the spine pass the static XOFF threshold. Leaf 1 sends PAUSE when
 * they do; it reaches the spine 64 bytes of serialization plus the 1 us propagation delay
 * later; the spine's queue toward leaf 1 then dequeues no data until XON, which arrives
 * serialization plus propagation after leaf 1 sends it, and the spine dequeues data at that
 * very nanosecond. No packet is dropped, and the bytes held never pass threshold + headroom.
 */
class PfcPauseTimingTestCase : public TestCase
{
  public:
    PfcPauseTimingTestCase()
        : TestCase("PFC on a spine -> leaf link: PAUSE at XOFF, arrival, stop and XON to the ns")
    {
    }

  private:
    /// A PFC frame seen by a trace.
    struct Event
    {
        Time at;         //!< When.
        uint16_t quanta; //!< Its quanta.
        uint64_t bytes;  //!< Bytes the leaf held from the spine then.
    };

    std::vector<Event> m_sent;           //!< Leaf 1 -> spine frames.
    std::vector<Event> m_received;       //!< Frames at the spine.
    std::vector<Time> m_resumed;         //!< Spine resumed.
    std::vector<Time> m_resumedWithData; //!< Spine resumed with data in its queue.
    Ptr<QueueDisc> m_spineQd;            //!< The spine's queue toward leaf 1.
    std::vector<Time> m_dequeued;        //!< Data dequeued by the spine's queue toward leaf 1.
    std::vector<std::pair<Time, Time>> m_stopped; //!< Intervals the spine was stopped.
    Ptr<PfcSwitch> m_leafPfc;                     //!< Leaf 1's PFC.
    uint32_t m_leafPort{0};                       //!< Leaf 1's port toward the spine.

    void DoRun() override
    {
        const uint64_t threshold = 40000;
        Ptr<ClosFabricHelper> h = PfcFabric(2, 2, 1, true);
        h->SetPfcAttribute("ThresholdMode", StringValue("Static"));
        h->SetPfcAttribute("StaticThreshold", UintegerValue(threshold));
        h->SetPfcAttribute("XonOffset", UintegerValue(10000));
        h->SetPfcAttribute("PauseQuanta", UintegerValue(65535));
        Ptr<ClosFabric> fabric = h->Build();
        const uint32_t link = fabric->GetLeafSpineLink(1, 0);
        Ptr<PointToPointNetDevice> leafDev = fabric->GetLinkDevice(link, 0);
        Ptr<PointToPointNetDevice> spineDev = fabric->GetLinkDevice(link, 1);
        NS_TEST_ASSERT_MSG_EQ(leafDev->GetNode(), fabric->GetLeaf(1), "side 0 is the leaf");
        m_leafPfc = fabric->GetLeaf(1)->GetObject<PfcSwitch>();
        Ptr<FabricSwitch> leafSw = fabric->GetLeaf(1)->GetObject<FabricSwitch>();
        for (uint32_t p = 0; p < leafSw->GetNPorts(); p++)
        {
            if (leafSw->GetPortDevice(p) == leafDev)
            {
                m_leafPort = p;
            }
        }
        leafDev->GetObject<PfcPort>()->TraceConnectWithoutContext(
            "PauseSent",
            MakeCallback(&PfcPauseTimingTestCase::Sent, this));
        Ptr<PfcPort> spinePort = spineDev->GetObject<PfcPort>();
        spinePort->TraceConnectWithoutContext(
            "PauseReceived",
            MakeCallback(&PfcPauseTimingTestCase::Received, this));
        spinePort->TraceConnectWithoutContext("Resumed",
                                              MakeCallback(&PfcPauseTimingTestCase::Resumed, this));
        Ptr<QueueDisc> spineQd = fabric->GetQueueDisc(link, 1);
        m_spineQd = spineQd;
        spineQd->TraceConnectWithoutContext("Dequeue",
                                            MakeCallback(&PfcPauseTimingTestCase::Dequeued, this));

        RdmaHelper rdma;
        rdma.SetCongestionControl("ns3::NoCongestionControl");
        rdma.Install(fabric->GetHosts());
        PfcFlow a;
        PfcFlow b;
        ConnectFlow(fabric, rdma, 0, 3, 2000000, a);
        ConnectFlow(fabric, rdma, 2, 3, 2000000, b);
        Simulator::Stop(MilliSeconds(5));
        Simulator::Run();

        NS_TEST_EXPECT_MSG_EQ(a.completed, a.posted, "host 0's message completed");
        NS_TEST_EXPECT_MSG_EQ(b.completed, b.posted, "host 2's message completed");
        NS_TEST_EXPECT_MSG_EQ(FabricDrops(fabric), 0, "lossless");
        NS_TEST_ASSERT_MSG_GT(m_sent.size(), 1u, "leaf 1 paused the spine and resumed it");
        NS_TEST_EXPECT_MSG_GT(m_sent[0].quanta, 0, "the first frame is a PAUSE");
        NS_TEST_EXPECT_MSG_GT(m_sent[0].bytes, threshold, "PAUSE once the count passes XOFF");
        NS_TEST_ASSERT_MSG_EQ(m_received.size(), m_sent.size(), "every frame arrives");
        const Time wire = DataRate("100Gbps").CalculateBytesTxTime(64) + MicroSeconds(1);
        NS_TEST_EXPECT_MSG_EQ(wire, NanoSeconds(1005), "5 ns of serialization, 1 us of flight");
        bool xon = false;
        for (std::size_t i = 0; i < m_sent.size(); i++)
        {
            NS_TEST_EXPECT_MSG_EQ(m_received[i].at - m_sent[i].at, wire, "serialization + delay");
            NS_TEST_EXPECT_MSG_EQ(m_received[i].quanta, m_sent[i].quanta, "same quanta");
            if (m_sent[i].quanta == 0)
            {
                xon = true;
                NS_TEST_EXPECT_MSG_LT_OR_EQ(m_sent[i].bytes + 10000,
                                            threshold,
                                            "XON once the count is XonOffset below XOFF");
            }
        }
        NS_TEST_EXPECT_MSG_EQ(xon, true, "an XON was sent");
        NS_TEST_ASSERT_MSG_GT(m_stopped.size(), 0u, "the spine was stopped");
        uint32_t resumedWithData = 0;
        for (const auto& [from, to] : m_stopped)
        {
            for (Time t : m_dequeued)
            {
                NS_TEST_EXPECT_MSG_EQ((t >= from && t < to),
                                      false,
                                      "no data dequeued while paused");
            }
            bool restarted =
                std::find(m_dequeued.begin(), m_dequeued.end(), to) != m_dequeued.end();
            bool waiting = std::find(m_resumedWithData.begin(), m_resumedWithData.end(), to) !=
                           m_resumedWithData.end();
            NS_TEST_EXPECT_MSG_EQ(restarted,
                                  waiting,
                                  "data waiting at the resume is dequeued at that very ns");
            resumedWithData += waiting ? 1 : 0;
        }
        NS_TEST_EXPECT_MSG_GT(resumedWithData, 0u, "the spine resumed with data waiting");
        const PfcSwitch::Ingress& in = m_leafPfc->GetIngress(m_leafPort);
        NS_TEST_EXPECT_MSG_LT_OR_EQ(in.maxBytes,
                                    threshold + in.headroom,
                                    "headroom absorbs what arrives after PAUSE");
        m_spineQd = nullptr;
        m_leafPfc = nullptr;
        Simulator::Destroy();
    }

    /// PauseSent of leaf 1's port toward the spine.
    void Sent(uint8_t priority, uint16_t quanta)
    {
        m_sent.push_back({Simulator::Now(), quanta, m_leafPfc->GetIngress(m_leafPort).bytes});
    }

    /// PauseReceived of the spine's port toward leaf 1.
    void Received(uint8_t priority, uint16_t quanta)
    {
        m_received.push_back({Simulator::Now(), quanta, 0});
        if (quanta > 0 && (m_stopped.empty() || m_stopped.back().second != Time::Max()))
        {
            m_stopped.emplace_back(Simulator::Now(), Time::Max());
        }
    }

    /// Resumed of the spine's port toward leaf 1.
    void Resumed(uint8_t priority, Time paused)
    {
        m_resumed.push_back(Simulator::Now());
        // Resumed fires before the queue disc restarts: what is queued now waits for it.
        if (m_spineQd->GetInternalQueue(1)->GetNPackets() > 0)
        {
            m_resumedWithData.push_back(Simulator::Now());
        }
        if (!m_stopped.empty())
        {
            m_stopped.back().second = Simulator::Now();
        }
    }

    /// Dequeue of the spine's queue toward leaf 1.
    void Dequeued(Ptr<const QueueDiscItem> item)
    {
        if (!EcnQueueDisc::IsControlPacket(item))
        {
            m_dequeued.push_back(Simulator::Now());
        }
    }
};

/**
 * \ingroup reps-test
 * An 8:1 incast across leaves: without PFC the small switch queues drop; with PFC nothing is
 * dropped anywhere, every byte is delivered, the hosts and the spines are paused (congestion
 * spreads from the receiver's leaf to the spines, which pause the senders' leaves), and every
 * port stays within its XOFF threshold plus headroom. Run with each transport variant.
 */
class PfcIncastTestCase : public TestCase
{
  public:
    /**
     * \param cc congestion control TypeId
     * \param goBackN go-back-N instead of selective repeat
     */
    PfcIncastTestCase(std::string cc, bool goBackN)
        : TestCase("PFC: 8:1 incast lossless with " + cc +
                   (goBackN ? ", go-back-N" : ", selective repeat")),
          m_cc(cc),
          m_goBackN(goBackN)
    {
    }

  private:
    std::string m_cc; //!< Congestion control.
    bool m_goBackN;   //!< Go-back-N.

    /**
     * Run the incast.
     * \param pfc lossless or not
     * \param [out] drops switch queue drops
     * \param [out] marks ECN marks in front of the receiver
     * \param [out] switches pauses of the switch ports
     * \param [out] hosts pauses received by the hosts
     * \param [out] spineSent PAUSE frames sent by the spines
     * \param [out] complete whether every message completed
     * \param [out] withinHeadroom whether every port stayed within threshold + headroom
     */
    void Incast(bool pfc,
                uint64_t& drops,
                uint64_t& marks,
                PauseTotals& switches,
                PauseTotals& hosts,
                uint64_t& spineSent,
                bool& complete,
                bool& withinHeadroom)
    {
        Ptr<ClosFabricHelper> h = PfcFabric(3, 3, 2, pfc);
        if (pfc)
        {
            h->SetPfcAttribute("SharedBufferSize", UintegerValue(400000));
        }
        Ptr<ClosFabric> fabric = h->Build();
        RdmaHelper rdma;
        rdma.SetPathSelector("ns3::OpsPathSelector");
        rdma.SetCongestionControl(m_cc);
        rdma.SetQueuePairAttribute("GoBackN", BooleanValue(m_goBackN));
        rdma.Install(fabric->GetHosts());
        std::vector<PfcFlow> flows(8);
        for (uint32_t s = 1; s <= 8; s++)
        {
            ConnectFlow(fabric, rdma, s, 0, 500000, flows[s - 1]);
        }
        rdma.AssignStreams(fabric->GetHosts(), 7);
        ClosFabricHelper::AssignStreams(fabric, 1000);
        Simulator::Stop(MilliSeconds(20));
        Simulator::Run();
        drops = FabricDrops(fabric);
        marks = fabric->GetQueueStats(fabric->GetHostLink(0), 1).marks;
        switches = Pauses(fabric->GetSwitches());
        hosts = Pauses(fabric->GetHosts());
        spineSent = 0;
        for (uint32_t s = 0; s < fabric->GetNSpines(); s++)
        {
            NodeContainer spine(fabric->GetSpine(s));
            spineSent += Pauses(spine).sent;
        }
        complete = true;
        for (const PfcFlow& f : flows)
        {
            complete = complete && f.completed == f.posted;
        }
        withinHeadroom = true;
        if (pfc)
        {
            NodeContainer sws = fabric->GetSwitches();
            for (uint32_t i = 0; i < sws.GetN(); i++)
            {
                Ptr<PfcSwitch> ps = sws.Get(i)->GetObject<PfcSwitch>();
                withinHeadroom = withinHeadroom && ps->GetMaxHeldBytes() <= ps->GetBufferSize();
            }
        }
        Simulator::Destroy();
    }

    void DoRun() override
    {
        uint64_t drops = 0;
        uint64_t marks = 0;
        PauseTotals switches;
        PauseTotals hosts;
        uint64_t spineSent = 0;
        bool complete = false;
        bool within = false;
        Incast(false, drops, marks, switches, hosts, spineSent, complete, within);
        NS_TEST_EXPECT_MSG_GT(drops, 0, "without PFC the incast overflows the small queues");
        NS_TEST_EXPECT_MSG_EQ(switches.sent + hosts.sent, 0, "no PFC, no PAUSE");

        Incast(true, drops, marks, switches, hosts, spineSent, complete, within);
        NS_TEST_EXPECT_MSG_EQ(drops, 0, "with PFC the fabric drops nothing");
        NS_TEST_EXPECT_MSG_EQ(complete, true, "every message completed");
        NS_TEST_EXPECT_MSG_GT(switches.sent, 0, "switches sent PAUSE");
        NS_TEST_EXPECT_MSG_GT(hosts.received, 0, "hosts were paused");
        NS_TEST_EXPECT_MSG_GT(hosts.paused, Time(0), "hosts spent time paused");
        NS_TEST_EXPECT_MSG_GT(switches.paused, Time(0), "switch ports spent time paused");
        NS_TEST_EXPECT_MSG_GT(spineSent, 0, "congestion spread to the spines");
        NS_TEST_EXPECT_MSG_EQ(hosts.sent, 0, "hosts hold nothing and never pause");
        NS_TEST_EXPECT_MSG_EQ(within, true, "the buffer held at most shared + headroom");
        NS_TEST_EXPECT_MSG_GT(marks, 0, "ECN still marks with PFC");

        // The same run again gives the same pauses, to the nanosecond.
        PauseTotals switches2;
        PauseTotals hosts2;
        uint64_t spineSent2 = 0;
        uint64_t marks2 = 0;
        Incast(true, drops, marks2, switches2, hosts2, spineSent2, complete, within);
        NS_TEST_EXPECT_MSG_EQ(switches2.sent, switches.sent, "same PAUSE frames");
        NS_TEST_EXPECT_MSG_EQ(switches2.paused, switches.paused, "same paused time");
        NS_TEST_EXPECT_MSG_EQ(hosts2.paused, hosts.paused, "same host paused time");
        NS_TEST_EXPECT_MSG_EQ(marks2, marks, "same ECN marks");
    }
};

/**
 * \ingroup reps-test
 * The experiment with --pfc=true: an incast into small switch queues drops nothing; the result
 * and its JSON give the PAUSE frames sent and received and the paused time, in totals that
 * are the sums of the listed ports; without --pfc the JSON has no "pfc" object.
 */
class PfcExperimentReportTestCase : public TestCase
{
  public:
    PfcExperimentReportTestCase()
        : TestCase("PFC in the experiment: lossless incast, pauses per port in the JSON report")
    {
    }

  private:
    /**
     * Run an 8:1 incast.
     * \param pfc --pfc
     * \return the result
     */
    static RunResult Incast(bool pfc)
    {
        FabricExperiment e;
        e.leaves = 3;
        e.hostsPerLeaf = 3;
        e.spines = 2;
        e.linkRate = "100Gbps";
        e.pattern = "incast";
        e.incastSenders = 8;
        e.flowSize = "256KiB";
        e.Set("queuePackets", "30");
        e.Set("ecnKmin", "5");
        e.Set("ecnKmax", "25");
        e.lb = "ops";
        e.quiet = true;
        e.pfc = pfc;
        e.Set("pfcMode", "static");
        e.Set("pfcThreshold", "32KiB");
        e.Check();
        return e.Run(e.GetSelectors()[0]);
    }

    void DoRun() override
    {
        RunResult lossy = Incast(false);
        NS_TEST_EXPECT_MSG_GT(lossy.drops, 0, "the incast drops without PFC");
        NS_TEST_EXPECT_MSG_EQ(lossy.pfc.enabled, false, "no PFC");
        ExperimentReport lossyReport;
        lossyReport.AddResult(lossy);
        NS_TEST_EXPECT_MSG_EQ(lossyReport.ToJson().find("\"pfc\""),
                              std::string::npos,
                              "no pfc object without PFC");

        RunResult r = Incast(true);
        NS_TEST_EXPECT_MSG_EQ(r.drops, 0, "nothing dropped with PFC");
        NS_TEST_EXPECT_MSG_EQ(r.flows.GetCompletedCount(), 8, "every flow completed");
        NS_TEST_ASSERT_MSG_EQ(r.pfc.enabled, true, "PFC reported");
        NS_TEST_EXPECT_MSG_GT(r.pfc.pausesSent, 0, "PAUSE frames sent");
        NS_TEST_EXPECT_MSG_EQ(r.pfc.pausesReceived, r.pfc.pausesSent, "every PAUSE arrived");
        NS_TEST_EXPECT_MSG_GT(r.pfc.pausesSentPerTier["spine"], 0, "spines paused leaves");
        NS_TEST_EXPECT_MSG_EQ(r.pfc.pausesSentPerTier["host"], 0, "hosts never pause");
        uint64_t sent = 0;
        double paused = 0;
        for (const PortPause& p : r.pfc.ports)
        {
            sent += p.pausesSent;
            paused += p.pausedUs;
        }
        NS_TEST_EXPECT_MSG_EQ(sent, r.pfc.pausesSent, "ports sum to the total");
        NS_TEST_EXPECT_MSG_EQ_TOL(paused, r.pfc.pausedUs, 1e-6, "ports sum to the total");
        NS_TEST_EXPECT_MSG_GT(r.pfc.pausedUs, 0, "paused time");
        ExperimentReport report;
        report.AddResult(r);
        std::string json = report.ToJson();
        for (const char* key : {"\"pfc\"", "\"pauses_sent\"", "\"paused_us\"", "\"ports\""})
        {
            NS_TEST_EXPECT_MSG_NE(json.find(key), std::string::npos, key << " in the JSON");
        }
        std::ostringstream table;
        report.PrintTable(table);
        NS_TEST_EXPECT_MSG_NE(
            table.str().find("pfc, ops: " + std::to_string(r.pfc.pausesSent) + " PAUSE sent"),
            std::string::npos,
            "the table's pfc line");
    }
};

/**
 * \ingroup reps-test
 * The retransmission timeout of a lossless fabric: with the experiments' default rule
 * (--rto=reference) a packet that only waited in deep or paused queues is never declared lost.
 */
class PfcRtoTestCase : public TestCase
{
  public:
    PfcRtoTestCase()
        : TestCase("PFC: the default RTO covers paused and deep queues, no spurious timeout")
    {
    }

  private:
    /**
     * Run an 8:1 incast of 512 KiB at 400 Gb/s under DCQCN and PFC that pauses.
     * \param rto --rto
     * \return the result
     */
    static RunResult Incast(const std::string& rto)
    {
        FabricExperiment e;
        e.leaves = 3;
        e.hostsPerLeaf = 3;
        e.spines = 2;
        e.linkRate = "400Gbps";
        e.mtu = 4096;
        e.pattern = "incast";
        e.incastSenders = 8;
        e.flowSize = "512KiB";
        e.cc = "dcqcn";
        e.lb = "ecmp";
        e.quiet = true;
        e.pfc = true;
        e.Set("pfcMode", "static");
        e.Set("pfcThreshold", "64KiB");
        e.rto = rto;
        e.Check();
        return e.Run(e.GetSelectors()[0]);
    }

    void DoRun() override
    {
        // Without the PFC bound (5 x the pair's base RTT) the paused packets time out.
        RunResult shortRto = Incast("basertt");
        NS_TEST_EXPECT_MSG_GT(shortRto.extra["timeouts"], 0, "a short RTO fires on paused packets");
        NS_TEST_EXPECT_MSG_GT(shortRto.retransmissions, 0, "and resends them");

        RunResult r = Incast("reference");
        NS_TEST_ASSERT_MSG_GT(r.pfc.pausesSent, 0, "the incast pauses");
        NS_TEST_EXPECT_MSG_EQ(r.drops, 0, "nothing dropped");
        NS_TEST_EXPECT_MSG_EQ(r.flows.GetCompletedCount(), 8, "every flow completed");
        NS_TEST_EXPECT_MSG_EQ(r.extra["timeouts"], 0, "no timeout in a lossless fabric");
        NS_TEST_EXPECT_MSG_EQ(r.retransmissions, 0, "no retransmission");
    }
};

/**
 * \ingroup reps-test
 * PFC (IEEE 802.1Qbb) lossless mode.
 */
class RepsPfcTestSuite : public TestSuite
{
  public:
    RepsPfcTestSuite()
        : TestSuite("reps-pfc", TestSuite::Type::UNIT)
    {
        AddTestCase(new PfcHeaderTestCase, reps::kQuick);
        AddTestCase(new PfcHeadroomTestCase, reps::kQuick);
        AddTestCase(new PfcPortTimingTestCase, reps::kQuick);
        AddTestCase(new PfcPauseTimingTestCase, reps::kQuick);
        AddTestCase(new PfcIncastTestCase("ns3::NoCongestionControl", false), reps::kQuick);
        AddTestCase(new PfcIncastTestCase("ns3::DcqcnCongestionControl", false), reps::kQuick);
        AddTestCase(new PfcIncastTestCase("ns3::RdmaWindowCongestionControl", true), reps::kQuick);
        AddTestCase(new PfcExperimentReportTestCase, reps::kQuick);
        AddTestCase(new PfcRtoTestCase, reps::kQuick);
    }
};

/// The one instance of the suite.
static RepsPfcTestSuite g_repsPfcTestSuite;
