/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "plb-path-selector.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PlbPathSelector");

NS_OBJECT_ENSURE_REGISTERED(PlbPathSelector);

TypeId
PlbPathSelector::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::PlbPathSelector")
            .SetParent<PathSelector>()
            .SetGroupName("Reps")
            .AddConstructor<PlbPathSelector>()
            .AddAttribute("CongestedRounds",
                          "Number of consecutive congested rounds that trigger a re-path (1 to "
                          "1000; 12 as Linux's tcp_plb_rehash_rounds).",
                          UintegerValue(12),
                          MakeUintegerAccessor(&PlbPathSelector::m_congestedRounds),
                          MakeUintegerChecker<uint32_t>(1, 1000))
            .AddAttribute("MarkThreshold",
                          "A round is congested when more than this fraction of its ACKs are "
                          "ECN-marked (0 to 1; 0.25 in the REPS paper's PLB baseline).",
                          DoubleValue(0.25),
                          MakeDoubleAccessor(&PlbPathSelector::m_markThreshold),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("RepathOnTimeout",
                          "Whether a retransmission timeout also takes a new EV.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&PlbPathSelector::m_repathOnTimeout),
                          MakeBooleanChecker())
            .AddTraceSource("Repath",
                            "The connection moved to a new EV: old EV, new EV, and whether a "
                            "timeout (rather than congestion) caused it.",
                            MakeTraceSourceAccessor(&PlbPathSelector::m_repathTrace),
                            "ns3::PlbPathSelector::RepathTracedCallback");
    return tid;
}

PlbPathSelector::PlbPathSelector()
    : m_congestedRounds(12),
      m_markThreshold(0.25),
      m_repathOnTimeout(true),
      m_ev(0),
      m_newPath(false),
      m_roundOpen(false),
      m_roundAcks(0),
      m_roundMarked(0),
      m_congestedInARow(0),
      m_repaths(0),
      m_rounds(0)
{
    NS_LOG_FUNCTION(this);
}

PlbPathSelector::~PlbPathSelector()
{
    NS_LOG_FUNCTION(this);
}

void
PlbPathSelector::DoStart()
{
    NS_LOG_FUNCTION(this);
    m_ev = RandomEntropy();
    m_newPath = false;
    m_roundOpen = false;
    m_roundAcks = 0;
    m_roundMarked = 0;
    m_congestedInARow = 0;
    m_repaths = 0;
    m_rounds = 0;
}

uint16_t
PlbPathSelector::DoNextEntropy(bool retransmission, Choice& why)
{
    why = m_newPath ? RANDOM : FIXED;
    m_newPath = false;
    return m_ev;
}

std::string
PlbPathSelector::GetName() const
{
    return "plb";
}

void
PlbPathSelector::DoGetCounters(Counters& counters) const
{
    counters["repaths"] = m_repaths;
    counters["rounds"] = m_rounds;
}

void
PlbPathSelector::DoFeedback(const Feedback& feedback)
{
    NS_LOG_FUNCTION(this << feedback.ev << FeedbackName(feedback.kind));
    if (feedback.kind != Feedback::GOOD && feedback.kind != Feedback::ECN)
    {
        return; // PLB counts ACKs only
    }
    const bool ecn = feedback.kind == Feedback::ECN;
    const Time rtt = feedback.rtt;
    Time now = Simulator::Now();
    if (!m_roundOpen)
    {
        m_roundOpen = true;
        m_roundStart = now;
        m_roundLength = Max(rtt, GetContext().baseRtt);
        m_roundAcks = 0;
        m_roundMarked = 0;
    }
    ++m_roundAcks;
    m_roundMarked += ecn;
    if (now - m_roundStart < m_roundLength)
    {
        return;
    }
    ++m_rounds;
    m_roundOpen = false;
    bool congested = m_roundMarked > m_markThreshold * m_roundAcks;
    m_congestedInARow = congested ? m_congestedInARow + 1 : 0;
    NS_LOG_LOGIC("round of " << m_roundAcks << " ACKs, " << m_roundMarked
                             << " marked: " << m_congestedInARow << " congested in a row");
    if (m_congestedInARow >= m_congestedRounds)
    {
        Repath(false);
    }
}

void
PlbPathSelector::DoTimeout()
{
    NS_LOG_FUNCTION(this);
    if (m_repathOnTimeout)
    {
        Repath(true);
    }
}

void
PlbPathSelector::Repath(bool timeout)
{
    uint16_t old = m_ev;
    if (GetEntropySpace() > 1)
    {
        while (m_ev == old)
        {
            m_ev = RandomEntropy();
        }
    }
    m_newPath = true;
    m_congestedInARow = 0;
    m_roundOpen = false;
    ++m_repaths;
    NS_LOG_LOGIC("re-path " << old << " -> " << m_ev << (timeout ? " (timeout)" : ""));
    m_repathTrace(old, m_ev, timeout);
}

uint16_t
PlbPathSelector::GetEntropy() const
{
    return m_ev;
}

uint64_t
PlbPathSelector::GetRepathCount() const
{
    return m_repaths;
}

uint64_t
PlbPathSelector::GetRoundCount() const
{
    return m_rounds;
}

} // namespace ns3
