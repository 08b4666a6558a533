/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "flowlet-path-selector.h"

#include "ns3/log.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FlowletPathSelector");

NS_OBJECT_ENSURE_REGISTERED(FlowletPathSelector);

TypeId
FlowletPathSelector::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FlowletPathSelector")
            .SetParent<PathSelector>()
            .SetGroupName("Reps")
            .AddConstructor<FlowletPathSelector>()
            .AddAttribute("FlowletTimeout",
                          "Idle gap after which the next packet starts a new flowlet with a new "
                          "random EV (0 to 1 s); zero means half the base RTT of the connection, "
                          "as in the REPS authors' evaluation.",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&FlowletPathSelector::m_timeoutAttribute),
                          MakeTimeChecker(Time(0), Seconds(1)));
    return tid;
}

FlowletPathSelector::FlowletPathSelector()
    : m_timeoutAttribute(Time(0)),
      m_timeout(Time(0)),
      m_ev(0),
      m_sent(false),
      m_flowlets(0),
      m_suppressed(0)
{
    NS_LOG_FUNCTION(this);
}

FlowletPathSelector::~FlowletPathSelector()
{
    NS_LOG_FUNCTION(this);
}

std::string
FlowletPathSelector::GetName() const
{
    return "flowlet";
}

void
FlowletPathSelector::DoGetCounters(Counters& counters) const
{
    counters["flowlets"] = m_flowlets;
    counters["suppressed-gaps"] = m_suppressed;
}

void
FlowletPathSelector::DoStart()
{
    NS_LOG_FUNCTION(this);
    m_timeout = m_timeoutAttribute.IsZero() ? GetContext().baseRtt / 2 : m_timeoutAttribute;
    m_sent = false;
    m_flowlets = 0;
    m_suppressed = 0;
}

uint16_t
FlowletPathSelector::DoNextEntropy(bool retransmission, Choice& why)
{
    Time now = Simulator::Now();
    if (!m_sent)
    {
        m_sent = true;
        m_lastSend = now;
        m_lastChange = now;
        m_ev = RandomEntropy();
        ++m_flowlets;
        why = RANDOM;
        return m_ev;
    }
    Time gap = now - m_lastSend;
    m_lastSend = now;
    why = FIXED;
    if (gap > m_timeout)
    {
        if (now - m_lastChange >= GetContext().rto)
        {
            m_ev = RandomEntropy();
            m_lastChange = now;
            ++m_flowlets;
            why = RANDOM;
            NS_LOG_LOGIC("gap " << gap.As(Time::US) << ": new flowlet, ev " << m_ev);
        }
        else
        {
            ++m_suppressed;
            NS_LOG_LOGIC("gap " << gap.As(Time::US) << ": EV changed less than an RTO ago");
        }
    }
    return m_ev;
}

Time
FlowletPathSelector::GetFlowletTimeout() const
{
    return m_timeout;
}

uint64_t
FlowletPathSelector::GetFlowletCount() const
{
    return m_flowlets;
}

uint64_t
FlowletPathSelector::GetSuppressedCount() const
{
    return m_suppressed;
}

} // namespace ns3
