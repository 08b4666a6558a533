/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "sample-summary.h"

#include "ns3/assert.h"
#include "ns3/log.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SampleSummary");

SampleSummary::SampleSummary()
    : count(0),
      mean(std::numeric_limits<double>::quiet_NaN()),
      min(std::numeric_limits<double>::quiet_NaN()),
      p50(std::numeric_limits<double>::quiet_NaN()),
      p99(std::numeric_limits<double>::quiet_NaN()),
      max(std::numeric_limits<double>::quiet_NaN())
{
}

double
SampleSummary::Percentile(const std::vector<double>& sorted, double p)
{
    NS_ASSERT_MSG(!sorted.empty(), "SampleSummary: percentile of an empty sample");
    NS_ASSERT_MSG(p >= 0 && p <= 100, "SampleSummary: percent must lie in [0, 100]");
    auto rank = static_cast<size_t>(std::ceil(p * static_cast<double>(sorted.size()) / 100.0));
    return sorted[rank == 0 ? 0 : std::min(rank, sorted.size()) - 1];
}

SampleSummary
SampleSummary::Of(std::vector<double> values)
{
    SampleSummary s;
    if (values.empty())
    {
        return s;
    }
    std::sort(values.begin(), values.end());
    s.count = values.size();
    s.mean = std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(s.count);
    s.min = values.front();
    s.max = values.back();
    s.p50 = Percentile(values, 50);
    s.p99 = Percentile(values, 99);
    return s;
}

} // namespace ns3
