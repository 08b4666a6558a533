/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "clos-fabric.h"

#include "ecn-queue-disc.h"
#include "fabric-link-error-model.h"
#include "fabric-switch.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/nstime.h"
#include "ns3/point-to-point-channel.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/queue-disc.h"
#include "ns3/simulator.h"
#include "ns3/traffic-control-layer.h"

#include <algorithm>
#include <functional>
#include <iomanip>
#include <limits>
#include <ostream>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ClosFabric");

NS_OBJECT_ENSURE_REGISTERED(ClosFabric);

TypeId
ClosFabric::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::ClosFabric")
            .SetParent<Object>()
            .SetGroupName("Reps")
            .AddConstructor<ClosFabric>()
            .AddAttribute("RoutingConvergenceDelay",
                          "Time between a link changing state and every switch's tables "
                          "reflecting it; Time::Max() (the default) means never: a failed link "
                          "stays in the tables and blackholes the flows hashed onto it.",
                          TimeValue(Time::Max()),
                          MakeTimeAccessor(&ClosFabric::m_convergenceDelay),
                          MakeTimeChecker(Seconds(0), Time::Max()))
            .AddTraceSource("LinkState",
                            "A link went down or came back up (both directions).",
                            MakeTraceSourceAccessor(&ClosFabric::m_linkStateTrace),
                            "ns3::ClosFabric::LinkStateTracedCallback")
            .AddTraceSource("RouteState",
                            "Routing removed a link from, or restored it to, the switches' "
                            "tables (the tables are recomputed right after).",
                            MakeTraceSourceAccessor(&ClosFabric::m_routeStateTrace),
                            "ns3::ClosFabric::LinkStateTracedCallback");
    return tid;
}

ClosFabric::ClosFabric()
    : m_nNodes(0),
      m_finished(false),
      m_firstLeaf(0),
      m_firstSpine(0),
      m_firstCore(0),
      m_planeIndex(0),
      m_plane0(nullptr),
      m_linkOffset(0),
      m_convergenceDelay(Time::Max()),
      m_recomputePending(false)
{
    NS_LOG_FUNCTION(this);
}

ClosFabric::~ClosFabric()
{
    NS_LOG_FUNCTION(this);
}

void
ClosFabric::DoDispose()
{
    NS_LOG_FUNCTION(this);
    for (auto& plane : m_extraPlanes)
    {
        plane->Dispose();
    }
    m_extraPlanes.clear();
    m_plane0 = nullptr;
    m_nodes.clear();
    m_switches.clear();
    m_links.clear();
    Object::DoDispose();
}

namespace
{

/**
 * \param tier a tier
 * \return its name, for messages
 */
const char*
TierName(ClosFabric::Tier tier)
{
    switch (tier)
    {
    case ClosFabric::HOST_LEAF:
        return "HOST_LEAF";
    case ClosFabric::LEAF_SPINE:
        return "LEAF_SPINE";
    case ClosFabric::LEAF_AGG:
        return "LEAF_AGG";
    case ClosFabric::AGG_CORE:
        return "AGG_CORE";
    }
    return "?";
}

/**
 * \param role a role
 * \return its name, for messages
 */
const char*
RoleName(ClosFabric::Role role)
{
    switch (role)
    {
    case ClosFabric::HOST:
        return "HOST";
    case ClosFabric::LEAF:
        return "LEAF";
    case ClosFabric::SPINE:
        return "SPINE";
    case ClosFabric::AGG:
        return "AGG";
    case ClosFabric::CORE:
        return "CORE";
    }
    return "?";
}

} // namespace

std::string
ClosFabric::ValidateShape(const Shape& shape)
{
    std::ostringstream os;
    if (shape.tiers != 2 && shape.tiers != 3)
    {
        os << "tiers (" << shape.tiers << ") must be 2 or 3";
    }
    else if (shape.hostsPerLeaf == 0 || shape.pods == 0 || shape.leavesPerPod == 0 ||
             shape.parallelLinks == 0)
    {
        os << "hostsPerLeaf, pods, leavesPerPod and parallelLinks must be >= 1";
    }
    else if (shape.tiers == 2 &&
             (shape.spines == 0 || shape.pods != 1 || shape.aggsPerPod != 0 || shape.cores != 0))
    {
        os << "a 2-tier shape has spines (>= 1), one pod, no aggsPerPod and no cores";
    }
    else if (shape.tiers == 3 && (shape.spines != 0 || shape.aggsPerPod == 0 || shape.cores == 0 ||
                                  shape.cores % shape.aggsPerPod != 0))
    {
        os << "a 3-tier shape has no spines, aggsPerPod >= 1 and cores a positive multiple of "
           << "aggsPerPod (" << shape.aggsPerPod << ", cores " << shape.cores << ")";
    }
    else if (shape.hostRate.GetBitRate() == 0 || shape.leafUplinkRate.GetBitRate() == 0 ||
             (shape.tiers == 3 && shape.aggUplinkRate.GetBitRate() == 0))
    {
        os << "hostRate, leafUplinkRate and (3-tier) aggUplinkRate must be positive";
    }
    return os.str();
}

void
ClosFabric::SetShape(const Shape& shape)
{
    NS_LOG_FUNCTION(this);
    NS_ABORT_MSG_IF(!m_nodes.empty(), "ClosFabric::SetShape: nodes have been added already");
    std::string error = ValidateShape(shape);
    NS_ABORT_MSG_IF(!error.empty(), "ClosFabric::SetShape: " << error);
    m_shape = shape;
    const uint32_t middle = shape.tiers == 2 ? shape.spines : shape.pods * shape.aggsPerPod;
    m_firstLeaf = GetNHosts();
    m_firstSpine = m_firstLeaf + GetNLeaves();
    m_firstCore = m_firstSpine + middle;
    m_nNodes = m_firstCore + shape.cores;
    m_routes = ClosRoutes(GetNHosts(), m_nNodes - GetNHosts());
    m_portLinks.assign(m_nNodes, {});
}

const ClosFabric::Shape&
ClosFabric::GetShape() const
{
    return m_shape;
}

ClosFabric::Role
ClosFabric::GetRoleOfIndex(uint32_t index) const
{
    NS_ABORT_MSG_IF(index >= m_nNodes,
                    "ClosFabric::GetRoleOfIndex: index (" << index << ") must be below "
                                                          << m_nNodes);
    if (index < m_firstLeaf)
    {
        return HOST;
    }
    if (index < m_firstSpine)
    {
        return LEAF;
    }
    if (index < m_firstCore)
    {
        return m_shape.tiers == 2 ? SPINE : AGG;
    }
    return CORE;
}

std::string
ClosFabric::ValidateNewNode(Ptr<Node> node, Role role) const
{
    std::ostringstream os;
    const uint32_t index = m_nodes.size();
    if (m_nNodes == 0 || m_finished || index >= m_nNodes)
    {
        os << "the shape has no room for another node (" << m_nNodes << " nodes"
           << (m_finished ? ", finished" : "") << ")";
    }
    else if (!node)
    {
        os << "node is null";
    }
    else if (m_nodeIdToIndex.count(node->GetId()) != 0)
    {
        os << "node " << node->GetId() << " is in the fabric already";
    }
    else if (role != GetRoleOfIndex(index))
    {
        os << "node " << index << " must be a " << RoleName(GetRoleOfIndex(index)) << ", not a "
           << RoleName(role) << " (hosts, leaves, spines or aggregation switches, cores)";
    }
    return os.str();
}

uint32_t
ClosFabric::AddNode(Ptr<Node> node, Role role)
{
    NS_LOG_FUNCTION(this << node << role);
    std::string error = ValidateNewNode(node, role);
    NS_ABORT_MSG_IF(!error.empty(), "ClosFabric::AddNode: " << error);
    uint32_t index = m_nodes.size();
    m_nodeIdToIndex[node->GetId()] = index;
    m_nodes.push_back(node);
    m_roles.push_back(role);
    m_switches.push_back(nullptr);
    return index;
}

Ptr<Node>
ClosFabric::NodeAt(uint32_t index, const char* caller) const
{
    NS_ABORT_MSG_IF(index >= m_nodes.size(),
                    "ClosFabric::" << caller << ": node " << index << " has not been added");
    return m_nodes[index];
}

Ptr<FabricSwitch>
ClosFabric::SwitchAt(uint32_t index)
{
    if (!m_switches[index])
    {
        m_switches[index] = m_nodes[index]->GetObject<FabricSwitch>();
    }
    return m_switches[index];
}

std::string
ClosFabric::ValidateLinkEnds(Tier tier, uint32_t a, uint32_t b, uint32_t k) const
{
    static const Role ends[4][2] = {{HOST, LEAF}, {LEAF, SPINE}, {LEAF, AGG}, {AGG, CORE}};
    std::ostringstream os;
    if (m_roles[a] != ends[tier][0] || m_roles[b] != ends[tier][1])
    {
        os << "a " << TierName(tier) << " link joins a " << RoleName(ends[tier][0]) << " (side 0)"
           << " and a " << RoleName(ends[tier][1]) << " (side 1), not " << GetNodeName(m_nodes[a])
           << " and " << GetNodeName(m_nodes[b]);
        return os.str();
    }
    bool wired = true; // every leaf is linked to every spine
    if (tier == HOST_LEAF)
    {
        wired = b - m_firstLeaf == a / m_shape.hostsPerLeaf;
    }
    else if (tier == LEAF_AGG)
    {
        // A leaf is linked to the aggregation switches of its pod.
        wired = (a - m_firstLeaf) / m_shape.leavesPerPod == (b - m_firstSpine) / m_shape.aggsPerPod;
    }
    else if (tier == AGG_CORE)
    {
        // Aggregation switch i of every pod is linked to the cores of group i.
        uint32_t coresPerAgg = m_shape.cores / m_shape.aggsPerPod;
        wired = (b - m_firstCore) / coresPerAgg == (a - m_firstSpine) % m_shape.aggsPerPod;
    }
    if (!wired)
    {
        os << GetNodeName(m_nodes[a]) << " and " << GetNodeName(m_nodes[b])
           << " are not linked in this shape";
        return os.str();
    }
    uint32_t parallel = tier == HOST_LEAF ? 1 : m_shape.parallelLinks;
    uint32_t existing = 0;
    for (uint32_t link : m_routes.GetNodeLinks(a))
    {
        existing += m_links[link].node[1] == b ? 1 : 0;
    }
    if (k >= parallel || k != existing)
    {
        os << "k (" << k << ") must be the next of the " << parallel << " parallel links between "
           << GetNodeName(m_nodes[a]) << " and " << GetNodeName(m_nodes[b]) << " (" << existing
           << " added)";
    }
    return os.str();
}

std::string
ClosFabric::ValidateNewLink(Tier tier,
                            Ptr<PointToPointNetDevice> side0,
                            Ptr<PointToPointNetDevice> side1,
                            uint32_t k) const
{
    if (m_finished)
    {
        return "the fabric is finished";
    }
    if (!side0 || !side1 || !side0->GetChannel() || side0->GetChannel() != side1->GetChannel())
    {
        return "side0 and side1 must be the two devices of one point-to-point channel";
    }
    if (tier > AGG_CORE)
    {
        return "tier must be HOST_LEAF, LEAF_SPINE, LEAF_AGG or AGG_CORE";
    }
    uint32_t n[2];
    Ptr<PointToPointNetDevice> dev[2] = {side0, side1};
    for (uint32_t side = 0; side < 2; side++)
    {
        auto it = m_nodeIdToIndex.find(dev[side]->GetNode()->GetId());
        if (it == m_nodeIdToIndex.end())
        {
            return "the node of side" + std::to_string(side) + " is not a node of this fabric";
        }
        n[side] = it->second;
        if (m_roles[n[side]] != HOST && !m_nodes[n[side]]->GetObject<FabricSwitch>())
        {
            return GetNodeName(m_nodes[n[side]]) + " has no FabricSwitch";
        }
    }
    return ValidateLinkEnds(tier, n[0], n[1], k);
}

uint32_t
ClosFabric::AddLink(Tier tier,
                    Ptr<PointToPointNetDevice> side0,
                    Ptr<PointToPointNetDevice> side1,
                    uint32_t k)
{
    NS_LOG_FUNCTION(this << tier << side0 << side1 << k);
    std::string error = ValidateNewLink(tier, side0, side1, k);
    NS_ABORT_MSG_IF(!error.empty(), "ClosFabric::AddLink: " << error);
    const uint32_t id = m_links.size();
    Link link;
    link.tier = tier;
    link.parallelIndex = k;
    link.up = true;
    link.device[0] = side0;
    link.device[1] = side1;
    for (uint32_t side = 0; side < 2; side++)
    {
        const uint32_t n = m_nodeIdToIndex.at(link.device[side]->GetNode()->GetId());
        link.node[side] = n;
        link.receiver[side] = CreateObject<FabricLinkErrorModel>();
        link.device[side]->SetReceiveErrorModel(link.receiver[side]);
        link.port[side] = ClosRoutes::NO_PORT;
        if (m_roles[n] != HOST)
        {
            link.port[side] = SwitchAt(n)->AddPort(link.device[side]);
            m_portLinks[n].push_back(id);
            NS_ASSERT(m_portLinks[n].size() == link.port[side] + 1);
        }
    }
    m_routes.AddLink(link.node[0], link.port[0], link.node[1], link.port[1]);
    m_links.push_back(link);
    return id;
}

std::string
ClosFabric::ValidateWiring() const
{
    std::ostringstream os;
    if (m_nNodes == 0 || m_nodes.size() != m_nNodes)
    {
        os << m_nodes.size() << " nodes added, the shape has " << m_nNodes;
        return os.str();
    }
    const uint64_t p = m_shape.parallelLinks;
    const uint64_t expected[4] = {
        GetNHosts(),
        m_shape.tiers == 2 ? GetNLeaves() * m_shape.spines * p : 0,
        m_shape.tiers == 3 ? GetNLeaves() * m_shape.aggsPerPod * p : 0,
        m_shape.tiers == 3 ? m_shape.pods * m_shape.cores * p : 0,
    };
    for (uint32_t tier = HOST_LEAF; tier <= AGG_CORE; tier++)
    {
        uint64_t added = GetLinks(static_cast<Tier>(tier)).size();
        if (added != expected[tier])
        {
            os << added << " " << TierName(static_cast<Tier>(tier))
               << " links added, the shape has " << expected[tier];
            return os.str();
        }
    }
    return "";
}

void
ClosFabric::Finish()
{
    NS_LOG_FUNCTION(this);
    NS_ABORT_MSG_IF(m_finished, "ClosFabric::Finish: called twice");
    std::string error = ValidateWiring();
    NS_ABORT_MSG_IF(!error.empty(), "ClosFabric::Finish: " << error);
    for (uint32_t s = GetNHosts(); s < m_nodes.size(); s++)
    {
        SwitchAt(s)->SetHostAddressing(m_shape.addressBase, GetNHosts());
    }
    m_finished = true;
    RecomputeRoutes();
}

bool
ClosFabric::IsFinished() const
{
    return m_finished;
}

void
ClosFabric::AddPlane(Ptr<ClosFabric> plane)
{
    NS_LOG_FUNCTION(this << plane);
    NS_ABORT_MSG_IF(!m_finished, "ClosFabric::AddPlane: Finish() this fabric first");
    NS_ABORT_MSG_IF(m_plane0 != nullptr, "ClosFabric::AddPlane: only plane 0 takes planes");
    NS_ABORT_MSG_IF(!plane || plane == this || !plane->IsFinished() || plane->GetNPlanes() != 1 ||
                        plane->m_plane0 != nullptr,
                    "ClosFabric::AddPlane: plane must be another finished single-plane fabric");
    NS_ABORT_MSG_IF(plane->GetNHosts() != GetNHosts() || plane->GetNTiers() != GetNTiers() ||
                        plane->GetNLeaves() != GetNLeaves() || plane->m_nNodes != m_nNodes ||
                        plane->m_links.size() != m_links.size(),
                    "ClosFabric::AddPlane: plane must have the shape of this fabric");
    for (uint32_t h = 0; h < GetNHosts(); h++)
    {
        NS_ABORT_MSG_IF(plane->m_nodes[h] != m_nodes[h],
                        "ClosFabric::AddPlane: host " << h << " of the plane is not host " << h
                                                      << " of this fabric");
    }
    plane->m_planeIndex = GetNPlanes();
    plane->m_plane0 = this;
    plane->m_linkOffset = GetNLinks();
    m_extraPlanes.push_back(plane);
}

uint32_t
ClosFabric::GetNPlanes() const
{
    return 1 + m_extraPlanes.size();
}

Ptr<ClosFabric>
ClosFabric::GetPlane(uint32_t plane) const
{
    NS_ABORT_MSG_IF(plane >= GetNPlanes(),
                    "ClosFabric::GetPlane: plane (" << plane << ") must be below " << GetNPlanes());
    return plane == 0 ? Ptr<ClosFabric>(const_cast<ClosFabric*>(this)) : m_extraPlanes[plane - 1];
}

uint32_t
ClosFabric::GetPlaneIndex() const
{
    return m_planeIndex;
}

uint32_t
ClosFabric::GetPlaneFirstLink(uint32_t plane) const
{
    return GetPlane(plane)->m_linkOffset;
}

uint32_t
ClosFabric::GetPlaneOfLink(uint32_t link) const
{
    CheckLink(link, "GetPlaneOfLink");
    return LinkOwner(link)->m_planeIndex;
}

uint32_t
ClosFabric::GetPlaneOfNode(Ptr<Node> node) const
{
    return NodeOwner(node)->m_planeIndex;
}

ClosFabric*
ClosFabric::LinkOwner(uint32_t& link) const
{
    if (link < m_links.size() || link == NO_LINK)
    {
        return const_cast<ClosFabric*>(this);
    }
    uint32_t rest = link - m_links.size();
    for (const auto& plane : m_extraPlanes)
    {
        if (rest < plane->m_links.size())
        {
            link = rest;
            return PeekPointer(plane);
        }
        rest -= plane->m_links.size();
    }
    return const_cast<ClosFabric*>(this);
}

ClosFabric*
ClosFabric::NodeOwner(Ptr<Node> node) const
{
    if (node && m_nodeIdToIndex.count(node->GetId()) == 0)
    {
        for (const auto& plane : m_extraPlanes)
        {
            if (plane->m_nodeIdToIndex.count(node->GetId()) != 0)
            {
                return PeekPointer(plane);
            }
        }
    }
    return const_cast<ClosFabric*>(this);
}

uint32_t
ClosFabric::GetHostLink(uint32_t host, uint32_t plane) const
{
    Ptr<ClosFabric> p = GetPlane(plane);
    return p->m_linkOffset + p->GetHostLink(host);
}

Ipv4Address
ClosFabric::GetHostAddress(uint32_t host, uint32_t plane) const
{
    return GetPlane(plane)->GetHostAddress(host);
}

uint32_t
ClosFabric::GetNTiers() const
{
    return m_shape.tiers;
}

uint32_t
ClosFabric::GetNHosts() const
{
    return GetNLeaves() * m_shape.hostsPerLeaf;
}

uint32_t
ClosFabric::GetNLeaves() const
{
    return m_shape.pods * m_shape.leavesPerPod;
}

uint32_t
ClosFabric::GetNHostsPerLeaf() const
{
    return m_shape.hostsPerLeaf;
}

uint32_t
ClosFabric::GetNSpines() const
{
    return m_shape.spines;
}

uint32_t
ClosFabric::GetNPods() const
{
    return m_shape.pods;
}

uint32_t
ClosFabric::GetNLeavesPerPod() const
{
    return m_shape.leavesPerPod;
}

uint32_t
ClosFabric::GetNAggsPerPod() const
{
    return m_shape.aggsPerPod;
}

uint32_t
ClosFabric::GetNCores() const
{
    return m_shape.cores;
}

uint32_t
ClosFabric::GetNParallelLinks() const
{
    return m_shape.parallelLinks;
}

uint32_t
ClosFabric::GetNSwitches() const
{
    uint32_t n = m_nNodes - GetNHosts();
    for (const auto& plane : m_extraPlanes)
    {
        n += plane->GetNSwitches();
    }
    return n;
}

uint32_t
ClosFabric::GetNLinks() const
{
    uint32_t n = m_links.size();
    for (const auto& plane : m_extraPlanes)
    {
        n += plane->GetNLinks();
    }
    return n;
}

Ptr<Node>
ClosFabric::GetHost(uint32_t host) const
{
    NS_ABORT_MSG_IF(host >= GetNHosts(),
                    "ClosFabric::GetHost: host (" << host << ") must be below " << GetNHosts());
    return NodeAt(host, "GetHost");
}

Ipv4Address
ClosFabric::GetHostAddress(uint32_t host) const
{
    NS_ABORT_MSG_IF(host >= GetNHosts(),
                    "ClosFabric::GetHostAddress: host (" << host << ") must be below "
                                                         << GetNHosts());
    return Ipv4Address(m_shape.addressBase.Get() + 1 + host);
}

uint32_t
ClosFabric::GetHostIndex(Ipv4Address address) const
{
    uint32_t host = address.Get() - m_shape.addressBase.Get() - 1;
    for (const auto& plane : m_extraPlanes)
    {
        if (host < GetNHosts())
        {
            break;
        }
        host = plane->GetHostIndex(address);
    }
    return host < GetNHosts() ? host : GetNHosts();
}

uint32_t
ClosFabric::GetLeafOfHost(uint32_t host) const
{
    NS_ABORT_MSG_IF(host >= GetNHosts(),
                    "ClosFabric::GetLeafOfHost: host (" << host << ") must be below "
                                                        << GetNHosts());
    return host / m_shape.hostsPerLeaf;
}

uint32_t
ClosFabric::GetPodOfHost(uint32_t host) const
{
    return GetLeafOfHost(host) / m_shape.leavesPerPod;
}

NodeContainer
ClosFabric::GetHosts() const
{
    NodeContainer c;
    for (uint32_t i = 0; i < std::min<size_t>(GetNHosts(), m_nodes.size()); i++)
    {
        c.Add(m_nodes[i]);
    }
    return c;
}

NodeContainer
ClosFabric::GetSwitches() const
{
    NodeContainer c;
    for (uint32_t i = GetNHosts(); i < m_nodes.size(); i++)
    {
        c.Add(m_nodes[i]);
    }
    for (const auto& plane : m_extraPlanes)
    {
        c.Add(plane->GetSwitches());
    }
    return c;
}

Ptr<Node>
ClosFabric::GetLeaf(uint32_t leaf) const
{
    NS_ABORT_MSG_IF(leaf >= GetNLeaves(),
                    "ClosFabric::GetLeaf: leaf (" << leaf << ") must be below " << GetNLeaves());
    return NodeAt(m_firstLeaf + leaf, "GetLeaf");
}

Ptr<Node>
ClosFabric::GetSpine(uint32_t spine) const
{
    NS_ABORT_MSG_IF(spine >= m_shape.spines,
                    "ClosFabric::GetSpine: spine (" << spine << ") must be below " << m_shape.spines
                                                    << " (a 3-tier fabric has no spines)");
    return NodeAt(m_firstSpine + spine, "GetSpine");
}

Ptr<Node>
ClosFabric::GetAgg(uint32_t pod, uint32_t agg) const
{
    NS_ABORT_MSG_IF(m_shape.tiers != 3,
                    "ClosFabric::GetAgg: a 2-tier fabric has no aggregation tier");
    NS_ABORT_MSG_IF(pod >= m_shape.pods,
                    "ClosFabric::GetAgg: pod (" << pod << ") must be below " << m_shape.pods);
    NS_ABORT_MSG_IF(agg >= m_shape.aggsPerPod,
                    "ClosFabric::GetAgg: agg (" << agg << ") must be below " << m_shape.aggsPerPod);
    return NodeAt(m_firstSpine + pod * m_shape.aggsPerPod + agg, "GetAgg");
}

Ptr<Node>
ClosFabric::GetCore(uint32_t core) const
{
    NS_ABORT_MSG_IF(core >= m_shape.cores,
                    "ClosFabric::GetCore: core (" << core << ") must be below " << m_shape.cores
                                                  << " (a 2-tier fabric has no cores)");
    return NodeAt(m_firstCore + core, "GetCore");
}

uint32_t
ClosFabric::IndexOf(Ptr<Node> node, const char* what) const
{
    NS_ABORT_MSG_IF(!node, "ClosFabric: " << what << " is null");
    auto it = m_nodeIdToIndex.find(node->GetId());
    NS_ABORT_MSG_IF(it == m_nodeIdToIndex.end(),
                    "ClosFabric: " << what << " (node " << node->GetId()
                                   << ") is not a node of this fabric");
    return it->second;
}

ClosFabric::Role
ClosFabric::GetRole(Ptr<Node> node) const
{
    const ClosFabric* owner = NodeOwner(node);
    return owner->m_roles[owner->IndexOf(node, "node")];
}

std::string
ClosFabric::GetNodeName(Ptr<Node> node) const
{
    const ClosFabric* owner = NodeOwner(node);
    if (owner != this)
    {
        return owner->GetNodeName(node);
    }
    uint32_t i = IndexOf(node, "node");
    std::ostringstream os;
    if (m_planeIndex > 0 && m_roles[i] != HOST)
    {
        os << "p" << m_planeIndex << ".";
    }
    switch (m_roles[i])
    {
    case HOST:
        os << "host" << i;
        break;
    case LEAF:
        os << "leaf" << i - m_firstLeaf;
        break;
    case SPINE:
        os << "spine" << i - m_firstSpine;
        break;
    case AGG:
        os << "agg" << (i - m_firstSpine) / m_shape.aggsPerPod << "."
           << (i - m_firstSpine) % m_shape.aggsPerPod;
        break;
    case CORE:
        os << "core" << i - m_firstCore;
        break;
    }
    return os.str();
}

uint32_t
ClosFabric::FindLink(Ptr<Node> a, Ptr<Node> b, uint32_t k) const
{
    if (!m_extraPlanes.empty() && a && b)
    {
        // The plane of the switch end (a host is in every plane).
        ClosFabric* owner = NodeOwner(a);
        if (owner == this)
        {
            owner = NodeOwner(b);
        }
        if (owner != this)
        {
            uint32_t link = owner->FindOwnLink(a, b, k);
            return link == NO_LINK ? NO_LINK : owner->m_linkOffset + link;
        }
    }
    return FindOwnLink(a, b, k);
}

uint32_t
ClosFabric::FindOwnLink(Ptr<Node> a, Ptr<Node> b, uint32_t k) const
{
    uint32_t ia = IndexOf(a, "node a");
    uint32_t ib = IndexOf(b, "node b");
    uint32_t seen = 0;
    for (uint32_t link : m_routes.GetNodeLinks(ia))
    {
        const Link& l = m_links[link];
        if ((l.node[0] == ia && l.node[1] == ib) || (l.node[0] == ib && l.node[1] == ia))
        {
            if (seen++ == k)
            {
                return link;
            }
        }
    }
    return NO_LINK;
}

uint32_t
ClosFabric::GetHostLink(uint32_t host) const
{
    NS_ABORT_MSG_IF(host >= GetNHosts(),
                    "ClosFabric::GetHostLink: host (" << host << ") must be below " << GetNHosts());
    const std::vector<uint32_t>& links = m_routes.GetNodeLinks(host);
    NS_ABORT_MSG_IF(links.empty(), "ClosFabric::GetHostLink: host " << host << " has no link yet");
    return links.front();
}

uint32_t
ClosFabric::GetLeafSpineLink(uint32_t leaf, uint32_t spine, uint32_t k) const
{
    NS_ABORT_MSG_IF(k >= m_shape.parallelLinks,
                    "ClosFabric::GetLeafSpineLink: k (" << k << ") must be below "
                                                        << m_shape.parallelLinks);
    return FindLink(GetLeaf(leaf), GetSpine(spine), k);
}

uint32_t
ClosFabric::GetLeafAggLink(uint32_t leaf, uint32_t agg, uint32_t k) const
{
    NS_ABORT_MSG_IF(k >= m_shape.parallelLinks,
                    "ClosFabric::GetLeafAggLink: k (" << k << ") must be below "
                                                      << m_shape.parallelLinks);
    return FindLink(GetLeaf(leaf), GetAgg(leaf / m_shape.leavesPerPod, agg), k);
}

uint32_t
ClosFabric::GetAggCoreLink(uint32_t pod, uint32_t agg, uint32_t core, uint32_t k) const
{
    NS_ABORT_MSG_IF(k >= m_shape.parallelLinks,
                    "ClosFabric::GetAggCoreLink: k (" << k << ") must be below "
                                                      << m_shape.parallelLinks);
    uint32_t link = FindLink(GetAgg(pod, agg), GetCore(core), k);
    NS_ABORT_MSG_IF(link == NO_LINK,
                    "ClosFabric::GetAggCoreLink: core (" << core << ") is not linked to agg " << pod
                                                         << "." << agg);
    return link;
}

std::vector<uint32_t>
ClosFabric::GetLinks(Tier tier) const
{
    std::vector<uint32_t> links;
    for (uint32_t i = 0; i < m_links.size(); i++)
    {
        if (m_links[i].tier == tier)
        {
            links.push_back(i);
        }
    }
    for (const auto& plane : m_extraPlanes)
    {
        for (uint32_t link : plane->GetLinks(tier))
        {
            links.push_back(plane->m_linkOffset + link);
        }
    }
    return links;
}

std::string
ClosFabric::ValidateLink(uint32_t link) const
{
    if (link == NO_LINK)
    {
        return "link: NO_LINK (the two nodes are not linked) is not a link of the fabric";
    }
    if (link >= GetNLinks())
    {
        std::ostringstream os;
        os << "link (" << link << ") must be below the number of links (" << GetNLinks() << ")";
        return os.str();
    }
    return "";
}

void
ClosFabric::CheckLink(uint32_t link, const char* caller) const
{
    std::string error = ValidateLink(link);
    NS_ABORT_MSG_IF(!error.empty(), "ClosFabric::" << caller << ": " << error);
}

ClosFabric::Tier
ClosFabric::GetLinkTier(uint32_t link) const
{
    CheckLink(link, "GetLinkTier");
    if (ClosFabric* owner = LinkOwner(link); owner != this)
    {
        return owner->GetLinkTier(link);
    }
    return m_links[link].tier;
}

Ptr<Node>
ClosFabric::GetLinkNode(uint32_t link, uint32_t side) const
{
    CheckLink(link, "GetLinkNode");
    if (ClosFabric* owner = LinkOwner(link); owner != this)
    {
        return owner->GetLinkNode(link, side);
    }
    NS_ABORT_MSG_IF(side > 1, "ClosFabric::GetLinkNode: side must be 0 or 1");
    return m_nodes[m_links[link].node[side]];
}

Ptr<PointToPointNetDevice>
ClosFabric::GetLinkDevice(uint32_t link, uint32_t side) const
{
    CheckLink(link, "GetLinkDevice");
    if (ClosFabric* owner = LinkOwner(link); owner != this)
    {
        return owner->GetLinkDevice(link, side);
    }
    NS_ABORT_MSG_IF(side > 1, "ClosFabric::GetLinkDevice: side must be 0 or 1");
    return m_links[link].device[side];
}

std::string
ClosFabric::GetLinkName(uint32_t link) const
{
    CheckLink(link, "GetLinkName");
    if (ClosFabric* owner = LinkOwner(link); owner != this)
    {
        return owner->GetLinkName(link);
    }
    const Link& l = m_links[link];
    std::string name = GetNodeName(m_nodes[l.node[0]]) + "-" + GetNodeName(m_nodes[l.node[1]]);
    if (m_shape.parallelLinks > 1 && l.tier != HOST_LEAF)
    {
        name += "#" + std::to_string(l.parallelIndex);
    }
    return name;
}

bool
ClosFabric::IsLinkUp(uint32_t link) const
{
    CheckLink(link, "IsLinkUp");
    if (ClosFabric* owner = LinkOwner(link); owner != this)
    {
        return owner->IsLinkUp(link);
    }
    return m_links[link].up;
}

bool
ClosFabric::IsLinkRouted(uint32_t link) const
{
    CheckLink(link, "IsLinkRouted");
    if (ClosFabric* owner = LinkOwner(link); owner != this)
    {
        return owner->IsLinkRouted(link);
    }
    return m_routes.IsRouted(link);
}

DataRate
ClosFabric::GetLinkRate(uint32_t link) const
{
    CheckLink(link, "GetLinkRate");
    if (ClosFabric* owner = LinkOwner(link); owner != this)
    {
        return owner->GetLinkRate(link);
    }
    DataRateValue v;
    m_links[link].device[0]->GetAttribute("DataRate", v);
    return v.Get();
}

Time
ClosFabric::GetLinkDelay(uint32_t link) const
{
    CheckLink(link, "GetLinkDelay");
    if (ClosFabric* owner = LinkOwner(link); owner != this)
    {
        return owner->GetLinkDelay(link);
    }
    TimeValue v;
    m_links[link].device[0]->GetChannel()->GetAttribute("Delay", v);
    return v.Get();
}

ClosFabric::LinkCounters
ClosFabric::GetLinkCounters(uint32_t link, uint32_t direction) const
{
    CheckLink(link, "GetLinkCounters");
    if (ClosFabric* owner = LinkOwner(link); owner != this)
    {
        return owner->GetLinkCounters(link, direction);
    }
    NS_ABORT_MSG_IF(direction > 1, "ClosFabric::GetLinkCounters: direction must be 0 or 1");
    // Direction 0 ends at side 1, whose receive error model counts it.
    const Ptr<FabricLinkErrorModel>& em = m_links[link].receiver[1 - direction];
    LinkCounters c;
    c.packets = em->GetRxPackets();
    c.bytes = em->GetRxBytes();
    c.droppedPackets = em->GetDroppedPackets();
    c.droppedBytes = em->GetDroppedBytes();
    return c;
}

Ptr<QueueDisc>
ClosFabric::GetQueueDisc(uint32_t link, uint32_t side) const
{
    CheckLink(link, "GetQueueDisc");
    if (ClosFabric* owner = LinkOwner(link); owner != this)
    {
        return owner->GetQueueDisc(link, side);
    }
    NS_ABORT_MSG_IF(side > 1, "ClosFabric::GetQueueDisc: side must be 0 or 1");
    Ptr<NetDevice> dev = m_links[link].device[side];
    Ptr<TrafficControlLayer> tc = dev->GetNode()->GetObject<TrafficControlLayer>();
    return tc ? tc->GetRootQueueDiscOnDevice(dev) : nullptr;
}

ClosFabric::QueueStats
ClosFabric::GetQueueStats(uint32_t link, uint32_t side) const
{
    QueueStats s;
    Ptr<QueueDisc> qd = GetQueueDisc(link, side);
    if (!qd)
    {
        return s;
    }
    s.hasQueueDisc = true;
    const QueueDisc::Stats& st = qd->GetStats();
    s.enqueued = st.nTotalEnqueuedPackets;
    s.marks = st.nTotalMarkedPackets;
    s.drops = st.nTotalDroppedPackets;
    Ptr<EcnQueueDisc> ecn = DynamicCast<EcnQueueDisc>(qd);
    if (ecn)
    {
        const EcnQueueDisc::Counters& c = ecn->GetCounters();
        s.hasDepth = true;
        s.trims = c.trims;
        s.maxPackets = c.maxPackets;
        s.maxBytes = c.maxBytes;
        s.averagePackets = ecn->GetAveragePackets();
        s.averageBytes = ecn->GetAverageBytes();
    }
    return s;
}

uint32_t
ClosFabric::PortOf(uint32_t node, uint32_t link) const
{
    const Link& l = m_links[link];
    return l.node[0] == node ? l.port[0] : l.port[1];
}

uint64_t
ClosFabric::RecomputeRoutes()
{
    NS_LOG_FUNCTION(this);
    NS_ABORT_MSG_IF(!m_finished, "ClosFabric::RecomputeRoutes: call Finish() first");
    uint64_t unreachable = m_routes.Compute();
    for (uint32_t s = GetNHosts(); s < m_nodes.size(); s++)
    {
        m_switches[s]->SetRoutes(m_routes.GetHostToSet(s), m_routes.GetSets(s));
    }
    NS_LOG_DEBUG("routes recomputed, " << unreachable << " (switch, host) pairs unreachable");
    return unreachable;
}

const ClosRoutes&
ClosFabric::GetRoutes() const
{
    return m_routes;
}

std::vector<uint32_t>
ClosFabric::GetRoutedPath(uint32_t src, uint32_t dst) const
{
    NS_ABORT_MSG_IF(src >= GetNHosts() || dst >= GetNHosts(),
                    "ClosFabric::GetRoutedPath: src (" << src << ") and dst (" << dst
                                                       << ") must be below " << GetNHosts());
    std::vector<uint32_t> path;
    if (src == dst)
    {
        return path;
    }
    uint32_t link = GetHostLink(src);
    uint32_t node = src;
    for (uint32_t hops = 0; hops <= m_nodes.size(); hops++)
    {
        path.push_back(link);
        const Link& l = m_links[link];
        node = l.node[0] == node ? l.node[1] : l.node[0];
        if (node == dst)
        {
            return path;
        }
        if (node < GetNHosts())
        {
            break;
        }
        std::vector<uint32_t> hopsToDst = m_switches[node]->GetNextHops(dst);
        if (hopsToDst.empty())
        {
            break;
        }
        link = m_portLinks[node][hopsToDst.front()];
    }
    return {};
}

Time
ClosFabric::GetBaseRtt(uint32_t src, uint32_t dst, uint32_t packetBytes, uint32_t ackBytes) const
{
    NS_ABORT_MSG_IF(src >= GetNHosts() || dst >= GetNHosts(),
                    "ClosFabric::GetBaseRtt: src (" << src << ") and dst (" << dst
                                                    << ") must be below " << GetNHosts());
    NS_ABORT_MSG_IF(src == dst, "ClosFabric::GetBaseRtt: src and dst must differ");
    constexpr uint32_t ppp = 2;
    const std::vector<uint32_t> path = GetRoutedPath(src, dst);
    if (path.empty())
    {
        return Time::Max();
    }
    Time rtt(0);
    for (uint32_t link : path)
    {
        DataRate rate = GetLinkRate(link);
        rtt += 2 * GetLinkDelay(link) + rate.CalculateBytesTxTime(packetBytes + ppp) +
               rate.CalculateBytesTxTime(ackBytes + ppp);
    }
    return rtt;
}

uint64_t
ClosFabric::GetNEqualCostPaths(uint32_t src, uint32_t dst) const
{
    NS_ABORT_MSG_IF(src >= GetNHosts() || dst >= GetNHosts(),
                    "ClosFabric::GetNEqualCostPaths: src (" << src << ") and dst (" << dst
                                                            << ") must be below " << GetNHosts());
    if (src == dst)
    {
        return 1;
    }
    // Paths from every switch to dst, by memoized depth-first search over the next-hop sets
    // (they form a DAG: each hop lowers the distance to the destination leaf).
    std::vector<int64_t> memo(m_nodes.size(), -1);
    std::function<uint64_t(uint32_t, uint32_t)> count = [&](uint32_t node,
                                                            uint32_t depth) -> uint64_t {
        if (node == dst)
        {
            return 1;
        }
        if (node < GetNHosts() || depth > m_nodes.size())
        {
            return 0;
        }
        if (memo[node] >= 0)
        {
            return memo[node];
        }
        uint64_t total = 0;
        for (uint32_t port : m_switches[node]->GetNextHops(dst))
        {
            const Link& l = m_links[m_portLinks[node][port]];
            total += count(l.node[0] == node ? l.node[1] : l.node[0], depth + 1);
        }
        memo[node] = total;
        return total;
    };
    const Link& first = m_links[GetHostLink(src)];
    return count(first.node[1], 0);
}

DataRate
ClosFabric::GetBisectionBandwidth() const
{
    double tierTotal[4] = {0, 0, 0, 0};
    for (uint32_t i = 0; i < m_links.size(); i++)
    {
        tierTotal[m_links[i].tier] += static_cast<double>(GetLinkRate(i).GetBitRate());
    }
    double best = tierTotal[HOST_LEAF] / 2;
    if (GetNLeaves() > 1)
    {
        best = std::min(best, (tierTotal[LEAF_SPINE] + tierTotal[LEAF_AGG]) / 2);
    }
    if (m_shape.tiers == 3 && m_shape.pods > 1)
    {
        best = std::min(best, tierTotal[AGG_CORE] / 2);
    }
    for (const auto& plane : m_extraPlanes)
    {
        best += static_cast<double>(plane->GetBisectionBandwidth().GetBitRate());
    }
    return DataRate(static_cast<uint64_t>(best));
}

double
ClosFabric::GetOversubscription(Tier tier) const
{
    if (tier == LEAF_SPINE || tier == LEAF_AGG)
    {
        uint32_t uplinks =
            (m_shape.tiers == 2 ? m_shape.spines : m_shape.aggsPerPod) * m_shape.parallelLinks;
        DataRate up = m_shape.leafUplinkRate;
        return static_cast<double>(m_shape.hostsPerLeaf) * m_shape.hostRate.GetBitRate() /
               (static_cast<double>(uplinks) * up.GetBitRate());
    }
    if (tier == AGG_CORE && m_shape.tiers == 3)
    {
        double down = static_cast<double>(m_shape.leavesPerPod) * m_shape.parallelLinks *
                      m_shape.leafUplinkRate.GetBitRate();
        double up = static_cast<double>(m_shape.cores / m_shape.aggsPerPod) *
                    m_shape.parallelLinks * m_shape.aggUplinkRate.GetBitRate();
        return down / up;
    }
    return 1.0;
}

void
ClosFabric::PrintSummary(std::ostream& os) const
{
    uint32_t nHosts = GetNHosts();
    os << "Clos fabric, " << m_shape.tiers << " tiers: " << nHosts << " hosts, " << GetNLeaves()
       << " leaves x " << m_shape.hostsPerLeaf << " hosts";
    if (m_shape.tiers == 2)
    {
        os << ", " << m_shape.spines << " spines";
    }
    else
    {
        os << ", " << m_shape.pods << " pods x (" << m_shape.leavesPerPod << " leaves + "
           << m_shape.aggsPerPod << " aggs), " << m_shape.cores << " cores";
    }
    os << ", " << GetNSwitches() << " switches, " << GetNLinks() << " links";
    if (m_shape.parallelLinks > 1)
    {
        os << " (" << m_shape.parallelLinks << " parallel links between linked switches)";
    }
    os << "\n";
    if (GetNPlanes() > 1)
    {
        os << "  " << GetNPlanes() << " planes (each host has one port per plane; plane p's "
           << "switches are named p<p>.<name>, plane 0's without prefix): host 0 is";
        for (uint32_t p = 0; p < GetNPlanes(); p++)
        {
            os << (p == 0 ? " " : ", ") << GetHostAddress(0, p);
        }
        os << "\n";
    }
    os << "  host links " << m_shape.hostRate.GetBitRate() / 1e9 << " Gb/s";
    if (m_shape.tiers == 2)
    {
        os << ", leaf-spine " << m_shape.leafUplinkRate.GetBitRate() / 1e9
           << " Gb/s, oversubscription " << GetOversubscription(LEAF_SPINE) << ":1";
    }
    else
    {
        os << ", leaf-agg " << m_shape.leafUplinkRate.GetBitRate() / 1e9
           << " Gb/s (oversubscription " << GetOversubscription(LEAF_AGG) << ":1), agg-core "
           << m_shape.aggUplinkRate.GetBitRate() / 1e9 << " Gb/s (oversubscription "
           << GetOversubscription(AGG_CORE) << ":1)";
    }
    os << "\n";
    os << "  bisection bandwidth " << GetBisectionBandwidth().GetBitRate() / 1e9 << " Gb/s\n";
    if (nHosts > 1)
    {
        uint32_t dst = nHosts - 1;
        os << "  host 0 -> host " << dst << " (leaf " << GetLeafOfHost(dst) << ", pod "
           << GetPodOfHost(dst) << "): base RTT " << GetBaseRtt(0, dst).GetNanoSeconds() / 1e3
           << " us (4096-byte packet, 64-byte ACK), " << GetNEqualCostPaths(0, dst)
           << " equal-cost paths\n";
    }
    os << "  routing convergence delay: ";
    if (m_convergenceDelay == Time::Max())
    {
        os << "never (failed links blackhole)\n";
    }
    else
    {
        os << m_convergenceDelay.GetNanoSeconds() / 1e3 << " us\n";
    }
}

void
ClosFabric::PrintLinkLoad(std::ostream& os, Time duration, bool hostLinks) const
{
    double seconds = duration.GetSeconds();
    os << std::left << std::setw(24) << "link" << std::right << std::setw(10) << "Gb/s"
       << std::setw(12) << "up MB" << std::setw(8) << "up %" << std::setw(12) << "down MB"
       << std::setw(8) << "down %" << std::setw(10) << "lost" << std::setw(10) << "marks"
       << std::setw(10) << "drops" << std::setw(10) << "maxq"
       << "\n";
    for (uint32_t i = 0; i < GetNLinks(); i++)
    {
        if (GetLinkTier(i) == HOST_LEAF && !hostLinks)
        {
            continue;
        }
        double rate = static_cast<double>(GetLinkRate(i).GetBitRate());
        LinkCounters up = GetLinkCounters(i, 0);
        LinkCounters down = GetLinkCounters(i, 1);
        QueueStats q0 = GetQueueStats(i, 0);
        QueueStats q1 = GetQueueStats(i, 1);
        auto util = [&](uint64_t bytes) {
            return seconds > 0 ? 100.0 * bytes * 8 / (rate * seconds) : 0.0;
        };
        os << std::left << std::setw(24) << GetLinkName(i) << std::right << std::setw(10)
           << rate / 1e9 << std::setw(12) << std::fixed << std::setprecision(3) << up.bytes / 1e6
           << std::setw(8) << std::setprecision(1) << util(up.bytes) << std::setw(12)
           << std::setprecision(3) << down.bytes / 1e6 << std::setw(8) << std::setprecision(1)
           << util(down.bytes) << std::setw(10) << up.droppedPackets + down.droppedPackets
           << std::setw(10) << q0.marks + q1.marks << std::setw(10) << q0.drops + q1.drops
           << std::setw(10) << std::max(q0.maxPackets, q1.maxPackets) << "\n";
        os << std::defaultfloat << std::setprecision(6);
    }
}

void
ClosFabric::SetLinkState(uint32_t link, bool up)
{
    NS_LOG_FUNCTION(this << link << up);
    Link& l = m_links[link];
    if (l.up == up)
    {
        return;
    }
    l.up = up;
    l.receiver[0]->SetDown(!up);
    l.receiver[1]->SetDown(!up);
    m_linkStateTrace(link, up);
    if (m_plane0 != nullptr)
    {
        m_plane0->m_linkStateTrace(m_linkOffset + link, up);
    }
    if (m_convergenceDelay != Time::Max())
    {
        Simulator::Schedule(m_convergenceDelay,
                            &ClosFabric::SetRouteState,
                            Ptr<ClosFabric>(this),
                            link,
                            up);
    }
}

void
ClosFabric::SetRouteState(uint32_t link, bool up)
{
    NS_LOG_FUNCTION(this << link << up);
    if (m_routes.IsRouted(link) == up)
    {
        return;
    }
    m_routes.SetRouted(link, up);
    m_routeStateTrace(link, up);
    if (m_plane0 != nullptr)
    {
        m_plane0->m_routeStateTrace(m_linkOffset + link, up);
    }
    // Links that change state at the same instant (a switch, a plane) share one recomputation.
    if (!m_recomputePending)
    {
        m_recomputePending = true;
        Simulator::ScheduleNow(&ClosFabric::RecomputePendingRoutes, Ptr<ClosFabric>(this));
    }
}

void
ClosFabric::RecomputePendingRoutes()
{
    NS_LOG_FUNCTION(this);
    m_recomputePending = false;
    RecomputeRoutes();
}

void
ClosFabric::SetLinkRate(uint32_t link, DataRate rate)
{
    NS_LOG_FUNCTION(this << link << rate);
    m_links[link].device[0]->SetDataRate(rate);
    m_links[link].device[1]->SetDataRate(rate);
}

void
ClosFabric::FailLink(uint32_t link, Time at, Time upAt)
{
    NS_LOG_FUNCTION(this << link << at << upAt);
    CheckLink(link, "FailLink");
    if (ClosFabric* owner = LinkOwner(link); owner != this)
    {
        owner->FailLink(link, at, upAt);
        return;
    }
    Time now = Simulator::Now();
    NS_ABORT_MSG_IF(at < now,
                    "ClosFabric::FailLink: at (" << at.As(Time::US) << ") must not be in the past");
    NS_ABORT_MSG_IF(upAt <= at,
                    "ClosFabric::FailLink: upAt (" << upAt.As(Time::US) << ") must be after at ("
                                                   << at.As(Time::US) << ")");
    Simulator::Schedule(at - now, &ClosFabric::SetLinkState, Ptr<ClosFabric>(this), link, false);
    if (upAt != Time::Max())
    {
        Simulator::Schedule(upAt - now,
                            &ClosFabric::SetLinkState,
                            Ptr<ClosFabric>(this),
                            link,
                            true);
    }
}

void
ClosFabric::DegradeLink(uint32_t link, DataRate rate, Time at)
{
    NS_LOG_FUNCTION(this << link << rate << at);
    CheckLink(link, "DegradeLink");
    if (ClosFabric* owner = LinkOwner(link); owner != this)
    {
        owner->DegradeLink(link, rate, at);
        return;
    }
    NS_ABORT_MSG_IF(rate.GetBitRate() == 0, "ClosFabric::DegradeLink: rate must be positive");
    Time now = Simulator::Now();
    if (at <= now)
    {
        SetLinkRate(link, rate);
    }
    else
    {
        Simulator::Schedule(at - now, &ClosFabric::SetLinkRate, Ptr<ClosFabric>(this), link, rate);
    }
}

} // namespace ns3
