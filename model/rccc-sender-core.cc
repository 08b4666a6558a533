/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rccc-sender-core.h"

#include <algorithm>

namespace ns3
{

RcccSenderCore::RcccSenderCore(const RcccSenderParameters& p)
    : m_p(p),
      m_credit(p.speculativeBytes > 0 ? p.speculativeBytes : p.maxCreditBytes)
{
}

bool
RcccSenderCore::HasCredit() const
{
    return m_credit > 0;
}

void
RcccSenderCore::OnSend(int64_t wireBytes)
{
    m_credit -= wireBytes;
    m_spent += wireBytes;
}

int64_t
RcccSenderCore::StopSpeculating()
{
    if (!m_speculating)
    {
        return 0;
    }
    m_speculating = false;
    const int64_t dropped = std::max<int64_t>(m_credit, 0);
    m_credit -= dropped;
    return dropped;
}

int64_t
RcccSenderCore::OnPull(int64_t cumulative)
{
    if (cumulative <= m_pulled)
    {
        return 0; // reordered or repeated: cumulative counts make it harmless
    }
    const int64_t before = m_credit;
    m_credit = std::min(m_credit + (cumulative - m_pulled), m_p.maxCreditBytes);
    m_pulled = cumulative;
    return std::max<int64_t>(m_credit - before, 0);
}

int64_t
RcccSenderCore::PullTarget(int64_t backlogBytes,
                           int64_t retransmitBytes,
                           int64_t windowCapBytes,
                           uint32_t activeSources) const
{
    int64_t want = backlogBytes + retransmitBytes;
    if (windowCapBytes >= 0)
    {
        want = std::min(want, windowCapBytes);
    }
    want = std::min(want, m_p.maxCreditBytes);
    want -= m_credit;
    // A short transfer asks for at least a packet while it speculates, whatever it holds.
    if (m_speculating && want < m_p.packetBytes && backlogBytes > 0)
    {
        want = m_p.packetBytes;
    }
    if (activeSources > 1)
    {
        want /= static_cast<int64_t>(activeSources);
    }
    return std::max<int64_t>(m_pulled + want, 0);
}

bool
RcccSenderCore::MayRequest(int64_t nowNs) const
{
    return !m_requested || nowNs - m_lastRequestNs >= m_p.rtsIntervalNs;
}

void
RcccSenderCore::OnRequest(int64_t nowNs)
{
    m_requested = true;
    m_lastRequestNs = nowNs;
}

int64_t
RcccSenderCore::GetCredit() const
{
    return m_credit;
}

int64_t
RcccSenderCore::GetPulled() const
{
    return m_pulled;
}

bool
RcccSenderCore::IsSpeculating() const
{
    return m_speculating;
}

int64_t
RcccSenderCore::GetSpent() const
{
    return m_spent;
}

int64_t
RcccSenderCore::GetMaxCredit() const
{
    return m_p.maxCreditBytes;
}

} // namespace ns3
