/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "graph-routes.h"

#include <algorithm>
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/breadth_first_search.hpp>
#include <boost/graph/filtered_graph.hpp>
#include <boost/graph/visitors.hpp>
#include <stdexcept>

namespace ns3
{

namespace
{

/// The wiring as Boost.Graph sees it: one vertex per node, one edge per link (its number).
using Graph = boost::adjacency_list<boost::vecS,
                                    boost::vecS,
                                    boost::undirectedS,
                                    boost::no_property,
                                    boost::property<boost::edge_index_t, uint32_t>>;
/// An edge of the graph.
using Edge = boost::graph_traits<Graph>::edge_descriptor;

/// The edges a path may take toward one destination: routed, between nodes that forward.
struct TransitEdges
{
    const Graph* graph{nullptr};                //!< The graph.
    const std::vector<bool>* forwards{nullptr}; //!< Per node: switch, relay or destination.
    const std::vector<bool>* routed{nullptr};   //!< Per link: routed.

    /// \param e an edge \return whether a path toward the destination may take it
    bool operator()(const Edge& e) const
    {
        const uint32_t link = boost::get(boost::edge_index, *graph, e);
        return (*routed)[link] && (*forwards)[boost::source(e, *graph)] &&
               (*forwards)[boost::target(e, *graph)];
    }
};

} // namespace

GraphRoutes::GraphRoutes(uint32_t nHosts, uint32_t nSwitches)
    : m_nHosts(nHosts),
      m_nNodes(nHosts + nSwitches),
      m_nodeLinks(nHosts + nSwitches),
      m_relay(nHosts, false),
      m_computed(false)
{
}

uint32_t
GraphRoutes::GetNNodes() const
{
    return m_nNodes;
}

uint32_t
GraphRoutes::GetNHosts() const
{
    return m_nHosts;
}

uint32_t
GraphRoutes::GetNLinks() const
{
    return static_cast<uint32_t>(m_links.size());
}

void
GraphRoutes::CheckNode(uint32_t node) const
{
    if (node >= m_nNodes)
    {
        throw std::out_of_range("GraphRoutes: node " + std::to_string(node) + " must be below " +
                                std::to_string(m_nNodes));
    }
}

std::string
GraphRoutes::ValidateLink(uint32_t a, uint32_t portA, uint32_t b, uint32_t portB) const
{
    if (a >= m_nNodes || b >= m_nNodes)
    {
        return "a and b must be below the number of nodes (" + std::to_string(m_nNodes) + ")";
    }
    if (a == b)
    {
        return "a link joins two different nodes";
    }
    for (const auto& [node, port] : {std::make_pair(a, portA), std::make_pair(b, portB)})
    {
        for (uint32_t l : m_nodeLinks[node])
        {
            const Link& link = m_links[l];
            if ((link.node[0] == node && link.port[0] == port) ||
                (link.node[1] == node && link.port[1] == port))
            {
                return "port " + std::to_string(port) + " of node " + std::to_string(node) +
                       " is used by link " + std::to_string(l);
            }
        }
    }
    return "";
}

uint32_t
GraphRoutes::AddLink(uint32_t a, uint32_t portA, uint32_t b, uint32_t portB)
{
    std::string error = ValidateLink(a, portA, b, portB);
    if (!error.empty())
    {
        throw std::invalid_argument("GraphRoutes::AddLink: " + error);
    }
    const uint32_t id = GetNLinks();
    m_links.push_back(Link{{a, b}, {portA, portB}, true});
    m_nodeLinks[a].push_back(id);
    m_nodeLinks[b].push_back(id);
    m_computed = false;
    return id;
}

const GraphRoutes::Link&
GraphRoutes::GetLink(uint32_t link) const
{
    if (link >= m_links.size())
    {
        throw std::out_of_range("GraphRoutes: link " + std::to_string(link) + " must be below " +
                                std::to_string(m_links.size()));
    }
    return m_links[link];
}

void
GraphRoutes::SetRelay(uint32_t host, bool relay)
{
    if (host >= m_nHosts)
    {
        throw std::out_of_range("GraphRoutes::SetRelay: host " + std::to_string(host) +
                                " must be below " + std::to_string(m_nHosts));
    }
    m_relay[host] = relay;
    m_computed = false;
}

void
GraphRoutes::SetRouted(uint32_t link, bool routed)
{
    GetLink(link);
    m_links[link].routed = routed;
    m_computed = false;
}

uint64_t
GraphRoutes::Compute()
{
    Graph graph(m_nNodes);
    std::vector<bool> routed(m_links.size());
    for (uint32_t l = 0; l < m_links.size(); l++)
    {
        boost::add_edge(m_links[l].node[0], m_links[l].node[1], l, graph);
        routed[l] = m_links[l].routed;
    }
    std::vector<bool> forwards(m_nNodes, true);
    for (uint32_t h = 0; h < m_nHosts; h++)
    {
        forwards[h] = m_relay[h];
    }
    m_distance.assign(m_nHosts, std::vector<uint32_t>(m_nNodes, UNREACHABLE));
    m_ports.assign(m_nNodes, std::vector<std::vector<uint32_t>>(m_nHosts));
    uint64_t unreachable = 0;
    for (uint32_t dst = 0; dst < m_nHosts; dst++)
    {
        // Breadth-first from the destination over the edges between forwarding nodes.
        const bool wasRelay = forwards[dst];
        forwards[dst] = true;
        TransitEdges transit{&graph, &forwards, &routed};
        boost::filtered_graph<Graph, TransitEdges> view(graph, transit);
        std::vector<uint32_t>& dist = m_distance[dst];
        dist[dst] = 0;
        boost::breadth_first_search(
            view,
            dst,
            boost::visitor(boost::make_bfs_visitor(
                boost::record_distances(dist.data(), boost::on_tree_edge()))));
        // A node that does not forward enters the paths only as their first hop.
        for (uint32_t n = 0; n < m_nHosts; n++)
        {
            if (!forwards[n])
            {
                dist[n] = UNREACHABLE;
                for (uint32_t l : m_nodeLinks[n])
                {
                    const Link& link = m_links[l];
                    const uint32_t other = link.node[0] == n ? link.node[1] : link.node[0];
                    if (link.routed && forwards[other] && dist[other] != UNREACHABLE)
                    {
                        dist[n] = std::min(dist[n], dist[other] + 1);
                    }
                }
            }
        }
        for (uint32_t n = 0; n < m_nNodes; n++)
        {
            if (n == dst)
            {
                continue;
            }
            if (dist[n] == UNREACHABLE)
            {
                ++unreachable;
                continue;
            }
            for (uint32_t l : m_nodeLinks[n])
            {
                const Link& link = m_links[l];
                const uint32_t side = link.node[0] == n ? 0 : 1;
                const uint32_t other = link.node[1 - side];
                if (link.routed && forwards[other] && dist[other] != UNREACHABLE &&
                    dist[other] + 1 == dist[n])
                {
                    m_ports[n][dst].push_back(link.port[side]);
                }
            }
        }
        forwards[dst] = wasRelay;
    }
    m_computed = true;
    return unreachable;
}

bool
GraphRoutes::IsComputed() const
{
    return m_computed;
}

void
GraphRoutes::CheckQuery(uint32_t node, uint32_t host) const
{
    if (!m_computed)
    {
        throw std::logic_error("GraphRoutes: call Compute() first");
    }
    CheckNode(node);
    if (host >= m_nHosts)
    {
        throw std::out_of_range("GraphRoutes: host " + std::to_string(host) + " must be below " +
                                std::to_string(m_nHosts));
    }
}

const std::vector<uint32_t>&
GraphRoutes::GetPorts(uint32_t node, uint32_t host) const
{
    CheckQuery(node, host);
    return m_ports[node][host];
}

uint32_t
GraphRoutes::GetDistance(uint32_t node, uint32_t host) const
{
    CheckQuery(node, host);
    return m_distance[host][node];
}

} // namespace ns3
