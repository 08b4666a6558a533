/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Unit tests of the NSCC core against the rules of the manual (doc/reps-uec-transport.rst,
// section "NSCC"): scripted ACKs, NACKs and timeouts with hand-computed windows.
//
// The connection of most tests: MSS 1000 bytes, 100 Gb/s, base RTT 10 us (BDP 125000 bytes,
// largest window 187500), network RTT 12 us (so a = 1 against the 100 Gb/s x 12 us
// reference), target delay 6 us (b = 0.5). Per acked byte: fair increase 5 x 1000 = 5000,
// proportional increase 4 x 1000 x 0.5 = 2000 at zero delay; eta 150 bytes; fast increase
// 0.25 bytes. The smoothed delay takes each sample whole (weight 1) so that it is known.

#include "ns3/nscc-core.h"

#include <cstdint>
#include <gtest/gtest.h>

using ns3::NsccCore;
using ns3::NsccDecision;
using ns3::NsccParameters;

namespace
{

constexpr int64_t kBase = 10000;          // base RTT, ns
constexpr int64_t kTarget = 6000;         // target delay, ns
constexpr int64_t kNoPeriod = 1000000000; // an adjustment period never reached

NsccParameters
TestParameters()
{
    NsccParameters p;
    p.mss = 1000;
    p.lineRateBps = 100e9;
    p.baseRttNs = kBase;
    p.bdpBytes = 125000;
    p.networkRttNs = 12000;
    p.referenceRateBps = 100e9;
    p.referenceRttNs = 12000;
    p.targetDelayNs = kTarget;
    p.initialWindowBdp = 0.4; // 50000 bytes, room to grow
    p.delayEwma = 1;
    p.largeDelayEwma = 1;
    p.adjustPeriodNs = kNoPeriod;
    return p;
}

/// An RTT sample with the given queueing delay.
int64_t
Rtt(int64_t delay)
{
    return kBase + delay;
}

TEST(NsccCore, ScalingFactorsFollowTheReferenceNetwork)
{
    NsccParameters p = TestParameters();
    NsccCore core(p);
    EXPECT_DOUBLE_EQ(core.GetScalingA(), 1.0);
    EXPECT_DOUBLE_EQ(core.GetScalingB(), 0.5);
    EXPECT_DOUBLE_EQ(core.GetWindow(), 50000);
    EXPECT_DOUBLE_EQ(core.GetMaxWindow(), 187500);
    p.lineRateBps = 400e9;
    p.networkRttNs = 6000;
    EXPECT_DOUBLE_EQ(NsccCore(p).GetScalingA(), 2.0); // 400G x 6 us = 2 x (100G x 12 us)
}

TEST(NsccCore, FairIncreaseAccruesAndIsAppliedPerAdjustment)
{
    NsccCore core(TestParameters());
    // Delay 7 us >= target, unmarked: 5000 x 1000 accrue per ACK; applied once more than
    // 8 MSS were acknowledged (the 9th ACK): 9 x 5e6 / 50000 = 900 bytes.
    for (int i = 0; i < 8; ++i)
    {
        EXPECT_EQ(core.OnAck(1000, 1000, false, Rtt(7000)), NsccDecision::FAIR_INCREASE);
        EXPECT_DOUBLE_EQ(core.GetWindow(), 50000) << "ACK " << i;
    }
    EXPECT_EQ(core.OnAck(1000, 1000, false, Rtt(7000)), NsccDecision::FAIR_INCREASE);
    EXPECT_DOUBLE_EQ(core.GetWindow(), 50900);
}

TEST(NsccCore, ProportionalIncreaseScalesWithTheDistanceToTarget)
{
    NsccCore core(TestParameters());
    // Delay 2 us: 2000 x 1000 x (6 - 2) / 6 per ACK; 9 ACKs: 12e6 / 50000 = 240 bytes.
    for (int i = 0; i < 9; ++i)
    {
        EXPECT_EQ(core.OnAck(1000, 1000, false, Rtt(2000)), NsccDecision::PROPORTIONAL_INCREASE);
    }
    EXPECT_DOUBLE_EQ(core.GetWindow(), 50240);

    NsccCore nearTarget(TestParameters());
    for (int i = 0; i < 9; ++i)
    {
        nearTarget.OnAck(1000, 1000, false, Rtt(5000));
    }
    EXPECT_DOUBLE_EQ(nearTarget.GetWindow(), 50060); // 9 x 2e6 x 1/6 / 50000
}

TEST(NsccCore, FastIncreaseAfterAWindowOfNearZeroDelay)
{
    NsccParameters p = TestParameters();
    p.adjustBytesMss = 1e6; // no adjustment: the window stays 50000 while increases accrue
    NsccCore core(p);
    // Zero delay: proportional increase until more than a window (50000 bytes) was acked at
    // below 1 us; then each ACK adds 0.25 x its bytes at once.
    for (int i = 0; i < 50; ++i)
    {
        ASSERT_EQ(core.OnAck(1000, 1000, false, Rtt(0)), NsccDecision::PROPORTIONAL_INCREASE)
            << "ACK " << i;
    }
    EXPECT_DOUBLE_EQ(core.GetWindow(), 50000);
    EXPECT_EQ(core.OnAck(1000, 1000, false, Rtt(0)), NsccDecision::FAST_INCREASE);
    EXPECT_DOUBLE_EQ(core.GetWindow(), 50250);
    EXPECT_EQ(core.OnAck(1000, 1000, false, Rtt(500)), NsccDecision::FAST_INCREASE);
    EXPECT_DOUBLE_EQ(core.GetWindow(), 50500);
    // A delay of 1 us or more ends it.
    EXPECT_EQ(core.OnAck(1000, 1000, false, Rtt(1000)), NsccDecision::PROPORTIONAL_INCREASE);
    EXPECT_DOUBLE_EQ(core.GetWindow(), 50500);
}

TEST(NsccCore, MultiplicativeDecreaseAtMostOncePerBaseRtt)
{
    NsccCore core(TestParameters());
    // ECN and 12 us of delay (the smoothed delay is that sample): x (1 - 0.8 x 6/12) = 0.6.
    EXPECT_EQ(core.OnAck(1000, 1000, true, Rtt(12000)), NsccDecision::MULTIPLICATIVE_DECREASE);
    EXPECT_DOUBLE_EQ(core.GetWindow(), 30000);
    // Within one base RTT of that cut: held.
    EXPECT_EQ(core.OnAck(11000, 1000, true, Rtt(12000)), NsccDecision::DECREASE_HELD);
    EXPECT_DOUBLE_EQ(core.GetWindow(), 30000);
    // More than a base RTT later: cut again.
    EXPECT_EQ(core.OnAck(11001, 1000, true, Rtt(12000)), NsccDecision::MULTIPLICATIVE_DECREASE);
    EXPECT_DOUBLE_EQ(core.GetWindow(), 18000);
}

TEST(NsccCore, MultiplicativeDecreaseIsFlooredAtHalf)
{
    NsccParameters p = TestParameters();
    p.quickAdapt = false; // a delay this large would quick-adapt
    NsccCore core(p);
    // 1 - 0.8 x (200 - 6) / 200 = 0.224, floored at 0.5.
    EXPECT_EQ(core.OnAck(1000, 1000, true, Rtt(200000)), NsccDecision::MULTIPLICATIVE_DECREASE);
    EXPECT_DOUBLE_EQ(core.GetWindow(), 25000);
}

TEST(NsccCore, MarkedAckBelowTargetChangesNothing)
{
    NsccCore core(TestParameters());
    for (int i = 0; i < 20; ++i)
    {
        EXPECT_EQ(core.OnAck(1000 + i, 1000, true, Rtt(3000)), NsccDecision::NO_CHANGE);
    }
    EXPECT_DOUBLE_EQ(core.GetWindow(), 50000);
    // A marked ACK above target but with a smoothed delay below it does not cut either.
    NsccParameters p = TestParameters();
    p.delayEwma = 0.0125;
    NsccCore slow(p);
    EXPECT_EQ(slow.OnAck(1000, 1000, true, Rtt(7000)), NsccDecision::DECREASE_HELD);
    EXPECT_DOUBLE_EQ(slow.GetWindow(), 50000);
}

TEST(NsccCore, EtaOncePerAdjustmentPeriod)
{
    NsccParameters p = TestParameters();
    p.adjustPeriodNs = 12000;
    NsccCore core(p);
    EXPECT_EQ(core.OnAck(13000, 1000, true, Rtt(3000)), NsccDecision::NO_CHANGE);
    EXPECT_DOUBLE_EQ(core.GetWindow(), 50150); // nothing accrued, plus eta
    core.OnAck(14000, 1000, true, Rtt(3000));
    EXPECT_DOUBLE_EQ(core.GetWindow(), 50150); // the period has not passed again
}

/// A core with 100000 bytes in flight whose first quick-adapt period ended at 17 us with 5000
/// bytes achieved.
NsccCore
CoreBeforeQuickAdapt()
{
    NsccParameters p = TestParameters();
    p.initialWindowBdp = 1.5;
    NsccCore core(p);
    core.OnSend(100000);
    core.OnAck(1000, 1000, false, Rtt(3000)); // starts the period: ends at 1 + 10 + 6 us
    core.OnAck(2000, 5000, false, Rtt(3000));
    return core;
}

TEST(NsccCore, QuickAdaptOnNackSetsTheWindowToTheAchievedBytes)
{
    NsccCore core = CoreBeforeQuickAdapt();
    ASSERT_DOUBLE_EQ(core.GetWindow(), 187500);
    EXPECT_EQ(core.OnNack(20000, 1000), NsccDecision::QUICK_ADAPT);
    EXPECT_DOUBLE_EQ(core.GetWindow(), 5000);
    EXPECT_DOUBLE_EQ(core.GetBytesInFlight(), 93000);
    // The NACK injected a delay sample of one network RTT.
    EXPECT_DOUBLE_EQ(core.GetSmoothedDelay(), 12000);

    // The next window of marked feedback (the 93000 bytes in flight) is ignored ...
    for (int i = 0; i < 91; ++i)
    {
        ASSERT_EQ(core.OnAck(21000 + i, 1000, true, Rtt(12000)), NsccDecision::IGNORED)
            << "ACK " << i;
        ASSERT_DOUBLE_EQ(core.GetWindow(), 5000);
    }
    // ... and a NACK inside it neither cuts nor quick-adapts again.
    EXPECT_EQ(core.OnNack(30000, 1000), NsccDecision::IGNORED);
    EXPECT_DOUBLE_EQ(core.GetWindow(), 5000);
    // Once it was acknowledged, feedback counts again (a cut: more than a base RTT since none).
    EXPECT_EQ(core.OnAck(31000, 1000, true, Rtt(12000)), NsccDecision::MULTIPLICATIVE_DECREASE);
    EXPECT_DOUBLE_EQ(core.GetWindow(), 3000);
}

TEST(NsccCore, QuickAdaptAtMostOncePerBaseRttPlusTarget)
{
    NsccCore core = CoreBeforeQuickAdapt();
    EXPECT_EQ(core.OnNack(20000, 1000), NsccDecision::QUICK_ADAPT); // next check after 36 us
    core.OnSend(200000);
    // Acknowledge past the ignored window, unmarked, then NACK before 20 + 10 + 6 us: the
    // NACK only takes its packet off the window.
    for (int i = 0; i < 100; ++i)
    {
        core.OnAck(21000, 1000, false, Rtt(3000));
    }
    const double window = core.GetWindow();
    EXPECT_EQ(core.OnNack(36000, 1000), NsccDecision::NACK);
    EXPECT_DOUBLE_EQ(core.GetWindow(), window - 1000);
    // Just after: 101000 bytes were achieved in that period, more than max / 8: no quick adapt,
    // but a new period starts (until 36.001 + 16 us) with the NACK's request pending.
    EXPECT_EQ(core.OnAck(36001, 1000, false, Rtt(3000)), NsccDecision::PROPORTIONAL_INCREASE);
    EXPECT_GT(core.GetWindow(), 5000);
    // At its end, with 1000 bytes achieved, the pending request fires.
    EXPECT_EQ(core.OnAck(52002, 1000, false, Rtt(3000)), NsccDecision::QUICK_ADAPT);
    EXPECT_DOUBLE_EQ(core.GetWindow(), 1000);
}

TEST(NsccCore, QuickAdaptOnALargeDelayOnlyWithLittleAchieved)
{
    NsccCore core = CoreBeforeQuickAdapt();
    // Delay above 4 x target after the period: quick adapt.
    EXPECT_EQ(core.OnAck(20000, 1000, false, Rtt(25000)), NsccDecision::QUICK_ADAPT);
    EXPECT_DOUBLE_EQ(core.GetWindow(), 6000); // 5000 + this ACK's 1000

    // With more than max window / 8 (23437.5 bytes) achieved, it does not fire.
    NsccCore busy = CoreBeforeQuickAdapt();
    busy.OnAck(3000, 20000, false, Rtt(3000));
    EXPECT_NE(busy.OnAck(20000, 1000, false, Rtt(25000)), NsccDecision::QUICK_ADAPT);
    EXPECT_GT(busy.GetWindow(), 100000);
}

TEST(NsccCore, NackWithoutQuickAdaptRemovesThePacket)
{
    NsccParameters p = TestParameters();
    p.quickAdapt = false;
    NsccCore core(p);
    EXPECT_EQ(core.OnNack(1000, 4000), NsccDecision::NACK);
    EXPECT_DOUBLE_EQ(core.GetWindow(), 46000);
    EXPECT_EQ(core.OnTimeout(4000), NsccDecision::TIMEOUT);
    EXPECT_DOUBLE_EQ(core.GetWindow(), 42000);
}

TEST(NsccCore, WindowStaysWithinOneMssAndTheLargestWindow)
{
    NsccParameters p = TestParameters();
    p.initialWindowBdp = 1.5;
    p.adjustPeriodNs = 1000;
    NsccCore core(p);
    for (int i = 0; i < 2000; ++i)
    {
        core.OnAck(1000 * i, 1000, false, Rtt(i % 2 ? 0 : 7000));
        ASSERT_LE(core.GetWindow(), 187500) << "ACK " << i;
    }
    EXPECT_DOUBLE_EQ(core.GetWindow(), 187500);
    for (int i = 0; i < 300; ++i)
    {
        core.OnNack(2000000 + 100000 * i, 4000);
        core.OnTimeout(4000);
        core.OnAck(2000000 + 100000 * i + 50000, 1000, true, Rtt(100000));
        ASSERT_GE(core.GetWindow(), 1000) << "round " << i;
    }
    core.OnTimeout(4000);
    EXPECT_DOUBLE_EQ(core.GetWindow(), 1000);
}

TEST(NsccCore, BaseRttFollowsTheLeastSampleAndLowersTheLargestWindow)
{
    NsccCore core(TestParameters());
    core.OnAck(1000, 1000, false, 8000);
    EXPECT_EQ(core.GetBaseRtt(), 8000);
    EXPECT_DOUBLE_EQ(core.GetMaxWindow(), 150000); // 1.5 x 125000 x 8/10
    core.OnAck(2000, 1000, false, 9000);
    EXPECT_EQ(core.GetBaseRtt(), 8000);
}

TEST(NsccCore, SmoothedDelayCountsUnmarkedHighSamplesAsAQuarterBaseRtt)
{
    NsccParameters p = TestParameters();
    p.delayEwma = 0.5;
    p.largeDelayEwma = 0.5;
    NsccCore core(p);
    core.OnAck(1000, 1000, true, Rtt(8000)); // marked: the sample itself
    EXPECT_DOUBLE_EQ(core.GetSmoothedDelay(), 4000);
    core.OnAck(2000, 1000, false, Rtt(8000)); // unmarked above target: 0.25 x 10 us
    EXPECT_DOUBLE_EQ(core.GetSmoothedDelay(), 0.5 * 2500 + 0.5 * 4000);
    core.OnAck(3000, 1000, false, 0); // no sample: no change
    EXPECT_DOUBLE_EQ(core.GetSmoothedDelay(), 3250);
}

TEST(NsccCore, SameFeedbackSameWindows)
{
    auto run = []() {
        NsccCore core(TestParameters());
        double sum = 0;
        for (int i = 0; i < 500; ++i)
        {
            const bool ce = (i * 7) % 5 == 0;
            core.OnAck(1000 * i, 1000, ce, Rtt((i * 1337) % 20000));
            sum += core.GetWindow();
        }
        return sum;
    };
    EXPECT_EQ(run(), run());
}

} // namespace
