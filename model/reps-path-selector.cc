/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "reps-path-selector.h"

#include "reps-core.h"
#include "reps-ns3-compat.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <functional>
#include <sstream>
#include <utility>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RepsPathSelector");

NS_OBJECT_ENSURE_REGISTERED(RepsPathSelector);

/// Largest BufferSize: the core is instantiated for every size from 1 to this.
static constexpr uint32_t g_maxBufferSize = 32;

/**
 * \ingroup reps
 * The REPS core behind a run-time buffer size: RepsCore is sized at compile time, so the
 * selector holds one of its instantiations through this interface.
 */
class RepsCoreHolder
{
  public:
    /// The outcome of an ACK.
    using AckOutcome = RepsCore<>::AckOutcome;

    virtual ~RepsCoreHolder() = default;
    /**
     * \copydoc RepsCore::OnAck
     */
    virtual AckOutcome OnAck(uint16_t ev, bool ecn, int64_t nowNs, uint32_t explorePackets) = 0;
    /**
     * \param randomEv source of random EVs.
     * \param variant exploration variant.
     * \param [out] why the reason.
     * \return the EV of the next packet.
     */
    virtual uint16_t Next(const std::function<uint16_t()>& randomEv,
                          RepsExploration variant,
                          PathSelector::Choice& why) = 0;
    /**
     * \copydoc RepsCore::Freeze
     */
    virtual bool Freeze(int64_t nowNs, int64_t durationNs) = 0;
    /**
     * \copydoc RepsCore::ExpireFreeze
     */
    virtual bool ExpireFreeze(int64_t nowNs, uint32_t explorePackets) = 0;
    /// \return whether frozen.
    virtual bool IsFrozen() const = 0;
    /// \return the number of valid cached EVs.
    virtual uint32_t GetValidCount() const = 0;
    /// \return the exploration counter.
    virtual uint32_t GetExplorationCounter() const = 0;
};

namespace
{

/**
 * RepsCoreHolder for a buffer of N slots.
 * \tparam N number of slots.
 */
template <uint32_t N>
class RepsCoreOf : public RepsCoreHolder
{
  public:
    AckOutcome OnAck(uint16_t ev, bool ecn, int64_t nowNs, uint32_t explorePackets) override
    {
        auto out = m_core.OnAck(ev, ecn, nowNs, explorePackets);
        return AckOutcome{out.freezeEnded, out.cached, out.discarded};
    }

    uint16_t Next(const std::function<uint16_t()>& randomEv,
                  RepsExploration variant,
                  PathSelector::Choice& why) override
    {
        auto pick = m_core.Next(randomEv, variant);
        switch (pick.source)
        {
        case RepsCore<N>::Source::EXPLORE:
            why = PathSelector::EXPLORE;
            break;
        case RepsCore<N>::Source::FROZEN:
            why = PathSelector::FROZEN;
            break;
        case RepsCore<N>::Source::RECYCLED:
            why = PathSelector::RECYCLED;
            break;
        case RepsCore<N>::Source::RANDOM:
            why = PathSelector::RANDOM;
            break;
        }
        return pick.ev;
    }

    bool Freeze(int64_t nowNs, int64_t durationNs) override
    {
        return m_core.Freeze(nowNs, durationNs);
    }

    bool ExpireFreeze(int64_t nowNs, uint32_t explorePackets) override
    {
        return m_core.ExpireFreeze(nowNs, explorePackets);
    }

    bool IsFrozen() const override
    {
        return m_core.IsFrozen();
    }

    uint32_t GetValidCount() const override
    {
        return m_core.GetValidCount();
    }

    uint32_t GetExplorationCounter() const override
    {
        return m_core.GetExplorationCounter();
    }

  private:
    RepsCore<N> m_core; //!< The algorithm.
};

/**
 * \param n number of slots, 1 to sizeof...(Is).
 * \return a core of n slots.
 */
template <uint32_t... Is>
std::unique_ptr<RepsCoreHolder>
MakeCore(uint32_t n, std::integer_sequence<uint32_t, Is...>)
{
    std::unique_ptr<RepsCoreHolder> core;
    ((n == Is + 1 ? (core = std::make_unique<RepsCoreOf<Is + 1>>(), true) : false) || ...);
    return core;
}

} // namespace

TypeId
RepsPathSelector::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RepsPathSelector")
            .SetParent<PathSelector>()
            .SetGroupName("Reps")
            .AddConstructor<RepsPathSelector>()
            .AddAttribute("BufferSize",
                          "Number of slots of the circular buffer of recycled EVs (1 to 32; 8 in "
                          "the paper).",
                          UintegerValue(8),
                          MakeUintegerAccessor(&RepsPathSelector::m_bufferSize),
                          MakeUintegerChecker<uint32_t>(1, g_maxBufferSize))
            .AddAttribute("FreezeDuration",
                          "How long a connection stays frozen after a failure signal (1 ns to "
                          "1 s). 10 ms is the default of the REPS authors' simulator; their "
                          "micro experiment and NIC model use 100 us.",
                          TimeValue(MilliSeconds(10)),
                          MakeTimeAccessor(&RepsPathSelector::m_freezeDuration),
                          MakeTimeChecker(NanoSeconds(1), Seconds(1)))
            .AddAttribute("FreezingEnabled",
                          "Whether failure signals freeze the connection (false reproduces the "
                          "paper's 'freezing disabled' ablation).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&RepsPathSelector::m_freezingEnabled),
                          MakeBooleanChecker())
            .AddAttribute("ExplorationVariant",
                          "Which packets of the exploration window after freezing get a random "
                          "EV: AllRandom (every packet, as the paper describes) or EveryEighth "
                          "(every 8th, the others reuse cached EVs, as in the authors' sources).",
                          EnumValue(EXPLORE_ALL_RANDOM),
                          REPS_MAKE_ENUM_ACCESSOR(ExplorationVariant, &RepsPathSelector::m_variant),
                          MakeEnumChecker(EXPLORE_ALL_RANDOM,
                                          "AllRandom",
                                          EXPLORE_EVERY_EIGHTH,
                                          "EveryEighth"))
            .AddAttribute("RttThresholdFactor",
                          "Without packet trimming, a timeout freezes only if the largest recent "
                          "RTT is below this factor times the base RTT (1 to 1000; 1.65 in the "
                          "paper).",
                          DoubleValue(1.65),
                          MakeDoubleAccessor(&RepsPathSelector::m_rttThresholdFactor),
                          MakeDoubleChecker<double>(1.0, 1000.0))
            .AddAttribute("MaxRttWindow",
                          "Length of the window over which the recent maximum RTT is taken (0 "
                          "to 10 s); zero means two retransmission timeouts of the connection.",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&RepsPathSelector::m_maxRttWindowAttribute),
                          MakeTimeChecker(Time(0), Seconds(10)))
            .AddAttribute("RttWindow",
                          "How the recent maximum RTT is kept. Sliding (the default): the "
                          "maximum over the samples of the last MaxRttWindow, none after a "
                          "silence. Tumbling (the REPS authors' simulator): the maximum since "
                          "the current window began; a window ends at the first ACK after "
                          "MaxRttWindow, so the maximum survives a silence with no ACK.",
                          EnumValue(RepsPathSelector::RTT_WINDOW_SLIDING),
                          REPS_MAKE_ENUM_ACCESSOR(RepsPathSelector::RttWindow,
                                                  &RepsPathSelector::m_rttWindow),
                          MakeEnumChecker(RepsPathSelector::RTT_WINDOW_TUMBLING,
                                          "Tumbling",
                                          RepsPathSelector::RTT_WINDOW_SLIDING,
                                          "Sliding"))
            .AddTraceSource("EntropyCached",
                            "An EV whose ACK came back unmarked was written into the buffer.",
                            MakeTraceSourceAccessor(&RepsPathSelector::m_entropyCached),
                            "ns3::RepsPathSelector::EntropyTracedCallback")
            .AddTraceSource("EntropyDiscarded",
                            "An EV whose ACK came back ECN-marked was forgotten.",
                            MakeTraceSourceAccessor(&RepsPathSelector::m_entropyDiscarded),
                            "ns3::RepsPathSelector::EntropyTracedCallback")
            .AddTraceSource("FreezeStarted",
                            "Freezing was entered; the argument is the time it may end.",
                            MakeTraceSourceAccessor(&RepsPathSelector::m_freezeStarted),
                            "ns3::RepsPathSelector::FreezeTracedCallback")
            .AddTraceSource("FreezeEnded",
                            "Freezing was left (on the first feedback, ACK, NACK or timeout, after "
                            "FreezeDuration); the "
                            "argument is how long the connection was frozen.",
                            MakeTraceSourceAccessor(&RepsPathSelector::m_freezeEnded),
                            "ns3::RepsPathSelector::FreezeTracedCallback")
            .AddTraceSource("BufferOccupancy",
                            "Number of valid EVs in the buffer.",
                            MakeTraceSourceAccessor(&RepsPathSelector::m_occupancy),
                            "ns3::TracedValueCallback::Uint32");
    return tid;
}

RepsPathSelector::RepsPathSelector()
    : m_bufferSize(8),
      m_freezeDuration(MilliSeconds(10)),
      m_freezingEnabled(true),
      m_variant(EXPLORE_ALL_RANDOM),
      m_rttThresholdFactor(1.65),
      m_maxRttWindowAttribute(Time(0)),
      m_rttWindow(RTT_WINDOW_SLIDING),
      m_freezes(0),
      m_failureSignals(0),
      m_occupancy(0)
{
    NS_LOG_FUNCTION(this);
}

RepsPathSelector::~RepsPathSelector()
{
    NS_LOG_FUNCTION(this);
}

void
RepsPathSelector::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_core.reset();
    m_rtts.clear();
    PathSelector::DoDispose();
}

std::string
RepsPathSelector::CheckAttributes(uint32_t bufferSize,
                                  Time freezeDuration,
                                  double rttThresholdFactor,
                                  Time maxRttWindow)
{
    std::ostringstream msg;
    if (bufferSize < 1 || bufferSize > g_maxBufferSize)
    {
        msg << "RepsPathSelector: BufferSize (" << bufferSize << ") must be in [1, "
            << g_maxBufferSize << "]";
    }
    else if (freezeDuration <= Time(0) || freezeDuration > Seconds(1))
    {
        msg << "RepsPathSelector: FreezeDuration (" << freezeDuration.As(Time::US)
            << ") must be in (0, 1 s]";
    }
    else if (!(rttThresholdFactor >= 1.0 && rttThresholdFactor <= 1000.0))
    {
        msg << "RepsPathSelector: RttThresholdFactor (" << rttThresholdFactor
            << ") must be in [1, 1000]";
    }
    else if (maxRttWindow < Time(0))
    {
        msg << "RepsPathSelector: MaxRttWindow (" << maxRttWindow.As(Time::US) << ") must be >= 0";
    }
    return msg.str();
}

std::string
RepsPathSelector::DoValidate(const PathSelectorContext& context) const
{
    return CheckAttributes(m_bufferSize,
                           m_freezeDuration,
                           m_rttThresholdFactor,
                           m_maxRttWindowAttribute);
}

void
RepsPathSelector::DoStart()
{
    NS_LOG_FUNCTION(this);
    m_core = MakeCore(m_bufferSize, std::make_integer_sequence<uint32_t, g_maxBufferSize>());
    NS_ASSERT(m_core);
    m_maxRttWindow =
        m_maxRttWindowAttribute.IsZero() ? 2 * GetContext().rto : m_maxRttWindowAttribute;
    m_rtts.clear();
    m_windowMax = Time(0);
    m_windowEnd = NanoSeconds(-1); // the first sample starts a window

    m_freezes = 0;
    m_failureSignals = 0;
    m_occupancy = 0;
}

uint32_t
RepsPathSelector::ExplorePackets() const
{
    uint32_t bdp = GetContext().bdpPackets;
    return bdp > 0xffff ? 0xffff : bdp;
}

void
RepsPathSelector::UpdateOccupancy()
{
    uint32_t valid = m_core->GetValidCount();
    if (m_occupancy.Get() != valid)
    {
        m_occupancy = valid;
    }
}

uint16_t
RepsPathSelector::DoNextEntropy(bool retransmission, Choice& why)
{
    NS_ASSERT(m_core);
    uint16_t ev = m_core->Next([this]() { return RandomEntropy(); },
                               m_variant == EXPLORE_EVERY_EIGHTH ? RepsExploration::EVERY_EIGHTH
                                                                 : RepsExploration::ALL_RANDOM,
                               why);
    UpdateOccupancy();
    return ev;
}

std::string
RepsPathSelector::GetName() const
{
    return "reps";
}

void
RepsPathSelector::DoFeedback(const Feedback& feedback)
{
    NS_LOG_FUNCTION(this << feedback.ev << FeedbackName(feedback.kind));
    NS_ASSERT_MSG(m_core, "RepsPathSelector::Start() must be called before feedback");
    switch (feedback.kind)
    {
    case Feedback::GOOD:
    case Feedback::ECN:
        Ack(feedback.ev, feedback.kind == Feedback::ECN, feedback.rtt);
        break;
    case Feedback::NACK:
        // The EV of a trimmed packet is never cached; the NACK is feedback, which ends a freeze
        // that is due.
        if (m_core->ExpireFreeze(CoreNow().GetNanoSeconds(), ExplorePackets()))
        {
            NotifyFreezeEnded();
        }
        break;
    case Feedback::LOST:
        // A lost packet's EV was never cached (its ACK never came); nothing to forget.
        break;
    }
}

void
RepsPathSelector::Ack(uint16_t ev, bool ecn, Time rtt)
{
    Time now = Simulator::Now();
    if (rtt.IsStrictlyPositive() && m_rttWindow == RTT_WINDOW_TUMBLING)
    {
        if (now > m_windowEnd)
        {
            m_windowMax = Time(0);
            m_windowEnd = now + m_maxRttWindow;
        }
        m_windowMax = std::max(m_windowMax, rtt);
    }
    else if (rtt.IsStrictlyPositive())
    {
        while (!m_rtts.empty() && m_rtts.back().second <= rtt)
        {
            m_rtts.pop_back();
        }
        m_rtts.emplace_back(now, rtt);
        GetMaxRecentRtt(); // drop expired samples, so the deque stays short
    }
    auto out = m_core->OnAck(ev, ecn, CoreNow().GetNanoSeconds(), ExplorePackets());
    if (out.freezeEnded)
    {
        NotifyFreezeEnded();
    }
    if (out.discarded)
    {
        m_entropyDiscarded(ev);
    }
    if (out.cached)
    {
        m_entropyCached(ev);
    }
    UpdateOccupancy();
}

Time
RepsPathSelector::CoreNow() const
{
    // The core keeps the freeze end modulo 2^32 ns; once the full-width end has passed, hand
    // it the end itself so that a connection silent for seconds still leaves freezing.
    Time now = Simulator::Now();
    return (m_core->IsFrozen() && now >= m_freezeEnd) ? m_freezeEnd : now;
}

void
RepsPathSelector::NotifyFreezeEnded()
{
    Time now = Simulator::Now();
    NS_LOG_LOGIC("freeze ended after " << (now - m_freezeStart).As(Time::US));
    m_freezeEnded(now - m_freezeStart);
}

void
RepsPathSelector::DoTimeout()
{
    NS_LOG_FUNCTION(this);
    NS_ASSERT_MSG(m_core, "RepsPathSelector::Start() must be called before OnTimeout()");
    // A timeout is feedback too: a freeze that is due ends here, so that a connection whose
    // cached EVs all lead to dead paths (no ACK ever comes back) does not stay frozen.
    if (m_core->ExpireFreeze(CoreNow().GetNanoSeconds(), ExplorePackets()))
    {
        NotifyFreezeEnded();
    }
    if (!m_freezingEnabled)
    {
        return;
    }
    const PathSelectorContext& ctx = GetContext();
    Time maxRtt = GetMaxRecentRtt();
    if (!RepsCore<>::IsFailureSignal(ctx.trimming,
                                     maxRtt.GetNanoSeconds(),
                                     ctx.baseRtt.GetNanoSeconds(),
                                     m_rttThresholdFactor))
    {
        NS_LOG_LOGIC("timeout with recent max RTT " << maxRtt.As(Time::US)
                                                    << ": congestion, not a failure");
        return;
    }
    ++m_failureSignals;
    Time now = Simulator::Now();
    if (m_core->Freeze(now.GetNanoSeconds(), m_freezeDuration.GetNanoSeconds()))
    {
        ++m_freezes;
        m_freezeStart = now;
        m_freezeEnd = now + m_freezeDuration;
        NS_LOG_LOGIC("frozen until " << m_freezeEnd.As(Time::US));
        m_freezeStarted(m_freezeEnd);
    }
}

Time
RepsPathSelector::GetMaxRecentRtt()
{
    if (m_rttWindow == RTT_WINDOW_TUMBLING)
    {
        return m_windowMax;
    }
    Time horizon = Simulator::Now() - m_maxRttWindow;
    while (!m_rtts.empty() && m_rtts.front().first < horizon)
    {
        m_rtts.pop_front();
    }
    return m_rtts.empty() ? Time(0) : m_rtts.front().second;
}

Time
RepsPathSelector::GetMaxRttWindow() const
{
    return m_maxRttWindow;
}

bool
RepsPathSelector::IsFrozen() const
{
    return m_core && m_core->IsFrozen();
}

uint32_t
RepsPathSelector::GetValidCount() const
{
    return m_core ? m_core->GetValidCount() : 0;
}

uint32_t
RepsPathSelector::GetExplorationCounter() const
{
    return m_core ? m_core->GetExplorationCounter() : 0;
}

uint64_t
RepsPathSelector::GetFreezeCount() const
{
    return m_freezes;
}

uint64_t
RepsPathSelector::GetFailureSignalCount() const
{
    return m_failureSignals;
}

void
RepsPathSelector::DoGetCounters(Counters& counters) const
{
    counters["freezes"] = m_freezes;
    counters["failure-signals"] = m_failureSignals;
}

} // namespace ns3
