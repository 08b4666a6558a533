/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fabric-switch.h"

#include "ecn-queue-disc.h"
#include "hash-port-selector.h"
#include "pfc-switch.h"

#include "ns3/abort.h"
#include "ns3/ipv4-queue-disc-item.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/traffic-control-layer.h"
#include "ns3/uinteger.h"

#include <cstring>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FabricSwitch");

NS_OBJECT_ENSURE_REGISTERED(FabricSwitch);

namespace
{
constexpr uint16_t kIpv4EtherType = 0x0800;
constexpr uint8_t kTcp = 6;
constexpr uint8_t kUdp = 17;
} // namespace

TypeId
FabricSwitch::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FabricSwitch")
            .SetParent<Object>()
            .SetGroupName("Reps")
            .AddConstructor<FabricSwitch>()
            .AddAttribute("Salt",
                          "Per-switch value mixed into the flow hash; 0 derives one from the "
                          "node id, so that switches do not make correlated choices.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&FabricSwitch::SetSaltAttribute,
                                               &FabricSwitch::GetSaltAttribute),
                          MakeUintegerChecker<uint32_t>())
            .AddTraceSource("Forward",
                            "A packet was handed to an egress queue.",
                            MakeTraceSourceAccessor(&FabricSwitch::m_forwardTrace),
                            "ns3::FabricSwitch::ForwardTracedCallback")
            .AddTraceSource("Drop",
                            "A packet was dropped by the forwarding logic (no route, TTL).",
                            MakeTraceSourceAccessor(&FabricSwitch::m_dropTrace),
                            "ns3::FabricSwitch::DropTracedCallback");
    return tid;
}

FabricSwitch::FabricSwitch()
    : m_saltAttribute(0),
      m_salt(0),
      m_addressBase(0),
      m_nHosts(0),
      m_checksum(false)
{
    NS_LOG_FUNCTION(this);
    // No port selector yet: SetPortSelector() or the first AddPort() installs one. A selector
    // takes a random stream number when created, so the switch creates none to be replaced.
}

FabricSwitch::~FabricSwitch()
{
    NS_LOG_FUNCTION(this);
}

void
FabricSwitch::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_ports.clear();
    m_node = nullptr;
    m_tc = nullptr;
    m_pfc = nullptr;
    if (m_selector)
    {
        m_selector->Dispose();
    }
    m_selector = nullptr;
    Object::DoDispose();
}

void
FabricSwitch::NotifyNewAggregate()
{
    NS_LOG_FUNCTION(this);
    if (!m_node)
    {
        m_node = GetObject<Node>();
    }
    if (!m_tc)
    {
        m_tc = GetObject<TrafficControlLayer>();
    }
    if (!m_pfc)
    {
        m_pfc = GetObject<PfcSwitch>();
    }
    m_salt = EffectiveSalt();
    Object::NotifyNewAggregate();
}

int64_t
FabricSwitch::AssignStreams(int64_t stream)
{
    NS_LOG_FUNCTION(this << stream);
    if (!m_selector)
    {
        m_selector = CreateObject<HashPortSelector>();
    }
    return m_selector->AssignStreams(stream);
}

uint32_t
FabricSwitch::EffectiveSalt() const
{
    if (m_saltAttribute != 0)
    {
        return m_saltAttribute;
    }
    uint32_t id = m_node ? m_node->GetId() : 0;
    char buf[8] = {'r', 'e', 'p', 's', 0, 0, 0, 0};
    std::memcpy(buf + 4, &id, 4);
    uint32_t salt = Hash32(buf, sizeof(buf));
    return salt != 0 ? salt : 1;
}

void
FabricSwitch::SetSaltAttribute(uint32_t salt)
{
    NS_LOG_FUNCTION(this << salt);
    m_saltAttribute = salt;
    m_salt = EffectiveSalt();
}

uint32_t
FabricSwitch::GetSaltAttribute() const
{
    return m_saltAttribute;
}

uint32_t
FabricSwitch::GetSalt() const
{
    return m_salt;
}

void
FabricSwitch::SetPortSelector(Ptr<PortSelector> selector)
{
    NS_LOG_FUNCTION(this << selector);
    NS_ABORT_MSG_IF(!selector, "FabricSwitch: SetPortSelector() needs a port selector");
    NS_ABORT_MSG_IF(!m_ports.empty(),
                    "FabricSwitch: SetPortSelector() must come before the first AddPort()");
    NS_ABORT_MSG_IF(selector->GetNPorts() != 0,
                    "FabricSwitch: SetPortSelector() needs a selector of its own (this one "
                    "already has ports)");
    m_selector = selector;
}

Ptr<PortSelector>
FabricSwitch::GetPortSelector() const
{
    return m_selector;
}

uint32_t
FabricSwitch::AddPort(Ptr<NetDevice> device)
{
    NS_LOG_FUNCTION(this << device);
    NS_ABORT_MSG_IF(!m_node, "FabricSwitch: aggregate the switch to its node before AddPort()");
    NS_ABORT_MSG_IF(device->GetNode() != m_node,
                    "FabricSwitch: the device of a port must belong to the switch node");
    if (!m_tc)
    {
        m_tc = m_node->GetObject<TrafficControlLayer>();
    }
    NS_ABORT_MSG_IF(!m_tc, "FabricSwitch: the switch node needs a TrafficControlLayer");
    m_checksum = Node::ChecksumEnabled();
    Port port;
    port.device = device;
    port.queueDisc = m_tc->GetRootQueueDiscOnDevice(device);
    Ptr<EcnQueueDisc> ecn = DynamicCast<EcnQueueDisc>(port.queueDisc);
    port.trimmer = (ecn && ecn->IsTrimming()) ? ecn : nullptr;
    port.address = device->GetBroadcast();
    uint32_t index = m_ports.size();
    m_ports.push_back(port);
    if (!m_selector)
    {
        m_selector = CreateObject<HashPortSelector>();
    }
    m_selector->AddPort(device, port.queueDisc);
    m_portCounters.emplace_back();
    if (m_ifIndexToPort.size() <= device->GetIfIndex())
    {
        m_ifIndexToPort.resize(device->GetIfIndex() + 1, UINT32_MAX);
    }
    m_ifIndexToPort[device->GetIfIndex()] = index;
    m_node->RegisterProtocolHandler(MakeCallback(&FabricSwitch::Receive, this),
                                    kIpv4EtherType,
                                    device);
    m_salt = EffectiveSalt();
    return index;
}

uint32_t
FabricSwitch::GetNPorts() const
{
    return m_ports.size();
}

Ptr<NetDevice>
FabricSwitch::GetPortDevice(uint32_t port) const
{
    NS_ABORT_MSG_IF(port >= m_ports.size(),
                    "FabricSwitch: port " << port << " must be below " << m_ports.size());
    return m_ports[port].device;
}

Ptr<QueueDisc>
FabricSwitch::GetPortQueueDisc(uint32_t port) const
{
    NS_ABORT_MSG_IF(port >= m_ports.size(),
                    "FabricSwitch: port " << port << " must be below " << m_ports.size());
    return m_ports[port].queueDisc;
}

void
FabricSwitch::SetHostAddressing(Ipv4Address base, uint32_t nHosts)
{
    NS_LOG_FUNCTION(this << base << nHosts);
    m_addressBase = base.Get();
    m_nHosts = nHosts;
}

void
FabricSwitch::SetRoutes(const std::vector<uint32_t>& hostToSet,
                        const std::vector<std::vector<uint32_t>>& sets)
{
    NS_LOG_FUNCTION(this);
    NS_ASSERT(hostToSet.size() == m_nHosts);
    m_hostSet = hostToSet;
    m_setOffset.assign(1, 0);
    m_setPorts.clear();
    for (const auto& set : sets)
    {
        for (uint32_t port : set)
        {
            NS_ASSERT(port < m_ports.size());
            m_setPorts.push_back(port);
        }
        m_setOffset.push_back(m_setPorts.size());
    }
    for (uint32_t s : m_hostSet)
    {
        NS_ASSERT(s + 1 < m_setOffset.size());
        (void)s;
    }
}

std::vector<uint32_t>
FabricSwitch::GetNextHops(uint32_t host) const
{
    NS_ABORT_MSG_IF(host >= m_hostSet.size(),
                    "FabricSwitch: host " << host << " must be below " << m_hostSet.size());
    uint32_t set = m_hostSet[host];
    return std::vector<uint32_t>(m_setPorts.begin() + m_setOffset[set],
                                 m_setPorts.begin() + m_setOffset[set + 1]);
}

const FabricSwitch::Counters&
FabricSwitch::GetCounters() const
{
    return m_counters;
}

const FabricSwitch::PortCounters&
FabricSwitch::GetPortCounters(uint32_t port) const
{
    NS_ABORT_MSG_IF(port >= m_ports.size(),
                    "FabricSwitch: port " << port << " must be below " << m_ports.size());
    return m_portCounters[port];
}

uint32_t
FabricSwitch::FlowHash(const PortSelector::Flow& key) const
{
    // Packed in a fixed byte order, so that the hash does not depend on struct padding.
    char bytes[17];
    std::memcpy(bytes, &key.src, 4);
    std::memcpy(bytes + 4, &key.dst, 4);
    bytes[8] = static_cast<char>(key.protocol);
    std::memcpy(bytes + 9, &key.srcPort, 2);
    std::memcpy(bytes + 11, &key.dstPort, 2);
    std::memcpy(bytes + 13, &m_salt, 4);
    return m_hasher.clear().GetHash32(bytes, sizeof(bytes));
}

FabricSwitch::PortSet
FabricSwitch::LookupPorts(uint32_t dst) const
{
    PortSet set;
    uint32_t host = dst - m_addressBase - 1;
    if (host < m_nHosts && host < m_hostSet.size())
    {
        uint32_t index = m_hostSet[host];
        set.begin = m_setOffset[index];
        set.n = m_setOffset[index + 1] - set.begin;
    }
    return set;
}

PortSelector::Flow
FabricSwitch::ReadFlow(const Ipv4Header& ip, Ptr<const Packet> payload)
{
    PortSelector::Flow key;
    key.src = ip.GetSource().Get();
    key.dst = ip.GetDestination().Get();
    key.protocol = ip.GetProtocol();
    if ((key.protocol == kUdp || key.protocol == kTcp) && ip.GetFragmentOffset() == 0 &&
        payload->GetSize() >= 4)
    {
        uint8_t ports[4];
        payload->CopyData(ports, 4);
        key.srcPort = static_cast<uint16_t>((ports[0] << 8) | ports[1]);
        key.dstPort = static_cast<uint16_t>((ports[2] << 8) | ports[3]);
    }
    return key;
}

void
FabricSwitch::CompleteFlow(PortSet set, PortSelector::Flow& flow) const
{
    NS_ASSERT(set.n > 0);
    flow.hash = FlowHash(flow);
    flow.hashPort = m_setPorts[set.begin + flow.hash % set.n];
    // Wraps to a large number for a source outside the fabric's hosts.
    flow.srcHost = flow.src - m_addressBase - 1;
    flow.dstHost = flow.dst - m_addressBase - 1;
}

uint32_t
FabricSwitch::GetFlowHashPort(Ipv4Address src,
                              Ipv4Address dst,
                              uint8_t protocol,
                              uint16_t srcPort,
                              uint16_t dstPort) const
{
    PortSet set = LookupPorts(dst.Get());
    if (set.n == 0)
    {
        return m_ports.size();
    }
    PortSelector::Flow flow;
    flow.src = src.Get();
    flow.dst = dst.Get();
    flow.protocol = protocol;
    if (protocol == kUdp || protocol == kTcp)
    {
        flow.srcPort = srcPort;
        flow.dstPort = dstPort;
    }
    CompleteFlow(set, flow);
    return flow.hashPort;
}

void
FabricSwitch::Receive(Ptr<NetDevice> device,
                      Ptr<const Packet> p,
                      uint16_t protocol,
                      const Address& from,
                      const Address& to,
                      NetDevice::PacketType packetType)
{
    NS_LOG_FUNCTION(this << device << p << protocol);
    uint32_t inPort = m_ifIndexToPort[device->GetIfIndex()];
    PortCounters& in = m_portCounters[inPort];
    in.rxPackets++;
    in.rxBytes += p->GetSize();

    Ptr<Packet> packet = p->Copy();
    Ipv4Header ip;
    packet->RemoveHeader(ip);
    PortSet set = LookupPorts(ip.GetDestination().Get());
    if (set.n == 0)
    {
        m_counters.noRouteDrops++;
        m_dropTrace(packet, ip, DROP_NO_ROUTE);
        return;
    }
    if (ip.GetTtl() <= 1)
    {
        m_counters.ttlDrops++;
        m_dropTrace(packet, ip, DROP_TTL);
        return;
    }
    ip.SetTtl(ip.GetTtl() - 1);
    if (m_checksum)
    {
        ip.EnableChecksum();
    }
    PortSelector::Flow flow = ReadFlow(ip, packet);
    CompleteFlow(set, flow);
    const uint32_t* ports = &m_setPorts[set.begin];
    uint32_t outPort = m_selector->Pick(ports, set.n, flow);
    m_selector->OnForward(ip, ports, set.n, outPort, flow);
    Forward(packet, ip, inPort, outPort);
}

void
FabricSwitch::Forward(Ptr<Packet> packet, const Ipv4Header& ip, uint32_t inPort, uint32_t outPort)
{
    Port& port = m_ports[outPort];
    Ptr<QueueDiscItem> item = Create<Ipv4QueueDiscItem>(packet, port.address, kIpv4EtherType, ip);
    if (port.trimmer)
    {
        item = port.trimmer->PrepareEnqueue(item);
    }
    PortCounters& out = m_portCounters[outPort];
    out.txPackets++;
    out.txBytes += item->GetSize();
    m_counters.forwarded++;
    m_forwardTrace(item->GetPacket(), ip, inPort, outPort);
    if (m_pfc)
    {
        m_pfc->NotifyForward(inPort, item);
    }
    m_tc->Send(port.device, item);
}

} // namespace ns3
