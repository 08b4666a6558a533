/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "nscc-core.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

const char*
NsccDecisionName(NsccDecision decision)
{
    switch (decision)
    {
    case NsccDecision::FAIR_INCREASE:
        return "fair_increase";
    case NsccDecision::PROPORTIONAL_INCREASE:
        return "proportional_increase";
    case NsccDecision::FAST_INCREASE:
        return "fast_increase";
    case NsccDecision::MULTIPLICATIVE_DECREASE:
        return "multiplicative_decrease";
    case NsccDecision::DECREASE_HELD:
        return "decrease_held";
    case NsccDecision::NO_CHANGE:
        return "no_change";
    case NsccDecision::QUICK_ADAPT:
        return "quick_adapt";
    case NsccDecision::IGNORED:
        return "ignored";
    case NsccDecision::NACK:
        return "nack";
    case NsccDecision::TIMEOUT:
        return "timeout";
    case NsccDecision::NACK_KEPT:
        return "nack_kept";
    }
    return "unknown";
}

NsccCore::NsccCore(const NsccParameters& p)
    : m_p(p),
      m_baseRttNs(p.baseRttNs)
{
    // Both BDPs in wire bytes at the respective rates: only their ratio matters.
    const double networkBdp = p.lineRateBps * static_cast<double>(p.networkRttNs);
    const double referenceBdp = p.referenceRateBps * static_cast<double>(p.referenceRttNs);
    m_a = networkBdp / referenceBdp;
    m_b = static_cast<double>(p.targetDelayNs) / static_cast<double>(p.referenceRttNs);
    m_fair = p.fairIncreaseMss * p.mss * m_a;
    m_prop = p.proportionalMss * p.mss * m_a * m_b;
    m_eta = p.etaMss * p.mss * m_a;
    m_fiScale = p.fastIncreaseScale * m_a;
    m_qaDelayNs = p.quickAdaptTargets * static_cast<double>(p.targetDelayNs);
    m_maxWnd = std::max(p.mss, p.maxWindowBdp * p.bdpBytes);
    m_cwnd = p.initialWindowBdp * p.bdpBytes;
    Clamp();
}

void
NsccCore::OnSend(double payloadBytes)
{
    m_inFlight += payloadBytes;
}

NsccDecision
NsccCore::OnAck(int64_t nowNs, double ackedBytes, bool ce, int64_t rttNs)
{
    m_achieved += ackedBytes;
    m_received += ackedBytes;
    m_ignored += ackedBytes;
    m_inFlight = std::max(0.0, m_inFlight - ackedBytes);
    double delayNs = m_avgDelayNs;
    if (rttNs > 0)
    {
        UpdateBaseRtt(rttNs);
        delayNs = static_cast<double>(rttNs - m_baseRttNs);
        UpdateSmoothedDelay(delayNs, ce);
    }
    return Decide(nowNs, ackedBytes, ce, delayNs);
}

NsccDecision
NsccCore::OnNack(int64_t nowNs, double bytes, bool keepWindow)
{
    m_ignored += bytes;
    m_inFlight = std::max(0.0, m_inFlight - bytes);
    // A trimmed packet met a full queue: count it as that much delay (about one network RTT
    // of queueing, the trimming threshold), marked.
    UpdateSmoothedDelay(m_p.nackDelayNetworkRtts * static_cast<double>(m_p.networkRttNs), true);
    m_triggerQa = true;
    const Qa qa = QuickAdapt(nowNs, true, true, 0);
    if (qa == Qa::FIRED)
    {
        return NsccDecision::QUICK_ADAPT;
    }
    if (qa == Qa::IGNORED)
    {
        return NsccDecision::IGNORED;
    }
    if (keepWindow)
    {
        return NsccDecision::NACK_KEPT;
    }
    m_cwnd -= bytes;
    Clamp();
    return NsccDecision::NACK;
}

NsccDecision
NsccCore::OnTimeout(double bytes)
{
    m_inFlight = std::max(0.0, m_inFlight - bytes);
    m_cwnd -= bytes;
    Clamp();
    return NsccDecision::TIMEOUT;
}

void
NsccCore::UpdateBaseRtt(int64_t rttNs)
{
    if (rttNs < m_baseRttNs)
    {
        m_baseRttNs = rttNs;
        const double bdp =
            m_p.bdpBytes * static_cast<double>(rttNs) / static_cast<double>(m_p.baseRttNs);
        m_maxWnd = std::max(m_p.mss, m_p.maxWindowBdp * bdp);
    }
}

void
NsccCore::UpdateSmoothedDelay(double delayNs, bool ce)
{
    const double base = static_cast<double>(m_baseRttNs);
    double sample = delayNs;
    double weight = m_p.delayEwma;
    if (!ce && delayNs > static_cast<double>(m_p.targetDelayNs))
    {
        // A long but unmarked RTT is not this path's queue (another path, the receiver): it
        // only counts as a fraction of a base RTT.
        sample = m_p.unmarkedSampleBaseRtts * base;
    }
    else if (delayNs > m_p.largeDelayBaseRtts * base)
    {
        weight = m_p.largeDelayEwma;
    }
    m_avgDelayNs = weight * sample + (1 - weight) * m_avgDelayNs;
}

NsccCore::Qa
NsccCore::QuickAdapt(int64_t nowNs, bool isLoss, bool ce, double delayNs)
{
    if (!m_p.quickAdapt)
    {
        return Qa::NONE;
    }
    Qa result = Qa::NONE;
    if (ce && m_ignored < m_toIgnore)
    {
        result = Qa::IGNORED;
    }
    else if (!m_qaStarted || nowNs > m_qaEndNs)
    {
        const double gate = m_maxWnd / std::ldexp(1.0, static_cast<int>(m_p.quickAdaptGate));
        if (m_qaStarted && (m_triggerQa || isLoss || delayNs > m_qaDelayNs) && m_achieved < gate)
        {
            m_cwnd = std::max(m_achieved, GetMinWindow());
            m_toIgnore = m_inFlight;
            m_ignored = 0;
            m_triggerQa = false;
            result = Qa::FIRED;
        }
        m_achieved = 0;
        m_qaStarted = true;
        m_qaEndNs = nowNs + m_baseRttNs + m_p.targetDelayNs;
    }
    if (result != Qa::NONE)
    {
        m_incBytes = 0;
        m_received = 0;
    }
    return result;
}

NsccDecision
NsccCore::Decide(int64_t nowNs, double ackedBytes, bool ce, double delayNs)
{
    const Qa qa = QuickAdapt(nowNs, false, ce, delayNs);
    if (qa != Qa::NONE)
    {
        return qa == Qa::FIRED ? NsccDecision::QUICK_ADAPT : NsccDecision::IGNORED;
    }
    const double target = static_cast<double>(m_p.targetDelayNs);
    NsccDecision decision = NsccDecision::NO_CHANGE;
    if (!ce && delayNs >= target)
    {
        m_incBytes += m_fair * ackedBytes;
        decision = NsccDecision::FAIR_INCREASE;
    }
    else if (!ce)
    {
        decision = ProportionalIncrease(ackedBytes, delayNs);
    }
    else if (delayNs >= target)
    {
        decision = MultiplicativeDecrease(nowNs);
    }
    Clamp();
    if (m_received > m_p.adjustBytesMss * m_p.mss || nowNs - m_lastAdjustNs > m_p.adjustPeriodNs)
    {
        Adjust(nowNs);
        Clamp();
    }
    return decision;
}

NsccDecision
NsccCore::ProportionalIncrease(double ackedBytes, double delayNs)
{
    if (delayNs < static_cast<double>(m_p.fastIncreaseDelayNs))
    {
        m_fiCount += ackedBytes;
        if (m_fiCount > m_cwnd || m_fastIncrease)
        {
            m_cwnd += ackedBytes * m_fiScale;
            m_fastIncrease = true;
            return NsccDecision::FAST_INCREASE;
        }
    }
    else
    {
        m_fiCount = 0;
    }
    m_fastIncrease = false;
    const double target = static_cast<double>(m_p.targetDelayNs);
    m_incBytes += m_prop * ackedBytes * (target - delayNs) / target;
    return NsccDecision::PROPORTIONAL_INCREASE;
}

NsccDecision
NsccCore::MultiplicativeDecrease(int64_t nowNs)
{
    m_fastIncrease = false;
    m_fiCount = 0;
    const double target = static_cast<double>(m_p.targetDelayNs);
    if (m_avgDelayNs <= target || (m_decreased && nowNs - m_lastDecreaseNs <= m_baseRttNs))
    {
        return NsccDecision::DECREASE_HELD;
    }
    const double factor = 1 - m_p.gamma * (m_avgDelayNs - target) / m_avgDelayNs;
    m_cwnd = std::max(m_cwnd * std::max(factor, m_p.minDecreaseFactor), GetMinWindow());
    m_decreased = true;
    m_lastDecreaseNs = nowNs;
    return NsccDecision::MULTIPLICATIVE_DECREASE;
}

void
NsccCore::Adjust(int64_t nowNs)
{
    m_cwnd += m_incBytes / m_cwnd;
    if (nowNs - m_lastAdjustNs >= m_p.adjustPeriodNs)
    {
        m_cwnd += m_eta;
        m_lastAdjustNs = nowNs;
    }
    m_incBytes = 0;
    m_received = 0;
}

void
NsccCore::Clamp()
{
    m_cwnd = std::min(m_maxWnd, std::max(GetMinWindow(), m_cwnd));
}

double
NsccCore::GetWindow() const
{
    return m_cwnd;
}

double
NsccCore::GetMaxWindow() const
{
    return m_maxWnd;
}

double
NsccCore::GetMinWindow() const
{
    return m_p.mss;
}

double
NsccCore::GetSmoothedDelay() const
{
    return m_avgDelayNs;
}

int64_t
NsccCore::GetBaseRtt() const
{
    return m_baseRttNs;
}

double
NsccCore::GetBytesInFlight() const
{
    return m_inFlight;
}

double
NsccCore::GetScalingA() const
{
    return m_a;
}

double
NsccCore::GetScalingB() const
{
    return m_b;
}

} // namespace ns3
