/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "reps-test-compat.h"

#include "ns3/bitmap-path-selector.h"
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/flowlet-path-selector.h"
#include "ns3/mp-path-selector.h"
#include "ns3/mprdma-path-selector.h"
#include "ns3/nstime.h"
#include "ns3/ops-path-selector.h"
#include "ns3/plb-path-selector.h"
#include "ns3/reps-path-selector.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <functional>
#include <map>
#include <numeric>
#include <set>
#include <vector>

using namespace ns3;

namespace
{

/// Collects what a selector reports through its trace sources.
struct SelectorLog
{
    std::vector<uint16_t> evs;                 //!< EntropyChosen: EVs in order.
    std::vector<PathSelector::Choice> reasons; //!< EntropyChosen: their reasons.
    std::vector<uint16_t> cached;              //!< EntropyCached.
    std::vector<uint16_t> discarded;           //!< EntropyDiscarded.
    std::vector<Time> freezeStarted;           //!< FreezeStarted arguments.
    std::vector<Time> freezeEnded;             //!< FreezeEnded arguments.
    std::vector<uint32_t> occupancy;           //!< BufferOccupancy new values.

    /**
     * EntropyChosen sink.
     * \param ev the EV
     * \param why the reason
     * \param retx whether it is a retransmission
     */
    void Chosen(uint16_t ev, PathSelector::Choice why, bool retx)
    {
        evs.push_back(ev);
        reasons.push_back(why);
    }

    /// \param ev a cached EV
    void Cached(uint16_t ev)
    {
        cached.push_back(ev);
    }

    /// \param ev a discarded EV
    void Discarded(uint16_t ev)
    {
        discarded.push_back(ev);
    }

    /// \param t freeze end
    void Started(Time t)
    {
        freezeStarted.push_back(t);
    }

    /// \param t time frozen
    void Ended(Time t)
    {
        freezeEnded.push_back(t);
    }

    /**
     * BufferOccupancy sink.
     * \param oldValue previous count
     * \param newValue new count
     */
    void Occupancy(uint32_t oldValue, uint32_t newValue)
    {
        occupancy.push_back(newValue);
    }

    /**
     * Connect every trace source the selector has.
     * \param s the selector
     */
    void Connect(Ptr<PathSelector> s)
    {
        s->TraceConnectWithoutContext("EntropyChosen", MakeCallback(&SelectorLog::Chosen, this));
        if (DynamicCast<RepsPathSelector>(s))
        {
            s->TraceConnectWithoutContext("EntropyCached",
                                          MakeCallback(&SelectorLog::Cached, this));
            s->TraceConnectWithoutContext("EntropyDiscarded",
                                          MakeCallback(&SelectorLog::Discarded, this));
            s->TraceConnectWithoutContext("FreezeStarted",
                                          MakeCallback(&SelectorLog::Started, this));
            s->TraceConnectWithoutContext("FreezeEnded", MakeCallback(&SelectorLog::Ended, this));
            s->TraceConnectWithoutContext("BufferOccupancy",
                                          MakeCallback(&SelectorLog::Occupancy, this));
        }
    }

    /**
     * \param why a reason
     * \return how many EVs were chosen for it
     */
    uint32_t Count(PathSelector::Choice why) const
    {
        uint32_t n = 0;
        for (auto r : reasons)
        {
            n += (r == why);
        }
        return n;
    }
};

/// \return the context of a connection: base RTT 8 us, RTO 40 us, BDP 4 packets.
PathSelectorContext
Context(bool trimming)
{
    PathSelectorContext ctx;
    ctx.baseRtt = MicroSeconds(8);
    ctx.rto = MicroSeconds(40);
    ctx.bdpPackets = 4;
    ctx.trimming = trimming;
    return ctx;
}

/**
 * \param freeze FreezeDuration
 * \return a REPS selector with its stream fixed.
 */
Ptr<RepsPathSelector>
MakeReps(Time freeze = MicroSeconds(100))
{
    Ptr<RepsPathSelector> s = CreateObject<RepsPathSelector>();
    s->SetAttribute("FreezeDuration", TimeValue(freeze));
    s->AssignStreams(7);
    return s;
}

/**
 * Run a function at a simulated time.
 * \param t when
 * \param f what
 */
void
At(Time t, std::function<void()> f)
{
    Simulator::Schedule(t, f);
}

} // namespace

/**
 * \ingroup reps-test
 * OPS draws every EV, retransmissions included, uniformly and independently from the entropy
 * space: chi-square over the 16 EVs and over the 256 pairs of consecutive EVs.
 */
class OpsUniformTestCase : public TestCase
{
  public:
    OpsUniformTestCase()
        : TestCase("OPS: EVs uniform and independent over a 16-EV space")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t space = 16;
        const uint16_t base = 100;
        const uint32_t n = 16000;
        Ptr<OpsPathSelector> s = CreateObject<OpsPathSelector>();
        s->SetAttribute("EntropySpace", UintegerValue(space));
        s->SetAttribute("EntropyBase", UintegerValue(base));
        s->AssignStreams(3);
        SelectorLog log;
        log.Connect(s);
        s->Start(Context(false));
        std::vector<double> counts(space, 0);
        std::vector<double> pairs(space * space, 0);
        uint32_t prev = 0;
        for (uint32_t i = 0; i < n; ++i)
        {
            uint16_t ev = s->NextEntropy(i % 5 == 0);
            s->OnAck(ev, i % 2 == 0, MicroSeconds(9));
            NS_TEST_ASSERT_MSG_GT_OR_EQ(ev, base, "EV below EntropyBase");
            NS_TEST_ASSERT_MSG_LT(ev, base + space, "EV beyond the entropy space");
            uint32_t k = ev - base;
            counts[k] += 1;
            if (i > 0)
            {
                pairs[prev * space + k] += 1;
            }
            prev = k;
        }
        NS_TEST_ASSERT_MSG_EQ(log.Count(PathSelector::RANDOM), n, "every choice is 'random'");
        double chi2 = 0;
        double expected = static_cast<double>(n) / space;
        for (double c : counts)
        {
            chi2 += (c - expected) * (c - expected) / expected;
        }
        // 15 degrees of freedom: P(chi2 > 37.70) = 0.001 for a uniform source.
        NS_TEST_ASSERT_MSG_LT(chi2, 37.70, "EV frequencies are not uniform");
        double chi2Pairs = 0;
        double expectedPair = static_cast<double>(n - 1) / (space * space);
        for (double c : pairs)
        {
            chi2Pairs += (c - expectedPair) * (c - expectedPair) / expectedPair;
        }
        // 255 degrees of freedom: P(chi2 > 330.5) = 0.001; a round robin scores about 240000.
        NS_TEST_ASSERT_MSG_LT(chi2Pairs, 330.5, "consecutive EVs are not independent");
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * Any feedback ends a freeze once it is due: a NACK or a timeout as well as an ACK, so that a
 * connection whose cached EVs all lead to dead paths (no ACK ever comes back) leaves freezing
 * and explores.
 */
class RepsFreezeExitFeedbackTestCase : public TestCase
{
  public:
    RepsFreezeExitFeedbackTestCase()
        : TestCase("REPS: a due freeze ends on a timeout or a NACK, not only on an ACK")
    {
    }

  private:
    void DoRun() override
    {
        for (bool byTimeout : {true, false})
        {
            Ptr<RepsPathSelector> s = MakeReps(MicroSeconds(100));
            SelectorLog log;
            log.Connect(s);
            s->Start(Context(true));
            At(MicroSeconds(0), [&]() {
                for (int i = 0; i < 3; ++i)
                {
                    s->OnAck(s->NextEntropy(false), false, MicroSeconds(9));
                }
                s->OnTimeout();
            });
            // Only timeouts (or NACKs) come back: the cached paths are dead.
            At(MicroSeconds(50), [&]() {
                byTimeout ? s->OnTimeout() : s->OnNack(s->NextEntropy(true));
                NS_TEST_EXPECT_MSG_EQ(s->IsFrozen(), true, "not due yet");
            });
            At(MicroSeconds(120), [&]() {
                byTimeout ? s->OnTimeout() : s->OnNack(s->NextEntropy(true));
                NS_TEST_EXPECT_MSG_EQ(s->IsFrozen(), false, "the due freeze ends");
                NS_TEST_EXPECT_MSG_EQ(s->GetExplorationCounter(), 4, "explores one BDP");
                NS_TEST_EXPECT_MSG_EQ(s->GetValidCount(), 0, "the dead EVs are forgotten");
            });
            Simulator::Run();
            NS_TEST_ASSERT_MSG_EQ((log.freezeEnded == std::vector<Time>{MicroSeconds(120)}),
                                  true,
                                  "FreezeEnded reports a freeze of 120 us");
            NS_TEST_ASSERT_MSG_EQ(s->GetFreezeCount(), 1, "no new freeze while exploring");
            Simulator::Destroy();
        }
    }
};

/**
 * \ingroup reps-test
 * OPS's deck variant deals every EV of the space once per round, in an order that changes
 * from round to round and with the random stream.
 */
class OpsDeckTestCase : public TestCase
{
  public:
    OpsDeckTestCase()
        : TestCase("OPS deck: every EV once per round, rounds shuffled")
    {
    }

  private:
    /**
     * \param space entropy space
     * \param stream random stream
     * \param rounds rounds to deal
     * \return the EVs dealt
     */
    static std::vector<uint16_t> Deal(uint32_t space, int64_t stream, uint32_t rounds)
    {
        Ptr<OpsPathSelector> s = CreateObject<OpsPathSelector>();
        s->SetAttribute("EntropySpace", UintegerValue(space));
        s->SetAttribute("EntropyBase", UintegerValue(1000));
        s->SetAttribute("Variant", StringValue("Deck"));
        s->AssignStreams(stream);
        s->Start(Context(false));
        std::vector<uint16_t> evs;
        for (uint32_t i = 0; i < space * rounds; ++i)
        {
            evs.push_back(s->NextEntropy(false));
        }
        return evs;
    }

    void DoRun() override
    {
        for (uint32_t space : {1u, 5u, 32u, 1000u, 65536u - 1000u})
        {
            std::vector<uint16_t> evs = Deal(space, 3, space > 1000 ? 1 : 3);
            for (size_t round = 0; round * space < evs.size(); ++round)
            {
                std::vector<uint16_t> r(evs.begin() + round * space,
                                        evs.begin() + (round + 1) * space);
                std::sort(r.begin(), r.end());
                bool all = r.front() == 1000 && r.back() == 1000 + space - 1 &&
                           std::adjacent_find(r.begin(), r.end()) == r.end();
                NS_TEST_ASSERT_MSG_EQ(all, true, "round " << round << " of " << space << " EVs");
            }
        }
        std::vector<uint16_t> a = Deal(32, 3, 2);
        NS_TEST_ASSERT_MSG_EQ((std::vector<uint16_t>(a.begin(), a.begin() + 32) ==
                               std::vector<uint16_t>(a.begin() + 32, a.end())),
                              false,
                              "each round is shuffled anew");
        NS_TEST_ASSERT_MSG_EQ((Deal(32, 3, 2) == a), true, "same stream, same deal");
        NS_TEST_ASSERT_MSG_EQ((Deal(32, 4, 2) == a), false, "another stream, another deal");
        std::vector<uint16_t> sorted(32);
        std::iota(sorted.begin(), sorted.end(), 1000);
        NS_TEST_ASSERT_MSG_EQ((std::vector<uint16_t>(a.begin(), a.begin() + 32) == sorted),
                              false,
                              "not dealt in order");
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * Flowlet switching keeps the EV while packets are close together, takes a new one after an
 * idle gap longer than the timeout (default half the base RTT), and at most once per RTO.
 */
class FlowletGapTestCase : public TestCase
{
  public:
    FlowletGapTestCase()
        : TestCase("Flowlet: new EV only after an idle gap, at most once per RTO")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<FlowletPathSelector> s = CreateObject<FlowletPathSelector>();
        s->AssignStreams(11);
        SelectorLog log;
        log.Connect(s);
        s->Start(Context(false)); // base RTT 8 us: timeout 4 us; RTO 40 us
        NS_TEST_ASSERT_MSG_EQ(s->GetFlowletTimeout(), MicroSeconds(4), "default: half base RTT");

        // Send times [us] and whether the packet must start a new flowlet.
        struct Step
        {
            double us;
            bool repath;
        };

        std::vector<Step> steps = {
            {0, true}, // first packet
            {1, false},
            {2, false},
            {3, false},
            {10, false}, // gap 7 us > 4 us, but the EV
                         // changed only 10 us ago (RTO
                         // 40 us)
            {50, true},  // gap 40 us, last change 50 us ago
            {51, false},
            {52, false},
            {60, false}, // gap 8 us, last change 10 us ago
            {95, true},  // gap 35 us, last change 45 us ago
            {99, false}, // gap exactly 4 us: not longer than the timeout
            {103, false},
            {107, false},
            {111, false},
            {115, false},
            {119, false},
            {123, false},
            {127, false},
            {131, false},
            {135, false},
            {139, false},
            {143, false},
            {147.5, true}, // gap 4.5 us, last change 52.5 us ago
        };
        for (std::size_t i = 0; i < steps.size(); ++i)
        {
            At(NanoSeconds(static_cast<int64_t>(steps[i].us * 1000)),
               [s, i]() { s->NextEntropy(i % 4 == 3); });
        }
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(log.evs.size(), steps.size(), "one EV per packet");
        uint32_t flowlets = 0;
        for (std::size_t i = 0; i < steps.size() && i < log.evs.size(); ++i)
        {
            PathSelector::Choice expected =
                steps[i].repath ? PathSelector::RANDOM : PathSelector::FIXED;
            NS_TEST_ASSERT_MSG_EQ(PathSelector::ChoiceName(log.reasons[i]),
                                  PathSelector::ChoiceName(expected),
                                  "packet at " << steps[i].us << " us: wrong flowlet decision");
            if (i > 0 && !steps[i].repath)
            {
                NS_TEST_ASSERT_MSG_EQ(log.evs[i], log.evs[i - 1], "EV changed within a flowlet");
            }
            if (i > 0 && steps[i].repath)
            {
                NS_TEST_ASSERT_MSG_NE(log.evs[i], log.evs[i - 1], "new flowlet kept its EV");
            }
            flowlets += steps[i].repath;
        }
        NS_TEST_ASSERT_MSG_EQ(s->GetFlowletCount(), flowlets, "flowlet count");
        NS_TEST_ASSERT_MSG_EQ(s->GetSuppressedCount(), 2, "gaps ignored because of the RTO");
        Simulator::Destroy();

        // An explicit FlowletTimeout replaces the default.
        Ptr<FlowletPathSelector> t = CreateObject<FlowletPathSelector>();
        t->SetAttribute("FlowletTimeout", TimeValue(MicroSeconds(20)));
        t->Start(Context(false));
        NS_TEST_ASSERT_MSG_EQ(t->GetFlowletTimeout(), MicroSeconds(20), "attribute ignored");
        At(MicroSeconds(0), [t]() { t->NextEntropy(false); });
        At(MicroSeconds(100), [t]() { t->NextEntropy(false); }); // gap 100 us: new flowlet
        At(MicroSeconds(150), [t]() { t->NextEntropy(false); }); // gap 50 us, change 50 ago
        At(MicroSeconds(170), [t]() { t->NextEntropy(false); }); // gap 20 us: not longer
        At(MicroSeconds(260), [t]() { t->NextEntropy(false); }); // gap 90 us, change 110 ago
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(t->GetFlowletCount(), 4, "flowlets with a 20 us timeout");
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * REPS reuses EVs acknowledged without ECN, oldest first, never the ECN-marked or NACKed ones,
 * and reports every step through its trace sources and counters.
 */
class RepsRecyclingTracesTestCase : public TestCase
{
  public:
    RepsRecyclingTracesTestCase()
        : TestCase("REPS: recycling of unmarked EVs, traces and counters")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<RepsPathSelector> s = MakeReps();
        SelectorLog log;
        log.Connect(s);
        s->Start(Context(false));
        std::vector<uint16_t> first;
        for (int i = 0; i < 6; ++i)
        {
            first.push_back(s->NextEntropy(false));
        }
        // ACKs: 0 clean, 1 marked, 2 clean, 3 marked, 4 NACKed, 5 lost.
        s->OnAck(first[0], false, MicroSeconds(9));
        s->OnAck(first[1], true, MicroSeconds(9));
        s->OnAck(first[2], false, MicroSeconds(9));
        s->OnAck(first[3], true, MicroSeconds(9));
        s->OnNack(first[4]);
        s->OnLoss(first[5]);
        NS_TEST_ASSERT_MSG_EQ(s->GetValidCount(), 2, "two clean ACKs, two cached EVs");
        uint16_t a = s->NextEntropy(false);
        uint16_t b = s->NextEntropy(true);
        NS_TEST_ASSERT_MSG_EQ(a, first[0], "oldest cached EV first");
        NS_TEST_ASSERT_MSG_EQ(b, first[2], "then the next one");
        s->NextEntropy(false);
        std::vector<PathSelector::Choice> reasons(log.reasons.begin() + 6, log.reasons.end());
        NS_TEST_ASSERT_MSG_EQ((reasons == std::vector<PathSelector::Choice>{PathSelector::RECYCLED,
                                                                            PathSelector::RECYCLED,
                                                                            PathSelector::RANDOM}),
                              true,
                              "two reuses, then random from the empty buffer");
        NS_TEST_ASSERT_MSG_EQ((log.cached == std::vector<uint16_t>{first[0], first[2]}),
                              true,
                              "EntropyCached must report exactly the unmarked EVs");
        NS_TEST_ASSERT_MSG_EQ((log.discarded == std::vector<uint16_t>{first[1], first[3]}),
                              true,
                              "EntropyDiscarded must report exactly the marked EVs");
        NS_TEST_ASSERT_MSG_EQ((log.occupancy == std::vector<uint32_t>{1, 2, 1, 0}),
                              true,
                              "BufferOccupancy must follow the valid count");
        NS_TEST_ASSERT_MSG_EQ(s->GetPacketCount(), 9, "packets counted");
        NS_TEST_ASSERT_MSG_EQ(s->GetChoiceCount(PathSelector::RECYCLED), 2, "recycled count");
        NS_TEST_ASSERT_MSG_EQ(s->GetChoiceCount(PathSelector::RANDOM), 7, "random count");
        NS_TEST_ASSERT_MSG_EQ(log.freezeStarted.size(), 0, "no freeze without a timeout");

        // BufferSize 2 keeps only the two newest EVs.
        Ptr<RepsPathSelector> small = MakeReps();
        small->SetAttribute("BufferSize", UintegerValue(2));
        small->Start(Context(false));
        small->OnAck(11, false, MicroSeconds(9));
        small->OnAck(12, false, MicroSeconds(9));
        small->OnAck(13, false, MicroSeconds(9));
        NS_TEST_ASSERT_MSG_EQ(small->NextEntropy(false), 12, "BufferSize 2: 11 overwritten");
        NS_TEST_ASSERT_MSG_EQ(small->NextEntropy(false), 13, "BufferSize 2: then 13");
        NS_TEST_ASSERT_MSG_EQ(small->GetChoiceCount(PathSelector::RECYCLED), 2, "both reused");
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * With trimming every timeout freezes; frozen REPS cycles its cached EVs and stays frozen for
 * FreezeDuration of simulated time, then the next ACK clears the buffer and one BDP of packets
 * explores. No second freeze while frozen or exploring.
 */
class RepsFreezeTrimmingTestCase : public TestCase
{
  public:
    RepsFreezeTrimmingTestCase()
        : TestCase("REPS with trimming: a timeout freezes for FreezeDuration, then explores")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<RepsPathSelector> s = MakeReps(MicroSeconds(100));
        SelectorLog log;
        log.Connect(s);
        s->Start(Context(true));
        std::vector<uint16_t> cachedEvs;
        At(MicroSeconds(0), [&]() {
            for (int i = 0; i < 3; ++i)
            {
                uint16_t ev = s->NextEntropy(false);
                cachedEvs.push_back(ev);
                s->OnAck(ev, false, MicroSeconds(200)); // huge RTTs do not matter here
            }
            s->OnTimeout();
        });
        At(MicroSeconds(10), [&]() {
            NS_TEST_EXPECT_MSG_EQ(s->IsFrozen(), true, "a timeout with trimming must freeze");
            for (int i = 0; i < 6; ++i)
            {
                uint16_t ev = s->NextEntropy(true);
                NS_TEST_EXPECT_MSG_EQ(ev, cachedEvs[i % 3], "frozen: round robin over cache");
            }
            s->OnTimeout(); // already frozen
        });
        At(NanoSeconds(99999), [&]() {
            s->OnAck(cachedEvs[0], false, MicroSeconds(9));
            NS_TEST_EXPECT_MSG_EQ(s->IsFrozen(), true, "left freezing before FreezeDuration");
        });
        At(MicroSeconds(130), [&]() {
            NS_TEST_EXPECT_MSG_EQ(s->IsFrozen(), true, "the exit waits for an ACK");
            s->OnAck(4242, false, MicroSeconds(9));
            NS_TEST_EXPECT_MSG_EQ(s->IsFrozen(), false, "ACK after FreezeDuration must unfreeze");
            NS_TEST_EXPECT_MSG_EQ(s->GetExplorationCounter(), 4, "explore one BDP");
            s->OnTimeout(); // exploring: must not freeze
            NS_TEST_EXPECT_MSG_EQ(s->IsFrozen(), false, "froze while exploring");
            for (int i = 0; i < 4; ++i)
            {
                s->NextEntropy(false);
            }
            NS_TEST_EXPECT_MSG_EQ(s->NextEntropy(false), 4242, "only post-exit EVs are reused");
            s->OnTimeout();
            NS_TEST_EXPECT_MSG_EQ(s->IsFrozen(), true, "after exploring a timeout freezes again");
        });
        Simulator::Run();
        // Frozen at 0 (until 100 us) and again at 130 us (until 230 us); left at 130 us.
        NS_TEST_ASSERT_MSG_EQ(
            (log.freezeStarted == std::vector<Time>{MicroSeconds(100), MicroSeconds(230)}),
            true,
            "FreezeStarted must report the two freeze ends");
        NS_TEST_ASSERT_MSG_EQ((log.freezeEnded == std::vector<Time>{MicroSeconds(130)}),
                              true,
                              "FreezeEnded must report one freeze of 130 us");
        NS_TEST_ASSERT_MSG_EQ(s->GetFreezeCount(), 2, "freeze counter");
        NS_TEST_ASSERT_MSG_EQ(s->GetTimeoutCount(), 4, "timeout counter");
        NS_TEST_ASSERT_MSG_EQ(s->GetChoiceCount(PathSelector::FROZEN), 6, "frozen choices");
        NS_TEST_ASSERT_MSG_EQ(s->GetChoiceCount(PathSelector::EXPLORE), 4, "explore choices");
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * Without trimming a timeout freezes only when the largest RTT of the last MaxRttWindow (two
 * RTOs by default) is below 1.65 x base RTT; FreezingEnabled=false never freezes.
 */
class RepsFreezeRttRuleTestCase : public TestCase
{
  public:
    RepsFreezeRttRuleTestCase()
        : TestCase("REPS without trimming: a timeout freezes only when recent RTTs are low")
    {
    }

  private:
    void DoRun() override
    {
        // Base RTT 8 us: threshold 13.2 us. RTO 40 us: window 80 us.
        Ptr<RepsPathSelector> s = MakeReps();
        s->Start(Context(false));
        NS_TEST_ASSERT_MSG_EQ(s->GetMaxRttWindow(), MicroSeconds(80), "default window: 2 RTOs");
        At(MicroSeconds(0), [s]() { s->OnAck(1, false, MicroSeconds(20)); });
        At(MicroSeconds(10), [s]() { s->OnAck(2, false, MicroSeconds(9)); });
        At(MicroSeconds(50), [s, this]() {
            NS_TEST_EXPECT_MSG_EQ(s->GetMaxRecentRtt(), MicroSeconds(20), "windowed max");
            s->OnTimeout();
            NS_TEST_EXPECT_MSG_EQ(s->IsFrozen(), false, "congestion (RTT 20 us) must not freeze");
        });
        At(MicroSeconds(85), [s, this]() {
            // The 20 us sample (t = 0) has left the window; the 9 us one (t = 10) has not.
            NS_TEST_EXPECT_MSG_EQ(s->GetMaxRecentRtt(), MicroSeconds(9), "old sample expired");
            s->OnTimeout();
            NS_TEST_EXPECT_MSG_EQ(s->IsFrozen(), true, "low RTTs: a timeout must freeze");
        });
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(s->GetTimeoutCount(), 2, "timeouts");
        NS_TEST_ASSERT_MSG_EQ(s->GetFailureSignalCount(), 1, "failure signals");
        NS_TEST_ASSERT_MSG_EQ(s->GetFreezeCount(), 1, "freezes");
        Simulator::Destroy();

        // A just-below-threshold RTT freezes; the factor is an attribute.
        Ptr<RepsPathSelector> f = MakeReps();
        f->SetAttribute("RttThresholdFactor", DoubleValue(3.0));
        f->Start(Context(false));
        f->OnAck(1, false, MicroSeconds(20)); // 20 < 3 x 8
        f->OnTimeout();
        NS_TEST_ASSERT_MSG_EQ(f->IsFrozen(), true, "RttThresholdFactor 3: 20 us is low");

        // FreezingEnabled = false: the paper's ablation.
        Ptr<RepsPathSelector> off = MakeReps();
        off->SetAttribute("FreezingEnabled", BooleanValue(false));
        off->Start(Context(true));
        off->OnAck(1, false, MicroSeconds(9));
        off->OnTimeout();
        off->OnTimeout();
        NS_TEST_ASSERT_MSG_EQ(off->IsFrozen(), false, "FreezingEnabled=false froze");
        NS_TEST_ASSERT_MSG_EQ(off->GetFreezeCount(), 0, "FreezingEnabled=false froze");
        NS_TEST_ASSERT_MSG_EQ(off->NextEntropy(false), 1, "still recycles");
        Simulator::Destroy();

        // RttWindow=Tumbling (the reference simulator's rule): the window that began with the
        // 20 us sample at t = 0 ends at the first ACK after 80 us, so a timeout at 85 us, with
        // no ACK since, still sees 20 us and does not freeze; an ACK at 90 us starts a window.
        Ptr<RepsPathSelector> t = MakeReps();
        t->SetAttribute("RttWindow", StringValue("Tumbling"));
        t->Start(Context(false));
        At(MicroSeconds(0), [t]() { t->OnAck(1, false, MicroSeconds(20)); });
        At(MicroSeconds(10), [t]() { t->OnAck(2, false, MicroSeconds(9)); });
        At(MicroSeconds(85), [t, this]() {
            NS_TEST_EXPECT_MSG_EQ(t->GetMaxRecentRtt(), MicroSeconds(20), "kept through silence");
            t->OnTimeout();
            NS_TEST_EXPECT_MSG_EQ(t->IsFrozen(), false, "congested window: no freeze");
        });
        At(MicroSeconds(90), [t, this]() {
            t->OnAck(3, false, MicroSeconds(9));
            NS_TEST_EXPECT_MSG_EQ(t->GetMaxRecentRtt(), MicroSeconds(9), "a new window");
            t->OnTimeout();
            NS_TEST_EXPECT_MSG_EQ(t->IsFrozen(), true, "low RTTs: a timeout must freeze");
        });
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(t->GetFreezeCount(), 1, "one freeze with the tumbling window");
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * A connection that stays silent for seconds after its freeze still leaves freezing on its
 * next ACK (the core keeps only 32 bits of the freeze end), and the exploration variant
 * attribute changes which exploration packets are random.
 */
class RepsLongIdleAndVariantTestCase : public TestCase
{
  public:
    RepsLongIdleAndVariantTestCase()
        : TestCase("REPS: exit after a long silence; ExplorationVariant")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<RepsPathSelector> s = MakeReps(MilliSeconds(1));
        s->Start(Context(true));
        At(MicroSeconds(1), [s]() { s->OnTimeout(); });
        // 3 s is more than 2^31 ns after the freeze end: a 32-bit serial comparison alone fails.
        At(Seconds(3), [s, this]() {
            NS_TEST_EXPECT_MSG_EQ(s->IsFrozen(), true, "frozen until an ACK");
            s->OnAck(1, false, MicroSeconds(9));
            NS_TEST_EXPECT_MSG_EQ(s->IsFrozen(), false, "still frozen 3 s after the freeze");
        });
        Simulator::Run();
        Simulator::Destroy();

        for (auto variant :
             {RepsPathSelector::EXPLORE_ALL_RANDOM, RepsPathSelector::EXPLORE_EVERY_EIGHTH})
        {
            Ptr<RepsPathSelector> v = MakeReps(MicroSeconds(10));
            v->SetAttribute("ExplorationVariant", EnumValue(variant));
            PathSelectorContext ctx = Context(true);
            ctx.bdpPackets = 16;
            v->Start(ctx);
            v->OnTimeout();
            Simulator::Schedule(MicroSeconds(10), [v]() {
                v->OnAck(5, false, MicroSeconds(9));
                for (int i = 0; i < 16; ++i)
                {
                    v->NextEntropy(false);
                }
            });
            Simulator::Run();
            uint64_t explored = v->GetChoiceCount(PathSelector::EXPLORE);
            uint64_t expected = (variant == RepsPathSelector::EXPLORE_ALL_RANDOM) ? 16 : 2;
            NS_TEST_ASSERT_MSG_EQ(explored,
                                  expected,
                                  "random packets in a 16-packet exploration window");
            Simulator::Destroy();
        }
    }
};

/**
 * \ingroup reps-test
 * The same stream and run number reproduce the EV sequence of every selector bit for bit;
 * another run number changes it.
 */
class SelectorsSeedTestCase : public TestCase
{
  public:
    SelectorsSeedTestCase()
        : TestCase("Every selector: same run same EVs, other RngRun other EVs")
    {
    }

  private:
    /**
     * \param tid the selector
     * \param run the run number
     * \return the EVs of 200 packets under scripted feedback
     */
    static std::vector<uint16_t> Sequence(std::string tid, uint64_t run)
    {
        RngSeedManager::SetRun(run);
        ObjectFactory factory(tid);
        factory.Set("EntropySpace", UintegerValue(4096));
        Ptr<PathSelector> s = factory.Create<PathSelector>();
        s->AssignStreams(5);
        s->Start(Context(true));
        std::vector<uint16_t> evs;
        for (int i = 0; i < 200; ++i)
        {
            Simulator::Schedule(MicroSeconds(i * (i % 7 == 0 ? 30 : 1)), [s, &evs, i]() {
                uint16_t ev = s->NextEntropy(false);
                evs.push_back(ev);
                s->OnAck(ev, i % 3 == 0, MicroSeconds(9));
                if (i % 50 == 49)
                {
                    s->OnTimeout();
                }
            });
        }
        Simulator::Run();
        Simulator::Destroy();
        return evs;
    }

    void DoRun() override
    {
        uint64_t oldRun = RngSeedManager::GetRun();
        for (std::string tid : {"ns3::OpsPathSelector",
                                "ns3::FlowletPathSelector",
                                "ns3::RepsPathSelector",
                                "ns3::MpPathSelector",
                                "ns3::PlbPathSelector",
                                "ns3::BitmapPathSelector",
                                "ns3::MprdmaPathSelector",
                                "ns3::MrcPathSelector"})
        {
            std::vector<uint16_t> a = Sequence(tid, 1);
            std::vector<uint16_t> b = Sequence(tid, 1);
            std::vector<uint16_t> c = Sequence(tid, 2);
            NS_TEST_ASSERT_MSG_EQ(a.size(), 200, tid << ": one EV per packet");
            NS_TEST_ASSERT_MSG_EQ((a == b), true, tid << ": same run, different EVs");
            NS_TEST_ASSERT_MSG_EQ((a != c), true, tid << ": other run, same EVs");
        }
        RngSeedManager::SetRun(oldRun);
    }
};

/**
 * \ingroup reps-test
 * Out-of-range attributes are refused, and the configuration check names the attribute and
 * its allowed range.
 */
class SelectorsBadAttributesTestCase : public TestCase
{
  public:
    SelectorsBadAttributesTestCase()
        : TestCase("Selectors refuse out-of-range attributes with a clear message")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<RepsPathSelector> s = CreateObject<RepsPathSelector>();
        NS_TEST_ASSERT_MSG_EQ(s->SetAttributeFailSafe("EntropySpace", UintegerValue(0)),
                              false,
                              "EntropySpace 0 accepted");
        NS_TEST_ASSERT_MSG_EQ(s->SetAttributeFailSafe("EntropySpace", UintegerValue(65537)),
                              false,
                              "EntropySpace 65537 accepted");
        NS_TEST_ASSERT_MSG_EQ(s->SetAttributeFailSafe("BufferSize", UintegerValue(0)),
                              false,
                              "BufferSize 0 accepted");
        NS_TEST_ASSERT_MSG_EQ(s->SetAttributeFailSafe("BufferSize", UintegerValue(33)),
                              false,
                              "BufferSize 33 accepted");
        NS_TEST_ASSERT_MSG_EQ(s->SetAttributeFailSafe("BufferSize", UintegerValue(32)),
                              true,
                              "BufferSize 32 refused");
        NS_TEST_ASSERT_MSG_EQ(s->SetAttributeFailSafe("FreezeDuration", TimeValue(Time(0))),
                              false,
                              "FreezeDuration 0 accepted");
        NS_TEST_ASSERT_MSG_EQ(s->SetAttributeFailSafe("FreezeDuration", TimeValue(Seconds(2))),
                              false,
                              "FreezeDuration 2 s accepted (beyond the core's 32-bit clock)");
        NS_TEST_ASSERT_MSG_EQ(s->SetAttributeFailSafe("RttThresholdFactor", DoubleValue(0.5)),
                              false,
                              "RttThresholdFactor 0.5 accepted");
        Ptr<FlowletPathSelector> f = CreateObject<FlowletPathSelector>();
        NS_TEST_ASSERT_MSG_EQ(
            f->SetAttributeFailSafe("FlowletTimeout", TimeValue(MicroSeconds(-1))),
            false,
            "negative FlowletTimeout accepted");

        NS_TEST_ASSERT_MSG_EQ(RepsPathSelector::CheckAttributes(8, MilliSeconds(10), 1.65, Time(0)),
                              "",
                              "the defaults must be valid");
        std::string msg = RepsPathSelector::CheckAttributes(0, MilliSeconds(10), 1.65, Time(0));
        NS_TEST_ASSERT_MSG_NE(msg.find("BufferSize"), std::string::npos, msg);
        NS_TEST_ASSERT_MSG_NE(msg.find("[1, 32]"), std::string::npos, msg);
        msg = RepsPathSelector::CheckAttributes(8, Time(0), 1.65, Time(0));
        NS_TEST_ASSERT_MSG_NE(msg.find("FreezeDuration"), std::string::npos, msg);
        msg = RepsPathSelector::CheckAttributes(8, MilliSeconds(1), 0.9, Time(0));
        NS_TEST_ASSERT_MSG_NE(msg.find("RttThresholdFactor"), std::string::npos, msg);
        msg = RepsPathSelector::CheckAttributes(8, MilliSeconds(1), 1.65, MicroSeconds(-1));
        NS_TEST_ASSERT_MSG_NE(msg.find("MaxRttWindow"), std::string::npos, msg);
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * MP uses Paths distinct EVs in a fixed round robin.
 */
class MpRoundRobinTestCase : public TestCase
{
  public:
    MpRoundRobinTestCase()
        : TestCase("MP: round robin over a fixed set of distinct EVs")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<MpPathSelector> s = CreateObject<MpPathSelector>();
        s->SetAttribute("Paths", UintegerValue(4));
        s->AssignStreams(2);
        SelectorLog log;
        log.Connect(s);
        s->Start(Context(false));
        for (int i = 0; i < 12; ++i)
        {
            uint16_t ev = s->NextEntropy(i % 3 == 0);
            s->OnAck(ev, i % 2 == 0, MicroSeconds(9));
            s->OnTimeout();
        }
        std::set<uint16_t> distinct(log.evs.begin(), log.evs.begin() + 4);
        NS_TEST_ASSERT_MSG_EQ(distinct.size(), 4, "the 4 EVs must be distinct");
        for (std::size_t i = 4; i < log.evs.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(log.evs[i], log.evs[i - 4], "not a round robin of period 4");
        }
        NS_TEST_ASSERT_MSG_EQ(log.Count(PathSelector::ROUND_ROBIN), 12, "reason 'round-robin'");

        // As many paths as EVs: every EV of the space, once.
        Ptr<MpPathSelector> all = CreateObject<MpPathSelector>();
        all->SetAttribute("Paths", UintegerValue(8));
        all->SetAttribute("EntropySpace", UintegerValue(8));
        all->SetAttribute("EntropyBase", UintegerValue(10));
        all->Start(Context(false));
        std::set<uint16_t> evs(all->GetEntropies().begin(), all->GetEntropies().end());
        NS_TEST_ASSERT_MSG_EQ((evs == std::set<uint16_t>{10, 11, 12, 13, 14, 15, 16, 17}),
                              true,
                              "8 paths over 8 EVs must use each EV once");

        NS_TEST_ASSERT_MSG_EQ(s->SetAttributeFailSafe("Paths", UintegerValue(0)),
                              false,
                              "Paths 0 accepted");
        NS_TEST_ASSERT_MSG_EQ(s->SetAttributeFailSafe("Paths", UintegerValue(257)),
                              false,
                              "Paths 257 accepted");
        NS_TEST_ASSERT_MSG_EQ(MpPathSelector::CheckAttributes(8, 65536), "", "defaults valid");
        std::string msg = MpPathSelector::CheckAttributes(16, 8);
        NS_TEST_ASSERT_MSG_NE(msg.find("Paths"), std::string::npos, msg);
        NS_TEST_ASSERT_MSG_NE(msg.find("EntropySpace"), std::string::npos, msg);
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * PLB keeps its EV until CongestedRounds consecutive rounds have more than MarkThreshold of
 * their ACKs marked, or until a timeout.
 */
class PlbRepathTestCase : public TestCase
{
  public:
    PlbRepathTestCase()
        : TestCase("PLB: re-path after K congested rounds in a row or on a timeout")
    {
    }

  private:
    std::vector<Time> m_repathTimes;   //!< When the Repath trace fired.
    std::vector<bool> m_repathTimeout; //!< Its timeout argument.

    /**
     * Repath trace sink.
     * \param oldEv old EV
     * \param newEv new EV
     * \param timeout caused by a timeout
     */
    void Repath(uint16_t oldEv, uint16_t newEv, bool timeout)
    {
        NS_TEST_EXPECT_MSG_NE(oldEv, newEv, "a re-path must change the EV");
        m_repathTimes.push_back(Simulator::Now());
        m_repathTimeout.push_back(timeout);
    }

    void DoRun() override
    {
        Ptr<PlbPathSelector> s = CreateObject<PlbPathSelector>();
        s->SetAttribute("CongestedRounds", UintegerValue(3));
        s->AssignStreams(4);
        SelectorLog log;
        log.Connect(s);
        s->TraceConnectWithoutContext("Repath", MakeCallback(&PlbRepathTestCase::Repath, this));
        PathSelectorContext ctx = Context(false);
        ctx.baseRtt = MicroSeconds(4);
        s->Start(ctx);
        // One packet and one ACK (RTT 7 us) per microsecond: round k holds the ACKs of
        // 8k .. 8k + 7 us, of which the first marks[k] are ECN-marked.
        const std::vector<uint32_t> marks = {4, 4, 2, 3, 3, 3, 8, 8, 8, 8};
        for (uint32_t t = 0; t < 80; ++t)
        {
            bool marked = (t % 8) < marks[t / 8];
            Simulator::Schedule(MicroSeconds(t), [s, t, marked]() {
                uint16_t ev = s->NextEntropy(false);
                if (t == 64)
                {
                    s->OnTimeout();
                }
                s->OnAck(ev, marked, MicroSeconds(7));
            });
        }
        Simulator::Run();
        // Rounds 0-1 congested (50%), 2 not (25% is not more than 25%), 3-5 congested: re-path
        // at the end of round 5 (47 us). Rounds 6-7 congested, then a timeout at 64 us resets
        // the count: the two congested rounds after it (64-79 us) do not re-path.
        NS_TEST_ASSERT_MSG_EQ(
            (m_repathTimes == std::vector<Time>{MicroSeconds(47), MicroSeconds(64)}),
            true,
            "re-paths expected at 47 us (congestion) and 64 us (timeout)");
        NS_TEST_ASSERT_MSG_EQ((m_repathTimeout == std::vector<bool>{false, true}),
                              true,
                              "causes of the re-paths");
        NS_TEST_ASSERT_MSG_EQ(s->GetRepathCount(), 2, "re-path counter");
        NS_TEST_ASSERT_MSG_EQ(s->GetRoundCount(), 10, "rounds 0-7, 64-71 us and 72-79 us");
        NS_TEST_ASSERT_MSG_EQ(log.evs.size(), 80, "one EV per packet");
        for (std::size_t i = 1; i < log.evs.size(); ++i)
        {
            // Packet i is sent at i us, before its ACK; a re-path at 47 us shows at 48 us,
            // the one at 64 us (before that ACK) at 65 us.
            bool repath = (i == 48 || i == 65);
            const std::string expected = repath ? "random" : "fixed";
            NS_TEST_ASSERT_MSG_EQ(PathSelector::ChoiceName(log.reasons[i]),
                                  expected,
                                  "packet " << i);
            NS_TEST_ASSERT_MSG_EQ((log.evs[i] != log.evs[i - 1]), repath, "packet " << i);
        }
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * Bitmap spraying avoids an EV penalized by a NACK, a loss or ECN-marked ACKs until its
 * penalty has decayed to the level of the other EVs, and then uses it again.
 */
class BitmapPenaltyTestCase : public TestCase
{
  public:
    BitmapPenaltyTestCase()
        : TestCase("Bitmap: a penalized EV is avoided until its penalty decays")
    {
    }

  private:
    std::vector<uint32_t> m_traced; //!< Penalties traced.

    /**
     * Penalty sink.
     * \param ev the EV
     * \param penalty its penalty
     */
    void Penalty(uint16_t ev, uint8_t penalty)
    {
        m_traced.push_back(penalty);
    }

    void DoRun() override
    {
        Ptr<BitmapPathSelector> s = CreateObject<BitmapPathSelector>();
        s->SetAttribute("Paths", UintegerValue(4));
        s->SetAttribute("MaxPenalty", UintegerValue(3));
        s->SetAttribute("DropPenalty", UintegerValue(3));
        s->SetAttribute("EcnPenalty", UintegerValue(1));
        s->SetAttribute("DecayRtts", DoubleValue(1.0)); // 8 us
        s->AssignStreams(3);
        s->TraceConnectWithoutContext("Penalty",
                                      MakeCallback(&BitmapPenaltyTestCase::Penalty, this));
        SelectorLog log;
        log.Connect(s);
        s->Start(Context(false));
        const std::vector<uint16_t> evs = s->GetEntropies();
        NS_TEST_ASSERT_MSG_EQ(std::set<uint16_t>(evs.begin(), evs.end()).size(), 4, "4 distinct");
        const uint16_t bad = evs[1];
        const uint16_t marked = evs[2];
        // t = 1 us: a NACK on 'bad' (penalty 3), two marked ACKs on 'marked' (penalty 2).
        // Penalties drop by one at 8, 16 and 24 us.
        std::vector<std::set<uint16_t>> used(4); // EVs used in [0,8), [8,16), [16,24), [24,32)
        At(MicroSeconds(1), [s, bad, marked]() {
            s->OnNack(bad);
            s->OnAck(marked, true, MicroSeconds(9));
            s->OnAck(marked, true, MicroSeconds(9));
            s->OnAck(bad, false, MicroSeconds(9)); // unmarked ACKs clear nothing
        });
        for (int i = 0; i < 300; ++i)
        {
            Time t = NanoSeconds(1100 + 100 * i); // 1.1 us to 31 us
            At(t,
               [s, &used, t]() { used[t.GetNanoSeconds() / 8000].insert(s->NextEntropy(false)); });
        }
        At(MicroSeconds(4), [this, s, bad, marked]() {
            NS_TEST_EXPECT_MSG_EQ(s->GetPenalty(bad), 3, "NACK penalty");
            NS_TEST_EXPECT_MSG_EQ(s->GetPenalty(marked), 2, "two marked ACKs");
            NS_TEST_EXPECT_MSG_EQ(s->GetPenalizedEntropyCount(), 2, "two EVs penalized");
        });
        At(MicroSeconds(20), [this, s, bad, marked]() {
            NS_TEST_EXPECT_MSG_EQ(s->GetPenalty(bad), 1, "decayed twice");
            NS_TEST_EXPECT_MSG_EQ(s->GetPenalty(marked), 0, "decayed to zero");
        });
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(used[0].count(bad) + used[0].count(marked), 0, "penalized EV used");
        NS_TEST_ASSERT_MSG_EQ(used[0].size(), 2, "the two clean EVs must be used");
        NS_TEST_ASSERT_MSG_EQ(used[1].count(bad) + used[1].count(marked), 0, "penalized EV used");
        NS_TEST_ASSERT_MSG_EQ(used[2].count(bad), 0, "'bad' used before its penalty decayed");
        NS_TEST_ASSERT_MSG_EQ(used[2].count(marked), 1, "'marked' not used once clean");
        NS_TEST_ASSERT_MSG_EQ(used[3].size(), 4, "all EVs again once every penalty decayed");
        NS_TEST_ASSERT_MSG_EQ((m_traced == std::vector<uint32_t>{3, 1, 2}), true, "Penalty trace");
        NS_TEST_ASSERT_MSG_EQ(s->GetPenaltyEventCount(), 3, "penalizing events");
        NS_TEST_ASSERT_MSG_EQ(s->GetPacketCount(), 300, "packets");
        // Penalized from 1 us to 24 us: packets sent from 1.1 us to 23.9 us.
        NS_TEST_ASSERT_MSG_EQ(s->GetAvoidingCount(), 229, "packets sent while avoiding");
        NS_TEST_ASSERT_MSG_EQ(log.Count(PathSelector::RANDOM), 300, "reason 'random'");

        // A loss saturates at MaxPenalty; everything penalized: the least penalized wins.
        s->OnLoss(evs[0]);
        s->OnLoss(evs[0]);
        NS_TEST_ASSERT_MSG_EQ(s->GetPenalty(evs[0]), 3, "saturates at MaxPenalty");
        for (uint16_t ev : evs)
        {
            s->OnAck(ev, true, MicroSeconds(9));
        }
        NS_TEST_ASSERT_MSG_EQ(s->GetPenalizedEntropyCount(), 4, "all penalized");
        for (int i = 0; i < 20; ++i)
        {
            NS_TEST_ASSERT_MSG_NE(s->NextEntropy(true), evs[0], "the most penalized EV used");
        }

        NS_TEST_ASSERT_MSG_EQ(s->SetAttributeFailSafe("Paths", UintegerValue(0)),
                              false,
                              "Paths 0 accepted");
        NS_TEST_ASSERT_MSG_EQ(s->SetAttributeFailSafe("Paths", UintegerValue(1025)),
                              false,
                              "Paths 1025 accepted");
        NS_TEST_ASSERT_MSG_EQ(s->SetAttributeFailSafe("MaxPenalty", UintegerValue(0)),
                              false,
                              "MaxPenalty 0 accepted");
        NS_TEST_ASSERT_MSG_EQ(s->SetAttributeFailSafe("DecayRtts", DoubleValue(0)),
                              false,
                              "DecayRtts 0 accepted");
        NS_TEST_ASSERT_MSG_EQ(BitmapPathSelector::CheckAttributes(64, 65536, 4, 1.0),
                              "",
                              "defaults valid");
        std::string msg = BitmapPathSelector::CheckAttributes(64, 32, 4, 1.0);
        NS_TEST_ASSERT_MSG_NE(msg.find("Paths"), std::string::npos, msg);
        NS_TEST_ASSERT_MSG_NE(msg.find("EntropySpace"), std::string::npos, msg);
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * Order = Sweep (the Ultra Ethernet simulator's bitmap): each round uses every EV once in a
 * permuted order; a penalized EV is skipped once per round, losing a point each time, however
 * much time passes; a Paths that is not a power of two is refused.
 */
class BitmapSweepTestCase : public TestCase
{
  public:
    BitmapSweepTestCase()
        : TestCase("Bitmap, Order = Sweep: rounds of every EV; a penalty lasts rounds, not time")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<BitmapPathSelector> s = CreateObject<BitmapPathSelector>();
        s->SetAttribute("Paths", UintegerValue(8));
        s->SetAttribute("MaxPenalty", UintegerValue(15));
        s->SetAttribute("DropPenalty", UintegerValue(4));
        s->SetAttribute("Order", StringValue("Sweep"));
        s->AssignStreams(5);
        s->Start(Context(false));
        const std::vector<uint16_t> evs = s->GetEntropies();
        const std::set<uint16_t> all(evs.begin(), evs.end());
        NS_TEST_ASSERT_MSG_EQ(all.size(), 8, "8 distinct EVs");
        std::vector<uint16_t> first;
        std::vector<uint16_t> second;
        for (int i = 0; i < 8; ++i)
        {
            first.push_back(s->NextEntropy(false));
        }
        for (int i = 0; i < 8; ++i)
        {
            second.push_back(s->NextEntropy(false));
        }
        NS_TEST_ASSERT_MSG_EQ((std::set<uint16_t>(first.begin(), first.end()) == all),
                              true,
                              "a round must use every EV once");
        NS_TEST_ASSERT_MSG_EQ((std::set<uint16_t>(second.begin(), second.end()) == all),
                              true,
                              "the next round too");
        // A NACK (penalty 4) at a round's start: the EV is skipped in the next 4 rounds (7
        // packets each), whatever the time, then used again.
        const uint16_t bad = first[3];
        s->OnNack(bad);
        NS_TEST_ASSERT_MSG_EQ(s->GetPenalty(bad), 4, "NACK penalty");
        std::vector<uint16_t> later;
        for (int i = 0; i < 28; ++i)
        {
            At(MilliSeconds(1 + i), [s, &later]() { later.push_back(s->NextEntropy(false)); });
        }
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(std::count(later.begin(), later.end(), bad), 0, "penalized EV used");
        for (uint16_t ev : all)
        {
            if (ev != bad)
            {
                NS_TEST_ASSERT_MSG_EQ(std::count(later.begin(), later.end(), ev),
                                      4,
                                      "each clean EV once per round");
            }
        }
        std::set<uint16_t> next;
        for (int i = 0; i < 8; ++i)
        {
            next.insert(s->NextEntropy(false));
        }
        NS_TEST_ASSERT_MSG_EQ((next == all), true, "the EV must be back once its penalty is 0");
        NS_TEST_ASSERT_MSG_EQ(s->GetPenalty(bad), 0, "one point off per round skipped");
        // Time alone does not lift a penalty.
        s->OnAck(bad, true, MicroSeconds(9));
        At(Seconds(1), []() {});
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(s->GetPenalty(bad), 1, "a penalty must not decay with time");
        // Every EV penalized: each packet still gets an EV and takes one point off one EV.
        for (uint16_t ev : all)
        {
            s->OnLoss(ev);
        }
        uint32_t before = 0;
        for (uint16_t ev : all)
        {
            before += s->GetPenalty(ev);
        }
        s->NextEntropy(true);
        uint32_t after = 0;
        for (uint16_t ev : all)
        {
            after += s->GetPenalty(ev);
        }
        NS_TEST_ASSERT_MSG_EQ(after, before - 1, "one point off per packet");

        std::string msg =
            BitmapPathSelector::CheckAttributes(6, 65536, 15, 1.0, BitmapPathSelector::SWEEP);
        NS_TEST_ASSERT_MSG_NE(msg.find("power of two"), std::string::npos, msg);
        NS_TEST_ASSERT_MSG_EQ(
            BitmapPathSelector::CheckAttributes(6,
                                                65536,
                                                15,
                                                1.0,
                                                BitmapPathSelector::LEAST_PENALIZED),
            "",
            "Random takes any Paths");
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * With nothing penalized, bitmap spraying uses all of its Paths EVs uniformly (chi-square over
 * 16 EVs), and the same stream gives the same EVs, also when assigned after Start().
 */
class BitmapCoverageTestCase : public TestCase
{
  public:
    BitmapCoverageTestCase()
        : TestCase("Bitmap: uniform over all its EVs while nothing is penalized")
    {
    }

  private:
    /**
     * \param stream the first stream
     * \return the EVs of 3200 packets with unmarked feedback
     */
    static std::vector<uint16_t> Sequence(int64_t stream)
    {
        Ptr<BitmapPathSelector> s = CreateObject<BitmapPathSelector>();
        s->SetAttribute("Paths", UintegerValue(16));
        s->AssignStreams(stream);
        s->Start(Context(false));
        std::vector<uint16_t> out;
        for (int i = 0; i < 3200; ++i)
        {
            uint16_t ev = s->NextEntropy(false);
            s->OnAck(ev, false, MicroSeconds(9));
            out.push_back(ev);
        }
        return out;
    }

    void DoRun() override
    {
        std::vector<uint16_t> a = Sequence(11);
        std::map<uint16_t, uint32_t> counts;
        for (uint16_t ev : a)
        {
            ++counts[ev];
        }
        NS_TEST_ASSERT_MSG_EQ(counts.size(), 16, "every one of the 16 EVs must be used");
        double chi2 = 0;
        const double expected = 3200.0 / 16;
        for (auto& c : counts)
        {
            chi2 += (c.second - expected) * (c.second - expected) / expected;
        }
        // 15 degrees of freedom: P(chi2 > 37.7) = 0.001.
        NS_TEST_ASSERT_MSG_LT(chi2, 37.7, "EVs not uniform");
        NS_TEST_ASSERT_MSG_EQ((a == Sequence(11)), true, "same stream, other EVs");
        NS_TEST_ASSERT_MSG_EQ((a != Sequence(12)), true, "other stream, same EVs");

        // Helpers assign streams after the queue pair started its selector: the set must still
        // come from the assigned stream.
        Ptr<BitmapPathSelector> late = CreateObject<BitmapPathSelector>();
        late->Start(Context(false));
        late->AssignStreams(30);
        Ptr<BitmapPathSelector> early = CreateObject<BitmapPathSelector>();
        early->AssignStreams(30);
        early->Start(Context(false));
        NS_TEST_ASSERT_MSG_EQ((late->GetEntropies() == early->GetEntropies()),
                              true,
                              "the EV set must come from the stream assigned after Start()");
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * MPRDMA-style reuse: the packet after an unmarked ACK takes exactly that ACK's EV, once; a
 * marked ACK, a NACK or loss of the pending EV, or a timeout leaves nothing pending, and with
 * nothing pending the EV is random.
 */
class MprdmaReuseTestCase : public TestCase
{
  public:
    MprdmaReuseTestCase()
        : TestCase("MPRDMA: reuse the EV of the last unmarked ACK, random otherwise")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<MprdmaPathSelector> s = CreateObject<MprdmaPathSelector>();
        s->AssignStreams(4);
        SelectorLog log;
        log.Connect(s);
        s->Start(Context(false));
        uint32_t reused = 0;
        uint32_t markedReused = 0;
        uint32_t randoms = 0;
        std::set<uint16_t> randomEvs;
        uint16_t last = s->NextEntropy(false);
        for (int i = 0; i < 400; ++i)
        {
            // Feedback pattern: i % 4 == 0 unmarked then marked; i % 4 == 1 two unmarked ACKs (the
            // second one wins); i % 4 == 2 unmarked then NACK of it; i % 4 == 3 unmarked.
            uint16_t expect = 0;
            bool pending = false;
            switch (i % 4)
            {
            case 0:
                s->OnAck(2000, false, MicroSeconds(9)); // superseded by the marked ACK
                s->OnAck(last, true, MicroSeconds(9));
                break;
            case 1:
                s->OnAck(1000, false, MicroSeconds(9));
                s->OnAck(last, false, MicroSeconds(9));
                expect = last;
                pending = true;
                break;
            case 2:
                s->OnAck(last, false, MicroSeconds(9));
                s->OnNack(last);
                break;
            case 3:
                s->OnAck(last, false, MicroSeconds(9));
                if (i % 8 == 7)
                {
                    s->OnTimeout();
                }
                else
                {
                    expect = last;
                    pending = true;
                }
                break;
            }
            NS_TEST_ASSERT_MSG_EQ(s->HasPending(), pending, "pending state at packet " << i);
            uint16_t prev = last;
            last = s->NextEntropy(i % 5 == 0);
            if (pending)
            {
                NS_TEST_ASSERT_MSG_EQ(last, expect, "not the EV of the last unmarked ACK");
                NS_TEST_ASSERT_MSG_EQ(log.reasons.back(), PathSelector::RECYCLED, "reason");
                ++reused;
            }
            else
            {
                NS_TEST_ASSERT_MSG_EQ(log.reasons.back(), PathSelector::RANDOM, "reason");
                markedReused += (i % 4 == 0 && last == prev);
                randomEvs.insert(last);
                ++randoms;
            }
            NS_TEST_ASSERT_MSG_EQ(s->HasPending(), false, "a pending EV is used once");
        }
        NS_TEST_ASSERT_MSG_EQ(reused, 150, "reuses");
        NS_TEST_ASSERT_MSG_EQ(markedReused, 0, "an ECN-marked EV was reused");
        NS_TEST_ASSERT_MSG_GT(randomEvs.size(), randoms - 6, "random EVs should rarely repeat");
        NS_TEST_ASSERT_MSG_EQ(s->GetRecycledCount(), 150, "recycled counter");
        NS_TEST_ASSERT_MSG_EQ(s->GetPacketCount(), 401, "packet counter");
        NS_TEST_ASSERT_MSG_EQ(s->GetMarkedAckCount(), 100, "marked ACK counter");
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * The OPS, flowlet, REPS, MP and PLB path selectors.
 */
class RepsSelectorsTestSuite : public TestSuite
{
  public:
    RepsSelectorsTestSuite()
        : TestSuite("reps-selectors", TestSuite::Type::UNIT)
    {
        AddTestCase(new OpsUniformTestCase, reps::kQuick);
        AddTestCase(new OpsDeckTestCase, reps::kQuick);
        AddTestCase(new RepsFreezeExitFeedbackTestCase, reps::kQuick);
        AddTestCase(new FlowletGapTestCase, reps::kQuick);
        AddTestCase(new RepsRecyclingTracesTestCase, reps::kQuick);
        AddTestCase(new RepsFreezeTrimmingTestCase, reps::kQuick);
        AddTestCase(new RepsFreezeRttRuleTestCase, reps::kQuick);
        AddTestCase(new RepsLongIdleAndVariantTestCase, reps::kQuick);
        AddTestCase(new SelectorsSeedTestCase, reps::kQuick);
        AddTestCase(new SelectorsBadAttributesTestCase, reps::kQuick);
        AddTestCase(new MpRoundRobinTestCase, reps::kQuick);
        AddTestCase(new PlbRepathTestCase, reps::kQuick);
        AddTestCase(new BitmapPenaltyTestCase, reps::kQuick);
        AddTestCase(new BitmapCoverageTestCase, reps::kQuick);
        AddTestCase(new BitmapSweepTestCase, reps::kQuick);
        AddTestCase(new MprdmaReuseTestCase, reps::kQuick);
    }
};

/// The one instance of the suite.
static RepsSelectorsTestSuite g_repsSelectorsTestSuite;
