/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Unit tests of SampleSummary: nearest-rank percentiles.
 */

#include "ns3/sample-summary.h"

#include <cmath>
#include <gtest/gtest.h>

using ns3::SampleSummary;

TEST(SampleSummary, NearestRankPercentiles)
{
    std::vector<double> v;
    for (int i = 100; i >= 1; --i)
    {
        v.push_back(i); // unsorted on purpose
    }
    SampleSummary s = SampleSummary::Of(v);
    EXPECT_EQ(s.count, 100U);
    EXPECT_DOUBLE_EQ(s.mean, 50.5);
    EXPECT_DOUBLE_EQ(s.min, 1);
    EXPECT_DOUBLE_EQ(s.p50, 50);
    EXPECT_DOUBLE_EQ(s.p99, 99);
    EXPECT_DOUBLE_EQ(s.max, 100);

    SampleSummary three = SampleSummary::Of({5, 1, 3});
    EXPECT_DOUBLE_EQ(three.p50, 3);
    EXPECT_DOUBLE_EQ(three.p99, 5);
    EXPECT_DOUBLE_EQ(three.mean, 3);

    SampleSummary one = SampleSummary::Of({7});
    EXPECT_DOUBLE_EQ(one.p50, 7);
    EXPECT_DOUBLE_EQ(one.p99, 7);

    std::vector<double> sorted{1, 2, 3, 4};
    EXPECT_DOUBLE_EQ(SampleSummary::Percentile(sorted, 0), 1);
    EXPECT_DOUBLE_EQ(SampleSummary::Percentile(sorted, 25), 1);
    EXPECT_DOUBLE_EQ(SampleSummary::Percentile(sorted, 26), 2);
    EXPECT_DOUBLE_EQ(SampleSummary::Percentile(sorted, 100), 4);
}

TEST(SampleSummary, EmptyIsNaN)
{
    SampleSummary s = SampleSummary::Of({});
    EXPECT_EQ(s.count, 0U);
    EXPECT_TRUE(std::isnan(s.mean));
    EXPECT_TRUE(std::isnan(s.p99));
}
