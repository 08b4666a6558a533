/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "nscc-congestion-control.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("NsccCongestionControl");

NS_OBJECT_ENSURE_REGISTERED(NsccCongestionControl);

namespace
{

/// Point-to-point header bytes in the wire size RdmaQueuePair passes to OnSend().
constexpr uint32_t kPppBytes = 2;

} // namespace

TypeId
NsccCongestionControl::AddNetworkAttributes(TypeId tid)
{
    return tid
        .AddAttribute("NetworkRtt",
                      "Unloaded RTT of the network, which scales NSCC's constants (factor a), "
                      "sets the target delay, the adjustment period and a NACK's delay sample. "
                      "Zero uses the connection's base RTT (the reference simulator uses the "
                      "network's largest unloaded RTT).",
                      TimeValue(Time(0)),
                      MakeTimeAccessor(&NsccCongestionControl::m_networkRtt),
                      MakeTimeChecker(Time(0), Seconds(1)))
        .AddAttribute("ReferenceRate",
                      "Link rate of the reference network of the scaling factor a "
                      "(a = network BDP / (ReferenceRate x ReferenceRtt)).",
                      DataRateValue(DataRate("100Gbps")),
                      MakeDataRateAccessor(&NsccCongestionControl::m_referenceRate),
                      MakeDataRateChecker())
        .AddAttribute("ReferenceRtt",
                      "RTT of the reference network (factor a; factor b = target delay / "
                      "ReferenceRtt).",
                      TimeValue(MicroSeconds(12)),
                      MakeTimeAccessor(&NsccCongestionControl::m_referenceRtt),
                      MakeTimeChecker(NanoSeconds(1), Seconds(1)))
        .AddAttribute("TargetDelay",
                      "Target queueing delay; zero derives it from NetworkRtt: "
                      "TrimmedTargetDelay network RTTs when the queue pair's Trimming is set, "
                      "else UntrimmedTargetDelay.",
                      TimeValue(Time(0)),
                      MakeTimeAccessor(&NsccCongestionControl::m_targetDelay),
                      MakeTimeChecker(Time(0), Seconds(1)))
        .AddAttribute("TrimmedTargetDelay",
                      "Derived target delay on a trimming fabric, in network RTTs.",
                      DoubleValue(0.75),
                      MakeDoubleAccessor(&NsccCongestionControl::m_trimmedTarget),
                      MakeDoubleChecker<double>(0.01, 100.0))
        .AddAttribute("UntrimmedTargetDelay",
                      "Derived target delay on a fabric that drops, in network RTTs.",
                      DoubleValue(1.0),
                      MakeDoubleAccessor(&NsccCongestionControl::m_untrimmedTarget),
                      MakeDoubleChecker<double>(0.01, 100.0));
}

TypeId
NsccCongestionControl::AddWindowAttributes(TypeId tid)
{
    return tid
        .AddAttribute("InitialWindow",
                      "Initial window, in bandwidth-delay products of the connection.",
                      DoubleValue(1.5),
                      MakeDoubleAccessor(&NsccCongestionControl::m_initialBdp),
                      MakeDoubleChecker<double>(0.0, 1000.0))
        .AddAttribute("MaxWindow",
                      "Largest window, in BDPs of the connection at its current base RTT; "
                      "not below InitialWindow.",
                      DoubleValue(1.5),
                      MakeDoubleAccessor(&NsccCongestionControl::m_maxBdp),
                      MakeDoubleChecker<double>(0.0, 1000.0))
        .AddAttribute("FairIncrease",
                      "Fair increase (no ECN, delay >= target): window growth per window "
                      "acknowledged, in MSS x a.",
                      DoubleValue(5.0),
                      MakeDoubleAccessor(&NsccCongestionControl::m_fairIncrease),
                      MakeDoubleChecker<double>(0.0, 1000.0))
        .AddAttribute("ProportionalIncrease",
                      "Proportional increase (no ECN, delay < target): growth per window "
                      "acknowledged at zero delay, in MSS x a x b; scaled by "
                      "(target - delay) / target.",
                      DoubleValue(4.0),
                      MakeDoubleAccessor(&NsccCongestionControl::m_proportional),
                      MakeDoubleChecker<double>(0.0, 1000.0))
        .AddAttribute("Eta",
                      "Additive increase once per AdjustPeriod, in MSS x a.",
                      DoubleValue(0.15),
                      MakeDoubleAccessor(&NsccCongestionControl::m_eta),
                      MakeDoubleChecker<double>(0.0, 1000.0))
        .AddAttribute("FastIncreaseScale",
                      "Fast increase (after a window's worth of delay below "
                      "FastIncreaseDelay): window growth per acked byte, x a.",
                      DoubleValue(0.25),
                      MakeDoubleAccessor(&NsccCongestionControl::m_fastIncreaseScale),
                      MakeDoubleChecker<double>(0.0, 10.0))
        .AddAttribute("FastIncreaseDelay",
                      "Queueing delay below which acked bytes count towards fast increase.",
                      TimeValue(MicroSeconds(1)),
                      MakeTimeAccessor(&NsccCongestionControl::m_fastIncreaseDelay),
                      MakeTimeChecker(Time(0), Seconds(1)))
        .AddAttribute("Gamma",
                      "Multiplicative decrease gain: the window is multiplied by "
                      "1 - Gamma (avg - target) / avg, at least MinDecreaseFactor.",
                      DoubleValue(0.8),
                      MakeDoubleAccessor(&NsccCongestionControl::m_gamma),
                      MakeDoubleChecker<double>(0.0, 1.0))
        .AddAttribute("MinDecreaseFactor",
                      "Smallest factor of one multiplicative decrease.",
                      DoubleValue(0.5),
                      MakeDoubleAccessor(&NsccCongestionControl::m_minDecrease),
                      MakeDoubleChecker<double>(0.0, 1.0))
        .AddAttribute("AdjustBytes",
                      "Acknowledged bytes after which the accrued increase is applied, in MSS.",
                      DoubleValue(8.0),
                      MakeDoubleAccessor(&NsccCongestionControl::m_adjustBytes),
                      MakeDoubleChecker<double>(0.0, 1e6))
        .AddAttribute("AdjustPeriod",
                      "Time after which the accrued increase is applied, and Eta's period; "
                      "zero uses NetworkRtt.",
                      TimeValue(Time(0)),
                      MakeTimeAccessor(&NsccCongestionControl::m_adjustPeriod),
                      MakeTimeChecker(Time(0), Seconds(1)));
}

TypeId
NsccCongestionControl::AddDelayAttributes(TypeId tid)
{
    return tid
        .AddAttribute("DelayEwmaWeight",
                      "Weight of a new sample in the smoothed queueing delay.",
                      DoubleValue(0.0125),
                      MakeDoubleAccessor(&NsccCongestionControl::m_delayEwma),
                      MakeDoubleChecker<double>(0.0, 1.0))
        .AddAttribute("LargeDelayEwmaWeight",
                      "Weight of a sample above LargeDelayThreshold base RTTs.",
                      DoubleValue(0.0125),
                      MakeDoubleAccessor(&NsccCongestionControl::m_largeDelayEwma),
                      MakeDoubleChecker<double>(0.0, 1.0))
        .AddAttribute("LargeDelayThreshold",
                      "Delay sample, in base RTTs, above which LargeDelayEwmaWeight applies.",
                      DoubleValue(5.0),
                      MakeDoubleAccessor(&NsccCongestionControl::m_largeDelay),
                      MakeDoubleChecker<double>(0.0, 1e6))
        .AddAttribute("UnmarkedDelaySample",
                      "An unmarked sample above the target enters the smoothed delay as this "
                      "many base RTTs.",
                      DoubleValue(0.25),
                      MakeDoubleAccessor(&NsccCongestionControl::m_unmarkedSample),
                      MakeDoubleChecker<double>(0.0, 100.0))
        .AddAttribute("NackDelay",
                      "Delay sample a NACK injects, in network RTTs.",
                      DoubleValue(1.0),
                      MakeDoubleAccessor(&NsccCongestionControl::m_nackDelay),
                      MakeDoubleChecker<double>(0.0, 100.0))
        .AddAttribute("QuickAdapt",
                      "Quick adapt enabled.",
                      BooleanValue(true),
                      MakeBooleanAccessor(&NsccCongestionControl::m_quickAdapt),
                      MakeBooleanChecker())
        .AddAttribute("QuickAdaptThreshold",
                      "Delay sample that triggers quick adapt, in target delays.",
                      DoubleValue(4.0),
                      MakeDoubleAccessor(&NsccCongestionControl::m_qaThreshold),
                      MakeDoubleChecker<double>(0.0, 1000.0))
        .AddAttribute("QuickAdaptGate",
                      "Quick adapt only when the bytes achieved in the last period are below "
                      "the largest window / 2^QuickAdaptGate.",
                      UintegerValue(3),
                      MakeUintegerAccessor(&NsccCongestionControl::m_qaGate),
                      MakeUintegerChecker<uint32_t>(0, 30));
}

TypeId
NsccCongestionControl::GetTypeId()
{
    static TypeId tid =
        AddDelayAttributes(
            AddWindowAttributes(AddNetworkAttributes(TypeId("ns3::NsccCongestionControl")
                                                         .SetParent<RdmaCongestionControl>()
                                                         .SetGroupName("Reps")
                                                         .AddConstructor<NsccCongestionControl>())))
            .AddTraceSource("SmoothedDelay",
                            "The smoothed (EWMA) queueing delay.",
                            MakeTraceSourceAccessor(&NsccCongestionControl::m_smoothedDelay),
                            "ns3::TracedValueCallback::Time")
            .AddTraceSource("Decision",
                            "What one ACK, NACK or timeout did, with the window before and "
                            "after (payload bytes).",
                            MakeTraceSourceAccessor(&NsccCongestionControl::m_decisionTrace),
                            "ns3::NsccCongestionControl::DecisionTracedCallback");
    return tid;
}

NsccCongestionControl::NsccCongestionControl()
{
    NS_LOG_FUNCTION(this);
}

NsccCongestionControl::~NsccCongestionControl()
{
    NS_LOG_FUNCTION(this);
}

std::string
NsccCongestionControl::GetName() const
{
    return "nscc";
}

Time
NsccCongestionControl::NetworkRttOf(const RdmaCcContext& context) const
{
    return m_networkRtt.IsStrictlyPositive() ? m_networkRtt : context.baseRtt;
}

Time
NsccCongestionControl::TargetDelayOf(const RdmaCcContext& context) const
{
    if (m_targetDelay.IsStrictlyPositive())
    {
        return m_targetDelay;
    }
    const double factor = context.trimming ? m_trimmedTarget : m_untrimmedTarget;
    return NanoSeconds(
        static_cast<int64_t>(std::llround(NetworkRttOf(context).GetNanoSeconds() * factor)));
}

std::string
NsccCongestionControl::Validate(const RdmaCcContext& context) const
{
    std::ostringstream os;
    if (m_maxBdp < m_initialBdp)
    {
        os << "NsccCongestionControl: MaxWindow (" << m_maxBdp << " BDP) must be >= InitialWindow ("
           << m_initialBdp << " BDP)";
    }
    else if (m_maxBdp * context.bdpBytes < context.mtu)
    {
        os << "NsccCongestionControl: MaxWindow (" << m_maxBdp
           << " BDP = " << m_maxBdp * context.bdpBytes
           << " bytes) must hold at least one packet (Mtu = " << context.mtu << " bytes)";
    }
    else if (NetworkRttOf(context).GetNanoSeconds() <= 0)
    {
        os << "NsccCongestionControl: NetworkRtt (or the connection's base RTT) must be >= 1ns";
    }
    else if (TargetDelayOf(context).GetNanoSeconds() <= 0)
    {
        os << "NsccCongestionControl: TargetDelay must be >= 1ns (derived from NetworkRtt "
           << NetworkRttOf(context) << ")";
    }
    else if (m_referenceRate.GetBitRate() == 0)
    {
        os << "NsccCongestionControl: ReferenceRate must be > 0bps";
    }
    return os.str();
}

NsccParameters
NsccCongestionControl::MakeParameters(const RdmaCcContext& c) const
{
    NsccParameters p;
    p.mss = c.mtu;
    p.lineRateBps = static_cast<double>(c.lineRate.GetBitRate());
    p.baseRttNs = std::max<int64_t>(1, c.baseRtt.GetNanoSeconds());
    p.bdpBytes = static_cast<double>(c.bdpBytes);
    p.networkRttNs = NetworkRttOf(c).GetNanoSeconds();
    p.referenceRateBps = static_cast<double>(m_referenceRate.GetBitRate());
    p.referenceRttNs = m_referenceRtt.GetNanoSeconds();
    p.targetDelayNs = TargetDelayOf(c).GetNanoSeconds();
    p.initialWindowBdp = m_initialBdp;
    p.maxWindowBdp = m_maxBdp;
    p.fairIncreaseMss = m_fairIncrease;
    p.proportionalMss = m_proportional;
    p.etaMss = m_eta;
    p.fastIncreaseScale = m_fastIncreaseScale;
    p.fastIncreaseDelayNs = m_fastIncreaseDelay.GetNanoSeconds();
    p.gamma = m_gamma;
    p.minDecreaseFactor = m_minDecrease;
    p.delayEwma = m_delayEwma;
    p.largeDelayEwma = m_largeDelayEwma;
    p.largeDelayBaseRtts = m_largeDelay;
    p.unmarkedSampleBaseRtts = m_unmarkedSample;
    p.quickAdapt = m_quickAdapt;
    p.quickAdaptTargets = m_qaThreshold;
    p.quickAdaptGate = m_qaGate;
    p.adjustBytesMss = m_adjustBytes;
    p.adjustPeriodNs =
        (m_adjustPeriod.IsStrictlyPositive() ? m_adjustPeriod : NetworkRttOf(c)).GetNanoSeconds();
    p.nackDelayNetworkRtts = m_nackDelay;
    return p;
}

void
NsccCongestionControl::DoInit()
{
    NS_LOG_FUNCTION(this);
    m_params = MakeParameters(GetContext());
    m_core = std::make_unique<NsccCore>(m_params);
    m_smoothedDelay = Time(0);
    SetWindow(static_cast<uint32_t>(std::floor(m_core->GetWindow())));
}

void
NsccCongestionControl::Publish(NsccDecision decision, uint32_t oldWindow)
{
    const uint32_t window = static_cast<uint32_t>(std::floor(m_core->GetWindow()));
    SetWindow(window);
    const Time delay = NanoSeconds(static_cast<int64_t>(std::llround(m_core->GetSmoothedDelay())));
    if (delay != m_smoothedDelay.Get())
    {
        m_smoothedDelay = delay;
    }
    NS_LOG_LOGIC(NsccDecisionName(decision) << " window " << oldWindow << " -> " << window);
    m_decisionTrace(decision, oldWindow, window);
}

void
NsccCongestionControl::OnSend(uint32_t wireBytes)
{
    const RdmaCcContext& c = GetContext();
    const uint32_t headers = c.packetBytes - c.mtu + kPppBytes;
    m_core->OnSend(wireBytes > headers ? wireBytes - headers : 0);
}

void
NsccCongestionControl::OnAck(uint32_t ackedBytes, bool ce, Time rtt)
{
    NS_LOG_FUNCTION(this << ackedBytes << ce << rtt);
    const uint32_t old = GetWindow();
    const NsccDecision d =
        m_core->OnAck(Simulator::Now().GetNanoSeconds(), ackedBytes, ce, rtt.GetNanoSeconds());
    Publish(d, old);
}

void
NsccCongestionControl::OnNack(uint32_t lostBytes, bool lastHop)
{
    NS_LOG_FUNCTION(this << lostBytes << lastHop);
    const uint32_t old = GetWindow();
    // Under receiver credits the receiver's pull pacer answers congestion at its own port.
    const bool keep = lastHop && GetContext().receiverCredits;
    Publish(m_core->OnNack(Simulator::Now().GetNanoSeconds(), lostBytes, keep), old);
}

void
NsccCongestionControl::OnLoss(uint32_t lostBytes)
{
    NS_LOG_FUNCTION(this << lostBytes);
    const uint32_t old = GetWindow();
    Publish(m_core->OnTimeout(lostBytes), old);
}

double
NsccCongestionControl::GetExactWindow() const
{
    return m_core ? m_core->GetWindow() : 0;
}

double
NsccCongestionControl::GetMaxWindow() const
{
    return m_core ? m_core->GetMaxWindow() : 0;
}

Time
NsccCongestionControl::GetTargetDelay() const
{
    return NanoSeconds(m_params.targetDelayNs);
}

Time
NsccCongestionControl::GetSmoothedDelay() const
{
    return m_smoothedDelay;
}

const NsccParameters&
NsccCongestionControl::GetParameters() const
{
    return m_params;
}

} // namespace ns3
