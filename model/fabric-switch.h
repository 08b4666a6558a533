/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_FABRIC_SWITCH_H
#define REPS_FABRIC_SWITCH_H

#include "port-selector.h"

#include "ns3/hash.h"
#include "ns3/ipv4-address.h"
#include "ns3/ipv4-header.h"
#include "ns3/net-device.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <vector>

namespace ns3
{

class Node;
class Packet;
class QueueDisc;
class EcnQueueDisc;
class PfcSwitch;
class TrafficControlLayer;

/**
 * \ingroup reps
 * IPv4 forwarding of a data-center switch, aggregated to a switch node that has no IP stack.
 *
 * The switch registers a protocol handler (IPv4 ethertype) on each of its ports
 * (AddPort()). For every packet it reads the IPv4 header and, for UDP and TCP, the two ports;
 * looks the destination host up in a table indexed by host number (an address in
 * [base + 1, base + nHosts], SetHostAddressing()), which gives the set of equal-cost egress
 * ports; picks one; decrements the TTL; and hands an Ipv4QueueDiscItem to the node's
 * TrafficControlLayer, so that the QueueDisc installed on the egress device is the egress
 * queue. The tables are computed by ClosPlane from the wiring (SetRoutes()).
 *
 * The egress choice is the switch's PortSelector (SetPortSelector(); a HashPortSelector unless
 * told otherwise): the switch hands it the equal-cost ports and the packet's flow (the 5-tuple,
 * its salted hash and the port of that hash, the source and destination host numbers), and
 * lets it rewrite the IPv4 header of the packet leaving (GLB does). The flow hash is ns-3's
 * Murmur3 hash of (source address, destination address, protocol, source port, destination
 * port, salt); packets other than UDP and TCP hash on the addresses and protocol only.
 *
 * One private function computes the flow hash port, for forwarding and for
 * GetFlowHashPort(), so that the port a test or a path selector predicts for hash forwarding
 * is the port a packet takes.
 *
 * The salt differs between switches (Salt attribute, derived from the node id when left at
 * 0), so that switches of consecutive tiers do not make correlated choices.
 */
class FabricSwitch : public Object
{
  public:
    /// Why a switch dropped a packet (the queue disc's own drops are not counted here).
    enum DropReason
    {
        DROP_NO_ROUTE, //!< Not IPv4, not addressed to a host of the fabric, or no path.
        DROP_TTL,      //!< TTL expired.
    };

    /// Counters of one port.
    struct PortCounters
    {
        uint64_t rxPackets{0}; //!< IPv4 packets received on the port.
        uint64_t rxBytes{0};   //!< Their bytes (IPv4 header included).
        uint64_t txPackets{0}; //!< Packets handed to the egress queue of the port.
        uint64_t txBytes{0};   //!< Their bytes (IPv4 header included).
    };

    /// Counters of the switch.
    struct Counters
    {
        uint64_t forwarded{0};    //!< Packets handed to an egress queue.
        uint64_t noRouteDrops{0}; //!< Packets dropped for lack of a route.
        uint64_t ttlDrops{0};     //!< Packets dropped because the TTL expired.
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    FabricSwitch();
    ~FabricSwitch() override;

    /**
     * TracedCallback signature of the Forward trace source.
     * \param [in] packet the packet, without its IPv4 header
     * \param [in] header its IPv4 header (TTL already decremented)
     * \param [in] inPort the port it arrived on
     * \param [in] outPort the port it leaves on
     */
    typedef void (*ForwardTracedCallback)(Ptr<const Packet> packet,
                                          const Ipv4Header& header,
                                          uint32_t inPort,
                                          uint32_t outPort);

    /**
     * TracedCallback signature of the Drop trace source.
     * \param [in] packet the packet, without its IPv4 header
     * \param [in] header its IPv4 header
     * \param [in] reason why it was dropped
     */
    typedef void (*DropTracedCallback)(Ptr<const Packet> packet,
                                       const Ipv4Header& header,
                                       DropReason reason);

    /**
     * Make a device of the node a port of the switch. The device must belong to the node the
     * switch is aggregated to; its root queue disc, if any, must be installed before.
     * \param device the device
     * \return the port number (0, 1, ... in the order of the calls)
     */
    uint32_t AddPort(Ptr<NetDevice> device);
    /// \return the number of ports
    uint32_t GetNPorts() const;
    /**
     * \param port a port number
     * \return its device
     */
    Ptr<NetDevice> GetPortDevice(uint32_t port) const;
    /**
     * \param port a port number
     * \return the root queue disc of its device (null if none)
     */
    Ptr<QueueDisc> GetPortQueueDisc(uint32_t port) const;

    /**
     * Choose how the switch picks among equal-cost ports, before the first AddPort() (which
     * installs a HashPortSelector when none was given). The selector is the switch's own.
     * \param selector the port selector
     */
    void SetPortSelector(Ptr<PortSelector> selector);
    /**
     * \return the port selector of the switch (its load, flowlet table, counters...); null
     *         before SetPortSelector() or the first AddPort()
     */
    Ptr<PortSelector> GetPortSelector() const;

    /**
     * Set how destination addresses map to host numbers: host h has address base + 1 + h.
     * \param base the base address
     * \param nHosts the number of hosts
     */
    void SetHostAddressing(Ipv4Address base, uint32_t nHosts);

    /**
     * Replace the forwarding table.
     * \param hostToSet for each host number, an index into sets
     * \param sets the equal-cost port sets (an empty set means no route)
     */
    void SetRoutes(const std::vector<uint32_t>& hostToSet,
                   const std::vector<std::vector<uint32_t>>& sets);

    /**
     * \param host a host number
     * \return the equal-cost egress ports toward it
     */
    std::vector<uint32_t> GetNextHops(uint32_t host) const;

    /**
     * The port the flow-hash rule gives a 5-tuple: the choice a HashPortSelector makes (and
     * the fallback of DLB on a collision), by the function that forwarding calls.
     * \param src source address
     * \param dst destination address (a fabric host)
     * \param protocol IP protocol number
     * \param srcPort source port (ignored unless protocol is UDP or TCP)
     * \param dstPort destination port (ignored unless protocol is UDP or TCP)
     * \return the port, or GetNPorts() when there is no route
     */
    uint32_t GetFlowHashPort(Ipv4Address src,
                             Ipv4Address dst,
                             uint8_t protocol,
                             uint16_t srcPort,
                             uint16_t dstPort) const;

    /// \return the salt in use
    uint32_t GetSalt() const;

    /// \return the counters of the switch
    const Counters& GetCounters() const;
    /**
     * \param port a port number
     * \return its counters
     */
    const PortCounters& GetPortCounters(uint32_t port) const;

    /**
     * Assign fixed random variable stream numbers to the port selector (installing a
     * HashPortSelector when none was given).
     * \param stream first stream index to use
     * \return the number of stream indices assigned (PortSelector::AssignStreams(): 1 for the
     *         selectors of the module)
     */
    int64_t AssignStreams(int64_t stream);

  protected:
    void DoDispose() override;
    void NotifyNewAggregate() override;

  private:
    /// One port.
    struct Port
    {
        Ptr<NetDevice> device;     //!< The device.
        Ptr<QueueDisc> queueDisc;  //!< Its root queue disc, or null.
        Ptr<EcnQueueDisc> trimmer; //!< The queue disc when it is an EcnQueueDisc that trims.
        Address address;           //!< Destination MAC address given to the device.
    };

    /**
     * The protocol handler of every port.
     * \param device the device the packet arrived on
     * \param packet the packet (IPv4 header first)
     * \param protocol the ethertype
     * \param from sender address
     * \param to receiver address
     * \param packetType kind of packet
     */
    void Receive(Ptr<NetDevice> device,
                 Ptr<const Packet> packet,
                 uint16_t protocol,
                 const Address& from,
                 const Address& to,
                 NetDevice::PacketType packetType);

    /// The equal-cost ports toward a host: m_setPorts[begin, begin + n).
    struct PortSet
    {
        uint32_t begin{0}; //!< First entry.
        uint32_t n{0};     //!< Number of ports (0: no route).
    };

    /**
     * \param dst a destination address
     * \return its equal-cost ports (n = 0 when it is not a fabric host or has no route)
     */
    PortSet LookupPorts(uint32_t dst) const;

    /**
     * \param ip the IPv4 header of a packet
     * \param payload the packet after its IPv4 header
     * \return its 5-tuple (ports 0 unless an unfragmented UDP or TCP packet); the rest of the
     *         flow is left to CompleteFlow()
     */
    static PortSelector::Flow ReadFlow(const Ipv4Header& ip, Ptr<const Packet> payload);

    /**
     * Derive what the port selector is given besides the 5-tuple: the flow hash, its port
     * among the equal-cost ports, the host numbers. The one function of the flow hash port,
     * for forwarding and for GetFlowHashPort().
     * \param set the equal-cost ports (n >= 1)
     * \param [in,out] flow the flow, its 5-tuple set
     */
    void CompleteFlow(PortSet set, PortSelector::Flow& flow) const;

    /**
     * Hand a packet to the egress queue of a port (trimming first if the queue trims).
     * \param packet the packet, without its IPv4 header
     * \param ip its IPv4 header (TTL already decremented)
     * \param inPort the port it arrived on
     * \param outPort the port it leaves on
     */
    void Forward(Ptr<Packet> packet, const Ipv4Header& ip, uint32_t inPort, uint32_t outPort);

    /**
     * The flow hash of a 5-tuple with the salt of this switch.
     * \param flow the flow (its 5-tuple)
     * \return the hash
     */
    uint32_t FlowHash(const PortSelector::Flow& flow) const;

    /// \return the salt, derived from the node when the attribute is 0
    uint32_t EffectiveSalt() const;
    /// \param salt the Salt attribute
    void SetSaltAttribute(uint32_t salt);
    /// \return the Salt attribute
    uint32_t GetSaltAttribute() const;

    uint32_t m_saltAttribute;                 //!< Salt attribute (0: derived from the node).
    uint32_t m_salt;                          //!< Salt in use.
    mutable Hasher m_hasher;                  //!< Murmur3, cleared before each use.
    Ptr<Node> m_node;                         //!< The switch node.
    Ptr<TrafficControlLayer> m_tc;            //!< The node's traffic-control layer.
    Ptr<PfcSwitch> m_pfc;                     //!< PFC ingress accounting, when aggregated.
    Ptr<PortSelector> m_selector;             //!< The egress choice.
    std::vector<Port> m_ports;                //!< Ports.
    std::vector<uint32_t> m_ifIndexToPort;    //!< Device index on the node -> port.
    std::vector<PortCounters> m_portCounters; //!< Per-port counters.
    Counters m_counters;                      //!< Switch counters.
    uint32_t m_addressBase;                   //!< Host h has address m_addressBase + 1 + h.
    uint32_t m_nHosts;                        //!< Number of hosts.
    std::vector<uint32_t> m_hostSet;          //!< Host -> set index.
    std::vector<uint32_t> m_setOffset;        //!< Set index -> first entry in m_setPorts (+ end).
    std::vector<uint32_t> m_setPorts;         //!< Concatenated port sets.
    bool m_checksum;                          //!< Whether IPv4 checksums are computed.

    TracedCallback<Ptr<const Packet>, const Ipv4Header&, uint32_t, uint32_t>
        m_forwardTrace; //!< Forward trace source.
    TracedCallback<Ptr<const Packet>, const Ipv4Header&, DropReason>
        m_dropTrace; //!< Drop trace source.
};

} // namespace ns3

#endif /* REPS_FABRIC_SWITCH_H */
