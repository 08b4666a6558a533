/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-stack.h"

#include "path-selector.h"
#include "pfc-port.h"
#include "rccc-pull-pacer.h"
#include "roce-bth-header.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/ipv4-end-point.h"
#include "ns3/ipv4-interface.h"
#include "ns3/ipv4-l3-protocol.h"
#include "ns3/ipv4-queue-disc-item.h"
#include "ns3/ipv4-route.h"
#include "ns3/ipv4-routing-protocol.h"
#include "ns3/ipv4-routing-table-entry.h"
#include "ns3/ipv4-static-routing.h"
#include "ns3/ipv4.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/traffic-control-layer.h"
#include "ns3/udp-header.h"
#include "ns3/udp-l4-protocol.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaStack");

NS_OBJECT_ENSURE_REGISTERED(RdmaStack);

namespace
{
constexpr uint8_t kEct0 = 0x02;      //!< IPv4 ECN codepoint ECT(0), in the TOS byte.
constexpr uint8_t kUdpProtocol = 17; //!< IANA protocol number of UDP.
} // namespace

TypeId
RdmaStack::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaStack")
            .SetParent<Object>()
            .SetGroupName("Reps")
            .AddConstructor<RdmaStack>()
            .AddAttribute("BypassIpStack",
                          "Build and parse the IPv4 and UDP headers of RoCEv2 packets in the NIC "
                          "and talk to the NIC's traffic-control layer directly, as a RoCE NIC "
                          "does (the same bytes on the wire, much faster); false: through ns-3's "
                          "UDP and IPv4. Read when the stack is set up.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&RdmaStack::m_bypass),
                          MakeBooleanChecker())
            .AddTraceSource("Drop",
                            "A received RoCEv2 packet was dropped: no valid BTH, or no queue "
                            "pair with its destination QPN.",
                            MakeTraceSourceAccessor(&RdmaStack::m_dropTrace),
                            "ns3::Packet::TracedCallback");
    return tid;
}

RdmaStack::RdmaStack()
    : m_bypass(true),
      m_direct(false),
      m_ttl(64),
      m_endPoint(nullptr),
      m_interface(0),
      m_planeStride(0),
      m_scaleUp{nullptr, 0, Ipv4Address()}
{
    NS_LOG_FUNCTION(this);
}

RdmaStack::~RdmaStack()
{
    NS_LOG_FUNCTION(this);
}

void
RdmaStack::DoDispose()
{
    NS_LOG_FUNCTION(this);
    for (Transmitter& tx : m_tx)
    {
        tx.event.Cancel();
        tx.control.clear();
        tx.ready.clear();
    }
    if (m_pacer)
    {
        m_pacer->Dispose();
        m_pacer = nullptr;
    }
    for (auto& qp : m_qps)
    {
        qp->Dispose();
    }
    m_qps.clear();
    // UdpL4Protocol owns the end point. If it was disposed first, it freed the end point and
    // EndPointDestroyed() already forgot it; else give it back now.
    if (m_endPoint != nullptr && m_udp)
    {
        m_endPoint->SetDestroyCallback(MakeNullCallback<void>());
        m_udp->DeAllocate(m_endPoint);
    }
    m_endPoint = nullptr;
    if (m_direct && m_nic && m_node)
    {
        // Give the NICs back to the node, as Node::AddDevice() had set them up.
        std::vector<Port> ports = m_ports;
        if (m_scaleUp.nic)
        {
            ports.push_back(m_scaleUp);
        }
        for (const Port& port : ports)
        {
            port.nic->SetReceiveCallback(MakeNullCallback<bool,
                                                          Ptr<NetDevice>,
                                                          Ptr<const Packet>,
                                                          uint16_t,
                                                          const Address&>());
        }
    }
    m_ports.clear();
    m_scaleUp = Port{nullptr, 0, Ipv4Address(), Address()};
    m_scaleUpPeers.clear();
    m_relayedPeers.clear();
    m_direct = false;
    m_tc = nullptr;
    m_udp = nullptr;
    m_ipv4 = nullptr;
    m_nic = nullptr;
    m_pfc = nullptr;
    m_node = nullptr;
    Object::DoDispose();
}

void
RdmaStack::Setup(Ptr<Node> node)
{
    NS_LOG_FUNCTION(this << node);
    NS_ABORT_MSG_IF(m_node, "RdmaStack: already set up");
    m_node = node;
    m_ipv4 = node->GetObject<Ipv4>();
    m_udp = node->GetObject<UdpL4Protocol>();
    NS_ABORT_MSG_IF(!m_ipv4 || !m_udp,
                    "RdmaStack: node " << node->GetId()
                                       << " has no IPv4/UDP; install the internet stack first");
    NS_ABORT_MSG_IF(m_ipv4->GetNInterfaces() < 2 || m_ipv4->GetNAddresses(1) == 0,
                    "RdmaStack: node " << node->GetId()
                                       << " needs an IPv4 address on interface 1 (its NIC)");
    m_interface = 1;
    m_address = m_ipv4->GetAddress(1, 0).GetLocal();
    m_nic = m_ipv4->GetNetDevice(1);
    Ptr<PointToPointNetDevice> p2p = DynamicCast<PointToPointNetDevice>(m_nic);
    NS_ABORT_MSG_IF(!p2p,
                    "RdmaStack: node " << node->GetId()
                                       << ": the NIC (IPv4 interface 1) must be a "
                                          "PointToPointNetDevice");
    DataRateValue rate;
    p2p->GetAttribute("DataRate", rate);
    m_lineRate = rate.Get();
    FindPlanePorts();
    FindScaleUpPort();
    m_endPoint = m_udp->Allocate(Ptr<NetDevice>(), RoceBthHeader::UDP_PORT);
    NS_ABORT_MSG_IF(m_endPoint == nullptr,
                    "RdmaStack: UDP port " << RoceBthHeader::UDP_PORT << " of node "
                                           << node->GetId() << " is taken");
    m_endPoint->SetRxCallback(MakeCallback(&RdmaStack::Receive, this));
    m_endPoint->SetDestroyCallback(MakeCallback(&RdmaStack::EndPointDestroyed, this));
    Ptr<Ipv4L3Protocol> l3 = node->GetObject<Ipv4L3Protocol>();
    m_tc = node->GetObject<TrafficControlLayer>();
    if (m_bypass && l3 && m_tc)
    {
        UintegerValue ttl;
        l3->GetAttribute("DefaultTtl", ttl);
        m_ttl = static_cast<uint8_t>(ttl.Get());
        for (const Port& port : m_ports)
        {
            port.nic->SetReceiveCallback(MakeCallback(&RdmaStack::ReceiveFromNic, this));
        }
        if (m_scaleUp.nic)
        {
            m_scaleUp.nic->SetReceiveCallback(MakeCallback(&RdmaStack::ReceiveFromNic, this));
        }
        m_direct = true;
    }
    // A lossless fabric: PAUSE frames for the data priority stop the NIC's data packets.
    m_pfc = m_nic->GetObject<PfcPort>();
    if (m_pfc)
    {
        m_pfc->AddStateCallback(MakeCallback(&RdmaStack::PfcStateChanged, this));
    }
}

void
RdmaStack::FindPlanePorts()
{
    m_ports.clear();
    m_ports.push_back(Port{m_nic, m_interface, m_address, m_nic->GetBroadcast()});
    // The next interfaces are ports of further planes while they are point-to-point devices
    // whose addresses step by the same stride (ClosFabricHelper's plane addressing).
    for (uint32_t i = 2; i < m_ipv4->GetNInterfaces(); i++)
    {
        Ptr<NetDevice> dev = m_ipv4->GetNetDevice(i);
        if (!DynamicCast<PointToPointNetDevice>(dev) || m_ipv4->GetNAddresses(i) == 0)
        {
            break;
        }
        Ipv4Address address = m_ipv4->GetAddress(i, 0).GetLocal();
        uint32_t stride = address.Get() - m_address.Get();
        if (i == 2)
        {
            if (stride == 0 || address.Get() < m_address.Get())
            {
                break;
            }
            m_planeStride = stride;
        }
        else if (stride != (i - 1) * m_planeStride)
        {
            break;
        }
        m_ports.push_back(Port{dev, i, address, dev->GetBroadcast()});
    }
    NS_LOG_LOGIC("node " << m_node->GetId() << ": " << m_ports.size() << " plane(s)");
}

void
RdmaStack::FindScaleUpPort()
{
    // ClosFabricHelper's scale-up device: the next interface, a point-to-point device with the
    // host's own address and mask /32; the peers are the host routes over it.
    const uint32_t i = m_ports.back().interface + 1;
    if (i >= m_ipv4->GetNInterfaces() || m_ipv4->GetNAddresses(i) == 0)
    {
        return;
    }
    Ptr<PointToPointNetDevice> dev = DynamicCast<PointToPointNetDevice>(m_ipv4->GetNetDevice(i));
    const Ipv4InterfaceAddress address = m_ipv4->GetAddress(i, 0);
    Ptr<Ipv4StaticRouting> routing = DynamicCast<Ipv4StaticRouting>(m_ipv4->GetRoutingProtocol());
    if (!dev || !routing || address.GetLocal() != m_address ||
        address.GetMask() != Ipv4Mask::GetOnes())
    {
        return;
    }
    for (uint32_t r = 0; r < routing->GetNRoutes(); r++)
    {
        Ipv4RoutingTableEntry route = routing->GetRoute(r);
        // A route through a gateway is a relayed one (a rail-only fabric): the packets take
        // the device, but the peer is not in the server and the NIC's rate paces them.
        if (route.IsHost() && route.GetInterface() == i && route.GetDest() != m_address)
        {
            (route.IsGateway() ? m_relayedPeers : m_scaleUpPeers).insert(route.GetDest().Get());
        }
    }
    if (m_scaleUpPeers.empty() && m_relayedPeers.empty())
    {
        return;
    }
    m_scaleUp = Port{dev, i, m_address, dev->GetBroadcast()};
    DataRateValue rate;
    dev->GetAttribute("DataRate", rate);
    m_scaleUpRate = rate.Get();
    NS_LOG_LOGIC("node " << m_node->GetId() << ": scale-up device on interface " << i << ", "
                         << m_scaleUpPeers.size() << " peers");
}

Ptr<NetDevice>
RdmaStack::GetScaleUpDevice() const
{
    return m_scaleUp.nic;
}

bool
RdmaStack::IsScaleUpPeer(Ipv4Address remote) const
{
    return m_scaleUpPeers.count(remote.Get()) != 0;
}

DataRate
RdmaStack::GetLineRate(Ipv4Address remote) const
{
    return IsScaleUpPeer(remote) ? m_scaleUpRate : m_lineRate;
}

uint32_t
RdmaStack::TransmitterOf(const RdmaQueuePair* qp) const
{
    return qp->IsScaleUpPeer() ? SCALE_UP : FABRIC;
}

uint32_t
RdmaStack::GetNPlanes() const
{
    return m_ports.empty() ? 1 : m_ports.size();
}

Ptr<NetDevice>
RdmaStack::GetPlaneNic(uint32_t plane) const
{
    NS_ABORT_MSG_IF(plane >= m_ports.size(),
                    "RdmaStack::GetPlaneNic: plane (" << plane << ") must be below "
                                                      << m_ports.size());
    return m_ports[plane].nic;
}

void
RdmaStack::PfcStateChanged(bool paused)
{
    NS_LOG_FUNCTION(this << paused);
    const Transmitter& tx = m_tx[FABRIC];
    if (!paused && (!tx.control.empty() || !tx.ready.empty()))
    {
        TrySend(FABRIC);
    }
}

void
RdmaStack::EndPointDestroyed()
{
    NS_LOG_FUNCTION(this);
    m_endPoint = nullptr;
}

uint32_t
RdmaStack::AddQueuePair(Ptr<RdmaQueuePair> qp)
{
    NS_LOG_FUNCTION(this << qp);
    NS_ABORT_MSG_IF(!m_node, "RdmaStack: AddQueuePair() before Setup()");
    NS_ABORT_MSG_IF(m_qps.size() >= RoceBthHeader::MAX_QPN, "RdmaStack: no queue pair number left");
    m_qps.push_back(qp);
    m_inReady.push_back(false);
    return static_cast<uint32_t>(m_qps.size());
}

Ptr<RdmaQueuePair>
RdmaStack::GetQueuePair(uint32_t qpn) const
{
    if (qpn == 0 || qpn > m_qps.size())
    {
        return nullptr;
    }
    return m_qps[qpn - 1];
}

uint32_t
RdmaStack::GetNQueuePairs() const
{
    return static_cast<uint32_t>(m_qps.size());
}

Ipv4Address
RdmaStack::GetAddress() const
{
    return m_address;
}

DataRate
RdmaStack::GetLineRate() const
{
    return m_lineRate;
}

Ptr<NetDevice>
RdmaStack::GetNic() const
{
    return m_nic;
}

uint32_t
RdmaStack::GetIpMtu() const
{
    return m_ipv4 ? m_ipv4->GetMtu(m_interface) : 0;
}

const RdmaStackStats&
RdmaStack::GetStats() const
{
    return m_stats;
}

Ptr<RcccPullPacer>
RdmaStack::GetPullPacer()
{
    if (!m_pacer)
    {
        NS_ABORT_MSG_IF(!m_node, "RdmaStack: GetPullPacer() before Setup()");
        m_pacer = CreateObject<RcccPullPacer>();
        m_pacer->Setup(this);
    }
    return m_pacer;
}

bool
RdmaStack::HasPullPacer() const
{
    return m_pacer != nullptr;
}

uint32_t
RdmaStack::GetNWaiting() const
{
    return static_cast<uint32_t>(m_tx[FABRIC].ready.size() + m_tx[SCALE_UP].ready.size());
}

void
RdmaStack::NotifyReady(RdmaQueuePair* qp)
{
    NS_LOG_FUNCTION(this << qp);
    uint32_t index = qp->GetQpn() - 1;
    const uint32_t tx = TransmitterOf(qp);
    if (!m_inReady[index])
    {
        m_inReady[index] = true;
        m_tx[tx].ready.push_back(qp);
    }
    TrySend(tx);
}

void
RdmaStack::SendControl(Ptr<Packet> packet, RdmaQueuePair* qp, uint16_t sport, uint32_t planeEv)
{
    NS_LOG_FUNCTION(this << packet << qp << sport << planeEv);
    const uint32_t tx = TransmitterOf(qp);
    m_tx[tx].control.push_back(
        ControlItem{packet,
                    qp,
                    sport,
                    static_cast<uint16_t>(planeEv == NO_PLANE_EV ? sport : planeEv)});
    TrySend(tx);
}

void
RdmaStack::TrySend(uint32_t tx)
{
    Transmitter& t = m_tx[tx];
    if (!t.event.IsExpired())
    {
        return;
    }
    // Never send from inside the caller (PostSend() may run before the simulation starts, an
    // ACK handler would re-enter the queue pair): the NIC picks its next packet in an event.
    Time now = Simulator::Now();
    t.event = Simulator::Schedule(now >= t.freeAt ? Time(0) : t.freeAt - now,
                                  &RdmaStack::SendOne,
                                  this,
                                  tx);
}

void
RdmaStack::SendOne(uint32_t tx)
{
    NS_LOG_FUNCTION(this << tx);
    Transmitter& t = m_tx[tx];
    uint32_t wire = 0;
    if (!t.control.empty())
    {
        ControlItem item = std::move(t.control.front());
        t.control.pop_front();
        ++m_stats.controlSent;
        wire = tx == SCALE_UP ? TransmitScaleUp(item.packet, item.qp, item.sport)
                              : Transmit(item.packet, item.qp, item.sport, item.planeEv);
    }
    else if (tx == SCALE_UP || !m_pfc || !m_pfc->IsDataPaused())
    {
        while (!t.ready.empty())
        {
            RdmaQueuePair* qp = t.ready.front();
            t.ready.pop_front();
            m_inReady[qp->GetQpn() - 1] = false;
            if (!qp->CanSend())
            {
                continue;
            }
            uint16_t sport = 0;
            Ptr<Packet> p = qp->BuildNextPacket(sport);
            if (!p)
            {
                continue;
            }
            wire = tx == SCALE_UP ? TransmitScaleUp(p, qp, sport) : Transmit(p, qp, sport, sport);
            if (qp->CanSend())
            {
                m_inReady[qp->GetQpn() - 1] = true;
                t.ready.push_back(qp);
            }
            break;
        }
    }
    if (wire == 0)
    {
        return; // nothing to send: the NIC idles until a queue pair or an ACK wakes it
    }
    const DataRate& rate = tx == SCALE_UP ? m_scaleUpRate : m_lineRate;
    const uint64_t bps = rate.GetBitRate();
    if (wire != t.lastWire || bps != t.lastBps)
    {
        // Most packets are full-sized at one rate: ns-3's 128-bit division once per size.
        t.lastWire = wire;
        t.lastBps = bps;
        t.lastTxTime = rate.CalculateBytesTxTime(wire);
    }
    t.freeAt = Simulator::Now() + t.lastTxTime;
    if (!t.control.empty() || !t.ready.empty())
    {
        t.event = Simulator::Schedule(t.freeAt - Simulator::Now(), &RdmaStack::SendOne, this, tx);
    }
}

uint32_t
RdmaStack::TransmitScaleUp(Ptr<Packet> packet, RdmaQueuePair* qp, uint16_t sport)
{
    NS_LOG_FUNCTION(this << packet << qp << sport);
    const uint32_t wire = packet->GetSize() + WIRE_OVERHEAD;
    ++m_stats.packetsSent;
    if (m_direct)
    {
        TransmitDirect(packet, qp->GetRemoteAddress(), sport, m_scaleUp, IpIdOf(qp));
        return wire;
    }
    SocketIpTosTag tos;
    tos.SetTos(kEct0);
    packet->AddPacketTag(tos);
    Ptr<Ipv4Route> route = Create<Ipv4Route>();
    route->SetDestination(qp->GetRemoteAddress());
    route->SetSource(m_address);
    route->SetGateway(Ipv4Address::GetZero());
    route->SetOutputDevice(m_scaleUp.nic);
    m_udp->Send(packet, m_address, qp->GetRemoteAddress(), sport, RoceBthHeader::UDP_PORT, route);
    return wire;
}

uint32_t
RdmaStack::Transmit(Ptr<Packet> packet, RdmaQueuePair* qp, uint16_t sport, uint16_t planeEv)
{
    NS_LOG_FUNCTION(this << packet << qp << sport << planeEv);
    const uint32_t wire = packet->GetSize() + WIRE_OVERHEAD;
    if (!m_relayedPeers.empty() && m_relayedPeers.count(qp->GetRemoteAddress().Get()) != 0)
    {
        // Relayed: over the scale-up device, whose switch hands it to the relaying GPU.
        return TransmitScaleUp(packet, qp, sport);
    }
    if (m_ports.size() > 1)
    {
        const uint32_t plane = PathSelector::PlaneOfEntropy(planeEv, m_ports.size());
        if (plane != 0)
        {
            TransmitOnPlane(packet, qp, sport, plane);
            return wire;
        }
    }
    Ptr<Ipv4Route> route = qp->GetRoute();
    if (!route)
    {
        // One lookup per queue pair: a host has one NIC, so the route never changes, and the
        // per-packet lookup of global routing is linear in the number of hosts.
        Ptr<Ipv4RoutingProtocol> routing = m_ipv4->GetRoutingProtocol();
        if (routing)
        {
            Ipv4Header header;
            header.SetDestination(qp->GetRemoteAddress());
            header.SetSource(m_address);
            header.SetProtocol(kUdpProtocol);
            Socket::SocketErrno err;
            route = routing->RouteOutput(packet, header, m_nic, err);
            qp->SetRoute(route);
        }
    }
    ++m_stats.packetsSent;
    if (m_direct && route && route->GetOutputDevice() == m_nic &&
        qp->GetRemoteAddress() != m_address)
    {
        TransmitDirect(packet, qp->GetRemoteAddress(), sport, m_ports[0], IpIdOf(qp));
        return wire;
    }
    SocketIpTosTag tos;
    tos.SetTos(kEct0);
    packet->AddPacketTag(tos);
    if (route)
    {
        m_udp->Send(packet,
                    m_address,
                    qp->GetRemoteAddress(),
                    sport,
                    RoceBthHeader::UDP_PORT,
                    route);
    }
    else
    {
        m_udp->Send(packet, m_address, qp->GetRemoteAddress(), sport, RoceBthHeader::UDP_PORT);
    }
    return wire;
}

void
RdmaStack::TransmitOnPlane(Ptr<Packet> packet, RdmaQueuePair* qp, uint16_t sport, uint32_t plane)
{
    NS_LOG_FUNCTION(this << packet << qp << sport << plane);
    const Port& port = m_ports[plane];
    // The peer's port in the same plane: ClosFabricHelper steps every host's address by the
    // same stride from a plane to the next.
    const Ipv4Address destination(qp->GetRemoteAddress().Get() + plane * m_planeStride);
    ++m_stats.packetsSent;
    if (m_direct && destination != port.address)
    {
        TransmitDirect(packet, destination, sport, port, m_ipId[destination.Get()]);
        return;
    }
    SocketIpTosTag tos;
    tos.SetTos(kEct0);
    packet->AddPacketTag(tos);
    // The plane's device, whatever the host's routing table says about the destination.
    Ptr<Ipv4Route> route = Create<Ipv4Route>();
    route->SetDestination(destination);
    route->SetSource(port.address);
    route->SetGateway(Ipv4Address::GetZero());
    route->SetOutputDevice(port.nic);
    m_udp->Send(packet, port.address, destination, sport, RoceBthHeader::UDP_PORT, route);
}

uint16_t&
RdmaStack::IpIdOf(RdmaQueuePair* qp)
{
    uint16_t* counter = qp->GetIpIdCounter();
    if (!counter)
    {
        // The map's elements stay where they are when it grows: the queue pair keeps the address.
        counter = &m_ipId[qp->GetRemoteAddress().Get()];
        qp->SetIpIdCounter(counter);
    }
    return *counter;
}

void
RdmaStack::TransmitDirect(Ptr<Packet> packet,
                          Ipv4Address destination,
                          uint16_t sport,
                          const Port& port,
                          uint16_t& ipId)
{
    NS_LOG_FUNCTION(this << packet << destination << sport << port.interface);
    // What UdpL4Protocol::Send() and Ipv4L3Protocol::Send()/SendRealOut() and Ipv4Interface
    // would do for a unicast packet on a point-to-point NIC, field for field.
    if (!m_ipv4->IsUp(port.interface))
    {
        return; // as Ipv4L3Protocol: a packet for a down interface is dropped silently
    }
    const bool checksum = Node::ChecksumEnabled();
    UdpHeader udp;
    if (checksum)
    {
        udp.EnableChecksums();
        udp.InitializeChecksum(port.address, destination, kUdpProtocol);
    }
    udp.SetDestinationPort(RoceBthHeader::UDP_PORT);
    udp.SetSourcePort(sport);
    packet->AddHeader(udp);

    Ipv4Header ip;
    ip.SetSource(port.address);
    ip.SetDestination(destination);
    ip.SetProtocol(kUdpProtocol);
    ip.SetPayloadSize(packet->GetSize());
    ip.SetTtl(m_ttl);
    ip.SetTos(kEct0);
    ip.SetMayFragment();
    // Ipv4L3Protocol counts identifications per (source, destination, protocol); this stack is
    // the node's only source of UDP packets to the fabric's RoCEv2 peers.
    ip.SetIdentification(ipId++);
    if (checksum)
    {
        ip.EnableChecksum();
    }
    m_tc->Send(port.nic,
               Create<Ipv4QueueDiscItem>(packet, port.broadcast, Ipv4L3Protocol::PROT_NUMBER, ip));
}

bool
RdmaStack::ReceiveFromNic(Ptr<NetDevice> device,
                          Ptr<const Packet> packet,
                          uint16_t protocol,
                          const Address& from)
{
    NS_LOG_FUNCTION(this << device << packet << protocol);
    // Take what ns-3's IPv4 and UDP would hand to the end point of port 4791 unchanged: a whole
    // unicast UDP datagram for this address on an interface that is up, checksums off.
    const Port* port = device == m_scaleUp.nic ? &m_scaleUp : &m_ports[0];
    for (const Port& p : m_ports)
    {
        if (p.nic == device)
        {
            port = &p;
            break;
        }
    }
    if (protocol == Ipv4L3Protocol::PROT_NUMBER && !Node::ChecksumEnabled() &&
        m_ipv4->IsUp(port->interface))
    {
        Ptr<Packet> p = packet->Copy();
        Ipv4Header ip;
        p->RemoveHeader(ip);
        UdpHeader udp;
        if (ip.GetProtocol() == kUdpProtocol && ip.GetDestination() == port->address &&
            ip.IsLastFragment() && ip.GetFragmentOffset() == 0 &&
            ip.GetPayloadSize() == p->GetSize() &&
            p->RemoveHeader(udp) == udp.GetSerializedSize() &&
            udp.GetDestinationPort() == RoceBthHeader::UDP_PORT)
        {
            Deliver(p, udp.GetSourcePort(), ip.GetEcn() == Ipv4Header::ECN_CE);
            return true;
        }
    }
    // Everything else, as Node would dispatch it: the traffic-control layer is the handler the
    // internet stack registered for IPv4, ARP and IPv6 on every device.
    m_tc->Receive(device, packet, protocol, from, device->GetAddress(), NetDevice::PACKET_HOST);
    return true;
}

void
RdmaStack::Receive(Ptr<Packet> packet,
                   Ipv4Header header,
                   uint16_t sport,
                   Ptr<Ipv4Interface> incomingInterface)
{
    NS_LOG_FUNCTION(this << packet << header << sport);
    Deliver(packet, sport, header.GetEcn() == Ipv4Header::ECN_CE);
}

void
RdmaStack::Deliver(Ptr<Packet> packet, uint16_t sport, bool ce)
{
    ++m_stats.packetsReceived;
    RoceBthHeader bth;
    // Peek first: a datagram too short for a BTH was not built with one, and removing a header
    // that was never added upsets ns-3's packet metadata checks when they are enabled.
    if (packet->PeekHeader(bth) == 0)
    {
        ++m_stats.malformed;
        m_dropTrace(packet);
        return;
    }
    packet->RemoveHeader(bth);
    Ptr<RdmaQueuePair> qp = GetQueuePair(bth.GetDestQp());
    if (!qp)
    {
        ++m_stats.unknownQp;
        m_dropTrace(packet);
        return;
    }
    qp->Receive(packet, bth, sport, ce);
}

} // namespace ns3
