/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_CLOS_ROUTES_H
#define REPS_CLOS_ROUTES_H

#include <cstdint>
#include <string>
#include <vector>

/**
 * \file
 * \ingroup reps
 * The equal-cost next-hop tables of the switches of a fabric as a plain C++ type: no
 * simulator inside, the topology is given as node and port numbers.
 */

namespace ns3
{

/**
 * \ingroup reps
 * Equal-cost next-hop tables of the switches of a fabric, computed from the wiring alone.
 *
 * Nodes are numbered 0 .. GetNNodes() - 1: the first GetNHosts() are hosts, the others
 * switches. Links are numbered in the order of AddLink(); a link joins two different nodes and
 * gives, at each switch end, the number of the switch's port it uses (hosts have no port
 * numbers). A host has at most one link, which attaches it to its leaf; a host without a link
 * is unreachable. Leaves are numbered in the order of their first host.
 *
 * Compute() fills, for every switch, the set of egress ports toward every host. For every
 * leaf, a breadth-first search over the routed links between switches gives each switch its
 * distance to the leaf; a switch's ports toward a host of that leaf are those of its routed
 * links to a switch one hop closer, in the order the links were added at the switch (parallel
 * links are separate ports). The leaf reaches its own host over the host's link when that link
 * is routed. A switch with no such port has an empty set: the host is unreachable from it.
 *
 * Hosts of one leaf share one set at every other switch, so that the tables grow with
 * switches x (leaves + hosts per leaf), as GetSets() and GetHostToSet() show them.
 *
 * Misuse (a number out of range, a link with inconsistent ends, tables read before Compute())
 * throws std::out_of_range, std::invalid_argument or std::logic_error.
 */
class ClosRoutes
{
  public:
    /// The port number of a host end of a link.
    static constexpr uint32_t NO_PORT = UINT32_MAX;

    /// One link.
    struct Link
    {
        uint32_t node[2]; //!< The node at each end.
        uint32_t port[2]; //!< The switch port at each end (NO_PORT at a host).
        bool routed;      //!< Whether routing uses the link.
    };

    /// No nodes.
    ClosRoutes();

    /**
     * A fabric without links.
     * \param nHosts number of hosts (nodes 0 .. nHosts - 1)
     * \param nSwitches number of switches (nodes nHosts .. nHosts + nSwitches - 1)
     */
    ClosRoutes(uint32_t nHosts, uint32_t nSwitches);

    /// \return the number of nodes
    uint32_t GetNNodes() const;
    /// \return the number of hosts
    uint32_t GetNHosts() const;
    /// \return the number of links
    uint32_t GetNLinks() const;

    /**
     * Check the ends of a link before adding it.
     * \param a a node
     * \param portA its port (NO_PORT when a is a host)
     * \param b another node
     * \param portB its port (NO_PORT when b is a host)
     * \return an empty string when AddLink() accepts the link, else why not
     */
    std::string ValidateLink(uint32_t a, uint32_t portA, uint32_t b, uint32_t portB) const;

    /**
     * Add a routed link (throws std::invalid_argument when ValidateLink() refuses it).
     * \param a a node
     * \param portA its port (NO_PORT when a is a host)
     * \param b another node
     * \param portB its port (NO_PORT when b is a host)
     * \return the link number (0, 1, ... in the order of the calls)
     */
    uint32_t AddLink(uint32_t a, uint32_t portA, uint32_t b, uint32_t portB);

    /**
     * \param link a link
     * \return its ends
     */
    const Link& GetLink(uint32_t link) const;

    /**
     * \param node a node
     * \return its links, in the order they were added
     */
    const std::vector<uint32_t>& GetNodeLinks(uint32_t node) const;

    /**
     * Set whether routing uses a link (takes effect at the next Compute()).
     * \param link a link
     * \param routed whether routing uses it
     */
    void SetRouted(uint32_t link, bool routed);

    /**
     * \param link a link
     * \return whether routing uses it
     */
    bool IsRouted(uint32_t link) const;

    /**
     * Compute the tables of every switch from the links that are routed.
     * \return the number of (switch, host) pairs without a route
     */
    uint64_t Compute();

    /// \return whether Compute() has run
    bool IsComputed() const;

    /**
     * \param sw a switch (a node number, at least GetNHosts())
     * \param host a host
     * \return the switch's equal-cost egress ports toward the host, in the order their links
     *         were added at the switch (empty: unreachable)
     */
    const std::vector<uint32_t>& GetPorts(uint32_t sw, uint32_t host) const;

    /**
     * \param sw a switch
     * \return for every host, the index of its set in GetSets(sw)
     */
    const std::vector<uint32_t>& GetHostToSet(uint32_t sw) const;

    /**
     * \param sw a switch
     * \return the distinct port sets of the switch: one per leaf (in leaf order), then one per
     *         host of the switch when it is a leaf (in host order), then an empty set when
     *         some host has no link
     */
    const std::vector<std::vector<uint32_t>>& GetSets(uint32_t sw) const;

  private:
    /// Ports of every switch toward every leaf: [switch - nHosts][leaf].
    using LeafSets = std::vector<std::vector<std::vector<uint32_t>>>;

    /**
     * Number the leaves in the order of their first host.
     * \param leafNode filled with the node of each leaf
     * \return the leaf number of each host (UINT32_MAX: the host has no link)
     */
    std::vector<uint32_t> NumberLeaves(std::vector<uint32_t>& leafNode) const;

    /**
     * Breadth-first distances, in hops over routed switch-to-switch links.
     * \param from a switch
     * \param dist filled with the distance of every node (UINT32_MAX: unreachable or a host)
     */
    void Distances(uint32_t from, std::vector<uint32_t>& dist) const;

    /**
     * Fill the ports of every switch toward one leaf.
     * \param leaf the leaf number
     * \param leafNode its node
     * \param dist the distances to it
     * \param sets where to write the ports
     */
    void PortsTowardLeaf(uint32_t leaf,
                         uint32_t leafNode,
                         const std::vector<uint32_t>& dist,
                         LeafSets& sets) const;

    /**
     * Build the per-switch tables from the sets toward every leaf.
     * \param hostLeaf the leaf number of each host
     * \param sets the ports of every switch toward every leaf (moved from)
     * \return the number of (switch, host) pairs without a route
     */
    uint64_t BuildTables(const std::vector<uint32_t>& hostLeaf, LeafSets& sets);

    /**
     * Throw std::out_of_range unless a node is a switch and the tables are computed.
     * \param sw a node
     */
    void CheckSwitch(uint32_t sw) const;

    /**
     * Throw std::out_of_range unless a link exists.
     * \param link a link
     */
    void CheckLink(uint32_t link) const;

    uint32_t m_nHosts;                                      //!< Number of hosts.
    std::vector<Link> m_links;                              //!< Links.
    std::vector<std::vector<uint32_t>> m_nodeLinks;         //!< Links of every node.
    std::vector<std::vector<uint32_t>> m_hostToSet;         //!< Per switch: host -> set.
    std::vector<std::vector<std::vector<uint32_t>>> m_sets; //!< Per switch: its sets.
    bool m_computed;                                        //!< Whether Compute() has run.
};

} // namespace ns3

#endif /* REPS_CLOS_ROUTES_H */
