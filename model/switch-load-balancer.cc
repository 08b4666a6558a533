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
                          "DLB: weight of the queueing delay in the port quality (0 to 100; "
                          "LoadWeight + QueueWeight must be at least 1).",
                          UintegerValue(1),
                          MakeUintegerAccessor(&SwitchLoadBalancer::m_queueWeight),
                          MakeUintegerChecker<uint32_t>(0, 100))
            .AddAttribute("DelayRange",
                          "Queueing delay (drain time of the port's backlog at its rate) mapped "
                          "to the worst quality level (10ns to 10ms).",
                          TimeValue(NanoSeconds(8192)),
                          MakeTimeAccessor(&SwitchLoadBalancer::m_delayRange),
                          MakeTimeChecker(NanoSeconds(10), MilliSeconds(10)))
            .AddAttribute("GlbAgingTime",
                          "GLB: a congestion entry older than this is ignored (1us to 10ms).",
                          TimeValue(MicroSeconds(50)),
                          MakeTimeAccessor(&SwitchLoadBalancer::m_glbAging),
                          MakeTimeChecker(MicroSeconds(1), MilliSeconds(10)))
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
      m_delayRange(NanoSeconds(8192)),
      m_table(4096),
      m_glbAging(MicroSeconds(50)),
      m_glbLeaf(UINT32_MAX)
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
SwitchLoadBalancer::GetQuality(uint32_t port) const
{
    NS_ABORT_MSG_IF(m_loadWeight + m_queueWeight == 0,
                    "SwitchLoadBalancer: LoadWeight + QueueWeight must be at least 1 (both 0)");
    double delay = static_cast<double>(GetDrainTime(port).GetNanoSeconds()) /
                   static_cast<double>(m_delayRange.GetNanoSeconds());
    return Quality(GetRecentLoad(port), delay, m_levels, m_loadWeight, m_queueWeight);
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
    return PickFlowlet(ports, n, hash, hashPort, UINT32_MAX);
}

uint32_t
SwitchLoadBalancer::PickFlowlet(const uint32_t* ports,
                                uint32_t n,
                                uint32_t hash,
                                uint32_t hashPort,
                                uint32_t dstLeaf)
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
        int64_t level = 0;
        if (dstLeaf == UINT32_MAX)
        {
            level = GetQuality(ports[k]);
        }
        else
        {
            // The worst hop of the path: this up-link, or what the destination leaf saw.
            level = std::max<int64_t>(GetGlbMetric(ports[k]), ReadGlb(m_toLeaf, dstLeaf, k));
        }
        // Best level first; among equal levels the port free soonest (a packet already on the
        // wire at the same instant), then at random.
        m_score[k] = (level << 40) +
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

uint16_t
SwitchLoadBalancer::EncodeGlb(const GlbFields& f)
{
    return static_cast<uint16_t>(((f.upLink & 0x1f) << 11) | ((f.metric & 0x7) << 8) |
                                 ((f.fbUpLink & 0x1f) << 3) | (f.fbMetric & 0x7));
}

SwitchLoadBalancer::GlbFields
SwitchLoadBalancer::DecodeGlb(uint16_t id)
{
    GlbFields f;
    f.upLink = (id >> 11) & 0x1f;
    f.metric = (id >> 8) & 0x7;
    f.fbUpLink = (id >> 3) & 0x1f;
    f.fbMetric = id & 0x7;
    return f;
}

void
SwitchLoadBalancer::SetGlbTopology(uint32_t leaf,
                                   const std::vector<uint32_t>& hostLeaf,
                                   uint32_t nLeaves)
{
    NS_LOG_FUNCTION(this << leaf << nLeaves);
    m_glbLeaf = leaf;
    m_hostLeaf = hostLeaf;
    m_toLeaf.assign(static_cast<size_t>(nLeaves) * GLB_NONE, GlbEntry());
    m_fromLeaf.assign(static_cast<size_t>(nLeaves) * GLB_NONE, GlbEntry());
    m_fbNext.assign(nLeaves, 0);
}

uint32_t
SwitchLoadBalancer::GetGlbMetric(uint32_t port) const
{
    return GetQuality(port) * GLB_LEVELS / m_levels;
}

int32_t
SwitchLoadBalancer::ReadGlb(const std::vector<GlbEntry>& table,
                            uint32_t leaf,
                            uint32_t upLink) const
{
    if (upLink >= GLB_NONE || static_cast<size_t>(leaf) * GLB_NONE + upLink >= table.size())
    {
        return -1;
    }
    const GlbEntry& e = table[static_cast<size_t>(leaf) * GLB_NONE + upLink];
    int64_t now = Simulator::Now().GetNanoSeconds();
    if (!e.valid || now - e.atNs > m_glbAging.GetNanoSeconds())
    {
        return -1;
    }
    return e.metric;
}

int32_t
SwitchLoadBalancer::GetCongestionToLeaf(uint32_t dstLeaf, uint32_t upLink) const
{
    return ReadGlb(m_toLeaf, dstLeaf, upLink);
}

int32_t
SwitchLoadBalancer::GetCongestionFromLeaf(uint32_t srcLeaf, uint32_t upLink) const
{
    return ReadGlb(m_fromLeaf, srcLeaf, upLink);
}

uint32_t
SwitchLoadBalancer::PickGlb(const uint32_t* ports,
                            uint32_t n,
                            uint32_t hash,
                            uint32_t hashPort,
                            uint32_t srcHost,
                            uint32_t dstHost)
{
    bool up = m_glbLeaf != UINT32_MAX && srcHost < m_hostLeaf.size() &&
              dstHost < m_hostLeaf.size() && m_hostLeaf[srcHost] == m_glbLeaf &&
              m_hostLeaf[dstHost] != m_glbLeaf && n <= GLB_NONE;
    return PickFlowlet(ports, n, hash, hashPort, up ? m_hostLeaf[dstHost] : UINT32_MAX);
}

void
SwitchLoadBalancer::GlbForward(Ipv4Header& ip,
                               const uint32_t* ports,
                               uint32_t n,
                               uint32_t outPort,
                               uint32_t srcHost,
                               uint32_t dstHost)
{
    if (srcHost >= m_hostLeaf.size() || dstHost >= m_hostLeaf.size())
    {
        return;
    }
    uint32_t srcLeaf = m_hostLeaf[srcHost];
    uint32_t dstLeaf = m_hostLeaf[dstHost];
    if (srcLeaf == dstLeaf)
    {
        return;
    }
    int64_t now = Simulator::Now().GetNanoSeconds();
    if (m_glbLeaf != UINT32_MAX && srcLeaf == m_glbLeaf)
    {
        // Source leaf: a fresh header with this up-link and one feedback entry for the
        // destination leaf, round robin over the entries that are not stale.
        GlbFields f;
        uint32_t pos = std::find(ports, ports + n, outPort) - ports;
        if (pos < GLB_NONE && n <= GLB_NONE)
        {
            f.upLink = pos;
            f.metric = GetGlbMetric(outPort);
        }
        uint8_t& next = m_fbNext[dstLeaf];
        for (uint32_t k = 0; k < GLB_NONE; k++)
        {
            uint32_t u = (next + k) % GLB_NONE;
            int32_t m = ReadGlb(m_fromLeaf, dstLeaf, u);
            if (m >= 0)
            {
                f.fbUpLink = u;
                f.fbMetric = m;
                next = (u + 1) % GLB_NONE;
                break;
            }
        }
        ip.SetIdentification(EncodeGlb(f));
        return;
    }
    GlbFields f = DecodeGlb(ip.GetIdentification());
    if (m_glbLeaf != UINT32_MAX && dstLeaf == m_glbLeaf)
    {
        // Destination leaf: learn the path's congestion and the piggybacked feedback.
        if (f.upLink < GLB_NONE)
        {
            GlbEntry& e = m_fromLeaf[static_cast<size_t>(srcLeaf) * GLB_NONE + f.upLink];
            e.valid = true;
            e.atNs = now;
            e.metric = f.metric;
        }
        if (f.fbUpLink < GLB_NONE)
        {
            GlbEntry& e = m_toLeaf[static_cast<size_t>(srcLeaf) * GLB_NONE + f.fbUpLink];
            e.valid = true;
            e.atNs = now;
            e.metric = f.fbMetric;
            m_counters.glbFeedback++;
        }
        return;
    }
    // A switch between the leaves: the worst hop so far.
    if (f.upLink < GLB_NONE)
    {
        f.metric = std::max(f.metric, GetGlbMetric(outPort));
        ip.SetIdentification(EncodeGlb(f));
    }
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
