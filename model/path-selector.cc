/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "path-selector.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PathSelector");

NS_OBJECT_ENSURE_REGISTERED(PathSelector);

TypeId
PathSelector::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::PathSelector")
            .SetParent<Object>()
            .SetGroupName("Reps")
            .AddAttribute("EntropySpace",
                          "Number of distinct entropy values (UDP source ports) the selector may "
                          "use, from EntropyBase on (1 to 65536).",
                          UintegerValue(65536),
                          MakeUintegerAccessor(&PathSelector::m_entropySpace),
                          MakeUintegerChecker<uint32_t>(1, 65536))
            .AddAttribute("EntropyBase",
                          "Smallest entropy value; EntropyBase + EntropySpace must not exceed "
                          "65536.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&PathSelector::m_entropyBase),
                          MakeUintegerChecker<uint16_t>())
            .AddTraceSource("EntropyChosen",
                            "The entropy value of a packet, why it was chosen, and whether the "
                            "packet is a retransmission.",
                            MakeTraceSourceAccessor(&PathSelector::m_entropyChosen),
                            "ns3::PathSelector::EntropyChosenTracedCallback");
    return tid;
}

PathSelector::PathSelector()
    : m_entropySpace(65536),
      m_entropyBase(0),
      m_started(false),
      m_rng(CreateObject<UniformRandomVariable>())
{
    NS_LOG_FUNCTION(this);
}

PathSelector::~PathSelector()
{
    NS_LOG_FUNCTION(this);
}

void
PathSelector::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_rng = nullptr;
    Object::DoDispose();
}

void
PathSelector::Start(const PathSelectorContext& context)
{
    NS_LOG_FUNCTION(this);
    NS_ABORT_MSG_IF(static_cast<uint32_t>(m_entropyBase) + m_entropySpace > 65536,
                    "PathSelector: EntropyBase (" << m_entropyBase << ") + EntropySpace ("
                                                  << m_entropySpace << ") must not exceed 65536");
    NS_ABORT_MSG_IF(!context.baseRtt.IsStrictlyPositive(),
                    "PathSelector: the base RTT of the connection must be > 0");
    NS_ABORT_MSG_IF(context.bdpPackets == 0,
                    "PathSelector: the BDP of the connection must be >= 1 packet");
    m_context = context;
    m_started = true;
    DoStart();
}

uint16_t
PathSelector::NextEntropy(bool retransmission)
{
    NS_ASSERT_MSG(m_started, "PathSelector::Start() must be called before NextEntropy()");
    Choice why = RANDOM;
    uint16_t ev = DoNextEntropy(retransmission, why);
    NS_LOG_LOGIC("ev " << ev << " (" << ChoiceName(why) << ")" << (retransmission ? " retx" : ""));
    m_entropyChosen(ev, why, retransmission);
    return ev;
}

void
PathSelector::OnAck(uint16_t ev, bool ecn, Time rtt)
{
}

void
PathSelector::OnNack(uint16_t ev)
{
}

void
PathSelector::OnLoss(uint16_t ev)
{
}

void
PathSelector::OnTimeout()
{
}

void
PathSelector::DoStart()
{
}

int64_t
PathSelector::AssignStreams(int64_t stream)
{
    NS_LOG_FUNCTION(this << stream);
    m_rng->SetStream(stream);
    if (m_started)
    {
        DoStart();
    }
    return 1;
}

uint32_t
PathSelector::GetEntropySpace() const
{
    return m_entropySpace;
}

uint16_t
PathSelector::GetEntropyBase() const
{
    return m_entropyBase;
}

const PathSelectorContext&
PathSelector::GetContext() const
{
    return m_context;
}

bool
PathSelector::IsStarted() const
{
    return m_started;
}

uint16_t
PathSelector::RandomEntropy()
{
    return static_cast<uint16_t>(m_entropyBase + m_rng->GetInteger(0, m_entropySpace - 1));
}

uint32_t
PathSelector::RandomInteger(uint32_t max)
{
    return m_rng->GetInteger(0, max);
}

std::string
PathSelector::ChoiceName(Choice why)
{
    switch (why)
    {
    case FIXED:
        return "fixed";
    case RANDOM:
        return "random";
    case EXPLORE:
        return "explore";
    case RECYCLED:
        return "recycled";
    case FROZEN:
        return "frozen";
    case ROUND_ROBIN:
        return "round-robin";
    }
    return "unknown";
}

} // namespace ns3
