/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "flow-stats.h"

#include "ns3/abort.h"
#include "ns3/log.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FlowStats");

FlowStats::FlowStats()
    : m_rate(DataRate("400Gbps")),
      m_baseRtt(MicroSeconds(0)),
      m_completed(0)
{
    NS_LOG_FUNCTION(this);
}

void
FlowStats::SetIdeal(DataRate rate, Time baseRtt)
{
    NS_LOG_FUNCTION(this << rate << baseRtt);
    NS_ABORT_MSG_IF(rate.GetBitRate() == 0, "FlowStats: the ideal rate must be > 0");
    NS_ABORT_MSG_IF(baseRtt.IsStrictlyNegative(), "FlowStats: the base RTT must be >= 0");
    m_rate = rate;
    m_baseRtt = baseRtt;
}

void
FlowStats::SetIdealCallback(Callback<Time, const FlowSpec&> ideal)
{
    NS_LOG_FUNCTION(this);
    m_idealCb = ideal;
}

DataRate
FlowStats::GetIdealRate() const
{
    return m_rate;
}

Time
FlowStats::GetBaseRtt() const
{
    return m_baseRtt;
}

void
FlowStats::AddFlow(const FlowSpec& flow)
{
    NS_LOG_FUNCTION(this << flow.id);
    NS_ABORT_MSG_IF(m_index.count(flow.id) != 0, "FlowStats: flow id " << flow.id << " reused");
    m_index[flow.id] = m_records.size();
    Record r;
    r.flow = flow;
    r.ideal = m_idealCb.IsNull() ? m_rate.CalculateBytesTxTime(flow.bytes) + m_baseRtt
                                 : m_idealCb(flow);
    NS_ABORT_MSG_IF(!r.ideal.IsStrictlyPositive() || r.ideal == Time::Max(),
                    "FlowStats: no ideal FCT from host " << flow.src << " to host " << flow.dst);
    m_records.push_back(r);
}

void
FlowStats::RecordCompletion(uint32_t id, Time t)
{
    NS_LOG_FUNCTION(this << id << t);
    auto it = m_index.find(id);
    NS_ABORT_MSG_IF(it == m_index.end(), "FlowStats: completion of unknown flow " << id);
    Record& r = m_records[it->second];
    NS_ABORT_MSG_IF(r.completed, "FlowStats: flow " << id << " completed twice");
    NS_ABORT_MSG_IF(t < r.flow.start, "FlowStats: flow " << id << " completed before it started");
    r.finished = t;
    r.completed = true;
    ++m_completed;
}

void
FlowStats::AddCollective(const Collective& collective)
{
    NS_LOG_FUNCTION(this << collective.name);
    m_collectives.push_back(collective);
}

bool
FlowStats::HasFlow(uint32_t id) const
{
    return m_index.count(id) != 0;
}

uint32_t
FlowStats::GetFlowCount() const
{
    return static_cast<uint32_t>(m_records.size());
}

uint32_t
FlowStats::GetCompletedCount() const
{
    return m_completed;
}

const FlowStats::Record&
FlowStats::GetRecord(uint32_t id) const
{
    auto it = m_index.find(id);
    NS_ABORT_MSG_IF(it == m_index.end(), "FlowStats: unknown flow " << id);
    return m_records[it->second];
}

const std::vector<FlowStats::Record>&
FlowStats::GetRecords() const
{
    return m_records;
}

const std::vector<FlowStats::Collective>&
FlowStats::GetCollectives() const
{
    return m_collectives;
}

Time
FlowStats::GetIdealFct(const Record& r) const
{
    return r.ideal;
}

Time
FlowStats::GetFct(const Record& r)
{
    NS_ASSERT(r.completed);
    return r.finished - r.flow.start;
}

double
FlowStats::GetSlowdown(const Record& r) const
{
    NS_ASSERT(r.completed);
    return GetFct(r).GetSeconds() / GetIdealFct(r).GetSeconds();
}

SampleSummary
FlowStats::GetFctSummaryUs() const
{
    std::vector<double> values;
    values.reserve(m_completed);
    for (const Record& r : m_records)
    {
        if (r.completed)
        {
            values.push_back(GetFct(r).ToDouble(Time::US));
        }
    }
    return SampleSummary::Of(std::move(values));
}

SampleSummary
FlowStats::GetSlowdownSummary() const
{
    std::vector<double> values;
    values.reserve(m_completed);
    for (const Record& r : m_records)
    {
        if (r.completed)
        {
            values.push_back(GetSlowdown(r));
        }
    }
    return SampleSummary::Of(std::move(values));
}

double
FlowStats::GetCollectiveUs() const
{
    double longest = std::numeric_limits<double>::quiet_NaN();
    for (const Collective& c : m_collectives)
    {
        if (!c.completed)
        {
            return std::numeric_limits<double>::quiet_NaN();
        }
        double us = (c.finished - c.start).ToDouble(Time::US);
        longest = std::isnan(longest) ? us : std::max(longest, us);
    }
    return longest;
}

Time
FlowStats::GetLastCompletion() const
{
    Time last = Seconds(0);
    for (const Record& r : m_records)
    {
        if (r.completed)
        {
            last = std::max(last, r.finished);
        }
    }
    return last;
}

} // namespace ns3
