/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "bitmap-path-selector.h"

#include "reps-ns3-compat.h"

#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <set>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("BitmapPathSelector");

NS_OBJECT_ENSURE_REGISTERED(BitmapPathSelector);

TypeId
BitmapPathSelector::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::BitmapPathSelector")
            .SetParent<PathSelector>()
            .SetGroupName("Reps")
            .AddConstructor<BitmapPathSelector>()
            .AddAttribute("Paths",
                          "Number of distinct EVs sprayed over, drawn at random when the "
                          "connection starts (1 to 1024, and at most EntropySpace).",
                          UintegerValue(64),
                          MakeUintegerAccessor(&BitmapPathSelector::m_paths),
                          MakeUintegerChecker<uint32_t>(1, 1024))
            .AddAttribute("MaxPenalty",
                          "Saturation of an EV's penalty counter (1 to 255; 1 makes the "
                          "counters a bitmap of bad EVs).",
                          UintegerValue(4),
                          MakeUintegerAccessor(&BitmapPathSelector::m_maxPenalty),
                          MakeUintegerChecker<uint32_t>(1, 255))
            .AddAttribute("EcnPenalty",
                          "Penalty added to an EV by an ECN-marked ACK that echoes it (0 to "
                          "255; 0 ignores ECN).",
                          UintegerValue(1),
                          MakeUintegerAccessor(&BitmapPathSelector::m_ecnPenalty),
                          MakeUintegerChecker<uint32_t>(0, 255))
            .AddAttribute("DropPenalty",
                          "Penalty added to an EV by a NACK (trimmed packet) or a declared loss "
                          "of a packet that carried it (0 to 255; 0 ignores them).",
                          UintegerValue(4),
                          MakeUintegerAccessor(&BitmapPathSelector::m_dropPenalty),
                          MakeUintegerChecker<uint32_t>(0, 255))
            .AddAttribute("DecayRtts",
                          "Every this many base RTTs of the connection, every penalty drops by "
                          "one (0.01 to 10000; Order = Random only).",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&BitmapPathSelector::m_decayRtts),
                          MakeDoubleChecker<double>(0.01, 10000.0))
            .AddAttribute(
                "Order",
                "Random: each packet takes an EV at random among the least penalized, and "
                "penalties decay with time (DecayRtts); Sweep: a cursor sweeps the EVs in "
                "rounds (index XOR a mask drawn each round), skipping penalized ones, the "
                "first skipped losing one point, as the Ultra Ethernet simulator's bitmap "
                "(Paths a power of two).",
                EnumValue(BitmapPathSelector::LEAST_PENALIZED),
                REPS_MAKE_ENUM_ACCESSOR(BitmapPathSelector::Order, &BitmapPathSelector::m_order),
                MakeEnumChecker(BitmapPathSelector::LEAST_PENALIZED,
                                "Random",
                                BitmapPathSelector::SWEEP,
                                "Sweep"))
            .AddTraceSource("Penalty",
                            "Feedback penalized an EV: the EV and its penalty afterwards.",
                            MakeTraceSourceAccessor(&BitmapPathSelector::m_penaltyTrace),
                            "ns3::BitmapPathSelector::PenaltyTracedCallback");
    return tid;
}

BitmapPathSelector::BitmapPathSelector()
    : m_paths(64),
      m_maxPenalty(4),
      m_ecnPenalty(1),
      m_dropPenalty(4),
      m_decayRtts(1.0),
      m_order(LEAST_PENALIZED),
      m_cursor(0),
      m_mask(0),
      m_penalized(0),
      m_avoiding(0),
      m_events(0),
      m_pick(CreateObject<UniformRandomVariable>())
{
    NS_LOG_FUNCTION(this);
}

BitmapPathSelector::~BitmapPathSelector()
{
    NS_LOG_FUNCTION(this);
}

void
BitmapPathSelector::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_pick = nullptr;
    PathSelector::DoDispose();
}

int64_t
BitmapPathSelector::AssignStreams(int64_t stream)
{
    NS_LOG_FUNCTION(this << stream);
    int64_t used = PathSelector::AssignStreams(stream);
    m_pick->SetStream(stream + used);
    return used + 1;
}

std::string
BitmapPathSelector::CheckAttributes(uint32_t paths,
                                    uint32_t entropySpace,
                                    uint32_t maxPenalty,
                                    double decayRtts,
                                    Order order)
{
    std::ostringstream msg;
    if (paths < 1 || paths > 1024)
    {
        msg << "BitmapPathSelector: Paths (" << paths << ") must be in [1, 1024]";
    }
    else if (paths > entropySpace)
    {
        msg << "BitmapPathSelector: Paths (" << paths << ") must not exceed EntropySpace ("
            << entropySpace << "): the EVs must be distinct";
    }
    else if (maxPenalty < 1 || maxPenalty > 255)
    {
        msg << "BitmapPathSelector: MaxPenalty (" << maxPenalty << ") must be in [1, 255]";
    }
    else if (!(decayRtts >= 0.01 && decayRtts <= 10000.0))
    {
        msg << "BitmapPathSelector: DecayRtts (" << decayRtts << ") must be in [0.01, 10000]";
    }
    else if (order == SWEEP && (paths & (paths - 1)) != 0)
    {
        msg << "BitmapPathSelector: Paths (" << paths
            << ") must be a power of two with Order = Sweep (1, 2, 4, ... 1024)";
    }
    return msg.str();
}

std::string
BitmapPathSelector::DoValidate(const PathSelectorContext& context) const
{
    return CheckAttributes(m_paths, GetEntropySpace(), m_maxPenalty, m_decayRtts, m_order);
}

void
BitmapPathSelector::DoStart()
{
    NS_LOG_FUNCTION(this);
    m_evs.clear();
    m_sorted.clear();
    m_decayInterval = Seconds(GetContext().baseRtt.GetSeconds() * m_decayRtts);
    if (!m_decayInterval.IsStrictlyPositive())
    {
        m_decayInterval = TimeStep(1);
    }
    m_lastDecay = Simulator::Now();
    m_penalized = 0;
    m_avoiding = 0;
    m_events = 0;
}

void
BitmapPathSelector::DrawEntropies()
{
    NS_LOG_FUNCTION(this);
    std::set<uint16_t> seen;
    while (m_evs.size() < m_paths)
    {
        uint16_t ev = RandomEntropy();
        if (seen.insert(ev).second)
        {
            m_evs.push_back(ev);
        }
    }
    for (uint32_t i = 0; i < m_paths; ++i)
    {
        m_sorted.emplace_back(m_evs[i], i);
    }
    std::sort(m_sorted.begin(), m_sorted.end());
    m_cursor = 0;
    m_mask = m_order == SWEEP ? m_pick->GetInteger(0, m_paths - 1) : 0;
    m_penalty.assign(m_paths, 0);
    m_levels.assign(m_maxPenalty + 1, std::vector<uint32_t>());
    m_levels[0].reserve(m_paths);
    m_slot.resize(m_paths);
    for (uint32_t i = 0; i < m_paths; ++i)
    {
        m_slot[i] = i;
        m_levels[0].push_back(i);
    }
}

int32_t
BitmapPathSelector::IndexOf(uint16_t ev) const
{
    auto it = std::lower_bound(m_sorted.begin(),
                               m_sorted.end(),
                               std::make_pair(ev, static_cast<uint32_t>(0)));
    if (it == m_sorted.end() || it->first != ev)
    {
        return -1;
    }
    return static_cast<int32_t>(it->second);
}

void
BitmapPathSelector::SetLevel(uint32_t index, uint8_t level)
{
    uint8_t old = m_penalty[index];
    if (old == level)
    {
        return;
    }
    std::vector<uint32_t>& from = m_levels[old];
    uint32_t slot = m_slot[index];
    uint32_t moved = from.back();
    from[slot] = moved;
    m_slot[moved] = slot;
    from.pop_back();
    m_slot[index] = static_cast<uint32_t>(m_levels[level].size());
    m_levels[level].push_back(index);
    m_penalty[index] = level;
    if (old == 0)
    {
        ++m_penalized;
    }
    else if (level == 0)
    {
        --m_penalized;
    }
}

void
BitmapPathSelector::Decay()
{
    if (m_order == SWEEP)
    {
        return; // penalties fall as the sweep skips them
    }
    Time elapsed = Simulator::Now() - m_lastDecay;
    if (elapsed < m_decayInterval)
    {
        return;
    }
    int64_t steps = elapsed.GetTimeStep() / m_decayInterval.GetTimeStep();
    m_lastDecay += TimeStep(steps * m_decayInterval.GetTimeStep());
    if (m_penalized == 0)
    {
        return;
    }
    uint32_t down = static_cast<uint32_t>(std::min<int64_t>(steps, 255));
    NS_LOG_LOGIC("decay by " << down << " (" << m_penalized << " EVs penalized)");
    for (uint32_t i = 0; i < m_paths; ++i)
    {
        if (m_penalty[i] > 0)
        {
            uint32_t p = m_penalty[i];
            SetLevel(i, static_cast<uint8_t>(p > down ? p - down : 0));
        }
    }
}

void
BitmapPathSelector::Penalize(uint16_t ev, uint32_t amount)
{
    if (!IsStarted() || amount == 0)
    {
        return;
    }
    EnsureEntropies();
    Decay();
    int32_t index = IndexOf(ev);
    if (index < 0)
    {
        return;
    }
    ++m_events;
    uint32_t p = std::min<uint32_t>(m_penalty[index] + amount, m_maxPenalty);
    SetLevel(static_cast<uint32_t>(index), static_cast<uint8_t>(p));
    NS_LOG_LOGIC("ev " << ev << " penalty " << p);
    m_penaltyTrace(ev, static_cast<uint8_t>(p));
}

std::string
BitmapPathSelector::GetName() const
{
    return "bitmap";
}

void
BitmapPathSelector::DoFeedback(const Feedback& feedback)
{
    NS_LOG_FUNCTION(this << feedback.ev << FeedbackName(feedback.kind));
    if (feedback.kind == Feedback::ECN)
    {
        Penalize(feedback.ev, m_ecnPenalty);
    }
    else if (feedback.kind == Feedback::NACK || feedback.kind == Feedback::LOST)
    {
        Penalize(feedback.ev, m_dropPenalty);
    }
}

void
BitmapPathSelector::DoGetCounters(Counters& counters) const
{
    counters["avoiding"] = m_avoiding;
    counters["penalty-events"] = m_events;
}

uint16_t
BitmapPathSelector::DoNextEntropy(bool retransmission, Choice& why)
{
    EnsureEntropies();
    Decay();
    why = RANDOM;
    if (m_penalized > 0)
    {
        ++m_avoiding;
    }
    if (m_order == SWEEP)
    {
        return m_evs[NextSweep()];
    }
    uint32_t level = 0;
    while (m_levels[level].empty())
    {
        ++level;
    }
    const std::vector<uint32_t>& bucket = m_levels[level];
    uint32_t pick =
        bucket.size() == 1 ? 0 : m_pick->GetInteger(0, static_cast<uint32_t>(bucket.size() - 1));
    return m_evs[bucket[pick]];
}

void
BitmapPathSelector::AdvanceSweep()
{
    if (++m_cursor == m_paths)
    {
        m_cursor = 0;
        m_mask = m_pick->GetInteger(0, m_paths - 1);
    }
}

uint32_t
BitmapPathSelector::NextSweep()
{
    uint32_t entry = m_cursor ^ m_mask;
    bool skipped = false;
    for (uint32_t steps = 0; m_penalty[entry] > 0 && steps < m_paths; ++steps)
    {
        if (!skipped)
        {
            SetLevel(entry, static_cast<uint8_t>(m_penalty[entry] - 1));
            skipped = true;
        }
        AdvanceSweep();
        entry = m_cursor ^ m_mask;
    }
    AdvanceSweep();
    return entry;
}

const std::vector<uint16_t>&
BitmapPathSelector::GetEntropies()
{
    if (IsStarted())
    {
        EnsureEntropies();
    }
    return m_evs;
}

uint32_t
BitmapPathSelector::GetPenalty(uint16_t ev)
{
    if (!IsStarted())
    {
        return 0;
    }
    EnsureEntropies();
    Decay();
    int32_t index = IndexOf(ev);
    return index < 0 ? 0 : m_penalty[index];
}

uint32_t
BitmapPathSelector::GetPenalizedEntropyCount()
{
    if (IsStarted())
    {
        Decay();
    }
    return m_penalized;
}

uint64_t
BitmapPathSelector::GetAvoidingCount() const
{
    return m_avoiding;
}

uint64_t
BitmapPathSelector::GetPenaltyEventCount() const
{
    return m_events;
}

} // namespace ns3
