/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_RDMA_STACK_H
#define REPS_RDMA_STACK_H

#include "rdma-queue-pair.h"

#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/ipv4-address.h"
#include "ns3/ipv4-header.h"
#include "ns3/net-device.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <deque>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace ns3
{

class Node;
class Ipv4;
class Ipv4EndPoint;
class Ipv4Interface;
class TrafficControlLayer;
class UdpL4Protocol;
class PfcPort;
class RcccPullPacer;

/**
 * \ingroup reps
 * Counters of an RdmaStack.
 */
struct RdmaStackStats
{
    uint64_t packetsSent{0};     //!< RoCEv2 packets handed to UDP (data and control).
    uint64_t controlSent{0};     //!< ACKs, NACKs and CNPs handed to UDP.
    uint64_t packetsReceived{0}; //!< RoCEv2 packets received on UDP port 4791.
    uint64_t malformed{0};       //!< Received packets without a valid BTH (dropped).
    uint64_t unknownQp{0};       //!< Received packets for a QPN this node does not have.
};

/**
 * \ingroup reps
 * The RDMA (RoCEv2) stack of a host, aggregated to its Node by RdmaHelper: owns the node's
 * queue pairs and sends every packet with source port = the packet's entropy value,
 * destination port 4791, and IPv4 ECN codepoint ECT(0).
 *
 * By default (BypassIpStack) the stack is a RoCE NIC: it builds the IPv4 and UDP headers of
 * its packets itself, exactly as ns-3's UdpL4Protocol and Ipv4L3Protocol would (TTL from the
 * node's Ipv4L3Protocol DefaultTtl, identification counted per destination, may-fragment,
 * checksums when Node::ChecksumEnabled()), and hands them to the traffic-control layer of its
 * NIC; it takes the NIC's receive callback, keeps the UDP 4791 packets addressed to it and
 * hands every other packet (TCP, ARP, IPv6, ...) to the traffic-control layer, as the node
 * would. The packets on the wire are the same bytes; the hosts' IPv4 and UDP layers, a third
 * of all the work of a run, are skipped. What is no longer seen: the hosts' Ipv4L3Protocol
 * traces (Tx, Rx, SendOutgoing, LocalDeliver) for RoCEv2 packets, and other protocol handlers
 * registered on the node for the NIC. With checksums enabled, or for a packet it cannot take
 * (an interface down, a fragment, another destination), the stack leaves received packets to
 * ns-3's IPv4. With BypassIpStack false it goes through ns-3's UDP/IPv4 (an Ipv4EndPoint on
 * port 4791, whose receive callback gives the IPv4 header and so the CE codepoint, and
 * UdpL4Protocol::Send() with a SocketIpTosTag for the ECN codepoint).
 *
 * The stack serializes its queue pairs onto the NIC: it hands one packet at a time to UDP and
 * waits for that packet's transmission time at the NIC's DataRate (its size on the wire,
 * including IPv4, UDP and the point-to-point header) before the next, so the device queue stays
 * short. ACKs, NACKs and CNPs go first; data packets are taken from the queue pairs that may
 * send, round-robin, one packet per turn, so no queue pair starves.
 *
 * Planes: when the host has one NIC port per plane of a multi-plane fabric (IPv4 interfaces
 * 1 .. P, each a PointToPointNetDevice whose address is interface 1's plus (p - 1) times a
 * fixed stride, as ClosFabricHelper gives them), the stack sends each packet of a queue pair
 * on the port of plane PathSelector::PlaneOfEntropy(ev, P), to the destination host's address
 * in that plane (the queue pair's remote address plus the same stride per plane). ACKs and
 * NACKs carry the EV of the data packet, CNPs are sent on the plane of the packet that
 * triggered them, so control goes back on the plane the data came on; a queue pair receives
 * on any port. The NIC keeps one transmit clock at the rate of interface 1's device: the
 * ports share the NIC's rate (a queue pair that keeps to one plane, as ECMP does, still sends
 * at line rate, and no port's queue grows beyond a packet).
 *
 * Scale-up: a GPU of a server with several GPUs (ClosFabricHelper's GpusPerServer) has one
 * more IPv4 interface after its plane ports, the scale-up device: a PointToPointNetDevice with
 * the host's own address (interface 1's) and mask /32, over which its static routing has host
 * routes to the other GPUs of its server. The stack sends every packet of a queue pair whose
 * remote address is such a peer on that device, with a transmit clock of its own at the
 * device's rate (GetLineRate(remote)), and never on a plane; everything else goes to the
 * fabric NIC as before. The two clocks are independent: traffic inside the server does not
 * wait behind the fabric NIC's. In a rail-only fabric a host route over the scale-up device
 * may also name a gateway (the GPU that relays the packets onto the destination's rail): such
 * a queue pair is paced by the fabric NIC's clock and its packets follow the host's route.
 *
 * When the NIC has a PfcPort (a lossless fabric), the stack sends no data packet while the
 * port's lossless priority is stopped by a PAUSE frame; ACKs, NACKs and CNPs still go.
 *
 * Receiver credits (RCCC): the stack owns the NIC's pull pacer (RcccPullPacer), made when a
 * queue pair of the node first sends or receives on credit; PULLs and RTS are control packets
 * and go ahead of data as ACKs do.
 */
class RdmaStack : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    RdmaStack();
    ~RdmaStack() override;

    /**
     * Bind to the node's UDP port 4791 and find the NIC. The node must have ns-3's internet
     * stack, an IPv4 address on interface 1 and a PointToPointNetDevice there; aborts
     * otherwise.
     * \param node the node this stack is aggregated to
     */
    void Setup(Ptr<Node> node);

    /**
     * Make an unconnected queue pair one of this node's, with the next free QPN (1, 2, ...);
     * connect it with RdmaQueuePair::Connect().
     * \param qp the queue pair
     * \return its QPN
     */
    uint32_t AddQueuePair(Ptr<RdmaQueuePair> qp);
    /// \return the queue pair with number qpn, or null
    Ptr<RdmaQueuePair> GetQueuePair(uint32_t qpn) const;
    /// \return the number of queue pairs
    uint32_t GetNQueuePairs() const;

    /// \return the node's IPv4 address (interface 1)
    Ipv4Address GetAddress() const;
    /// \return the number of planes the NIC reaches (its ports; 1 on a single-plane fabric)
    uint32_t GetNPlanes() const;
    /**
     * \param plane a plane
     * \return the NIC port of that plane (plane 0: GetNic())
     */
    Ptr<NetDevice> GetPlaneNic(uint32_t plane) const;
    /// \return the NIC's data rate
    DataRate GetLineRate() const;
    /**
     * \param remote a peer's address
     * \return the rate at which the stack sends to it: the scale-up device's for a GPU of the
     *         same server, else the NIC's
     */
    DataRate GetLineRate(Ipv4Address remote) const;
    /// \return the scale-up device (null when the host has none)
    Ptr<NetDevice> GetScaleUpDevice() const;
    /**
     * \param remote a peer's address
     * \return whether the stack reaches it over the scale-up device
     */
    bool IsScaleUpPeer(Ipv4Address remote) const;
    /// \return the NIC
    Ptr<NetDevice> GetNic() const;
    /// \return the IPv4 MTU of the NIC's interface
    uint32_t GetIpMtu() const;
    /// \return the counters
    const RdmaStackStats& GetStats() const;

    /**
     * \return the NIC's pull pacer of receiver credits, made (with RcccPullPacer's attribute
     *         defaults) and set up at the first call
     */
    Ptr<RcccPullPacer> GetPullPacer();
    /// \return whether the NIC has a pull pacer (a queue pair of the node used credits)
    bool HasPullPacer() const;
    /**
     * \return the queue pairs waiting for the NIC to send a data packet (what a sender on
     *         receiver credits shares its request among, itself not counted)
     */
    uint32_t GetNWaiting() const;

    /// Bytes a RoCEv2 packet adds to its BTH, payload and ICRC on the wire: IPv4, UDP, PPP.
    static constexpr uint32_t WIRE_OVERHEAD = 20 + 8 + 2;

    /**
     * A queue pair may have a data packet to send.
     * \param qp the queue pair
     */
    void NotifyReady(RdmaQueuePair* qp);

    /**
     * Send an ACK, NACK or CNP ahead of data.
     * \param packet the packet (BTH and what follows)
     * \param qp the queue pair it belongs to (gives destination and route)
     * \param sport its UDP source port
     * \param planeEv the EV whose plane the packet takes (NO_PLANE_EV: sport's)
     */
    void SendControl(Ptr<Packet> packet,
                     RdmaQueuePair* qp,
                     uint16_t sport,
                     uint32_t planeEv = NO_PLANE_EV);

    /// SendControl(): the packet takes the plane of its own source port.
    static constexpr uint32_t NO_PLANE_EV = UINT32_MAX;

  protected:
    void DoDispose() override;

  private:
    /// A control packet waiting for the NIC.
    struct ControlItem
    {
        Ptr<Packet> packet;         //!< The packet.
        RdmaQueuePair* qp{nullptr}; //!< Its queue pair.
        uint16_t sport{0};          //!< UDP source port.
        uint16_t planeEv{0};        //!< The EV whose plane it takes.
    };

    /// The NIC port of one plane.
    struct Port
    {
        Ptr<NetDevice> nic;  //!< Its device.
        uint32_t interface;  //!< Its IPv4 interface.
        Ipv4Address address; //!< Its address.
        Address broadcast;   //!< Its device's broadcast address, the frames' destination.
    };

    /// The transmit clock and queues of one device: the fabric NIC, or the scale-up device.
    struct Transmitter
    {
        std::deque<ControlItem> control;  //!< ACKs, NACKs, CNPs waiting.
        std::deque<RdmaQueuePair*> ready; //!< Queue pairs that may send, round-robin.
        Time freeAt;                      //!< When the device finishes the last packet.
        EventId event;                    //!< Next SendOne().
        uint64_t lastBps{0};              //!< The rate of the last packet's time on the wire.
        uint32_t lastWire{0};             //!< The size of the last packet, framing included.
        Time lastTxTime;                  //!< The last packet's time on the wire.
    };

    /// The fabric NIC's transmitter.
    static constexpr uint32_t FABRIC = 0;
    /// The scale-up device's transmitter.
    static constexpr uint32_t SCALE_UP = 1;

    /// Find the ports of the other planes (IPv4 interfaces 2, 3, ...).
    void FindPlanePorts();
    /// Find the scale-up device (after the plane ports) and the peers routed over it.
    void FindScaleUpPort();
    /**
     * \param qp a queue pair
     * \return the transmitter of its packets (FABRIC or SCALE_UP)
     */
    uint32_t TransmitterOf(const RdmaQueuePair* qp) const;

    /**
     * Send the next packet if the device is free, else make sure it is sent when it is.
     * \param tx the transmitter
     */
    void TrySend(uint32_t tx);
    /**
     * The device is free: send one packet.
     * \param tx the transmitter
     */
    void SendOne(uint32_t tx);
    /**
     * Hand a packet to UDP (or straight to the NIC).
     * \param packet the packet
     * \param qp its queue pair
     * \param sport its UDP source port
     * \param planeEv the EV whose plane it takes
     * \return its size on the wire
     */
    uint32_t Transmit(Ptr<Packet> packet, RdmaQueuePair* qp, uint16_t sport, uint16_t planeEv);
    /**
     * Send a packet on the scale-up device.
     * \param packet the packet
     * \param qp its queue pair
     * \param sport its UDP source port
     * \return its size on the wire
     */
    uint32_t TransmitScaleUp(Ptr<Packet> packet, RdmaQueuePair* qp, uint16_t sport);
    /**
     * Send a packet on the port of a plane other than 0.
     * \param packet the packet
     * \param qp its queue pair
     * \param sport its UDP source port
     * \param plane the plane
     */
    void TransmitOnPlane(Ptr<Packet> packet, RdmaQueuePair* qp, uint16_t sport, uint32_t plane);
    /**
     * The NIC's PfcPort stopped or resumed the data priority.
     * \param paused true when stopped
     */
    void PfcStateChanged(bool paused);
    /// UdpL4Protocol freed the end point (it was disposed first).
    void EndPointDestroyed();
    /**
     * Build the IPv4 and UDP headers of a packet and hand it to a port's traffic control.
     * \param packet the packet
     * \param destination its destination
     * \param sport its UDP source port
     * \param port the port (of a plane, or the scale-up device)
     * \param ipId the IPv4 identification counter towards the destination
     */
    void TransmitDirect(Ptr<Packet> packet,
                        Ipv4Address destination,
                        uint16_t sport,
                        const Port& port,
                        uint16_t& ipId);
    /**
     * \param qp a queue pair
     * \return the IPv4 identification counter towards its peer (found once per queue pair)
     */
    uint16_t& IpIdOf(RdmaQueuePair* qp);
    /// UDP receive callback of the endpoint.
    void Receive(Ptr<Packet> packet,
                 Ipv4Header header,
                 uint16_t sport,
                 Ptr<Ipv4Interface> incomingInterface);
    /**
     * The NIC's receive callback (BypassIpStack): RoCEv2 packets for this node go to Deliver(),
     * every other packet to the node's traffic-control layer.
     * \param device the NIC
     * \param packet the packet, IPv4 header first
     * \param protocol its EtherType
     * \param from the sender's address
     *
eturn true
     */
    bool ReceiveFromNic(Ptr<NetDevice> device,
                        Ptr<const Packet> packet,
                        uint16_t protocol,
                        const Address& from);
    /**
     * Hand a RoCEv2 packet (BTH first) to its queue pair.
     * \param packet the packet
     * \param sport its UDP source port
     * \param ce whether it carried the IPv4 CE codepoint
     */
    void Deliver(Ptr<Packet> packet, uint16_t sport, bool ce);

    bool m_bypass;                                 //!< BypassIpStack attribute.
    bool m_direct;                                 //!< The NIC's receive callback is ours.
    Ptr<TrafficControlLayer> m_tc;                 //!< The node's traffic control.
    uint8_t m_ttl;                                 //!< TTL of the packets sent.
    std::unordered_map<uint32_t, uint16_t> m_ipId; //!< Next IPv4 identification per address.
    Ptr<Node> m_node;                              //!< The node.
    Ptr<Ipv4> m_ipv4;                              //!< Its IPv4.
    Ptr<UdpL4Protocol> m_udp;                      //!< Its UDP.
    Ipv4EndPoint* m_endPoint;                      //!< UDP port 4791.
    Ptr<NetDevice> m_nic;                          //!< The NIC.
    Ptr<PfcPort> m_pfc;                            //!< The NIC's PFC control, or null.
    uint32_t m_interface;                          //!< IPv4 interface of the NIC.
    Ipv4Address m_address;                         //!< IPv4 address.
    DataRate m_lineRate;                           //!< NIC rate.
    std::vector<Port> m_ports;                     //!< Port of every plane (0: interface 1).
    uint32_t m_planeStride;                        //!< Address step from a plane to the next.
    std::vector<Ptr<RdmaQueuePair>> m_qps;         //!< Queue pairs, index = QPN - 1.
    Transmitter m_tx[2];                           //!< FABRIC and SCALE_UP transmitters.
    std::vector<bool> m_inReady;                   //!< Per QPN - 1: in its ready list.
    Port m_scaleUp;                                //!< Scale-up device (nic null: none).
    DataRate m_scaleUpRate;                        //!< Its rate.
    std::unordered_set<uint32_t> m_scaleUpPeers;   //!< Addresses routed over it.
    std::unordered_set<uint32_t> m_relayedPeers;   //!< Addresses relayed over it.
    RdmaStackStats m_stats;                        //!< Counters.
    Ptr<RcccPullPacer> m_pacer;                    //!< Pull pacer of receiver credits.
    TracedCallback<Ptr<const Packet>> m_dropTrace; //!< Drop: a malformed or unknown packet.
};

} // namespace ns3

#endif /* REPS_RDMA_STACK_H */
