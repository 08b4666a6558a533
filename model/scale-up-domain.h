/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_SCALE_UP_DOMAIN_H
#define REPS_SCALE_UP_DOMAIN_H

#include "clos-plane.h"

#include "ns3/data-rate.h"
#include "ns3/ipv4-address.h"
#include "ns3/node.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/point-to-point-net-device.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

class FabricLinkErrorModel;
class FabricSwitch;

/**
 * \ingroup reps
 * The scale-up domains of a fabric's servers (the NVLink-like interconnect inside a server):
 * hosts come in servers of GpusPerServer GPUs (host h is GPU h % G of server h / G), and
 * every server has a scale-up switch (a node with a FabricSwitch) linked to a second device
 * of each of its GPUs. Traffic between two GPUs of one server crosses only these two links;
 * it never touches the Clos planes. ClosFabricHelper builds it when GpusPerServer > 1, and a
 * ClosFabric keeps it (ClosFabric::GetScaleUp()).
 *
 * Construction, in this order (each step aborts with the message of its Validate method):
 * 1. SetShape() with the number of servers and GPUs per server;
 * 2. AddSwitch() for every server, in server order (the node must carry a FabricSwitch and a
 *    TrafficControlLayer, and the root queue disc of each port must be installed before the
 *    port's link is added);
 * 3. AddLink() for every host, in host order: the host's scale-up device (side 0) and the
 *    port of its server's switch (side 1), the two devices of one point-to-point channel;
 * 4. Finish(), which gives every switch its table: a GPU of the server is reached over its
 *    own port, any other host not at all (such a packet is dropped; hosts route it over a
 *    plane).
 *
 * The switch's port toward GPU g of its server is port g. Link h is host h's link; side 0 is
 * the host, side 1 the switch; direction 0 carries packets
 * from the host to the switch. Names: the switch of server s is scaleup<s>, and host h's link
 * host<h>-scaleup<h / G>.
 */
class ScaleUpDomain : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    ScaleUpDomain();
    ~ScaleUpDomain() override;

    /**
     * Check a shape.
     * \param servers number of servers
     * \param gpusPerServer GPUs (hosts) per server
     * \return an empty string when it is valid, else a message naming the parameter
     */
    static std::string ValidateShape(uint32_t servers, uint32_t gpusPerServer);
    /**
     * Set the shape (before anything is added; aborts with the message of ValidateShape()).
     * \param servers number of servers
     * \param gpusPerServer GPUs (hosts) per server
     */
    void SetShape(uint32_t servers, uint32_t gpusPerServer);
    /**
     * Check the next switch to add.
     * \param node a node
     * \return an empty string when AddSwitch() accepts it, else why not
     */
    std::string ValidateNewSwitch(Ptr<Node> node) const;
    /**
     * Add the scale-up switch of the next server (aborts with the message of
     * ValidateNewSwitch()).
     * \param node the switch node, with a FabricSwitch
     * \return its server
     */
    uint32_t AddSwitch(Ptr<Node> node);
    /**
     * Check the next link to add.
     * \param host the host it attaches (the number of links added so far)
     * \param gpu the host's scale-up device
     * \param port the device of the host's server's switch, on the same channel
     * \return an empty string when AddLink() accepts it, else why not
     */
    std::string ValidateNewLink(uint32_t host,
                                Ptr<PointToPointNetDevice> gpu,
                                Ptr<PointToPointNetDevice> port) const;
    /**
     * Add the link of the next host (aborts with the message of ValidateNewLink()): gives
     * both devices a FabricLinkErrorModel (the link's counters) and makes the switch side a
     * port of the server's FabricSwitch.
     * \param host the host
     * \param gpu the host's scale-up device
     * \param port the device of the host's server's switch
     * \return the link number (= host)
     */
    uint32_t AddLink(uint32_t host,
                     Ptr<PointToPointNetDevice> gpu,
                     Ptr<PointToPointNetDevice> port);
    /**
     * End the construction (aborts unless every switch and link has been added): host h has
     * address addressBase + 1 + h (its address in the fabric's plane 0), and every switch
     * learns the ports of its server's GPUs.
     * \param addressBase the address base of the hosts
     */
    void Finish(Ipv4Address addressBase);
    /// \return whether Finish() has run
    bool IsFinished() const;
    /**
     * Replace the table of a server's switch (after Finish()), for wirings where a switch
     * forwards toward hosts of other servers through a GPU of its own (a rail-only fabric).
     * \param server a server
     * \param ports for every host, the switch's equal-cost ports toward it (port g: GPU g of
     *        the server; empty: no route)
     */
    void SetRoutes(uint32_t server, const std::vector<std::vector<uint32_t>>& ports);

    /// \return the number of servers
    uint32_t GetNServers() const;
    /// \return the number of GPUs (hosts) per server
    uint32_t GetGpusPerServer() const;
    /// \return the number of hosts (servers x GPUs per server)
    uint32_t GetNHosts() const;
    /**
     * \param host a host
     * \return its server
     */
    uint32_t GetServerOfHost(uint32_t host) const;
    /**
     * \param a a host
     * \param b another host
     * \return whether both are GPUs of one server
     */
    bool IsSameServer(uint32_t a, uint32_t b) const;
    /**
     * \param server a server
     * \return its scale-up switch
     */
    Ptr<Node> GetSwitch(uint32_t server) const;
    /// \return every scale-up switch, in server order
    NodeContainer GetSwitches() const;
    /**
     * \param node a node
     * \return whether it is one of the scale-up switches
     */
    bool HasSwitch(Ptr<Node> node) const;
    /**
     * \param node a scale-up switch
     * \return its name, scaleup<server>
     */
    std::string GetSwitchName(Ptr<Node> node) const;

    /// \return the number of links added (one per host)
    uint32_t GetNLinks() const;
    /**
     * \param host a host
     * \param side 0 (the host) or 1 (the switch)
     * \return the device at that side of the host's link
     */
    Ptr<PointToPointNetDevice> GetLinkDevice(uint32_t host, uint32_t side) const;
    /**
     * \param host a host
     * \return the name of its link, host<h>-scaleup<s>
     */
    std::string GetLinkName(uint32_t host) const;
    /**
     * \param host a host
     * \param direction 0 (host to switch) or 1
     * \return the counters of that direction of the host's link
     */
    ClosPlane::LinkCounters GetLinkCounters(uint32_t host, uint32_t direction) const;
    /**
     * Take a host's link down at \p at and, unless \p upAt is Time::Max(), up again at
     * \p upAt: both ends drop what arrives while it is down. Nothing reroutes: the GPU's peers
     * in its server are unreachable over the scale-up domain until the link is back.
     * \param host a host
     * \param at when it goes down (not in the past)
     * \param upAt when it comes back (after \p at; Time::Max(): never)
     */
    void FailLink(uint32_t host, Time at, Time upAt);
    /**
     * Change the rate of both directions of a host's link at \p at (now if not in the future).
     * \param host a host
     * \param rate the new rate (above 0)
     * \param at when
     */
    void DegradeLink(uint32_t host, DataRate rate, Time at);
    /// \return the rate of the scale-up links (of host 0's)
    DataRate GetRate() const;
    /// \return the one-way propagation delay of the scale-up links (of host 0's)
    Time GetDelay() const;
    /**
     * The base round-trip time between two GPUs of one server: propagation both ways plus,
     * on both links, the serialization of one data packet one way and of one ACK the other,
     * store-and-forward (as ClosPlane::GetBaseRtt()).
     * \param src a host
     * \param dst another host of the same server
     * \param packetBytes IPv4 size of the data packet (the PPP header is added)
     * \param ackBytes IPv4 size of the ACK
     * \return the base RTT
     */
    Time GetBaseRtt(uint32_t src, uint32_t dst, uint32_t packetBytes, uint32_t ackBytes) const;

  protected:
    void DoDispose() override;

  private:
    /// One host's link to its server's switch.
    struct Link
    {
        Ptr<PointToPointNetDevice> device[2];  //!< Host side, switch side.
        Ptr<FabricLinkErrorModel> receiver[2]; //!< Receive error model at each side.
        uint32_t port{0};                      //!< The switch's port.
    };

    /// Bring a host's link down or up. \param host the host \param up whether up
    void SetLinkState(uint32_t host, bool up);
    /// Set both ends' rate. \param host the host \param rate the rate
    void SetLinkRate(uint32_t host, DataRate rate);

    /**
     * Abort unless a host number is valid.
     * \param host a host
     * \param caller the method, for the message
     */
    void CheckHost(uint32_t host, const char* caller) const;

    uint32_t m_servers;                        //!< Number of servers.
    uint32_t m_gpus;                           //!< GPUs per server.
    bool m_finished;                           //!< Whether Finish() has run.
    std::vector<Ptr<Node>> m_switches;         //!< Switch of every server.
    std::vector<Ptr<FabricSwitch>> m_fabricSw; //!< FabricSwitch of every server's switch.
    std::vector<Link> m_links;                 //!< Link of every host.
};

} // namespace ns3

#endif /* REPS_SCALE_UP_DOMAIN_H */
