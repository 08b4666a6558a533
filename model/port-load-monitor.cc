/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "port-load-monitor.h"

#include "ns3/abort.h"
#include "ns3/data-rate.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/queue-disc.h"
#include "ns3/simulator.h"

#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PortLoadMonitor");

PortLoadMonitor::PortLoadMonitor()
    : m_tau(MicroSeconds(4))
{
    NS_LOG_FUNCTION(this);
}

PortLoadMonitor::~PortLoadMonitor()
{
    NS_LOG_FUNCTION(this);
    Clear();
}

Callback<void, Ptr<const Packet>>
PortLoadMonitor::TxBeginSink(uint32_t port)
{
    return MakeCallback(&PortLoadMonitor::TxBegin, this, port);
}

Callback<void, Ptr<const Packet>>
PortLoadMonitor::TxEndSink(uint32_t port)
{
    return MakeCallback(&PortLoadMonitor::TxEnd, this, port);
}

void
PortLoadMonitor::AddPort(Ptr<NetDevice> device, Ptr<QueueDisc> queueDisc)
{
    NS_LOG_FUNCTION(this << device << queueDisc);
    uint32_t port = m_ports.size();
    PortState s;
    s.device = device;
    s.queueDisc = queueDisc;
    if (Ptr<PointToPointNetDevice> p2p = DynamicCast<PointToPointNetDevice>(device))
    {
        s.deviceQueue = p2p->GetQueue();
        DataRateValue rate;
        p2p->GetAttribute("DataRate", rate);
        s.bitRate = static_cast<double>(rate.Get().GetBitRate());
    }
    m_ports.push_back(s);
    device->TraceConnectWithoutContext("PhyTxBegin", TxBeginSink(port));
    device->TraceConnectWithoutContext("PhyTxEnd", TxEndSink(port));
}

void
PortLoadMonitor::Clear()
{
    NS_LOG_FUNCTION(this);
    for (uint32_t port = 0; port < m_ports.size(); port++)
    {
        m_ports[port].device->TraceDisconnectWithoutContext("PhyTxBegin", TxBeginSink(port));
        m_ports[port].device->TraceDisconnectWithoutContext("PhyTxEnd", TxEndSink(port));
    }
    m_ports.clear();
}

uint32_t
PortLoadMonitor::GetNPorts() const
{
    return m_ports.size();
}

void
PortLoadMonitor::SetLoadTimeConstant(Time tau)
{
    NS_ABORT_MSG_IF(!tau.IsStrictlyPositive(),
                    "PortLoadMonitor: the time constant of the recent load must be > 0");
    m_tau = tau;
}

Time
PortLoadMonitor::GetLoadTimeConstant() const
{
    return m_tau;
}

void
PortLoadMonitor::TxBegin(uint32_t port, Ptr<const Packet> packet)
{
    PortState& s = m_ports[port];
    int64_t now = Simulator::Now().GetNanoSeconds();
    s.txStartNs = now;
    s.txBytes = packet->GetSize();
    s.busyUntilNs =
        s.bitRate > 0 ? now + static_cast<int64_t>(std::ceil(s.txBytes * 8e9 / s.bitRate)) : now;
    // Decay the average to now, then add the packet.
    double tau = static_cast<double>(m_tau.GetNanoSeconds());
    s.ewmaBytes = s.ewmaBytes * std::exp(-static_cast<double>(now - s.ewmaNs) / tau) + s.txBytes;
    s.ewmaNs = now;
}

void
PortLoadMonitor::TxEnd(uint32_t port, Ptr<const Packet> packet)
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
PortLoadMonitor::GetBacklogBytes(uint32_t port) const
{
    NS_ASSERT(port < m_ports.size());
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
PortLoadMonitor::GetDrainTime(uint32_t port) const
{
    NS_ASSERT(port < m_ports.size());
    const PortState& s = m_ports[port];
    int64_t now = Simulator::Now().GetNanoSeconds();
    int64_t wire = s.busyUntilNs > now ? s.busyUntilNs - now : 0;
    uint64_t queued = s.queueDisc ? s.queueDisc->GetNBytes() : 0;
    queued += s.deviceQueue ? s.deviceQueue->GetNBytes() : 0;
    int64_t wait = s.bitRate > 0 ? static_cast<int64_t>(std::ceil(queued * 8e9 / s.bitRate)) : 0;
    return NanoSeconds(wire + wait);
}

double
PortLoadMonitor::GetRecentLoad(uint32_t port) const
{
    NS_ASSERT(port < m_ports.size());
    const PortState& s = m_ports[port];
    if (s.bitRate <= 0)
    {
        return 0;
    }
    double tau = static_cast<double>(m_tau.GetNanoSeconds());
    int64_t now = Simulator::Now().GetNanoSeconds();
    double bytes = s.ewmaBytes * std::exp(-static_cast<double>(now - s.ewmaNs) / tau);
    // At a steady line rate the average settles at rate * tau bytes.
    return bytes * 8e9 / (s.bitRate * tau);
}

} // namespace ns3
