/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_SAMPLE_SUMMARY_H
#define REPS_SAMPLE_SUMMARY_H

#include <cstddef>
#include <vector>

namespace ns3
{

/**
 * \ingroup reps
 * Count, mean, minimum, median, 99th percentile and maximum of a sample (flow completion
 * times, slowdowns, ...). A plain C++ type.
 *
 * Percentiles use the nearest-rank definition: the p-th percentile of n sorted values
 * v[0] <= ... <= v[n-1] is v[ceil(p/100 * n) - 1] (v[0] for p = 0), a value of the sample
 * such that at least p percent of the sample is at most it. Of an empty sample every
 * statistic is NaN (null in JSON).
 */
struct SampleSummary
{
    size_t count{0}; //!< Number of values.
    double mean;     //!< Arithmetic mean.
    double min;      //!< Smallest value.
    double p50;      //!< Median (nearest rank).
    double p99;      //!< 99th percentile (nearest rank).
    double max;      //!< Largest value.

    SampleSummary();

    /**
     * \param values the sample, in any order.
     * \return its summary.
     */
    static SampleSummary Of(std::vector<double> values);

    /**
     * \param sorted a sample sorted in non-decreasing order (not empty).
     * \param p a percent in [0, 100].
     * \return the nearest-rank p-th percentile.
     */
    static double Percentile(const std::vector<double>& sorted, double p);
};

} // namespace ns3

#endif /* REPS_SAMPLE_SUMMARY_H */
