/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "path-selector.h"

#include "reps-ns3-compat.h"

#include "ns3/abort.h"
#include "ns3/enum.h"
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
            .AddAttribute(
                "LastHopNacks",
                "What a NACK of a packet trimmed at the last hop (the port toward the "
                "receiver) tells the selector: Receiver (congestion at the receiver, "
                "not a bad path: the EV is fed back as an ACK, ECN-marked when the NACK "
                "echoes CE, as UET's load balancers do) or Path (a NACK like any "
                "other, which penalises the EV).",
                EnumValue(PathSelector::LAST_HOP_RECEIVER),
                REPS_MAKE_ENUM_ACCESSOR(PathSelector::LastHopNacks, &PathSelector::m_lastHopPolicy),
                MakeEnumChecker(PathSelector::LAST_HOP_RECEIVER,
                                "Receiver",
                                PathSelector::LAST_HOP_PATH,
                                "Path"))
            .AddTraceSource("EntropyChosen",
                            "The entropy value of a packet, why it was chosen, and whether the "
                            "packet is a retransmission.",
                            MakeTraceSourceAccessor(&PathSelector::m_entropyChosen),
                            "ns3::PathSelector::EntropyChosenTracedCallback")
            .AddTraceSource("Feedback",
                            "What came back for the packet sent with an entropy value: good, "
                            "ECN-marked, NACKed (trimmed) or lost.",
                            MakeTraceSourceAccessor(&PathSelector::m_feedback),
                            "ns3::PathSelector::FeedbackTracedCallback");
    return tid;
}

PathSelector::PathSelector()
    : m_entropySpace(65536),
      m_entropyBase(0),
      m_started(false),
      m_rng(CreateObject<UniformRandomVariable>()),
      m_lastHopPolicy(LAST_HOP_RECEIVER)
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
    m_probe = ProbeCallback();
    Object::DoDispose();
}

std::string
PathSelector::Validate(const PathSelectorContext& context) const
{
    if (static_cast<uint32_t>(m_entropyBase) + m_entropySpace > 65536)
    {
        return "PathSelector: EntropyBase (" + std::to_string(m_entropyBase) +
               ") + EntropySpace (" + std::to_string(m_entropySpace) + ") must not exceed 65536";
    }
    if (!context.baseRtt.IsStrictlyPositive())
    {
        return "PathSelector: the base RTT of the connection must be > 0";
    }
    if (context.bdpPackets == 0)
    {
        return "PathSelector: the BDP of the connection must be >= 1 packet";
    }
    return DoValidate(context);
}

std::string
PathSelector::DoValidate(const PathSelectorContext& context) const
{
    return "";
}

void
PathSelector::Start(const PathSelectorContext& context)
{
    NS_LOG_FUNCTION(this);
    std::string error = Validate(context);
    NS_ABORT_MSG_IF(!error.empty(), error);
    m_context = context;
    m_started = true;
    ResetCounters();
    DoStart();
}

uint16_t
PathSelector::NextEntropy(bool retransmission)
{
    NS_ASSERT_MSG(m_started, "PathSelector::Start() must be called before NextEntropy()");
    Choice why = RANDOM;
    uint16_t ev = DoNextEntropy(retransmission, why);
    NS_LOG_LOGIC("ev " << ev << " (" << ChoiceName(why) << ")" << (retransmission ? " retx" : ""));
    if (static_cast<uint32_t>(why) < N_CHOICES)
    {
        ++m_choices[why];
    }
    m_entropyChosen(ev, why, retransmission);
    return ev;
}

std::string
PathSelector::GetName() const
{
    return GetInstanceTypeId().GetName();
}

void
PathSelector::OnAck(uint16_t ev, bool ecn, Time rtt)
{
    NS_LOG_FUNCTION(this << ev << ecn << rtt);
    Feed(Feedback{ev, ecn ? Feedback::ECN : Feedback::GOOD, rtt});
}

void
PathSelector::OnNack(uint16_t ev, bool lastHop, bool ecn)
{
    NS_LOG_FUNCTION(this << ev << lastHop << ecn);
    if (!lastHop)
    {
        Feed(Feedback{ev, Feedback::NACK, Time(0)});
        return;
    }
    ++m_lastHopNacks;
    ++m_feedbacks[Feedback::NACK];
    m_feedback(ev, Feedback::NACK);
    Feedback feedback{ev, Feedback::NACK, Time(0), true};
    if (m_lastHopPolicy == LAST_HOP_RECEIVER)
    {
        feedback.kind = ecn ? Feedback::ECN : Feedback::GOOD;
    }
    DoFeedback(feedback);
}

void
PathSelector::OnLoss(uint16_t ev)
{
    NS_LOG_FUNCTION(this << ev);
    Feed(Feedback{ev, Feedback::LOST, Time(0)});
}

void
PathSelector::OnTimeout()
{
    NS_LOG_FUNCTION(this);
    ++m_timeouts;
    DoTimeout();
}

void
PathSelector::SetProbeCallback(ProbeCallback cb)
{
    NS_LOG_FUNCTION(this);
    m_probe = cb;
}

void
PathSelector::OnProbeReply(uint16_t ev, Time rtt)
{
    NS_LOG_FUNCTION(this << ev << rtt);
    DoProbeReply(ev, rtt);
}

bool
PathSelector::SendProbe(uint16_t ev)
{
    NS_LOG_FUNCTION(this << ev);
    if (m_probe.IsNull())
    {
        return false;
    }
    m_probe(ev);
    return true;
}

void
PathSelector::DoProbeReply(uint16_t ev, Time rtt)
{
}

void
PathSelector::Feed(const Feedback& feedback)
{
    ++m_feedbacks[feedback.kind];
    m_feedback(feedback.ev, feedback.kind);
    DoFeedback(feedback);
}

void
PathSelector::DoFeedback(const Feedback& feedback)
{
}

void
PathSelector::DoTimeout()
{
}

void
PathSelector::DoStart()
{
}

void
PathSelector::DoGetCounters(Counters& counters) const
{
}

void
PathSelector::ResetCounters()
{
    m_choices.fill(0);
    m_feedbacks.fill(0);
    m_timeouts = 0;
    m_lastHopNacks = 0;
}

uint64_t
PathSelector::GetPacketCount() const
{
    uint64_t total = 0;
    for (uint64_t c : m_choices)
    {
        total += c;
    }
    return total;
}

uint64_t
PathSelector::GetChoiceCount(Choice why) const
{
    return static_cast<uint32_t>(why) < N_CHOICES ? m_choices[why] : 0;
}

uint64_t
PathSelector::GetFeedbackCount(Feedback::Kind kind) const
{
    return static_cast<uint32_t>(kind) < Feedback::N_KINDS ? m_feedbacks[kind] : 0;
}

uint64_t
PathSelector::GetTimeoutCount() const
{
    return m_timeouts;
}

PathSelector::Counters
PathSelector::GetCounters() const
{
    Counters counters;
    counters["packets"] = GetPacketCount();
    for (uint32_t i = 0; i < N_CHOICES; ++i)
    {
        counters["choice." + ChoiceName(static_cast<Choice>(i))] = m_choices[i];
    }
    for (uint32_t i = 0; i < Feedback::N_KINDS; ++i)
    {
        counters["feedback." + FeedbackName(static_cast<Feedback::Kind>(i))] = m_feedbacks[i];
    }
    counters["nacks.last-hop"] = m_lastHopNacks;
    counters["timeouts"] = m_timeouts;
    DoGetCounters(counters);
    return counters;
}

uint64_t
PathSelector::GetCounter(const std::string& name) const
{
    Counters counters = GetCounters();
    auto it = counters.find(name);
    return it == counters.end() ? 0 : it->second;
}

int64_t
PathSelector::AssignStreams(int64_t stream)
{
    NS_LOG_FUNCTION(this << stream);
    m_rng->SetStream(stream);
    if (m_started)
    {
        ResetCounters();
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

uint32_t
PathSelector::GetPlanes() const
{
    return m_context.planes == 0 ? 1 : m_context.planes;
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

std::string
PathSelector::FeedbackName(Feedback::Kind kind)
{
    switch (kind)
    {
    case Feedback::GOOD:
        return "good";
    case Feedback::ECN:
        return "ecn";
    case Feedback::NACK:
        return "nack";
    case Feedback::LOST:
        return "lost";
    }
    return "unknown";
}

} // namespace ns3
