/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "reps-test-compat.h"

#include "ns3/ecmp-path-selector.h"
#include "ns3/object-factory.h"
#include "ns3/reps-path-selector.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/shuffle.h"
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
 * A selector that keeps every Feedback its DoFeedback() hook receives.
 */
class RecordingPathSelector : public PathSelector
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::RecordingPathSelector")
                                .SetParent<PathSelector>()
                                .SetGroupName("Reps")
                                .AddConstructor<RecordingPathSelector>();
        return tid;
    }

    std::vector<Feedback> received; //!< What DoFeedback() received, in order.

  protected:
    uint16_t DoNextEntropy(bool retransmission, Choice& why) override
    {
        why = FIXED;
        return GetEntropyBase();
    }

    void DoFeedback(const Feedback& feedback) override
    {
        received.push_back(feedback);
    }
};

NS_OBJECT_ENSURE_REGISTERED(RecordingPathSelector);

/**
 * \ingroup reps-test
 * The queue pair's events reach DoFeedback() as data: the EV, the kind and, for an ACK, the
 * packet's RTT (zero for a NACK or a loss).
 */
class FeedbackAsDataTestCase : public TestCase
{
  public:
    FeedbackAsDataTestCase()
        : TestCase("DoFeedback() receives the EV, the kind and the RTT of an ACK")
    {
    }

  private:
    void DoRun() override
    {
        using Feedback = PathSelector::Feedback;
        Ptr<RecordingPathSelector> s = CreateObject<RecordingPathSelector>();
        s->Start(PathSelectorContext());
        s->OnAck(7, false, MicroSeconds(9));
        s->OnAck(8, true, MicroSeconds(12));
        s->OnNack(9);
        s->OnLoss(10);
        const std::vector<Feedback>& got = s->received;
        NS_TEST_ASSERT_MSG_EQ(got.size(), 4, "one DoFeedback() per event");
        const std::vector<std::pair<uint16_t, Feedback::Kind>> kinds = {{7, Feedback::GOOD},
                                                                        {8, Feedback::ECN},
                                                                        {9, Feedback::NACK},
                                                                        {10, Feedback::LOST}};
        const std::vector<Time> rtts = {MicroSeconds(9), MicroSeconds(12), Time(0), Time(0)};
        for (std::size_t i = 0; i < got.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(got[i].ev, kinds[i].first, "EV of event " << i);
            NS_TEST_ASSERT_MSG_EQ(got[i].kind, kinds[i].second, "kind of event " << i);
            NS_TEST_ASSERT_MSG_EQ(got[i].rtt, rtts[i], "RTT of event " << i);
        }
        s->Dispose();
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * Validate() tells what is wrong before Start() would abort: the base class's entropy range and
 * context, then each selector's own rules (a set of distinct EVs larger than the space, a
 * pinned ECMP EV outside it, MRC's paths per plane).
 */
class SelectorValidateTestCase : public TestCase
{
  public:
    SelectorValidateTestCase()
        : TestCase("Validate(): the base class's checks and each selector's own")
    {
    }

  private:
    /**
     * \param typeName a selector's TypeId name.
     * \param space its EntropySpace.
     * \return a selector of that type with that space.
     */
    static Ptr<PathSelector> Make(const std::string& typeName, uint32_t space)
    {
        ObjectFactory factory(typeName);
        factory.Set("EntropySpace", UintegerValue(space));
        return factory.Create<PathSelector>();
    }

    void DoRun() override
    {
        PathSelectorContext ctx;
        NS_TEST_ASSERT_MSG_EQ(Make("ns3::OpsPathSelector", 1)->Validate(ctx), "", "OPS, 1 EV");
        Ptr<PathSelector> ops = Make("ns3::OpsPathSelector", 65536);
        ops->SetAttribute("EntropyBase", UintegerValue(1));
        NS_TEST_ASSERT_MSG_EQ(ops->Validate(ctx),
                              "PathSelector: EntropyBase (1) + EntropySpace (65536) must not "
                              "exceed 65536",
                              "the base class's range");
        PathSelectorContext noRtt;
        noRtt.baseRtt = Time(0);
        NS_TEST_ASSERT_MSG_EQ(Make("ns3::OpsPathSelector", 8)->Validate(noRtt),
                              "PathSelector: the base RTT of the connection must be > 0",
                              "the context");

        NS_TEST_ASSERT_MSG_EQ(Make("ns3::MpPathSelector", 8)->Validate(ctx), "", "MP, 8 of 8");
        std::string msg = Make("ns3::MpPathSelector", 7)->Validate(ctx);
        NS_TEST_ASSERT_MSG_EQ((msg.find("MpPathSelector: Paths (8) must not exceed "
                                        "EntropySpace (7)") != std::string::npos),
                              true,
                              msg);
        msg = Make("ns3::BitmapPathSelector", 63)->Validate(ctx);
        NS_TEST_ASSERT_MSG_EQ((msg.find("BitmapPathSelector: Paths (64)") != std::string::npos),
                              true,
                              msg);
        NS_TEST_ASSERT_MSG_EQ(Make("ns3::MrcPathSelector", 128)->Validate(ctx), "", "MRC, 1 plane");
        PathSelectorContext planes;
        planes.planes = 4;
        msg = Make("ns3::MrcPathSelector", 128)->Validate(planes);
        NS_TEST_ASSERT_MSG_EQ(msg, "", "MRC, 4 planes of 32 EVs: " + msg);
        msg = Make("ns3::MrcPathSelector", 127)->Validate(planes);
        NS_TEST_ASSERT_MSG_EQ((msg.find("on each of the 4 plane(s)") != std::string::npos),
                              true,
                              msg);
        Ptr<PathSelector> ecmp = Make("ns3::EcmpPathSelector", 16);
        ecmp->SetAttribute("Entropy", UintegerValue(16));
        NS_TEST_ASSERT_MSG_EQ(ecmp->Validate(ctx),
                              "EcmpPathSelector: Entropy (16) must lie in [0, 16)",
                              "a pinned EV outside the space");
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * Every selector of the module: a short name of its own, the queue pair's events reach the
 * DoFeedback() hook as Feedback::GOOD, ECN, NACK and LOST (counted and traced by the base class),
 * and its counters are readable by name without knowing its class (REPS's freezes included).
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
    std::vector<std::pair<uint16_t, PathSelector::Feedback::Kind>> m_log;

    /**
     * Feedback trace sink.
     * \param ev the EV
     * \param kind what came back
     */
    void Feedback(uint16_t ev, PathSelector::Feedback::Kind kind)
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
            NS_TEST_ASSERT_MSG_EQ((m_log[1] == std::make_pair(b, PathSelector::Feedback::ECN)),
                                  true,
                                  "ECN");
            NS_TEST_ASSERT_MSG_EQ((m_log[3] == std::make_pair(b, PathSelector::Feedback::LOST)),
                                  true,
                                  "lost");
            NS_TEST_ASSERT_MSG_EQ(s->GetFeedbackCount(PathSelector::Feedback::GOOD), 1, typeName);
            NS_TEST_ASSERT_MSG_EQ(s->GetFeedbackCount(PathSelector::Feedback::ECN), 1, typeName);
            NS_TEST_ASSERT_MSG_EQ(s->GetFeedbackCount(PathSelector::Feedback::NACK), 1, typeName);
            NS_TEST_ASSERT_MSG_EQ(s->GetFeedbackCount(PathSelector::Feedback::LOST), 2, typeName);
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
            NS_TEST_ASSERT_MSG_EQ(s->GetFeedbackCount(PathSelector::Feedback::LOST), 0, typeName);
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
        AddTestCase(new FeedbackAsDataTestCase, reps::kQuick);
        AddTestCase(new SelectorValidateTestCase, reps::kQuick);
        AddTestCase(new ShuffleTestCase, reps::kQuick);
    }
};

/// The one instance of the suite.
static RepsPathSelectorTestSuite g_repsPathSelectorTestSuite;
