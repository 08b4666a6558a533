/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "reps-test-compat.h"

#include "ns3/boolean.h"
#include "ns3/core-module.h"
#include "ns3/error-model.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/reps-module.h"
#include "ns3/traffic-control-module.h"

#include <map>
#include <set>
#include <sstream>
#include <tuple>
#include <vector>

using namespace ns3;

/**
 * \file
 * \ingroup reps-test
 * RoCEv2 queue pairs end to end over ns-3 point-to-point links and plain ns-3 routers:
 * delivery exactly once under reordering, random drops, a failed link, duplicates and trimming;
 * ACKs echoing entropy and CE; go-back-N against selective repeat; line-rate FCT; CNPs;
 * round-robin between queue pairs; validation of attributes.
 */

namespace
{

/**
 * \ingroup reps-test
 * A FIFO queue disc for the tests that CE-marks every MarkEvery-th packet and trims every
 * TrimEvery-th RoCEv2 data packet (cuts it to UDP + BTH and sets the BTH's trimmed mark), as a
 * switch would.
 */
class MangleTestQueueDisc : public QueueDisc
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::RepsTestMangleQueueDisc")
                                .SetParent<QueueDisc>()
                                .SetGroupName("Reps")
                                .AddConstructor<MangleTestQueueDisc>();
        return tid;
    }

    MangleTestQueueDisc()
        : QueueDisc(QueueDiscSizePolicy::SINGLE_INTERNAL_QUEUE)
    {
    }

    uint32_t markEvery{0};       //!< Mark every n-th packet (0: never).
    Time markUntil{Time::Max()}; //!< Stop marking at this time.
    uint32_t trimEvery{0};       //!< Trim every n-th data packet (0: never).
    uint32_t seen{0};            //!< Packets enqueued.
    uint32_t dequeued{0};        //!< Packets dequeued.
    uint32_t marked{0};          //!< Packets marked.
    uint32_t trimmed{0};         //!< Packets trimmed.

  private:
    bool DoEnqueue(Ptr<QueueDiscItem> item) override
    {
        ++seen;
        if (markEvery > 0 && seen % markEvery == 0 && Simulator::Now() < markUntil &&
            Mark(item, "test"))
        {
            ++marked;
        }
        return GetInternalQueue(0)->Enqueue(item);
    }

    Ptr<QueueDiscItem> DoDequeue() override
    {
        Ptr<QueueDiscItem> item = GetInternalQueue(0)->Dequeue();
        // Trimming on the way out: QueueDisc::Enqueue() checks that the bytes it received were
        // all enqueued, so the size of a packet may only change once it has left the queue.
        if (item && trimEvery > 0 && ++dequeued % trimEvery == 0)
        {
            Ptr<Packet> p = item->GetPacket();
            UdpHeader udp;
            RoceBthHeader bth;
            p->RemoveHeader(udp);
            p->PeekHeader(bth);
            if (bth.IsData())
            {
                p->RemoveHeader(bth);
                p->RemoveAtEnd(p->GetSize());
                bth.SetTrimmed(true);
                p->AddHeader(bth);
                ++trimmed;
            }
            p->AddHeader(udp);
        }
        return item;
    }

    bool CheckConfig() override
    {
        if (GetNInternalQueues() == 0)
        {
            SetMaxSize(QueueSize("100000p"));
            AddInternalQueue(CreateObjectWithAttributes<DropTailQueue<QueueDiscItem>>(
                "MaxSize",
                QueueSizeValue(GetMaxSize())));
        }
        return true;
    }

    void InitializeParams() override
    {
    }
};

NS_OBJECT_ENSURE_REGISTERED(MangleTestQueueDisc);

/// Counts what each side of a connection saw.
struct Tally
{
    std::vector<uint64_t> posted;    //!< Sizes posted, in order.
    std::vector<uint64_t> completed; //!< Sizes completed at the sender, in order.
    std::vector<Time> fct;           //!< FCTs, in order.
    std::vector<uint64_t> received;  //!< Sizes received, in order.
    Time lastCompletion;             //!< Time of the last completion.

    /// Sender completion callback.
    void Completed(uint64_t id, uint64_t size, Time fctValue)
    {
        completed.push_back(size);
        fct.push_back(fctValue);
        lastCompletion = Simulator::Now();
    }

    /// Receiver callback.
    void Received(uint64_t id, uint64_t size, Time t)
    {
        received.push_back(size);
    }

    /// Sum of posted sizes.
    uint64_t PostedBytes() const
    {
        uint64_t s = 0;
        for (auto b : posted)
        {
            s += b;
        }
        return s;
    }
};

/// A test network: hosts with the RDMA stack, and the devices of interest.
struct Net
{
    NodeContainer hosts;                            //!< Host 0 sends to host 1.
    NodeContainer routers;                          //!< Routers, if any.
    Ptr<PointToPointNetDevice> senderNic;           //!< Host 0's NIC.
    Ptr<PointToPointNetDevice> receiverNic;         //!< Host 1's NIC.
    std::vector<Ptr<PointToPointNetDevice>> middle; //!< Router devices of the parallel paths.
    Ptr<PointToPointNetDevice> lastHop;             //!< The router device that sends to host 1.
    Time baseRtt;                                   //!< Unloaded RTT of a full packet and its ACK.
};

/**
 * A point-to-point link with a FIFO queue disc on both ends (Ipv4AddressHelper would
 * otherwise install ns-3's default FqCoDel, which creates a flow queue per 5-tuple: per
 * entropy value when packets are sprayed).
 * \param a one end
 * \param b the other end
 * \param rate link rate
 * \param delay link delay
 * \return the two devices
 */
NetDeviceContainer
Link(Ptr<Node> a, Ptr<Node> b, const std::string& rate, const std::string& delay)
{
    PointToPointHelper p2p;
    p2p.SetDeviceAttribute("DataRate", StringValue(rate));
    p2p.SetDeviceAttribute("Mtu", UintegerValue(9000));
    p2p.SetChannelAttribute("Delay", StringValue(delay));
    // A one-packet device queue, so that the queue disc holds the backlog (and marks it).
    p2p.SetQueue("ns3::DropTailQueue", "MaxSize", StringValue("1p"));
    NetDeviceContainer d = p2p.Install(a, b);
    TrafficControlHelper tch;
    tch.SetRootQueueDisc("ns3::FifoQueueDisc", "MaxSize", StringValue("1000p"));
    tch.Install(d);
    return d;
}

/**
 * Two hosts on one link.
 * \param rate link rate
 * \param delay link delay
 * \return the network
 */
Net
TwoHosts(const std::string& rate = "100Gbps", const std::string& delay = "1us")
{
    Net net;
    net.hosts.Create(2);
    InternetStackHelper internet;
    internet.Install(net.hosts);
    NetDeviceContainer d = Link(net.hosts.Get(0), net.hosts.Get(1), rate, delay);
    Ipv4AddressHelper ip("10.0.0.0", "255.255.255.0");
    ip.Assign(d);
    net.senderNic = DynamicCast<PointToPointNetDevice>(d.Get(0));
    net.receiverNic = DynamicCast<PointToPointNetDevice>(d.Get(1));
    DataRate r(rate);
    Time oneWay(delay);
    net.baseRtt = 2 * oneWay + r.CalculateBytesTxTime(4096 + 46) + r.CalculateBytesTxTime(66);
    return net;
}

/**
 * Two hosts joined by four routers: r0 and r3 at the edges, r1 and r2 as two parallel paths
 * (the one through r2 has a longer delay). With RandomEcmpRouting every packet picks a path
 * at random, so packets arrive out of order.
 * \return the network
 */
Net
Diamond(const std::string& lastHopRate = "100Gbps")
{
    Net net;
    net.hosts.Create(2);
    net.routers.Create(4);
    InternetStackHelper internet;
    internet.Install(net.hosts);
    internet.Install(net.routers);
    Ptr<Node> h0 = net.hosts.Get(0);
    Ptr<Node> h1 = net.hosts.Get(1);
    Ptr<Node> r0 = net.routers.Get(0);
    Ptr<Node> r1 = net.routers.Get(1);
    Ptr<Node> r2 = net.routers.Get(2);
    Ptr<Node> r3 = net.routers.Get(3);
    // Hosts first, so that their NIC is IPv4 interface 1.
    NetDeviceContainer a = Link(h0, r0, "100Gbps", "1us");
    NetDeviceContainer b = Link(h1, r3, lastHopRate, "1us");
    NetDeviceContainer c = Link(r0, r1, "100Gbps", "1us");
    NetDeviceContainer d = Link(r0, r2, "100Gbps", "3us");
    NetDeviceContainer e = Link(r1, r3, "100Gbps", "1us");
    NetDeviceContainer f = Link(r2, r3, "100Gbps", "3us");
    Ipv4AddressHelper ip;
    ip.SetBase("10.0.1.0", "255.255.255.0");
    ip.Assign(a);
    ip.SetBase("10.0.2.0", "255.255.255.0");
    ip.Assign(b);
    ip.SetBase("10.0.3.0", "255.255.255.0");
    ip.Assign(c);
    ip.SetBase("10.0.4.0", "255.255.255.0");
    ip.Assign(d);
    ip.SetBase("10.0.5.0", "255.255.255.0");
    ip.Assign(e);
    ip.SetBase("10.0.6.0", "255.255.255.0");
    ip.Assign(f);
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();
    net.senderNic = DynamicCast<PointToPointNetDevice>(a.Get(0));
    net.receiverNic = DynamicCast<PointToPointNetDevice>(b.Get(0));
    net.lastHop = DynamicCast<PointToPointNetDevice>(b.Get(1));
    net.middle = {DynamicCast<PointToPointNetDevice>(c.Get(1)),
                  DynamicCast<PointToPointNetDevice>(d.Get(1))};
    DataRate r("100Gbps");
    net.baseRtt = 2 * MicroSeconds(4) + 3 * r.CalculateBytesTxTime(4096 + 46) +
                  3 * r.CalculateBytesTxTime(66);
    return net;
}

/**
 * Make a queue disc the root queue disc of the sender's NIC (in place of the default one that
 * Ipv4AddressHelper installs).
 * \param net the network
 * \param qdisc the queue disc
 */
void
InstallOnSender(Net& net, Ptr<QueueDisc> qdisc)
{
    Ptr<TrafficControlLayer> tc = net.hosts.Get(0)->GetObject<TrafficControlLayer>();
    if (tc->GetRootQueueDiscOnDevice(net.senderNic))
    {
        tc->DeleteRootQueueDiscOnDevice(net.senderNic);
    }
    tc->SetRootQueueDiscOnDevice(net.senderNic, qdisc);
}

/// Random per-packet ECMP in ns-3's global routing (before routers are built).
void
EnableRandomEcmp()
{
    Config::SetDefault("ns3::Ipv4GlobalRouting::RandomEcmpRouting", BooleanValue(true));
}

/// Restore the default.
void
DisableRandomEcmp()
{
    Config::SetDefault("ns3::Ipv4GlobalRouting::RandomEcmpRouting", BooleanValue(false));
}

/**
 * Install the stack, connect one pair, post messages and run.
 * \param net the network
 * \param rdma the configured helper
 * \param sizes message sizes
 * \param tally what was seen
 * \param stop simulation end
 * \return the sender and receiver queue pairs
 */
std::pair<Ptr<RdmaQueuePair>, Ptr<RdmaQueuePair>>
RunPair(Net& net, RdmaHelper& rdma, const std::vector<uint64_t>& sizes, Tally& tally, Time stop)
{
    rdma.SetQueuePairAttribute("BaseRtt", TimeValue(net.baseRtt));
    rdma.Install(net.hosts);
    auto qps = rdma.CreateQueuePair(net.hosts.Get(0), net.hosts.Get(1));
    rdma.AssignStreams(net.hosts, 100);
    qps.second->SetReceiveCallback(MakeCallback(&Tally::Received, &tally));
    for (uint64_t s : sizes)
    {
        tally.posted.push_back(s);
        qps.first->PostSend(s, MakeCallback(&Tally::Completed, &tally));
    }
    Simulator::Stop(stop);
    Simulator::Run();
    return qps;
}

/**
 * Check every message completed, in order, with every byte delivered exactly once.
 * \param tally what was seen
 * \param qps sender and receiver
 * \param what the scenario, for messages
 * \return an empty string when all checks pass, else what went wrong
 */
std::string
CheckExactlyOnce(const Tally& tally,
                 const std::pair<Ptr<RdmaQueuePair>, Ptr<RdmaQueuePair>>& qps,
                 const std::string& what)
{
    const RdmaQueuePairStats& rx = qps.second->GetStats();
    const RdmaQueuePairStats& tx = qps.first->GetStats();
    bool ok = tally.completed == tally.posted && tally.received == tally.posted &&
              rx.bytesReceived == tally.PostedBytes() && qps.first->IsIdle();
    if (!ok)
    {
        std::ostringstream os;
        os << what << ": posted " << tally.posted.size() << " messages (" << tally.PostedBytes()
           << " bytes), completed " << tally.completed.size() << ", received "
           << tally.received.size() << ", bytes placed " << rx.bytesReceived << ", sent "
           << tx.packetsSent << " (" << tx.retransmissions << " retx, " << tx.timeouts
           << " RTOs), duplicates " << rx.duplicates;
        return os.str();
    }
    return "";
}

/// Messages of mixed sizes, including an empty one and ones that are not multiples of Mtu.
std::vector<uint64_t>
MixedSizes()
{
    return {1, 0, 4096, 4097, 100000, 1000000, 12345, 2000000, 3};
}

} // namespace

/**
 * \ingroup reps-test
 * Two hosts, one link, no loss: every message of mixed sizes arrives once, in order, and the
 * counters agree (no retransmission, one ACK per data packet).
 */
class RdmaTwoHostCleanTestCase : public TestCase
{
  public:
    RdmaTwoHostCleanTestCase()
        : TestCase(
              "2 hosts, clean link: every message completes, every byte once, one ACK per packet")
    {
    }

  private:
    void DoRun() override
    {
        Net net = TwoHosts();
        RdmaHelper rdma;
        Tally tally;
        auto qps = RunPair(net, rdma, MixedSizes(), tally, MilliSeconds(10));
        NS_TEST_EXPECT_MSG_EQ(CheckExactlyOnce(tally, qps, "clean link"),
                              "",
                              "every message, every byte exactly once");
        const RdmaQueuePairStats& tx = qps.first->GetStats();
        const RdmaQueuePairStats& rx = qps.second->GetStats();
        NS_TEST_EXPECT_MSG_EQ(tx.retransmissions, 0, "no retransmission on a clean link");
        NS_TEST_EXPECT_MSG_EQ(rx.duplicates, 0, "no duplicate on a clean link");
        NS_TEST_EXPECT_MSG_EQ(rx.acksSent, rx.dataReceived, "one ACK per data packet");
        NS_TEST_EXPECT_MSG_EQ(tx.acksReceived, tx.packetsSent, "every ACK arrives");
        uint64_t packets = 0;
        for (uint64_t s : MixedSizes())
        {
            packets += s == 0 ? 1 : (s + 4095) / 4096;
        }
        NS_TEST_EXPECT_MSG_EQ(tx.packetsSent, packets, "MTU segmentation");
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * Every data packet carries the entropy value the path selector chose as UDP source port; the
 * ACK of a packet echoes the EV and the CE bit that packet arrived with (a queue disc marks
 * every third packet), and the sender's AckReceived trace reports them.
 */
class RdmaAckEchoTestCase : public TestCase
{
  public:
    RdmaAckEchoTestCase()
        : TestCase("ACKs echo the entropy value and CE bit of the packet they acknowledge")
    {
    }

  private:
    std::map<uint32_t, uint16_t> m_sentEv;                   //!< PSN -> EV sent.
    std::map<uint32_t, std::pair<uint16_t, bool>> m_arrived; //!< PSN -> (EV, CE) at receiver.
    uint32_t m_acks{0};                                      //!< ACKs checked.
    uint32_t m_marked{0};                                    //!< ACKs echoing CE.
    uint32_t m_mismatch{0};                                  //!< ACKs echoing wrongly.
    std::map<uint16_t, uint32_t> m_evAcks;                   //!< EV -> ACKs.

    void Sent(uint32_t psn, uint16_t ev, bool retx)
    {
        m_sentEv[psn] = ev;
    }

    void Arrived(uint32_t psn, uint16_t ev, bool ce, bool dup)
    {
        m_arrived[psn] = {ev, ce};
    }

    void Acked(uint32_t psn, uint16_t ev, bool ce, Time rtt)
    {
        ++m_acks;
        m_marked += ce ? 1 : 0;
        ++m_evAcks[ev];
        auto a = m_arrived.find(psn);
        if (a == m_arrived.end() || a->second.first != ev || a->second.second != ce ||
            m_sentEv[psn] != ev || !rtt.IsStrictlyPositive())
        {
            ++m_mismatch;
        }
    }

    void DoRun() override
    {
        Net net = TwoHosts();
        Ptr<MangleTestQueueDisc> mangle = CreateObject<MangleTestQueueDisc>();
        mangle->markEvery = 3;
        InstallOnSender(net, mangle);
        RdmaHelper rdma;
        rdma.SetPathSelector("ns3::OpsPathSelector");
        rdma.SetCongestionControl("ns3::NoCongestionControl");
        rdma.SetQueuePairAttribute("BaseRtt", TimeValue(net.baseRtt));
        rdma.Install(net.hosts);
        auto qps = rdma.CreateQueuePair(net.hosts.Get(0), net.hosts.Get(1));
        rdma.AssignStreams(net.hosts, 7);
        qps.first->TraceConnectWithoutContext("PacketSent",
                                              MakeCallback(&RdmaAckEchoTestCase::Sent, this));
        qps.second->TraceConnectWithoutContext("DataReceived",
                                               MakeCallback(&RdmaAckEchoTestCase::Arrived, this));
        qps.first->TraceConnectWithoutContext("AckReceived",
                                              MakeCallback(&RdmaAckEchoTestCase::Acked, this));
        Tally tally;
        tally.posted.push_back(300 * 4096);
        qps.first->PostSend(300 * 4096, MakeCallback(&Tally::Completed, &tally));
        Simulator::Stop(MilliSeconds(5));
        Simulator::Run();

        NS_TEST_EXPECT_MSG_EQ(tally.completed.size(), 1, "message completes");
        NS_TEST_EXPECT_MSG_EQ(m_acks, 300, "one ACK per packet");
        NS_TEST_EXPECT_MSG_EQ(m_mismatch, 0, "every ACK echoes its packet's EV and CE");
        NS_TEST_EXPECT_MSG_EQ(mangle->marked, 100, "the queue disc marked (the stack sends ECT)");
        NS_TEST_EXPECT_MSG_EQ(m_marked, 100, "every mark is echoed, and only marks");
        NS_TEST_EXPECT_MSG_EQ(qps.first->GetStats().ecnAcks, 100, "ECN-marked ACK counter");
        NS_TEST_EXPECT_MSG_GT(m_evAcks.size(), 250, "per-packet random EVs were used");
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * Reordering: per-packet random routing over two paths of different delays (plain ns-3
 * routers with RandomEcmpRouting) makes packets arrive out of order; selective repeat places
 * them without any retransmission.
 */
class RdmaReorderingTestCase : public TestCase
{
  public:
    RdmaReorderingTestCase()
        : TestCase("Reordering over two paths: every byte once, no spurious retransmission")
    {
    }

  private:
    uint32_t m_outOfOrder{0}; //!< Packets that arrived below the highest PSN seen.
    uint32_t m_highest{0};    //!< Highest PSN seen.

    void Arrived(uint32_t psn, uint16_t ev, bool ce, bool dup)
    {
        if (psn < m_highest)
        {
            ++m_outOfOrder;
        }
        m_highest = std::max(m_highest, psn);
    }

    void DoRun() override
    {
        EnableRandomEcmp();
        Net net = Diamond();
        RdmaHelper rdma;
        rdma.SetPathSelector("ns3::OpsPathSelector");
        rdma.SetCongestionControl("ns3::NoCongestionControl", "Window", UintegerValue(64 * 4096));
        rdma.SetQueuePairAttribute("BaseRtt", TimeValue(net.baseRtt));
        rdma.Install(net.hosts);
        auto qps = rdma.CreateQueuePair(net.hosts.Get(0), net.hosts.Get(1));
        rdma.AssignStreams(net.hosts, 1);
        qps.second->TraceConnectWithoutContext(
            "DataReceived",
            MakeCallback(&RdmaReorderingTestCase::Arrived, this));
        Tally tally;
        qps.second->SetReceiveCallback(MakeCallback(&Tally::Received, &tally));
        for (uint64_t s : MixedSizes())
        {
            tally.posted.push_back(s);
            qps.first->PostSend(s, MakeCallback(&Tally::Completed, &tally));
        }
        Simulator::Stop(MilliSeconds(20));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(CheckExactlyOnce(tally, qps, "reordering"),
                              "",
                              "every message, every byte exactly once");
        NS_TEST_EXPECT_MSG_GT(m_outOfOrder, 50, "packets arrived out of order");
        NS_TEST_EXPECT_MSG_EQ(qps.first->GetStats().retransmissions,
                              0,
                              "selective repeat needs no retransmission for reordering");
        DisableRandomEcmp();
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * ACK coalescing under reordering (AckEvery 16, no AckDelay): the packet that fills a gap is
 * acknowledged at once, so the sender never waits for its retransmission timer although the
 * packets that fill the last gaps are often the last of a window to arrive.
 */
class RdmaReorderingCoalescedTestCase : public TestCase
{
  public:
    RdmaReorderingCoalescedTestCase()
        : TestCase("Reordering with AckEvery 16: gap-filling packets ACKed at once, no timeout")
    {
    }

  private:
    void DoRun() override
    {
        EnableRandomEcmp();
        Net net = Diamond();
        RdmaHelper rdma;
        rdma.SetPathSelector("ns3::OpsPathSelector");
        rdma.SetCongestionControl("ns3::NoCongestionControl", "Window", UintegerValue(64 * 4096));
        rdma.SetQueuePairAttribute("AckEvery", UintegerValue(16));
        rdma.SetQueuePairAttribute("BaseRtt", TimeValue(net.baseRtt));
        rdma.Install(net.hosts);
        auto qps = rdma.CreateQueuePair(net.hosts.Get(0), net.hosts.Get(1));
        rdma.AssignStreams(net.hosts, 1);
        Tally tally;
        qps.second->SetReceiveCallback(MakeCallback(&Tally::Received, &tally));
        // One message each time, so that nothing sent later pushes the held packets out.
        for (uint64_t s : {300 * 4096, 1000 * 4096 + 5})
        {
            tally.posted.push_back(s);
            Simulator::Schedule(MilliSeconds(tally.posted.size() - 1), [&qps, &tally, s]() {
                qps.first->PostSend(s, MakeCallback(&Tally::Completed, &tally));
            });
        }
        Simulator::Stop(MilliSeconds(20));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(CheckExactlyOnce(tally, qps, "reordering, AckEvery 16"),
                              "",
                              "every message, every byte exactly once");
        NS_TEST_EXPECT_MSG_EQ(qps.first->GetStats().timeouts, 0, "no wait for the timer");
        NS_TEST_EXPECT_MSG_EQ(qps.first->GetStats().retransmissions, 0, "no retransmission");
        NS_TEST_EXPECT_MSG_LT(qps.second->GetStats().acksSent,
                              qps.second->GetStats().dataReceived,
                              "ACKs still coalesced");
        DisableRandomEcmp();
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * Random drops (RateErrorModel) on the data and the ACK direction, over one link and over the
 * reordering diamond: every message completes with every byte once; the lost packets are
 * retransmitted and nothing else is (retransmissions stay close to the drops).
 */
class RdmaRandomDropTestCase : public TestCase
{
  public:
    /**
     * \param diamond over the two-path diamond with per-packet spraying (else two hosts)
     */
    RdmaRandomDropTestCase(bool diamond)
        : TestCase(std::string("Random drops (1% each way), ") +
                   (diamond ? "sprayed over two paths" : "2 hosts") +
                   ": every byte once, only lost packets resent"),
          m_diamond(diamond)
    {
    }

  private:
    bool m_diamond; //!< Topology.

    void DoRun() override
    {
        if (m_diamond)
        {
            EnableRandomEcmp();
        }
        Net net = m_diamond ? Diamond() : TwoHosts();
        Ptr<RateErrorModel> dataLoss = CreateObject<RateErrorModel>();
        dataLoss->SetAttribute("ErrorRate", DoubleValue(0.01));
        dataLoss->SetAttribute("ErrorUnit", StringValue("ERROR_UNIT_PACKET"));
        dataLoss->AssignStreams(11);
        net.receiverNic->SetReceiveErrorModel(dataLoss);
        Ptr<RateErrorModel> ackLoss = CreateObject<RateErrorModel>();
        ackLoss->SetAttribute("ErrorRate", DoubleValue(0.01));
        ackLoss->SetAttribute("ErrorUnit", StringValue("ERROR_UNIT_PACKET"));
        ackLoss->AssignStreams(12);
        net.senderNic->SetReceiveErrorModel(ackLoss);
        uint64_t dataDrops = 0;
        net.receiverNic->TraceConnectWithoutContext(
            "PhyRxDrop",
            MakeBoundCallback(
                +[](uint64_t* n, Ptr<const Packet>) { ++*n; },
                &dataDrops));

        RdmaHelper rdma;
        if (m_diamond)
        {
            rdma.SetPathSelector("ns3::OpsPathSelector");
        }
        rdma.SetCongestionControl("ns3::RdmaWindowCongestionControl");
        Tally tally;
        auto qps = RunPair(net, rdma, MixedSizes(), tally, MilliSeconds(50));
        NS_TEST_EXPECT_MSG_EQ(
            CheckExactlyOnce(tally, qps, m_diamond ? "drops, diamond" : "drops, 2 hosts"),
            "",
            "every message, every byte exactly once");
        const RdmaQueuePairStats& tx = qps.first->GetStats();
        NS_TEST_EXPECT_MSG_GT(dataDrops, 0, "the error model dropped data packets");
        NS_TEST_EXPECT_MSG_GT_OR_EQ(tx.retransmissions, dataDrops, "every lost packet resent");
        // Retransmissions beyond the data drops come only from lost ACKs whose packet timed
        // out before a later ACK covered it, and from lost retransmissions.
        NS_TEST_EXPECT_MSG_LT_OR_EQ(tx.retransmissions,
                                    2 * dataDrops + 10,
                                    "retransmission of (about) exactly what is missing");
        DisableRandomEcmp();
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * A link that fails (drops everything, both ways) for a while and comes back: the queue pair
 * times out, resends, and every message completes with every byte once. Over the diamond,
 * one of the two parallel paths fails while packets are sprayed over both.
 */
class RdmaLinkFailureTestCase : public TestCase
{
  public:
    /**
     * \param diamond fail one path of the diamond (else the only link of two hosts)
     */
    RdmaLinkFailureTestCase(bool diamond)
        : TestCase(std::string("A link fails for 300 us and comes back, ") +
                   (diamond ? "one of two sprayed paths" : "2 hosts") + ": every byte once"),
          m_diamond(diamond)
    {
    }

  private:
    bool m_diamond; //!< Topology.

    void DoRun() override
    {
        if (m_diamond)
        {
            EnableRandomEcmp();
        }
        Net net = m_diamond ? Diamond() : TwoHosts();
        std::vector<Ptr<PointToPointNetDevice>> failed;
        if (m_diamond)
        {
            failed = {net.middle[0]};
        }
        else
        {
            failed = {net.senderNic, net.receiverNic};
        }
        for (auto& dev : failed)
        {
            Ptr<RateErrorModel> down = CreateObject<RateErrorModel>();
            down->SetAttribute("ErrorRate", DoubleValue(1.0));
            down->SetAttribute("ErrorUnit", StringValue("ERROR_UNIT_PACKET"));
            down->Disable();
            dev->SetReceiveErrorModel(down);
            Simulator::Schedule(MicroSeconds(100), &ErrorModel::Enable, down);
            Simulator::Schedule(MicroSeconds(400), &ErrorModel::Disable, down);
        }
        RdmaHelper rdma;
        if (m_diamond)
        {
            rdma.SetPathSelector("ns3::OpsPathSelector");
        }
        rdma.SetCongestionControl("ns3::RdmaWindowCongestionControl");
        Tally tally;
        auto qps = RunPair(net, rdma, {4000000, 50000, 1}, tally, MilliSeconds(50));
        NS_TEST_EXPECT_MSG_EQ(
            CheckExactlyOnce(tally, qps, m_diamond ? "failure, diamond" : "failure, 2 hosts"),
            "",
            "every message, every byte exactly once");
        const RdmaQueuePairStats& tx = qps.first->GetStats();
        NS_TEST_EXPECT_MSG_GT(tx.timeouts, 0, "the failure caused timeouts");
        NS_TEST_EXPECT_MSG_GT(tx.retransmissions, 0, "lost packets were resent");
        NS_TEST_EXPECT_MSG_GT(tally.lastCompletion, MicroSeconds(400), "completed after repair");
        DisableRandomEcmp();
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * Duplicates: all ACKs are lost for a while, so the sender times out and resends packets the
 * receiver already has; the receiver detects them, acknowledges them again and does not count
 * their bytes twice.
 */
class RdmaDuplicateTestCase : public TestCase
{
  public:
    RdmaDuplicateTestCase()
        : TestCase("Lost ACKs cause duplicates, which are detected and not counted twice")
    {
    }

  private:
    void DoRun() override
    {
        Net net = TwoHosts();
        Ptr<RateErrorModel> down = CreateObject<RateErrorModel>();
        down->SetAttribute("ErrorRate", DoubleValue(1.0));
        down->SetAttribute("ErrorUnit", StringValue("ERROR_UNIT_PACKET"));
        down->Disable();
        net.senderNic->SetReceiveErrorModel(down);
        Simulator::Schedule(MicroSeconds(50), &ErrorModel::Enable, down);
        Simulator::Schedule(MicroSeconds(80), &ErrorModel::Disable, down);
        RdmaHelper rdma;
        Tally tally;
        auto qps = RunPair(net, rdma, {2000000}, tally, MilliSeconds(10));
        NS_TEST_EXPECT_MSG_EQ(CheckExactlyOnce(tally, qps, "lost ACKs"),
                              "",
                              "every message, every byte exactly once");
        NS_TEST_EXPECT_MSG_GT(qps.second->GetStats().duplicates, 0, "duplicates arrived");
        NS_TEST_EXPECT_MSG_EQ(qps.second->GetStats().bytesReceived,
                              2000000,
                              "duplicate bytes not counted");
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * Trimming: a queue disc cuts every 10th data packet to its headers and marks it trimmed; the
 * receiver answers each with a NACK at once, and the sender resends exactly those packets,
 * without any timeout.
 */
class RdmaTrimNackTestCase : public TestCase
{
  public:
    RdmaTrimNackTestCase()
        : TestCase("Trimmed packets are NACKed at once and exactly they are resent")
    {
    }

  private:
    void DoRun() override
    {
        Net net = TwoHosts();
        Ptr<MangleTestQueueDisc> mangle = CreateObject<MangleTestQueueDisc>();
        mangle->trimEvery = 10;
        InstallOnSender(net, mangle);
        RdmaHelper rdma;
        Tally tally;
        auto qps = RunPair(net, rdma, {1000000, 3000}, tally, MilliSeconds(10));
        NS_TEST_EXPECT_MSG_EQ(CheckExactlyOnce(tally, qps, "trimming"),
                              "",
                              "every message, every byte exactly once");
        const RdmaQueuePairStats& tx = qps.first->GetStats();
        const RdmaQueuePairStats& rx = qps.second->GetStats();
        NS_TEST_EXPECT_MSG_GT(mangle->trimmed, 0, "packets were trimmed");
        NS_TEST_EXPECT_MSG_EQ(rx.trimmedReceived, mangle->trimmed, "trimmed packets arrived");
        NS_TEST_EXPECT_MSG_EQ(rx.nacksSent, mangle->trimmed, "one NACK per trimmed packet");
        NS_TEST_EXPECT_MSG_EQ(tx.nacksReceived, mangle->trimmed, "NACKs arrived");
        NS_TEST_EXPECT_MSG_EQ(tx.retransmissions, mangle->trimmed, "exactly those resent");
        NS_TEST_EXPECT_MSG_EQ(tx.timeouts, 0, "no timeout needed");
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * One queue pair at line rate on an uncongested link finishes a large message within a few
 * percent of size / rate + base RTT.
 */
class RdmaLineRateTestCase : public TestCase
{
  public:
    /**
     * \param cc congestion control TypeId
     */
    RdmaLineRateTestCase(const std::string& cc)
        : TestCase("Line rate: 16 MiB over an idle 100 Gbps link within 3% of ideal, " + cc),
          m_cc(cc)
    {
    }

  private:
    std::string m_cc; //!< Congestion control.

    void DoRun() override
    {
        Net net = TwoHosts("100Gbps", "1us");
        RdmaHelper rdma;
        rdma.SetCongestionControl(m_cc);
        Tally tally;
        const uint64_t size = 16 * 1024 * 1024;
        RunPair(net, rdma, {size}, tally, MilliSeconds(10));
        NS_TEST_ASSERT_MSG_EQ(tally.completed.size(), 1, "message completes");
        Time ideal = DataRate("100Gbps").CalculateBytesTxTime(size) + net.baseRtt;
        double ratio = tally.fct[0].GetSeconds() / ideal.GetSeconds();
        NS_TEST_EXPECT_MSG_LT(ratio,
                              1.03,
                              "FCT " << tally.fct[0].As(Time::US) << " vs ideal "
                                     << ideal.As(Time::US));
        NS_TEST_EXPECT_MSG_GT(ratio, 1.0, "faster than the link?");
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * With per-packet spraying over two paths of different delays, go-back-N (classic RoCEv2)
 * throws away every out-of-order packet and resends from the hole; selective repeat does not.
 * The same 4 MB transfer is measurably slower with go-back-N.
 */
class RdmaGoBackNTestCase : public TestCase
{
  public:
    RdmaGoBackNTestCase()
        : TestCase("Go-back-N is measurably slower than selective repeat under spraying")
    {
    }

  private:
    /// \return FCT and retransmissions of one run
    std::pair<Time, uint64_t> Once(bool goBackN)
    {
        EnableRandomEcmp();
        Net net = Diamond();
        RdmaHelper rdma;
        rdma.SetPathSelector("ns3::OpsPathSelector");
        rdma.SetCongestionControl("ns3::RdmaWindowCongestionControl");
        rdma.SetQueuePairAttribute("GoBackN", BooleanValue(goBackN));
        Tally tally;
        auto qps = RunPair(net, rdma, {4000000}, tally, MilliSeconds(200));
        NS_TEST_EXPECT_MSG_EQ(
            CheckExactlyOnce(tally, qps, goBackN ? "go-back-N" : "selective repeat"),
            "",
            "every message, every byte exactly once");
        Time fct = tally.fct.empty() ? Time::Max() : tally.fct[0];
        uint64_t retx = qps.first->GetStats().retransmissions;
        DisableRandomEcmp();
        Simulator::Destroy();
        return {fct, retx};
    }

    void DoRun() override
    {
        auto sr = Once(false);
        auto gbn = Once(true);
        std::ostringstream os;
        os << "selective repeat " << sr.first.As(Time::US) << " (" << sr.second
           << " retransmissions), go-back-N " << gbn.first.As(Time::US) << " (" << gbn.second
           << " retransmissions)";
        NS_TEST_EXPECT_MSG_GT(gbn.first.GetSeconds(), 1.5 * sr.first.GetSeconds(), os.str());
        NS_TEST_EXPECT_MSG_GT(gbn.second, 100 * (sr.second + 1), os.str());
    }
};

/**
 * \ingroup reps-test
 * DCQCN end to end: CE marks make the receiver send CNPs (at most one per CnpInterval), the
 * sender's rate falls below line rate, and the message still completes.
 */
class RdmaCnpTestCase : public TestCase
{
  public:
    RdmaCnpTestCase()
        : TestCase("DCQCN: CE marks produce rate-limited CNPs, the rate falls, then recovers")
    {
    }

  private:
    DataRate m_minRate{"1000Gbps"}; //!< Lowest rate traced.

    void Rate(DataRate oldRate, DataRate newRate)
    {
        m_minRate = std::min(m_minRate, newRate);
    }

    void DoRun() override
    {
        Net net = TwoHosts();
        Ptr<MangleTestQueueDisc> mangle = CreateObject<MangleTestQueueDisc>();
        mangle->markEvery = 2;
        mangle->markUntil = MicroSeconds(300);
        InstallOnSender(net, mangle);
        RdmaHelper rdma;
        // RAi of 1 Gb/s (the default 40 Mb/s is the DCQCN paper's, for 40 Gb/s NICs, and takes
        // tens of milliseconds to climb back from a few Gb/s).
        rdma.SetCongestionControl("ns3::DcqcnCongestionControl",
                                  "CnpInterval",
                                  TimeValue(MicroSeconds(50)),
                                  "AdditiveIncrease",
                                  DataRateValue(DataRate("1Gbps")));
        rdma.SetQueuePairAttribute("BaseRtt", TimeValue(net.baseRtt));
        rdma.Install(net.hosts);
        auto qps = rdma.CreateQueuePair(net.hosts.Get(0), net.hosts.Get(1));
        Ptr<RdmaCongestionControl> cc = qps.first->GetCongestionControl();
        cc->TraceConnectWithoutContext("Rate", MakeCallback(&RdmaCnpTestCase::Rate, this));
        Tally tally;
        qps.first->PostSend(20000000, MakeCallback(&Tally::Completed, &tally));
        Simulator::Stop(MilliSeconds(50));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(tally.completed.size(), 1, "message completes");
        const RdmaQueuePairStats& rx = qps.second->GetStats();
        const RdmaQueuePairStats& tx = qps.first->GetStats();
        NS_TEST_EXPECT_MSG_GT(rx.cnpsSent, 1, "CNPs sent");
        NS_TEST_EXPECT_MSG_EQ(tx.cnpsReceived, rx.cnpsSent, "CNPs arrive");
        // At most one CNP per 50 us while marking lasts (300 us).
        NS_TEST_EXPECT_MSG_LT_OR_EQ(rx.cnpsSent, 7, "CNPs rate limited");
        NS_TEST_EXPECT_MSG_LT(m_minRate, DataRate("30Gbps"), "the rate fell");
        NS_TEST_EXPECT_MSG_EQ(cc->GetRate(), DataRate("100Gbps"), "back at line rate");
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * Two queue pairs of one host share the NIC round-robin: equal messages posted together finish
 * together, each at about half the line rate.
 */
class RdmaRoundRobinTestCase : public TestCase
{
  public:
    RdmaRoundRobinTestCase()
        : TestCase("Queue pairs of a host share the NIC round-robin")
    {
    }

  private:
    void DoRun() override
    {
        Net net = TwoHosts();
        RdmaHelper rdma;
        rdma.SetCongestionControl("ns3::NoCongestionControl");
        rdma.SetQueuePairAttribute("BaseRtt", TimeValue(net.baseRtt));
        rdma.Install(net.hosts);
        auto a = rdma.CreateQueuePair(net.hosts.Get(0), net.hosts.Get(1));
        auto b = rdma.CreateQueuePair(net.hosts.Get(0)->GetObject<RdmaStack>()->GetAddress(),
                                      net.hosts.Get(1)->GetObject<RdmaStack>()->GetAddress());
        NS_TEST_EXPECT_MSG_EQ(a.first->GetQpn(), 1, "first QPN");
        NS_TEST_EXPECT_MSG_EQ(b.first->GetQpn(), 2, "second QPN");
        NS_TEST_EXPECT_MSG_EQ(a.first->GetRemoteQpn(), a.second->GetQpn(), "connected");
        NS_TEST_EXPECT_MSG_EQ(b.second->GetRemoteQpn(), b.first->GetQpn(), "connected");
        NS_TEST_EXPECT_MSG_EQ(b.second->GetRemoteAddress(),
                              net.hosts.Get(0)->GetObject<RdmaStack>()->GetAddress(),
                              "connected by address");
        Tally ta;
        Tally tb;
        const uint64_t size = 4000000;
        a.first->PostSend(size, MakeCallback(&Tally::Completed, &ta));
        b.first->PostSend(size, MakeCallback(&Tally::Completed, &tb));
        Simulator::Stop(MilliSeconds(10));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(ta.fct.size() + tb.fct.size(), 2, "both complete");
        Time both = DataRate("100Gbps").CalculateBytesTxTime(2 * size);
        double ra = ta.fct[0].GetSeconds() / both.GetSeconds();
        double rb = tb.fct[0].GetSeconds() / both.GetSeconds();
        NS_TEST_EXPECT_MSG_GT(ra, 0.99, "QP 1 shared the link");
        NS_TEST_EXPECT_MSG_GT(rb, 0.99, "QP 2 shared the link");
        NS_TEST_EXPECT_MSG_LT(ra, 1.03, "QP 1 was not starved");
        NS_TEST_EXPECT_MSG_LT(rb, 1.03, "QP 2 was not starved");
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * Bad attributes are reported with a message that names the parameter (checked through the
 * validation functions the aborting code paths use).
 */
class RdmaValidationTestCase : public TestCase
{
  public:
    RdmaValidationTestCase()
        : TestCase("Bad attributes: zero Mtu, window below one packet, unknown TypeIds")
    {
    }

  private:
    static bool Has(const std::string& text, const std::string& what)
    {
        return text.find(what) != std::string::npos;
    }

    void DoRun() override
    {
        Ptr<RdmaQueuePair> qp = CreateObject<RdmaQueuePair>();
        NS_TEST_EXPECT_MSG_EQ(qp->Validate(), "", "defaults are valid");
        qp->SetAttribute("Mtu", UintegerValue(0));
        NS_TEST_EXPECT_MSG_EQ(Has(qp->Validate(), "Mtu (0)"), true, qp->Validate());
        qp->SetAttribute("Mtu", UintegerValue(4096));
        qp->SetAttribute("ReceiveWindow", UintegerValue(100));
        NS_TEST_EXPECT_MSG_EQ(Has(qp->Validate(), "ReceiveWindow"), true, qp->Validate());
        qp->SetAttribute("ReceiveWindow", UintegerValue(4096));
        NS_TEST_EXPECT_MSG_EQ(qp->SetAttributeFailSafe("AckEvery", UintegerValue(0)),
                              false,
                              "AckEvery's checker refuses 0 (allowed: 1 to 65536)");

        RdmaCcContext ctx;
        ctx.mtu = 4096;
        ctx.bdpBytes = 100000;
        Ptr<NoCongestionControl> none = CreateObject<NoCongestionControl>();
        NS_TEST_EXPECT_MSG_EQ(none->Validate(ctx), "", "unlimited window is valid");
        none->SetAttribute("Window", UintegerValue(4095));
        NS_TEST_EXPECT_MSG_EQ(Has(none->Validate(ctx), "Window (4095 bytes)"),
                              true,
                              none->Validate(ctx));
        Ptr<RdmaWindowCongestionControl> win = CreateObject<RdmaWindowCongestionControl>();
        NS_TEST_EXPECT_MSG_EQ(win->Validate(ctx), "", "default window is valid");
        win->SetAttribute("MaxWindow", DoubleValue(0.01));
        win->SetAttribute("InitialWindow", DoubleValue(0.01));
        NS_TEST_EXPECT_MSG_EQ(Has(win->Validate(ctx), "MaxWindow"), true, win->Validate(ctx));
        win->SetAttribute("MaxWindow", DoubleValue(1.0));
        win->SetAttribute("InitialWindow", DoubleValue(2.0));
        NS_TEST_EXPECT_MSG_EQ(Has(win->Validate(ctx), "InitialWindow"), true, win->Validate(ctx));

        TypeId ccBase = RdmaCongestionControl::GetTypeId();
        TypeId psBase = PathSelector::GetTypeId();
        std::string e = RdmaHelper::ValidateTypeId("ns3::NoSuchControl", ccBase, "cc");
        NS_TEST_EXPECT_MSG_EQ(Has(e, "unknown TypeId \"ns3::NoSuchControl\""), true, e);
        e = RdmaHelper::ValidateTypeId("ns3::EcmpPathSelector", ccBase, "cc");
        NS_TEST_EXPECT_MSG_EQ(Has(e, "not a constructible subclass"), true, e);
        e = RdmaHelper::ValidateTypeId("ns3::PathSelector", psBase, "ps");
        NS_TEST_EXPECT_MSG_EQ(Has(e, "not a constructible subclass"), true, e);
        for (const char* ok : {"ns3::RdmaWindowCongestionControl",
                               "ns3::DcqcnCongestionControl",
                               "ns3::NsccCongestionControl",
                               "ns3::RcccCongestionControl",
                               "ns3::NoCongestionControl"})
        {
            NS_TEST_EXPECT_MSG_EQ(RdmaHelper::ValidateTypeId(ok, ccBase, "cc"), "", ok);
        }
        NS_TEST_EXPECT_MSG_EQ(RdmaHelper::ValidateTypeId("ns3::EcmpPathSelector", psBase, "ps"),
                              "",
                              "ECMP is a path selector");
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * Every path selector of the module drives a queue pair over the sprayed diamond with random
 * drops and a path that fails for a while: every message completes, every byte once.
 */
class RdmaEverySelectorTestCase : public TestCase
{
  public:
    /**
     * \param selector path selector TypeId
     */
    RdmaEverySelectorTestCase(const std::string& selector)
        : TestCase("Drops and a failed path with " + selector + ": every byte once"),
          m_selector(selector)
    {
    }

  private:
    std::string m_selector; //!< Path selector.

    void DoRun() override
    {
        EnableRandomEcmp();
        Net net = Diamond();
        Ptr<RateErrorModel> loss = CreateObject<RateErrorModel>();
        loss->SetAttribute("ErrorRate", DoubleValue(0.005));
        loss->SetAttribute("ErrorUnit", StringValue("ERROR_UNIT_PACKET"));
        loss->AssignStreams(21);
        net.receiverNic->SetReceiveErrorModel(loss);
        Ptr<RateErrorModel> down = CreateObject<RateErrorModel>();
        down->SetAttribute("ErrorRate", DoubleValue(1.0));
        down->SetAttribute("ErrorUnit", StringValue("ERROR_UNIT_PACKET"));
        down->Disable();
        net.middle[1]->SetReceiveErrorModel(down);
        Simulator::Schedule(MicroSeconds(50), &ErrorModel::Enable, down);
        Simulator::Schedule(MicroSeconds(250), &ErrorModel::Disable, down);
        RdmaHelper rdma;
        rdma.SetPathSelector(m_selector);
        Tally tally;
        auto qps = RunPair(net, rdma, {3000000, 7, 500000}, tally, MilliSeconds(50));
        NS_TEST_EXPECT_MSG_EQ(CheckExactlyOnce(tally, qps, m_selector),
                              "",
                              "every message, every byte exactly once");
        DisableRandomEcmp();
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * ECN from ns-3's RED: the last hop to the receiver is a 25 Gb/s bottleneck behind 100 Gb/s
 * links, with a RED queue disc marking (UseEcn) above a few packets. Packets sprayed over both
 * paths get marked at the bottleneck; every ACK echoes the EV and CE bit its packet arrived
 * with, the sender counts the marked ACKs, and the window controller shrinks its window.
 */
class RdmaRedEcnTestCase : public TestCase
{
  public:
    RdmaRedEcnTestCase()
        : TestCase("RED marks at a router bottleneck are echoed by ACKs and shrink the window")
    {
    }

  private:
    std::set<std::tuple<uint32_t, uint16_t, bool>> m_arrived; //!< (PSN, EV, CE) received.
    uint32_t m_marked{0};                                     //!< ACKs echoing CE.
    uint32_t m_mismatch{0};                                   //!< ACKs echoing wrongly.
    uint32_t m_minWindow{UINT32_MAX};                         //!< Smallest window traced.

    void Arrived(uint32_t psn, uint16_t ev, bool ce, bool dup)
    {
        m_arrived.insert({psn, ev, ce});
    }

    void Acked(uint32_t psn, uint16_t ev, bool ce, Time rtt)
    {
        m_marked += ce ? 1 : 0;
        // A retransmitted packet may arrive twice with different EVs: the ACK must echo one
        // of the arrivals of that PSN exactly.
        if (m_arrived.count({psn, ev, ce}) == 0)
        {
            ++m_mismatch;
        }
    }

    void Window(uint32_t oldValue, uint32_t newValue)
    {
        m_minWindow = std::min(m_minWindow, newValue);
    }

    void DoRun() override
    {
        EnableRandomEcmp();
        Net net = Diamond("25Gbps");
        Ptr<TrafficControlLayer> tc = net.routers.Get(3)->GetObject<TrafficControlLayer>();
        tc->DeleteRootQueueDiscOnDevice(net.lastHop);
        TrafficControlHelper red;
        red.SetRootQueueDisc("ns3::RedQueueDisc",
                             "UseEcn",
                             BooleanValue(true),
                             "MinTh",
                             DoubleValue(4),
                             "MaxTh",
                             DoubleValue(12),
                             "QW",
                             DoubleValue(1.0),
                             "LInterm",
                             DoubleValue(1.0),
                             "MeanPktSize",
                             UintegerValue(4140),
                             "MaxSize",
                             QueueSizeValue(QueueSize("200p")));
        QueueDiscContainer qdiscs = red.Install(NetDeviceContainer(net.lastHop));
        RdmaHelper rdma;
        rdma.SetPathSelector("ns3::OpsPathSelector");
        rdma.SetCongestionControl("ns3::RdmaWindowCongestionControl",
                                  "InitialWindow",
                                  DoubleValue(4.0),
                                  "MaxWindow",
                                  DoubleValue(4.0));
        rdma.SetQueuePairAttribute("BaseRtt", TimeValue(net.baseRtt));
        rdma.Install(net.hosts);
        auto qps = rdma.CreateQueuePair(net.hosts.Get(0), net.hosts.Get(1));
        rdma.AssignStreams(net.hosts, 3);
        qps.second->TraceConnectWithoutContext("DataReceived",
                                               MakeCallback(&RdmaRedEcnTestCase::Arrived, this));
        qps.first->TraceConnectWithoutContext("AckReceived",
                                              MakeCallback(&RdmaRedEcnTestCase::Acked, this));
        Ptr<RdmaCongestionControl> cc = qps.first->GetCongestionControl();
        const uint32_t initial = cc->GetWindow();
        cc->TraceConnectWithoutContext("CongestionWindow",
                                       MakeCallback(&RdmaRedEcnTestCase::Window, this));
        Tally tally;
        tally.posted.push_back(2000000);
        qps.first->PostSend(2000000, MakeCallback(&Tally::Completed, &tally));
        Simulator::Stop(MilliSeconds(20));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(tally.completed.size(), 1, "message completes");
        const QueueDisc::Stats& st = qdiscs.Get(0)->GetStats();
        uint32_t redMarks = st.GetNMarkedPackets(RedQueueDisc::UNFORCED_MARK) +
                            st.GetNMarkedPackets(RedQueueDisc::FORCED_MARK);
        NS_TEST_EXPECT_MSG_GT(redMarks, 0, "RED marked packets");
        NS_TEST_EXPECT_MSG_EQ(m_mismatch, 0, "every ACK echoes its packet's EV and CE");
        NS_TEST_EXPECT_MSG_EQ(qps.first->GetStats().ecnAcks, m_marked, "ECN-marked ACK counter");
        NS_TEST_EXPECT_MSG_GT(m_marked, 0, "marks came back");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(m_marked, redMarks, "no more echoed marks than marks");
        NS_TEST_EXPECT_MSG_LT(m_minWindow, initial, "the window shrank");
        DisableRandomEcmp();
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * ACK coalescing: with AckEvery = 4 the receiver sends about a quarter of the ACKs, and the
 * sender never waits for the retransmission timer, whether the congestion window or the
 * receive window is what limits it.
 */
class RdmaAckCoalescingTestCase : public TestCase
{
  public:
    /**
     * \param cc congestion control TypeId (window-limited or receive-window-limited)
     */
    RdmaAckCoalescingTestCase(const std::string& cc)
        : TestCase("ACK coalescing (AckEvery 4) never stalls the sender, " + cc),
          m_cc(cc)
    {
    }

  private:
    std::string m_cc; //!< Congestion control.

    void DoRun() override
    {
        Net net = TwoHosts();
        RdmaHelper rdma;
        rdma.SetCongestionControl(m_cc);
        rdma.SetQueuePairAttribute("AckEvery", UintegerValue(4));
        rdma.SetQueuePairAttribute("ReceiveWindow", UintegerValue(128));
        Tally tally;
        const uint64_t size = 1000 * 4096;
        auto qps = RunPair(net, rdma, {size, 4096 * 3 + 5}, tally, MilliSeconds(10));
        NS_TEST_EXPECT_MSG_EQ(CheckExactlyOnce(tally, qps, "coalescing"),
                              "",
                              "every message, every byte exactly once");
        const RdmaQueuePairStats& tx = qps.first->GetStats();
        const RdmaQueuePairStats& rx = qps.second->GetStats();
        NS_TEST_EXPECT_MSG_EQ(tx.timeouts, 0, "no stall waiting for the timer");
        NS_TEST_EXPECT_MSG_LT(rx.acksSent, rx.dataReceived / 3, "ACKs coalesced");
        NS_TEST_EXPECT_MSG_GT(rx.acksSent, rx.dataReceived / 5, "about one ACK per 4 packets");
        Time ideal = DataRate("100Gbps").CalculateBytesTxTime(size) + net.baseRtt;
        NS_TEST_EXPECT_MSG_LT(tally.fct[0].GetSeconds(), 1.05 * ideal.GetSeconds(), "line rate");
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * ACK coalescing by bytes and by timer. AckEveryBytes = 16 KiB with 4 KiB packets gives one ACK
 * per four packets although AckEvery alone would wait for 1000; AckDelay alone (AckEvery 1000)
 * acknowledges every data packet no later than AckDelay after it arrived. Every byte arrives
 * exactly once, the sender never waits for its retransmission timer, and every ACK echoes the
 * entropy value of a packet it acknowledges.
 */
class RdmaAckThresholdsTestCase : public TestCase
{
  public:
    /**
     * \param byTimer coalesce by AckDelay instead of AckEveryBytes
     */
    RdmaAckThresholdsTestCase(bool byTimer)
        : TestCase(byTimer ? "ACK coalescing by timer (AckDelay 2us): every packet ACKed within "
                             "2us, fewer ACKs"
                           : "ACK coalescing by bytes (AckEveryBytes 16KiB): one ACK per 4 "
                             "packets"),
          m_byTimer(byTimer)
    {
    }

  private:
    bool m_byTimer;                      //!< AckDelay instead of AckEveryBytes.
    std::map<uint32_t, uint16_t> m_evOf; //!< PSN -> EV of its first arrival.
    std::vector<Time> m_waiting;         //!< Arrivals not acknowledged yet.
    Time m_longestWait{0};               //!< Longest arrival-to-ACK time.
    uint32_t m_foreignEchoes{0};         //!< ACKs echoing an EV the PSN did not carry.

    void Arrived(uint32_t psn, uint16_t ev, bool ce, bool dup)
    {
        m_evOf.emplace(psn, ev);
        m_waiting.push_back(Simulator::Now());
    }

    void AckSent(uint32_t psn, uint16_t ev, bool ce, bool nack)
    {
        if (m_evOf.count(psn) == 0 || m_evOf[psn] != ev)
        {
            ++m_foreignEchoes;
        }
        for (const Time& t : m_waiting)
        {
            m_longestWait = std::max(m_longestWait, Simulator::Now() - t);
        }
        m_waiting.clear();
    }

    void DoRun() override
    {
        Net net = TwoHosts();
        RdmaHelper rdma;
        rdma.SetCongestionControl("ns3::NoCongestionControl");
        rdma.SetQueuePairAttribute("AckEvery", UintegerValue(1000));
        if (m_byTimer)
        {
            rdma.SetQueuePairAttribute("AckDelay", TimeValue(MicroSeconds(2)));
        }
        else
        {
            rdma.SetQueuePairAttribute("AckEveryBytes", UintegerValue(16384));
        }
        rdma.SetQueuePairAttribute("BaseRtt", TimeValue(net.baseRtt));
        rdma.Install(net.hosts);
        auto qps = rdma.CreateQueuePair(net.hosts.Get(0), net.hosts.Get(1));
        qps.second->TraceConnectWithoutContext(
            "DataReceived",
            MakeCallback(&RdmaAckThresholdsTestCase::Arrived, this));
        qps.second->TraceConnectWithoutContext(
            "AckSent",
            MakeCallback(&RdmaAckThresholdsTestCase::AckSent, this));
        Tally tally;
        const uint64_t size = 400 * 4096;
        qps.first->PostSend(size, MakeCallback(&Tally::Completed, &tally));
        qps.second->SetReceiveCallback(MakeCallback(&Tally::Received, &tally));
        Simulator::Stop(MilliSeconds(5));
        Simulator::Run();

        const RdmaQueuePairStats& tx = qps.first->GetStats();
        const RdmaQueuePairStats& rx = qps.second->GetStats();
        NS_TEST_EXPECT_MSG_EQ(tally.completed.size(), 1, "the message completes");
        NS_TEST_EXPECT_MSG_EQ(tally.received.size(), 1, "the message is received");
        NS_TEST_EXPECT_MSG_EQ(rx.bytesReceived, size, "every byte exactly once");
        NS_TEST_EXPECT_MSG_EQ(tx.timeouts, 0, "no stall waiting for the timer");
        NS_TEST_EXPECT_MSG_EQ(m_waiting.size(), 0, "every data packet acknowledged");
        NS_TEST_EXPECT_MSG_EQ(m_foreignEchoes, 0, "an ACK echoes the EV of its trigger");
        if (m_byTimer)
        {
            // 4 KiB at 100 Gb/s takes 0.33us: 2us holds about 6 packets.
            NS_TEST_EXPECT_MSG_LT_OR_EQ(m_longestWait, MicroSeconds(2), "ACKed within AckDelay");
            NS_TEST_EXPECT_MSG_LT(rx.acksSent, rx.dataReceived / 4, "ACKs coalesced by time");
        }
        else
        {
            NS_TEST_EXPECT_MSG_LT_OR_EQ(rx.acksSent,
                                        rx.dataReceived / 4 + 2,
                                        "at most one ACK per 16 KiB (and the last)");
            NS_TEST_EXPECT_MSG_GT_OR_EQ(rx.acksSent,
                                        rx.dataReceived / 4,
                                        "at least one ACK per 16 KiB");
        }
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * PSNs wrap around their 24 bits in the middle of a transfer sprayed over two paths with drops:
 * ACKs, SACKs and placement use the right sequence numbers across the wrap.
 */
class RdmaPsnWrapTestCase : public TestCase
{
  public:
    RdmaPsnWrapTestCase()
        : TestCase("PSN wrap-around in the middle of a sprayed, lossy transfer")
    {
    }

  private:
    uint32_t m_low{0};  //!< Packets sent with a PSN below 1000 (after the wrap).
    uint32_t m_high{0}; //!< Packets sent with a PSN near the top (before the wrap).

    void Sent(uint32_t psn, uint16_t ev, bool retx)
    {
        (psn < 1000 ? m_low : m_high) += 1;
    }

    void DoRun() override
    {
        EnableRandomEcmp();
        Net net = Diamond();
        Ptr<RateErrorModel> loss = CreateObject<RateErrorModel>();
        loss->SetAttribute("ErrorRate", DoubleValue(0.02));
        loss->SetAttribute("ErrorUnit", StringValue("ERROR_UNIT_PACKET"));
        loss->AssignStreams(61);
        net.receiverNic->SetReceiveErrorModel(loss);
        RdmaHelper rdma;
        rdma.SetPathSelector("ns3::OpsPathSelector");
        rdma.SetQueuePairAttribute("InitialPsn", UintegerValue(RoceBthHeader::MAX_PSN - 200));
        rdma.SetQueuePairAttribute("BaseRtt", TimeValue(net.baseRtt));
        rdma.Install(net.hosts);
        auto qps = rdma.CreateQueuePair(net.hosts.Get(0), net.hosts.Get(1));
        qps.first->TraceConnectWithoutContext("PacketSent",
                                              MakeCallback(&RdmaPsnWrapTestCase::Sent, this));
        Tally tally;
        qps.second->SetReceiveCallback(MakeCallback(&Tally::Received, &tally));
        for (uint64_t s : {500000, 1000000, 7})
        {
            tally.posted.push_back(s);
            qps.first->PostSend(s, MakeCallback(&Tally::Completed, &tally));
        }
        Simulator::Stop(MilliSeconds(50));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(CheckExactlyOnce(tally, qps, "PSN wrap"),
                              "",
                              "every message, every byte exactly once");
        NS_TEST_EXPECT_MSG_GT(m_high, 200, "packets before the wrap");
        NS_TEST_EXPECT_MSG_GT(m_low, 100, "packets after the wrap");
        NS_TEST_EXPECT_MSG_GT(qps.first->GetStats().retransmissions, 0, "losses recovered");
        DisableRandomEcmp();
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * Stress: several queue pairs in both directions between two hosts behind the sprayed diamond,
 * random message sizes, 3% random drops each way, and a path failure; with selective repeat or
 * go-back-N, with and without ACK coalescing. Every message completes on every queue pair, in
 * order, with every byte counted once.
 */
class RdmaStressTestCase : public TestCase
{
  public:
    /**
     * \param goBackN go-back-N instead of selective repeat
     * \param ackEvery ACK coalescing
     * \param cc congestion control
     */
    RdmaStressTestCase(bool goBackN, uint32_t ackEvery, const std::string& cc)
        : TestCase(std::string("Stress: 6 queue pairs both ways, 3% drops, a failed path, ") +
                   (goBackN ? "go-back-N" : "selective repeat") + ", AckEvery " +
                   std::to_string(ackEvery) + ", " + cc),
          m_goBackN(goBackN),
          m_ackEvery(ackEvery),
          m_cc(cc)
    {
    }

  private:
    bool m_goBackN;      //!< Go-back-N.
    uint32_t m_ackEvery; //!< ACK coalescing.
    std::string m_cc;    //!< Congestion control.

    void DoRun() override
    {
        EnableRandomEcmp();
        Net net = Diamond();
        for (auto& dev : {net.senderNic, net.receiverNic})
        {
            Ptr<RateErrorModel> loss = CreateObject<RateErrorModel>();
            loss->SetAttribute("ErrorRate", DoubleValue(0.03));
            loss->SetAttribute("ErrorUnit", StringValue("ERROR_UNIT_PACKET"));
            loss->AssignStreams(31);
            dev->SetReceiveErrorModel(loss);
        }
        Ptr<RateErrorModel> down = CreateObject<RateErrorModel>();
        down->SetAttribute("ErrorRate", DoubleValue(1.0));
        down->SetAttribute("ErrorUnit", StringValue("ERROR_UNIT_PACKET"));
        down->Disable();
        net.middle[0]->SetReceiveErrorModel(down);
        Simulator::Schedule(MicroSeconds(100), &ErrorModel::Enable, down);
        Simulator::Schedule(MicroSeconds(300), &ErrorModel::Disable, down);

        RdmaHelper rdma;
        rdma.SetPathSelector("ns3::OpsPathSelector");
        rdma.SetCongestionControl(m_cc);
        rdma.SetQueuePairAttribute("BaseRtt", TimeValue(net.baseRtt));
        rdma.SetQueuePairAttribute("GoBackN", BooleanValue(m_goBackN));
        rdma.SetQueuePairAttribute("AckEvery", UintegerValue(m_ackEvery));
        rdma.SetQueuePairAttribute("ReceiveWindow", UintegerValue(128));
        rdma.Install(net.hosts);
        Ptr<UniformRandomVariable> sizes = CreateObject<UniformRandomVariable>();
        sizes->SetStream(41);
        const uint32_t pairs = 3;
        std::vector<std::pair<Ptr<RdmaQueuePair>, Ptr<RdmaQueuePair>>> qps;
        std::vector<Tally> forward(pairs);
        std::vector<Tally> backward(pairs);
        for (uint32_t i = 0; i < pairs; ++i)
        {
            qps.push_back(rdma.CreateQueuePair(net.hosts.Get(0), net.hosts.Get(1)));
        }
        rdma.AssignStreams(net.hosts, 51);
        for (uint32_t i = 0; i < pairs; ++i)
        {
            qps[i].second->SetReceiveCallback(MakeCallback(&Tally::Received, &forward[i]));
            qps[i].first->SetReceiveCallback(MakeCallback(&Tally::Received, &backward[i]));
            for (uint32_t m = 0; m < 6; ++m)
            {
                uint64_t a = sizes->GetInteger(0, 300000);
                uint64_t b = sizes->GetInteger(0, 300000);
                forward[i].posted.push_back(a);
                backward[i].posted.push_back(b);
                qps[i].first->PostSend(a, MakeCallback(&Tally::Completed, &forward[i]));
                qps[i].second->PostSend(b, MakeCallback(&Tally::Completed, &backward[i]));
            }
        }
        Simulator::Stop(Seconds(1));
        Simulator::Run();
        for (uint32_t i = 0; i < pairs; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(CheckExactlyOnce(forward[i], qps[i], "forward"),
                                  "",
                                  "every message, every byte exactly once");
            NS_TEST_EXPECT_MSG_EQ(
                CheckExactlyOnce(backward[i], {qps[i].second, qps[i].first}, "backward"),
                "",
                "every message, every byte exactly once");
        }
        DisableRandomEcmp();
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * The retransmission timer: MinRto bounds it from below; with RtoBackoff every timeout
 * without progress doubles it (up to 64 x), and progress brings it back; without, timeouts
 * fire one RTO apart.
 */
class RdmaRtoBackoffTestCase : public TestCase
{
  public:
    /**
     * \param backoff the RtoBackoff attribute
     */
    RdmaRtoBackoffTestCase(bool backoff)
        : TestCase(std::string("Retransmission timer during a 2 ms outage, ") +
                   (backoff ? "exponential backoff" : "fixed")),
          m_backoff(backoff)
    {
    }

  private:
    bool m_backoff; //!< RtoBackoff.

    /**
     * Record the time of a timeout.
     * \param times where
     * \param lost packets declared lost
     */
    static void OnTimeout(std::vector<Time>* times, uint32_t lost)
    {
        times->push_back(Simulator::Now());
    }

    void DoRun() override
    {
        Net net = TwoHosts();
        Ptr<RateErrorModel> down = CreateObject<RateErrorModel>();
        down->SetAttribute("ErrorRate", DoubleValue(1.0));
        down->SetAttribute("ErrorUnit", StringValue("ERROR_UNIT_PACKET"));
        net.receiverNic->SetReceiveErrorModel(down);
        Simulator::Schedule(MilliSeconds(2), &ErrorModel::Disable, down);
        RdmaHelper rdma;
        rdma.SetCongestionControl("ns3::NoCongestionControl");
        rdma.SetQueuePairAttribute("Rto", TimeValue(MicroSeconds(5)));
        rdma.SetQueuePairAttribute("MinRto", TimeValue(MicroSeconds(20)));
        rdma.SetQueuePairAttribute("RtoBackoff", BooleanValue(m_backoff));
        std::vector<Time> times;
        Tally tally;
        rdma.SetQueuePairAttribute("BaseRtt", TimeValue(net.baseRtt));
        rdma.Install(net.hosts);
        auto qps = rdma.CreateQueuePair(net.hosts.Get(0), net.hosts.Get(1));
        qps.first->TraceConnectWithoutContext("Timeout", MakeBoundCallback(&OnTimeout, &times));
        NS_TEST_ASSERT_MSG_EQ(qps.first->GetRto(), MicroSeconds(20), "MinRto bounds Rto");
        qps.second->SetReceiveCallback(MakeCallback(&Tally::Received, &tally));
        tally.posted.push_back(4096);
        qps.first->PostSend(4096, MakeCallback(&Tally::Completed, &tally));
        Simulator::Stop(MilliSeconds(20));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(CheckExactlyOnce(tally, qps, "outage"), "", "delivered once");
        NS_TEST_ASSERT_MSG_GT(times.size(), 3, "several timeouts");
        // The gap between timeouts: the RTO in force (plus the packet's sending time).
        for (size_t k = 1; k < times.size() && k < 8; ++k)
        {
            Time gap = times[k] - times[k - 1];
            Time rto = m_backoff
                           ? MicroSeconds(20) * static_cast<int64_t>(1u << std::min<size_t>(k, 6))
                           : MicroSeconds(20);
            NS_TEST_ASSERT_MSG_EQ_TOL(gap.GetMicroSeconds(),
                                      rto.GetMicroSeconds(),
                                      2,
                                      "timeout " << k << " one RTO after the previous one");
        }
        if (m_backoff)
        {
            NS_TEST_ASSERT_MSG_LT(times.size(), 12, "backoff spares timeouts");
        }
        else
        {
            NS_TEST_ASSERT_MSG_GT(times.size(), 90, "one timeout every 20 us for 2 ms");
        }
        NS_TEST_ASSERT_MSG_EQ(qps.first->GetRto(), MicroSeconds(20), "progress resets the RTO");
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * Go-back-N repairs every loss by NACK: three data packets dropped on arrival (receive indices
 * 20, 100 and 180 of a ReceiveListErrorModel) each make the receiver NACK the first missing PSN,
 * the sender resends from exactly there, and the transfer completes without a single timeout.
 */
class RdmaGoBackNNackRecoveryTestCase : public TestCase
{
  public:
    RdmaGoBackNNackRecoveryTestCase()
        : TestCase("Go-back-N: every drop is repaired by a NACK, never by a timeout")
    {
    }

  private:
    void DoRun() override
    {
        Net net = TwoHosts();
        Ptr<ReceiveListErrorModel> drop = CreateObject<ReceiveListErrorModel>();
        drop->SetList({20, 100, 180});
        net.receiverNic->SetReceiveErrorModel(drop);
        uint64_t dataDrops = 0;
        net.receiverNic->TraceConnectWithoutContext(
            "PhyRxDrop",
            MakeBoundCallback(
                +[](uint64_t* n, Ptr<const Packet>) { ++*n; },
                &dataDrops));
        RdmaHelper rdma;
        rdma.SetCongestionControl("ns3::RdmaWindowCongestionControl");
        rdma.SetQueuePairAttribute("GoBackN", BooleanValue(true));
        Tally tally;
        auto qps = RunPair(net, rdma, {1000000}, tally, MilliSeconds(10));
        NS_TEST_EXPECT_MSG_EQ(CheckExactlyOnce(tally, qps, "go-back-N, 3 drops"),
                              "",
                              "every message, every byte exactly once");
        const RdmaQueuePairStats& tx = qps.first->GetStats();
        const RdmaQueuePairStats& rx = qps.second->GetStats();
        NS_TEST_EXPECT_MSG_EQ(dataDrops, 3, "three data packets dropped");
        NS_TEST_EXPECT_MSG_EQ(rx.nacksSent, 3, "one NACK per gap");
        NS_TEST_EXPECT_MSG_EQ(tx.nacksReceived, 3, "NACKs arrived");
        NS_TEST_EXPECT_MSG_GT_OR_EQ(tx.retransmissions, 3, "the missing packets were resent");
        NS_TEST_EXPECT_MSG_EQ(tx.timeouts, 0, "no timeout: every loss repaired by its NACK");
        NS_TEST_EXPECT_MSG_EQ(tx.packetsLost, 0, "no packet declared lost by the timer");
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * Under ACK coalescing (AckEvery 4) a CE-marked data packet is acknowledged at once, echoing
 * CE: a queue disc marks only the 6th packet of a 10-packet message, which the receiver would
 * otherwise have folded into the next coalesced ACK.
 */
class RdmaCeAckedAtOnceTestCase : public TestCase
{
  public:
    RdmaCeAckedAtOnceTestCase()
        : TestCase("AckEvery 4: a CE-marked data packet is ACKed at once, echoing CE")
    {
    }

  private:
    std::map<uint32_t, Time> m_ceArrival; //!< PSN -> arrival time, CE-marked packets.
    std::vector<std::tuple<uint32_t, bool, Time>> m_acks; //!< (PSN, CE, time) of the ACKs sent.

    void Arrived(uint32_t psn, uint16_t ev, bool ce, bool dup)
    {
        if (ce)
        {
            m_ceArrival[psn] = Simulator::Now();
        }
    }

    void AckSent(uint32_t psn, uint16_t ev, bool ce, bool nack)
    {
        m_acks.emplace_back(psn, ce, Simulator::Now());
    }

    void DoRun() override
    {
        Net net = TwoHosts();
        Ptr<MangleTestQueueDisc> mangle = CreateObject<MangleTestQueueDisc>();
        mangle->markEvery = 6;
        InstallOnSender(net, mangle);
        RdmaHelper rdma;
        rdma.SetCongestionControl("ns3::NoCongestionControl");
        rdma.SetQueuePairAttribute("AckEvery", UintegerValue(4));
        rdma.SetQueuePairAttribute("BaseRtt", TimeValue(net.baseRtt));
        rdma.Install(net.hosts);
        auto qps = rdma.CreateQueuePair(net.hosts.Get(0), net.hosts.Get(1));
        qps.second->TraceConnectWithoutContext(
            "DataReceived",
            MakeCallback(&RdmaCeAckedAtOnceTestCase::Arrived, this));
        qps.second->TraceConnectWithoutContext(
            "AckSent",
            MakeCallback(&RdmaCeAckedAtOnceTestCase::AckSent, this));
        Tally tally;
        qps.first->PostSend(10 * 4096, MakeCallback(&Tally::Completed, &tally));
        Simulator::Stop(MilliSeconds(1));
        Simulator::Run();

        NS_TEST_EXPECT_MSG_EQ(tally.completed.size(), 1, "message completes");
        NS_TEST_EXPECT_MSG_EQ(mangle->marked, 1, "one packet marked");
        NS_TEST_EXPECT_MSG_EQ(m_ceArrival.size(), 1, "it arrived marked");
        NS_TEST_EXPECT_MSG_EQ(m_ceArrival.count(5), 1, "the 6th packet (PSN 5)");
        for (const auto& [psn, at] : m_ceArrival)
        {
            bool ackedAtOnce = false;
            for (const auto& [ackPsn, ce, when] : m_acks)
            {
                ackedAtOnce |= ackPsn == psn && ce && when == at;
            }
            NS_TEST_EXPECT_MSG_EQ(ackedAtOnce, true, "PSN " << psn << " ACKed at once with CE");
        }
        NS_TEST_EXPECT_MSG_EQ(qps.first->GetStats().ecnAcks, 1, "the sender saw the echo");
        NS_TEST_EXPECT_MSG_LT(m_acks.size(), 10, "ACKs coalesced otherwise");
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * Under ACK coalescing (AckEvery 16) a retransmitted packet asks for an ACK at once (the BTH
 * AckReq bit) and the receiver gives it: one data packet in the middle of a 100-packet message
 * is dropped, the timer resends it, and the copy that arrives carries AckReq and is ACKed on
 * arrival.
 */
class RdmaRetransmissionAckReqTestCase : public TestCase
{
  public:
    RdmaRetransmissionAckReqTestCase()
        : TestCase("AckEvery 16: a retransmission carries AckReq and is ACKed at once")
    {
    }

  private:
    std::set<uint32_t> m_retx;                            //!< PSNs retransmitted.
    std::vector<std::tuple<uint32_t, bool, Time>> m_wire; //!< (PSN, AckReq, time) arriving.
    std::multimap<uint32_t, Time> m_acks;                 //!< PSN -> times of the ACKs sent.

    void Sent(uint32_t psn, uint16_t ev, bool retx)
    {
        if (retx)
        {
            m_retx.insert(psn);
        }
    }

    void OnWire(Ptr<const Packet> p)
    {
        Ptr<Packet> c = p->Copy();
        PppHeader ppp;
        Ipv4Header ip;
        UdpHeader udp;
        RoceBthHeader bth;
        c->RemoveHeader(ppp);
        c->RemoveHeader(ip);
        c->RemoveHeader(udp);
        c->PeekHeader(bth);
        if (bth.IsData())
        {
            m_wire.emplace_back(bth.GetPsn(), bth.GetAckRequest(), Simulator::Now());
        }
    }

    void AckSent(uint32_t psn, uint16_t ev, bool ce, bool nack)
    {
        m_acks.emplace(psn, Simulator::Now());
    }

    void DoRun() override
    {
        Net net = TwoHosts();
        Ptr<ReceiveListErrorModel> drop = CreateObject<ReceiveListErrorModel>();
        drop->SetList({41});
        net.receiverNic->SetReceiveErrorModel(drop);
        // MacRx sees only what the error model let through.
        net.receiverNic->TraceConnectWithoutContext(
            "MacRx",
            MakeCallback(&RdmaRetransmissionAckReqTestCase::OnWire, this));
        RdmaHelper rdma;
        rdma.SetCongestionControl("ns3::NoCongestionControl");
        rdma.SetQueuePairAttribute("AckEvery", UintegerValue(16));
        rdma.SetQueuePairAttribute("BaseRtt", TimeValue(net.baseRtt));
        rdma.Install(net.hosts);
        auto qps = rdma.CreateQueuePair(net.hosts.Get(0), net.hosts.Get(1));
        qps.first->TraceConnectWithoutContext(
            "PacketSent",
            MakeCallback(&RdmaRetransmissionAckReqTestCase::Sent, this));
        qps.second->TraceConnectWithoutContext(
            "AckSent",
            MakeCallback(&RdmaRetransmissionAckReqTestCase::AckSent, this));
        Tally tally;
        qps.first->PostSend(100 * 4096, MakeCallback(&Tally::Completed, &tally));
        Simulator::Stop(MilliSeconds(1));
        Simulator::Run();

        NS_TEST_EXPECT_MSG_EQ(tally.completed.size(), 1, "message completes");
        NS_TEST_EXPECT_MSG_EQ(m_retx.size(), 1, "one packet resent");
        uint32_t copies = 0;
        for (const auto& [psn, ackReq, at] : m_wire)
        {
            if (m_retx.count(psn) == 0)
            {
                continue;
            }
            ++copies;
            NS_TEST_EXPECT_MSG_EQ(ackReq, true, "retransmission of PSN " << psn << " has AckReq");
            bool ackedAtOnce = false;
            auto range = m_acks.equal_range(psn);
            for (auto it = range.first; it != range.second; ++it)
            {
                ackedAtOnce |= it->second == at;
            }
            NS_TEST_EXPECT_MSG_EQ(ackedAtOnce, true, "PSN " << psn << " ACKed on arrival");
        }
        NS_TEST_EXPECT_MSG_EQ(copies, 1, "the retransmission arrived");
        NS_TEST_EXPECT_MSG_LT(qps.second->GetStats().acksSent,
                              qps.second->GetStats().dataReceived,
                              "ACKs coalesced in order");
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * RoCEv2 queue pairs end to end.
 */
class RepsTransportTestSuite : public TestSuite
{
  public:
    RepsTransportTestSuite()
        : TestSuite("reps-transport", TestSuite::Type::UNIT)
    {
        AddTestCase(new RdmaValidationTestCase, reps::kQuick);
        AddTestCase(new RdmaTwoHostCleanTestCase, reps::kQuick);
        AddTestCase(new RdmaAckEchoTestCase, reps::kQuick);
        AddTestCase(new RdmaReorderingTestCase, reps::kQuick);
        AddTestCase(new RdmaRandomDropTestCase(false), reps::kQuick);
        AddTestCase(new RdmaRandomDropTestCase(true), reps::kQuick);
        AddTestCase(new RdmaLinkFailureTestCase(false), reps::kQuick);
        AddTestCase(new RdmaLinkFailureTestCase(true), reps::kQuick);
        AddTestCase(new RdmaDuplicateTestCase, reps::kQuick);
        AddTestCase(new RdmaTrimNackTestCase, reps::kQuick);
        AddTestCase(new RdmaLineRateTestCase("ns3::NoCongestionControl"), reps::kQuick);
        AddTestCase(new RdmaLineRateTestCase("ns3::RdmaWindowCongestionControl"), reps::kQuick);
        AddTestCase(new RdmaLineRateTestCase("ns3::DcqcnCongestionControl"), reps::kQuick);
        AddTestCase(new RdmaLineRateTestCase("ns3::NsccCongestionControl"), reps::kQuick);
        AddTestCase(new RdmaGoBackNTestCase, reps::kExtensive);
        AddTestCase(new RdmaCnpTestCase, reps::kQuick);
        AddTestCase(new RdmaRoundRobinTestCase, reps::kQuick);
        AddTestCase(new RdmaPsnWrapTestCase, reps::kQuick);
        AddTestCase(new RdmaAckCoalescingTestCase("ns3::RdmaWindowCongestionControl"),
                    reps::kQuick);
        AddTestCase(new RdmaAckCoalescingTestCase("ns3::NoCongestionControl"), reps::kQuick);
        AddTestCase(new RdmaAckCoalescingTestCase("ns3::NsccCongestionControl"), reps::kQuick);
        AddTestCase(new RdmaAckThresholdsTestCase(false), reps::kQuick);
        AddTestCase(new RdmaReorderingCoalescedTestCase, reps::kQuick);
        AddTestCase(new RdmaAckThresholdsTestCase(true), reps::kQuick);
        AddTestCase(new RdmaRedEcnTestCase, reps::kQuick);
        AddTestCase(new RdmaRtoBackoffTestCase(false), reps::kQuick);
        AddTestCase(new RdmaRtoBackoffTestCase(true), reps::kQuick);
        AddTestCase(new RdmaGoBackNNackRecoveryTestCase, reps::kQuick);
        AddTestCase(new RdmaCeAckedAtOnceTestCase, reps::kQuick);
        AddTestCase(new RdmaRetransmissionAckReqTestCase, reps::kQuick);
        for (bool goBackN : {false, true})
        {
            for (uint32_t ackEvery : {1u, 4u})
            {
                for (const char* cc : {"ns3::RdmaWindowCongestionControl",
                                       "ns3::DcqcnCongestionControl",
                                       "ns3::NsccCongestionControl"})
                {
                    AddTestCase(new RdmaStressTestCase(goBackN, ackEvery, cc), reps::kExtensive);
                }
            }
        }
        for (const char* selector : {"ns3::EcmpPathSelector",
                                     "ns3::OpsPathSelector",
                                     "ns3::FlowletPathSelector",
                                     "ns3::RepsPathSelector",
                                     "ns3::MpPathSelector",
                                     "ns3::PlbPathSelector",
                                     "ns3::BitmapPathSelector",
                                     "ns3::MprdmaPathSelector"})
        {
            AddTestCase(new RdmaEverySelectorTestCase(selector), reps::kQuick);
        }
    }
};

/// The one instance of the suite.
static RepsTransportTestSuite g_repsTransportTestSuite;
