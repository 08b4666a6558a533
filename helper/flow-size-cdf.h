/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_FLOW_SIZE_CDF_H
#define REPS_FLOW_SIZE_CDF_H

#include "ns3/ptr.h"
#include "ns3/random-variable-stream.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup reps
 * An empirical flow-size distribution: points (size in bytes, cumulative probability), with
 * sizes between points interpolated linearly, exactly as ns-3's EmpiricalRandomVariable does
 * with its Interpolate attribute set.
 *
 * Text format (the files under data/): one point per line, `<bytes> <cumulative percent>`,
 * blank lines and lines starting with `#` ignored; sizes and percents non-decreasing, sizes in
 * [0, MAX_BYTES], percents in [0, 100], the last point at 100.
 *
 * Two distributions are built into the library, so that they are found whether the module is
 * built standalone, in an ns-3 tree or installed: "websearch" (the DCTCP web-search trace) and
 * "hadoop" (Facebook's Hadoop trace); data/websearch.cdf and data/hadoop.cdf hold the same
 * points (a test keeps them equal). Load() takes either one of these names or the path of a
 * file in the format above.
 *
 * A plain C++ type apart from MakeRandomVariable(): it needs no simulator.
 */
class FlowSizeCdf
{
  public:
    /// One point of the distribution.
    struct Point
    {
        double bytes;      //!< Flow size in bytes.
        double cumulative; //!< Probability that a flow is at most this large, in [0, 1].
    };

    /**
     * Largest flow size a distribution may hold, in bytes: 2^53 (8 PiB), the largest range in
     * which a double holds every whole number of bytes; samples are rounded to whole bytes.
     */
    static constexpr double MAX_BYTES = 9007199254740992.0;

    FlowSizeCdf();

    /**
     * Parse the text format.
     * \param text the text.
     * \param [out] error why the text was rejected (line number and reason).
     * \return whether the text is a valid distribution; if so, it replaces this one.
     */
    bool Parse(const std::string& text, std::string& error);

    /**
     * Load a built-in distribution by name, or a file by path.
     * \param nameOrPath "websearch", "hadoop", or the path of a file in the text format.
     * \param [out] error why loading failed (lists the built-in names).
     * \return whether a distribution was loaded.
     */
    bool Load(const std::string& nameOrPath, std::string& error);

    /// \return the names of the built-in distributions.
    static std::vector<std::string> GetBuiltinNames();

    /**
     * \param name a built-in name.
     * \return its points in the text format, or an empty string if there is no such name.
     */
    static std::string GetBuiltinText(const std::string& name);

    /// \return the name given to Load() (or "custom" after Parse()).
    const std::string& GetName() const;

    /// \return the points, in order.
    const std::vector<Point>& GetPoints() const;

    /// \return whether a distribution is loaded.
    bool IsValid() const;

    /// \return the mean flow size in bytes.
    double GetMean() const;

    /// \return the largest flow size in bytes.
    double GetMax() const;

    /**
     * The inverse of the distribution, as EmpiricalRandomVariable samples it.
     * \param u a probability in [0, 1].
     * \return the flow size whose cumulative probability is \p u, in bytes.
     */
    double Quantile(double u) const;

    /**
     * \return a new EmpiricalRandomVariable (Interpolate = true) holding these points; assign
     * its stream (AssignStreams / SetStream) before use.
     */
    Ptr<EmpiricalRandomVariable> MakeRandomVariable() const;

  private:
    std::string m_name;          //!< Name or path it was loaded from.
    std::vector<Point> m_points; //!< The points, sizes and probabilities non-decreasing.
};

} // namespace ns3

#endif /* REPS_FLOW_SIZE_CDF_H */
