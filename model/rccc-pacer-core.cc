/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rccc-pacer-core.h"

#include <algorithm>

namespace ns3
{

RcccPacerCore::RcccPacerCore(const RcccPacerParameters& p)
    : m_p(p)
{
}

RcccPacerCore::Sink&
RcccPacerCore::At(uint32_t sink)
{
    if (sink >= m_sinks.size())
    {
        m_sinks.resize(sink + 1);
    }
    Sink& s = m_sinks[sink];
    s.known = true;
    return s;
}

bool
RcccPacerCore::Activate(uint32_t sink)
{
    Sink& s = At(sink);
    if (s.active)
    {
        return false;
    }
    if (s.idle)
    {
        m_idle.erase(std::find(m_idle.begin(), m_idle.end(), sink));
        s.idle = false;
    }
    s.active = true;
    m_active.push_back(sink);
    const bool wake = !m_running;
    m_running = true;
    return wake;
}

bool
RcccPacerCore::OnPullTarget(uint32_t sink, int64_t target, int64_t slowLimit)
{
    Sink& s = At(sink);
    s.slowLimit = slowLimit;
    if (target <= s.target)
    {
        return false;
    }
    s.target = target;
    return Activate(sink);
}

bool
RcccPacerCore::Requeue(uint32_t sink, int64_t slowLimit)
{
    At(sink).slowLimit = slowLimit;
    return Activate(sink);
}

bool
RcccPacerCore::Next(Pull& pull)
{
    if (!m_active.empty())
    {
        const uint32_t id = m_active.front();
        m_active.pop_front();
        Sink& s = m_sinks[id];
        // Only what was asked for: up to creditBytes, never beyond the target, never back.
        const int64_t before = s.granted;
        s.granted = std::max(std::min(s.granted + m_p.creditBytes, s.target), before);
        pull = Pull{id, s.granted, s.granted - before, false};
        s.active = false;
        if (s.target > s.granted)
        {
            s.active = true;
            m_active.push_back(id);
        }
        else if (GetSlowCredit(id) < s.slowLimit)
        {
            s.idle = true;
            m_idle.push_back(id);
        }
        return true;
    }
    if (!m_idle.empty())
    {
        const uint32_t id = m_idle.front();
        m_idle.pop_front();
        Sink& s = m_sinks[id];
        s.granted += m_p.creditBytes;
        pull = Pull{id, s.granted, m_p.creditBytes, true};
        if (GetSlowCredit(id) < s.slowLimit)
        {
            m_idle.push_back(id);
        }
        else
        {
            s.idle = false;
        }
        return true;
    }
    m_running = false;
    return false;
}

double
RcccPacerCore::GapNs(int64_t grantedBytes) const
{
    const int64_t bytes = grantedBytes > 0 ? grantedBytes : m_p.emptyPullBytes;
    return static_cast<double>(bytes) * 8e9 / (m_p.rateBps * m_p.rateFraction * m_factor);
}

void
RcccPacerCore::SetRateFactor(double factor)
{
    m_factor = factor;
}

double
RcccPacerCore::GetRateFactor() const
{
    return m_factor;
}

bool
RcccPacerCore::IsRunning() const
{
    return m_running;
}

uint32_t
RcccPacerCore::GetNActive() const
{
    return static_cast<uint32_t>(m_active.size());
}

uint32_t
RcccPacerCore::GetNIdle() const
{
    return static_cast<uint32_t>(m_idle.size());
}

int64_t
RcccPacerCore::GetBacklog(uint32_t sink) const
{
    if (sink >= m_sinks.size())
    {
        return 0;
    }
    return std::max<int64_t>(m_sinks[sink].target - m_sinks[sink].granted, 0);
}

int64_t
RcccPacerCore::GetSlowCredit(uint32_t sink) const
{
    if (sink >= m_sinks.size())
    {
        return 0;
    }
    return std::max<int64_t>(m_sinks[sink].granted - m_sinks[sink].target, 0);
}

int64_t
RcccPacerCore::GetGranted(uint32_t sink) const
{
    return sink < m_sinks.size() ? m_sinks[sink].granted : 0;
}

int64_t
RcccPacerCore::GetTarget(uint32_t sink) const
{
    return sink < m_sinks.size() ? m_sinks[sink].target : 0;
}

} // namespace ns3
