/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mprdma-path-selector.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MprdmaPathSelector");

NS_OBJECT_ENSURE_REGISTERED(MprdmaPathSelector);

TypeId
MprdmaPathSelector::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MprdmaPathSelector")
                            .SetParent<PathSelector>()
                            .SetGroupName("Reps")
                            .AddConstructor<MprdmaPathSelector>();
    return tid;
}

MprdmaPathSelector::MprdmaPathSelector()
    : m_hasPending(false),
      m_pending(0),
      m_packets(0),
      m_recycled(0),
      m_marked(0)
{
    NS_LOG_FUNCTION(this);
}

MprdmaPathSelector::~MprdmaPathSelector()
{
    NS_LOG_FUNCTION(this);
}

void
MprdmaPathSelector::DoStart()
{
    NS_LOG_FUNCTION(this);
    m_hasPending = false;
    m_pending = 0;
    m_packets = 0;
    m_recycled = 0;
    m_marked = 0;
}

void
MprdmaPathSelector::OnAck(uint16_t ev, bool ecn, Time rtt)
{
    NS_LOG_FUNCTION(this << ev << ecn << rtt);
    if (ecn)
    {
        ++m_marked;
        m_hasPending = false;
    }
    else
    {
        m_hasPending = true;
        m_pending = ev;
    }
}

void
MprdmaPathSelector::OnNack(uint16_t ev)
{
    NS_LOG_FUNCTION(this << ev);
    if (m_hasPending && m_pending == ev)
    {
        m_hasPending = false;
    }
}

void
MprdmaPathSelector::OnLoss(uint16_t ev)
{
    NS_LOG_FUNCTION(this << ev);
    if (m_hasPending && m_pending == ev)
    {
        m_hasPending = false;
    }
}

void
MprdmaPathSelector::OnTimeout()
{
    NS_LOG_FUNCTION(this);
    m_hasPending = false;
}

uint16_t
MprdmaPathSelector::DoNextEntropy(bool retransmission, Choice& why)
{
    ++m_packets;
    if (m_hasPending)
    {
        m_hasPending = false;
        ++m_recycled;
        why = RECYCLED;
        return m_pending;
    }
    why = RANDOM;
    return RandomEntropy();
}

bool
MprdmaPathSelector::HasPending() const
{
    return m_hasPending;
}

uint16_t
MprdmaPathSelector::GetPending() const
{
    return m_pending;
}

uint64_t
MprdmaPathSelector::GetPacketCount() const
{
    return m_packets;
}

uint64_t
MprdmaPathSelector::GetRecycledCount() const
{
    return m_recycled;
}

uint64_t
MprdmaPathSelector::GetMarkedAckCount() const
{
    return m_marked;
}

} // namespace ns3
