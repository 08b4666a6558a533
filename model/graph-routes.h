/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_GRAPH_ROUTES_H
#define REPS_GRAPH_ROUTES_H

#include <cstdint>
#include <string>
#include <vector>

/**
 * \file
 * \ingroup reps
 * Equal-cost next hops over any wiring, as a plain C++ type computed with Boost.Graph: no
 * simulator inside, the topology is given as node and port numbers.
 */

namespace ns3
{

/**
 * \ingroup reps
 * Equal-cost next hops toward every host over a wiring that need not be a Clos: switches
 * forward, and so may hosts marked as relays (a GPU that forwards a peer's packet onto its
 * own rail, in a rail-only fabric). ClosRoutes computes a Clos plane's tables from its leaves;
 * this computes, for every destination host, breadth-first distances over the graph of the
 * routed links (Boost.Graph's breadth_first_search on an adjacency_list, filtered so that a
 * path enters a host only as its last hop or through a relay), and gives every node its ports
 * toward the host: those of its routed links to a neighbour one hop closer (the host itself,
 * a switch or a relay), in the order the links were added at the node.
 *
 * Nodes are numbered 0 .. GetNNodes() - 1: the first GetNHosts() are hosts, the others
 * switches. Every end of a link has a port number of its node (a host numbers its devices as
 * a switch numbers its ports). A node with no path has an empty set toward that host.
 *
 * Misuse (a number out of range, a link to itself, a port used twice, tables read before
 * Compute()) throws std::out_of_range, std::invalid_argument or std::logic_error.
 */
class GraphRoutes
{
  public:
    /// Distance of a node that cannot reach a host.
    static constexpr uint32_t UNREACHABLE = UINT32_MAX;

    /// One link.
    struct Link
    {
        uint32_t node[2]; //!< The node at each end.
        uint32_t port[2]; //!< The node's port at each end.
        bool routed;      //!< Whether routing uses the link.
    };

    /**
     * A wiring without links.
     * \param nHosts number of hosts (nodes 0 .. nHosts - 1)
     * \param nSwitches number of switches (nodes nHosts .. nHosts + nSwitches - 1)
     */
    GraphRoutes(uint32_t nHosts, uint32_t nSwitches);

    /// \return the number of nodes
    uint32_t GetNNodes() const;
    /// \return the number of hosts
    uint32_t GetNHosts() const;
    /// \return the number of links
    uint32_t GetNLinks() const;

    /**
     * Check a link before adding it.
     * \param a a node
     * \param portA its port
     * \param b another node
     * \param portB its port
     * \return an empty string when AddLink() accepts the link, else why not
     */
    std::string ValidateLink(uint32_t a, uint32_t portA, uint32_t b, uint32_t portB) const;
    /**
     * Add a routed link (throws std::invalid_argument when ValidateLink() refuses it).
     * \param a a node
     * \param portA its port
     * \param b another node
     * \param portB its port
     * \return the link number (0, 1, ... in the order of the calls)
     */
    uint32_t AddLink(uint32_t a, uint32_t portA, uint32_t b, uint32_t portB);
    /**
     * \param link a link
     * \return its ends
     */
    const Link& GetLink(uint32_t link) const;
    /**
     * Let a host forward packets for other hosts (takes effect at the next Compute()).
     * \param host a host
     * \param relay whether it forwards
     */
    void SetRelay(uint32_t host, bool relay);
    /**
     * Set whether routing uses a link (takes effect at the next Compute()).
     * \param link a link
     * \param routed whether routing uses it
     */
    void SetRouted(uint32_t link, bool routed);

    /**
     * Compute every node's ports toward every host from the routed links.
     * \return the number of (node, host) pairs of different nodes without a route
     */
    uint64_t Compute();
    /// \return whether Compute() has run
    bool IsComputed() const;

    /**
     * \param node a node (a switch, or a host)
     * \param host a destination host
     * \return the node's equal-cost ports toward the host, in the order their links were added
     *         at the node (empty: unreachable, or node is host)
     */
    const std::vector<uint32_t>& GetPorts(uint32_t node, uint32_t host) const;
    /**
     * \param node a node
     * \param host a destination host
     * \return the number of hops from the node to the host (0 for the host itself,
     *         UNREACHABLE without a path)
     */
    uint32_t GetDistance(uint32_t node, uint32_t host) const;

  private:
    /**
     * Throw std::out_of_range unless a node exists.
     * \param node a node
     */
    void CheckNode(uint32_t node) const;
    /**
     * Throw std::logic_error unless Compute() has run, and std::out_of_range unless node and
     * host exist.
     * \param node a node
     * \param host a host
     */
    void CheckQuery(uint32_t node, uint32_t host) const;

    uint32_t m_nHosts;                                       //!< Number of hosts.
    uint32_t m_nNodes;                                       //!< Number of nodes.
    std::vector<Link> m_links;                               //!< Links.
    std::vector<std::vector<uint32_t>> m_nodeLinks;          //!< Links of every node, in order.
    std::vector<bool> m_relay;                               //!< Per host: forwards.
    std::vector<std::vector<uint32_t>> m_distance;           //!< [host][node] hops.
    std::vector<std::vector<std::vector<uint32_t>>> m_ports; //!< [node][host] ports.
    bool m_computed;                                         //!< Whether Compute() has run.
};

} // namespace ns3

#endif /* REPS_GRAPH_ROUTES_H */
