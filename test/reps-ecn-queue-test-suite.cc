/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "reps-test-compat.h"

#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/double.h"
#include "ns3/ecn-queue-disc.h"
#include "ns3/enum.h"
#include "ns3/ipv4-header.h"
#include "ns3/ipv4-queue-disc-item.h"
#include "ns3/object-factory.h"
#include "ns3/packet.h"
#include "ns3/roce-bth-header.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/udp-header.h"

#include <string>
#include <vector>

using namespace ns3;

namespace
{

/**
 * An IPv4 item as a switch hands it to the queue disc.
 * \param payload UDP payload bytes
 * \param ecn the ECN codepoint
 * \param dstPort UDP destination port
 * \param roceData whether to put a BTH after the UDP header
 * \param opCode the BTH opcode (a SEND opcode by default)
 * \return the item
 */
Ptr<Ipv4QueueDiscItem>
MakeItem(uint32_t payload,
         Ipv4Header::EcnType ecn,
         uint16_t dstPort = 9,
         bool roceData = false,
         uint8_t opCode = RoceBthHeader::RC_SEND_MIDDLE)
{
    Ptr<Packet> p = Create<Packet>(payload);
    if (roceData)
    {
        RoceBthHeader bth;
        bth.SetOpCode(opCode);
        bth.SetPsn(77);
        p->AddHeader(bth);
    }
    UdpHeader udp;
    udp.SetSourcePort(49152);
    udp.SetDestinationPort(dstPort);
    p->AddHeader(udp);
    Ipv4Header ip;
    ip.SetSource(Ipv4Address("10.0.0.1"));
    ip.SetDestination(Ipv4Address("10.0.0.2"));
    ip.SetProtocol(17);
    ip.SetPayloadSize(p->GetSize());
    ip.SetTtl(64);
    ip.SetEcn(ecn);
    return Create<Ipv4QueueDiscItem>(p, Address(), 0x0800, ip);
}

/**
 * An ACK as a receiver sends it: RoCEv2, BTH opcode RC_ACK, ECT.
 * \return the item
 */
Ptr<Ipv4QueueDiscItem>
MakeAck()
{
    return MakeItem(16, Ipv4Header::ECN_ECT0, RoceBthHeader::UDP_PORT, true, RoceBthHeader::RC_ACK);
}

/**
 * A started EcnQueueDisc.
 * \param trimming the Trimming attribute
 * \param markOn the MarkOn attribute
 * \param controlPriority the ControlPriority attribute
 * \return the queue disc
 */
Ptr<EcnQueueDisc>
MakeQueue(bool trimming = false,
          EcnQueueDisc::MarkOn markOn = EcnQueueDisc::MARK_ON_ENQUEUE,
          bool controlPriority = true)
{
    Ptr<EcnQueueDisc> q = CreateObject<EcnQueueDisc>();
    q->SetAttribute("MarkOn", EnumValue(markOn));
    q->SetAttribute("ControlPriority", BooleanValue(controlPriority));
    q->SetAttribute("MaxSize", QueueSizeValue(QueueSize("100p")));
    q->SetAttribute("Kmin", QueueSizeValue(QueueSize("20p")));
    q->SetAttribute("Kmax", QueueSizeValue(QueueSize("80p")));
    q->SetAttribute("Trimming", BooleanValue(trimming));
    q->Initialize();
    q->AssignStreams(1);
    return q;
}

} // namespace

/**
 * \ingroup reps-test
 * Marking follows the queue length: nothing at or below Kmin, every ECT packet from Kmax on,
 * drops only at capacity.
 */
class EcnThresholdTestCase : public TestCase
{
  public:
    EcnThresholdTestCase()
        : TestCase("EcnQueueDisc: no marks below Kmin, every ECT packet above Kmax, drops only "
                   "at capacity")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<EcnQueueDisc> q = MakeQueue();
        // Lengths 0 .. 20 at enqueue: at or below Kmin.
        for (uint32_t i = 0; i <= 20; i++)
        {
            Ptr<Ipv4QueueDiscItem> item = MakeItem(1000, Ipv4Header::ECN_ECT0);
            NS_TEST_ASSERT_MSG_EQ(q->Enqueue(item), true, "accepted below capacity");
            NS_TEST_ASSERT_MSG_EQ(item->GetHeader().GetEcn(), Ipv4Header::ECN_ECT0, "not marked");
        }
        NS_TEST_ASSERT_MSG_EQ(q->GetCounters().marks, 0, "no mark at or below Kmin");
        // Lengths 21 .. 79: some marks.
        for (uint32_t i = 21; i < 80; i++)
        {
            NS_TEST_ASSERT_MSG_EQ(q->Enqueue(MakeItem(1000, Ipv4Header::ECN_ECT0)), true, "ok");
        }
        uint64_t between = q->GetCounters().marks;
        NS_TEST_ASSERT_MSG_GT(between, 0, "some marks between Kmin and Kmax");
        NS_TEST_ASSERT_MSG_LT(between, 59, "not every packet between Kmin and Kmax");
        // Lengths 80 .. 99: every packet marked.
        for (uint32_t i = 80; i < 100; i++)
        {
            Ptr<Ipv4QueueDiscItem> item = MakeItem(1000, Ipv4Header::ECN_ECT1);
            NS_TEST_ASSERT_MSG_EQ(q->Enqueue(item), true, "accepted below capacity");
            NS_TEST_ASSERT_MSG_EQ(item->GetHeader().GetEcn(), Ipv4Header::ECN_CE, "marked CE");
        }
        NS_TEST_ASSERT_MSG_EQ(q->GetCounters().marks, between + 20, "all 20 above Kmax marked");
        NS_TEST_ASSERT_MSG_EQ(q->GetCounters().overflowDrops, 0, "no drop below capacity");
        NS_TEST_ASSERT_MSG_EQ(q->GetStats().nTotalDroppedPackets, 0, "no drop below capacity");
        // Full: the next packet is dropped.
        NS_TEST_ASSERT_MSG_EQ(q->Enqueue(MakeItem(1000, Ipv4Header::ECN_ECT0)), false, "full");
        NS_TEST_ASSERT_MSG_EQ(q->GetCounters().overflowDrops, 1, "one overflow drop");
        NS_TEST_ASSERT_MSG_EQ(q->GetNPackets(), 100, "capacity is 100 packets");
        NS_TEST_ASSERT_MSG_EQ(q->GetCounters().maxPackets, 100, "max depth");

        // Probabilities.
        NS_TEST_ASSERT_MSG_EQ_TOL(q->GetMarkProbability(20), 0.0, 1e-12, "p(Kmin) = 0");
        NS_TEST_ASSERT_MSG_EQ_TOL(q->GetMarkProbability(50), 0.5, 1e-12, "p(middle) = 0.5");
        NS_TEST_ASSERT_MSG_EQ_TOL(q->GetMarkProbability(80), 1.0, 1e-12, "p(Kmax) = 1");
        q->Dispose();
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * Held at a length halfway between Kmin and Kmax, about half the ECT packets are marked; a
 * non-ECT packet is dropped where an ECT one would be marked, and kept below Kmin.
 */
class EcnProbabilityTestCase : public TestCase
{
  public:
    EcnProbabilityTestCase()
        : TestCase("EcnQueueDisc: linear marking probability and early drop of non-ECT packets")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<EcnQueueDisc> q = MakeQueue();
        for (uint32_t i = 0; i < 50; i++)
        {
            q->Enqueue(MakeItem(1000, Ipv4Header::ECN_ECT0));
        }
        uint64_t before = q->GetCounters().marks;
        const uint32_t n = 4000;
        for (uint32_t i = 0; i < n; i++)
        {
            q->Enqueue(MakeItem(1000, Ipv4Header::ECN_ECT0));
            q->Dequeue();
        }
        double fraction = static_cast<double>(q->GetCounters().marks - before) / n;
        // Binomial(4000, 0.5): standard deviation 0.0079; 5 sigma.
        NS_TEST_ASSERT_MSG_EQ_TOL(fraction, 0.5, 0.04, "marking fraction at the midpoint");

        // Non-ECT at the midpoint: about half dropped early, none marked.
        uint64_t marks = q->GetCounters().marks;
        for (uint32_t i = 0; i < 1000; i++)
        {
            if (q->Enqueue(MakeItem(1000, Ipv4Header::ECN_NotECT)))
            {
                q->Dequeue();
            }
        }
        NS_TEST_ASSERT_MSG_EQ(q->GetCounters().marks, marks, "non-ECT packets are not marked");
        NS_TEST_ASSERT_MSG_EQ_TOL(q->GetCounters().earlyDrops / 1000.0, 0.5, 0.08, "early drops");
        NS_TEST_ASSERT_MSG_EQ(q->GetCounters().overflowDrops, 0, "no overflow");

        // Below Kmin non-ECT packets pass.
        Ptr<EcnQueueDisc> low = MakeQueue();
        for (uint32_t i = 0; i <= 20; i++)
        {
            NS_TEST_ASSERT_MSG_EQ(low->Enqueue(MakeItem(1000, Ipv4Header::ECN_NotECT)),
                                  true,
                                  "non-ECT kept at or below Kmin");
        }
        q->Dispose();
        low->Dispose();
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * With trimming, a RoCEv2 data packet that does not fit is cut to UDP + BTH + ICRC, marked
 * trimmed and served before the data band; other packets are still dropped.
 */
class EcnTrimTestCase : public TestCase
{
  public:
    EcnTrimTestCase()
        : TestCase("EcnQueueDisc: trimming of RoCEv2 data packets at capacity, priority band")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<EcnQueueDisc> q = MakeQueue(true);
        uint32_t trims = 0;
        q->TraceConnectWithoutContext("Trim", MakeBoundCallback(&EcnTrimTestCase::OnTrim, &trims));
        for (uint32_t i = 0; i < 100; i++)
        {
            Ptr<QueueDiscItem> item = MakeItem(1000, Ipv4Header::ECN_ECT0, 4791, true);
            NS_TEST_ASSERT_MSG_EQ((q->PrepareEnqueue(item) == item), true, "fits: not trimmed");
            q->Enqueue(item);
        }
        // Full. A RoCEv2 data packet is trimmed.
        Ptr<QueueDiscItem> big = MakeItem(1000, Ipv4Header::ECN_ECT0, 4791, true);
        Ptr<QueueDiscItem> trimmed = q->PrepareEnqueue(big);
        NS_TEST_ASSERT_MSG_EQ((trimmed != big), true, "trimmed copy");
        NS_TEST_ASSERT_MSG_EQ(trimmed->GetPacket()->GetSize(),
                              8 + RoceBthHeader::SIZE + RoceBthHeader::ICRC_SIZE,
                              "UDP + BTH + ICRC");
        Ptr<Ipv4QueueDiscItem> ipTrimmed = DynamicCast<Ipv4QueueDiscItem>(trimmed);
        NS_TEST_ASSERT_MSG_EQ(ipTrimmed->GetHeader().GetPayloadSize(),
                              trimmed->GetPacket()->GetSize(),
                              "IPv4 payload length fixed");
        NS_TEST_ASSERT_MSG_EQ(q->Enqueue(trimmed), true, "trimmed packet queued");
        NS_TEST_ASSERT_MSG_EQ(q->GetCounters().trims, 1, "one trim");
        NS_TEST_ASSERT_MSG_EQ(trims, 1, "Trim trace fired");
        NS_TEST_ASSERT_MSG_EQ(q->GetCounters().overflowDrops, 0, "not dropped");

        // A non-RoCEv2 packet and a RoCEv2 non-data packet are dropped.
        Ptr<QueueDiscItem> other = MakeItem(1000, Ipv4Header::ECN_ECT0, 9, false);
        NS_TEST_ASSERT_MSG_EQ((q->PrepareEnqueue(other) == other), true, "not RoCEv2");
        NS_TEST_ASSERT_MSG_EQ(q->Enqueue(other), false, "dropped");
        NS_TEST_ASSERT_MSG_EQ(q->GetCounters().overflowDrops, 1, "one overflow drop");

        // The trimmed packet leaves first, with its marks.
        Ptr<QueueDiscItem> first = q->Dequeue();
        NS_TEST_ASSERT_MSG_EQ(first->GetPacket()->GetSize(), 24, "priority band first");
        Ptr<Ipv4QueueDiscItem> ipFirst = DynamicCast<Ipv4QueueDiscItem>(first);
        NS_TEST_ASSERT_MSG_EQ(ipFirst->GetHeader().GetPayloadSize(), 24, "IPv4 payload length");
        Ptr<Packet> p = first->GetPacket()->Copy();
        UdpHeader udp;
        p->RemoveHeader(udp);
        NS_TEST_ASSERT_MSG_EQ(udp.GetDestinationPort(), 4791, "UDP port kept");
        NS_TEST_ASSERT_MSG_EQ(udp.GetSourcePort(), 49152, "entropy kept");
        RoceBthHeader bth;
        p->RemoveHeader(bth);
        NS_TEST_ASSERT_MSG_EQ(bth.IsTrimmed(), true, "BTH trimmed mark");
        NS_TEST_ASSERT_MSG_EQ(bth.GetPsn(), 77, "PSN kept");
        NS_TEST_ASSERT_MSG_EQ(p->GetSize(), RoceBthHeader::ICRC_SIZE, "ICRC bytes left");
        // The UDP length field says 24 bytes.
        uint8_t raw[8];
        first->GetPacket()->CopyData(raw, 8);
        NS_TEST_ASSERT_MSG_EQ((raw[4] << 8 | raw[5]), 24, "UDP length field");
        Ptr<QueueDiscItem> second = q->Dequeue();
        NS_TEST_ASSERT_MSG_EQ(second->GetPacket()->GetSize(), 1000 + 8 + 12, "then data");

        // Without trimming the same packet is dropped.
        Ptr<EcnQueueDisc> plain = MakeQueue(false);
        for (uint32_t i = 0; i < 100; i++)
        {
            plain->Enqueue(MakeItem(1000, Ipv4Header::ECN_ECT0, 4791, true));
        }
        Ptr<QueueDiscItem> x = MakeItem(1000, Ipv4Header::ECN_ECT0, 4791, true);
        NS_TEST_ASSERT_MSG_EQ((plain->PrepareEnqueue(x) == x), true, "no trimming");
        NS_TEST_ASSERT_MSG_EQ(plain->Enqueue(x), false, "dropped");
        q->Dispose();
        plain->Dispose();
        Simulator::Destroy();
    }

    /**
     * Count trims.
     * \param count the counter
     * \param item the trimmed item
     */
    static void OnTrim(uint32_t* count, Ptr<const QueueDiscItem> item)
    {
        (*count)++;
    }
};

/**
 * \ingroup reps-test
 * The time-averaged depth integrates the length over simulated time.
 */
class EcnAverageDepthTestCase : public TestCase
{
  public:
    EcnAverageDepthTestCase()
        : TestCase("EcnQueueDisc: time-averaged and maximum depth")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<EcnQueueDisc> q = MakeQueue();
        // 10 packets from 0 to 1 s, none from 1 s to 2 s: average 5 packets.
        for (uint32_t i = 0; i < 10; i++)
        {
            q->Enqueue(MakeItem(972, Ipv4Header::ECN_ECT0)); // 1000 bytes with the IPv4 header
        }
        Simulator::Schedule(Seconds(1), [q]() {
            for (uint32_t i = 0; i < 10; i++)
            {
                q->Dequeue();
            }
        });
        double avgPackets = -1;
        double avgBytes = -1;
        Simulator::Schedule(Seconds(2), [&]() {
            avgPackets = q->GetAveragePackets();
            avgBytes = q->GetAverageBytes();
        });
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ_TOL(avgPackets, 5.0, 1e-9, "time-averaged packets");
        NS_TEST_ASSERT_MSG_EQ_TOL(avgBytes, 5000.0, 1e-6, "time-averaged bytes");
        NS_TEST_ASSERT_MSG_EQ(q->GetCounters().maxPackets, 10, "max packets");
        NS_TEST_ASSERT_MSG_EQ(q->GetCounters().maxBytes, 10000, "max bytes");
        q->Dispose();
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * Dequeue marking (the default): nothing is marked on the way in; a data packet is marked as
 * it leaves, from the length of the data band it leaves behind; control packets never are.
 */
class EcnDequeueMarkTestCase : public TestCase
{
  public:
    EcnDequeueMarkTestCase()
        : TestCase("EcnQueueDisc: MarkOn=Dequeue marks from the length a packet leaves behind")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<EcnQueueDisc> fresh = CreateObject<EcnQueueDisc>();
        StringValue markOn;
        fresh->GetAttribute("MarkOn", markOn);
        NS_TEST_ASSERT_MSG_EQ(markOn.Get(), "Dequeue", "dequeue by default");
        BooleanValue control;
        fresh->GetAttribute("ControlPriority", control);
        NS_TEST_ASSERT_MSG_EQ(control.Get(), true, "control packets first by default");

        Ptr<EcnQueueDisc> q = MakeQueue(false, EcnQueueDisc::MARK_ON_DEQUEUE);
        std::vector<Ptr<Ipv4QueueDiscItem>> items;
        for (uint32_t i = 0; i < 100; i++)
        {
            items.push_back(MakeItem(1000, Ipv4Header::ECN_ECT0));
            NS_TEST_ASSERT_MSG_EQ(q->Enqueue(items.back()), true, "accepted");
            NS_TEST_ASSERT_MSG_EQ(items.back()->GetHeader().GetEcn(),
                                  Ipv4Header::ECN_ECT0,
                                  "never marked on the way in");
        }
        NS_TEST_ASSERT_MSG_EQ(q->GetCounters().marks, 0, "no mark at enqueue");
        // The i-th packet out leaves 99 - i behind: marked for 80 and more, never for 20 and less.
        uint32_t high = 0;
        uint32_t low = 0;
        for (uint32_t i = 0; i < 100; i++)
        {
            Ptr<Ipv4QueueDiscItem> out = DynamicCast<Ipv4QueueDiscItem>(q->Dequeue());
            NS_TEST_ASSERT_MSG_EQ((out == items[i]), true, "FIFO order");
            bool ce = out->GetHeader().GetEcn() == Ipv4Header::ECN_CE;
            uint32_t behind = 99 - i;
            if (behind >= 80)
            {
                NS_TEST_ASSERT_MSG_EQ(ce, true, "marked when >= Kmax is left behind");
                high += ce;
            }
            else if (behind <= 20)
            {
                NS_TEST_ASSERT_MSG_EQ(ce, false, "not marked when <= Kmin is left behind");
                low += ce;
            }
        }
        NS_TEST_ASSERT_MSG_EQ(high, 20, "the 20 packets leaving 80..99 behind");
        NS_TEST_ASSERT_MSG_EQ(low, 0, "none at or below Kmin");

        // Under a standing data queue above Kmax, an ACK is neither marked nor delayed.
        for (uint32_t i = 0; i < 90; i++)
        {
            q->Enqueue(MakeItem(1000, Ipv4Header::ECN_ECT0));
        }
        Ptr<Ipv4QueueDiscItem> ack = MakeAck();
        NS_TEST_ASSERT_MSG_EQ(q->Enqueue(ack), true, "ACK accepted");
        Ptr<Ipv4QueueDiscItem> first = DynamicCast<Ipv4QueueDiscItem>(q->Dequeue());
        NS_TEST_ASSERT_MSG_EQ((first == ack), true, "the ACK overtakes 90 data packets");
        NS_TEST_ASSERT_MSG_EQ(first->GetHeader().GetEcn(), Ipv4Header::ECN_ECT0, "ACK unmarked");

        // A non-ECT data packet picked for marking is dropped as it leaves (DropNonEct).
        Ptr<EcnQueueDisc> ne = MakeQueue(false, EcnQueueDisc::MARK_ON_DEQUEUE);
        for (uint32_t i = 0; i < 90; i++)
        {
            ne->Enqueue(MakeItem(1000, Ipv4Header::ECN_NotECT));
        }
        Ptr<QueueDiscItem> kept = ne->Dequeue();
        NS_TEST_ASSERT_MSG_EQ((kept != nullptr), true, "a packet still leaves");
        NS_TEST_ASSERT_MSG_GT(ne->GetCounters().earlyDrops, 0, "non-ECT dropped at dequeue");
        NS_TEST_ASSERT_MSG_EQ(ne->GetStats().nTotalDroppedPacketsAfterDequeue,
                              ne->GetCounters().earlyDrops,
                              "counted as drops after dequeue");
        q->Dispose();
        ne->Dispose();
        fresh->Dispose();
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * ControlPriority: RoCEv2 ACKs, NACKs and CNPs, recognised by their BTH opcode and not by
 * their size, go to the strict-priority band; with ControlPriority false they wait behind data
 * and are dropped when the data band is full.
 */
class EcnControlPriorityTestCase : public TestCase
{
  public:
    EcnControlPriorityTestCase()
        : TestCase("EcnQueueDisc: ACKs, NACKs and CNPs overtake data by packet kind")
    {
    }

  private:
    void DoRun() override
    {
        NS_TEST_ASSERT_MSG_EQ(EcnQueueDisc::IsControlPacket(MakeAck()), true, "ACK");
        NS_TEST_ASSERT_MSG_EQ(
            EcnQueueDisc::IsControlPacket(
                MakeItem(16, Ipv4Header::ECN_ECT0, 4791, true, RoceBthHeader::CNP)),
            true,
            "CNP");
        NS_TEST_ASSERT_MSG_EQ(
            EcnQueueDisc::IsControlPacket(MakeItem(16, Ipv4Header::ECN_ECT0, 4791, true)),
            false,
            "a small data packet is data");
        NS_TEST_ASSERT_MSG_EQ(
            EcnQueueDisc::IsControlPacket(
                MakeItem(4000, Ipv4Header::ECN_ECT0, 4791, true, RoceBthHeader::RC_ACK)),
            true,
            "a large packet with an ACK opcode is control");
        NS_TEST_ASSERT_MSG_EQ(EcnQueueDisc::IsControlPacket(MakeItem(16, Ipv4Header::ECN_ECT0)),
                              false,
                              "not RoCEv2");

        Ptr<EcnQueueDisc> q = MakeQueue(false, EcnQueueDisc::MARK_ON_DEQUEUE, true);
        for (uint32_t i = 0; i < 100; i++)
        {
            q->Enqueue(MakeItem(1000, Ipv4Header::ECN_ECT0, 4791, true));
        }
        Ptr<Ipv4QueueDiscItem> ack = MakeAck();
        Ptr<Ipv4QueueDiscItem> cnp =
            MakeItem(16, Ipv4Header::ECN_ECT0, 4791, true, RoceBthHeader::CNP);
        NS_TEST_ASSERT_MSG_EQ(q->Enqueue(ack), true, "ACK accepted while the data band is full");
        NS_TEST_ASSERT_MSG_EQ(q->Enqueue(cnp), true, "CNP accepted while the data band is full");
        NS_TEST_ASSERT_MSG_EQ(q->GetCounters().controlPackets, 2, "two control packets");
        NS_TEST_ASSERT_MSG_EQ((q->Dequeue() == ack), true, "ACK first");
        NS_TEST_ASSERT_MSG_EQ((q->Dequeue() == cnp), true, "then the CNP");

        Ptr<EcnQueueDisc> fifo = MakeQueue(false, EcnQueueDisc::MARK_ON_DEQUEUE, false);
        for (uint32_t i = 0; i < 99; i++)
        {
            fifo->Enqueue(MakeItem(1000, Ipv4Header::ECN_ECT0, 4791, true));
        }
        Ptr<Ipv4QueueDiscItem> late = MakeAck();
        NS_TEST_ASSERT_MSG_EQ(fifo->Enqueue(late), true, "ACK queued with data");
        NS_TEST_ASSERT_MSG_EQ(fifo->Enqueue(MakeAck()), false, "dropped when the band is full");
        NS_TEST_ASSERT_MSG_EQ(fifo->GetCounters().controlPackets, 0, "no priority band used");
        for (uint32_t i = 0; i < 99; i++)
        {
            NS_TEST_ASSERT_MSG_EQ((fifo->Dequeue() != late), true, "data first");
        }
        NS_TEST_ASSERT_MSG_EQ((fifo->Dequeue() == late), true, "the ACK waited behind 99");
        q->Dispose();
        fifo->Dispose();
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * MaxProbability scales the ramp between Kmin and Kmax, and Kmax itself marks every packet.
 */
class EcnMaxProbabilityTestCase : public TestCase
{
  public:
    EcnMaxProbabilityTestCase()
        : TestCase("EcnQueueDisc: MaxProbability scales the ramp; Kmax marks always")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<EcnQueueDisc> q = MakeQueue();
        q->SetAttribute("MaxProbability", DoubleValue(0.5));
        NS_TEST_ASSERT_MSG_EQ_TOL(q->GetMarkProbability(50), 0.25, 1e-12, "half of 0.5");
        NS_TEST_ASSERT_MSG_EQ_TOL(q->GetMarkProbability(79), 0.5 * 59 / 60, 1e-12, "below Kmax");
        NS_TEST_ASSERT_MSG_EQ_TOL(q->GetMarkProbability(80), 1.0, 1e-12, "Kmax marks always");
        NS_TEST_ASSERT_MSG_EQ_TOL(q->GetMarkProbability(21), 0.5 / 60, 1e-12, "just above Kmin");
        // Held at the midpoint, about a quarter of the packets are marked.
        for (uint32_t i = 0; i < 50; i++)
        {
            q->Enqueue(MakeItem(1000, Ipv4Header::ECN_ECT0));
        }
        uint64_t before = q->GetCounters().marks;
        const uint32_t n = 4000;
        for (uint32_t i = 0; i < n; i++)
        {
            q->Enqueue(MakeItem(1000, Ipv4Header::ECN_ECT0));
            q->Dequeue();
        }
        double fraction = static_cast<double>(q->GetCounters().marks - before) / n;
        NS_TEST_ASSERT_MSG_EQ_TOL(fraction, 0.25, 0.04, "marking fraction at the midpoint");
        q->Dispose();
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * The size rules (MaxSize and PriorityBandMaxSize positive, Kmin and Kmax in MaxSize's unit,
 * Kmin below Kmax): the same sentence from a queue disc and from a factory, before any is
 * created; a factory's values win over the type's defaults, which Config::SetDefault() sets.
 */
class EcnValidateTestCase : public TestCase
{
  public:
    EcnValidateTestCase()
        : TestCase("EcnQueueDisc: Validate() names the size that breaks a rule")
    {
    }

  private:
    /**
     * Check that a message mentions a phrase.
     * \param message the message
     * \param phrase the phrase
     */
    void Expect(const std::string& message, const std::string& phrase)
    {
        NS_TEST_EXPECT_MSG_NE(message.find(phrase),
                              std::string::npos,
                              "message \"" << message << "\" names " << phrase);
    }

    void DoRun() override
    {
        auto sizes =
            [](const std::string& maxSize, const std::string& kmin, const std::string& kmax) {
                return ObjectFactory("ns3::EcnQueueDisc",
                                     "MaxSize",
                                     StringValue(maxSize),
                                     "Kmin",
                                     StringValue(kmin),
                                     "Kmax",
                                     StringValue(kmax));
            };
        NS_TEST_EXPECT_MSG_EQ(EcnQueueDisc::Validate(ObjectFactory("ns3::EcnQueueDisc")),
                              "",
                              "the defaults");
        NS_TEST_EXPECT_MSG_EQ(EcnQueueDisc::Validate(sizes("150000B", "30000B", "120000B")),
                              "",
                              "bytes");
        Expect(EcnQueueDisc::Validate(sizes("0p", "20p", "80p")), "MaxSize (0p) must be positive");
        Expect(EcnQueueDisc::Validate(sizes("100p", "20p", "20p")),
               "Kmin (20p) must be smaller than Kmax (20p)");
        Expect(EcnQueueDisc::Validate(sizes("100p", "2000B", "80p")), "unit of MaxSize (100p)");
        Expect(EcnQueueDisc::Validate(ObjectFactory("ns3::EcnQueueDisc",
                                                    "PriorityBandMaxSize",
                                                    QueueSizeValue(QueueSize("0p")))),
               "PriorityBandMaxSize (0p)");
        Expect(EcnQueueDisc::Validate(ObjectFactory("ns3::FifoQueueDisc")),
               "not an ns3::EcnQueueDisc");

        Config::SetDefault("ns3::EcnQueueDisc::Kmax", QueueSizeValue(QueueSize("10p")));
        std::string byDefault = EcnQueueDisc::Validate(ObjectFactory("ns3::EcnQueueDisc"));
        std::string given = EcnQueueDisc::Validate(
            ObjectFactory("ns3::EcnQueueDisc", "Kmax", QueueSizeValue(QueueSize("90p"))));
        Config::SetDefault("ns3::EcnQueueDisc::Kmax", QueueSizeValue(QueueSize("80p")));
        Expect(byDefault, "Kmax (10p)");
        NS_TEST_EXPECT_MSG_EQ(given, "", "the factory's value wins over the default");

        Ptr<EcnQueueDisc> q = MakeQueue();
        NS_TEST_EXPECT_MSG_EQ(q->Validate(), "", "a started queue disc");
        q->SetAttribute("Kmin", QueueSizeValue(QueueSize("90p")));
        Expect(q->Validate(), "Kmin (90p) must be smaller than Kmax (80p)");
        q->Dispose();
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * Tests of the ECN egress queue of fabric switches.
 */
class RepsEcnQueueTestSuite : public TestSuite
{
  public:
    RepsEcnQueueTestSuite()
        : TestSuite("reps-ecn-queue", TestSuite::Type::UNIT)
    {
        AddTestCase(new EcnThresholdTestCase, reps::kQuick);
        AddTestCase(new EcnProbabilityTestCase, reps::kQuick);
        AddTestCase(new EcnTrimTestCase, reps::kQuick);
        AddTestCase(new EcnAverageDepthTestCase, reps::kQuick);
        AddTestCase(new EcnDequeueMarkTestCase, reps::kQuick);
        AddTestCase(new EcnControlPriorityTestCase, reps::kQuick);
        AddTestCase(new EcnMaxProbabilityTestCase, reps::kQuick);
        AddTestCase(new EcnValidateTestCase, reps::kQuick);
    }
};

/// The suite instance.
static RepsEcnQueueTestSuite g_repsEcnQueueTestSuite;
