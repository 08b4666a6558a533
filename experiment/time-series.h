/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_TIME_SERIES_H
#define REPS_TIME_SERIES_H

#include "ns3/nstime.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup reps
 * Named series of values sampled at common times, for the "timeseries" object of the JSON
 * result (queue depth over time, drops per interval, bytes delivered, ...).
 *
 * \code
 *   TimeSeries q("queue_bytes", "bytes", {"leaf", "spine"});
 *   q.Append(Simulator::Now(), {leafMax, spineMax});
 * \endcode
 *
 * In JSON: `"queue_bytes": {"unit": "bytes", "t_us": [...], "series": {"leaf": [...], ...}}`,
 * every series as long as t_us.
 */
class TimeSeries
{
  public:
    TimeSeries();

    /**
     * \param name key of the series set in the JSON "timeseries" object (e.g. "queue_bytes";
     * letters, digits, '_', '-', '.').
     * \param unit unit of the values ("bytes", "packets", ...).
     * \param series names of the series (at least one; same characters as \p name).
     */
    TimeSeries(const std::string& name,
               const std::string& unit,
               const std::vector<std::string>& series);

    /**
     * Add one sample of every series.
     * \param t the sample time (not before the previous one).
     * \param values one value per series, in the order of the names.
     */
    void Append(Time t, const std::vector<double>& values);

    /// \return the key of the set.
    const std::string& GetName() const;
    /// \return the unit of the values.
    const std::string& GetUnit() const;
    /// \return the names of the series.
    const std::vector<std::string>& GetSeriesNames() const;
    /// \return the sample times in microseconds.
    const std::vector<double>& GetTimesUs() const;
    /**
     * \param i index of a series.
     * \return its values.
     */
    const std::vector<double>& GetValues(size_t i) const;
    /// \return the number of samples.
    size_t GetSize() const;

  private:
    std::string m_name;                        //!< Key in the JSON.
    std::string m_unit;                        //!< Unit of the values.
    std::vector<std::string> m_names;          //!< Series names.
    std::vector<double> m_timesUs;             //!< Sample times.
    std::vector<std::vector<double>> m_values; //!< Values, one vector per series.
};

} // namespace ns3

#endif /* REPS_TIME_SERIES_H */
