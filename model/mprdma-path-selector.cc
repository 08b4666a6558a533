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
    m_recycled = 0;
    m_marked = 0;
}

std::string
MprdmaPathSelector::GetName() const
{
    return "mprdma";
}

void
MprdmaPathSelector::DoFeedback(const Feedback& feedback)
{
    NS_LOG_FUNCTION(this << feedback.ev << FeedbackName(feedback.kind));
    switch (feedback.kind)
    {
    case Feedback::GOOD:
        m_hasPending = true;
        m_pending = feedback.ev;
        break;
    case Feedback::ECN:
        ++m_marked;
        m_hasPending = false;
        break;
    case Feedback::NACK:
    case Feedback::LOST:
        if (m_hasPending && m_pending == feedback.ev)
        {
            m_hasPending = false;
        }
        break;
    }
}

void
MprdmaPathSelector::DoGetCounters(Counters& counters) const
{
    counters["marked-acks"] = m_marked;
}

void
MprdmaPathSelector::DoTimeout()
{
    NS_LOG_FUNCTION(this);
    m_hasPending = false;
}

uint16_t
MprdmaPathSelector::DoNextEntropy(bool retransmission, Choice& why)
{
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
