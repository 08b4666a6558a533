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

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

using namespace ns3;

/**
 * \file
 * \ingroup reps-test
 * RCCC, receiver credits (RcccSender, RcccPullPacer, RcccCongestionControl): defaults and bad
 * attributes; on a two-host fabric the pull rate is just under line rate and a sender never
 * sends beyond its speculative and granted credit; on an incast the pacer shares its pulls
 * among the senders, only speculative packets are ever trimmed, nothing is dropped, the
 * receiver's link stays busy and every message arrives once; a lost last packet is recovered
 * through an RTS, lost PULLs through the RTS fallback; last-hop NACKs re-queue their sender at the
 * pacer and leave NSCC's window alone under credits; the oversubscription control lowers the pull
 * rate when the core is the bottleneck; runs reproduce bit for bit. The rules themselves are
 * unit-tested on the cores (test/gtest/rccc-*-gtest.cc).
 */

namespace
{

/// Bytes on the wire of a full data packet with a credit request (4096 bytes of payload).
constexpr uint32_t kWire = 4096 + 12 + 8 + 4 + 8 + 20 + 2;

/// Wire bytes of a message of \p bytes payload bytes.
uint64_t
WireBytes(uint64_t bytes)
{
    const uint64_t packets = (bytes + 4095) / 4096;
    return bytes + packets * (kWire - 4096);
}

/// A small Clos fabric with the RDMA stack on every host.
struct Bed
{
    Ptr<ClosFabric> fabric; //!< The fabric.
    RdmaHelper rdma;        //!< Installs stacks and queue pairs.

    /**
     * \param leaves leaves
     * \param hostsPerLeaf hosts per leaf
     * \param spines spines
     * \param hostRate host link rate
     * \param uplinkRate leaf uplink rate
     * \param trim switches trim
     * \param cc congestion control TypeId
     * \param credits the queue pairs' ReceiverCredits
     */
    void Build(uint32_t leaves,
               uint32_t hostsPerLeaf,
               uint32_t spines,
               const std::string& hostRate,
               const std::string& uplinkRate,
               bool trim,
               const std::string& cc,
               bool credits)
    {
        Ptr<ClosFabricHelper> h = CreateObject<ClosFabricHelper>();
        h->SetAttribute("Leaves", UintegerValue(leaves));
        h->SetAttribute("HostsPerLeaf", UintegerValue(hostsPerLeaf));
        h->SetAttribute("Spines", UintegerValue(spines));
        h->SetAttribute("HostLinkRate", DataRateValue(DataRate(hostRate)));
        h->SetAttribute("LeafUplinkRate", DataRateValue(DataRate(uplinkRate)));
        h->SetSwitchQueueDisc("ns3::EcnQueueDisc",
                              "MaxSize",
                              QueueSizeValue(QueueSize("100p")),
                              "Kmin",
                              QueueSizeValue(QueueSize("20p")),
                              "Kmax",
                              QueueSizeValue(QueueSize("80p")),
                              "Trimming",
                              BooleanValue(trim),
                              "LastHopEcn",
                              BooleanValue(false));
        fabric = h->Build();
        rdma.SetPathSelector("ns3::RepsPathSelector");
        rdma.SetCongestionControl(cc);
        rdma.SetQueuePairAttribute("Trimming", BooleanValue(trim));
        rdma.SetQueuePairAttribute("ReceiverCredits", BooleanValue(credits));
        rdma.Install(fabric->GetHosts());
    }

    /// \return a connected pair of queue pairs from host src to host dst
    std::pair<Ptr<RdmaQueuePair>, Ptr<RdmaQueuePair>> Connect(uint32_t src, uint32_t dst)
    {
        rdma.SetQueuePairAttribute("BaseRtt",
                                   TimeValue(fabric->GetBaseRtt(src, dst, kWire - 2, 66)));
        return rdma.CreateQueuePair(fabric->GetHost(src), fabric->GetHost(dst));
    }

    /// \return the pull pacer of host h
    Ptr<RcccPullPacer> Pacer(uint32_t h) const
    {
        return fabric->GetHost(h)->GetObject<RdmaStack>()->GetPullPacer();
    }

    /// \return packets dropped anywhere in the fabric (queues and links)
    uint64_t Drops() const
    {
        uint64_t drops = 0;
        for (uint32_t l = 0; l < fabric->GetNLinks(); ++l)
        {
            for (uint32_t side = 0; side < 2; ++side)
            {
                drops += fabric->GetLinkCounters(l, side).droppedPackets;
                ClosFabric::QueueStats q = fabric->GetQueueStats(l, side);
                drops += q.hasQueueDisc ? q.drops : 0;
            }
        }
        return drops;
    }

    /// Connect a callback to the Trim trace of every switch queue.
    void OnTrims(Callback<void, Ptr<const QueueDiscItem>> cb) const
    {
        for (uint32_t l = 0; l < fabric->GetNLinks(); ++l)
        {
            for (uint32_t side = 0; side < 2; ++side)
            {
                Ptr<QueueDisc> q = fabric->GetQueueDisc(l, side);
                if (q)
                {
                    q->TraceConnectWithoutContext("Trim", cb);
                }
            }
        }
    }
};

/// One message and what its two ends saw.
struct Message
{
    uint64_t size{0};      //!< Bytes posted.
    uint32_t completed{0}; //!< Sender completions.
    uint32_t received{0};  //!< Receiver deliveries.
    Time fct;              //!< Sender FCT.
};

/// Post a message on a queue pair and count its completions at both ends.
void
Post(Ptr<RdmaQueuePair> tx, Ptr<RdmaQueuePair> rx, Message* m, uint64_t size)
{
    m->size = size;
    tx->PostSend(size, RdmaQueuePair::MessageCallback([m](uint64_t, uint64_t, Time fct) {
                     ++m->completed;
                     m->fct = fct;
                 }));
    rx->SetReceiveCallback(RdmaQueuePair::MessageCallback(
        [m](uint64_t, uint64_t bytes, Time) { m->received += bytes == m->size ? 1 : 100; }));
}

/// \return whether a trimmed header (UDP, BTH, credit request) was sent on speculative credit
bool
IsSpeculative(Ptr<const QueueDiscItem> item)
{
    uint8_t bytes[8 + RoceBthHeader::SIZE + 1];
    if (item->GetPacket()->CopyData(bytes, sizeof(bytes)) != sizeof(bytes))
    {
        return false;
    }
    return (bytes[8 + 4] & RoceBthHeader::CREDIT_REQUEST_BIT) != 0 &&
           (bytes[8 + RoceBthHeader::SIZE] & 0x80) != 0;
}

/// A PULL seen by a PullSent trace.
struct PullRecord
{
    Time at;             //!< When.
    uint32_t qpn{0};     //!< Receiving queue pair.
    uint32_t granted{0}; //!< Credit added.
    bool slow{false};    //!< Slow pull.
};

/// PullSent sink.
void
RecordPull(std::vector<PullRecord>* out, uint32_t qpn, uint32_t granted, uint64_t, bool slow)
{
    out->push_back(PullRecord{Simulator::Now(), qpn, granted, slow});
}

/**
 * Loses, once, the first data packet that ends a message for a given queue pair, as it
 * reaches the receiving host (a scripted loss of a message's last packet).
 */
class DropLastPacket : public ErrorModel
{
  public:
    /// \param qpn the destination QPN whose last packet is lost
    explicit DropLastPacket(uint32_t qpn)
        : m_qpn(qpn)
    {
    }

    uint32_t dropped{0}; //!< Packets lost.

  private:
    bool DoCorrupt(Ptr<Packet> p) override
    {
        // PPP (2), IPv4 (20), UDP (8), then the BTH: opcode, ..., destination QP in bytes 5-7.
        uint8_t b[2 + 20 + 8 + RoceBthHeader::SIZE];
        if (dropped > 0 || p->CopyData(b, sizeof(b)) != sizeof(b))
        {
            return false;
        }
        const uint8_t* bth = b + 30;
        const uint32_t qpn = (uint32_t(bth[5]) << 16) | (uint32_t(bth[6]) << 8) | bth[7];
        const bool last = bth[0] == RoceBthHeader::RC_SEND_LAST;
        const bool trimmed = (bth[4] & RoceBthHeader::TRIMMED_BIT) != 0;
        if (last && !trimmed && qpn == m_qpn)
        {
            ++dropped;
            return true;
        }
        return false;
    }

    void DoReset() override
    {
    }

    uint32_t m_qpn; //!< Destination QPN.
};

} // namespace

/**
 * \ingroup reps-test
 * The defaults are the reference simulator's (4 MSS per PULL, 0.99 of line rate, the largest
 * window as speculative credit, the oversubscription constants); out-of-range values are
 * refused by the checkers and inconsistent ones by Validate(), naming the attribute;
 * RcccCongestionControl is --cc=rccc, asks for credits and has no window.
 */
class RcccDefaultsTestCase : public TestCase
{
  public:
    RcccDefaultsTestCase()
        : TestCase("RCCC: defaults, names and bad attributes")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<RcccPullPacer> pacer = CreateObject<RcccPullPacer>();
        UintegerValue u;
        DoubleValue d;
        BooleanValue b;
        pacer->GetAttribute("CreditBytes", u);
        NS_TEST_EXPECT_MSG_EQ(u.Get(), 16384u, "4 x 4096 bytes per PULL");
        pacer->GetAttribute("PullRateFraction", d);
        NS_TEST_EXPECT_MSG_EQ_TOL(d.Get(), 0.99, 1e-12, "just under line rate");
        pacer->GetAttribute("EmptyPullBytes", u);
        NS_TEST_EXPECT_MSG_EQ(u.Get(), 1024u, "an empty PULL's time");
        pacer->GetAttribute("OversubscriptionControl", b);
        NS_TEST_EXPECT_MSG_EQ(b.Get(), false, "off by default");
        pacer->GetAttribute("TargetCongestion", d);
        NS_TEST_EXPECT_MSG_EQ_TOL(d.Get(), 0.3, 1e-12, "target");
        pacer->GetAttribute("DecreaseFactor", d);
        NS_TEST_EXPECT_MSG_EQ_TOL(d.Get(), 0.5, 1e-12, "Md");
        pacer->GetAttribute("EcnWeight", d);
        NS_TEST_EXPECT_MSG_EQ_TOL(d.Get(), 0.5, 1e-12, "alpha");
        pacer->GetAttribute("IncreaseStep", d);
        NS_TEST_EXPECT_MSG_EQ_TOL(d.Get(), 0.01, 1e-12, "Ai");
        NS_TEST_EXPECT_MSG_EQ(pacer->Validate(), "", "the defaults are valid");
        NS_TEST_EXPECT_MSG_EQ(pacer->SetAttributeFailSafe("CreditBytes", UintegerValue(0)),
                              false,
                              "CreditBytes in [1, 2^24]");
        NS_TEST_EXPECT_MSG_EQ(pacer->SetAttributeFailSafe("PullRateFraction", DoubleValue(2.5)),
                              false,
                              "PullRateFraction in (0, 2]");
        NS_TEST_EXPECT_MSG_EQ(pacer->SetAttributeFailSafe("MinRate", DoubleValue(1.5)),
                              false,
                              "MinRate in (0, 1]");
        pacer->SetAttribute("PullRateFraction", DoubleValue(0));
        NS_TEST_EXPECT_MSG_EQ(pacer->Validate(),
                              "RcccPullPacer: PullRateFraction (0) must be in (0, 2]",
                              "zero rate refused");
        pacer->SetAttribute("PullRateFraction", DoubleValue(0.99));
        pacer->SetAttribute("MinRate", DoubleValue(0));
        NS_TEST_EXPECT_MSG_EQ(pacer->Validate(),
                              "RcccPullPacer: MinRate (0) must be in (0, 1]",
                              "zero least rate refused");

        Ptr<RcccSender> sender = CreateObject<RcccSender>();
        RdmaCcContext c;
        c.lineRate = DataRate("100Gbps");
        c.mtu = 4096;
        c.packetBytes = kWire - 2;
        c.baseRtt = MicroSeconds(12);
        NS_TEST_EXPECT_MSG_EQ(sender->Validate(c), "", "the defaults are valid");
        sender->Init(c, MicroSeconds(60));
        NS_TEST_EXPECT_MSG_EQ(sender->GetMaxCredit(), 225000u, "1.5 x 100 Gb/s x 12 us");
        NS_TEST_EXPECT_MSG_EQ(sender->GetCredit(), 225000, "speculative credit = the largest");
        NS_TEST_EXPECT_MSG_EQ(sender->IsSpeculating(), true, "speculating");
        NS_TEST_EXPECT_MSG_EQ(sender->GetRtsTimeout(), MicroSeconds(480), "8 x the Rto");
        sender = CreateObject<RcccSender>();
        sender->SetAttribute("MaxCredit", DoubleValue(0.001));
        NS_TEST_EXPECT_MSG_EQ(sender->Validate(c),
                              "RcccSender: MaxCredit (0.001 BDP = 150 bytes) must hold at least "
                              "one packet (4150 bytes on the wire)",
                              "too little credit refused");
        NS_TEST_EXPECT_MSG_EQ(sender->SetAttributeFailSafe("MaxCredit", DoubleValue(-1)),
                              false,
                              "MaxCredit in [0, 1000]");

        Ptr<RcccCongestionControl> cc = CreateObject<RcccCongestionControl>();
        NS_TEST_EXPECT_MSG_EQ(cc->GetName(), "rccc", "--cc=rccc");
        NS_TEST_EXPECT_MSG_EQ(cc->UsesReceiverCredits(), true, "asks for credits");
        cc->Init(c);
        NS_TEST_EXPECT_MSG_EQ(cc->GetWindow(), RdmaCongestionControl::UNLIMITED, "no window");
        NS_TEST_EXPECT_MSG_EQ(CreateObject<NsccCongestionControl>()->UsesReceiverCredits(),
                              false,
                              "NSCC alone does not");
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * Two hosts, one 4 MB message under --cc=rccc: in the steady state the receiver's pacer grants
 * credit at 0.99 of the line rate, the sender never sends a packet without positive credit (in
 * all: at most its speculative credit, what was granted and less than one packet more), the
 * receiver's port never queues, and the message arrives once, at just under line rate.
 */
class RcccTwoHostTestCase : public TestCase
{
  public:
    RcccTwoHostTestCase()
        : TestCase("RCCC: two hosts, pull rate just under line rate, credit accounting")
    {
    }

  private:
    std::vector<PullRecord> m_pulls; //!< PULLs sent.
    uint64_t m_granted{0};           //!< Credit granted (sender side).
    uint64_t m_used{0};              //!< Credit spent.
    uint32_t m_sentWithoutCredit{0}; //!< Packets that left on no positive credit.
    uint64_t m_speculative{0};       //!< Speculative credit.

    void Granted(uint32_t bytes, int64_t credit)
    {
        m_granted += bytes;
    }

    void Used(uint32_t bytes, int64_t credit)
    {
        // The credit before this packet must have been positive.
        if (credit + static_cast<int64_t>(bytes) <= 0)
        {
            ++m_sentWithoutCredit;
        }
        m_used += bytes;
    }

    void DoRun() override
    {
        Bed bed;
        bed.Build(1, 2, 1, "100Gbps", "100Gbps", false, "ns3::RcccCongestionControl", false);
        auto [tx, rx] = bed.Connect(0, 1);
        Ptr<RcccSender> credit = tx->GetCreditSender();
        NS_TEST_ASSERT_MSG_NE(credit, nullptr, "--cc=rccc turns credits on");
        m_speculative = credit->GetSpeculativeCredit();
        credit->TraceConnectWithoutContext("CreditGranted",
                                           MakeCallback(&RcccTwoHostTestCase::Granted, this));
        credit->TraceConnectWithoutContext("CreditUsed",
                                           MakeCallback(&RcccTwoHostTestCase::Used, this));
        bed.Pacer(1)->TraceConnectWithoutContext("PullSent",
                                                 MakeBoundCallback(&RecordPull, &m_pulls));
        Message m;
        const uint64_t size = 4000000;
        Post(tx, rx, &m, size);
        Simulator::Run();

        NS_TEST_ASSERT_MSG_EQ(m.completed, 1u, "completed once");
        NS_TEST_EXPECT_MSG_EQ(m.received, 1u, "delivered once, whole");
        NS_TEST_EXPECT_MSG_EQ(rx->GetStats().bytesReceived, size, "each byte once");
        // Steady state: the full PULLs of the active queue, past the first and last few.
        std::vector<PullRecord> full;
        for (const PullRecord& p : m_pulls)
        {
            if (!p.slow && p.granted == 16384)
            {
                full.push_back(p);
            }
        }
        NS_TEST_ASSERT_MSG_GT(full.size(), 100u, "PULLs in the steady state");
        const size_t i0 = 20;
        const size_t i1 = full.size() - 20;
        double bytes = 0;
        for (size_t i = i0; i < i1; ++i)
        {
            bytes += full[i].granted;
        }
        const double rate = bytes * 8 / (full[i1].at - full[i0].at).GetSeconds();
        NS_TEST_EXPECT_MSG_EQ_TOL(rate / 99e9, 1.0, 0.002, "credit at 0.99 x 100 Gb/s");

        NS_TEST_EXPECT_MSG_EQ(m_sentWithoutCredit, 0u, "every packet left on positive credit");
        NS_TEST_EXPECT_MSG_LT(m_used, m_speculative + m_granted + kWire, "never beyond credit");
        NS_TEST_EXPECT_MSG_EQ(m_used,
                              tx->GetStats().bytesSent + tx->GetStats().packetsSent * 54,
                              "every byte on the wire spent credit");
        NS_TEST_EXPECT_MSG_GT(m_granted + m_speculative, WireBytes(size), "all of it granted");
        // One sender at no more than line rate: the receiver's port never holds a queue.
        const ClosFabric::QueueStats q = bed.fabric->GetQueueStats(bed.fabric->GetHostLink(1), 1);
        NS_TEST_EXPECT_MSG_LT(q.maxPackets, 3u, "no queue at the receiver's port");
        // Just under line rate: the speculative 1.5 BDP at line rate, the rest at 0.99 of it.
        const double ideal = WireBytes(size) * 8 / 100e9;
        NS_TEST_EXPECT_MSG_GT(m.fct.GetSeconds(), ideal, "not faster than the line");
        NS_TEST_EXPECT_MSG_LT(m.fct.GetSeconds(), ideal / 0.99 + 10e-6, "at 0.99 of it");
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * An 8:1 incast of 2 MiB on a trimming 400 Gb/s fabric under --cc=rccc (4 senders on the
 * receiver's leaf, 4 on the other): the speculative first round trip is trimmed at the
 * receiver's port (most trims are of speculative packets), but nothing is trimmed after the
 * first round trips (3 base RTTs, in a run of about 60) and nothing is dropped; in the
 * steady state the pacer grants every sender the same credit; the receiver's link stays busy
 * (the last message ends within 2% of 8 x 2 MiB at 0.99 of its rate); every message arrives
 * once.
 */
class RcccIncastTestCase : public TestCase
{
  public:
    RcccIncastTestCase()
        : TestCase("RCCC: 8:1 incast, shared pulls, trims only in the first RTT, link busy")
    {
    }

  private:
    std::vector<PullRecord> m_pulls; //!< PULLs of the receiver's pacer.
    uint32_t m_trims{0};             //!< Trims.
    uint32_t m_trimsSpeculative{0};  //!< Trims of packets sent on speculative credit.
    Time m_lastTrim;                 //!< When the last trim was.

    void Trim(Ptr<const QueueDiscItem> item)
    {
        ++m_trims;
        m_trimsSpeculative += IsSpeculative(item) ? 1 : 0;
        m_lastTrim = Simulator::Now();
    }

    void DoRun() override
    {
        Bed bed;
        bed.Build(2, 8, 4, "400Gbps", "400Gbps", true, "ns3::RcccCongestionControl", false);
        bed.OnTrims(MakeCallback(&RcccIncastTestCase::Trim, this));
        bed.Pacer(0)->TraceConnectWithoutContext("PullSent",
                                                 MakeBoundCallback(&RecordPull, &m_pulls));
        const std::vector<uint32_t> senders = {1, 2, 3, 4, 8, 9, 10, 11};
        std::vector<Message> messages(senders.size());
        std::vector<std::pair<Ptr<RdmaQueuePair>, Ptr<RdmaQueuePair>>> qps;
        const uint64_t size = 2 * 1048576;
        for (size_t i = 0; i < senders.size(); ++i)
        {
            qps.push_back(bed.Connect(senders[i], 0));
            Post(qps[i].first, qps[i].second, &messages[i], size);
        }
        bed.rdma.AssignStreams(bed.fabric->GetHosts(), 100);
        Simulator::Run();

        Time last;
        for (size_t i = 0; i < senders.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(messages[i].completed, 1u, "sender " << i << " completed once");
            NS_TEST_EXPECT_MSG_EQ(messages[i].received, 1u, "delivered once, whole");
            NS_TEST_EXPECT_MSG_EQ(qps[i].second->GetStats().bytesReceived, size, "bytes once");
            NS_TEST_EXPECT_MSG_EQ(qps[i].first->GetStats().timeouts, 0u, "no timeout");
            last = Max(last, messages[i].fct);
        }
        NS_TEST_EXPECT_MSG_EQ(bed.Drops(), 0u, "no drops");
        NS_TEST_EXPECT_MSG_GT(m_trimsSpeculative,
                              m_trims * 3 / 4,
                              "the speculative first round trip overflows the port");
        // The speculative credit (1.5 BDP) leaves in 1.5 base RTTs at line rate; a round trip
        // later the pacer alone decides what arrives, and nothing is trimmed any more.
        const Time rtt = bed.fabric->GetBaseRtt(8, 0, kWire - 2, 66);
        NS_TEST_EXPECT_MSG_LT(m_lastTrim, 3 * rtt, "no trim after the first round trips");
        // The steady state: the middle half of the run, where all eight are active.
        std::map<uint32_t, double> share;
        for (const PullRecord& p : m_pulls)
        {
            if (!p.slow && p.at > last / 4 && p.at < last * 3 / 4)
            {
                share[p.qpn] += p.granted;
            }
        }
        NS_TEST_ASSERT_MSG_EQ(share.size(), senders.size(), "every sender pulled");
        double lo = 1e300;
        double hi = 0;
        for (const auto& [qpn, bytes] : share)
        {
            lo = std::min(lo, bytes);
            hi = std::max(hi, bytes);
        }
        NS_TEST_EXPECT_MSG_LT(hi - lo, 16384.0 * 1.5, "equal shares, within one PULL");
        const double ideal = senders.size() * WireBytes(size) * 8 / (0.99 * 400e9);
        NS_TEST_EXPECT_MSG_LT(last.GetSeconds(), 1.02 * ideal, "the receiver's link kept busy");
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * A message's last packet is lost (an error model on the receiver's link), while six other
 * senders keep the receiver's pacer busy: the retransmission timer finds the packet lost and
 * the queue pair without credit, so it sends an RTS; the receiver puts it back in the active
 * queue, a PULL grants it credit and the message completes, once, long before the other.
 */
class RcccRtsTestCase : public TestCase
{
  public:
    RcccRtsTestCase()
        : TestCase("RCCC: an RTS recovers a lost last packet")
    {
    }

  private:
    std::vector<PullRecord> m_pulls; //!< PULLs of the receiver's pacer.
    std::vector<Time> m_rts;         //!< When RTS left.
    std::vector<Time> m_timeouts;    //!< When the sender's retransmission timer fired.

    void Rts(uint64_t target)
    {
        m_rts.push_back(Simulator::Now());
    }

    void Timeout(uint32_t lost)
    {
        m_timeouts.push_back(Simulator::Now());
    }

    void DoRun() override
    {
        Bed bed;
        bed.Build(1, 8, 1, "100Gbps", "100Gbps", true, "ns3::RcccCongestionControl", false);
        auto [a, aRx] = bed.Connect(1, 0);
        Ptr<DropLastPacket> loss = CreateObject<DropLastPacket>(aRx->GetQpn());
        PointerValue em;
        bed.fabric->GetLinkDevice(bed.fabric->GetHostLink(0), 0)
            ->GetAttribute("ReceiveErrorModel", em);
        em.Get<FabricLinkErrorModel>()->SetLossModel(loss);
        a->GetCreditSender()->TraceConnectWithoutContext("RtsSent",
                                                         MakeCallback(&RcccRtsTestCase::Rts, this));
        a->TraceConnectWithoutContext("Timeout", MakeCallback(&RcccRtsTestCase::Timeout, this));
        bed.Pacer(0)->TraceConnectWithoutContext("PullSent",
                                                 MakeBoundCallback(&RecordPull, &m_pulls));
        Message ma;
        Post(a, aRx, &ma, 400000);
        // Six long senders keep the pacer's active queue busy: no slow pull reaches A.
        std::vector<Message> others(6);
        Time last;
        for (uint32_t i = 0; i < others.size(); ++i)
        {
            auto qp = bed.Connect(2 + i, 0);
            Post(qp.first, qp.second, &others[i], 4000000);
        }
        bed.rdma.AssignStreams(bed.fabric->GetHosts(), 100);
        Simulator::Run();
        for (const Message& m : others)
        {
            NS_TEST_EXPECT_MSG_EQ(m.completed, 1u, "the others completed");
            last = Max(last, m.fct);
        }

        NS_TEST_ASSERT_MSG_EQ(loss->dropped, 1u, "the last packet was lost");
        NS_TEST_EXPECT_MSG_EQ(ma.completed, 1u, "recovered: completed once");
        NS_TEST_EXPECT_MSG_EQ(ma.received, 1u, "delivered once, whole");
        NS_TEST_EXPECT_MSG_GT(a->GetStats().timeouts, 0u, "found lost by the timer");
        NS_TEST_ASSERT_MSG_GT(m_rts.size(), 0u, "an RTS was sent");
        NS_TEST_EXPECT_MSG_EQ(a->GetStats().rtsSent, m_rts.size(), "counted");
        NS_TEST_EXPECT_MSG_EQ(
            (!m_rts.empty() && !m_timeouts.empty() && m_rts.front() == m_timeouts.front()),
            true,
            "the RTS leaves when the timer finds the packet lost");
        NS_TEST_EXPECT_MSG_EQ(aRx->GetStats().rtsReceived, a->GetStats().rtsSent, "received");
        bool pulled = false;
        for (const PullRecord& p : m_pulls)
        {
            pulled |= !m_rts.empty() && p.qpn == aRx->GetQpn() && p.at > m_rts.front() &&
                      p.granted > 0 && p.at < ma.fct;
        }

        NS_TEST_EXPECT_MSG_EQ(pulled, true, "the RTS brought a PULL before the completion");
        NS_TEST_EXPECT_MSG_LT(ma.fct, last / 2, "without waiting for the others");
        Simulator::Destroy();
    }
};

/**
 * Loses every PULL that reaches a host during a window of time (a failed return path).
 */
class DropPulls : public ErrorModel
{
  public:
    /// \param from start of the window \param to its end
    DropPulls(Time from, Time to)
        : m_from(from),
          m_to(to)
    {
    }

    uint32_t dropped{0}; //!< PULLs lost.

  private:
    bool DoCorrupt(Ptr<Packet> p) override
    {
        uint8_t b[2 + 20 + 8 + 1];
        if (p->CopyData(b, sizeof(b)) != sizeof(b) || b[30] != RoceBthHeader::PULL ||
            Simulator::Now() < m_from || Simulator::Now() >= m_to)
        {
            return false;
        }
        ++dropped;
        return true;
    }

    void DoReset() override
    {
    }

    Time m_from; //!< Start of the window.
    Time m_to;   //!< End of the window.
};

/**
 * \ingroup reps-test
 * Every PULL to a sender is lost for 150 us: it sends what it holds and is left with no credit
 * and nothing in flight, while the receiver's pacer, its grants and slow pulls all sent, goes
 * idle. No timer runs (no packet is in flight), so only the sender's RTS fallback (after
 * RtsTimeout without a PULL) restarts the pacer, whose next PULL carries the whole cumulative
 * credit; the message completes, once.
 */
class RcccLostPullsTestCase : public TestCase
{
  public:
    RcccLostPullsTestCase()
        : TestCase("RCCC: lost PULLs, an RTS after RtsTimeout restarts the pacer")
    {
    }

  private:
    void DoRun() override
    {
        Bed bed;
        bed.Build(1, 2, 1, "100Gbps", "100Gbps", false, "ns3::RcccCongestionControl", false);
        auto [tx, rx] = bed.Connect(0, 1);
        Ptr<DropPulls> loss = CreateObject<DropPulls>(MicroSeconds(5), MicroSeconds(155));
        PointerValue em;
        bed.fabric->GetLinkDevice(bed.fabric->GetHostLink(0), 0)
            ->GetAttribute("ReceiveErrorModel", em);
        em.Get<FabricLinkErrorModel>()->SetLossModel(loss);
        Message m;
        Post(tx, rx, &m, 2000000);
        Simulator::Run();
        NS_TEST_EXPECT_MSG_GT(loss->dropped, 0u, "PULLs were lost");
        NS_TEST_EXPECT_MSG_EQ(m.completed, 1u, "completed once");
        NS_TEST_EXPECT_MSG_EQ(m.received, 1u, "delivered once, whole");
        NS_TEST_EXPECT_MSG_EQ(tx->GetStats().timeouts, 0u, "no packet was lost: no timeout");
        NS_TEST_EXPECT_MSG_GT(tx->GetStats().rtsSent, 0u, "the fallback sent an RTS");
        NS_TEST_EXPECT_MSG_EQ(rx->GetStats().rtsReceived, tx->GetStats().rtsSent, "received");
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * The 8:1 incast under NSCC with receiver credits (--cc=nscc --credits=true): the packets
 * trimmed at the receiver's port come back as last-hop NACKs, each trimmed packet puts its
 * sender back in the receiver's pacer's active queue, and NSCC keeps its window on them (no
 * "nack" decision: the pacer takes care of the receiver's port), while NSCC alone cuts it.
 */
class RcccLastHopTestCase : public TestCase
{
  public:
    RcccLastHopTestCase()
        : TestCase("RCCC: last-hop NACKs re-queue at the pacer, NSCC keeps its window")
    {
    }

  private:
    std::map<NsccDecision, uint32_t> m_decisions; //!< NSCC decisions of the senders.

    void Decision(NsccDecision d, uint32_t oldWindow, uint32_t newWindow)
    {
        ++m_decisions[d];
    }

    /// \param credits receiver credits on \return the receiver's pacer's re-queues
    RdmaQueuePairStats Run(bool credits, uint64_t& requeues, uint64_t& trimmedAtReceiver)
    {
        m_decisions.clear();
        Bed bed;
        bed.Build(2, 8, 4, "400Gbps", "400Gbps", true, "ns3::NsccCongestionControl", credits);
        const std::vector<uint32_t> senders = {1, 2, 3, 4, 8, 9, 10, 11};
        std::vector<Message> messages(senders.size());
        std::vector<std::pair<Ptr<RdmaQueuePair>, Ptr<RdmaQueuePair>>> qps;
        for (size_t i = 0; i < senders.size(); ++i)
        {
            qps.push_back(bed.Connect(senders[i], 0));
            qps[i].first->GetCongestionControl()->TraceConnectWithoutContext(
                "Decision",
                MakeCallback(&RcccLastHopTestCase::Decision, this));
            Post(qps[i].first, qps[i].second, &messages[i], 1048576);
        }
        bed.rdma.AssignStreams(bed.fabric->GetHosts(), 100);
        Simulator::Run();
        RdmaQueuePairStats t;
        trimmedAtReceiver = 0;
        for (size_t i = 0; i < senders.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(messages[i].completed, 1u, "completed once");
            NS_TEST_EXPECT_MSG_EQ(messages[i].received, 1u, "delivered once");
            t.nacksReceived += qps[i].first->GetStats().nacksReceived;
            t.lastHopNacksReceived += qps[i].first->GetStats().lastHopNacksReceived;
            trimmedAtReceiver += qps[i].second->GetStats().trimmedReceived;
        }
        requeues = credits ? bed.Pacer(0)->GetStats().requeues : 0;
        Simulator::Destroy();
        return t;
    }

    void DoRun() override
    {
        uint64_t requeues = 0;
        uint64_t trimmed = 0;
        RdmaQueuePairStats t = Run(true, requeues, trimmed);
        NS_TEST_ASSERT_MSG_GT(t.nacksReceived, 0u, "the first round trip is trimmed");
        NS_TEST_EXPECT_MSG_GT(t.lastHopNacksReceived,
                              t.nacksReceived * 9 / 10,
                              "at the receiver's port: last-hop NACKs");
        NS_TEST_EXPECT_MSG_EQ(requeues, trimmed, "each trimmed packet re-queues its sender");
        NS_TEST_EXPECT_MSG_GT(m_decisions[NsccDecision::NACK_KEPT], 0u, "window kept");
        NS_TEST_EXPECT_MSG_LT(m_decisions[NsccDecision::NACK],
                              t.nacksReceived - t.lastHopNacksReceived + 1,
                              "only fabric NACKs cut the window");

        RdmaQueuePairStats alone = Run(false, requeues, trimmed);
        NS_TEST_EXPECT_MSG_GT(alone.lastHopNacksReceived, 0u, "NSCC alone: last-hop NACKs too");
        NS_TEST_EXPECT_MSG_GT(m_decisions[NsccDecision::NACK], 0u, "and they cut its window");
        NS_TEST_EXPECT_MSG_EQ(m_decisions[NsccDecision::NACK_KEPT], 0u, "never kept");
    }
};

/**
 * \ingroup reps-test
 * Oversubscription control: four 400 Gb/s hosts of one leaf send to four of another through one
 * 100 Gb/s spine link (16:1). Pulling at line rate, the receivers overrun the core, which
 * trims all along; with OversubscriptionControl, the ECN marks of the core's queue lower the
 * receivers' pull rates (RateFactor well below 1) and the core trims much less.
 */
class RcccOversubscriptionTestCase : public TestCase
{
  public:
    RcccOversubscriptionTestCase()
        : TestCase("RCCC: oversubscription control lowers the pull rate, fewer core trims")
    {
    }

  private:
    double m_minFactor{1.0}; //!< Smallest RateFactor traced.

    void Factor(double oldValue, double newValue)
    {
        m_minFactor = std::min(m_minFactor, newValue);
    }

    /// \param control OversubscriptionControl \return trims inside the fabric
    uint64_t Run(bool control)
    {
        Config::SetDefault("ns3::RcccPullPacer::OversubscriptionControl", BooleanValue(control));
        Bed bed;
        bed.Build(2, 4, 1, "400Gbps", "100Gbps", true, "ns3::RcccCongestionControl", false);
        std::vector<Message> messages(4);
        for (uint32_t i = 0; i < 4; ++i)
        {
            auto qp = bed.Connect(i, 4 + i);
            Post(qp.first, qp.second, &messages[i], 1048576);
            bed.Pacer(4 + i)->TraceConnectWithoutContext(
                "RateFactor",
                MakeCallback(&RcccOversubscriptionTestCase::Factor, this));
        }
        bed.rdma.AssignStreams(bed.fabric->GetHosts(), 100);
        Simulator::Run();
        uint64_t trims = 0;
        for (uint32_t l : bed.fabric->GetLinks(ClosFabric::LEAF_SPINE))
        {
            for (uint32_t side = 0; side < 2; ++side)
            {
                trims += bed.fabric->GetQueueStats(l, side).trims;
            }
        }
        for (const Message& m : messages)
        {
            NS_TEST_EXPECT_MSG_EQ(m.completed, 1u, "completed once");
            NS_TEST_EXPECT_MSG_EQ(m.received, 1u, "delivered once");
        }
        Simulator::Destroy();
        Config::SetDefault("ns3::RcccPullPacer::OversubscriptionControl", BooleanValue(false));
        return trims;
    }

    void DoRun() override
    {
        const uint64_t without = Run(false);
        NS_TEST_EXPECT_MSG_EQ_TOL(m_minFactor, 1.0, 1e-12, "no control, no factor");
        const uint64_t with = Run(true);
        NS_TEST_EXPECT_MSG_GT(without, 100u, "pulling at line rate overruns the core");
        NS_TEST_EXPECT_MSG_LT(m_minFactor, 0.5, "the marks lower the pull rate");
        NS_TEST_EXPECT_MSG_LT(with, without / 2, "and the core trims much less");
    }
};

/**
 * \ingroup reps-test
 * The same run number gives the same run bit for bit: completion times, PULLs and RTS of an
 * incast under RCCC with the oversubscription control on (which draws its intervals).
 */
class RcccDeterminismTestCase : public TestCase
{
  public:
    RcccDeterminismTestCase()
        : TestCase("RCCC: the same run reproduces bit for bit")
    {
    }

  private:
    /// \return the completion times and the pulls of one run
    std::pair<std::vector<int64_t>, uint64_t> Run()
    {
        Config::SetDefault("ns3::RcccPullPacer::OversubscriptionControl", BooleanValue(true));
        Bed bed;
        bed.Build(2, 4, 2, "100Gbps", "100Gbps", true, "ns3::RcccCongestionControl", false);
        std::vector<Message> messages(6);
        const uint32_t src[] = {1, 2, 3, 4, 5, 6};
        for (uint32_t i = 0; i < 6; ++i)
        {
            auto qp = bed.Connect(src[i], i < 3 ? 0 : 7);
            Post(qp.first, qp.second, &messages[i], 300000 + 50000 * i);
        }
        bed.rdma.AssignStreams(bed.fabric->GetHosts(), 100);
        Simulator::Run();
        std::vector<int64_t> fcts;
        for (const Message& m : messages)
        {
            fcts.push_back(m.completed == 1 ? m.fct.GetTimeStep() : -1);
        }
        const uint64_t pulls = bed.Pacer(0)->GetStats().pulls + bed.Pacer(7)->GetStats().pulls;
        Simulator::Destroy();
        Config::SetDefault("ns3::RcccPullPacer::OversubscriptionControl", BooleanValue(false));
        return {fcts, pulls};
    }

    void DoRun() override
    {
        auto a = Run();
        auto b = Run();
        NS_TEST_EXPECT_MSG_EQ((a.first == b.first), true, "same completion times");
        NS_TEST_EXPECT_MSG_EQ(a.second, b.second, "same PULLs");
        NS_TEST_EXPECT_MSG_EQ(std::count(a.first.begin(), a.first.end(), -1), 0, "all done");
    }
};

/**
 * \ingroup reps-test
 * RCCC.
 */
class RepsRcccTestSuite : public TestSuite
{
  public:
    RepsRcccTestSuite()
        : TestSuite("reps-rccc", TestSuite::Type::UNIT)
    {
        AddTestCase(new RcccDefaultsTestCase, reps::kQuick);
        AddTestCase(new RcccTwoHostTestCase, reps::kQuick);
        AddTestCase(new RcccIncastTestCase, reps::kQuick);
        AddTestCase(new RcccRtsTestCase, reps::kQuick);
        AddTestCase(new RcccLostPullsTestCase, reps::kQuick);
        AddTestCase(new RcccLastHopTestCase, reps::kQuick);
        AddTestCase(new RcccOversubscriptionTestCase, reps::kQuick);
        AddTestCase(new RcccDeterminismTestCase, reps::kQuick);
    }
};

/// The one instance of the suite.
static RepsRcccTestSuite g_repsRcccTestSuite;
