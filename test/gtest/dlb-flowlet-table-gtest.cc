/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Unit tests of the DLB flowlet table (model/dlb-flowlet-table.h): flowlets age out after the
// timeout, a live flowlet keeps its port, another flow's live flowlet in the same bucket is a
// collision.

#include "ns3/dlb-flowlet-table.h"

#include <cstdint>
#include <gtest/gtest.h>

using ns3::DlbFlowletTable;
using Result = DlbFlowletTable::Result;

namespace
{

constexpr int64_t kUs = 1000; // one microsecond in ns
constexpr int64_t kTimeout = 8 * kUs;

TEST(DlbFlowletTable, FirstPacketStartsAFlowlet)
{
    DlbFlowletTable t(64);
    DlbFlowletTable::Lookup l = t.Classify(1000, 0, kTimeout);
    EXPECT_EQ(l.result, Result::NEW);
    EXPECT_FALSE(l.hadPort);
    EXPECT_EQ(l.bucket, 1000u % 64u);
    t.Start(l.bucket, 1000, 3, 0);
    EXPECT_EQ(t.CountLive(0, kTimeout), 1u);
}

TEST(DlbFlowletTable, LiveFlowletKeepsItsPortAndIsRefreshed)
{
    DlbFlowletTable t(64);
    DlbFlowletTable::Lookup l = t.Classify(7, 0, kTimeout);
    t.Start(l.bucket, 7, 5, 0);
    // Packets 6 us apart: each within the timeout of the previous one, so the flowlet lives on
    // well past one timeout after its first packet.
    for (int64_t now = 6 * kUs; now <= 60 * kUs; now += 6 * kUs)
    {
        l = t.Classify(7, now, kTimeout);
        ASSERT_EQ(l.result, Result::LIVE) << "at " << now << " ns";
        EXPECT_EQ(l.port, 5u);
    }
}

TEST(DlbFlowletTable, GapLongerThanTheTimeoutAgesTheFlowletOut)
{
    DlbFlowletTable t(64);
    DlbFlowletTable::Lookup l = t.Classify(7, 0, kTimeout);
    t.Start(l.bucket, 7, 5, 0);
    EXPECT_EQ(t.Classify(7, kTimeout, kTimeout).result, Result::LIVE)
        << "a gap of exactly the timeout";
    l = t.Classify(7, 2 * kTimeout + 1, kTimeout);
    EXPECT_EQ(l.result, Result::NEW) << "a gap one ns longer than the timeout";
    EXPECT_TRUE(l.hadPort) << "the table remembers the flow's former port";
    EXPECT_EQ(l.port, 5u);
    EXPECT_EQ(t.CountLive(2 * kTimeout + 1, kTimeout), 0u);
    t.Start(l.bucket, 7, 2, 2 * kTimeout + 1);
    l = t.Classify(7, 2 * kTimeout + 2, kTimeout);
    EXPECT_EQ(l.result, Result::LIVE);
    EXPECT_EQ(l.port, 2u) << "the new flowlet's port";
}

TEST(DlbFlowletTable, AnotherFlowsLiveFlowletIsACollision)
{
    DlbFlowletTable t(16);
    DlbFlowletTable::Lookup l = t.Classify(3, 0, kTimeout);
    t.Start(l.bucket, 3, 1, 0);
    // 19 maps to the same bucket as 3 in a 16-bucket table.
    l = t.Classify(19, kUs, kTimeout);
    EXPECT_EQ(l.result, Result::COLLISION);
    EXPECT_EQ(t.Classify(3, 2 * kUs, kTimeout).result, Result::LIVE)
        << "a collision leaves the owner's flowlet alone";
    // Once the owner's flowlet is idle for longer than the timeout, the bucket is free.
    l = t.Classify(19, 2 * kUs + kTimeout + 1, kTimeout);
    EXPECT_EQ(l.result, Result::NEW);
    EXPECT_FALSE(l.hadPort) << "another flow's former port is not this flow's";
}

TEST(DlbFlowletTable, DifferentBucketsDoNotInterfere)
{
    DlbFlowletTable t(16);
    for (uint32_t h = 0; h < 16; h++)
    {
        DlbFlowletTable::Lookup l = t.Classify(h, 0, kTimeout);
        ASSERT_EQ(l.result, Result::NEW);
        t.Start(l.bucket, h, static_cast<uint16_t>(h), 0);
    }
    EXPECT_EQ(t.CountLive(0, kTimeout), 16u);
    for (uint32_t h = 0; h < 16; h++)
    {
        DlbFlowletTable::Lookup l = t.Classify(h, kUs, kTimeout);
        ASSERT_EQ(l.result, Result::LIVE);
        EXPECT_EQ(l.port, h);
    }
}

TEST(DlbFlowletTable, ZeroBucketsMeansOne)
{
    DlbFlowletTable t(0);
    EXPECT_EQ(t.GetSize(), 1u);
}

} // namespace
