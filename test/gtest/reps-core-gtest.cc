/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Unit tests of the REPS core against the rules of the manual (doc/reps-path-selectors.rst,
// section "REPS", "Algorithm"): scripted sequences of ACKs, ECN marks, NACKs and timeouts,
// with a scripted source of random EVs.

#include "ns3/reps-core.h"

#include <cstdint>
#include <gtest/gtest.h>
#include <vector>

using ns3::RepsCore;
using ns3::RepsExploration;

namespace
{

using Core = RepsCore<>;
using Source = Core::Source;

/// Random EVs from a script: 60000, 60001, ... and counts how many were drawn.
struct ScriptedRandom
{
    uint16_t next{60000}; //!< The next "random" EV.
    uint32_t draws{0};    //!< EVs drawn so far.

    uint16_t operator()()
    {
        ++draws;
        return next++;
    }
};

constexpr int64_t kMs = 1000000; // one millisecond in ns

TEST(RepsCore, StateFitsThePapersBudget)
{
    EXPECT_LE(sizeof(RepsCore<>), 25u);
    EXPECT_EQ(sizeof(RepsCore<>), 25u) << "the byte accounting in reps-core.h is out of date";
    EXPECT_EQ(RepsCore<>::GetCapacity(), 8u);
}

TEST(RepsCore, EmptyBufferFallsBackToRandom)
{
    Core core;
    ScriptedRandom rng;
    auto p = core.Next(rng);
    EXPECT_EQ(p.source, Source::RANDOM);
    EXPECT_EQ(p.ev, 60000);
    p = core.Next(rng);
    EXPECT_EQ(p.source, Source::RANDOM);
    EXPECT_EQ(p.ev, 60001);
    EXPECT_EQ(rng.draws, 2u);
}

TEST(RepsCore, ReusesCachedEntropiesOldestFirstAndOnlyOnce)
{
    Core core;
    ScriptedRandom rng;
    for (uint16_t ev : {10, 20, 30})
    {
        auto out = core.OnAck(ev, false, 0, 100);
        EXPECT_TRUE(out.cached);
        EXPECT_FALSE(out.discarded);
    }
    EXPECT_EQ(core.GetValidCount(), 3u);
    for (uint16_t ev : {10, 20, 30})
    {
        auto p = core.Next(rng);
        EXPECT_EQ(p.source, Source::RECYCLED);
        EXPECT_EQ(p.ev, ev);
    }
    EXPECT_EQ(core.GetValidCount(), 0u);
    EXPECT_EQ(core.Next(rng).source, Source::RANDOM);
    EXPECT_EQ(rng.draws, 1u) << "random EVs drawn while cached ones were available";
}

TEST(RepsCore, InterleavedAcksKeepFifoOrder)
{
    Core core;
    ScriptedRandom rng;
    core.OnAck(1, false, 0, 100);
    core.OnAck(2, false, 0, 100);
    EXPECT_EQ(core.Next(rng).ev, 1);
    core.OnAck(3, false, 0, 100);
    EXPECT_EQ(core.Next(rng).ev, 2);
    core.OnAck(4, false, 0, 100);
    EXPECT_EQ(core.Next(rng).ev, 3);
    EXPECT_EQ(core.Next(rng).ev, 4);
    EXPECT_EQ(core.Next(rng).source, Source::RANDOM);
}

TEST(RepsCore, EcnMarkedEntropiesAreNeverReused)
{
    Core core;
    ScriptedRandom rng;
    auto out = core.OnAck(10, true, 0, 100);
    EXPECT_TRUE(out.discarded);
    EXPECT_FALSE(out.cached);
    core.OnAck(20, false, 0, 100);
    core.OnAck(30, true, 0, 100);
    EXPECT_EQ(core.GetValidCount(), 1u);
    auto p = core.Next(rng);
    EXPECT_EQ(p.ev, 20);
    EXPECT_EQ(p.source, Source::RECYCLED);
    for (int i = 0; i < 20; ++i)
    {
        p = core.Next(rng);
        EXPECT_NE(p.ev, 10);
        EXPECT_NE(p.ev, 30);
        EXPECT_EQ(p.source, Source::RANDOM);
    }
}

TEST(RepsCore, FullBufferOverwritesTheOldest)
{
    Core core;
    ScriptedRandom rng;
    for (uint16_t ev = 1; ev <= 11; ++ev)
    {
        core.OnAck(ev, false, 0, 100);
    }
    EXPECT_EQ(core.GetValidCount(), 8u) << "valid count must saturate at 8";
    for (uint16_t ev = 4; ev <= 11; ++ev)
    {
        auto p = core.Next(rng);
        EXPECT_EQ(p.source, Source::RECYCLED);
        EXPECT_EQ(p.ev, ev) << "1, 2 and 3 should have been overwritten";
    }
    EXPECT_EQ(core.Next(rng).source, Source::RANDOM);
}

TEST(RepsCore, OverwritingAConsumedSlotCountsItValidAgain)
{
    Core core;
    ScriptedRandom rng;
    for (uint16_t ev = 1; ev <= 8; ++ev)
    {
        core.OnAck(ev, false, 0, 100);
    }
    EXPECT_EQ(core.Next(rng).ev, 1);
    EXPECT_EQ(core.GetValidCount(), 7u);
    core.OnAck(9, false, 0, 100); // lands in slot 0, which held the consumed 1
    EXPECT_EQ(core.GetValidCount(), 8u);
    core.OnAck(10, false, 0, 100); // overwrites 2, still valid: count stays at 8
    EXPECT_EQ(core.GetValidCount(), 8u);
    std::vector<uint16_t> got;
    for (int i = 0; i < 8; ++i)
    {
        got.push_back(core.Next(rng).ev);
    }
    EXPECT_EQ(got, (std::vector<uint16_t>{3, 4, 5, 6, 7, 8, 9, 10}));
}

TEST(RepsCore, OtherBufferSizes)
{
    RepsCore<1> one;
    ScriptedRandom rng;
    one.OnAck(5, false, 0, 10);
    one.OnAck(6, false, 0, 10);
    EXPECT_EQ(one.GetValidCount(), 1u);
    EXPECT_EQ(one.Next(rng).ev, 6);
    EXPECT_EQ(one.Next(rng).source, RepsCore<1>::Source::RANDOM);

    RepsCore<32> big;
    for (uint16_t ev = 100; ev < 140; ++ev)
    {
        big.OnAck(ev, false, 0, 10);
    }
    EXPECT_EQ(big.GetValidCount(), 32u);
    for (uint16_t ev = 108; ev < 140; ++ev)
    {
        EXPECT_EQ(big.Next(rng).ev, ev);
    }
    EXPECT_EQ(big.Next(rng).source, RepsCore<32>::Source::RANDOM);
}

TEST(RepsCore, FailureSignalRule)
{
    // With trimming any timeout counts, whatever the RTTs.
    EXPECT_TRUE(Core::IsFailureSignal(true, 1000000, 10000, 1.65));
    // Without trimming only when the recent maximum RTT is below 1.65 x base RTT.
    EXPECT_TRUE(Core::IsFailureSignal(false, 16000, 10000, 1.65));
    EXPECT_TRUE(Core::IsFailureSignal(false, 16499, 10000, 1.65));
    EXPECT_FALSE(Core::IsFailureSignal(false, 16500, 10000, 1.65));
    EXPECT_FALSE(Core::IsFailureSignal(false, 40000, 10000, 1.65));
}

TEST(RepsCore, FreezesOnlyWhenNeitherFrozenNorExploring)
{
    Core core;
    ScriptedRandom rng;
    EXPECT_TRUE(core.CanFreeze());
    EXPECT_TRUE(core.Freeze(0, 10 * kMs));
    EXPECT_TRUE(core.IsFrozen());
    uint32_t end = core.GetFreezeEndTick();
    // Already frozen: a second failure signal neither refreezes nor extends the freeze.
    EXPECT_FALSE(core.Freeze(5 * kMs, 10 * kMs));
    EXPECT_EQ(core.GetFreezeEndTick(), end);
    // Leaving freezing starts exploration; no freezing while exploring.
    EXPECT_TRUE(core.OnAck(1, false, 10 * kMs, 3).freezeEnded);
    EXPECT_FALSE(core.IsFrozen());
    EXPECT_EQ(core.GetExplorationCounter(), 3u);
    EXPECT_FALSE(core.CanFreeze());
    EXPECT_FALSE(core.Freeze(11 * kMs, 10 * kMs));
    EXPECT_FALSE(core.IsFrozen());
    core.Next(rng);
    core.Next(rng);
    EXPECT_FALSE(core.Freeze(11 * kMs, 10 * kMs)) << "one exploration packet is still due";
    core.Next(rng);
    EXPECT_EQ(core.GetExplorationCounter(), 0u);
    EXPECT_TRUE(core.Freeze(12 * kMs, 10 * kMs));
}

TEST(RepsCore, FrozenCyclesEverFilledSlotsIncludingConsumedOnes)
{
    Core core;
    ScriptedRandom rng;
    for (uint16_t ev : {1, 2, 3})
    {
        core.OnAck(ev, false, 0, 100);
    }
    EXPECT_EQ(core.Next(rng).ev, 1); // consumed before freezing
    ASSERT_TRUE(core.Freeze(0, kMs));
    std::vector<uint16_t> got;
    for (int i = 0; i < 7; ++i)
    {
        auto p = core.Next(rng);
        EXPECT_EQ(p.source, Source::FROZEN);
        got.push_back(p.ev);
    }
    EXPECT_EQ(got, (std::vector<uint16_t>{1, 2, 3, 1, 2, 3, 1}));
    EXPECT_EQ(core.GetValidCount(), 0u) << "frozen reuse must clear the valid bits";
    EXPECT_EQ(rng.draws, 0u);
    // ACKs are still cached while frozen and join the round robin.
    core.OnAck(4, false, kMs / 2, 100);
    EXPECT_EQ(core.GetValidCount(), 1u);
    got.clear();
    for (int i = 0; i < 5; ++i)
    {
        got.push_back(core.Next(rng).ev);
    }
    EXPECT_EQ(got, (std::vector<uint16_t>{2, 3, 4, 1, 2}));
}

TEST(RepsCore, FrozenRoundRobinStartsAtTheOldestSlotOfAFullBuffer)
{
    Core core;
    ScriptedRandom rng;
    for (uint16_t ev = 1; ev <= 10; ++ev)
    {
        core.OnAck(ev, false, 0, 100);
    }
    ASSERT_TRUE(core.Freeze(0, kMs));
    std::vector<uint16_t> got;
    for (int i = 0; i < 9; ++i)
    {
        got.push_back(core.Next(rng).ev);
    }
    EXPECT_EQ(got, (std::vector<uint16_t>{3, 4, 5, 6, 7, 8, 9, 10, 3}));
}

TEST(RepsCore, FrozenWithNothingCachedIsRandom)
{
    Core core;
    ScriptedRandom rng;
    ASSERT_TRUE(core.Freeze(0, kMs));
    auto p = core.Next(rng);
    EXPECT_EQ(p.source, Source::RANDOM);
    EXPECT_EQ(rng.draws, 1u);
    // ECN-marked ACKs fill nothing.
    core.OnAck(9, true, 1, 100);
    EXPECT_EQ(core.Next(rng).source, Source::RANDOM);
}

TEST(RepsCore, LazyExitClearsTheBufferAndExploresOneBdp)
{
    Core core;
    ScriptedRandom rng;
    for (uint16_t ev : {1, 2, 3})
    {
        core.OnAck(ev, false, 0, 100);
    }
    ASSERT_TRUE(core.Freeze(0, kMs));
    // Time passing alone ends nothing: the exit is checked on feedback.
    EXPECT_EQ(core.Next(rng).source, Source::FROZEN);
    EXPECT_TRUE(core.IsFrozen());
    // Feedback just before the end: still frozen (the EV is cached).
    auto out = core.OnAck(4, false, kMs - 1, 5);
    EXPECT_FALSE(out.freezeEnded);
    EXPECT_TRUE(core.IsFrozen());
    // An ECN-marked ACK after the end still ends freezing.
    out = core.OnAck(5, true, kMs, 5);
    EXPECT_TRUE(out.freezeEnded);
    EXPECT_TRUE(out.discarded);
    EXPECT_FALSE(core.IsFrozen());
    EXPECT_EQ(core.GetValidCount(), 0u) << "the buffer must be cleared";
    EXPECT_EQ(core.GetFilledCount(), 0u);
    EXPECT_EQ(core.GetExplorationCounter(), 5u);
    // Unmarked ACK after the exit: cached in the cleared buffer.
    core.OnAck(6, false, kMs + 1, 5);
    uint32_t before = rng.draws;
    for (int i = 0; i < 5; ++i)
    {
        auto p = core.Next(rng);
        EXPECT_EQ(p.source, Source::EXPLORE);
        EXPECT_GE(p.ev, 60000);
    }
    EXPECT_EQ(rng.draws - before, 5u);
    auto p = core.Next(rng);
    EXPECT_EQ(p.source, Source::RECYCLED);
    EXPECT_EQ(p.ev, 6) << "only EVs cached after the exit may be reused";
    EXPECT_EQ(core.Next(rng).source, Source::RANDOM);
}

TEST(RepsCore, UnmarkedAckThatEndsFreezingIsCachedAfterTheClear)
{
    Core core;
    ScriptedRandom rng;
    core.OnAck(1, false, 0, 100);
    ASSERT_TRUE(core.Freeze(0, kMs));
    auto out = core.OnAck(2, false, 2 * kMs, 0);
    EXPECT_TRUE(out.freezeEnded);
    EXPECT_TRUE(out.cached);
    EXPECT_EQ(core.GetValidCount(), 1u);
    EXPECT_EQ(core.Next(rng).ev, 2);
    EXPECT_EQ(core.Next(rng).source, Source::RANDOM) << "1 must be gone";
}

TEST(RepsCore, ExplorationEveryEighthPacket)
{
    Core core;
    ScriptedRandom rng;
    ASSERT_TRUE(core.Freeze(0, kMs));
    core.OnAck(77, false, kMs, 20); // ends freezing, explore 20, caches 77
    std::vector<Source> sources;
    for (int i = 0; i < 20; ++i)
    {
        sources.push_back(core.Next(rng, RepsExploration::EVERY_EIGHTH).source);
    }
    EXPECT_EQ(core.GetExplorationCounter(), 0u);
    for (int i = 0; i < 20; ++i)
    {
        // Remaining counts 19 .. 0 after each packet: random at 16, 8 and 0.
        bool random = (i == 3 || i == 11 || i == 19);
        if (random)
        {
            EXPECT_EQ(sources[i], Source::EXPLORE) << "packet " << i;
        }
        else
        {
            EXPECT_NE(sources[i], Source::EXPLORE) << "packet " << i;
        }
    }
    EXPECT_EQ(sources[0], Source::RECYCLED) << "non-exploring packets fall through to the cache";
    EXPECT_EQ(sources[1], Source::RANDOM);

    // The all-random variant explores every packet of the window.
    Core all;
    ASSERT_TRUE(all.Freeze(0, kMs));
    all.OnAck(77, false, kMs, 20);
    for (int i = 0; i < 20; ++i)
    {
        EXPECT_EQ(all.Next(rng, RepsExploration::ALL_RANDOM).source, Source::EXPLORE);
    }
    EXPECT_EQ(all.Next(rng).source, Source::RECYCLED);
}

TEST(RepsCore, ShortWindowEveryEighthStillExploresOnce)
{
    Core core;
    ScriptedRandom rng;
    ASSERT_TRUE(core.Freeze(0, kMs));
    core.OnAck(77, true, kMs, 3);
    int explored = 0;
    for (int i = 0; i < 3; ++i)
    {
        explored += core.Next(rng, RepsExploration::EVERY_EIGHTH).source == Source::EXPLORE;
    }
    EXPECT_EQ(explored, 1);
}

TEST(RepsCore, NackNeverCaches)
{
    Core core;
    ScriptedRandom rng;
    EXPECT_FALSE(core.OnNack(42, 0, 3));
    EXPECT_EQ(core.GetValidCount(), 0u);
    EXPECT_EQ(core.Next(rng).source, Source::RANDOM);
    ASSERT_TRUE(core.Freeze(0, kMs));
    EXPECT_FALSE(core.OnNack(43, kMs - 1, 3)) << "the freeze has not lasted long enough";
    EXPECT_TRUE(core.IsFrozen());
    EXPECT_EQ(core.GetFilledCount(), 0u);
}

TEST(RepsCore, NackEndsAFreezeThatHasLasted)
{
    Core core;
    ScriptedRandom rng;
    core.OnAck(5, false, 0, 3);
    ASSERT_TRUE(core.Freeze(0, kMs));
    EXPECT_TRUE(core.OnNack(43, kMs, 3)) << "any feedback ends the freeze once it is due";
    EXPECT_FALSE(core.IsFrozen());
    EXPECT_EQ(core.GetValidCount(), 0u) << "leaving the freeze clears the buffer";
    EXPECT_EQ(core.GetExplorationCounter(), 3u);
    EXPECT_EQ(core.Next(rng).source, Source::EXPLORE);
}

TEST(RepsCore, ExplorationCounterSaturates)
{
    Core core;
    ASSERT_TRUE(core.Freeze(0, kMs));
    core.OnAck(1, false, kMs, 1000000);
    EXPECT_EQ(core.GetExplorationCounter(), 65535u);
}

TEST(RepsCore, FreezeEndSurvivesTheWrapOfTheTickCounter)
{
    Core core;
    const int64_t start = (int64_t{1} << 32) - 100; // 100 ns before the 32-bit wrap
    ASSERT_TRUE(core.Freeze(start, 1000));
    EXPECT_FALSE(core.OnAck(1, false, start + 999, 8).freezeEnded);
    EXPECT_TRUE(core.IsFrozen());
    EXPECT_TRUE(core.OnAck(1, false, start + 1000, 8).freezeEnded);
}

TEST(RepsCore, ResetForgetsEverything)
{
    Core core;
    ScriptedRandom rng;
    core.OnAck(1, false, 0, 8);
    core.Freeze(0, kMs);
    core.Reset();
    EXPECT_FALSE(core.IsFrozen());
    EXPECT_EQ(core.GetValidCount(), 0u);
    EXPECT_EQ(core.GetFilledCount(), 0u);
    EXPECT_EQ(core.GetExplorationCounter(), 0u);
    EXPECT_EQ(core.Next(rng).source, Source::RANDOM);
}

} // namespace
