/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * libFuzzer target: FlowSizeCdf::Parse (the reader behind FlowSizeCdf::Load) on arbitrary
 * text.
 *
 * Checked for every input: the text is either accepted as a valid distribution (points
 * finite, sizes in [0, MAX_BYTES], sizes and probabilities non-decreasing, the last at 1) whose
 * mean and quantiles are finite and within its range, and whose EmpiricalRandomVariable samples
 * stay within its range; or rejected with an error naming the line at fault (or saying that there
 * is no point), leaving the previous distribution in place.
 *
 * reps-fuzz-sources: helper/flow-size-cdf.cc
 */

#include "flow-size-cdf.h"

#include "ns3/random-variable-stream.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

using namespace ns3;

namespace
{

/**
 * Stop the run with a message: libFuzzer reports the input as a crash.
 * \param what the broken property.
 * \param detail more about it.
 */
[[noreturn]] void
Fail(const char* what, const std::string& detail = "")
{
    std::fprintf(stderr, "flow-size-cdf-fuzz: %s %s\n", what, detail.c_str());
    std::abort();
}

/**
 * \param cdf an accepted distribution.
 * \param v a value derived from it.
 * \return whether \p v is finite and between the smallest and the largest size.
 */
bool
InRange(const FlowSizeCdf& cdf, double v)
{
    return std::isfinite(v) && v >= cdf.GetPoints().front().bytes && v <= cdf.GetMax();
}

} // namespace

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    std::string text(reinterpret_cast<const char*>(data), size);
    FlowSizeCdf cdf;
    std::string error;
    if (!cdf.Parse(text, error))
    {
        if (cdf.IsValid())
        {
            Fail("a rejected text left points behind");
        }
        if (error.empty() ||
            (error.compare(0, 5, "line ") != 0 && error.compare(0, 9, "no points") != 0))
        {
            Fail("the error does not name the line:", error);
        }
        // A rejected text leaves an earlier distribution in place.
        FlowSizeCdf loaded;
        if (!loaded.Load("hadoop", error) || loaded.Parse(text, error) ||
            loaded.GetName() != "hadoop" || loaded.GetPoints().size() != 20)
        {
            Fail("a rejected text changed the loaded distribution");
        }
        return 0;
    }

    const auto& points = cdf.GetPoints();
    if (points.empty() || points.back().cumulative != 1.0)
    {
        Fail("an accepted distribution does not end at 100 percent");
    }
    for (size_t i = 0; i < points.size(); ++i)
    {
        const FlowSizeCdf::Point& p = points[i];
        if (!std::isfinite(p.bytes) || !std::isfinite(p.cumulative) || p.bytes < 0 ||
            p.bytes > FlowSizeCdf::MAX_BYTES || p.cumulative < 0 || p.cumulative > 1)
        {
            Fail("an accepted point is out of range");
        }
        if (i > 0 && (p.bytes < points[i - 1].bytes || p.cumulative < points[i - 1].cumulative))
        {
            Fail("an accepted distribution is not monotone");
        }
    }
    // The mean is a sum of products: it may pass the range by a rounding error (points
    // (21, 10%) and (21, 100%) give 21.000000000000004).
    const double mean = cdf.GetMean();
    const double slack = 1e-12 * cdf.GetMax();
    if (!std::isfinite(mean) || mean < cdf.GetPoints().front().bytes - slack ||
        mean > cdf.GetMax() + slack)
    {
        Fail("the mean is not finite or out of range:", std::to_string(cdf.GetMean()));
    }
    double previous = -1;
    for (double u : {0.0, 1e-9, 0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99, 1.0 - 1e-9, 1.0})
    {
        double q = cdf.Quantile(u);
        if (!InRange(cdf, q) || q < previous)
        {
            Fail("a quantile is not finite, out of range or decreasing:", std::to_string(q));
        }
        previous = q;
    }
    Ptr<EmpiricalRandomVariable> rv = cdf.MakeRandomVariable();
    rv->SetStream(1);
    for (int i = 0; i < 16; ++i)
    {
        double v = rv->GetValue();
        if (!InRange(cdf, v))
        {
            Fail("a sample is out of range:", std::to_string(v));
        }
    }
    return 0;
}
