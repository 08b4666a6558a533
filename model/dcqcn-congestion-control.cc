/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "dcqcn-congestion-control.h"

#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DcqcnCongestionControl");

NS_OBJECT_ENSURE_REGISTERED(DcqcnCongestionControl);

namespace
{
/// Rc this close to the line rate (relative) counts as the line rate.
constexpr double kLineRateTolerance = 1e-4;
} // namespace

TypeId
DcqcnCongestionControl::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::DcqcnCongestionControl")
            .SetParent<RdmaCongestionControl>()
            .SetGroupName("Reps")
            .AddConstructor<DcqcnCongestionControl>()
            .AddAttribute("AlphaGain",
                          "g: gain of the alpha moving average (0 < g <= 1).",
                          DoubleValue(1.0 / 256),
                          MakeDoubleAccessor(&DcqcnCongestionControl::m_g),
                          MakeDoubleChecker<double>(1e-9, 1.0))
            .AddAttribute("InitialAlpha",
                          "Alpha when the connection starts (0 to 1).",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&DcqcnCongestionControl::m_initialAlpha),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("AlphaUpdateInterval",
                          "K: period of the alpha update (> 0).",
                          TimeValue(MicroSeconds(55)),
                          MakeTimeAccessor(&DcqcnCongestionControl::m_alphaInterval),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("RateIncreaseInterval",
                          "T: period of the rate-increase timer (> 0).",
                          TimeValue(MicroSeconds(55)),
                          MakeTimeAccessor(&DcqcnCongestionControl::m_increaseInterval),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("ByteCounter",
                          "B: bytes sent between two byte-counter increase events (>= 1).",
                          UintegerValue(10 * 1024 * 1024),
                          MakeUintegerAccessor(&DcqcnCongestionControl::m_byteCounter),
                          MakeUintegerChecker<uint64_t>(1))
            .AddAttribute("FastRecoverySteps",
                          "F: increase events of fast recovery after a cut (>= 1).",
                          UintegerValue(5),
                          MakeUintegerAccessor(&DcqcnCongestionControl::m_fastRecoverySteps),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("AdditiveIncrease",
                          "RAi: target-rate step of additive increase.",
                          DataRateValue(DataRate("40Mbps")),
                          MakeDataRateAccessor(&DcqcnCongestionControl::m_rai),
                          MakeDataRateChecker())
            .AddAttribute("HyperIncrease",
                          "RHai: target-rate step of hyper increase.",
                          DataRateValue(DataRate("200Mbps")),
                          MakeDataRateAccessor(&DcqcnCongestionControl::m_rhai),
                          MakeDataRateChecker())
            .AddAttribute("MinRate",
                          "Lowest rate a cut can reach (> 0, at most the line rate).",
                          DataRateValue(DataRate("100Mbps")),
                          MakeDataRateAccessor(&DcqcnCongestionControl::m_minRate),
                          MakeDataRateChecker())
            .AddAttribute("RateDecreaseInterval",
                          "Least time between two rate cuts; CNPs in between are ignored.",
                          TimeValue(MicroSeconds(4)),
                          MakeTimeAccessor(&DcqcnCongestionControl::m_decreaseInterval),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("CnpInterval",
                          "Least time between two CNPs the receiver sends for CE-marked "
                          "packets of one queue pair (> 0).",
                          TimeValue(MicroSeconds(50)),
                          MakeTimeAccessor(&DcqcnCongestionControl::m_cnpInterval),
                          MakeTimeChecker(NanoSeconds(1)));
    return tid;
}

DcqcnCongestionControl::DcqcnCongestionControl()
    : m_g(1.0 / 256),
      m_initialAlpha(1.0),
      m_byteCounter(10 * 1024 * 1024),
      m_fastRecoverySteps(5),
      m_alpha(1.0),
      m_decreased(false),
      m_rc(0),
      m_rt(0),
      m_timerCount(0),
      m_byteCount(0),
      m_bytesSent(0)
{
    NS_LOG_FUNCTION(this);
}

DcqcnCongestionControl::~DcqcnCongestionControl()
{
    NS_LOG_FUNCTION(this);
}

std::string
DcqcnCongestionControl::GetName() const
{
    return "dcqcn";
}

void
DcqcnCongestionControl::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_increaseEvent.Cancel();
    RdmaCongestionControl::DoDispose();
}

std::string
DcqcnCongestionControl::Validate(const RdmaCcContext& context) const
{
    std::ostringstream os;
    if (m_minRate.GetBitRate() == 0 || m_minRate > context.lineRate)
    {
        os << "DcqcnCongestionControl: MinRate (" << m_minRate
           << ") must be > 0 and at most the line rate (" << context.lineRate << ")";
    }
    return os.str();
}

void
DcqcnCongestionControl::DoInit()
{
    NS_LOG_FUNCTION(this);
    m_alpha = m_initialAlpha;
    m_alphaUpdated = Simulator::Now();
    m_decreased = false;
    m_rc = static_cast<double>(GetContext().lineRate.GetBitRate());
    m_rt = m_rc;
    m_timerCount = 0;
    m_byteCount = 0;
    m_bytesSent = 0;
    m_increaseEvent.Cancel();
    ApplyRate();
}

void
DcqcnCongestionControl::ApplyRate()
{
    SetRate(DataRate(static_cast<uint64_t>(std::llround(m_rc))));
}

void
DcqcnCongestionControl::OnCnp()
{
    NS_LOG_FUNCTION(this);
    Time now = Simulator::Now();
    if (m_decreased && now - m_lastDecrease < m_decreaseInterval)
    {
        return;
    }
    // Lazy alpha timer: one decay per whole period without a CNP.
    int64_t periods = (now - m_alphaUpdated).GetInteger() / m_alphaInterval.GetInteger();
    if (periods > 0)
    {
        m_alpha *= std::pow(1.0 - m_g, static_cast<double>(periods));
    }
    m_rt = m_rc;
    m_rc = std::max(m_rc * (1.0 - m_alpha / 2.0), static_cast<double>(m_minRate.GetBitRate()));
    m_alpha = (1.0 - m_g) * m_alpha + m_g;
    m_alphaUpdated = now;
    m_lastDecrease = now;
    m_decreased = true;
    m_timerCount = 0;
    m_byteCount = 0;
    m_bytesSent = 0;
    m_increaseEvent.Cancel();
    m_increaseEvent =
        Simulator::Schedule(m_increaseInterval, &DcqcnCongestionControl::IncreaseTimer, this);
    ApplyRate();
}

void
DcqcnCongestionControl::OnSend(uint32_t wireBytes)
{
    if (m_increaseEvent.IsExpired())
    {
        return; // at line rate: nothing to recover
    }
    m_bytesSent += wireBytes;
    if (m_bytesSent >= m_byteCounter)
    {
        m_bytesSent -= m_byteCounter;
        ++m_byteCount;
        Increase();
    }
}

void
DcqcnCongestionControl::IncreaseTimer()
{
    NS_LOG_FUNCTION(this);
    ++m_timerCount;
    Increase();
    if (m_rc < static_cast<double>(GetContext().lineRate.GetBitRate()))
    {
        m_increaseEvent =
            Simulator::Schedule(m_increaseInterval, &DcqcnCongestionControl::IncreaseTimer, this);
    }
}

void
DcqcnCongestionControl::Increase()
{
    const double line = static_cast<double>(GetContext().lineRate.GetBitRate());
    const uint32_t hi = std::max(m_timerCount, m_byteCount);
    const uint32_t lo = std::min(m_timerCount, m_byteCount);
    if (hi <= m_fastRecoverySteps)
    {
        // fast recovery: Rt unchanged
    }
    else if (lo > m_fastRecoverySteps)
    {
        m_rt += static_cast<double>(lo - m_fastRecoverySteps) * m_rhai.GetBitRate();
    }
    else
    {
        m_rt += static_cast<double>(m_rai.GetBitRate());
    }
    m_rt = std::min(m_rt, line);
    m_rc = (m_rt + m_rc) / 2.0;
    if (m_rc >= line * (1.0 - kLineRateTolerance))
    {
        m_rc = line;
        m_rt = line;
        m_increaseEvent.Cancel();
    }
    ApplyRate();
}

Time
DcqcnCongestionControl::GetCnpInterval() const
{
    return m_cnpInterval;
}

double
DcqcnCongestionControl::GetAlpha() const
{
    return m_alpha;
}

DataRate
DcqcnCongestionControl::GetTargetRate() const
{
    return DataRate(static_cast<uint64_t>(std::llround(m_rt)));
}

} // namespace ns3
