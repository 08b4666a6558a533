/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "tcp-background.h"

#include "ns3/clos-fabric.h"

#include "ns3/abort.h"
#include "ns3/bulk-send-application.h"
#include "ns3/inet-socket-address.h"
#include "ns3/log.h"
#include "ns3/packet-sink.h"
#include "ns3/shuffle.h"
#include "ns3/random-variable-stream.h"
#include "ns3/simulator.h"
#include "ns3/tcp-l4-protocol.h"
#include "ns3/tcp-socket-factory.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TcpBackground");

namespace
{
/// Sink port of flow 0; flow i listens on FIRST_PORT + i.
constexpr uint16_t FIRST_PORT = 20000;
} // namespace

TcpBackground::TcpBackground()
    : m_bytes(0),
      m_start(Seconds(0)),
      m_completed(0)
{
    NS_LOG_FUNCTION(this);
}

std::vector<std::pair<uint32_t, uint32_t>>
TcpBackground::PickPairs(uint32_t nHosts, double fraction, int64_t stream)
{
    NS_LOG_FUNCTION(nHosts << fraction << stream);
    NS_ABORT_MSG_IF(fraction < 0 || fraction > 1,
                    "TcpBackground: fraction " << fraction << " not in [0, 1]");
    if (fraction == 0)
    {
        return {};
    }
    NS_ABORT_MSG_IF(nHosts < 2, "TcpBackground: needs at least 2 hosts");
    uint32_t k = std::max<uint32_t>(1, static_cast<uint32_t>(std::lround(fraction * nHosts)));
    Ptr<UniformRandomVariable> rng = CreateObject<UniformRandomVariable>();
    rng->SetStream(stream);
    std::vector<uint32_t> hosts(nHosts);
    for (uint32_t i = 0; i < nHosts; ++i)
    {
        hosts[i] = i;
    }
    Shuffle(hosts, rng);
    std::vector<std::pair<uint32_t, uint32_t>> pairs;
    for (uint32_t i = 0; i < k; ++i)
    {
        uint32_t dst = rng->GetInteger(0, nHosts - 2);
        pairs.emplace_back(hosts[i], dst >= hosts[i] ? dst + 1 : dst);
    }
    return pairs;
}

void
TcpBackground::Install(Ptr<ClosFabric> fabric,
                       const std::vector<std::pair<uint32_t, uint32_t>>& pairs,
                       uint64_t bytes,
                       Time start,
                       TypeId congestionControl)
{
    NS_LOG_FUNCTION(this << pairs.size() << bytes << start);
    NS_ABORT_MSG_IF(!m_flows.empty(), "TcpBackground: Install() called twice");
    NS_ABORT_MSG_IF(pairs.size() > 65535u - FIRST_PORT, "TcpBackground: too many flows");
    m_bytes = bytes;
    m_start = start;
    NodeContainer hosts = fabric->GetHosts();
    if (congestionControl != TypeId())
    {
        // Senders and receivers alike: the receiver's variant decides how it echoes ECN marks
        // (DCTCP echoes every mark, classic ECN until the sender reacts).
        for (const auto& [src, dst] : pairs)
        {
            for (uint32_t host : {src, dst})
            {
                NS_ABORT_MSG_IF(host >= hosts.GetN(), "TcpBackground: no host " << host);
                Ptr<TcpL4Protocol> tcp = hosts.Get(host)->GetObject<TcpL4Protocol>();
                NS_ABORT_MSG_UNLESS(tcp, "TcpBackground: host " << host << " has no TCP");
                tcp->SetAttribute("SocketType", TypeIdValue(congestionControl));
            }
        }
    }
    for (uint32_t i = 0; i < pairs.size(); ++i)
    {
        auto [src, dst] = pairs[i];
        NS_ABORT_MSG_IF(src >= hosts.GetN() || dst >= hosts.GetN() || src == dst,
                        "TcpBackground: bad pair " << src << " -> " << dst);
        Flow flow;
        flow.src = src;
        flow.dst = dst;
        m_flows.push_back(flow);
        uint16_t port = static_cast<uint16_t>(FIRST_PORT + i);

        Ptr<PacketSink> sink = CreateObject<PacketSink>();
        sink->SetAttribute("Protocol", TypeIdValue(TcpSocketFactory::GetTypeId()));
        sink->SetAttribute("Local", AddressValue(InetSocketAddress(Ipv4Address::GetAny(), port)));
        sink->TraceConnectWithoutContext("Rx", MakeBoundCallback(&TcpBackground::Rx, this, i));
        hosts.Get(dst)->AddApplication(sink);
        sink->SetStartTime(Seconds(0));

        Ptr<BulkSendApplication> sender = CreateObject<BulkSendApplication>();
        sender->SetAttribute("Protocol", TypeIdValue(TcpSocketFactory::GetTypeId()));
        sender->SetAttribute("Remote",
                             AddressValue(InetSocketAddress(fabric->GetHostAddress(dst), port)));
        sender->SetAttribute("MaxBytes", UintegerValue(bytes));
        hosts.Get(src)->AddApplication(sender);
        sender->SetStartTime(start);
    }
}

void
TcpBackground::SetAllCompletedCallback(Callback<void> cb)
{
    NS_LOG_FUNCTION(this);
    m_allCompleted = cb;
}

bool
TcpBackground::IsAllCompleted() const
{
    return m_bytes > 0 && m_completed == m_flows.size();
}

uint64_t
TcpBackground::GetRxBytes() const
{
    uint64_t total = 0;
    for (const Flow& f : m_flows)
    {
        total += f.rxBytes;
    }
    return total;
}

void
TcpBackground::Rx(TcpBackground* self, uint32_t flow, Ptr<const Packet> packet, const Address& from)
{
    Flow& f = self->m_flows[flow];
    f.rxBytes += packet->GetSize();
    if (self->m_bytes > 0 && f.rxBytes >= self->m_bytes && f.done.IsNegative())
    {
        f.done = Simulator::Now();
        ++self->m_completed;
        NS_LOG_INFO("TCP flow " << flow << " (" << f.src << " -> " << f.dst << ") done in "
                                << (f.done - self->m_start).As(Time::US));
        if (self->m_completed == self->m_flows.size() && !self->m_allCompleted.IsNull())
        {
            self->m_allCompleted();
        }
    }
}

TcpBackgroundResult
TcpBackground::GetResult(Time end) const
{
    NS_LOG_FUNCTION(this << end);
    TcpBackgroundResult r;
    r.flows = static_cast<uint32_t>(m_flows.size());
    r.completed = m_completed;
    r.bytesPerFlow = m_bytes;
    r.bytes = GetRxBytes();
    Time window = end - m_start;
    r.goodputGbps = window.IsStrictlyPositive() ? r.bytes * 8.0 / window.GetSeconds() / 1e9 : 0.0;
    for (const Flow& f : m_flows)
    {
        if (!f.done.IsNegative())
        {
            r.fctUs.push_back((f.done - m_start).ToDouble(Time::US));
        }
    }
    return r;
}

} // namespace ns3
