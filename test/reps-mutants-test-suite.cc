/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "reps-test-compat.h"

#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/reps-module.h"
#include "ns3/traffic-control-module.h"

#include <cstdint>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

/**
 * \file
 * \ingroup reps-test
 * Quick end-to-end checks of the feedback paths a path selector depends on, written to kill
 * the mutants of utils/mutation-test.py that the other suites let live: REPS freezes on a real
 * timeout and then leaves the dead path; every ECN echo and every NACK of a trimmed packet
 * reaches the path selector; selective repeat acknowledges what SACK bitmaps report; the
 * switch queue's priority band takes trimmed headers and keeps its own limit; adaptive
 * forwarding on idle queues is flow hashing; the NIC sends ACKs ahead of its own data.
 */

namespace
{

/// One transfer of a scenario.
struct Transfer
{
    Ptr<RdmaQueuePair> sender;   //!< Sender side.
    Ptr<RdmaQueuePair> receiver; //!< Receiver side.
    uint64_t posted{0};          //!< Bytes posted.
    uint64_t completed{0};       //!< Bytes completed.
    uint64_t received{0};        //!< Bytes the receiver was told of.
    uint64_t ceAcks{0};          //!< ACKs (not NACKs) received echoing CE.
    Time done;                   //!< When it completed.

    /// Sender completion callback.
    void Completed(uint64_t id, uint64_t size, Time fct)
    {
        completed += size;
        done = Simulator::Now();
    }

    /// Receiver callback.
    void Received(uint64_t id, uint64_t size, Time t)
    {
        received += size;
    }

    /// AckReceived trace.
    void Acked(uint32_t psn, uint16_t ev, bool ce, Time rtt)
    {
        ceAcks += ce ? 1 : 0;
    }

    /// \return whether every byte was acknowledged and delivered exactly once
    bool Complete() const
    {
        return completed == posted && received == posted &&
               receiver->GetStats().bytesReceived == posted && sender->IsIdle();
    }
};

/// Drops on the failed link and freezes.
struct Log
{
    std::vector<Time> drops;       //!< When each packet was lost on the failed link.
    uint64_t freezes{0};           //!< FreezeStarted.
    Time firstFreeze{Time::Max()}; //!< When the first freeze started.

    /// FabricLinkErrorModel Drop sink.
    void Dropped(Ptr<const Packet> p)
    {
        drops.push_back(Simulator::Now());
    }

    /// FreezeStarted sink.
    void Frozen(Time end)
    {
        ++freezes;
        firstFreeze = std::min(firstFreeze, Simulator::Now());
    }
};

/// What a scenario measured.
struct Outcome
{
    bool complete{true};      //!< Every transfer complete.
    Time last;                //!< Last completion.
    uint64_t drops{0};        //!< Drops on the failed link.
    uint64_t lateDrops{0};    //!< Of those, in the second half of [failAt, last].
    uint64_t freezes{0};      //!< Freezes.
    Time firstFreeze;         //!< First freeze.
    uint64_t timeouts{0};     //!< Timeouts.
    uint64_t ceAcks{0};       //!< ACKs echoing CE.
    uint64_t ecnFeedback{0};  //!< ECN feedback the path selectors received.
    uint64_t nacks{0};        //!< NACKs of trimmed packets received.
    uint64_t nackFeedback{0}; //!< NACK feedback the path selectors received.
    uint64_t trims{0};        //!< Packets trimmed by the fabric.
};

/// A scenario: 2 leaves x 4 hosts, 4 spines, 400 Gb/s links of 1 us.
struct Scenario
{
    std::string selector{"ns3::RepsPathSelector"};    //!< Path selector.
    bool freezing{true};                              //!< RepsPathSelector::FreezingEnabled.
    Time failAt{Time::Max()};                         //!< When leaf 0 - spine 1 fails for good.
    bool trimming{false};                             //!< Trimming in switches and queue pairs.
    std::string queue{"100p"};                        //!< Switch queue size.
    std::vector<std::pair<uint32_t, uint32_t>> pairs; //!< (src, dst) of each transfer.
    uint64_t bytes{0};                                //!< Bytes per transfer.
};

Outcome
RunScenario(const Scenario& c)
{
    Ptr<ClosFabricHelper> h = CreateObject<ClosFabricHelper>();
    h->SetAttribute("Leaves", UintegerValue(2));
    h->SetAttribute("HostsPerLeaf", UintegerValue(4));
    h->SetAttribute("Spines", UintegerValue(4));
    h->SetAttribute("HostLinkRate", DataRateValue(DataRate("400Gbps")));
    h->SetAttribute("LeafUplinkRate", DataRateValue(DataRate("400Gbps")));
    h->SetSwitchQueueDisc("ns3::EcnQueueDisc",
                          "MaxSize",
                          QueueSizeValue(QueueSize(c.queue)),
                          "Trimming",
                          BooleanValue(c.trimming));
    Ptr<ClosFabric> fabric = h->Build();
    const uint32_t special = fabric->GetLeafSpineLink(0, 1);
    Log log;
    if (c.failAt != Time::Max())
    {
        fabric->FailLink(special, c.failAt);
        for (uint32_t side = 0; side < 2; ++side)
        {
            PointerValue em;
            fabric->GetLinkDevice(special, side)->GetAttribute("ReceiveErrorModel", em);
            em.Get<FabricLinkErrorModel>()->TraceConnectWithoutContext(
                "Drop",
                MakeCallback(&Log::Dropped, &log));
        }
    }
    RdmaHelper rdma;
    if (c.selector == "ns3::RepsPathSelector")
    {
        rdma.SetPathSelector(c.selector, "FreezingEnabled", BooleanValue(c.freezing));
    }
    else
    {
        rdma.SetPathSelector(c.selector);
    }
    rdma.SetQueuePairAttribute("Trimming", BooleanValue(c.trimming));
    rdma.Install(fabric->GetHosts());
    std::vector<Transfer> transfers(c.pairs.size());
    for (uint32_t i = 0; i < c.pairs.size(); ++i)
    {
        const uint32_t src = c.pairs[i].first;
        const uint32_t dst = c.pairs[i].second;
        rdma.SetQueuePairAttribute("BaseRtt", TimeValue(fabric->GetBaseRtt(src, dst, 4140, 66)));
        Transfer& t = transfers[i];
        auto qps = rdma.CreateQueuePair(fabric->GetHost(src), fabric->GetHost(dst));
        t.sender = qps.first;
        t.receiver = qps.second;
        t.receiver->SetReceiveCallback(MakeCallback(&Transfer::Received, &t));
        t.sender->TraceConnectWithoutContext("AckReceived", MakeCallback(&Transfer::Acked, &t));
        if (c.selector == "ns3::RepsPathSelector")
        {
            t.sender->GetPathSelector()->TraceConnectWithoutContext(
                "FreezeStarted",
                MakeCallback(&Log::Frozen, &log));
        }
        t.posted = c.bytes;
        t.sender->PostSend(c.bytes, MakeCallback(&Transfer::Completed, &t));
    }
    rdma.AssignStreams(fabric->GetHosts(), 1000);
    ClosFabricHelper::AssignStreams(fabric, 2000);
    Simulator::Stop(MilliSeconds(20));
    Simulator::Run();

    Outcome r;
    for (const Transfer& t : transfers)
    {
        r.complete = r.complete && t.Complete();
        r.last = std::max(r.last, t.done);
        r.timeouts += t.sender->GetStats().timeouts;
        r.ceAcks += t.ceAcks;
        r.nacks += t.sender->GetStats().nacksReceived;
        Ptr<PathSelector> ps = t.sender->GetPathSelector();
        r.ecnFeedback += ps->GetFeedbackCount(PathSelector::Feedback::ECN);
        r.nackFeedback += ps->GetFeedbackCount(PathSelector::Feedback::NACK);
    }
    r.drops = log.drops.size();
    for (Time t : log.drops)
    {
        r.lateDrops += (t > c.failAt + (r.last - c.failAt) / 2) ? 1 : 0;
    }
    for (uint32_t l = 0; l < fabric->GetNLinks(); ++l)
    {
        for (uint32_t side = 0; side < 2; ++side)
        {
            r.trims += fabric->GetQueueStats(l, side).trims;
        }
    }
    r.freezes = log.freezes;
    r.firstFreeze = log.firstFreeze;
    Simulator::Destroy();
    return r;
}

} // namespace

/**
 * \ingroup reps-test
 * REPS on a blackhole (a quick version of the reps-load-balancing case): the leaf 0 - spine 1
 * link fails for good at 20 us while hosts 0 and 1 send 2 MiB each to hosts 4 and 5, routes
 * never reconverge. The timeouts come with low RTTs, so they are a failure signal: REPS freezes
 * after the failure, completes, and loses nothing on the dead link in the second half of the
 * transfer (it only reuses EVs that worked). With FreezingEnabled=false it never freezes.
 */
class RepsFreezeOnFailureTestCase : public TestCase
{
  public:
    RepsFreezeOnFailureTestCase()
        : TestCase("REPS freezes on a real timeout and leaves the dead path")
    {
    }

  private:
    void DoRun() override
    {
        Scenario c;
        c.failAt = MicroSeconds(20);
        c.pairs = {{0, 4}, {1, 5}};
        c.bytes = 2 << 20;
        const Outcome frozen = RunScenario(c);
        c.freezing = false;
        const Outcome unfrozen = RunScenario(c);
        std::ostringstream os;
        os << "drops on the dead link: " << frozen.drops << " (" << frozen.lateDrops
           << " late), without freezing " << unfrozen.drops << " (" << unfrozen.lateDrops
           << " late)";
        NS_TEST_EXPECT_MSG_EQ(frozen.complete, true, "every byte delivered once");
        NS_TEST_EXPECT_MSG_EQ(unfrozen.complete, true, "unfrozen: every byte delivered once");
        NS_TEST_EXPECT_MSG_GT(frozen.timeouts, 0, "the dead link caused timeouts");
        NS_TEST_EXPECT_MSG_GT(frozen.drops, 0, "packets were lost on the dead link");
        NS_TEST_EXPECT_MSG_GT_OR_EQ(frozen.freezes, 1, "REPS froze: " + os.str());
        NS_TEST_EXPECT_MSG_GT(frozen.firstFreeze, c.failAt, "after the failure");
        NS_TEST_EXPECT_MSG_EQ(frozen.lateDrops, 0, "frozen REPS left the dead path: " + os.str());
        NS_TEST_EXPECT_MSG_EQ(unfrozen.freezes, 0, "FreezingEnabled=false never freezes");
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * A 3-to-1 incast through small queues marks packets: every ACK that echoes CE reaches the
 * path selector as ECN feedback, for REPS and OPS.
 */
class EcnEchoReachesSelectorTestCase : public TestCase
{
  public:
    /// \param selector path selector TypeId
    EcnEchoReachesSelectorTestCase(const std::string& selector)
        : TestCase("Every CE echo reaches the path selector, " + selector),
          m_selector(selector)
    {
    }

  private:
    std::string m_selector; //!< Path selector.

    void DoRun() override
    {
        Scenario c;
        c.selector = m_selector;
        c.queue = "40p";
        c.pairs = {{0, 4}, {1, 4}, {2, 4}};
        c.bytes = 512 * 1024;
        const Outcome r = RunScenario(c);
        NS_TEST_EXPECT_MSG_EQ(r.complete, true, "every byte delivered once");
        NS_TEST_EXPECT_MSG_GT(r.ceAcks, 0, "the incast marked packets");
        NS_TEST_EXPECT_MSG_EQ(r.ecnFeedback, r.ceAcks, "each CE echo is ECN feedback");
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * A 3-to-1 incast through trimming queues: every NACK of a trimmed packet reaches the path
 * selector as NACK feedback, and every packet still arrives once.
 */
class TrimNackReachesSelectorTestCase : public TestCase
{
  public:
    TrimNackReachesSelectorTestCase()
        : TestCase("Every NACK of a trimmed packet reaches the path selector")
    {
    }

  private:
    void DoRun() override
    {
        Scenario c;
        c.selector = "ns3::RepsPathSelector";
        c.queue = "8p";
        c.trimming = true;
        c.pairs = {{0, 4}, {1, 4}, {2, 4}};
        c.bytes = 512 * 1024;
        const Outcome r = RunScenario(c);
        NS_TEST_EXPECT_MSG_EQ(r.complete, true, "every byte delivered once");
        NS_TEST_EXPECT_MSG_GT(r.trims, 0, "the incast trimmed packets");
        NS_TEST_EXPECT_MSG_GT(r.nacks, 0, "trimmed packets were NACKed");
        NS_TEST_EXPECT_MSG_EQ(r.nackFeedback, r.nacks, "each NACK is NACK feedback");
        Simulator::Destroy();
    }
};

/**
 * Drops chosen RoCEv2 packets by opcode class and PSN, as they arrive at a device (the packet
 * still has its 2-byte PPP header, then IPv4 and UDP, then the BTH).
 */
class PsnErrorModel : public ErrorModel
{
  public:
    /// \return the object TypeId
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::RepsTestPsnErrorModel")
                                .SetParent<ErrorModel>()
                                .SetGroupName("Reps")
                                .AddConstructor<PsnErrorModel>();
        return tid;
    }

    std::set<uint32_t> dataPsns; //!< Data PSNs to drop (first arrival only).
    std::set<uint32_t> ackPsns;  //!< ACKs (not NACKs) to drop, by the PSN they answer.
    uint32_t dropped{0};         //!< Packets dropped.

  private:
    bool DoCorrupt(Ptr<Packet> p) override
    {
        constexpr uint32_t bth = 2 + 20 + 8;
        uint8_t b[bth + 12];
        if (p->GetSize() < sizeof(b))
        {
            return false;
        }
        p->CopyData(b, sizeof(b));
        const uint8_t opCode = b[bth];
        const uint32_t psn =
            (uint32_t(b[bth + 9]) << 16) | (uint32_t(b[bth + 10]) << 8) | b[bth + 11];
        std::set<uint32_t>& set = RoceBthHeader::IsDataOpCode(opCode) ? dataPsns : ackPsns;
        if ((RoceBthHeader::IsDataOpCode(opCode) || opCode == RoceBthHeader::RC_ACK) &&
            set.erase(psn) > 0)
        {
            ++dropped;
            return true;
        }
        return false;
    }

    void DoReset() override
    {
    }
};

/**
 * \ingroup reps-test
 * Selective repeat uses the SACK bitmap: data packet 5 is lost once and the ACKs of packets 6
 * to 10 are lost, so only the ACKs from packet 11 on tell the sender that 6 to 10 arrived, in
 * their SACK bitmaps (the cumulative PSN stays at 5 until 5 is resent). The sender must then
 * resend packet 5 alone: one retransmission, no duplicate at the receiver.
 */
class SackAcknowledgesTestCase : public TestCase
{
  public:
    SackAcknowledgesTestCase()
        : TestCase("Selective repeat: packets reported only by SACK bitmaps are not resent")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<ClosFabricHelper> h = CreateObject<ClosFabricHelper>();
        h->SetAttribute("Leaves", UintegerValue(2));
        h->SetAttribute("HostsPerLeaf", UintegerValue(1));
        h->SetAttribute("Spines", UintegerValue(1));
        Ptr<ClosFabric> fabric = h->Build();
        Ptr<PsnErrorModel> toReceiver = CreateObject<PsnErrorModel>();
        toReceiver->dataPsns = {5};
        Ptr<PsnErrorModel> toSender = CreateObject<PsnErrorModel>();
        toSender->ackPsns = {6, 7, 8, 9, 10};
        for (uint32_t host = 0; host < 2; ++host)
        {
            const uint32_t link = fabric->GetHostLink(host);
            const uint32_t side = fabric->GetLinkNode(link, 0) == fabric->GetHost(host) ? 0 : 1;
            fabric->GetLinkDevice(link, side)
                ->SetReceiveErrorModel(host == 0 ? toSender : toReceiver);
        }
        RdmaHelper rdma;
        rdma.SetQueuePairAttribute("GoBackN", BooleanValue(false));
        rdma.SetQueuePairAttribute("AckEvery", UintegerValue(1));
        rdma.SetQueuePairAttribute("InitialPsn", UintegerValue(0));
        rdma.SetQueuePairAttribute("BaseRtt", TimeValue(fabric->GetBaseRtt(0, 1, 4140, 66)));
        rdma.Install(fabric->GetHosts());
        Transfer t;
        auto qps = rdma.CreateQueuePair(fabric->GetHost(0), fabric->GetHost(1));
        t.sender = qps.first;
        t.receiver = qps.second;
        t.receiver->SetReceiveCallback(MakeCallback(&Transfer::Received, &t));
        t.posted = 32 * 4096;
        t.sender->PostSend(t.posted, MakeCallback(&Transfer::Completed, &t));
        Simulator::Stop(MilliSeconds(5));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(t.Complete(), true, "every byte delivered once");
        NS_TEST_EXPECT_MSG_EQ(toReceiver->dropped, 1, "data packet 5 was dropped");
        NS_TEST_EXPECT_MSG_EQ(toSender->dropped, 5, "the ACKs of 6 to 10 were dropped");
        NS_TEST_EXPECT_MSG_EQ(t.sender->GetStats().retransmissions, 1, "only packet 5 resent");
        NS_TEST_EXPECT_MSG_EQ(t.receiver->GetStats().duplicates, 0, "no duplicate");
        Simulator::Destroy();
    }
};

/**
 * A RoCEv2 packet as the switch queue sees it: IPv4 (ECT), UDP to port 4791, a BTH.
 * \param payload bytes after the BTH
 * \param opCode the BTH opcode
 * \return the item
 */
Ptr<Ipv4QueueDiscItem>
MakeRoceItem(uint32_t payload, uint8_t opCode)
{
    Ptr<Packet> p = Create<Packet>(payload);
    RoceBthHeader bth;
    bth.SetOpCode(opCode);
    bth.SetPsn(7);
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
 * \ingroup reps-test
 * The strict-priority band of EcnQueueDisc: a trimmed header goes there even when control
 * packets do not (ControlPriority false), so trimming still works when the data band is full;
 * and the band holds at most PriorityBandMaxSize packets.
 */
class EcnPriorityBandTestCase : public TestCase
{
  public:
    EcnPriorityBandTestCase()
        : TestCase("EcnQueueDisc: trimmed headers overtake a full data band; the priority band "
                   "has its own limit")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<EcnQueueDisc> q = CreateObject<EcnQueueDisc>();
        q->SetAttribute("ControlPriority", BooleanValue(false));
        q->SetAttribute("Trimming", BooleanValue(true));
        q->SetAttribute("MaxSize", QueueSizeValue(QueueSize("10p")));
        q->SetAttribute("Kmin", QueueSizeValue(QueueSize("2p")));
        q->SetAttribute("Kmax", QueueSizeValue(QueueSize("8p")));
        q->Initialize();
        q->AssignStreams(1);
        for (uint32_t i = 0; i < 10; ++i)
        {
            q->Enqueue(MakeRoceItem(1000, RoceBthHeader::RC_SEND_MIDDLE));
        }
        // As the switch does: PrepareEnqueue() trims what would not fit, then Enqueue().
        Ptr<QueueDiscItem> late =
            q->PrepareEnqueue(MakeRoceItem(1000, RoceBthHeader::RC_SEND_MIDDLE));
        NS_TEST_ASSERT_MSG_EQ(q->Enqueue(late),
                              true,
                              "a data packet arriving at a full queue is trimmed, not dropped");
        NS_TEST_ASSERT_MSG_EQ(q->GetCounters().trims, 1, "one trim");
        Ptr<QueueDiscItem> first = q->Dequeue();
        NS_TEST_ASSERT_MSG_NE(first, nullptr, "something to dequeue");
        NS_TEST_ASSERT_MSG_LT(first->GetPacket()->GetSize(), 1000, "the trimmed header first");
        q->Dispose();

        Ptr<EcnQueueDisc> small = CreateObject<EcnQueueDisc>();
        small->SetAttribute("PriorityBandMaxSize", QueueSizeValue(QueueSize("4p")));
        small->Initialize();
        for (uint32_t i = 0; i < 4; ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(small->Enqueue(MakeRoceItem(16, RoceBthHeader::RC_ACK)),
                                  true,
                                  "ACK " << i << " fits the priority band");
        }
        NS_TEST_ASSERT_MSG_EQ(small->Enqueue(MakeRoceItem(16, RoceBthHeader::RC_ACK)),
                              false,
                              "the fifth ACK overflows a 4-packet priority band");
        NS_TEST_ASSERT_MSG_EQ(small->GetCounters().overflowDrops, 1, "counted as an overflow");
        small->Dispose();
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * Adaptive forwarding on an idle fabric is flow hashing: when every candidate queue is empty,
 * the tie goes to the flow-hash port, so that a flow keeps the path ECMP gives it until queues
 * build. Host 0 sends 64 one-packet messages, 5 us apart, with OPS (a random EV each) to the
 * host of the other leaf; every packet leaves leaf 0 by the port GetFlowHashPort() names.
 */
class AdaptiveIdleIsFlowHashTestCase : public TestCase
{
  public:
    AdaptiveIdleIsFlowHashTestCase()
        : TestCase("Adaptive forwarding with idle queues breaks ties at random, not by the hash")
    {
    }

  private:
    /// Forwarded packets and how many left by the flow-hash port.
    struct Seen
    {
        Ptr<FabricSwitch> sw;     //!< Leaf 0.
        uint32_t hostPort{0};     //!< Leaf 0's port to host 0.
        uint32_t packets{0};      //!< Data packets from host 0.
        uint32_t hashPort{0};     //!< Of those, sent by the flow-hash port.
        std::set<uint32_t> ports; //!< Ports used.
    };

    static void Forwarded(Seen* seen,
                          Ptr<const Packet> p,
                          const Ipv4Header& ip,
                          uint32_t inPort,
                          uint32_t outPort)
    {
        if (inPort != seen->hostPort)
        {
            return;
        }
        UdpHeader udp;
        p->PeekHeader(udp);
        ++seen->packets;
        seen->ports.insert(outPort);
        const uint32_t hash = seen->sw->GetFlowHashPort(ip.GetSource(),
                                                        ip.GetDestination(),
                                                        ip.GetProtocol(),
                                                        udp.GetSourcePort(),
                                                        udp.GetDestinationPort());
        seen->hashPort += (hash == outPort) ? 1 : 0;
    }

    void DoRun() override
    {
        Ptr<ClosFabricHelper> h = CreateObject<ClosFabricHelper>();
        h->SetAttribute("Leaves", UintegerValue(2));
        h->SetAttribute("HostsPerLeaf", UintegerValue(1));
        h->SetAttribute("Spines", UintegerValue(4));
        h->SetPortSelector("ns3::AdaptivePortSelector");
        Ptr<ClosFabric> fabric = h->Build();
        Seen seen;
        seen.sw = fabric->GetLeaf(0)->GetObject<FabricSwitch>();
        const uint32_t link = fabric->GetHostLink(0);
        const uint32_t side = fabric->GetLinkNode(link, 0) == fabric->GetLeaf(0) ? 0 : 1;
        for (uint32_t port = 0; port < seen.sw->GetNPorts(); ++port)
        {
            if (seen.sw->GetPortDevice(port) == fabric->GetLinkDevice(link, side))
            {
                seen.hostPort = port;
            }
        }
        seen.sw->TraceConnectWithoutContext("Forward", MakeBoundCallback(&Forwarded, &seen));
        RdmaHelper rdma;
        rdma.SetPathSelector("ns3::OpsPathSelector");
        rdma.SetQueuePairAttribute("BaseRtt", TimeValue(fabric->GetBaseRtt(0, 1, 4140, 66)));
        rdma.Install(fabric->GetHosts());
        Transfer t;
        auto qps = rdma.CreateQueuePair(fabric->GetHost(0), fabric->GetHost(1));
        t.sender = qps.first;
        t.receiver = qps.second;
        t.receiver->SetReceiveCallback(MakeCallback(&Transfer::Received, &t));
        for (uint32_t i = 0; i < 64; ++i)
        {
            t.posted += 1000;
            Simulator::Schedule(MicroSeconds(5 * i), [&t]() {
                t.sender->PostSend(1000, MakeCallback(&Transfer::Completed, &t));
            });
        }
        rdma.AssignStreams(fabric->GetHosts(), 1000);
        ClosFabricHelper::AssignStreams(fabric, 2000);
        Simulator::Stop(MilliSeconds(2));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(t.Complete(), true, "every byte delivered once");
        NS_TEST_EXPECT_MSG_EQ(seen.packets, 64, "64 data packets through leaf 0");
        NS_TEST_EXPECT_MSG_EQ(seen.ports.size(), 4, "ties spread over every uplink");
        NS_TEST_EXPECT_MSG_LT(seen.hashPort, seen.packets, "not each by its flow-hash port");
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * The NIC sends ACKs ahead of data: hosts 0 and 1 (on two leaves) send 1 MiB to each other at
 * once, so each NIC has its own data to send whenever an ACK for the other direction is due.
 * An ACK waits at most for the data packet being serialized, so no RTT sample exceeds the
 * base RTT by more than a few packet times (measured: 1.04 x the base RTT at most); ACKs queued
 * behind the window of data would double it.
 */
class AcksBeforeDataTestCase : public TestCase
{
  public:
    AcksBeforeDataTestCase()
        : TestCase("The NIC sends ACKs ahead of its own data: RTTs stay near the base RTT")
    {
    }

  private:
    /// Largest RTT sample of a sender.
    static void Rtt(Time* max, uint32_t psn, uint16_t ev, bool ce, Time rtt)
    {
        *max = std::max(*max, rtt);
    }

    void DoRun() override
    {
        Ptr<ClosFabricHelper> h = CreateObject<ClosFabricHelper>();
        h->SetAttribute("Leaves", UintegerValue(2));
        h->SetAttribute("HostsPerLeaf", UintegerValue(1));
        h->SetAttribute("Spines", UintegerValue(2));
        Ptr<ClosFabric> fabric = h->Build();
        RdmaHelper rdma;
        const Time base = fabric->GetBaseRtt(0, 1, 4140, 66);
        rdma.SetQueuePairAttribute("BaseRtt", TimeValue(base));
        rdma.Install(fabric->GetHosts());
        Transfer t[2];
        Time maxRtt[2];
        for (uint32_t i = 0; i < 2; ++i)
        {
            auto qps = rdma.CreateQueuePair(fabric->GetHost(i), fabric->GetHost(1 - i));
            t[i].sender = qps.first;
            t[i].receiver = qps.second;
            t[i].receiver->SetReceiveCallback(MakeCallback(&Transfer::Received, &t[i]));
            t[i].sender->TraceConnectWithoutContext("AckReceived",
                                                    MakeBoundCallback(&Rtt, &maxRtt[i]));
            t[i].posted = 1 << 20;
            t[i].sender->PostSend(t[i].posted, MakeCallback(&Transfer::Completed, &t[i]));
        }
        Simulator::Stop(MilliSeconds(5));
        Simulator::Run();
        for (uint32_t i = 0; i < 2; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(t[i].Complete(), true, "every byte delivered once");
            NS_TEST_EXPECT_MSG_LT(maxRtt[i],
                                  base * 3 / 2,
                                  "largest RTT " << maxRtt[i].As(Time::US) << ", base RTT "
                                                 << base.As(Time::US));
        }
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * Feedback paths from the queue pair to the path selector, end to end.
 */
class RepsMutantsTestSuite : public TestSuite
{
  public:
    RepsMutantsTestSuite()
        : TestSuite("reps-mutants", TestSuite::Type::UNIT)
    {
        AddTestCase(new RepsFreezeOnFailureTestCase(), reps::kQuick);
        AddTestCase(new EcnEchoReachesSelectorTestCase("ns3::RepsPathSelector"), reps::kQuick);
        AddTestCase(new EcnEchoReachesSelectorTestCase("ns3::OpsPathSelector"), reps::kQuick);
        AddTestCase(new TrimNackReachesSelectorTestCase(), reps::kQuick);
        AddTestCase(new SackAcknowledgesTestCase(), reps::kQuick);
        AddTestCase(new EcnPriorityBandTestCase(), reps::kQuick);
        AddTestCase(new AdaptiveIdleIsFlowHashTestCase(), reps::kQuick);
        AddTestCase(new AcksBeforeDataTestCase(), reps::kQuick);
    }
};

/// The suite's instance.
static RepsMutantsTestSuite g_repsMutantsTestSuite;
