/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "reps-test-compat.h"

#include "ns3/core-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/reps-module.h"

#include <algorithm>
#include <iomanip>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

/**
 * \file
 * \ingroup reps-test
 * Load balancing at network level: the REPS paper's claims checked over a small two-tier Clos
 * fabric with the paper's transport (window ECN congestion control, one ACK per packet,
 * selective repeat, 4 KiB MTU, RTO of 5 base RTTs) and switch queues (100 packets, about one
 * BDP at 400 Gb/s; ECN marking from 20 to 80 packets):
 *
 * - one leaf-spine link degraded to a quarter of its rate: REPS sends a clearly smaller share
 *   of the leaf's up-link bytes through it than OPS does, and finishes no later;
 * - a leaf-spine link blackholed mid-transfer without routing convergence: REPS freezes, loses
 *   far fewer packets on the dead link than OPS, and completes; OPS keeps losing packets until
 *   its messages complete through retransmissions; REPS without freezing loses more.
 */

namespace
{

/// Leaves of the fabric.
constexpr uint32_t kLeaves = 4;
/// Hosts per leaf.
constexpr uint32_t kHostsPerLeaf = 4;
/// Spines.
constexpr uint32_t kSpines = 4;
/// The spine whose link to leaf 0 is degraded or failed.
constexpr uint32_t kSpecial = 1;

/// One queue pair of a workload and what it saw.
struct Transfer
{
    Ptr<RdmaQueuePair> sender;   //!< Sender side (null: host not sending).
    Ptr<RdmaQueuePair> receiver; //!< Receiver side.
    uint64_t posted{0};          //!< Bytes posted.
    uint64_t completed{0};       //!< Bytes of the messages completed at the sender.
    uint64_t received{0};        //!< Bytes of the messages received.
    Time done;                   //!< When the last message completed.
    uint32_t* pending{nullptr};  //!< Transfers of the run still to complete.

    /**
     * Sender completion callback: stops the simulation when the last transfer completes.
     * \param id message id
     * \param size message size
     * \param fct its completion time
     */
    void Completed(uint64_t id, uint64_t size, Time fct)
    {
        completed += size;
        done = Simulator::Now();
        if (completed == posted && --*pending == 0)
        {
            Simulator::Stop();
        }
    }

    /**
     * Receiver callback.
     * \param id message id
     * \param size message size
     * \param t when
     */
    void Received(uint64_t id, uint64_t size, Time t)
    {
        received += size;
    }

    /// \return whether every byte was acknowledged and placed exactly once
    bool Complete() const
    {
        return completed == posted && received == posted &&
               receiver->GetStats().bytesReceived == posted && sender->IsIdle();
    }
};

/// What a scenario is run with.
struct Scenario
{
    std::string selector;     //!< Path selector TypeId.
    uint32_t run{1};          //!< RngRun.
    bool freezing{true};      //!< RepsPathSelector::FreezingEnabled.
    DataRate degradedRate{0}; //!< Rate of the leaf 0 - spine 1 link (0: nominal).
    Time failAt{Time::Max()}; //!< When that link goes down for good (never by default).
    uint64_t bytes{0};        //!< Bytes each sending host sends, in one message.
    uint32_t leaf0Hosts{0};   //!< Only the flows from or to the first n hosts of leaf 0 (0: all).
};

/// What a scenario measured.
struct Outcome
{
    bool complete{true};    //!< Every transfer completed with every byte placed once.
    Time last;              //!< When the last transfer completed.
    double share{0};        //!< Share of leaf 0's up-link bytes that crossed the special link.
    uint64_t drops{0};      //!< Packets lost on the failed link (both directions).
    uint64_t lateDrops{0};  //!< Of those, lost in the second half of [failAt, last].
    uint64_t freezes{0};    //!< Freezes entered (FreezeStarted).
    Time firstFreeze;       //!< When the first freeze started.
    uint64_t timeouts{0};   //!< Retransmission-timer expiries.
    uint64_t queueDrops{0}; //!< Packets dropped by switch queues.
    uint64_t recycled{0};   //!< EVs chosen from the REPS buffer (recycled or frozen).
    uint64_t packets{0};    //!< Data packets sent.
};

/// Records the times of the drops on the failed link.
struct DropLog
{
    std::vector<Time> times; //!< When each packet was lost.

    /**
     * FabricLinkErrorModel Drop sink.
     * \param p the packet
     */
    void Dropped(Ptr<const Packet> p)
    {
        times.push_back(Simulator::Now());
    }
};

/// Counts freezes.
struct FreezeLog
{
    uint64_t count{0};       //!< Freezes.
    Time first{Time::Max()}; //!< When the first one started.

    /**
     * FreezeStarted sink.
     * \param end when the freeze may end
     */
    void Started(Time end)
    {
        ++count;
        first = std::min(first, Simulator::Now());
    }
};

/**
 * Run one scenario over a 2-tier fabric of 4 leaves x 4 hosts and 4 spines, every link
 * 400 Gb/s and 1 us, default switch queues (EcnQueueDisc, 100 packets, ECN from 20 to 80):
 * the permutation in which host h sends to host h + 5 (mod 16), always on another leaf, or its
 * flows that leave from or arrive at the first hosts of leaf 0; the leaf 0 - spine 1 link
 * degraded or failed as the scenario says. Queue pairs use the window ECN controller, one ACK
 * per packet, selective repeat, 4 KiB packets, the base RTT of their path and an RTO of
 * 5 base RTTs.
 * \param c the scenario
 * \return the measurements
 */
Outcome
RunScenario(const Scenario& c)
{
    const uint64_t oldRun = RngSeedManager::GetRun();
    RngSeedManager::SetRun(c.run);

    Ptr<ClosFabricHelper> h = CreateObject<ClosFabricHelper>();
    h->SetAttribute("Tiers", UintegerValue(2));
    h->SetAttribute("Leaves", UintegerValue(kLeaves));
    h->SetAttribute("HostsPerLeaf", UintegerValue(kHostsPerLeaf));
    h->SetAttribute("Spines", UintegerValue(kSpines));
    h->SetAttribute("HostLinkRate", DataRateValue(DataRate("400Gbps")));
    h->SetAttribute("LeafUplinkRate", DataRateValue(DataRate("400Gbps")));
    Ptr<ClosFabric> fabric = h->Build();
    const uint32_t special = fabric->GetLeafSpineLink(0, kSpecial);
    if (c.degradedRate.GetBitRate() > 0)
    {
        fabric->DegradeLink(special, c.degradedRate);
    }
    DropLog drops;
    if (c.failAt != Time::Max())
    {
        fabric->FailLink(special, c.failAt);
        for (uint32_t side = 0; side < 2; ++side)
        {
            PointerValue em;
            fabric->GetLinkDevice(special, side)->GetAttribute("ReceiveErrorModel", em);
            em.Get<FabricLinkErrorModel>()->TraceConnectWithoutContext(
                "Drop",
                MakeCallback(&DropLog::Dropped, &drops));
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
    rdma.SetCongestionControl("ns3::RdmaWindowCongestionControl");
    rdma.SetQueuePairAttribute("Mtu", UintegerValue(4096));
    rdma.SetQueuePairAttribute("AckEvery", UintegerValue(1));
    rdma.SetQueuePairAttribute("GoBackN", BooleanValue(false));
    rdma.SetQueuePairAttribute("Rto", TimeValue(Time(0))); // 5 x BaseRtt
    rdma.Install(fabric->GetHosts());
    const uint32_t n = fabric->GetNHosts();
    std::vector<Transfer> transfers(n);
    uint32_t pending = 0;
    FreezeLog freezes;
    for (uint32_t src = 0; src < n; ++src)
    {
        const uint32_t dst = (src + kHostsPerLeaf + 1) % n;
        if (c.leaf0Hosts > 0 && src >= c.leaf0Hosts && dst >= c.leaf0Hosts)
        {
            continue;
        }
        rdma.SetQueuePairAttribute("BaseRtt", TimeValue(fabric->GetBaseRtt(src, dst, 4140, 66)));
        Transfer& t = transfers[src];
        auto qps = rdma.CreateQueuePair(fabric->GetHost(src), fabric->GetHost(dst));
        t.sender = qps.first;
        t.receiver = qps.second;
        t.pending = &pending;
        ++pending;
        t.receiver->SetReceiveCallback(MakeCallback(&Transfer::Received, &t));
        t.sender->GetPathSelector()->TraceConnectWithoutContext(
            "FreezeStarted",
            MakeCallback(&FreezeLog::Started, &freezes));
        t.posted = c.bytes;
        t.sender->PostSend(c.bytes, MakeCallback(&Transfer::Completed, &t));
    }
    rdma.AssignStreams(fabric->GetHosts(), 1000);
    ClosFabricHelper::AssignStreams(fabric, 2000);
    Simulator::Stop(MilliSeconds(200));
    Simulator::Run();

    Outcome r;
    for (const Transfer& t : transfers)
    {
        if (!t.sender)
        {
            continue;
        }
        r.complete = r.complete && t.Complete();
        r.last = std::max(r.last, t.done);
        r.timeouts += t.sender->GetStats().timeouts;
        r.packets += t.sender->GetStats().packetsSent;
        Ptr<RepsPathSelector> reps = DynamicCast<RepsPathSelector>(t.sender->GetPathSelector());
        if (reps)
        {
            r.recycled += reps->GetChoiceCount(PathSelector::RECYCLED) +
                          reps->GetChoiceCount(PathSelector::FROZEN);
        }
    }
    uint64_t up = 0;
    for (uint32_t s = 0; s < kSpines; ++s)
    {
        up += fabric->GetLinkCounters(fabric->GetLeafSpineLink(0, s), 0).bytes;
    }
    r.share = up > 0 ? double(fabric->GetLinkCounters(special, 0).bytes) / up : 0;
    r.drops = fabric->GetLinkCounters(special, 0).droppedPackets +
              fabric->GetLinkCounters(special, 1).droppedPackets;
    for (Time t : drops.times)
    {
        if (t > c.failAt + (r.last - c.failAt) / 2)
        {
            ++r.lateDrops;
        }
    }
    for (uint32_t l = 0; l < fabric->GetNLinks(); ++l)
    {
        for (uint32_t side = 0; side < 2; ++side)
        {
            if (fabric->GetRole(fabric->GetLinkNode(l, side)) != ClosFabric::HOST)
            {
                r.queueDrops += fabric->GetQueueStats(l, side).drops;
            }
        }
    }
    r.freezes = freezes.count;
    r.firstFreeze = freezes.first;
    Simulator::Destroy();
    RngSeedManager::SetRun(oldRun);
    return r;
}

/**
 * \param x a fraction
 * \return it in percent, one decimal
 */
std::string
Percent(double x)
{
    std::ostringstream os;
    os << std::fixed << std::setprecision(1) << 100 * x << "%";
    return os.str();
}

} // namespace

/**
 * \ingroup reps-test
 * One congested spine: the leaf 0 - spine 1 link runs at a quarter of its rate (100 of
 * 400 Gb/s) and the 16 hosts run a permutation of 4 MiB each (host h to host h + 5). OPS
 * sprays obliviously, so about a quarter of leaf 0's up-link bytes go to the slow link (a
 * little less, as its queue drops); REPS recycles only the EVs whose ACKs come back unmarked,
 * so it sends a share close to the link's share of the capacity (100 of 1300 Gb/s, 7.7%) and
 * finishes sooner. Its losses are congestion losses with high RTTs, so it never freezes.
 */
class RepsLbDegradedLinkTestCase : public TestCase
{
  public:
    /// \param run the RngRun
    RepsLbDegradedLinkTestCase(uint32_t run)
        : TestCase("A leaf-spine link at a quarter of its rate: REPS sends a smaller share through "
                   "it than "
                   "OPS, RngRun " +
                   std::to_string(run)),
          m_run(run)
    {
    }

  private:
    uint32_t m_run; //!< RngRun.

    void DoRun() override
    {
        Scenario c;
        c.run = m_run;
        c.degradedRate = DataRate("100Gbps");
        c.bytes = 4 << 20;
        c.selector = "ns3::OpsPathSelector";
        const Outcome ops = RunScenario(c);
        c.selector = "ns3::RepsPathSelector";
        const Outcome reps = RunScenario(c);
        const std::string shares = "OPS " + Percent(ops.share) + " vs REPS " + Percent(reps.share);

        NS_TEST_EXPECT_MSG_EQ(ops.complete, true, "OPS: every byte delivered once");
        NS_TEST_EXPECT_MSG_EQ(reps.complete, true, "REPS: every byte delivered once");
        NS_TEST_EXPECT_MSG_GT(ops.queueDrops, 0, "the slow link is congested under OPS");
        // Measured over RngRun 1..10: OPS 19.7-21.2%, REPS 6.7-8.9%.
        NS_TEST_EXPECT_MSG_GT(ops.share, 0.15, "OPS ignores congestion: " + shares);
        NS_TEST_EXPECT_MSG_LT(reps.share, 0.6 * ops.share, "REPS avoids the slow link: " + shares);
        NS_TEST_EXPECT_MSG_LT(reps.share, 0.125, "REPS share below half of 1/4: " + shares);
        // Measured: OPS 310-369 us, REPS 128-157 us.
        NS_TEST_EXPECT_MSG_LT_OR_EQ(reps.last,
                                    ops.last,
                                    "REPS completes no later: OPS " << ops.last.As(Time::US)
                                                                    << " vs REPS "
                                                                    << reps.last.As(Time::US));
        NS_TEST_EXPECT_MSG_GT(reps.recycled, reps.packets / 2, "REPS mostly recycles EVs");
        NS_TEST_EXPECT_MSG_GT(reps.timeouts, 0, "REPS lost packets to congestion too");
        NS_TEST_EXPECT_MSG_EQ(reps.freezes,
                              0,
                              "congestion losses (high RTTs) are no failure signal");
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * A blackhole: the leaf 0 - spine 1 link fails at 30 us, in the middle of 16 MiB transfers,
 * and routing never converges, so 7 of 16 EVs lose either the data packet or its ACK. The
 * flows are those of the permutation (host h to host h + 5) that leave from or arrive at the
 * first two hosts of leaf 0 (0 -> 5, 1 -> 6, 11 -> 0, 12 -> 1). OPS keeps drawing dead EVs
 * until its last message completes through retransmissions; REPS stops reusing the EVs whose
 * ACKs no longer come back, freezes on the first timeouts (the RTTs are low: the loss is not
 * congestion) and from then on only cycles EVs that worked. Without freezing REPS keeps drawing
 * a random EV whenever its buffer runs dry, and loses more.
 */
class RepsLbFailedLinkTestCase : public TestCase
{
  public:
    /// \param run the RngRun
    RepsLbFailedLinkTestCase(uint32_t run)
        : TestCase("A leaf-spine link blackholed mid-transfer: REPS freezes and loses far "
                   "fewer packets than OPS, RngRun " +
                   std::to_string(run)),
          m_run(run)
    {
    }

  private:
    uint32_t m_run; //!< RngRun.

    void DoRun() override
    {
        Scenario c;
        c.run = m_run;
        c.failAt = MicroSeconds(30);
        c.bytes = 16 << 20;
        c.leaf0Hosts = 2;
        c.selector = "ns3::OpsPathSelector";
        const Outcome ops = RunScenario(c);
        c.selector = "ns3::RepsPathSelector";
        const Outcome reps = RunScenario(c);
        c.freezing = false;
        const Outcome noFreeze = RunScenario(c);
        std::ostringstream os;
        os << "drops on the failed link: OPS " << ops.drops << " vs REPS " << reps.drops
           << " (REPS without freezing " << noFreeze.drops << ")";
        const std::string drops = os.str();

        NS_TEST_EXPECT_MSG_EQ(ops.complete, true, "OPS: every byte delivered once");
        NS_TEST_EXPECT_MSG_EQ(reps.complete, true, "REPS: every byte delivered once");
        NS_TEST_EXPECT_MSG_EQ(noFreeze.complete, true, "REPS unfrozen: every byte once");

        // Measured over RngRun 1..10: OPS 9039-9329 drops, REPS 279-327.
        NS_TEST_EXPECT_MSG_GT(reps.drops, 0, "REPS too loses what it sent before it learned");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(reps.drops * 10, ops.drops, "REPS loses far fewer: " + drops);
        // OPS loses packets until the end: measured 3821-4087 of its drops in the second half.
        NS_TEST_EXPECT_MSG_GT(ops.lateDrops * 10,
                              ops.drops,
                              "OPS keeps losing packets until it completes: " << ops.lateDrops
                                                                              << " late drops");
        // Measured: OPS 36-40 ms, REPS 360-394 us.
        NS_TEST_EXPECT_MSG_LT(reps.last * 10,
                              ops.last,
                              "REPS completes far sooner: OPS " << ops.last.As(Time::US)
                                                                << " vs REPS "
                                                                << reps.last.As(Time::US));

        NS_TEST_EXPECT_MSG_GT_OR_EQ(reps.freezes, 1, "REPS froze");
        NS_TEST_EXPECT_MSG_GT(reps.firstFreeze, c.failAt, "on the failure");
        NS_TEST_EXPECT_MSG_EQ(noFreeze.freezes, 0, "FreezingEnabled=false never freezes");
        NS_TEST_EXPECT_MSG_EQ(ops.freezes, 0, "OPS has no freezing");
        // Frozen, REPS only reuses EVs that worked: no drop in the second half (measured 0);
        // unfrozen it draws random EVs when its buffer is empty (measured 19-48 late drops,
        // 341-386 drops in all).
        NS_TEST_EXPECT_MSG_EQ(reps.lateDrops, 0, "frozen REPS stops losing: " + drops);
        NS_TEST_EXPECT_MSG_GT(noFreeze.lateDrops, 0, "unfrozen REPS keeps losing: " + drops);
        NS_TEST_EXPECT_MSG_GT(noFreeze.drops, reps.drops, "freezing saves packets: " + drops);
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * Load balancing under congestion and failures over a small Clos fabric.
 */
class RepsLoadBalancingTestSuite : public TestSuite
{
  public:
    RepsLoadBalancingTestSuite()
        : TestSuite("reps-load-balancing", TestSuite::Type::UNIT)
    {
        AddTestCase(new RepsLbDegradedLinkTestCase(1), reps::kExtensive);
        AddTestCase(new RepsLbFailedLinkTestCase(1), reps::kExtensive);
    }
};

/// The one instance of the suite.
static RepsLoadBalancingTestSuite g_repsLoadBalancingTestSuite;
