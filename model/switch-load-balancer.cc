/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "switch-load-balancer.h"

#include "ns3/abort.h"
#include "ns3/data-rate.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/queue-disc.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SwitchLoadBalancer");

NS_OBJECT_ENSURE_REGISTERED(SwitchLoadBalancer);

TypeId
SwitchLoadBalancer::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::SwitchLoadBalancer")
            .SetParent<Object>()
            .SetGroupName("Reps")
            .AddConstructor<SwitchLoadBalancer>()
            .AddAttribute("FlowletTimeout",
                          "DLB: an idle gap longer than this starts a new flowlet (1us to 50us).",
                          TimeValue(MicroSeconds(8)),
                          MakeTimeAccessor(&SwitchLoadBalancer::m_flowletTimeout),
                          MakeTimeChecker(MicroSeconds(1), MicroSeconds(50)))
            .AddAttribute("FlowletTableSize",
                          "DLB: number of buckets of the flowlet table (16 to 1048576).",
                          UintegerValue(4096),
                          MakeUintegerAccessor(&SwitchLoadBalancer::SetTableSize,
                                               &SwitchLoadBalancer::GetTableSize),
                          MakeUintegerChecker<uint32_t>(16, 1048576))
            .AddAttribute("LoadTimeConstant",
                          "Time constant of the moving average of the bytes a port transmits "
                          "(100ns to 1ms).",
                          TimeValue(MicroSeconds(4)),
                          MakeTimeAccessor(&SwitchLoadBalancer::m_loadTimeConstant),
                          MakeTimeChecker(NanoSeconds(100), MilliSeconds(1)))
            .AddAttribute("QualityLevels",
                          "DLB: number of quantisation levels of the port quality (2 to 256).",
                          UintegerValue(8),
                          MakeUintegerAccessor(&SwitchLoadBalancer::m_levels),
                          MakeUintegerChecker<uint32_t>(2, 256))
            .AddAttribute("LoadWeight",
                          "DLB: weight of the recent load in the port quality (0 to 100; "
                          "LoadWeight + QueueWeight must be at least 1).",
                          UintegerValue(1),
                          MakeUintegerAccessor(&SwitchLoadBalancer::m_loadWeight),
                          MakeUintegerChecker<uint32_t>(0, 100))
            .AddAttribute("QueueWeight",
                          "DLB: weight of the queue depth in the port quality (0 to 100; "
                          "LoadWeight + QueueWeight must be at least 1).",
                          UintegerValue(1),
                          MakeUintegerAccessor(&SwitchLoadBalancer::m_queueWeight),
                          MakeUintegerChecker<uint32_t>(0, 100))
            .AddAttribute("QueueRange",
                          "DLB: queue depth (bytes) mapped to the worst quality level "
                          "(1500 to 1e9).",
                          UintegerValue(409600),
                          MakeUintegerAccessor(&SwitchLoadBalancer::m_queueRange),
                          MakeUintegerChecker<uint64_t>(1500, 1000000000))
            .AddTraceSource("Flowlet",
                            "DLB started a flowlet (new flow, or a flow moved after a gap).",
                            MakeTraceSourceAccessor(&SwitchLoadBalancer::m_flowletTrace),
                            "ns3::SwitchLoadBalancer::FlowletTracedCallback");
    return tid;
}

SwitchLoadBalancer::SwitchLoadBalancer()
    : m_flowletTimeout(MicroSeconds(8)),
      m_loadTimeConstant(MicroSeconds(4)),
      m_levels(8),
      m_loadWeight(1),
      m_queueWeight(1),
      m_queueRange(409600),
      m_table(4096)
{
    NS_LOG_FUNCTION(this);
}

SwitchLoadBalancer::~SwitchLoadBalancer()
{
    NS_LOG_FUNCTION(this);
}

void
SwitchLoadBalancer::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_ports.clear();
    m_rng = nullptr;
    Object::DoDispose();
}

void
SwitchLoadBalancer::SetTableSize(uint32_t size)
{
    NS_LOG_FUNCTION(this << size);
    m_table = DlbFlowletTable(size);
}

uint32_t
SwitchLoadBalancer::GetTableSize() const
{
    return m_table.GetSize();
}

void
SwitchLoadBalancer::SetRandom(Ptr<UniformRandomVariable> rng)
{
    m_rng = rng;
}

void
SwitchLoadBalancer::AddPort(Ptr<NetDevice> device, Ptr<QueueDisc> queueDisc)
{
    NS_LOG_FUNCTION(this << device << queueDisc);
    uint32_t port = m_ports.size();
    PortState s;
    s.queueDisc = queueDisc;
    if (Ptr<PointToPointNetDevice> p2p = DynamicCast<PointToPointNetDevice>(device))
    {
        s.deviceQueue = p2p->GetQueue();
        DataRateValue rate;
        p2p->GetAttribute("DataRate", rate);
        s.bitRate = static_cast<double>(rate.Get().GetBitRate());
    }
    m_ports.push_back(s);
    device->TraceConnectWithoutContext("PhyTxBegin",
                                       MakeCallback(&SwitchLoadBalancer::TxBegin, this, port));
    device->TraceConnectWithoutContext("PhyTxEnd",
                                       MakeCallback(&SwitchLoadBalancer::TxEnd, this, port));
}

void
SwitchLoadBalancer::TxBegin(uint32_t port, Ptr<const Packet> packet)
{
    PortState& s = m_ports[port];
    int64_t now = Simulator::Now().GetNanoSeconds();
    s.txStartNs = now;
    s.txBytes = packet->GetSize();
    s.busyUntilNs =
        s.bitRate > 0 ? now + static_cast<int64_t>(std::ceil(s.txBytes * 8e9 / s.bitRate)) : now;
    // Decay the average to now, then add the packet.
    double tau = static_cast<double>(m_loadTimeConstant.GetNanoSeconds());
    s.ewmaBytes = s.ewmaBytes * std::exp(-static_cast<double>(now - s.ewmaNs) / tau) + s.txBytes;
    s.ewmaNs = now;
}

void
SwitchLoadBalancer::TxEnd(uint32_t port, Ptr<const Packet> packet)
{
    PortState& s = m_ports[port];
    int64_t now = Simulator::Now().GetNanoSeconds();
    // The rate seen on the wire (it follows a link degraded or restored during the run).
    if (now > s.txStartNs && now != s.busyUntilNs)
    {
        s.bitRate = s.txBytes * 8e9 / static_cast<double>(now - s.txStartNs);
    }
    s.busyUntilNs = now;
}

uint64_t
SwitchLoadBalancer::GetBacklogBytes(uint32_t port) const
{
    const PortState& s = m_ports[port];
    uint64_t bytes = s.queueDisc ? s.queueDisc->GetNBytes() : 0;
    bytes += s.deviceQueue ? s.deviceQueue->GetNBytes() : 0;
    int64_t now = Simulator::Now().GetNanoSeconds();
    if (s.busyUntilNs > now && s.busyUntilNs > s.txStartNs)
    {
        // The part of the packet on the wire not yet sent.
        bytes += static_cast<uint64_t>(std::ceil(
            s.txBytes * static_cast<double>(s.busyUntilNs - now) / (s.busyUntilNs - s.txStartNs)));
    }
    return bytes;
}

Time
SwitchLoadBalancer::GetDrainTime(uint32_t port) const
{
    const PortState& s = m_ports[port];
    int64_t now = Simulator::Now().GetNanoSeconds();
    int64_t wire = s.busyUntilNs > now ? s.busyUntilNs - now : 0;
    uint64_t queued = s.queueDisc ? s.queueDisc->GetNBytes() : 0;
    queued += s.deviceQueue ? s.deviceQueue->GetNBytes() : 0;
    int64_t wait = s.bitRate > 0 ? static_cast<int64_t>(std::ceil(queued * 8e9 / s.bitRate)) : 0;
    return NanoSeconds(wire + wait);
}

double
SwitchLoadBalancer::GetRecentLoad(uint32_t port) const
{
    const PortState& s = m_ports[port];
    if (s.bitRate <= 0)
    {
        return 0;
    }
    double tau = static_cast<double>(m_loadTimeConstant.GetNanoSeconds());
    int64_t now = Simulator::Now().GetNanoSeconds();
    double bytes = s.ewmaBytes * std::exp(-static_cast<double>(now - s.ewmaNs) / tau);
    // At a steady line rate the average settles at rate * tau bytes.
    return bytes * 8e9 / (s.bitRate * tau);
}

uint32_t
SwitchLoadBalancer::Quality(double load,
                            uint64_t queueBytes,
                            uint64_t queueRange,
                            uint32_t levels,
                            uint32_t loadWeight,
                            uint32_t queueWeight)
{
    auto quantise = [levels](double x) {
        x = std::max(0.0, std::min(x, 1.0));
        return std::min<uint32_t>(levels - 1, static_cast<uint32_t>(x * levels));
    };
    uint32_t loadLevel = quantise(load);
    uint32_t queueLevel = quantise(static_cast<double>(queueBytes) / queueRange);
    uint32_t weights = loadWeight + queueWeight;
    // Rounded to the nearest level; the worse of two equally near levels.
    return (loadWeight * loadLevel + queueWeight * queueLevel + weights / 2) / weights;
}

uint32_t
SwitchLoadBalancer::GetQuality(uint32_t port) const
{
    NS_ABORT_MSG_IF(m_loadWeight + m_queueWeight == 0,
                    "SwitchLoadBalancer: LoadWeight + QueueWeight must be at least 1 (both 0)");
    const PortState& s = m_ports[port];
    uint64_t queued = s.queueDisc ? s.queueDisc->GetNBytes() : 0;
    return Quality(GetRecentLoad(port),
                   queued,
                   m_queueRange,
                   m_levels,
                   m_loadWeight,
                   m_queueWeight);
}

uint32_t
SwitchLoadBalancer::PickLeast(const uint32_t* ports, uint32_t n, const std::vector<int64_t>& score)
{
    int64_t best = score[0];
    m_ties.assign(1, 0);
    for (uint32_t k = 1; k < n; k++)
    {
        if (score[k] < best)
        {
            best = score[k];
            m_ties.assign(1, k);
        }
        else if (score[k] == best)
        {
            m_ties.push_back(k);
        }
    }
    if (m_ties.size() == 1)
    {
        return m_ties[0];
    }
    NS_ABORT_MSG_IF(!m_rng, "SwitchLoadBalancer: SetRandom() before the first choice");
    return m_ties[m_rng->GetInteger(0, m_ties.size() - 1)];
}

uint32_t
SwitchLoadBalancer::PickAdaptive(const uint32_t* ports, uint32_t n)
{
    m_score.resize(n);
    for (uint32_t k = 0; k < n; k++)
    {
        NS_ASSERT(ports[k] < m_ports.size());
        m_score[k] = GetDrainTime(ports[k]).GetNanoSeconds();
    }
    return ports[PickLeast(ports, n, m_score)];
}

uint32_t
SwitchLoadBalancer::PickDlb(const uint32_t* ports, uint32_t n, uint32_t hash, uint32_t hashPort)
{
    int64_t now = Simulator::Now().GetNanoSeconds();
    DlbFlowletTable::Lookup l = m_table.Classify(hash, now, m_flowletTimeout.GetNanoSeconds());
    if (l.result == DlbFlowletTable::Result::COLLISION)
    {
        m_counters.collisions++;
        return hashPort;
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
        NS_ASSERT(ports[k] < m_ports.size());
        // Quality first; among equal levels the port free soonest (a packet already on the
        // wire at the same instant), then at random.
        m_score[k] = (static_cast<int64_t>(GetQuality(ports[k])) << 40) +
                     std::min<int64_t>(GetDrainTime(ports[k]).GetNanoSeconds(), (1LL << 40) - 1);
    }
    uint32_t port = ports[PickLeast(ports, n, m_score)];
    m_table.Start(l.bucket, hash, static_cast<uint16_t>(port), now);
    m_counters.flowlets++;
    if (l.hadPort && l.port != port)
    {
        m_counters.moves++;
    }
    NS_LOG_LOGIC("flowlet " << hash << " on port " << port);
    m_flowletTrace(hash, l.hadPort ? uint32_t{l.port} : UINT32_MAX, port);
    return port;
}

const SwitchLoadBalancer::Counters&
SwitchLoadBalancer::GetCounters() const
{
    return m_counters;
}

uint32_t
SwitchLoadBalancer::GetLiveFlowlets() const
{
    return m_table.CountLive(Simulator::Now().GetNanoSeconds(), m_flowletTimeout.GetNanoSeconds());
}

} // namespace ns3
