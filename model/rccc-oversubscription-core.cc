/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rccc-oversubscription-core.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

namespace
{
/// The doubling increase reaches the whole rate long before this exponent.
constexpr uint32_t kMaxIncreaseExponent = 62;
} // namespace

RcccOversubscriptionCore::RcccOversubscriptionCore(const RcccOversubscriptionParameters& p)
    : m_p(p)
{
}

void
RcccOversubscriptionCore::OnPacket(bool ce, bool trimmed, bool lastHop)
{
    ++m_packets;
    if (trimmed)
    {
        ++(lastHop ? m_trimmedLastHop : m_trimmedOther);
    }
    else if (ce)
    {
        ++m_ecn;
    }
}

double
RcccOversubscriptionCore::Update()
{
    const uint64_t whole = m_packets - m_trimmedLastHop - m_trimmedOther;
    const double fraction = whole > 0 ? static_cast<double>(m_ecn) / static_cast<double>(whole) : 0;
    bool decrease = false;
    if (m_trimmedOther > 0)
    {
        m_rate -= static_cast<double>(m_trimmedOther) / static_cast<double>(m_packets);
        decrease = true;
    }
    m_g = m_g * (1 - m_p.ecnWeight) + m_p.ecnWeight * fraction;
    if (m_g > m_p.targetCongestion && m_p.decrease > 0)
    {
        m_rate *= 1 - (m_g - m_p.targetCongestion) * m_p.decrease;
        decrease = true;
    }
    if (!decrease)
    {
        m_rate += m_ecn == 0
                      ? m_p.increase * std::ldexp(1.0, std::min(m_increases, kMaxIncreaseExponent))
                      : m_p.increase;
        ++m_increases;
    }
    else
    {
        m_increases = 0;
    }
    m_rate = std::min(std::max(m_rate, m_p.minRate), 1.0);
    m_packets = 0;
    m_ecn = 0;
    m_trimmedLastHop = 0;
    m_trimmedOther = 0;
    return m_rate;
}

double
RcccOversubscriptionCore::GetRate() const
{
    return m_rate;
}

double
RcccOversubscriptionCore::GetMarkedFraction() const
{
    return m_g;
}

uint32_t
RcccOversubscriptionCore::GetIncreaseCount() const
{
    return m_increases;
}

uint64_t
RcccOversubscriptionCore::GetPending() const
{
    return m_packets;
}

} // namespace ns3
