/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Unit tests of the RCCC pull pacer core against the rules of the manual
// (doc/reps-uec-transport.rst, section "RCCC"): the active and idle queues, grants up to the
// target, slow pulls to idle senders, re-queueing after a trim or an RTS, and the pacing gap,
// on scripted events with hand-computed grants.
//
// The pacer of most tests: 16384 bytes per PULL, 100 Gb/s at 0.99, 1024 bytes' time for a
// PULL that grants nothing.

#include "ns3/rccc-pacer-core.h"

#include <cstdint>
#include <gtest/gtest.h>
#include <vector>

using ns3::RcccPacerCore;
using ns3::RcccPacerParameters;

namespace
{

constexpr int64_t kCredit = 16384;

RcccPacerParameters
TestParameters()
{
    RcccPacerParameters p;
    p.creditBytes = kCredit;
    p.rateBps = 100e9;
    p.rateFraction = 0.99;
    p.emptyPullBytes = 1024;
    return p;
}

/// \return the next pull (fails the test when there is none)
RcccPacerCore::Pull
NextPull(RcccPacerCore& core)
{
    RcccPacerCore::Pull pull;
    EXPECT_TRUE(core.Next(pull));
    return pull;
}

} // namespace

TEST(RcccPacerCore, IdleUntilASenderAsksAndWokenOnce)
{
    RcccPacerCore core(TestParameters());
    RcccPacerCore::Pull pull;
    EXPECT_FALSE(core.IsRunning());
    EXPECT_FALSE(core.Next(pull));
    EXPECT_TRUE(core.OnPullTarget(1, 40000, 0)) << "an idle pacer must run now";
    EXPECT_TRUE(core.IsRunning());
    EXPECT_FALSE(core.OnPullTarget(2, 40000, 0)) << "already running";
    EXPECT_FALSE(core.OnPullTarget(1, 30000, 0)) << "a lower target changes nothing";
    EXPECT_EQ(core.GetNActive(), 2u);
}

TEST(RcccPacerCore, GrantsUpToTheTargetThenSlowPullsUpToTheLimit)
{
    RcccPacerCore core(TestParameters());
    core.OnPullTarget(7, 40000, 40000);
    RcccPacerCore::Pull p = NextPull(core);
    EXPECT_EQ(p.sink, 7u);
    EXPECT_EQ(p.granted, kCredit);
    EXPECT_EQ(p.cumulative, kCredit);
    EXPECT_FALSE(p.slow);
    p = NextPull(core);
    EXPECT_EQ(p.cumulative, 2 * kCredit);
    p = NextPull(core);
    EXPECT_EQ(p.granted, 40000 - 2 * kCredit) << "never beyond the target";
    EXPECT_EQ(p.cumulative, 40000);
    EXPECT_EQ(core.GetNActive(), 0u);
    EXPECT_EQ(core.GetNIdle(), 1u) << "demand met: idle";
    EXPECT_EQ(core.GetBacklog(7), 0);
    // No active sender: slow pulls of a whole credit, until 40000 beyond the target.
    for (int i = 1; i <= 3; ++i)
    {
        p = NextPull(core);
        EXPECT_TRUE(p.slow);
        EXPECT_EQ(p.granted, kCredit);
        EXPECT_EQ(p.cumulative, 40000 + i * kCredit);
    }
    EXPECT_EQ(core.GetSlowCredit(7), 3 * kCredit);
    EXPECT_EQ(core.GetNIdle(), 0u) << "49152 >= 40000: no more slow pulls";
    EXPECT_FALSE(core.Next(p));
    EXPECT_FALSE(core.IsRunning());
}

TEST(RcccPacerCore, ActiveSendersTakeTurnsAheadOfIdleOnes)
{
    RcccPacerCore core(TestParameters());
    core.OnPullTarget(1, 2 * kCredit, 100000);
    core.OnPullTarget(2, 2 * kCredit, 100000);
    std::vector<uint32_t> order;
    for (int i = 0; i < 4; ++i)
    {
        order.push_back(NextPull(core).sink);
    }
    EXPECT_EQ(order, (std::vector<uint32_t>{1, 2, 1, 2}));
    // Both idle now; a new demand of 1 goes ahead of the slow pulls of 2.
    RcccPacerCore::Pull p = NextPull(core);
    EXPECT_EQ(p.sink, 1u);
    EXPECT_TRUE(p.slow);
    core.OnPullTarget(2, 2 * kCredit + 5000, 100000);
    EXPECT_EQ(core.GetNIdle(), 1u) << "2 left the idle queue: in one queue at a time";
    p = NextPull(core);
    EXPECT_EQ(p.sink, 2u);
    EXPECT_FALSE(p.slow);
    EXPECT_EQ(p.granted, 5000);
}

TEST(RcccPacerCore, ASenderIsQueuedOnce)
{
    RcccPacerCore core(TestParameters());
    core.OnPullTarget(3, 10 * kCredit, 0);
    core.OnPullTarget(3, 20 * kCredit, 0);
    core.Requeue(3, 0);
    EXPECT_EQ(core.GetNActive(), 1u);
    EXPECT_EQ(core.GetTarget(3), 20 * kCredit);
}

TEST(RcccPacerCore, ARequeueOfASatisfiedSenderGrantsNothingThenSlowPulls)
{
    RcccPacerCore core(TestParameters());
    core.OnPullTarget(4, kCredit, kCredit);
    NextPull(core);
    RcccPacerCore::Pull p = NextPull(core); // slow: 16384 beyond, the limit
    EXPECT_TRUE(p.slow);
    RcccPacerCore::Pull none;
    EXPECT_FALSE(core.Next(none));
    // A trim (or an RTS) from a sender whose target is met: it is heard, its credit stays.
    EXPECT_TRUE(core.Requeue(4, kCredit));
    p = NextPull(core);
    EXPECT_FALSE(p.slow);
    EXPECT_EQ(p.granted, 0);
    EXPECT_EQ(p.cumulative, 2 * kCredit) << "the cumulative count never goes back";
    EXPECT_EQ(core.GetNIdle(), 0u) << "it holds its slow limit already: no more slow pulls";
    EXPECT_FALSE(core.Next(none));
}

TEST(RcccPacerCore, StaleRequestsOfAnIdleSenderGiveNoMoreSlowCredit)
{
    // Old packets (duplicates draining from a slow link) keep raising the target a little:
    // each is heard, none hands out slow credit beyond the limit.
    RcccPacerCore core(TestParameters());
    core.OnPullTarget(6, 10000, 2 * kCredit);
    int64_t slow = 0;
    RcccPacerCore::Pull p;
    while (core.Next(p))
    {
        slow += p.slow ? p.granted : 0;
    }
    EXPECT_EQ(slow, 2 * kCredit);
    for (int64_t target = 10100; target < 10000 + 2 * kCredit; target += 4150)
    {
        core.OnPullTarget(6, target, 2 * kCredit);
        while (core.Next(p))
        {
            slow += p.slow ? p.granted : 0;
        }
    }
    // A slow pull goes only to a sink below its limit: it ends below limit + one PULL.
    EXPECT_LT(core.GetGranted(6), core.GetTarget(6) + 2 * kCredit + kCredit)
        << "at most about the limit beyond the highest target";
    EXPECT_LE(slow, 4 * kCredit) << "not one slow pull per stale packet (that would be 9)";
}

TEST(RcccPacerCore, ATargetBelowWhatWasGrantedStillNeverTakesCreditBack)
{
    RcccPacerCore core(TestParameters());
    core.OnPullTarget(5, 1000, 100000);
    NextPull(core);
    NextPull(core); // slow: granted 17384
    core.OnPullTarget(5, 9000, 100000);
    RcccPacerCore::Pull p = NextPull(core);
    EXPECT_EQ(p.granted, 0);
    EXPECT_EQ(p.cumulative, 1000 + kCredit);
}

TEST(RcccPacerCore, TheGapIsTheCreditsTimeAtTheFractionOfTheRate)
{
    RcccPacerCore core(TestParameters());
    EXPECT_DOUBLE_EQ(core.GapNs(kCredit), kCredit * 8 / 99.0); // 1323.96 ns at 99 Gb/s
    EXPECT_DOUBLE_EQ(core.GapNs(0), 1024 * 8 / 99.0) << "an empty PULL still takes time";
    core.SetRateFactor(0.5);
    EXPECT_DOUBLE_EQ(core.GapNs(kCredit), 2 * kCredit * 8 / 99.0);
    EXPECT_DOUBLE_EQ(core.GetRateFactor(), 0.5);
}

TEST(RcccPacerCore, ManySendersShareThePullsEqually)
{
    RcccPacerCore core(TestParameters());
    for (uint32_t s = 1; s <= 8; ++s)
    {
        core.OnPullTarget(s, 100 * kCredit, 0);
    }
    std::vector<int64_t> granted(9, 0);
    for (int i = 0; i < 8 * 37; ++i)
    {
        RcccPacerCore::Pull p = NextPull(core);
        granted[p.sink] += p.granted;
    }
    for (uint32_t s = 1; s <= 8; ++s)
    {
        EXPECT_EQ(granted[s], 37 * kCredit) << "sink " << s;
    }
}
