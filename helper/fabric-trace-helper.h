/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_FABRIC_TRACE_HELPER_H
#define REPS_FABRIC_TRACE_HELPER_H

#include "ns3/clos-fabric.h"
#include "ns3/node-container.h"
#include "ns3/output-stream-wrapper.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup reps
 * Packet captures (pcap) and ns-3 ASCII traces of chosen ports of a ClosFabric, by node name.
 *
 * The fabric's links are PointToPointNetDevices, so any ns-3 trace helper works on them
 * (e.g. PointToPointHelper::EnablePcap(prefix, fabric->GetLinkDevice(link, side))); this helper
 * adds what a fabric needs: ports chosen by node name ("host3", "leaf0", "spine1", "agg0.1",
 * "core2") or role, files named after the link rather than after ns-3's node and device
 * numbers, nanosecond timestamps (packets are tens of nanoseconds apart at 400 Gb/s) and a
 * snapshot length.
 *
 * A capture holds every packet the port sends and receives (the device's PromiscSniffer
 * trace, as PointToPointHelper's captures), from the PPP header on (link type PPP), with the
 * time the first bit leaves or arrives. Wireshark and tshark decode the IPv4, UDP and RoCEv2
 * base transport headers; utils/reps-wireshark.lua decodes the module's ACK/NACK header.
 */
class FabricTraceHelper
{
  public:
    FabricTraceHelper();

    /**
     * \param bytes bytes of each packet kept in captures, from the PPP header: 0 keeps whole
     *        packets (up to 65535 bytes); 64 keeps the PPP, IPv4, UDP and RoCEv2 headers (and an
     *        ACK's); at most 65535.
     * \return an empty string, or why the value is refused
     */
    std::string SetSnapLength(uint32_t bytes);

    /**
     * Find the nodes named in a list.
     * \param fabric the fabric
     * \param spec "hosts", "switches", "all", or a comma list of node names (host3,leaf0,...)
     *        and role names (hosts, leaves, spines, aggs, cores)
     * \param[out] nodes the nodes, each once, in the order of the fabric's node indices
     * \return an empty string, or a message naming the first unknown name and what is allowed
     */
    static std::string ParseNodes(Ptr<ClosFabric> fabric,
                                  const std::string& spec,
                                  NodeContainer& nodes);

    /**
     * Check a node list against the shape of a fabric not built yet, with the rules of
     * ParseNodes().
     * \param spec the list
     * \param tiers 2 or 3
     * \param hosts hosts of the fabric
     * \param leaves leaves of the fabric (all pods)
     * \param spines spines (2 tiers)
     * \param pods pods (3 tiers)
     * \param aggsPerPod aggregation switches per pod (3 tiers)
     * \param cores cores (3 tiers)
     * \return an empty string, or the message ParseNodes() would give
     */
    static std::string CheckNodes(const std::string& spec,
                                  uint32_t tiers,
                                  uint32_t hosts,
                                  uint32_t leaves,
                                  uint32_t spines,
                                  uint32_t pods,
                                  uint32_t aggsPerPod,
                                  uint32_t cores);

    /**
     * Capture every fabric port of the given nodes: a host's NIC, every port of a switch.
     * One file per port, PREFIX-NODE-PEER.pcap (e.g. cap-host3-leaf0.pcap, cap-leaf0-spine1.pcap;
     * a parallel link's index follows a '#').
     * \param prefix path prefix of the files
     * \param fabric the fabric
     * \param nodes nodes of the fabric
     * \return the files created
     */
    std::vector<std::string> EnablePcap(const std::string& prefix,
                                        Ptr<ClosFabric> fabric,
                                        const NodeContainer& nodes) const;

    /**
     * Capture one port.
     * \param prefix path prefix of the file
     * \param fabric the fabric
     * \param link a link index of the fabric
     * \param side 0 or 1: which end of the link
     * \return the file created
     */
    std::string EnablePcap(const std::string& prefix,
                           Ptr<ClosFabric> fabric,
                           uint32_t link,
                           uint32_t side) const;

    /**
     * Write ns-3's ASCII trace (enqueue, dequeue, drop and receive events, one line each, with
     * the packet printed) of every fabric port of the given nodes to one stream, as
     * PointToPointHelper::EnableAscii does. Call Packet::EnablePrinting() before the first
     * packet is created to see the fields of every header.
     * \param stream where to write
     * \param fabric the fabric
     * \param nodes nodes of the fabric
     */
    void EnableAscii(Ptr<OutputStreamWrapper> stream,
                     Ptr<ClosFabric> fabric,
                     const NodeContainer& nodes) const;

    /**
     * \param fabric the fabric
     * \param link a link
     * \param side its end
     * \return the name of the port's file without prefix and extension: NODE-PEER[#k]
     */
    static std::string GetPortName(Ptr<ClosFabric> fabric, uint32_t link, uint32_t side);

  private:
    uint32_t m_snapLength; //!< Bytes kept per packet.
};

} // namespace ns3

#endif /* REPS_FABRIC_TRACE_HELPER_H */
