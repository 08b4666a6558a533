/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "reps-test-compat.h"

#include "ns3/core-module.h"
#include "ns3/error-model.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/reps-module.h"

#include <set>
#include <sstream>
#include <tuple>
#include <vector>

using namespace ns3;

/**
 * \file
 * \ingroup reps-test
 * RoCEv2 queue pairs over a small Clos fabric (ClosFabricHelper: flow-hash switches that feed
 * the UDP source port, i.e. the entropy value, into their hash; EcnQueueDisc egress queues):
 * delivery exactly once under per-packet spraying, random drops on a fabric link, a fabric link
 * that fails and comes back, trimming; ACKs echoing the CE marks of the fabric's queues.
 */

namespace
{

/// One connection of a scenario and what it saw.
struct Flow
{
    Ptr<RdmaQueuePair> sender;       //!< Sender side.
    Ptr<RdmaQueuePair> receiver;     //!< Receiver side.
    std::vector<uint64_t> posted;    //!< Sizes posted.
    std::vector<uint64_t> completed; //!< Sizes completed (sender).
    std::vector<uint64_t> received;  //!< Sizes received (receiver).
    uint32_t outOfOrder{0};          //!< Packets that arrived below the highest PSN seen.
    uint32_t highest{0};             //!< Highest PSN seen.
    uint32_t echoMismatch{0};        //!< ACKs whose (PSN, EV, CE) never arrived.
    std::set<std::tuple<uint32_t, uint16_t, bool>> arrived; //!< (PSN, EV, CE) received.

    /// Sender completion callback.
    void Completed(uint64_t id, uint64_t size, Time fct)
    {
        completed.push_back(size);
    }

    /// Receiver callback.
    void Received(uint64_t id, uint64_t size, Time t)
    {
        received.push_back(size);
    }

    /// DataReceived trace.
    void Arrived(uint32_t psn, uint16_t ev, bool ce, bool dup)
    {
        if (psn < highest)
        {
            ++outOfOrder;
        }
        highest = std::max(highest, psn);
        arrived.insert({psn, ev, ce});
    }

    /// AckReceived trace.
    void Acked(uint32_t psn, uint16_t ev, bool ce, Time rtt)
    {
        if (arrived.count({psn, ev, ce}) == 0)
        {
            ++echoMismatch;
        }
    }

    /// \return an empty string when every message completed with every byte once
    std::string Check() const
    {
        uint64_t bytes = 0;
        for (auto b : posted)
        {
            bytes += b;
        }
        const RdmaQueuePairStats& rx = receiver->GetStats();
        if (completed == posted && received == posted && rx.bytesReceived == bytes &&
            sender->IsIdle())
        {
            return "";
        }
        std::ostringstream os;
        os << "QP " << sender->GetLocalAddress() << " -> " << sender->GetRemoteAddress()
           << ": posted " << posted.size() << " (" << bytes << " bytes), completed "
           << completed.size() << ", received " << received.size() << ", bytes placed "
           << rx.bytesReceived << ", retransmissions " << sender->GetStats().retransmissions
           << ", timeouts " << sender->GetStats().timeouts;
        return os.str();
    }
};

/**
 * A two-tier fabric: 2 leaves of 4 hosts, 4 spines, 100 Gb/s links of 1 us.
 * \param trimming whether switch queues trim
 * \param queue switch queue capacity
 * \return the helper, ready to Build()
 */
Ptr<ClosFabricHelper>
SmallFabric(bool trimming = false, const std::string& queue = "100p")
{
    Ptr<ClosFabricHelper> h = CreateObject<ClosFabricHelper>();
    h->SetAttribute("Tiers", UintegerValue(2));
    h->SetAttribute("Leaves", UintegerValue(2));
    h->SetAttribute("HostsPerLeaf", UintegerValue(4));
    h->SetAttribute("Spines", UintegerValue(4));
    h->SetAttribute("HostLinkRate", DataRateValue(DataRate("100Gbps")));
    h->SetAttribute("LeafUplinkRate", DataRateValue(DataRate("100Gbps")));
    h->SetSwitchQueueDisc("ns3::EcnQueueDisc",
                          "MaxSize",
                          QueueSizeValue(QueueSize(queue)),
                          "Trimming",
                          BooleanValue(trimming));
    return h;
}

/**
 * Connect src -> dst with the fabric's base RTT, post messages, trace arrivals and ACKs.
 * \param fabric the fabric
 * \param rdma the helper (stack installed)
 * \param src sending host
 * \param dst receiving host
 * \param sizes message sizes
 * \param flow what is seen
 */
void
Connect(Ptr<ClosFabric> fabric,
        RdmaHelper& rdma,
        uint32_t src,
        uint32_t dst,
        const std::vector<uint64_t>& sizes,
        Flow& flow)
{
    rdma.SetQueuePairAttribute("BaseRtt", TimeValue(fabric->GetBaseRtt(src, dst, 4140, 66)));
    auto qps = rdma.CreateQueuePair(fabric->GetHost(src), fabric->GetHost(dst));
    flow.sender = qps.first;
    flow.receiver = qps.second;
    flow.receiver->SetReceiveCallback(MakeCallback(&Flow::Received, &flow));
    flow.receiver->TraceConnectWithoutContext("DataReceived", MakeCallback(&Flow::Arrived, &flow));
    flow.sender->TraceConnectWithoutContext("AckReceived", MakeCallback(&Flow::Acked, &flow));
    for (uint64_t s : sizes)
    {
        flow.posted.push_back(s);
        flow.sender->PostSend(s, MakeCallback(&Flow::Completed, &flow));
    }
}

/// Messages every flow posts.
std::vector<uint64_t>
Sizes()
{
    return {1000000, 1, 250000, 4096, 0, 777777};
}

} // namespace

/**
 * \ingroup reps-test
 * A permutation across the two leaves with per-packet random EVs (OPS): the switches hash each
 * packet's EV onto a different spine, packets arrive out of order, and every byte arrives once.
 * Random drops (5%) on one leaf-spine link make the queue pairs retransmit exactly what is lost.
 */
class RdmaClosSprayDropTestCase : public TestCase
{
  public:
    RdmaClosSprayDropTestCase()
        : TestCase("Clos: sprayed permutation with random drops on a fabric link, every byte once")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<ClosFabric> fabric = SmallFabric()->Build();
        // Random drops on the leaf 0 -> spine 1 direction (this replaces the fabric's counting
        // error model on that device; the link is not failed in this test).
        Ptr<RateErrorModel> loss = CreateObject<RateErrorModel>();
        loss->SetAttribute("ErrorRate", DoubleValue(0.05));
        loss->SetAttribute("ErrorUnit", StringValue("ERROR_UNIT_PACKET"));
        loss->AssignStreams(71);
        uint32_t link = fabric->GetLeafSpineLink(0, 1);
        fabric->GetLinkDevice(link, 1)->SetReceiveErrorModel(loss);
        uint64_t drops = 0;
        fabric->GetLinkDevice(link, 1)->TraceConnectWithoutContext(
            "PhyRxDrop",
            MakeBoundCallback(
                +[](uint64_t* n, Ptr<const Packet>) { ++*n; },
                &drops));

        RdmaHelper rdma;
        rdma.SetPathSelector("ns3::OpsPathSelector");
        rdma.Install(fabric->GetHosts());
        std::vector<Flow> flows(4);
        for (uint32_t i = 0; i < 4; ++i)
        {
            Connect(fabric, rdma, i, 4 + (i + 1) % 4, Sizes(), flows[i]);
        }
        rdma.AssignStreams(fabric->GetHosts(), 81);
        Simulator::Stop(MilliSeconds(50));
        Simulator::Run();
        uint32_t outOfOrder = 0;
        uint64_t retx = 0;
        for (auto& f : flows)
        {
            NS_TEST_EXPECT_MSG_EQ(f.Check(), "", "every message, every byte exactly once");
            NS_TEST_EXPECT_MSG_EQ(f.echoMismatch, 0, "ACKs echo EV and CE");
            outOfOrder += f.outOfOrder;
            retx += f.sender->GetStats().retransmissions;
        }
        NS_TEST_EXPECT_MSG_GT(outOfOrder, 0, "spraying reordered packets");
        NS_TEST_EXPECT_MSG_GT(drops, 0, "the error model dropped packets");
        NS_TEST_EXPECT_MSG_GT_OR_EQ(retx, drops, "every lost packet resent");
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * A leaf-spine link fails for 300 us and comes back (routes do not reconverge: a blackhole),
 * under ECMP, OPS, REPS, bitmap spraying and MPRDMA: every message completes with every byte
 * once.
 */
class RdmaClosLinkFailureTestCase : public TestCase
{
  public:
    /**
     * \param selector path selector TypeId
     */
    RdmaClosLinkFailureTestCase(const std::string& selector)
        : TestCase("Clos: a leaf-spine link fails for 300 us and comes back, " + selector),
          m_selector(selector)
    {
    }

  private:
    std::string m_selector; //!< Path selector.

    void DoRun() override
    {
        Ptr<ClosFabric> fabric = SmallFabric()->Build();
        fabric->FailLink(fabric->GetLeafSpineLink(0, 2), MicroSeconds(50), MicroSeconds(350));
        RdmaHelper rdma;
        rdma.SetPathSelector(m_selector);
        rdma.Install(fabric->GetHosts());
        std::vector<Flow> flows(4);
        for (uint32_t i = 0; i < 4; ++i)
        {
            Connect(fabric, rdma, i, 4 + i, Sizes(), flows[i]);
        }
        rdma.AssignStreams(fabric->GetHosts(), 91);
        Simulator::Stop(MilliSeconds(100));
        Simulator::Run();
        uint64_t timeouts = 0;
        for (auto& f : flows)
        {
            NS_TEST_EXPECT_MSG_EQ(f.Check(), "", "every message, every byte exactly once");
            timeouts += f.sender->GetStats().timeouts;
        }
        if (m_selector != "ns3::EcmpPathSelector")
        {
            // Spraying sends some packets of every flow over the failed link.
            NS_TEST_EXPECT_MSG_GT(timeouts, 0, "the failure was felt");
        }
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * Incast: three hosts send to one; the fabric's ECN queue in front of the receiver marks; every
 * ACK echoes the EV and CE bit its packet arrived with, the senders count marked ACKs, and the
 * window controller shrinks its windows.
 */
class RdmaClosEcnEchoTestCase : public TestCase
{
  public:
    RdmaClosEcnEchoTestCase()
        : TestCase("Clos: incast marked by the fabric's ECN queues, marks echoed by the ACKs")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<ClosFabric> fabric = SmallFabric()->Build();
        RdmaHelper rdma;
        rdma.SetPathSelector("ns3::RepsPathSelector");
        rdma.SetCongestionControl("ns3::RdmaWindowCongestionControl");
        rdma.Install(fabric->GetHosts());
        std::vector<Flow> flows(3);
        const uint32_t senders[] = {0, 1, 5};
        for (uint32_t i = 0; i < 3; ++i)
        {
            Connect(fabric, rdma, senders[i], 4, {2000000, 500000}, flows[i]);
        }
        rdma.AssignStreams(fabric->GetHosts(), 101);
        std::vector<uint32_t> initial;
        for (auto& f : flows)
        {
            initial.push_back(f.sender->GetCongestionControl()->GetWindow());
        }
        Simulator::Stop(MilliSeconds(50));
        Simulator::Run();
        uint64_t ecnAcks = 0;
        for (uint32_t i = 0; i < 3; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(flows[i].Check(), "", "every message, every byte exactly once");
            NS_TEST_EXPECT_MSG_EQ(flows[i].echoMismatch, 0, "ACKs echo EV and CE");
            ecnAcks += flows[i].sender->GetStats().ecnAcks;
        }
        ClosFabric::QueueStats q = fabric->GetQueueStats(fabric->GetHostLink(4), 1);
        NS_TEST_EXPECT_MSG_GT(q.marks, 0, "the queue in front of the receiver marked");
        NS_TEST_EXPECT_MSG_GT(ecnAcks, 0, "marked ACKs came back");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(ecnAcks, q.marks, "no more marked ACKs than marks");
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * Trimming: small switch queues that trim instead of dropping; an incast overflows the queue in
 * front of the receiver, whose trimmed packets are NACKed and resent, and every byte arrives
 * once.
 */
class RdmaClosTrimmingTestCase : public TestCase
{
  public:
    RdmaClosTrimmingTestCase()
        : TestCase("Clos: trimming switch queues, NACKs resend the trimmed packets")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<ClosFabric> fabric = SmallFabric(true, "8p")->Build();
        RdmaHelper rdma;
        rdma.SetPathSelector("ns3::OpsPathSelector");
        rdma.SetCongestionControl("ns3::NoCongestionControl");
        rdma.SetQueuePairAttribute("Trimming", BooleanValue(true));
        rdma.Install(fabric->GetHosts());
        std::vector<Flow> flows(3);
        const uint32_t senders[] = {0, 1, 5};
        for (uint32_t i = 0; i < 3; ++i)
        {
            Connect(fabric, rdma, senders[i], 4, {1000000, 3}, flows[i]);
        }
        rdma.AssignStreams(fabric->GetHosts(), 111);
        Simulator::Stop(MilliSeconds(50));
        Simulator::Run();
        uint64_t nacks = 0;
        uint64_t trimmedSeen = 0;
        for (auto& f : flows)
        {
            NS_TEST_EXPECT_MSG_EQ(f.Check(), "", "every message, every byte exactly once");
            nacks += f.sender->GetStats().nacksReceived;
            trimmedSeen += f.receiver->GetStats().trimmedReceived;
        }
        ClosFabric::QueueStats q = fabric->GetQueueStats(fabric->GetHostLink(4), 1);
        NS_TEST_EXPECT_MSG_GT(q.trims, 0, "the fabric trimmed packets");
        NS_TEST_EXPECT_MSG_EQ(trimmedSeen, q.trims, "every trimmed packet reached the receiver");
        NS_TEST_EXPECT_MSG_EQ(nacks, trimmedSeen, "one NACK per trimmed packet");
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * RoCEv2 queue pairs over a small Clos fabric.
 */
class RepsTransportFabricTestSuite : public TestSuite
{
  public:
    RepsTransportFabricTestSuite()
        : TestSuite("reps-transport-fabric", TestSuite::Type::UNIT)
    {
        AddTestCase(new RdmaClosSprayDropTestCase, reps::kQuick);
        for (const char* selector : {"ns3::EcmpPathSelector",
                                     "ns3::OpsPathSelector",
                                     "ns3::RepsPathSelector",
                                     "ns3::BitmapPathSelector",
                                     "ns3::MprdmaPathSelector"})
        {
            AddTestCase(new RdmaClosLinkFailureTestCase(selector), reps::kQuick);
        }
        AddTestCase(new RdmaClosEcnEchoTestCase, reps::kQuick);
        AddTestCase(new RdmaClosTrimmingTestCase, reps::kQuick);
    }
};

/// The one instance of the suite.
static RepsTransportFabricTestSuite g_repsTransportFabricTestSuite;
