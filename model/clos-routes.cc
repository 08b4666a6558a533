/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "clos-routes.h"

#include <algorithm>
#include <limits>
#include <sstream>
#include <stdexcept>

namespace ns3
{

namespace
{
/// Distance of a node the search did not reach, and leaf of a host without a link.
constexpr uint32_t kNone = std::numeric_limits<uint32_t>::max();
} // namespace

ClosRoutes::ClosRoutes()
    : ClosRoutes(0, 0)
{
}

ClosRoutes::ClosRoutes(uint32_t nHosts, uint32_t nSwitches)
    : m_nHosts(nHosts),
      m_nodeLinks(static_cast<size_t>(nHosts) + nSwitches),
      m_computed(false)
{
}

uint32_t
ClosRoutes::GetNNodes() const
{
    return m_nodeLinks.size();
}

uint32_t
ClosRoutes::GetNHosts() const
{
    return m_nHosts;
}

uint32_t
ClosRoutes::GetNLinks() const
{
    return m_links.size();
}

std::string
ClosRoutes::ValidateLink(uint32_t a, uint32_t portA, uint32_t b, uint32_t portB) const
{
    std::ostringstream os;
    const uint32_t ends[2] = {a, b};
    const uint32_t ports[2] = {portA, portB};
    for (uint32_t side = 0; side < 2; side++)
    {
        uint32_t n = ends[side];
        if (n >= GetNNodes())
        {
            os << "node " << n << " must be below the number of nodes (" << GetNNodes() << ")";
            return os.str();
        }
        bool host = n < m_nHosts;
        if (host && ports[side] != NO_PORT)
        {
            os << "host " << n << " has no port numbers (its port must be NO_PORT)";
            return os.str();
        }
        if (host && !m_nodeLinks[n].empty())
        {
            os << "host " << n << " already has its link";
            return os.str();
        }
        if (!host && ports[side] == NO_PORT)
        {
            os << "switch " << n << " needs a port number";
            return os.str();
        }
        for (uint32_t link : m_nodeLinks[n])
        {
            const Link& l = m_links[link];
            if (!host && (l.node[0] == n ? l.port[0] : l.port[1]) == ports[side])
            {
                os << "port " << ports[side] << " of switch " << n << " is already used";
                return os.str();
            }
        }
    }
    if (a == b)
    {
        os << "a link joins two different nodes (node " << a << " twice)";
        return os.str();
    }
    if (a < m_nHosts && b < m_nHosts)
    {
        os << "hosts " << a << " and " << b << " cannot be linked to each other";
        return os.str();
    }
    return "";
}

uint32_t
ClosRoutes::AddLink(uint32_t a, uint32_t portA, uint32_t b, uint32_t portB)
{
    std::string error = ValidateLink(a, portA, b, portB);
    if (!error.empty())
    {
        throw std::invalid_argument("ClosRoutes::AddLink: " + error);
    }
    uint32_t id = m_links.size();
    m_links.push_back(Link{{a, b}, {portA, portB}, true});
    m_nodeLinks[a].push_back(id);
    m_nodeLinks[b].push_back(id);
    return id;
}

void
ClosRoutes::CheckLink(uint32_t link) const
{
    if (link >= m_links.size())
    {
        throw std::out_of_range("ClosRoutes: link " + std::to_string(link) +
                                " must be below the number of links (" +
                                std::to_string(m_links.size()) + ")");
    }
}

const ClosRoutes::Link&
ClosRoutes::GetLink(uint32_t link) const
{
    CheckLink(link);
    return m_links[link];
}

const std::vector<uint32_t>&
ClosRoutes::GetNodeLinks(uint32_t node) const
{
    if (node >= GetNNodes())
    {
        throw std::out_of_range("ClosRoutes: node " + std::to_string(node) +
                                " must be below the number of nodes (" +
                                std::to_string(GetNNodes()) + ")");
    }
    return m_nodeLinks[node];
}

void
ClosRoutes::SetRouted(uint32_t link, bool routed)
{
    CheckLink(link);
    m_links[link].routed = routed;
}

bool
ClosRoutes::IsRouted(uint32_t link) const
{
    CheckLink(link);
    return m_links[link].routed;
}

bool
ClosRoutes::IsComputed() const
{
    return m_computed;
}

std::vector<uint32_t>
ClosRoutes::NumberLeaves(std::vector<uint32_t>& leafNode) const
{
    std::vector<uint32_t> hostLeaf(m_nHosts, kNone);
    std::vector<uint32_t> leafOfNode(GetNNodes(), kNone);
    leafNode.clear();
    for (uint32_t h = 0; h < m_nHosts; h++)
    {
        if (m_nodeLinks[h].empty())
        {
            continue;
        }
        const Link& l = m_links[m_nodeLinks[h].front()];
        uint32_t leaf = l.node[0] == h ? l.node[1] : l.node[0];
        if (leafOfNode[leaf] == kNone)
        {
            leafOfNode[leaf] = leafNode.size();
            leafNode.push_back(leaf);
        }
        hostLeaf[h] = leafOfNode[leaf];
    }
    return hostLeaf;
}

void
ClosRoutes::Distances(uint32_t from, std::vector<uint32_t>& dist) const
{
    dist.assign(GetNNodes(), kNone);
    dist[from] = 0;
    std::vector<uint32_t> queue{from};
    queue.reserve(GetNNodes());
    for (size_t head = 0; head < queue.size(); head++)
    {
        uint32_t u = queue[head];
        for (uint32_t link : m_nodeLinks[u])
        {
            const Link& k = m_links[link];
            uint32_t v = k.node[0] == u ? k.node[1] : k.node[0];
            if (k.routed && v >= m_nHosts && dist[v] == kNone)
            {
                dist[v] = dist[u] + 1;
                queue.push_back(v);
            }
        }
    }
}

void
ClosRoutes::PortsTowardLeaf(uint32_t leaf,
                            uint32_t leafNode,
                            const std::vector<uint32_t>& dist,
                            LeafSets& sets) const
{
    for (uint32_t s = m_nHosts; s < GetNNodes(); s++)
    {
        if (s == leafNode || dist[s] == kNone)
        {
            continue;
        }
        std::vector<uint32_t>& ports = sets[s - m_nHosts][leaf];
        for (uint32_t link : m_nodeLinks[s])
        {
            const Link& k = m_links[link];
            uint32_t v = k.node[0] == s ? k.node[1] : k.node[0];
            if (k.routed && v >= m_nHosts && dist[v] + 1 == dist[s])
            {
                ports.push_back(k.node[0] == s ? k.port[0] : k.port[1]);
            }
        }
    }
}

uint64_t
ClosRoutes::BuildTables(const std::vector<uint32_t>& hostLeaf, LeafSets& sets)
{
    const uint32_t nSwitches = GetNNodes() - m_nHosts;
    const auto unattached = std::count(hostLeaf.begin(), hostLeaf.end(), kNone);
    m_hostToSet.assign(nSwitches, std::vector<uint32_t>(m_nHosts));
    m_sets.resize(nSwitches);
    uint64_t unreachable = 0;
    for (uint32_t i = 0; i < nSwitches; i++)
    {
        const uint32_t s = m_nHosts + i;
        std::vector<std::vector<uint32_t>>& own = sets[i];
        std::vector<uint32_t>& hostToSet = m_hostToSet[i];
        for (uint32_t h = 0; h < m_nHosts; h++)
        {
            if (hostLeaf[h] == kNone)
            {
                continue; // pointed at the empty set below
            }
            const Link& l = m_links[m_nodeLinks[h].front()];
            hostToSet[h] = hostLeaf[h];
            if ((l.node[0] == h ? l.node[1] : l.node[0]) == s)
            {
                // The switch is the host's leaf: one set of its own, the host link's port.
                hostToSet[h] = own.size();
                own.emplace_back();
                if (l.routed)
                {
                    own.back().push_back(l.node[0] == s ? l.port[0] : l.port[1]);
                }
            }
            unreachable += own[hostToSet[h]].empty() ? 1 : 0;
        }
        if (unattached > 0)
        {
            for (uint32_t h = 0; h < m_nHosts; h++)
            {
                hostToSet[h] = hostLeaf[h] == kNone ? own.size() : hostToSet[h];
            }
            own.emplace_back();
            unreachable += unattached;
        }
        m_sets[i] = std::move(own);
    }
    return unreachable;
}

uint64_t
ClosRoutes::Compute()
{
    std::vector<uint32_t> leafNode;
    std::vector<uint32_t> hostLeaf = NumberLeaves(leafNode);
    const uint32_t nSwitches = GetNNodes() - m_nHosts;
    LeafSets sets(nSwitches, std::vector<std::vector<uint32_t>>(leafNode.size()));
    std::vector<uint32_t> dist;
    for (uint32_t leaf = 0; leaf < leafNode.size(); leaf++)
    {
        Distances(leafNode[leaf], dist);
        PortsTowardLeaf(leaf, leafNode[leaf], dist, sets);
    }
    uint64_t unreachable = BuildTables(hostLeaf, sets);
    m_computed = true;
    return unreachable;
}

void
ClosRoutes::CheckSwitch(uint32_t sw) const
{
    if (sw < m_nHosts || sw >= GetNNodes())
    {
        throw std::out_of_range("ClosRoutes: node " + std::to_string(sw) +
                                " is not a switch (switches are nodes " + std::to_string(m_nHosts) +
                                " to " + std::to_string(GetNNodes()) + " - 1)");
    }
    if (!m_computed)
    {
        throw std::logic_error("ClosRoutes: the tables are read before Compute()");
    }
}

const std::vector<uint32_t>&
ClosRoutes::GetPorts(uint32_t sw, uint32_t host) const
{
    CheckSwitch(sw);
    if (host >= m_nHosts)
    {
        throw std::out_of_range("ClosRoutes: host " + std::to_string(host) +
                                " must be below the number of hosts (" + std::to_string(m_nHosts) +
                                ")");
    }
    const uint32_t i = sw - m_nHosts;
    return m_sets[i][m_hostToSet[i][host]];
}

const std::vector<uint32_t>&
ClosRoutes::GetHostToSet(uint32_t sw) const
{
    CheckSwitch(sw);
    return m_hostToSet[sw - m_nHosts];
}

const std::vector<std::vector<uint32_t>>&
ClosRoutes::GetSets(uint32_t sw) const
{
    CheckSwitch(sw);
    return m_sets[sw - m_nHosts];
}

} // namespace ns3
