/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * Last-hop trims: a packet trimmed by the leaf's port toward the receiver is NACKed with the
 * last-hop flag, one trimmed inside the fabric without it; selectors take a last-hop NACK as
 * congestion at the receiver (PathSelector::LastHopNacks Receiver) or as a bad path (Path);
 * EcnQueueDisc::LastHopEcn false stops marking at the last hop only.
 */

#include "reps-test-compat.h"

#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/reps-module.h"

#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// How a scenario's fabric is shaped and configured.
struct Scenario
{
    uint32_t spines{4};                           //!< Spines.
    std::string uplinkRate{"400Gbps"};            //!< Leaf-spine link rate.
    std::string queue{"8p"};                      //!< Switch queue capacity.
    bool trimming{true};                          //!< Switch queues trim.
    bool lastHopEcn{true};                        //!< EcnQueueDisc::LastHopEcn.
    std::string selector{"ns3::OpsPathSelector"}; //!< Path selector.
    std::string cc{"ns3::NoCongestionControl"};   //!< Congestion control.
    std::string lastHopNacks{"Receiver"};         //!< PathSelector::LastHopNacks.
    std::vector<uint32_t> senders{0, 1, 2, 3};    //!< Hosts sending to host 4.
    uint64_t bytes{400000};                       //!< Bytes each sends.
};

/// What a scenario gave.
struct Outcome
{
    Ptr<ClosFabric> fabric;                    //!< The fabric (queue counters).
    std::vector<Ptr<RdmaQueuePair>> senders;   //!< Sender queue pairs.
    std::vector<Ptr<RdmaQueuePair>> receivers; //!< Receiver queue pairs.
    uint32_t completed{0};                     //!< Messages completed.
    uint64_t cached{0};                        //!< REPS EntropyCached events.
    uint64_t discarded{0};                     //!< REPS EntropyDiscarded events.
    uint64_t penalties{0};                     //!< Bitmap Penalty events.

    /// Completion callback.
    void Completed(uint64_t id, uint64_t size, Time fct)
    {
        ++completed;
    }

    /// EntropyCached trace.
    void Cached(uint16_t ev)
    {
        ++cached;
    }

    /// EntropyDiscarded trace.
    void Discarded(uint16_t ev)
    {
        ++discarded;
    }

    /// Penalty trace.
    void Penalized(uint16_t ev, uint8_t level)
    {
        ++penalties;
    }

    /**
     * \param name a counter of the sender stats.
     * \return its sum over the senders
     */
    uint64_t Sum(uint64_t RdmaQueuePairStats::*field) const
    {
        uint64_t total = 0;
        for (const auto& qp : senders)
        {
            total += qp->GetStats().*field;
        }
        for (const auto& qp : receivers)
        {
            total += qp->GetStats().*field;
        }
        return total;
    }

    /**
     * \param name a path selector counter.
     * \return its sum over the senders' selectors
     */
    uint64_t Selectors(const std::string& name) const
    {
        uint64_t total = 0;
        for (const auto& qp : senders)
        {
            total += qp->GetPathSelector()->GetCounter(name);
        }
        return total;
    }

    /**
     * \param field a queue counter.
     * \param lastHop true: the leaves' queues toward hosts; false: every other switch queue.
     * \return its sum over those queues
     */
    uint64_t Queues(uint64_t ClosFabric::QueueStats::*field, bool lastHop) const
    {
        uint64_t total = 0;
        for (uint32_t h = 0; lastHop && h < fabric->GetNHosts(); ++h)
        {
            total += fabric->GetQueueStats(fabric->GetHostLink(h), 1).*field;
        }
        for (uint32_t link : fabric->GetLinks(ClosFabric::LEAF_SPINE))
        {
            for (uint32_t side = 0; !lastHop && side < 2; ++side)
            {
                total += fabric->GetQueueStats(link, side).*field;
            }
        }
        return total;
    }
};

/**
 * Run a scenario: 2 leaves of 4 hosts at 100 Gb/s, every sender to host 4 (on leaf 1).
 * \param s the scenario
 * \param [out] out what it gave (Simulator::Destroy() is left to the caller)
 */
void
RunScenario(const Scenario& s, Outcome& out)
{
    Config::SetDefault("ns3::PathSelector::LastHopNacks", StringValue(s.lastHopNacks));
    Ptr<ClosFabricHelper> h = CreateObject<ClosFabricHelper>();
    h->SetAttribute("Tiers", UintegerValue(2));
    h->SetAttribute("Leaves", UintegerValue(2));
    h->SetAttribute("HostsPerLeaf", UintegerValue(4));
    h->SetAttribute("Spines", UintegerValue(s.spines));
    h->SetAttribute("HostLinkRate", DataRateValue(DataRate("100Gbps")));
    h->SetAttribute("LeafUplinkRate", DataRateValue(DataRate(s.uplinkRate)));
    h->SetSwitchQueueDisc("ns3::EcnQueueDisc",
                          "MaxSize",
                          QueueSizeValue(QueueSize(s.queue)),
                          "Kmin",
                          QueueSizeValue(QueueSize("2p")),
                          "Kmax",
                          QueueSizeValue(QueueSize("6p")),
                          "Trimming",
                          BooleanValue(s.trimming),
                          "LastHopEcn",
                          BooleanValue(s.lastHopEcn));
    out.fabric = h->Build();
    RdmaHelper rdma;
    rdma.SetPathSelector(s.selector);
    rdma.SetCongestionControl(s.cc);
    rdma.SetQueuePairAttribute("Trimming", BooleanValue(s.trimming));
    rdma.Install(out.fabric->GetHosts());
    for (uint32_t src : s.senders)
    {
        rdma.SetQueuePairAttribute("BaseRtt", TimeValue(out.fabric->GetBaseRtt(src, 4, 4140, 66)));
        auto qps = rdma.CreateQueuePair(out.fabric->GetHost(src), out.fabric->GetHost(4));
        out.senders.push_back(qps.first);
        out.receivers.push_back(qps.second);
        Ptr<PathSelector> ps = qps.first->GetPathSelector();
        ps->TraceConnectWithoutContext("EntropyCached", MakeCallback(&Outcome::Cached, &out));
        ps->TraceConnectWithoutContext("EntropyDiscarded", MakeCallback(&Outcome::Discarded, &out));
        ps->TraceConnectWithoutContext("Penalty", MakeCallback(&Outcome::Penalized, &out));
        qps.first->PostSend(s.bytes, MakeCallback(&Outcome::Completed, &out));
    }
    rdma.AssignStreams(out.fabric->GetHosts(), 321);
    Simulator::Stop(MilliSeconds(20));
    Simulator::Run();
    Config::SetDefault("ns3::PathSelector::LastHopNacks", StringValue("Receiver"));
}

} // namespace

/**
 * \ingroup reps-test
 * An incast from the other leaf over a fabric with room to spare trims only at the leaf's port
 * toward the receiver: every trimmed packet carries the last-hop mark and every NACK the flag.
 * An oversubscribed fabric (one spine, uplinks at the hosts' rate, four senders behind it)
 * trims at the leaf's uplink: no NACK carries the flag.
 */
class LastHopFlagTestCase : public TestCase
{
  public:
    LastHopFlagTestCase()
        : TestCase("Last hop: incast trims NACKed with the flag, core trims without")
    {
    }

  private:
    void DoRun() override
    {
        Outcome incast;
        RunScenario(Scenario{}, incast);
        const uint64_t lastHopTrims = incast.Queues(&ClosFabric::QueueStats::trims, true);
        NS_TEST_EXPECT_MSG_EQ(incast.completed, 4, "every message completed");
        NS_TEST_EXPECT_MSG_GT(lastHopTrims, 0, "the last hop trimmed");
        NS_TEST_EXPECT_MSG_EQ(incast.Queues(&ClosFabric::QueueStats::trims, false),
                              0,
                              "the fabric did not trim");
        NS_TEST_EXPECT_MSG_EQ(incast.Sum(&RdmaQueuePairStats::lastHopTrimmedReceived),
                              lastHopTrims,
                              "every last-hop trim arrived with the last-hop mark");
        NS_TEST_EXPECT_MSG_EQ(incast.Sum(&RdmaQueuePairStats::lastHopNacksReceived),
                              lastHopTrims,
                              "every NACK of a last-hop trim carried the flag");
        NS_TEST_EXPECT_MSG_EQ(incast.Sum(&RdmaQueuePairStats::nacksReceived),
                              lastHopTrims,
                              "one NACK per trim");
        NS_TEST_EXPECT_MSG_EQ(incast.Selectors("nacks.last-hop"),
                              lastHopTrims,
                              "the selectors were told");
        Simulator::Destroy();

        Scenario core;
        core.spines = 1;
        core.uplinkRate = "100Gbps";
        core.senders = {0, 1, 2, 3};
        Outcome oversubscribed;
        RunScenario(core, oversubscribed);
        const uint64_t coreTrims = oversubscribed.Queues(&ClosFabric::QueueStats::trims, false);
        NS_TEST_EXPECT_MSG_EQ(oversubscribed.completed, 4, "every message completed");
        NS_TEST_EXPECT_MSG_GT(coreTrims, 0, "the oversubscribed uplink trimmed");
        NS_TEST_EXPECT_MSG_EQ(oversubscribed.Queues(&ClosFabric::QueueStats::trims, true),
                              0,
                              "the last hop did not trim");
        NS_TEST_EXPECT_MSG_EQ(oversubscribed.Sum(&RdmaQueuePairStats::nacksReceived),
                              coreTrims,
                              "one NACK per trim");
        NS_TEST_EXPECT_MSG_EQ(oversubscribed.Sum(&RdmaQueuePairStats::lastHopNacksReceived),
                              0,
                              "no NACK of a fabric trim carried the flag");
        NS_TEST_EXPECT_MSG_EQ(oversubscribed.Selectors("nacks.last-hop"), 0, "none told");
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * A pure last-hop incast (no fabric trims, no ECN at the last hop, so every other signal is an
 * unmarked ACK): with LastHopNacks Receiver, REPS caches the EV of every last-hop NACK as it
 * does that of every ACK and forgets none, and bitmap penalises no EV; with Path (the old
 * behaviour) REPS loses the EV of every last-hop NACK and bitmap penalises every one.
 */
class LastHopSelectorsTestCase : public TestCase
{
  public:
    LastHopSelectorsTestCase()
        : TestCase("Last hop: REPS keeps its EVs and bitmap blames no path, unless told Path")
    {
    }

  private:
    void DoRun() override
    {
        for (const std::string policy : {"Receiver", "Path"})
        {
            Scenario s;
            s.lastHopEcn = false;
            s.lastHopNacks = policy;
            s.selector = "ns3::RepsPathSelector";
            Outcome reps;
            RunScenario(s, reps);
            const uint64_t nacks = reps.Selectors("nacks.last-hop");
            const uint64_t good = reps.Selectors("feedback.good");
            NS_TEST_EXPECT_MSG_EQ(reps.completed, 4, "REPS " << policy << ": every message");
            NS_TEST_EXPECT_MSG_GT(nacks, 0, "REPS " << policy << ": last-hop NACKs");
            NS_TEST_EXPECT_MSG_EQ(reps.Selectors("feedback.nack"), nacks, "only last-hop ones");
            NS_TEST_EXPECT_MSG_EQ(reps.Selectors("feedback.ecn"), 0, "no ECN anywhere");
            NS_TEST_EXPECT_MSG_EQ(reps.discarded, 0, "REPS " << policy << ": nothing forgotten");
            const uint64_t wantCached = policy == "Receiver" ? good + nacks : good;
            NS_TEST_EXPECT_MSG_EQ(reps.cached,
                                  wantCached,
                                  "REPS " << policy << ": EVs cached (ACKs " << good
                                          << ", last-hop NACKs " << nacks << ")");
            Simulator::Destroy();

            s.selector = "ns3::BitmapPathSelector";
            Outcome bitmap;
            RunScenario(s, bitmap);
            const uint64_t bitmapNacks = bitmap.Selectors("nacks.last-hop");
            NS_TEST_EXPECT_MSG_EQ(bitmap.completed, 4, "bitmap " << policy << ": every message");
            NS_TEST_EXPECT_MSG_GT(bitmapNacks, 0, "bitmap " << policy << ": last-hop NACKs");
            const uint64_t wantPenalties = policy == "Receiver" ? 0 : bitmapNacks;
            NS_TEST_EXPECT_MSG_EQ(bitmap.penalties,
                                  wantPenalties,
                                  "bitmap " << policy << ": penalties");
            NS_TEST_EXPECT_MSG_EQ(bitmap.Selectors("penalty-events"),
                                  bitmap.penalties,
                                  "bitmap " << policy << ": penalty events counted");
            Simulator::Destroy();
        }
    }
};

/**
 * \ingroup reps-test
 * The feedback a selector's hook is given for a last-hop NACK, one selector at a time: REPS
 * reuses the EV next (Receiver) or not (Path); bitmap and MRC leave the path alone (Receiver),
 * or penalise it / count a mark (Path); an echoed CE is an ECN mark either way.
 */
class LastHopFeedbackTestCase : public TestCase
{
  public:
    LastHopFeedbackTestCase()
        : TestCase("Last hop: a last-hop NACK reaches the hook as an ACK, or as a NACK (Path)")
    {
    }

  private:
    /**
     * \param type a PathSelector TypeId name.
     * \param policy Receiver or Path.
     * \return a started selector with that LastHopNacks
     */
    static Ptr<PathSelector> Make(const std::string& type, const std::string& policy)
    {
        ObjectFactory f(type);
        f.Set("LastHopNacks", StringValue(policy));
        Ptr<PathSelector> ps = f.Create<PathSelector>();
        ps->Start(PathSelectorContext{});
        ps->AssignStreams(7);
        return ps;
    }

    void DoRun() override
    {
        for (const std::string policy : {"Receiver", "Path"})
        {
            const bool receiver = policy == "Receiver";
            Ptr<PathSelector> reps = Make("ns3::RepsPathSelector", policy);
            const uint16_t ev = reps->NextEntropy(false);
            reps->OnNack(ev, true, false);
            PathSelector::Choice why = PathSelector::RANDOM;
            reps->TraceConnectWithoutContext(
                "EntropyChosen",
                MakeBoundCallback(
                    +[](PathSelector::Choice* out, uint16_t, PathSelector::Choice c, bool) {
                        *out = c;
                    },
                    &why));
            const uint16_t next = reps->NextEntropy(true);
            NS_TEST_EXPECT_MSG_EQ((next == ev && why == PathSelector::RECYCLED),
                                  receiver,
                                  "REPS " << policy << ": the last-hop NACK's EV is reused");
            NS_TEST_EXPECT_MSG_EQ(reps->GetCounter("feedback.nack"), 1, "counted as a NACK");
            NS_TEST_EXPECT_MSG_EQ(reps->GetCounter("nacks.last-hop"), 1, "and as last-hop");

            Ptr<PathSelector> bitmap = Make("ns3::BitmapPathSelector", policy);
            const uint16_t b = bitmap->NextEntropy(false);
            bitmap->OnNack(b, true, false);
            const uint64_t base = receiver ? 0 : 1;
            NS_TEST_EXPECT_MSG_EQ(bitmap->GetCounter("penalty-events"),
                                  base,
                                  "bitmap " << policy << ": penalty for a last-hop NACK");
            bitmap->OnNack(b, true, true);
            NS_TEST_EXPECT_MSG_EQ(bitmap->GetCounter("penalty-events"),
                                  base + 1,
                                  "bitmap " << policy << ": an echoed CE is a mark");
            bitmap->OnNack(b, false, false);
            NS_TEST_EXPECT_MSG_EQ(bitmap->GetCounter("penalty-events"),
                                  base + 2,
                                  "bitmap " << policy << ": a fabric NACK is penalised");

            Ptr<PathSelector> mrc = Make("ns3::MrcPathSelector", policy);
            const uint16_t m = mrc->NextEntropy(false);
            for (int i = 0; i < 8; ++i)
            {
                mrc->OnNack(m, true, false);
            }
            NS_TEST_EXPECT_MSG_EQ(mrc->GetCounter("entered.skip"),
                                  base,
                                  "MRC " << policy << ": last-hop NACKs skip the path");
        }
    }
};

/**
 * \ingroup reps-test
 * LastHopEcn false: an incast that congests both a leaf uplink (two senders behind one spine
 * at their own rate) and the receiver's port (two more senders on its leaf) gets ECN marks
 * from the uplink and none from the last hop; with LastHopEcn true, both mark.
 */
class LastHopEcnTestCase : public TestCase
{
  public:
    LastHopEcnTestCase()
        : TestCase("Last hop: LastHopEcn false marks nothing at the last hop, the core still")
    {
    }

  private:
    void DoRun() override
    {
        for (bool lastHopEcn : {true, false})
        {
            Scenario s;
            s.spines = 1;
            s.uplinkRate = "100Gbps";
            s.queue = "100p";
            s.trimming = false;
            s.lastHopEcn = lastHopEcn;
            s.cc = "ns3::RdmaWindowCongestionControl";
            s.senders = {0, 1, 5, 6};
            Outcome out;
            RunScenario(s, out);
            const uint64_t lastHop = out.Queues(&ClosFabric::QueueStats::marks, true);
            const uint64_t core = out.Queues(&ClosFabric::QueueStats::marks, false);
            NS_TEST_EXPECT_MSG_EQ(out.completed, 4, "every message completed");
            NS_TEST_EXPECT_MSG_GT(core, 0, "the uplink marked (LastHopEcn " << lastHopEcn << ")");
            if (lastHopEcn)
            {
                NS_TEST_EXPECT_MSG_GT(lastHop, 0, "the last hop marked");
            }
            else
            {
                NS_TEST_EXPECT_MSG_EQ(lastHop, 0, "the last hop marked nothing");
            }
            Simulator::Destroy();
        }
    }
};

/**
 * \ingroup reps-test
 * Last-hop trims and marks.
 */
class RepsLastHopTestSuite : public TestSuite
{
  public:
    RepsLastHopTestSuite()
        : TestSuite("reps-last-hop", TestSuite::Type::UNIT)
    {
        AddTestCase(new LastHopFlagTestCase, reps::kQuick);
        AddTestCase(new LastHopSelectorsTestCase, reps::kQuick);
        AddTestCase(new LastHopFeedbackTestCase, reps::kQuick);
        AddTestCase(new LastHopEcnTestCase, reps::kQuick);
    }
};

/// The one instance of the suite.
static RepsLastHopTestSuite g_repsLastHopTestSuite;
