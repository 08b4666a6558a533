/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Unit tests of the RCCC oversubscription control against the rules of the manual
// (doc/reps-uec-transport.rst, section "RCCC"), with the reference simulator's constants:
// target 0.3, increase 0.01, decrease gain 0.5, ECN weight 0.5, least rate 0.01.

#include "ns3/rccc-oversubscription-core.h"

#include <cstdint>
#include <gtest/gtest.h>

using ns3::RcccOversubscriptionCore;
using ns3::RcccOversubscriptionParameters;

namespace
{

/// Count packets of one interval.
void
Arrive(RcccOversubscriptionCore& core,
       int packets,
       int marked,
       int trimmedOther = 0,
       int trimmedLastHop = 0)
{
    for (int i = 0; i < packets; ++i)
    {
        const bool other = i < trimmedOther;
        const bool lastHop = !other && i < trimmedOther + trimmedLastHop;
        const bool ce = !other && !lastHop && i < trimmedOther + trimmedLastHop + marked;
        core.OnPacket(ce, other || lastHop, lastHop);
    }
}

} // namespace

TEST(RcccOversubscriptionCore, StartsAtLineRateAndStaysThereUnmarked)
{
    RcccOversubscriptionCore core{RcccOversubscriptionParameters()};
    EXPECT_NEAR(core.GetRate(), 1.0, 1e-12);
    Arrive(core, 10, 0);
    EXPECT_EQ(core.GetPending(), 10u);
    EXPECT_NEAR(core.Update(), 1.0, 1e-12) << "never above 1";
    EXPECT_EQ(core.GetPending(), 0u);
    EXPECT_EQ(core.GetIncreaseCount(), 1u);
}

TEST(RcccOversubscriptionCore, TheEwmaOfTheMarkedFractionCutsAboveTheTarget)
{
    RcccOversubscriptionCore core{RcccOversubscriptionParameters()};
    Arrive(core, 10, 6);
    EXPECT_NEAR(core.Update(), 1.0, 1e-12) << "g = 0.3 is not above the target";
    EXPECT_NEAR(core.GetMarkedFraction(), 0.3, 1e-12);
    Arrive(core, 10, 10);
    EXPECT_NEAR(core.Update(), 1 - 0.35 * 0.5, 1e-12) << "g = 0.65";
    EXPECT_EQ(core.GetIncreaseCount(), 0u);
    Arrive(core, 10, 10);
    EXPECT_NEAR(core.Update(), 0.825 * (1 - 0.525 * 0.5), 1e-12) << "g = 0.825";
    Arrive(core, 10, 0);
    const double r = 0.825 * 0.7375 * (1 - 0.1125 * 0.5);
    EXPECT_NEAR(core.Update(), r, 1e-12) << "g = 0.4125, still above the target";
}

TEST(RcccOversubscriptionCore, UnmarkedIntervalsDoubleTheIncrease)
{
    RcccOversubscriptionCore core{RcccOversubscriptionParameters()};
    Arrive(core, 10, 10);
    Arrive(core, 0, 0);
    const double cut = core.Update(); // g = 0.5: x 0.9
    EXPECT_NEAR(cut, 0.9, 1e-12);
    Arrive(core, 10, 0);
    EXPECT_NEAR(core.Update(), 0.9 + 0.01, 1e-12) << "g = 0.25: + 0.01 x 2^0";
    Arrive(core, 10, 0);
    EXPECT_NEAR(core.Update(), 0.9 + 0.01 + 0.02, 1e-12) << "+ 0.01 x 2^1";
    Arrive(core, 10, 1);
    EXPECT_NEAR(core.Update(), 0.9 + 0.01 + 0.02 + 0.01, 1e-12) << "a mark: + 0.01 only";
    EXPECT_EQ(core.GetIncreaseCount(), 3u);
    Arrive(core, 10, 0);
    EXPECT_NEAR(core.Update(), 1.0, 1e-12) << "the count went on: + 0.01 x 2^3, capped at 1";
}

TEST(RcccOversubscriptionCore, TrimsInsideTheFabricCutByTheirShareNotLastHopOnes)
{
    RcccOversubscriptionCore core{RcccOversubscriptionParameters()};
    Arrive(core, 10, 0, 2);
    EXPECT_NEAR(core.Update(), 0.8, 1e-12) << "2 of 10 trimmed on the way";
    EXPECT_EQ(core.GetIncreaseCount(), 0u);
    Arrive(core, 10, 0, 0, 5);
    EXPECT_NEAR(core.Update(), 0.81, 1e-12) << "last-hop trims are the receiver's port: no cut";
}

TEST(RcccOversubscriptionCore, TheMarkedFractionCountsUntrimmedPacketsOnly)
{
    RcccOversubscriptionCore core{RcccOversubscriptionParameters()};
    Arrive(core, 10, 5, 0, 5);
    core.Update();
    EXPECT_NEAR(core.GetMarkedFraction(), 0.5, 1e-12) << "5 marked of 5 whole packets";
    // A CE mark on a trimmed header is not counted as a mark.
    RcccOversubscriptionCore other{RcccOversubscriptionParameters()};
    other.OnPacket(true, true, true);
    other.OnPacket(false, false, false);
    other.Update();
    EXPECT_NEAR(other.GetMarkedFraction(), 0.0, 1e-12);
}

TEST(RcccOversubscriptionCore, TheRateStaysAboveItsLeast)
{
    RcccOversubscriptionParameters p;
    p.minRate = 0.2;
    RcccOversubscriptionCore core(p);
    for (int i = 0; i < 20; ++i)
    {
        Arrive(core, 10, 2, 8);
        EXPECT_GE(core.Update(), 0.2);
    }
    EXPECT_NEAR(core.GetRate(), 0.2, 1e-12);
}
