/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "reps-test-compat.h"

#include "ns3/core-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/reps-module.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

using namespace ns3;

/**
 * \file
 * \ingroup reps-test
 * The MRC-style multipath selector (MrcPathSelector): its path state machine step by step on
 * scripted feedback (each transition and threshold, probes, denial and replacement,
 * retransmissions on another path, the even spread over planes, the plane rule),
 * reproducibility, attribute checks, and a fabric run with a blackholed leaf uplink where it moves
 * its traffic off the dead paths and every byte arrives exactly once.
 */

namespace
{

/// What an MRC selector reports through its traces and its probe hook.
struct MrcLog
{
    std::vector<uint16_t> evs; //!< EVs chosen.
    std::vector<bool> retx;    //!< Retransmissions.
    std::vector<std::tuple<uint16_t, MrcPathSelector::PathState, MrcPathSelector::PathState>>
        changes;                                         //!< State changes.
    std::vector<std::pair<uint16_t, uint16_t>> replaced; //!< PathReplaced.
    std::vector<std::pair<Time, uint16_t>> probes;       //!< Probes asked for.

    /**
     * EntropyChosen sink.
     * \param ev the EV
     * \param why the reason
     * \param r whether it is a retransmission
     */
    void Chosen(uint16_t ev, PathSelector::Choice why, bool r)
    {
        evs.push_back(ev);
        retx.push_back(r);
    }

    /**
     * PathStateChanged sink.
     * \param ev the EV
     * \param from old state
     * \param to new state
     */
    void Changed(uint16_t ev, MrcPathSelector::PathState from, MrcPathSelector::PathState to)
    {
        changes.emplace_back(ev, from, to);
    }

    /**
     * PathReplaced sink.
     * \param denied the retired EV
     * \param fresh its replacement
     */
    void Replaced(uint16_t denied, uint16_t fresh)
    {
        replaced.emplace_back(denied, fresh);
    }

    /**
     * Probe hook.
     * \param ev the probed EV
     */
    void Probe(uint16_t ev)
    {
        probes.emplace_back(Simulator::Now(), ev);
    }

    /**
     * Connect the traces and the probe hook.
     * \param s the selector
     */
    void Connect(Ptr<MrcPathSelector> s)
    {
        s->TraceConnectWithoutContext("EntropyChosen", MakeCallback(&MrcLog::Chosen, this));
        s->TraceConnectWithoutContext("PathStateChanged", MakeCallback(&MrcLog::Changed, this));
        s->TraceConnectWithoutContext("PathReplaced", MakeCallback(&MrcLog::Replaced, this));
        s->SetProbeCallback(MakeCallback(&MrcLog::Probe, this));
    }

    /**
     * \param ev an EV
     * \return the probes asked for it
     */
    uint32_t ProbesOf(uint16_t ev) const
    {
        uint32_t n = 0;
        for (const auto& p : probes)
        {
            n += p.second == ev;
        }
        return n;
    }
};

/**
 * \param planes the number of planes
 * \return the context of a connection: base RTT 8 us, RTO 40 us, BDP 4 packets.
 */
PathSelectorContext
Context(uint32_t planes = 1)
{
    PathSelectorContext ctx;
    ctx.baseRtt = MicroSeconds(8);
    ctx.rto = MicroSeconds(40);
    ctx.bdpPackets = 4;
    ctx.planes = planes;
    return ctx;
}

/**
 * \param paths PathCount
 * \return an MRC selector with its stream fixed, not started
 */
Ptr<MrcPathSelector>
MakeMrc(uint32_t paths)
{
    Ptr<MrcPathSelector> s = CreateObject<MrcPathSelector>();
    s->SetAttribute("PathCount", UintegerValue(paths));
    s->AssignStreams(11);
    return s;
}

/**
 * \param s a selector
 * \param ev an EV of its set
 * \return its state
 */
MrcPathSelector::PathState
StateOf(Ptr<MrcPathSelector> s, uint16_t ev)
{
    MrcPathSelector::PathState state = MrcPathSelector::GOOD;
    bool found = s->GetState(ev, state);
    NS_ASSERT_MSG(found, "ev " << ev << " unknown");
    return state;
}

/**
 * \param s a selector
 * \param n packets
 * \param retx whether they are retransmissions
 * \return the EVs of n packets
 */
std::vector<uint16_t>
Send(Ptr<MrcPathSelector> s, uint32_t n, bool retx = false)
{
    std::vector<uint16_t> evs;
    for (uint32_t i = 0; i < n; ++i)
    {
        evs.push_back(s->NextEntropy(retx));
    }
    return evs;
}

} // namespace

/**
 * \ingroup reps-test
 * Without feedback MRC sprays round robin over PathCount distinct EVs; over 2 and 4 planes
 * every plane holds the same number of EVs and consecutive packets leave on consecutive
 * planes; a PathCount that is not a multiple of the planes is rounded up.
 */
class MrcSprayTestCase : public TestCase
{
  public:
    MrcSprayTestCase()
        : TestCase("MRC: round robin over distinct EVs, even over planes")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<MrcPathSelector> s = MakeMrc(16);
        s->Start(Context());
        std::vector<uint16_t> evs = Send(s, 48);
        std::set<uint16_t> distinct(evs.begin(), evs.begin() + 16);
        NS_TEST_ASSERT_MSG_EQ(distinct.size(), 16, "16 distinct EVs");
        for (std::size_t i = 16; i < evs.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(evs[i], evs[i - 16], "round robin of period 16");
        }
        NS_TEST_ASSERT_MSG_EQ(s->GetChoiceCount(PathSelector::ROUND_ROBIN), 48, "reason");
        NS_TEST_ASSERT_MSG_EQ(s->CountPaths(MrcPathSelector::GOOD), 16, "all GOOD");

        for (uint32_t planes : {2u, 4u})
        {
            Ptr<MrcPathSelector> p = MakeMrc(128);
            p->Start(Context(planes));
            std::map<uint32_t, uint32_t> perPlane;
            for (const auto& path : p->GetPaths())
            {
                ++perPlane[PathSelector::PlaneOfEntropy(path.ev, planes)];
            }
            NS_TEST_ASSERT_MSG_EQ(perPlane.size(), planes, "every plane has EVs");
            for (const auto& [plane, count] : perPlane)
            {
                NS_TEST_ASSERT_MSG_EQ(count, 128 / planes, "same count on plane " << plane);
            }
            std::vector<uint16_t> sent = Send(p, 1000);
            std::map<uint32_t, uint32_t> packets;
            for (std::size_t i = 0; i < sent.size(); ++i)
            {
                const uint32_t plane = PathSelector::PlaneOfEntropy(sent[i], planes);
                ++packets[plane];
                NS_TEST_ASSERT_MSG_EQ(plane, i % planes, "consecutive packets, consecutive planes");
            }
            for (const auto& [plane, count] : packets)
            {
                NS_TEST_ASSERT_MSG_EQ(count, 1000 / planes, "even share of plane " << plane);
            }
        }

        Ptr<MrcPathSelector> r = MakeMrc(10);
        r->Start(Context(4));
        NS_TEST_ASSERT_MSG_EQ(r->GetPaths().size(), 12, "10 paths over 4 planes: 3 per plane");

        // As many paths as the entropy space holds: every EV once.
        Ptr<MrcPathSelector> all = MakeMrc(8);
        all->SetAttribute("EntropySpace", UintegerValue(8));
        all->SetAttribute("EntropyBase", UintegerValue(100));
        all->Start(Context(2));
        std::set<uint16_t> evSet;
        for (const auto& path : all->GetPaths())
        {
            evSet.insert(path.ev);
        }
        NS_TEST_ASSERT_MSG_EQ((evSet == std::set<uint16_t>{100, 101, 102, 103, 104, 105, 106, 107}),
                              true,
                              "8 paths over 8 EVs use each once");
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * GOOD -> SKIP after EcnThreshold consecutive congestion signals (ECN marks or trim NACKs; an
 * unmarked ACK restarts the count); a SKIP path carries no data for SkipTime, then is GOOD
 * again; with every path skipped MRC still sends, on skipped paths.
 */
class MrcSkipTestCase : public TestCase
{
  public:
    MrcSkipTestCase()
        : TestCase("MRC: ECN and trim NACKs skip a path for SkipTime")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<MrcPathSelector> s = MakeMrc(4);
        s->SetAttribute("EcnThreshold", UintegerValue(2));
        s->SetAttribute("SkipTime", TimeValue(MicroSeconds(10)));
        MrcLog log;
        log.Connect(s);
        s->Start(Context());
        const std::vector<uint16_t> set = Send(s, 4);
        const uint16_t a = set[0];
        const uint16_t b = set[1];

        Simulator::Schedule(MicroSeconds(1), [&]() {
            s->OnAck(a, true, MicroSeconds(9));
            s->OnAck(a, false, MicroSeconds(9)); // restarts the count
            s->OnAck(a, true, MicroSeconds(9));
            NS_TEST_EXPECT_MSG_EQ(StateOf(s, a), MrcPathSelector::GOOD, "one mark: still GOOD");
            s->OnAck(a, true, MicroSeconds(9));
            NS_TEST_EXPECT_MSG_EQ(StateOf(s, a), MrcPathSelector::SKIP, "two in a row: SKIP");
            s->OnNack(b);
            s->OnNack(b);
            NS_TEST_EXPECT_MSG_EQ(StateOf(s, b), MrcPathSelector::SKIP, "trim NACKs count too");
            std::vector<uint16_t> evs = Send(s, 20);
            NS_TEST_EXPECT_MSG_EQ(std::count(evs.begin(), evs.end(), a), 0, "a skipped");
            NS_TEST_EXPECT_MSG_EQ(std::count(evs.begin(), evs.end(), b), 0, "b skipped");
        });
        Simulator::Schedule(NanoSeconds(10500), [&]() {
            std::vector<uint16_t> evs = Send(s, 20);
            NS_TEST_EXPECT_MSG_EQ(std::count(evs.begin(), evs.end(), a), 0, "still skipped");
        });
        Simulator::Schedule(NanoSeconds(11500), [&]() {
            std::vector<uint16_t> evs = Send(s, 8);
            NS_TEST_EXPECT_MSG_EQ(std::count(evs.begin(), evs.end(), a), 2, "a back after 10 us");
            NS_TEST_EXPECT_MSG_EQ(std::count(evs.begin(), evs.end(), b), 2, "b back");
            NS_TEST_EXPECT_MSG_EQ(StateOf(s, a), MrcPathSelector::GOOD, "a GOOD");
            // Every path skipped: data still leaves, on skipped paths.
            for (uint16_t ev : set)
            {
                s->OnAck(ev, true, MicroSeconds(9));
                s->OnAck(ev, true, MicroSeconds(9));
            }
            NS_TEST_EXPECT_MSG_EQ(s->CountPaths(MrcPathSelector::SKIP), 4, "all SKIP");
            evs = Send(s, 8);
            NS_TEST_EXPECT_MSG_EQ(evs.size(), 8, "still sends");
            NS_TEST_EXPECT_MSG_EQ(s->GetCounter("sent.skip"), 8, "on skipped paths");
        });
        Simulator::Run();

        using S = MrcPathSelector;
        const std::vector<std::tuple<uint16_t, S::PathState, S::PathState>> expected = {
            {a, S::GOOD, S::SKIP},
            {b, S::GOOD, S::SKIP},
            {a, S::SKIP, S::GOOD},
            {b, S::SKIP, S::GOOD},
        };
        NS_TEST_ASSERT_MSG_EQ((log.changes.size() >= expected.size()), true, "transitions");
        for (std::size_t i = 0; i < expected.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ((log.changes[i] == expected[i]), true, "transition " << i);
        }
        NS_TEST_EXPECT_MSG_EQ(s->GetCounter("entered.skip"), 6, "SKIP entered 6 times");
        NS_TEST_EXPECT_MSG_EQ(log.probes.size(), 0, "congestion never probes");
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * Losses: a path with a loss since its last unmarked ACK carries no retransmission while
 * another path is usable; LossThreshold losses make it ASSUMED_BAD: no data, a probe at once
 * and one every ProbeInterval; a probe reply makes it GOOD again (an ACK does not).
 */
class MrcLossProbeTestCase : public TestCase
{
  public:
    MrcLossProbeTestCase()
        : TestCase("MRC: losses make a path ASSUMED_BAD, probes bring it back")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<MrcPathSelector> s = MakeMrc(4);
        s->SetAttribute("LossThreshold", UintegerValue(2));
        s->SetAttribute("ProbeInterval", TimeValue(MicroSeconds(10)));
        MrcLog log;
        log.Connect(s);
        s->Start(Context());
        const std::vector<uint16_t> set = Send(s, 4);
        const uint16_t a = set[0];

        Simulator::Schedule(MicroSeconds(1), [&]() {
            s->OnLoss(a);
            NS_TEST_EXPECT_MSG_EQ(StateOf(s, a), MrcPathSelector::GOOD, "one loss: GOOD");
            // Retransmissions avoid the path that lost; new data still uses it.
            std::vector<uint16_t> rtx = Send(s, 12, true);
            NS_TEST_EXPECT_MSG_EQ(std::count(rtx.begin(), rtx.end(), a), 0, "retx elsewhere");
            std::vector<uint16_t> data = Send(s, 4);
            NS_TEST_EXPECT_MSG_EQ(std::count(data.begin(), data.end(), a), 1, "data still");
            s->OnAck(a, false, MicroSeconds(9)); // an unmarked ACK forgives the loss
            s->OnLoss(a);
            NS_TEST_EXPECT_MSG_EQ(StateOf(s, a), MrcPathSelector::GOOD, "count restarted");
            s->OnLoss(a);
            NS_TEST_EXPECT_MSG_EQ(StateOf(s, a),
                                  MrcPathSelector::ASSUMED_BAD,
                                  "two losses: ASSUMED_BAD");
            NS_TEST_EXPECT_MSG_EQ(log.ProbesOf(a), 1, "probed at once");
            data = Send(s, 12);
            NS_TEST_EXPECT_MSG_EQ(std::count(data.begin(), data.end(), a), 0, "no data on it");
            s->OnAck(a, false, MicroSeconds(9));
            NS_TEST_EXPECT_MSG_EQ(StateOf(s, a),
                                  MrcPathSelector::ASSUMED_BAD,
                                  "an ACK of an older packet does not bring it back");
        });
        // Rounds every 10 us while the connection sends: the probe of 1 us is judged (and
        // counted failed) at the round of 11 us, which probes again.
        for (int t = 2; t < 30; ++t)
        {
            Simulator::Schedule(MicroSeconds(t), [&]() { Send(s, 1); });
        }
        Simulator::Schedule(NanoSeconds(10500), [&]() {
            NS_TEST_EXPECT_MSG_EQ(log.ProbesOf(a), 1, "no second probe before it is judged");
            NS_TEST_EXPECT_MSG_EQ(s->GetCounter("probes.failed"), 0, "not judged yet");
        });
        Simulator::Schedule(NanoSeconds(11500), [&]() {
            NS_TEST_EXPECT_MSG_EQ(log.ProbesOf(a), 2, "probed again after an interval");
            NS_TEST_EXPECT_MSG_EQ(s->GetCounter("probes.failed"), 1, "first probe failed");
            NS_TEST_EXPECT_MSG_EQ(StateOf(s, a),
                                  MrcPathSelector::ASSUMED_BAD,
                                  "one failed probe of 3 allowed");
            s->OnProbeReply(a, MicroSeconds(8));
            NS_TEST_EXPECT_MSG_EQ(StateOf(s, a), MrcPathSelector::GOOD, "probe reply: GOOD");
            std::vector<uint16_t> data = Send(s, 4);
            NS_TEST_EXPECT_MSG_EQ(std::count(data.begin(), data.end(), a), 1, "data again");
        });
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(s->GetCounter("probes.sent"), 2, "probes sent");
        NS_TEST_EXPECT_MSG_EQ(s->GetCounter("probes.answered"), 1, "probes answered");
        NS_TEST_EXPECT_MSG_EQ(s->GetCounter("entered.assumed-bad"), 1, "ASSUMED_BAD once");
        NS_TEST_EXPECT_MSG_EQ(s->GetCounter("denials"), 0, "no denial");
        NS_TEST_EXPECT_MSG_LT(Simulator::Now(), MicroSeconds(40), "no probing left behind");
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * The plane rule on scripted feedback, 2 planes and 8 paths (4 per plane), PlaneLossThreshold
 * 2: one lost path of plane 1 leaves the rest of the plane GOOD; an ACK from any path of the
 * plane, marked or not, restarts the count; two lost paths in a row suspect the plane, every
 * path of it (GOOD or SKIP) becomes ASSUMED_BAD and is probed at once, data leaves on plane 0 only,
 * and the plane's paths come back one by one on their probe replies. On one plane, and with the
 * threshold 0, the rule never applies.
 */
class MrcPlaneRuleTestCase : public TestCase
{
  public:
    MrcPlaneRuleTestCase()
        : TestCase("MRC: losses on PlaneLossThreshold paths of a plane suspect the whole plane")
    {
    }

  private:
    /**
     * PlaneSuspected sink.
     * \param v where to record
     * \param plane the plane
     */
    static void Suspected(std::vector<uint32_t>* v, uint32_t plane)
    {
        v->push_back(plane);
    }

    /**
     * \param s a selector
     * \param plane a plane
     * \param planes the number of planes
     * \param state a state
     * \return how many paths of the plane are in that state
     */
    static uint32_t InPlane(Ptr<MrcPathSelector> s,
                            uint32_t plane,
                            uint32_t planes,
                            MrcPathSelector::PathState state)
    {
        uint32_t n = 0;
        for (const MrcPathSelector::Path& path : s->GetPaths())
        {
            n += PathSelector::PlaneOfEntropy(path.ev, planes) == plane && path.state == state;
        }
        return n;
    }

    void DoRun() override
    {
        Ptr<MrcPathSelector> s = MakeMrc(8);
        s->SetAttribute("PlaneLossThreshold", UintegerValue(2));
        std::vector<uint32_t> suspected;
        s->TraceConnectWithoutContext("PlaneSuspected", MakeBoundCallback(&Suspected, &suspected));
        MrcLog log;
        log.Connect(s);
        s->Start(Context(2));
        std::vector<uint16_t> one;
        for (uint16_t ev : Send(s, 8))
        {
            if (PathSelector::PlaneOfEntropy(ev, 2) == 1)
            {
                one.push_back(ev);
            }
        }
        NS_TEST_ASSERT_MSG_EQ(one.size(), 4, "4 paths on plane 1");
        s->OnLoss(one[0]);
        NS_TEST_EXPECT_MSG_EQ(InPlane(s, 1, 2, MrcPathSelector::GOOD), 3, "one path lost");
        s->OnAck(one[3], true, MicroSeconds(9)); // a marked ACK: the plane delivers
        s->OnLoss(one[1]);
        NS_TEST_EXPECT_MSG_EQ(InPlane(s, 1, 2, MrcPathSelector::ASSUMED_BAD),
                              2,
                              "the ACK restarted the count: two paths lost, not the plane");
        NS_TEST_EXPECT_MSG_EQ(StateOf(s, one[3]), MrcPathSelector::SKIP, "marked: SKIP");
        NS_TEST_EXPECT_MSG_EQ(suspected.size(), 0, "not suspected yet");
        s->OnLoss(one[2]);
        NS_TEST_EXPECT_MSG_EQ(suspected.size(), 1, "suspected");
        NS_TEST_EXPECT_MSG_EQ((suspected == std::vector<uint32_t>{1}), true, "plane 1");
        NS_TEST_EXPECT_MSG_EQ(InPlane(s, 1, 2, MrcPathSelector::ASSUMED_BAD),
                              4,
                              "every path of plane 1 ASSUMED_BAD");
        NS_TEST_EXPECT_MSG_EQ(InPlane(s, 0, 2, MrcPathSelector::GOOD), 4, "plane 0 untouched");
        NS_TEST_EXPECT_MSG_EQ(log.ProbesOf(one[3]), 1, "the unlost path probed at once");
        NS_TEST_EXPECT_MSG_EQ(s->GetCounter("plane-suspicions"), 1, "counted");
        for (uint16_t ev : Send(s, 16))
        {
            NS_TEST_EXPECT_MSG_EQ(PathSelector::PlaneOfEntropy(ev, 2), 0, "data on plane 0");
        }
        s->OnProbeReply(one[3], MicroSeconds(8));
        NS_TEST_EXPECT_MSG_EQ(StateOf(s, one[3]), MrcPathSelector::GOOD, "reply: GOOD again");
        NS_TEST_EXPECT_MSG_EQ(InPlane(s, 1, 2, MrcPathSelector::ASSUMED_BAD), 3, "one by one");
        Simulator::Destroy();

        for (uint32_t planes : {1U, 2U})
        {
            Ptr<MrcPathSelector> t = MakeMrc(8);
            t->SetAttribute("PlaneLossThreshold", UintegerValue(planes == 1 ? 2 : 0));
            t->Start(Context(planes));
            std::vector<uint16_t> evs = Send(t, 8);
            t->OnLoss(evs[0]);
            t->OnLoss(evs[planes == 1 ? 1 : 2]);
            t->OnLoss(evs[planes == 1 ? 2 : 4]);
            NS_TEST_EXPECT_MSG_EQ(t->CountPaths(MrcPathSelector::ASSUMED_BAD),
                                  3,
                                  "no plane rule: only the lost paths");
            NS_TEST_EXPECT_MSG_EQ(t->GetCounter("plane-suspicions"), 0, "never suspected");
            Simulator::Destroy();
        }
    }
};

/**
 * \ingroup reps-test
 * ProbeFailThreshold unanswered probes deny a path: its EV is retired for good and a fresh EV
 * of the same plane takes the slot, ASSUMED_BAD until its own probe is answered. With every
 * path ASSUMED_BAD, data still leaves, and a retransmission avoids the EV that just lost.
 * Probing stops when the connection stops sending.
 */
class MrcDenialTestCase : public TestCase
{
  public:
    MrcDenialTestCase()
        : TestCase("MRC: failed probes deny a path and a fresh EV of its plane replaces it")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<MrcPathSelector> s = MakeMrc(4);
        s->SetAttribute("ProbeFailThreshold", UintegerValue(2));
        s->SetAttribute("ProbeInterval", TimeValue(MicroSeconds(10)));
        MrcLog log;
        log.Connect(s);
        s->Start(Context(2));
        const std::vector<uint16_t> set = Send(s, 4);
        const uint16_t a = set[0];
        Simulator::Schedule(MicroSeconds(1), [&]() { s->OnLoss(a); });
        for (int t = 2; t < 21; ++t)
        {
            Simulator::Schedule(MicroSeconds(t), [&]() { Send(s, 1); });
        }
        Simulator::Run();

        NS_TEST_ASSERT_MSG_EQ(log.replaced.size(), 1, "one replacement");
        const uint16_t fresh = log.replaced[0].second;
        NS_TEST_EXPECT_MSG_EQ(log.replaced[0].first, a, "a replaced");
        NS_TEST_EXPECT_MSG_EQ(PathSelector::PlaneOfEntropy(fresh, 2),
                              PathSelector::PlaneOfEntropy(a, 2),
                              "the fresh EV is on the same plane");
        NS_TEST_EXPECT_MSG_EQ(std::count(set.begin(), set.end(), fresh), 0, "a new EV");
        NS_TEST_EXPECT_MSG_EQ(StateOf(s, a), MrcPathSelector::DENIED, "a retired");
        NS_TEST_EXPECT_MSG_EQ(StateOf(s, fresh),
                              MrcPathSelector::ASSUMED_BAD,
                              "fresh EV on probation");
        // Probes of a at 1 us (judged failed at the round of 11 us) and 11 us (judged at 21
        // us: second failure, denied); the fresh EV is probed at 21 us and 31 us. No packet
        // left after 20 us, so the round of 31 us is the last one.
        NS_TEST_EXPECT_MSG_EQ(log.ProbesOf(a), 2, "a probed twice");
        NS_TEST_EXPECT_MSG_EQ(log.ProbesOf(fresh), 2, "fresh EV probed twice");
        using S = MrcPathSelector;
        NS_TEST_EXPECT_MSG_EQ(
            (std::find(log.changes.begin(),
                       log.changes.end(),
                       std::make_tuple(a, S::ASSUMED_BAD, S::DENIED)) != log.changes.end()),
            true,
            "ASSUMED_BAD -> DENIED traced");
        NS_TEST_EXPECT_MSG_EQ(s->GetCounter("denials"), 1, "denials counted");
        NS_TEST_EXPECT_MSG_EQ(s->GetCounter("paths.denied"), 1, "one EV retired");
        for (std::size_t i = 4; i < log.evs.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_NE(log.evs[i], a, "no data on a after its loss");
            NS_TEST_EXPECT_MSG_NE(log.evs[i], fresh, "no data on the unproven EV");
        }
        NS_TEST_EXPECT_MSG_EQ(Simulator::Now(), MicroSeconds(31), "probing stops when idle");

        // The fresh EV answers: GOOD and used.
        s->OnProbeReply(fresh, MicroSeconds(8));
        NS_TEST_EXPECT_MSG_EQ(StateOf(s, fresh), MrcPathSelector::GOOD, "fresh EV proven");
        std::vector<uint16_t> evs = Send(s, 4);
        NS_TEST_EXPECT_MSG_EQ(std::count(evs.begin(), evs.end(), fresh), 1, "fresh EV used");
        s->OnProbeReply(a, MicroSeconds(8)); // a late reply of a retired EV changes nothing
        NS_TEST_EXPECT_MSG_EQ(StateOf(s, a), MrcPathSelector::DENIED, "a stays retired");

        // Every path ASSUMED_BAD: data goes on, and a retransmission avoids the EV that
        // lost it.
        for (const auto& path : s->GetPaths())
        {
            s->OnLoss(path.ev);
        }
        NS_TEST_EXPECT_MSG_EQ(s->CountPaths(MrcPathSelector::ASSUMED_BAD), 4, "all bad");
        const uint16_t last = s->GetPaths().back().ev;
        for (int i = 0; i < 8; ++i)
        {
            NS_TEST_EXPECT_MSG_NE(s->NextEntropy(true), last, "retx not on the EV that lost");
        }
        NS_TEST_EXPECT_MSG_EQ(s->GetCounter("sent.assumed-bad"), 8, "as a last resort");
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * The same stream and run number give the same EVs, states and probes bit for bit under
 * scripted feedback with losses and marks; another run number changes them.
 */
class MrcSeedTestCase : public TestCase
{
  public:
    MrcSeedTestCase()
        : TestCase("MRC: same run same EVs, other RngRun other EVs")
    {
    }

  private:
    /**
     * \param run the run number
     * \return the EVs of 300 packets and then the probed EVs
     */
    static std::vector<uint16_t> Sequence(uint64_t run)
    {
        RngSeedManager::SetRun(run);
        Ptr<MrcPathSelector> s = CreateObject<MrcPathSelector>();
        s->SetAttribute("PathCount", UintegerValue(16));
        s->SetAttribute("EntropySpace", UintegerValue(64));
        s->SetAttribute("ProbeFailThreshold", UintegerValue(1));
        s->AssignStreams(5);
        MrcLog log;
        log.Connect(s);
        s->Start(Context(2));
        std::vector<uint16_t> evs;
        for (int i = 0; i < 300; ++i)
        {
            Simulator::Schedule(MicroSeconds(i), [s, &evs, i]() {
                uint16_t ev = s->NextEntropy(i % 11 == 0);
                evs.push_back(ev);
                if (i % 13 == 0)
                {
                    s->OnLoss(ev);
                }
                else
                {
                    s->OnAck(ev, i % 5 == 0, MicroSeconds(9));
                }
            });
        }
        Simulator::Run();
        Simulator::Destroy();
        for (const auto& p : log.probes)
        {
            evs.push_back(p.second);
        }
        return evs;
    }

    void DoRun() override
    {
        const uint64_t oldRun = RngSeedManager::GetRun();
        std::vector<uint16_t> a = Sequence(1);
        std::vector<uint16_t> b = Sequence(1);
        std::vector<uint16_t> c = Sequence(2);
        NS_TEST_EXPECT_MSG_GT(a.size(), 300, "probes were sent");
        NS_TEST_EXPECT_MSG_EQ((a == b), true, "same run, different EVs");
        NS_TEST_EXPECT_MSG_EQ((a != c), true, "other run, same EVs");
        RngSeedManager::SetRun(oldRun);
    }
};

/**
 * \ingroup reps-test
 * Out-of-range attributes are refused by their checkers; the configuration check names
 * PathCount, the entropy space and the planes with what is allowed.
 */
class MrcBadAttributesTestCase : public TestCase
{
  public:
    MrcBadAttributesTestCase()
        : TestCase("MRC: bad attribute values are refused with a clear message")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<MrcPathSelector> s = CreateObject<MrcPathSelector>();
        for (const auto& [name, value] :
             std::vector<std::pair<std::string, uint32_t>>{{"PathCount", 0},
                                                           {"PathCount", 4097},
                                                           {"EcnThreshold", 0},
                                                           {"LossThreshold", 0},
                                                           {"ProbeFailThreshold", 0},
                                                           {"ProbeFailThreshold", 65536}})
        {
            NS_TEST_EXPECT_MSG_EQ(s->SetAttributeFailSafe(name, UintegerValue(value)),
                                  false,
                                  name << " " << value << " accepted");
        }
        NS_TEST_EXPECT_MSG_EQ(s->SetAttributeFailSafe("PathCount", UintegerValue(4096)),
                              true,
                              "PathCount 4096 refused");
        NS_TEST_EXPECT_MSG_EQ(s->SetAttributeFailSafe("SkipTime", TimeValue(Seconds(2))),
                              false,
                              "SkipTime 2 s accepted");
        NS_TEST_EXPECT_MSG_EQ(s->SetAttributeFailSafe("ProbeInterval", TimeValue(MicroSeconds(-1))),
                              false,
                              "negative ProbeInterval accepted");

        NS_TEST_EXPECT_MSG_EQ(MrcPathSelector::CheckAttributes(128, 65536, 0, 1), "", "defaults");
        NS_TEST_EXPECT_MSG_EQ(MrcPathSelector::CheckAttributes(8, 8, 0, 4), "", "exactly enough");
        std::string msg = MrcPathSelector::CheckAttributes(200, 128, 0, 1);
        NS_TEST_EXPECT_MSG_NE(msg.find("PathCount (200)"), std::string::npos, msg);
        NS_TEST_EXPECT_MSG_NE(msg.find("EntropySpace (128)"), std::string::npos, msg);
        NS_TEST_EXPECT_MSG_NE(msg.find("allowed: PathCount <= 128"), std::string::npos, msg);
        msg = MrcPathSelector::CheckAttributes(12, 8, 0, 4);
        NS_TEST_EXPECT_MSG_NE(msg.find("4 plane(s)"), std::string::npos, msg);
        NS_TEST_EXPECT_MSG_NE(msg.find("PathCount <= 8"), std::string::npos, msg);
        msg = MrcPathSelector::CheckAttributes(0, 65536, 0, 1);
        NS_TEST_EXPECT_MSG_NE(msg.find("[1, 4096]"), std::string::npos, msg);
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * RoceProbeHeader: 16 bytes, every field read back as written, a buffer too short is refused
 * (nothing consumed).
 */
class MrcProbeHeaderTestCase : public TestCase
{
  public:
    MrcProbeHeaderTestCase()
        : TestCase("MRC: the probe header reads back what was written")
    {
    }

  private:
    void DoRun() override
    {
        RoceProbeHeader h;
        h.SetEntropy(54321);
        h.SetSequence(0xDEADBEEF);
        h.SetTimestamp(NanoSeconds(123456789012));
        Ptr<Packet> p = Create<Packet>(RoceBthHeader::ICRC_SIZE);
        p->AddHeader(h);
        NS_TEST_ASSERT_MSG_EQ(p->GetSize(), RoceProbeHeader::SIZE + RoceBthHeader::ICRC_SIZE, "");
        uint8_t bytes[RoceProbeHeader::SIZE];
        p->CopyData(bytes, sizeof(bytes));
        NS_TEST_EXPECT_MSG_EQ(bytes[0] * 256 + bytes[1], 54321, "EV first, network order");
        NS_TEST_EXPECT_MSG_EQ(bytes[2] + bytes[3], 0, "reserved bytes zero");
        RoceProbeHeader r;
        NS_TEST_ASSERT_MSG_EQ(p->RemoveHeader(r), RoceProbeHeader::SIZE, "whole header read");
        NS_TEST_EXPECT_MSG_EQ(r.GetEntropy(), 54321, "EV");
        NS_TEST_EXPECT_MSG_EQ(r.GetSequence(), 0xDEADBEEF, "sequence");
        NS_TEST_EXPECT_MSG_EQ(r.GetTimestamp(), NanoSeconds(123456789012), "timestamp");
        Ptr<Packet> shortPacket = Create<Packet>(RoceProbeHeader::SIZE - 1);
        RoceProbeHeader s;
        NS_TEST_EXPECT_MSG_EQ(shortPacket->PeekHeader(s), 0, "15 bytes are no probe header");
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * Probes through a real transport: over a 2-leaf fabric, a queue pair sends 1 MiB while its
 * MRC selector is told (scripted) that 4 of its 8 paths lost packets. The selector probes them
 * through the queue pair; the remote queue pair answers every probe, the replies come back
 * and bring the 4 paths back to GOOD; the data is untouched: 256 packets with consecutive
 * PSNs, no retransmission, no duplicate, every byte received once.
 */
class MrcProbeTransportTestCase : public TestCase
{
  public:
    MrcProbeTransportTestCase()
        : TestCase("MRC: probes cross the fabric and come back without touching the data")
    {
    }

  private:
    std::vector<uint32_t> m_psns; //!< PSNs of the data packets sent.
    uint64_t m_received{0};       //!< Bytes of the messages received.

    /**
     * PacketSent sink.
     * \param psn the PSN
     * \param ev the EV
     * \param retx whether it is a retransmission
     */
    void Sent(uint32_t psn, uint16_t ev, bool retx)
    {
        m_psns.push_back(psn);
    }

    /**
     * Receive callback.
     * \param id message id
     * \param size bytes
     * \param t time
     */
    void Received(uint64_t id, uint64_t size, Time t)
    {
        m_received += size;
    }

    void DoRun() override
    {
        Ptr<ClosFabricHelper> h = CreateObject<ClosFabricHelper>();
        h->SetAttribute("Tiers", UintegerValue(2));
        h->SetAttribute("Leaves", UintegerValue(2));
        h->SetAttribute("HostsPerLeaf", UintegerValue(1));
        h->SetAttribute("Spines", UintegerValue(2));
        Ptr<ClosFabric> fabric = h->Build();
        RdmaHelper rdma;
        rdma.SetPathSelector("ns3::MrcPathSelector", "PathCount", UintegerValue(8));
        rdma.Install(fabric->GetHosts());
        rdma.SetQueuePairAttribute("BaseRtt", TimeValue(fabric->GetBaseRtt(0, 1, 4140, 66)));
        auto qps = rdma.CreateQueuePair(fabric->GetHost(0), fabric->GetHost(1));
        Ptr<RdmaQueuePair> tx = qps.first;
        Ptr<RdmaQueuePair> rx = qps.second;
        tx->TraceConnectWithoutContext("PacketSent",
                                       MakeCallback(&MrcProbeTransportTestCase::Sent, this));
        rx->SetReceiveCallback(MakeCallback(&MrcProbeTransportTestCase::Received, this));
        const uint64_t size = 1 << 20;
        tx->PostSend(size);
        rdma.AssignStreams(fabric->GetHosts(), 100);
        Ptr<MrcPathSelector> ps = DynamicCast<MrcPathSelector>(tx->GetPathSelector());
        NS_TEST_ASSERT_MSG_NE(ps, nullptr, "an MRC selector");
        std::vector<uint16_t> suspects;
        Simulator::Schedule(MicroSeconds(3), [&]() {
            for (std::size_t i = 0; i < 4; ++i)
            {
                suspects.push_back(ps->GetPaths()[i].ev);
                ps->OnLoss(suspects.back());
            }
            NS_TEST_EXPECT_MSG_EQ(ps->CountPaths(MrcPathSelector::ASSUMED_BAD), 4, "suspects");
        });
        Simulator::Stop(MilliSeconds(5));
        Simulator::Run();

        const RdmaQueuePairStats& t = tx->GetStats();
        const RdmaQueuePairStats& r = rx->GetStats();
        NS_TEST_EXPECT_MSG_EQ(t.probesSent, 4, "one probe per suspect path");
        NS_TEST_EXPECT_MSG_EQ(r.probesAnswered, 4, "every probe answered");
        NS_TEST_EXPECT_MSG_EQ(t.probeReplies, 4, "every reply back");
        NS_TEST_EXPECT_MSG_EQ(ps->GetCounter("probes.answered"), 4, "selector got the replies");
        NS_TEST_EXPECT_MSG_EQ(ps->CountPaths(MrcPathSelector::GOOD), 8, "all GOOD again");
        NS_TEST_EXPECT_MSG_EQ(t.messagesCompleted, 1, "message complete");
        NS_TEST_EXPECT_MSG_EQ(m_received, size, "message received");
        NS_TEST_EXPECT_MSG_EQ(r.bytesReceived, size, "every byte once");
        NS_TEST_EXPECT_MSG_EQ(r.duplicates, 0, "no duplicate");
        NS_TEST_EXPECT_MSG_EQ(t.retransmissions, 0, "no retransmission");
        NS_TEST_ASSERT_MSG_EQ(m_psns.size(), 256, "256 data packets");
        for (uint32_t i = 0; i < m_psns.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(m_psns[i], i, "consecutive PSNs");
        }
        Simulator::Destroy();
    }
};

namespace
{

/// One transfer of the fabric run.
struct MrcTransfer
{
    Ptr<RdmaQueuePair> sender;   //!< Sender side.
    Ptr<RdmaQueuePair> receiver; //!< Receiver side.
    uint64_t posted{0};          //!< Bytes posted.
    uint64_t completed{0};       //!< Bytes completed at the sender.
    uint64_t received{0};        //!< Bytes of the messages received.
    uint32_t* pending{nullptr};  //!< Transfers still running.

    /**
     * Sender completion.
     * \param id message id
     * \param size bytes
     * \param fct completion time
     */
    void Completed(uint64_t id, uint64_t size, Time fct)
    {
        completed += size;
        if (completed == posted && --*pending == 0)
        {
            Simulator::Stop();
        }
    }

    /**
     * Receiver callback.
     * \param id message id
     * \param size bytes
     * \param t time
     */
    void Received(uint64_t id, uint64_t size, Time t)
    {
        received += size;
    }
};

/// Data packets lost on the failed link, and when.
struct DataDropLog
{
    std::vector<Time> data; //!< Drops of data packets (larger than any control packet).
    uint64_t small{0};      //!< Drops of control packets (ACKs, probes, replies).

    /**
     * FabricLinkErrorModel Drop sink.
     * \param p the packet
     */
    void Dropped(Ptr<const Packet> p)
    {
        if (p->GetSize() > 1000)
        {
            data.push_back(Simulator::Now());
        }
        else
        {
            ++small;
        }
    }
};

} // namespace

/**
 * \ingroup reps-test
 * A leaf-spine link (leaf 0 - spine 1) is blackholed at 30 us, without routing convergence,
 * under flows from and to the first two hosts of leaf 0 over a 4 x 4 x 4 fabric (the REPS
 * load-balancing scenario, 2 MiB per flow). MRC marks the EVs that lose packets ASSUMED_BAD,
 * stops sending data on them, keeps probing them (the probes die on the dead link) and
 * denies them; the last data packet lost on the dead link is lost within a few RTOs of the
 * failure, every flow completes with every byte placed exactly once, probes do not disturb
 * the transport (every probe that arrives is answered) and the run is reproducible.
 */
class MrcFailedLinkTestCase : public TestCase
{
  public:
    MrcFailedLinkTestCase()
        : TestCase("MRC over a blackholed leaf uplink: traffic leaves the dead paths, every "
                   "byte exactly once")
    {
    }

  private:
    /// What a run measured.
    struct Outcome
    {
        bool complete{true};           //!< Every byte acknowledged and placed once.
        Time lastDataDrop;             //!< Last data packet lost on the dead link.
        uint64_t dataDrops{0};         //!< Data packets lost on it.
        uint64_t controlDrops{0};      //!< Control packets lost on it.
        uint64_t probesSent{0};        //!< Probes the senders sent.
        uint64_t probeReplies{0};      //!< Replies they received.
        uint64_t probesAnswered{0};    //!< Probes the receivers answered.
        uint64_t denials{0};           //!< EVs retired.
        uint64_t assumedBad{0};        //!< Transitions to ASSUMED_BAD.
        uint64_t stillBad{0};          //!< Paths ASSUMED_BAD at the end.
        Time rto;                      //!< RTO of the first flow.
        Time end;                      //!< When the last flow completed.
        std::vector<uint64_t> packets; //!< Packets sent per flow.
    };

    /**
     * \param run the RngRun
     * \return what it measured
     */
    static Outcome Run(uint32_t run, Time upAt = Time::Max())
    {
        const uint64_t oldRun = RngSeedManager::GetRun();
        RngSeedManager::SetRun(run);
        Ptr<ClosFabricHelper> h = CreateObject<ClosFabricHelper>();
        h->SetAttribute("Tiers", UintegerValue(2));
        h->SetAttribute("Leaves", UintegerValue(4));
        h->SetAttribute("HostsPerLeaf", UintegerValue(4));
        h->SetAttribute("Spines", UintegerValue(4));
        h->SetAttribute("HostLinkRate", DataRateValue(DataRate("400Gbps")));
        h->SetAttribute("LeafUplinkRate", DataRateValue(DataRate("400Gbps")));
        Ptr<ClosFabric> fabric = h->Build();
        const uint32_t dead = fabric->GetLeafSpineLink(0, 1);
        const Time failAt = MicroSeconds(30);
        fabric->FailLink(dead, failAt, upAt);
        DataDropLog drops;
        for (uint32_t side = 0; side < 2; ++side)
        {
            PointerValue em;
            fabric->GetLinkDevice(dead, side)->GetAttribute("ReceiveErrorModel", em);
            em.Get<FabricLinkErrorModel>()->TraceConnectWithoutContext(
                "Drop",
                MakeCallback(&DataDropLog::Dropped, &drops));
        }
        RdmaHelper rdma;
        rdma.SetPathSelector("ns3::MrcPathSelector");
        rdma.SetCongestionControl("ns3::RdmaWindowCongestionControl");
        rdma.Install(fabric->GetHosts());
        const uint32_t n = fabric->GetNHosts();
        std::vector<MrcTransfer> transfers(n);
        uint32_t pending = 0;
        for (uint32_t src = 0; src < n; ++src)
        {
            const uint32_t dst = (src + 5) % n;
            if (src >= 2 && dst >= 2)
            {
                continue;
            }
            rdma.SetQueuePairAttribute("BaseRtt",
                                       TimeValue(fabric->GetBaseRtt(src, dst, 4140, 66)));
            MrcTransfer& t = transfers[src];
            auto qps = rdma.CreateQueuePair(fabric->GetHost(src), fabric->GetHost(dst));
            t.sender = qps.first;
            t.receiver = qps.second;
            t.pending = &pending;
            ++pending;
            t.receiver->SetReceiveCallback(MakeCallback(&MrcTransfer::Received, &t));
            t.posted = 4 << 20;
            t.sender->PostSend(t.posted, MakeCallback(&MrcTransfer::Completed, &t));
        }
        rdma.AssignStreams(fabric->GetHosts(), 1000);
        ClosFabricHelper::AssignStreams(fabric, 2000);
        Simulator::Stop(MilliSeconds(50));
        Simulator::Run();

        Outcome r;
        for (const MrcTransfer& t : transfers)
        {
            if (!t.sender)
            {
                continue;
            }
            r.complete = r.complete && t.completed == t.posted && t.received == t.posted &&
                         t.receiver->GetStats().bytesReceived == t.posted && t.sender->IsIdle();
            r.probesSent += t.sender->GetStats().probesSent;
            r.probeReplies += t.sender->GetStats().probeReplies;
            r.probesAnswered += t.receiver->GetStats().probesAnswered;
            r.packets.push_back(t.sender->GetStats().packetsSent);
            Ptr<PathSelector> ps = t.sender->GetPathSelector();
            r.denials += ps->GetCounter("denials");
            r.assumedBad += ps->GetCounter("entered.assumed-bad");
            r.stillBad += ps->GetCounter("paths.assumed-bad");
            if (r.rto.IsZero())
            {
                r.rto = t.sender->GetRto();
            }
        }
        r.end = Simulator::Now();
        r.dataDrops = drops.data.size();
        r.controlDrops = drops.small;
        r.lastDataDrop = drops.data.empty() ? Time(0) : drops.data.back();
        Simulator::Destroy();
        RngSeedManager::SetRun(oldRun);
        return r;
    }

    void DoRun() override
    {
        const Outcome a = Run(1);
        std::ostringstream os;
        os << a.dataDrops << " data drops, last at " << a.lastDataDrop.As(Time::US) << ", RTO "
           << a.rto.As(Time::US) << ", " << a.probesSent << " probes, " << a.probeReplies
           << " replies, " << a.denials << " denials";
        const std::string figures = os.str();
        NS_TEST_EXPECT_MSG_EQ(a.complete, true, "every flow complete, every byte exactly once");
        NS_TEST_EXPECT_MSG_GT(a.dataDrops, 0, "data was lost before MRC learned");
        NS_TEST_EXPECT_MSG_GT(a.assumedBad, 0, "paths became ASSUMED_BAD");
        NS_TEST_EXPECT_MSG_GT(a.probesSent, 0, "suspect paths were probed");
        NS_TEST_EXPECT_MSG_GT(a.controlDrops, 0, "probes die on the dead link");
        NS_TEST_EXPECT_MSG_GT(a.denials, 0, "dead paths were denied: " + figures);
        // A probe can cross the dead link on its way back (the reply takes the reverse path of
        // the probed EV, as its ACKs do); the replies that arrive are those of fresh EVs.
        NS_TEST_EXPECT_MSG_LT_OR_EQ(a.probeReplies, a.probesAnswered, "replies of answers");
        NS_TEST_EXPECT_MSG_GT(a.probeReplies, 0, "fresh EVs proven by probes: " + figures);
        // The data lost on the dead link left before the first losses were declared (one RTO
        // after the failure); from then on the dead EVs carry no data (measured: the last data
        // drop 1.2 RTOs after the failure).
        NS_TEST_EXPECT_MSG_LT(a.lastDataDrop,
                              MicroSeconds(30) + 3 * a.rto,
                              "data off the dead paths within a few RTOs: " + figures);

        // The link comes back at 200 us: probe replies bring the suspect paths back.
        const Outcome c = Run(1, MicroSeconds(200));
        NS_TEST_EXPECT_MSG_EQ(c.complete, true, "repaired link: every byte exactly once");
        NS_TEST_EXPECT_MSG_GT(c.probeReplies, 0, "probes answered after the repair");
        NS_TEST_EXPECT_MSG_EQ(c.stillBad, 0, "no path left ASSUMED_BAD after the repair");

        const Outcome b = Run(1);
        NS_TEST_EXPECT_MSG_EQ((a.packets == b.packets), true, "same run, same packets");
        NS_TEST_EXPECT_MSG_EQ(a.dataDrops, b.dataDrops, "same run, same drops");
        NS_TEST_EXPECT_MSG_EQ(a.probesSent, b.probesSent, "same run, same probes");
        NS_TEST_EXPECT_MSG_EQ(a.end, b.end, "same run, same completion");
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * The MRC-style multipath selector.
 */
class RepsMrcTestSuite : public TestSuite
{
  public:
    RepsMrcTestSuite()
        : TestSuite("reps-mrc", TestSuite::Type::UNIT)
    {
        AddTestCase(new MrcSprayTestCase, reps::kQuick);
        AddTestCase(new MrcSkipTestCase, reps::kQuick);
        AddTestCase(new MrcLossProbeTestCase, reps::kQuick);
        AddTestCase(new MrcDenialTestCase, reps::kQuick);
        AddTestCase(new MrcPlaneRuleTestCase, reps::kQuick);
        AddTestCase(new MrcSeedTestCase, reps::kQuick);
        AddTestCase(new MrcBadAttributesTestCase, reps::kQuick);
        AddTestCase(new MrcProbeHeaderTestCase, reps::kQuick);
        AddTestCase(new MrcProbeTransportTestCase, reps::kQuick);
        AddTestCase(new MrcFailedLinkTestCase, reps::kQuick);
    }
};

/// The one instance of the suite.
static RepsMrcTestSuite g_repsMrcTestSuite;
