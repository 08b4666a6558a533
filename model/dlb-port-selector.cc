/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "dlb-port-selector.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DlbPortSelector");

NS_OBJECT_ENSURE_REGISTERED(DlbPortSelector);

TypeId
DlbPortSelector::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::DlbPortSelector")
            .SetParent<PortSelector>()
            .SetGroupName("Reps")
            .AddConstructor<DlbPortSelector>()
            .AddAttribute("FlowletTimeout",
                          "An idle gap longer than this starts a new flowlet (1us to 50us).",
                          TimeValue(MicroSeconds(8)),
                          MakeTimeAccessor(&DlbPortSelector::m_flowletTimeout),
                          MakeTimeChecker(MicroSeconds(1), MicroSeconds(50)))
            .AddAttribute("FlowletTableSize",
                          "Number of buckets of the flowlet table (16 to 1048576).",
                          UintegerValue(4096),
                          MakeUintegerAccessor(&DlbPortSelector::SetTableSize,
                                               &DlbPortSelector::GetTableSize),
                          MakeUintegerChecker<uint32_t>(16, 1048576))
            .AddAttribute("LoadTimeConstant",
                          "Time constant of the moving average of the bytes a port transmits "
                          "(100ns to 1ms).",
                          TimeValue(MicroSeconds(4)),
                          MakeTimeAccessor(&DlbPortSelector::SetLoadTimeConstant,
                                           &DlbPortSelector::GetLoadTimeConstant),
                          MakeTimeChecker(NanoSeconds(100), MilliSeconds(1)))
            .AddAttribute("QualityLevels",
                          "Number of quantisation levels of the port quality (2 to 256).",
                          UintegerValue(8),
                          MakeUintegerAccessor(&DlbPortSelector::m_levels),
                          MakeUintegerChecker<uint32_t>(2, 256))
            .AddAttribute("LoadWeight",
                          "Weight of the recent load in the port quality (0 to 100; "
                          "LoadWeight + QueueWeight must be at least 1).",
                          UintegerValue(1),
                          MakeUintegerAccessor(&DlbPortSelector::m_loadWeight),
                          MakeUintegerChecker<uint32_t>(0, 100))
            .AddAttribute("QueueWeight",
                          "Weight of the queueing delay in the port quality (0 to 100; "
                          "LoadWeight + QueueWeight must be at least 1).",
                          UintegerValue(1),
                          MakeUintegerAccessor(&DlbPortSelector::m_queueWeight),
                          MakeUintegerChecker<uint32_t>(0, 100))
            .AddAttribute("DelayRange",
                          "Queueing delay (drain time of the port's backlog at its rate) mapped "
                          "to the worst quality level (10ns to 10ms).",
                          TimeValue(NanoSeconds(8192)),
                          MakeTimeAccessor(&DlbPortSelector::m_delayRange),
                          MakeTimeChecker(NanoSeconds(10), MilliSeconds(10)))
            .AddTraceSource("Flowlet",
                            "A flowlet started (new flow, or a flow moved after a gap).",
                            MakeTraceSourceAccessor(&DlbPortSelector::m_flowletTrace),
                            "ns3::DlbPortSelector::FlowletTracedCallback");
    return tid;
}

DlbPortSelector::DlbPortSelector()
    : m_flowletTimeout(MicroSeconds(8)),
      m_levels(8),
      m_loadWeight(1),
      m_queueWeight(1),
      m_delayRange(NanoSeconds(8192)),
      m_table(4096)
{
    NS_LOG_FUNCTION(this);
}

DlbPortSelector::~DlbPortSelector()
{
    NS_LOG_FUNCTION(this);
}

void
DlbPortSelector::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_load.Clear();
    PortSelector::DoDispose();
}

void
DlbPortSelector::SetTableSize(uint32_t size)
{
    NS_LOG_FUNCTION(this << size);
    m_table = DlbFlowletTable(size);
}

uint32_t
DlbPortSelector::GetTableSize() const
{
    return m_table.GetSize();
}

void
DlbPortSelector::SetLoadTimeConstant(Time tau)
{
    m_load.SetLoadTimeConstant(tau);
}

Time
DlbPortSelector::GetLoadTimeConstant() const
{
    return m_load.GetLoadTimeConstant();
}

void
DlbPortSelector::DoAddPort(uint32_t port, Ptr<NetDevice> device, Ptr<QueueDisc> queueDisc)
{
    m_load.AddPort(device, queueDisc);
}

const PortLoadMonitor&
DlbPortSelector::GetPortLoad() const
{
    return m_load;
}

uint32_t
DlbPortSelector::GetQualityLevels() const
{
    return m_levels;
}

uint32_t
DlbPortSelector::Quality(double load,
                         double delay,
                         uint32_t levels,
                         uint32_t loadWeight,
                         uint32_t delayWeight)
{
    auto quantise = [levels](double x) {
        x = std::max(0.0, std::min(x, 1.0));
        return std::min<uint32_t>(levels - 1, static_cast<uint32_t>(x * levels));
    };
    uint32_t loadLevel = quantise(load);
    uint32_t delayLevel = quantise(delay);
    uint32_t weights = loadWeight + delayWeight;
    // Rounded to the nearest level; the worse of two equally near levels.
    return (loadWeight * loadLevel + delayWeight * delayLevel + weights / 2) / weights;
}

uint32_t
DlbPortSelector::GetQuality(uint32_t port) const
{
    NS_ABORT_MSG_IF(m_loadWeight + m_queueWeight == 0,
                    "DlbPortSelector: LoadWeight + QueueWeight must be at least 1 (both 0)");
    double delay = static_cast<double>(m_load.GetDrainTime(port).GetNanoSeconds()) /
                   static_cast<double>(m_delayRange.GetNanoSeconds());
    return Quality(m_load.GetRecentLoad(port), delay, m_levels, m_loadWeight, m_queueWeight);
}

int64_t
DlbPortSelector::FlowletLevel(const uint32_t* ports, uint32_t n, uint32_t k, const Flow& flow) const
{
    return GetQuality(ports[k]);
}

uint32_t
DlbPortSelector::DoPick(const uint32_t* ports, uint32_t n, const Flow& flow)
{
    int64_t now = Simulator::Now().GetNanoSeconds();
    DlbFlowletTable::Lookup l = m_table.Classify(flow.hash, now, m_flowletTimeout.GetNanoSeconds());
    if (l.result == DlbFlowletTable::Result::COLLISION)
    {
        m_counters.collisions++;
        return flow.hashPort;
    }
    if (l.result == DlbFlowletTable::Result::LIVE)
    {
        // Still one of the equal-cost ports (routes may have changed under a live flowlet).
        if (std::find(ports, ports + n, l.port) != ports + n)
        {
            return l.port;
        }
        l.hadPort = true;
    }
    m_score.resize(n);
    for (uint32_t k = 0; k < n; k++)
    {
        // Best level first; among equal levels the port free soonest (a packet already on the
        // wire at the same instant), then at random.
        m_score[k] =
            (FlowletLevel(ports, n, k, flow) << 40) +
            std::min<int64_t>(m_load.GetDrainTime(ports[k]).GetNanoSeconds(), (1LL << 40) - 1);
    }
    uint32_t port = ports[LeastAtRandom(m_score)];
    m_table.Start(l.bucket, flow.hash, static_cast<uint16_t>(port), now);
    m_counters.flowlets++;
    if (l.hadPort && l.port != port)
    {
        m_counters.moves++;
    }
    NS_LOG_LOGIC("flowlet " << flow.hash << " on port " << port);
    m_flowletTrace(flow.hash, l.hadPort ? uint32_t{l.port} : UINT32_MAX, port);
    return port;
}

const DlbPortSelector::Counters&
DlbPortSelector::GetCounters() const
{
    return m_counters;
}

uint32_t
DlbPortSelector::GetLiveFlowlets() const
{
    return m_table.CountLive(Simulator::Now().GetNanoSeconds(), m_flowletTimeout.GetNanoSeconds());
}

} // namespace ns3
