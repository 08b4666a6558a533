/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "reps-test-compat.h"

#include "ns3/ecmp-path-selector.h"
#include "ns3/object-factory.h"
#include "ns3/shuffle.h"
#include "ns3/reps-path-selector.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// Collects the EVs a selector reports through its EntropyChosen trace.
struct EntropyLog
{
    std::vector<uint16_t> evs;                 //!< EVs in order.
    std::vector<PathSelector::Choice> reasons; //!< Their reasons.

    /**
     * Trace sink.
     * \param ev the EV
     * \param why the reason
     * \param retx whether it is a retransmission
     */
    void Record(uint16_t ev, PathSelector::Choice why, bool retx)
    {
        evs.push_back(ev);
        reasons.push_back(why);
    }
};

Ptr<EcmpPathSelector>
MakeEcmp(uint32_t space, uint16_t base)
{
    Ptr<EcmpPathSelector> s = CreateObject<EcmpPathSelector>();
    s->SetAttribute("EntropySpace", UintegerValue(space));
    s->SetAttribute("EntropyBase", UintegerValue(base));
    return s;
}

} // namespace

/**
 * \ingroup reps-test
 * ECMP sends every packet of a connection, retransmissions included, with one EV drawn from
 * the entropy space, and different connections draw different EVs.
 */
class EcmpOneEntropyPerQpTestCase : public TestCase
{
  public:
    EcmpOneEntropyPerQpTestCase()
        : TestCase("ECMP keeps one EV per connection, inside the entropy space")
    {
    }

  private:
    void DoRun() override
    {
        std::set<uint16_t> firstEvs;
        for (uint32_t qp = 0; qp < 64; ++qp)
        {
            Ptr<EcmpPathSelector> s = MakeEcmp(256, 1000);
            s->AssignStreams(qp);
            EntropyLog log;
            s->TraceConnectWithoutContext("EntropyChosen", MakeCallback(&EntropyLog::Record, &log));
            s->Start(PathSelectorContext());
            for (uint32_t i = 0; i < 100; ++i)
            {
                uint16_t ev = s->NextEntropy(i % 10 == 9);
                s->OnAck(ev, i % 3 == 0, MicroSeconds(10));
                if (i % 17 == 0)
                {
                    s->OnTimeout();
                }
            }
            NS_TEST_ASSERT_MSG_EQ(log.evs.size(), 100, "one trace per packet");
            for (std::size_t i = 0; i < log.evs.size(); ++i)
            {
                NS_TEST_ASSERT_MSG_EQ(log.evs[i], log.evs[0], "ECMP changed its EV");
                NS_TEST_ASSERT_MSG_EQ(log.reasons[i], PathSelector::FIXED, "reason is 'fixed'");
            }
            NS_TEST_ASSERT_MSG_GT_OR_EQ(log.evs[0], 1000, "EV below EntropyBase");
            NS_TEST_ASSERT_MSG_LT(log.evs[0], 1256, "EV beyond EntropyBase + EntropySpace");
            firstEvs.insert(log.evs[0]);
        }
        // 64 draws from 256 values: many distinct EVs (a constant would give one).
        NS_TEST_ASSERT_MSG_GT(firstEvs.size(), 40, "connections do not draw independent EVs");
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * A pinned EV is used as is; the same stream gives the same EV and another run number
 * another one.
 */
class EcmpPinnedAndSeededTestCase : public TestCase
{
  public:
    EcmpPinnedAndSeededTestCase()
        : TestCase("ECMP: pinned EV, same seed same EV, other run other EV")
    {
    }

  private:
    static std::vector<uint16_t> Draw(uint64_t run)
    {
        RngSeedManager::SetRun(run);
        std::vector<uint16_t> evs;
        for (int64_t stream = 0; stream < 8; ++stream)
        {
            Ptr<EcmpPathSelector> s = MakeEcmp(65536, 0);
            s->AssignStreams(stream);
            s->Start(PathSelectorContext());
            evs.push_back(s->NextEntropy(false));
        }
        return evs;
    }

    void DoRun() override
    {
        Ptr<EcmpPathSelector> pinned = MakeEcmp(65536, 0);
        pinned->SetAttribute("Entropy", UintegerValue(4791));
        pinned->Start(PathSelectorContext());
        NS_TEST_ASSERT_MSG_EQ(pinned->NextEntropy(false), 4791, "pinned EV not used");
        NS_TEST_ASSERT_MSG_EQ(pinned->NextEntropy(true), 4791, "pinned EV not used on retx");

        uint64_t oldRun = RngSeedManager::GetRun();
        std::vector<uint16_t> a = Draw(1);
        std::vector<uint16_t> b = Draw(1);
        std::vector<uint16_t> c = Draw(2);
        RngSeedManager::SetRun(oldRun);
        NS_TEST_ASSERT_MSG_EQ((a == b), true, "same run number gave different EVs");
        NS_TEST_ASSERT_MSG_EQ((a != c), true, "another run number gave the same EVs");
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * A selector started before its stream is assigned (a queue pair connects, then the helper
 * assigns streams) draws its EV from the assigned stream: the EV does not depend on how many
 * automatic streams were handed out before.
 */
class EcmpStreamAfterStartTestCase : public TestCase
{
  public:
    EcmpStreamAfterStartTestCase()
        : TestCase("ECMP: a stream assigned after Start() decides the EV")
    {
    }

  private:
    void DoRun() override
    {
        for (int64_t stream = 0; stream < 8; ++stream)
        {
            Ptr<EcmpPathSelector> before = MakeEcmp(65536, 0);
            before->AssignStreams(stream);
            before->Start(PathSelectorContext());
            uint16_t expected = before->NextEntropy(false);
            for (uint32_t skip = 0; skip < 3; ++skip)
            {
                // Selectors created in between take automatic streams.
                MakeEcmp(65536, 0)->Start(PathSelectorContext());
                Ptr<EcmpPathSelector> after = MakeEcmp(65536, 0);
                after->Start(PathSelectorContext());
                after->AssignStreams(stream);
                NS_TEST_ASSERT_MSG_EQ(after->NextEntropy(false),
                                      expected,
                                      "stream " << stream << ": EV from the assigned stream");
            }
        }
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * Every selector of the module: a short name of its own, the queue pair's events reach the
 * DoFeedback() hook as GOOD, ECN, NACK and LOST (counted and traced by the base class), and
 * its counters are readable by name without knowing its class (REPS's freezes included).
 */
class SelectorFeedbackCountersTestCase : public TestCase
{
  public:
    SelectorFeedbackCountersTestCase()
        : TestCase("Every selector: short name, feedback hooks, counters by name")
    {
    }

  private:
    /// Feedback trace log.
    std::vector<std::pair<uint16_t, PathSelector::Feedback>> m_log;

    /**
     * Feedback trace sink.
     * \param ev the EV
     * \param kind what came back
     */
    void Feedback(uint16_t ev, PathSelector::Feedback kind)
    {
        m_log.emplace_back(ev, kind);
    }

    void DoRun() override
    {
        const std::map<std::string, std::string> expected = {
            {"ns3::EcmpPathSelector", "ecmp"},
            {"ns3::OpsPathSelector", "ops"},
            {"ns3::FlowletPathSelector", "flowlet"},
            {"ns3::RepsPathSelector", "reps"},
            {"ns3::MpPathSelector", "mp"},
            {"ns3::PlbPathSelector", "plb"},
            {"ns3::BitmapPathSelector", "bitmap"},
            {"ns3::MprdmaPathSelector", "mprdma"},
            {"ns3::MrcPathSelector", "mrc"},
        };
        for (const auto& [typeName, shortName] : expected)
        {
            ObjectFactory factory(typeName);
            Ptr<PathSelector> s = factory.Create<PathSelector>();
            NS_TEST_ASSERT_MSG_EQ(s->GetName(), shortName, typeName);
            m_log.clear();
            s->TraceConnectWithoutContext(
                "Feedback",
                MakeCallback(&SelectorFeedbackCountersTestCase::Feedback, this));
            PathSelectorContext ctx;
            ctx.trimming = true; // every timeout is a failure signal for REPS
            s->Start(ctx);
            uint16_t a = s->NextEntropy(false);
            uint16_t b = s->NextEntropy(false);
            s->NextEntropy(true);
            s->OnAck(a, false, MicroSeconds(9));
            s->OnAck(b, true, MicroSeconds(9));
            s->OnNack(a);
            s->OnLoss(b);
            s->OnLoss(a);
            s->OnTimeout();
            NS_TEST_ASSERT_MSG_EQ(m_log.size(), 5, typeName << ": one Feedback per event");
            NS_TEST_ASSERT_MSG_EQ((m_log[1] == std::make_pair(b, PathSelector::ECN)), true, "ECN");
            NS_TEST_ASSERT_MSG_EQ((m_log[3] == std::make_pair(b, PathSelector::LOST)),
                                  true,
                                  "lost");
            NS_TEST_ASSERT_MSG_EQ(s->GetFeedbackCount(PathSelector::GOOD), 1, typeName);
            NS_TEST_ASSERT_MSG_EQ(s->GetFeedbackCount(PathSelector::ECN), 1, typeName);
            NS_TEST_ASSERT_MSG_EQ(s->GetFeedbackCount(PathSelector::NACK), 1, typeName);
            NS_TEST_ASSERT_MSG_EQ(s->GetFeedbackCount(PathSelector::LOST), 2, typeName);
            NS_TEST_ASSERT_MSG_EQ(s->GetTimeoutCount(), 1, typeName);
            NS_TEST_ASSERT_MSG_EQ(s->GetPacketCount(), 3, typeName);
            PathSelector::Counters c = s->GetCounters();
            NS_TEST_ASSERT_MSG_EQ(c["packets"], 3, typeName);
            NS_TEST_ASSERT_MSG_EQ(c["feedback.lost"], 2, typeName);
            NS_TEST_ASSERT_MSG_EQ(c["timeouts"], 1, typeName);
            NS_TEST_ASSERT_MSG_EQ(s->GetCounter("no-such-counter"), 0, typeName);
            uint64_t chosen = 0;
            for (uint32_t i = 0; i < PathSelector::N_CHOICES; ++i)
            {
                chosen += s->GetCounter(
                    "choice." + PathSelector::ChoiceName(static_cast<PathSelector::Choice>(i)));
            }
            NS_TEST_ASSERT_MSG_EQ(chosen, 3, typeName << ": choices add up to the packets");
            if (shortName == "reps")
            {
                Ptr<RepsPathSelector> reps = DynamicCast<RepsPathSelector>(s);
                NS_TEST_ASSERT_MSG_EQ(reps->GetFreezeCount(), 1, "the timeout froze REPS");
                NS_TEST_ASSERT_MSG_EQ(s->GetCounter("freezes"), 1, "freezes by name");
            }
            else
            {
                NS_TEST_ASSERT_MSG_EQ(s->GetCounter("freezes"), 0, typeName << " never freezes");
            }
            // Starting again resets every counter.
            s->Start(ctx);
            NS_TEST_ASSERT_MSG_EQ(s->GetPacketCount(), 0, typeName);
            NS_TEST_ASSERT_MSG_EQ(s->GetFeedbackCount(PathSelector::LOST), 0, typeName);
            s->Dispose();
        }
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * Shuffle: a permutation, reproducible from the stream, and the documented draws
 * (position i - 1 swapped with GetInteger(0, i - 1), from the last position down).
 */
class ShuffleTestCase : public TestCase
{
  public:
    ShuffleTestCase()
        : TestCase("Shuffle: a reproducible permutation with the documented draws")
    {
    }

  private:
    void DoRun() override
    {
        std::vector<uint32_t> items(50);
        for (uint32_t i = 0; i < items.size(); ++i)
        {
            items[i] = i;
        }
        Ptr<UniformRandomVariable> rng = CreateObject<UniformRandomVariable>();
        rng->SetStream(42);
        std::vector<uint32_t> shuffled = items;
        Shuffle(shuffled, rng);
        NS_TEST_ASSERT_MSG_EQ((shuffled != items), true, "the order changed");
        std::vector<uint32_t> sorted = shuffled;
        std::sort(sorted.begin(), sorted.end());
        NS_TEST_ASSERT_MSG_EQ((sorted == items), true, "a permutation");
        Ptr<UniformRandomVariable> again = CreateObject<UniformRandomVariable>();
        again->SetStream(42);
        std::vector<uint32_t> expected = items;
        for (uint32_t i = expected.size(); i > 1; --i)
        {
            std::swap(expected[i - 1], expected[again->GetInteger(0, i - 1)]);
        }
        NS_TEST_ASSERT_MSG_EQ((shuffled == expected), true, "the documented draws");
        std::vector<uint32_t> none;
        Shuffle(none, rng);
        std::vector<uint32_t> one = {7};
        Shuffle(one, rng);
        NS_TEST_ASSERT_MSG_EQ(one[0], 7, "one item stays");
    }
};

/**
 * \ingroup reps-test
 * The path selector test suite.
 */
class RepsPathSelectorTestSuite : public TestSuite
{
  public:
    RepsPathSelectorTestSuite()
        : TestSuite("reps-path-selector", TestSuite::Type::UNIT)
    {
        AddTestCase(new EcmpOneEntropyPerQpTestCase, reps::kQuick);
        AddTestCase(new EcmpPinnedAndSeededTestCase, reps::kQuick);
        AddTestCase(new EcmpStreamAfterStartTestCase, reps::kQuick);
        AddTestCase(new SelectorFeedbackCountersTestCase, reps::kQuick);
        AddTestCase(new ShuffleTestCase, reps::kQuick);
    }
};

/// The one instance of the suite.
static RepsPathSelectorTestSuite g_repsPathSelectorTestSuite;
