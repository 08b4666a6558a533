/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Unit tests of the RCCC sender core against the rules of the manual
// (doc/reps-uec-transport.rst, section "RCCC"): speculative credit, spending, the end of
// speculation, PULLs, the pull target and the RTS interval, on scripted events with
// hand-computed credit.
//
// The connection of most tests: 100000 bytes of speculative credit (the most credit held),
// packets of 4142 bytes on the wire, at most one RTS per 12 us.

#include "ns3/rccc-sender-core.h"

#include <cstdint>
#include <gtest/gtest.h>

using ns3::RcccSenderCore;
using ns3::RcccSenderParameters;

namespace
{

constexpr int64_t kMax = 100000;
constexpr int64_t kPacket = 4142;

RcccSenderParameters
TestParameters()
{
    RcccSenderParameters p;
    p.maxCreditBytes = kMax;
    p.packetBytes = kPacket;
    p.rtsIntervalNs = 12000;
    return p;
}

/// A core that has stopped speculating with no credit left.
RcccSenderCore
Granted()
{
    RcccSenderCore core(TestParameters());
    core.StopSpeculating();
    return core;
}

} // namespace

TEST(RcccSenderCore, StartsSpeculatingWithTheLargestCredit)
{
    RcccSenderCore core(TestParameters());
    EXPECT_TRUE(core.IsSpeculating());
    EXPECT_TRUE(core.HasCredit());
    EXPECT_EQ(core.GetCredit(), kMax);
    EXPECT_EQ(core.GetPulled(), 0);
    EXPECT_EQ(core.GetMaxCredit(), kMax);
}

TEST(RcccSenderCore, SpeculativeCreditCanBeSmallerThanTheLargest)
{
    // The reference's -cwnd N: N packets of speculation; the most credit held is unchanged.
    RcccSenderParameters p = TestParameters();
    p.speculativeBytes = 2 * kPacket;
    RcccSenderCore core(p);
    EXPECT_EQ(core.GetCredit(), 2 * kPacket);
    EXPECT_EQ(core.GetMaxCredit(), kMax);
    core.OnSend(kPacket);
    EXPECT_TRUE(core.HasCredit());
    core.OnSend(kPacket);
    EXPECT_FALSE(core.HasCredit());
    EXPECT_EQ(core.StopSpeculating(), 0);
}

TEST(RcccSenderCore, AnyPositiveCreditSendsAPacketAndTheDebtStaysBelowOne)
{
    RcccSenderCore core(TestParameters());
    for (int i = 0; i < 24; ++i)
    {
        ASSERT_TRUE(core.HasCredit()) << "packet " << i;
        core.OnSend(kPacket);
    }
    EXPECT_EQ(core.GetCredit(), kMax - 24 * kPacket); // 592 bytes left: one more may leave
    EXPECT_TRUE(core.HasCredit());
    core.OnSend(kPacket);
    EXPECT_EQ(core.GetCredit(), 592 - kPacket);
    EXPECT_FALSE(core.HasCredit());
    EXPECT_GT(core.GetCredit(), -kPacket) << "a debt of less than one packet";
    EXPECT_EQ(core.GetSpent(), 25 * kPacket);
}

TEST(RcccSenderCore, TheFirstFeedbackDropsTheSpeculativeCreditLeftButKeepsADebt)
{
    RcccSenderCore core(TestParameters());
    for (int i = 0; i < 10; ++i)
    {
        core.OnSend(kPacket);
    }
    EXPECT_EQ(core.StopSpeculating(), kMax - 10 * kPacket);
    EXPECT_FALSE(core.IsSpeculating());
    EXPECT_EQ(core.GetCredit(), 0);
    EXPECT_FALSE(core.HasCredit()) << "now only granted credit sends";
    EXPECT_EQ(core.StopSpeculating(), 0) << "once";

    RcccSenderCore indebted(TestParameters());
    for (int i = 0; i < 25; ++i)
    {
        indebted.OnSend(kPacket);
    }
    EXPECT_EQ(indebted.StopSpeculating(), 0);
    EXPECT_EQ(indebted.GetCredit(), 592 - kPacket) << "a debt is not forgiven";
}

TEST(RcccSenderCore, PullsAddTheCumulativeDifferenceOnceAndInOrder)
{
    RcccSenderCore core = Granted();
    EXPECT_EQ(core.OnPull(16384), 16384);
    EXPECT_EQ(core.GetCredit(), 16384);
    EXPECT_EQ(core.OnPull(16384), 0) << "a repeated PULL adds nothing";
    EXPECT_EQ(core.OnPull(10000), 0) << "an older PULL adds nothing";
    EXPECT_EQ(core.GetPulled(), 16384);
    EXPECT_EQ(core.OnPull(49152), 32768) << "a lost PULL is made up by the next";
    EXPECT_EQ(core.GetCredit(), 49152);
    // The credit held never exceeds the largest (the rest of a grant is lost).
    EXPECT_EQ(core.OnPull(200000), kMax - 49152);
    EXPECT_EQ(core.GetCredit(), kMax);
    EXPECT_EQ(core.GetPulled(), 200000);
}

TEST(RcccSenderCore, PullsRepayADebtFirst)
{
    RcccSenderCore core(TestParameters());
    for (int i = 0; i < 25; ++i)
    {
        core.OnSend(kPacket);
    }
    core.StopSpeculating();
    EXPECT_EQ(core.OnPull(2000), 2000);
    EXPECT_EQ(core.GetCredit(), 592 - kPacket + 2000);
    EXPECT_FALSE(core.HasCredit()) << "still 1550 bytes short";
    EXPECT_EQ(core.OnPull(4000), 2000);
    EXPECT_TRUE(core.HasCredit());
}

TEST(RcccSenderCore, TheTargetIsTheBacklogCappedLessTheCreditHeldPlusWhatWasPulled)
{
    RcccSenderCore core = Granted();
    EXPECT_EQ(core.PullTarget(50000, 8284, -1, 1), 58284) << "new data and retransmissions";
    EXPECT_EQ(core.PullTarget(500000, 0, -1, 1), kMax) << "at most the largest credit";
    EXPECT_EQ(core.PullTarget(500000, 0, 20000, 1), 20000) << "at most the window plus a packet";
    core.OnPull(16384);
    EXPECT_EQ(core.PullTarget(500000, 0, -1, 1), 16384 + kMax - 16384)
        << "cumulative: what was pulled plus the credit still missing";
    EXPECT_EQ(core.PullTarget(4142, 0, -1, 1), 4142)
        << "less than it holds: 16384 + (4142 - 16384)";
    EXPECT_EQ(core.PullTarget(0, 0, -1, 1), 0) << "never negative";
}

TEST(RcccSenderCore, TheRequestIsSharedAmongTheSourcesWaitingOnTheNic)
{
    RcccSenderCore core = Granted();
    EXPECT_EQ(core.PullTarget(500000, 0, -1, 3), kMax / 3);
    EXPECT_EQ(core.PullTarget(500000, 0, -1, 1), core.PullTarget(500000, 0, -1, 0));
    core.OnPull(30000);
    EXPECT_EQ(core.PullTarget(500000, 0, -1, 2), 30000 + (kMax - 30000) / 2);
}

TEST(RcccSenderCore, AShortTransferAsksForAPacketWhileItSpeculates)
{
    RcccSenderCore core(TestParameters());
    core.OnSend(kPacket);
    // 95858 bytes held and one packet left: it wants less than nothing, but asks for one.
    EXPECT_EQ(core.PullTarget(kPacket, 0, -1, 1), kPacket);
    EXPECT_EQ(core.PullTarget(0, 0, -1, 1), 0) << "not when nothing new is left";
    EXPECT_EQ(core.PullTarget(0, kPacket, -1, 1), 0) << "retransmissions alone do not";
    core.StopSpeculating();
    EXPECT_EQ(core.PullTarget(kPacket, 0, -1, 1), kPacket) << "now: exactly what it misses";
    core.OnPull(100);
    EXPECT_EQ(core.PullTarget(kPacket, 0, -1, 1), kPacket) << "100 + (4142 - 100)";
}

TEST(RcccSenderCore, EachPacketAsksForWhatItSpentWhileSpeculating)
{
    // A long transfer: every speculative packet asks the receiver to replace what it spent.
    RcccSenderCore core(TestParameters());
    int64_t backlog = 1000000;
    for (int i = 1; i <= 5; ++i)
    {
        core.OnSend(kPacket);
        backlog -= kPacket;
        EXPECT_EQ(core.PullTarget(backlog, 0, -1, 1), i * kPacket) << "packet " << i;
    }
}

TEST(RcccSenderCore, AnRtsAtMostOncePerInterval)
{
    RcccSenderCore core = Granted();
    EXPECT_TRUE(core.MayRequest(0)) << "none sent yet";
    core.OnRequest(1000);
    EXPECT_FALSE(core.MayRequest(1000));
    EXPECT_FALSE(core.MayRequest(12999));
    EXPECT_TRUE(core.MayRequest(13000));
    core.OnRequest(13000);
    EXPECT_FALSE(core.MayRequest(20000));
}
