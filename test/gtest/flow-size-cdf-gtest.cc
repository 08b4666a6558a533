/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Unit tests of FlowSizeCdf: parsing, mean, quantiles, the built-in distributions.
 */

#include "ns3/flow-size-cdf.h"

#include <gtest/gtest.h>

using ns3::FlowSizeCdf;

TEST(FlowSizeCdf, ParsesAndComputesMeanAndQuantiles)
{
    FlowSizeCdf cdf;
    std::string error;
    ASSERT_TRUE(cdf.Parse("# comment\n\n0 0\n100 50\n200 100\n", error)) << error;
    ASSERT_EQ(cdf.GetPoints().size(), 3U);
    EXPECT_DOUBLE_EQ(cdf.GetPoints()[1].cumulative, 0.5);
    EXPECT_DOUBLE_EQ(cdf.GetMean(), 100); // 0.5 * 50 + 0.5 * 150
    EXPECT_DOUBLE_EQ(cdf.Quantile(0.25), 50);
    EXPECT_DOUBLE_EQ(cdf.Quantile(0.75), 150);
    EXPECT_DOUBLE_EQ(cdf.Quantile(0), 0);
    EXPECT_DOUBLE_EQ(cdf.Quantile(1), 200);
    EXPECT_DOUBLE_EQ(cdf.GetMax(), 200);

    // Mass at the first point: 20% of flows are exactly 1000 bytes.
    ASSERT_TRUE(cdf.Parse("1000 20\n2000 100\n", error)) << error;
    EXPECT_DOUBLE_EQ(cdf.GetMean(), 0.2 * 1000 + 0.8 * 1500);
    EXPECT_DOUBLE_EQ(cdf.Quantile(0.1), 1000);
}

TEST(FlowSizeCdf, BuiltinsHaveTheDocumentedMeans)
{
    FlowSizeCdf cdf;
    std::string error;
    ASSERT_TRUE(cdf.Load("websearch", error)) << error;
    EXPECT_EQ(cdf.GetPoints().size(), 12U);
    // Sum over segments of (c2 - c1) * (v1 + v2) / 2 of the web-search table.
    EXPECT_NEAR(cdf.GetMean(), 1711250, 1e-6);
    EXPECT_DOUBLE_EQ(cdf.Quantile(0.53), 80000);
    ASSERT_TRUE(cdf.Load("hadoop", error)) << error;
    EXPECT_EQ(cdf.GetPoints().size(), 20U);
    EXPECT_DOUBLE_EQ(cdf.GetMax(), 10000000);
}

TEST(FlowSizeCdf, RejectsBadInput)
{
    FlowSizeCdf cdf;
    std::string error;
    EXPECT_FALSE(cdf.Parse("0 0\n100 50\n", error));
    EXPECT_NE(error.find("100 percent"), std::string::npos) << error;
    EXPECT_FALSE(cdf.Parse("0 0\n100 60\n50 100\n", error));
    EXPECT_NE(error.find("line 3"), std::string::npos) << error;
    EXPECT_FALSE(cdf.Parse("0 0\n100 120\n", error));
    EXPECT_FALSE(cdf.Parse("-5 0\n100 100\n", error));
    EXPECT_FALSE(cdf.Parse("0 0\n100 100 7\n", error));
    EXPECT_FALSE(cdf.Parse("zero 0\n", error));
    EXPECT_FALSE(cdf.Parse("# nothing\n", error));
    EXPECT_FALSE(cdf.Load("/no/such/file.cdf", error));
    EXPECT_NE(error.find("websearch"), std::string::npos) << error;
    EXPECT_FALSE(cdf.IsValid()) << "a failed parse leaves the distribution unset";
}

TEST(FlowSizeCdf, RejectsSizesItCannotDraw)
{
    FlowSizeCdf cdf;
    std::string error;
    // Larger than FlowSizeCdf::MAX_BYTES, or a mean below one byte (flows arriving faster
    // than any run could hold).
    EXPECT_FALSE(cdf.Parse("0 0\n1e30 100\n", error));
    EXPECT_NE(error.find("line 2"), std::string::npos) << error;
    EXPECT_FALSE(cdf.Parse("0 99.99\n1 100\n", error));
    EXPECT_NE(error.find("mean"), std::string::npos) << error;
    EXPECT_EQ(error.rfind("line 2: ", 0), 0U) << "names the line, as every error does: " << error;
    EXPECT_FALSE(cdf.Parse("0 0\n0 100\n", error));
    EXPECT_TRUE(cdf.Parse("0 0\n2 100\n", error)) << error;
    EXPECT_FALSE(cdf.Load("/", error));
    EXPECT_NE(error.find("is a directory"), std::string::npos) << error;
}

// Found by test/fuzz/flow-size-cdf-fuzz.cc (corpus input huge-sizes): sizes near the largest
// double made the mean infinite, and samples past 2^63 do not round to a flow size.
TEST(FlowSizeCdf, RejectsSizesPastMaxBytes)
{
    FlowSizeCdf cdf;
    std::string error;
    EXPECT_FALSE(cdf.Parse("0 0\n1e300 50\n1.7976931348623157e308 100\n", error));
    EXPECT_EQ(error.rfind("line 2: ", 0), 0U) << error;
    EXPECT_FALSE(cdf.IsValid());
    ASSERT_TRUE(cdf.Parse("0 0\n1099511627776 100\n", error)) << error;
    EXPECT_DOUBLE_EQ(cdf.GetMean(), FlowSizeCdf::MAX_BYTES / 2);
    EXPECT_DOUBLE_EQ(cdf.Quantile(1), FlowSizeCdf::MAX_BYTES);
}

// Found by test/fuzz/flow-size-cdf-fuzz.cc: the one error without a line number.
TEST(FlowSizeCdf, ErrorsNameTheLine)
{
    FlowSizeCdf cdf;
    std::string error;
    EXPECT_FALSE(cdf.Parse("0 0\n100 99\n\n# end\n", error));
    EXPECT_EQ(error.rfind("line 2: the last point must be at 100 percent", 0), 0U) << error;
    EXPECT_FALSE(cdf.Parse("# only a comment\n\n", error));
    EXPECT_EQ(error.rfind("no points", 0), 0U) << error;
}
