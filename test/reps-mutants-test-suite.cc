/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "reps-test-compat.h"

#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/reps-module.h"

#include <cstdint>
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
 * reaches the path selector.
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
    std::vector<Time> drops; //!< When each packet was lost on the failed link.
    uint64_t freezes{0};     //!< FreezeStarted.
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
    bool complete{true};   //!< Every transfer complete.
    Time last;             //!< Last completion.
    uint64_t drops{0};     //!< Drops on the failed link.
    uint64_t lateDrops{0}; //!< Of those, in the second half of [failAt, last].
    uint64_t freezes{0};   //!< Freezes.
    Time firstFreeze;      //!< First freeze.
    uint64_t timeouts{0};  //!< Timeouts.
    uint64_t ceAcks{0};    //!< ACKs echoing CE.
    uint64_t ecnFeedback{0};  //!< ECN feedback the path selectors received.
    uint64_t nacks{0};        //!< NACKs of trimmed packets received.
    uint64_t nackFeedback{0}; //!< NACK feedback the path selectors received.
    uint64_t trims{0};        //!< Packets trimmed by the fabric.
};

/// A scenario: 2 leaves x 4 hosts, 4 spines, 400 Gb/s links of 1 us.
struct Scenario
{
    std::string selector{"ns3::RepsPathSelector"}; //!< Path selector.
    bool freezing{true};                            //!< RepsPathSelector::FreezingEnabled.
    Time failAt{Time::Max()};                       //!< When leaf 0 - spine 1 fails for good.
    bool trimming{false};                           //!< Trimming in switches and queue pairs.
    std::string queue{"100p"};                      //!< Switch queue size.
    std::vector<std::pair<uint32_t, uint32_t>> pairs; //!< (src, dst) of each transfer.
    uint64_t bytes{0};                              //!< Bytes per transfer.
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
    h->SetAttribute("QueueMaxSize", QueueSizeValue(QueueSize(c.queue)));
    h->SetAttribute("Trimming", BooleanValue(c.trimming));
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
        r.ecnFeedback += ps->GetFeedbackCount(PathSelector::ECN);
        r.nackFeedback += ps->GetFeedbackCount(PathSelector::NACK);
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
    }
};

/// The suite's instance.
static RepsMutantsTestSuite g_repsMutantsTestSuite;
