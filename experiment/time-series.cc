/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "time-series.h"

#include "ns3/abort.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TimeSeries");

namespace
{

/**
 * \param s a name.
 * \return whether it is made of letters, digits, '_', '-' and '.' only (and not empty).
 */
bool
IsPlainName(const std::string& s)
{
    if (s.empty())
    {
        return false;
    }
    for (char c : s)
    {
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                  c == '_' || c == '-' || c == '.';
        if (!ok)
        {
            return false;
        }
    }
    return true;
}

} // namespace

TimeSeries::TimeSeries()
{
}

TimeSeries::TimeSeries(const std::string& name,
                       const std::string& unit,
                       const std::vector<std::string>& series)
    : m_name(name),
      m_unit(unit),
      m_names(series),
      m_values(series.size())
{
    NS_LOG_FUNCTION(this << name << unit);
    NS_ABORT_MSG_UNLESS(IsPlainName(name),
                        "TimeSeries: name '" << name << "' must be letters, digits, _ - .");
    NS_ABORT_MSG_IF(series.empty(), "TimeSeries " << name << ": needs at least one series");
    for (const std::string& s : series)
    {
        NS_ABORT_MSG_UNLESS(IsPlainName(s),
                            "TimeSeries " << name << ": series name '" << s
                                          << "' must be letters, digits, _ - .");
    }
}

void
TimeSeries::Append(Time t, const std::vector<double>& values)
{
    NS_LOG_FUNCTION(this << t);
    NS_ABORT_MSG_IF(values.size() != m_names.size(),
                    "TimeSeries " << m_name << ": " << values.size() << " values for "
                                  << m_names.size() << " series");
    double us = t.ToDouble(Time::US);
    NS_ABORT_MSG_IF(!m_timesUs.empty() && us < m_timesUs.back(),
                    "TimeSeries " << m_name << ": samples must be appended in time order");
    m_timesUs.push_back(us);
    for (size_t i = 0; i < values.size(); ++i)
    {
        m_values[i].push_back(values[i]);
    }
}

const std::string&
TimeSeries::GetName() const
{
    return m_name;
}

const std::string&
TimeSeries::GetUnit() const
{
    return m_unit;
}

const std::vector<std::string>&
TimeSeries::GetSeriesNames() const
{
    return m_names;
}

const std::vector<double>&
TimeSeries::GetTimesUs() const
{
    return m_timesUs;
}

const std::vector<double>&
TimeSeries::GetValues(size_t i) const
{
    NS_ASSERT(i < m_values.size());
    return m_values[i];
}

size_t
TimeSeries::GetSize() const
{
    return m_timesUs.size();
}

} // namespace ns3
