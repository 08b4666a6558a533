/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "clos-plane.h"

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
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ClosPlane");

NS_OBJECT_ENSURE_REGISTERED(ClosPlane);

TypeId
ClosPlane::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::ClosPlane")
            .SetParent<Object>()
            .SetGroupName("Reps")
            .AddConstructor<ClosPlane>()
            .AddAttribute("RoutingConvergenceDelay",
                          "Time between a link of the plane changing state and every switch's "
                          "tables reflecting it; Time::Max() (the default) means never: a failed "
                          "link stays in the tables and blackholes the flows hashed onto it.",
                          TimeValue(Time::Max()),
                          MakeTimeAccessor(&ClosPlane::m_convergenceDelay),
                          MakeTimeChecker(Seconds(0), Time::Max()))
            .AddTraceSource("LinkState",
                            "A link of the plane (its own number) went down or came back up "
                            "(both directions).",
                            MakeTraceSourceAccessor(&ClosPlane::m_linkStateTrace),
                            "ns3::ClosPlane::LinkStateTracedCallback")
            .AddTraceSource("RouteState",
                            "Routing removed a link from, or restored it to, the switches' "
                            "tables (the tables are recomputed right after).",
                            MakeTraceSourceAccessor(&ClosPlane::m_routeStateTrace),
                            "ns3::ClosPlane::LinkStateTracedCallback");
    return tid;
}

ClosPlane::ClosPlane()
    : m_nNodes(0),
      m_finished(false),
      m_planeIndex(0),
      m_firstLeaf(0),
      m_firstSpine(0),
      m_firstCore(0),
      m_convergenceDelay(Time::Max()),
      m_recomputePending(false)
{
    NS_LOG_FUNCTION(this);
}

ClosPlane::~ClosPlane()
{
    NS_LOG_FUNCTION(this);
}

void
ClosPlane::DoDispose()
{
    NS_LOG_FUNCTION(this);
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
TierName(ClosPlane::Tier tier)
{
    switch (tier)
    {
    case ClosPlane::HOST_LEAF:
        return "HOST_LEAF";
    case ClosPlane::LEAF_SPINE:
        return "LEAF_SPINE";
    case ClosPlane::LEAF_AGG:
        return "LEAF_AGG";
    case ClosPlane::AGG_CORE:
        return "AGG_CORE";
    }
    return "?";
}

/**
 * \param role a role
 * \return its name, for messages
 */
const char*
RoleName(ClosPlane::Role role)
{
    switch (role)
    {
    case ClosPlane::HOST:
        return "HOST";
    case ClosPlane::LEAF:
        return "LEAF";
    case ClosPlane::SPINE:
        return "SPINE";
    case ClosPlane::AGG:
        return "AGG";
    case ClosPlane::CORE:
        return "CORE";
    }
    return "?";
}

} // namespace

std::string
ClosPlane::ValidateShape(const Shape& shape)
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
    else if (shape.rails == 0 || shape.leavesPerPod % shape.rails != 0)
    {
        os << "leavesPerPod (" << shape.leavesPerPod << ") must be a multiple of rails ("
           << shape.rails << ")";
    }
    else if (shape.tiers == 2 &&
             ((shape.spines == 0 && !(shape.rails > 1 && shape.leavesPerPod == shape.rails)) ||
              shape.pods != 1 || shape.aggsPerPod != 0 || shape.cores != 0))
    {
        os << "a 2-tier shape has spines (>= 1; none only with one leaf per rail, a rail-only "
              "shape), one pod, no aggsPerPod and no cores";
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
ClosPlane::SetShape(const Shape& shape)
{
    NS_LOG_FUNCTION(this);
    NS_ABORT_MSG_IF(!m_nodes.empty(), "ClosPlane::SetShape: nodes have been added already");
    std::string error = ValidateShape(shape);
    NS_ABORT_MSG_IF(!error.empty(), "ClosPlane::SetShape: " << error);
    m_shape = shape;
    const uint32_t middle = shape.tiers == 2 ? shape.spines : shape.pods * shape.aggsPerPod;
    m_firstLeaf = GetNHosts();
    m_firstSpine = m_firstLeaf + GetNLeaves();
    m_firstCore = m_firstSpine + middle;
    m_nNodes = m_firstCore + shape.cores;
    m_routes = ClosRoutes(GetNHosts(), m_nNodes - GetNHosts());
    m_portLinks.assign(m_nNodes, {});
}

const ClosPlane::Shape&
ClosPlane::GetShape() const
{
    return m_shape;
}

ClosPlane::Role
ClosPlane::GetRoleOfIndex(uint32_t index) const
{
    NS_ABORT_MSG_IF(index >= m_nNodes,
                    "ClosPlane::GetRoleOfIndex: index (" << index << ") must be below "
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
ClosPlane::ValidateNewNode(Ptr<Node> node, Role role) const
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
        os << "node " << node->GetId() << " is in the plane already";
    }
    else if (role != GetRoleOfIndex(index))
    {
        os << "node " << index << " must be a " << RoleName(GetRoleOfIndex(index)) << ", not a "
           << RoleName(role) << " (hosts, leaves, spines or aggregation switches, cores)";
    }
    return os.str();
}

uint32_t
ClosPlane::AddNode(Ptr<Node> node, Role role)
{
    NS_LOG_FUNCTION(this << node << role);
    std::string error = ValidateNewNode(node, role);
    NS_ABORT_MSG_IF(!error.empty(), "ClosPlane::AddNode: " << error);
    uint32_t index = m_nodes.size();
    m_nodeIdToIndex[node->GetId()] = index;
    m_nodes.push_back(node);
    m_roles.push_back(role);
    m_switches.push_back(nullptr);
    return index;
}

Ptr<Node>
ClosPlane::NodeAt(uint32_t index, const char* caller) const
{
    NS_ABORT_MSG_IF(index >= m_nodes.size(),
                    "ClosPlane::" << caller << ": node " << index << " has not been added");
    return m_nodes[index];
}

Ptr<FabricSwitch>
ClosPlane::SwitchAt(uint32_t index)
{
    if (!m_switches[index])
    {
        m_switches[index] = m_nodes[index]->GetObject<FabricSwitch>();
    }
    return m_switches[index];
}

std::string
ClosPlane::ValidateLinkEnds(Tier tier, uint32_t a, uint32_t b, uint32_t k) const
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
        wired = b - m_firstLeaf == GetLeafOfHost(a);
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
ClosPlane::ValidateNewLink(Tier tier,
                           Ptr<PointToPointNetDevice> side0,
                           Ptr<PointToPointNetDevice> side1,
                           uint32_t k) const
{
    if (m_finished)
    {
        return "the plane is finished";
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
            return "the node of side" + std::to_string(side) + " is not a node of this plane";
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
ClosPlane::AddLink(Tier tier,
                   Ptr<PointToPointNetDevice> side0,
                   Ptr<PointToPointNetDevice> side1,
                   uint32_t k)
{
    NS_LOG_FUNCTION(this << tier << side0 << side1 << k);
    std::string error = ValidateNewLink(tier, side0, side1, k);
    NS_ABORT_MSG_IF(!error.empty(), "ClosPlane::AddLink: " << error);
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
    if (tier == HOST_LEAF)
    {
        // The leaf's port toward the host is the last hop of what the host receives.
        const uint32_t leafSide = m_roles[link.node[0]] == HOST ? 1 : 0;
        Ptr<EcnQueueDisc> queue = DynamicCast<EcnQueueDisc>(
            SwitchAt(link.node[leafSide])->GetPortQueueDisc(link.port[leafSide]));
        if (queue)
        {
            queue->SetLastHop(true);
        }
    }
    m_routes.AddLink(link.node[0], link.port[0], link.node[1], link.port[1]);
    m_links.push_back(link);
    return id;
}

std::string
ClosPlane::ValidateWiring() const
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
ClosPlane::Finish()
{
    NS_LOG_FUNCTION(this);
    NS_ABORT_MSG_IF(m_finished, "ClosPlane::Finish: called twice");
    std::string error = ValidateWiring();
    NS_ABORT_MSG_IF(!error.empty(), "ClosPlane::Finish: " << error);
    for (uint32_t s = GetNHosts(); s < m_nodes.size(); s++)
    {
        SwitchAt(s)->SetHostAddressing(m_shape.addressBase, GetNHosts());
    }
    m_finished = true;
    RecomputeRoutes();
}

bool
ClosPlane::IsFinished() const
{
    return m_finished;
}

void
ClosPlane::SetPlaneIndex(uint32_t index)
{
    NS_LOG_FUNCTION(this << index);
    m_planeIndex = index;
}

uint32_t
ClosPlane::GetPlaneIndex() const
{
    return m_planeIndex;
}

uint32_t
ClosPlane::GetNTiers() const
{
    return m_shape.tiers;
}

uint32_t
ClosPlane::GetNHosts() const
{
    return GetNLeaves() * m_shape.hostsPerLeaf;
}

uint32_t
ClosPlane::GetNLeaves() const
{
    return m_shape.pods * m_shape.leavesPerPod;
}

uint32_t
ClosPlane::GetNHostsPerLeaf() const
{
    return m_shape.hostsPerLeaf;
}

uint32_t
ClosPlane::GetNRails() const
{
    return m_shape.rails;
}

uint32_t
ClosPlane::GetNSpines() const
{
    return m_shape.spines;
}

uint32_t
ClosPlane::GetNPods() const
{
    return m_shape.pods;
}

uint32_t
ClosPlane::GetNLeavesPerPod() const
{
    return m_shape.leavesPerPod;
}

uint32_t
ClosPlane::GetNAggsPerPod() const
{
    return m_shape.aggsPerPod;
}

uint32_t
ClosPlane::GetNCores() const
{
    return m_shape.cores;
}

uint32_t
ClosPlane::GetNParallelLinks() const
{
    return m_shape.parallelLinks;
}

uint32_t
ClosPlane::GetNSwitches() const
{
    return m_nNodes - GetNHosts();
}

uint32_t
ClosPlane::GetNLinks() const
{
    return m_links.size();
}

Ptr<Node>
ClosPlane::GetHost(uint32_t host) const
{
    NS_ABORT_MSG_IF(host >= GetNHosts(),
                    "ClosPlane::GetHost: host (" << host << ") must be below " << GetNHosts());
    return NodeAt(host, "GetHost");
}

Ipv4Address
ClosPlane::GetHostAddress(uint32_t host) const
{
    NS_ABORT_MSG_IF(host >= GetNHosts(),
                    "ClosPlane::GetHostAddress: host (" << host << ") must be below "
                                                        << GetNHosts());
    return Ipv4Address(m_shape.addressBase.Get() + 1 + host);
}

uint32_t
ClosPlane::GetHostIndex(Ipv4Address address) const
{
    const uint32_t host = address.Get() - m_shape.addressBase.Get() - 1;
    return host < GetNHosts() ? host : GetNHosts();
}

uint32_t
ClosPlane::GetLeafOfHost(uint32_t host) const
{
    NS_ABORT_MSG_IF(host >= GetNHosts(),
                    "ClosPlane::GetLeafOfHost: host (" << host << ") must be below "
                                                       << GetNHosts());
    // With one rail this is host / hostsPerLeaf: the hosts fill the leaves in order.
    const uint32_t rails = m_shape.rails;
    const uint32_t server = host / rails;
    return server / m_shape.hostsPerLeaf * rails + host % rails;
}

uint32_t
ClosPlane::GetPodOfHost(uint32_t host) const
{
    return GetLeafOfHost(host) / m_shape.leavesPerPod;
}

NodeContainer
ClosPlane::GetHosts() const
{
    NodeContainer c;
    for (uint32_t i = 0; i < std::min<size_t>(GetNHosts(), m_nodes.size()); i++)
    {
        c.Add(m_nodes[i]);
    }
    return c;
}

NodeContainer
ClosPlane::GetSwitches() const
{
    NodeContainer c;
    for (uint32_t i = GetNHosts(); i < m_nodes.size(); i++)
    {
        c.Add(m_nodes[i]);
    }
    return c;
}

bool
ClosPlane::HasNode(Ptr<Node> node) const
{
    return node && m_nodeIdToIndex.count(node->GetId()) != 0;
}

Ptr<Node>
ClosPlane::GetLeaf(uint32_t leaf) const
{
    NS_ABORT_MSG_IF(leaf >= GetNLeaves(),
                    "ClosPlane::GetLeaf: leaf (" << leaf << ") must be below " << GetNLeaves());
    return NodeAt(m_firstLeaf + leaf, "GetLeaf");
}

Ptr<Node>
ClosPlane::GetSpine(uint32_t spine) const
{
    NS_ABORT_MSG_IF(spine >= m_shape.spines,
                    "ClosPlane::GetSpine: spine (" << spine << ") must be below " << m_shape.spines
                                                   << " (a 3-tier fabric has no spines)");
    return NodeAt(m_firstSpine + spine, "GetSpine");
}

Ptr<Node>
ClosPlane::GetAgg(uint32_t pod, uint32_t agg) const
{
    NS_ABORT_MSG_IF(m_shape.tiers != 3,
                    "ClosPlane::GetAgg: a 2-tier fabric has no aggregation tier");
    NS_ABORT_MSG_IF(pod >= m_shape.pods,
                    "ClosPlane::GetAgg: pod (" << pod << ") must be below " << m_shape.pods);
    NS_ABORT_MSG_IF(agg >= m_shape.aggsPerPod,
                    "ClosPlane::GetAgg: agg (" << agg << ") must be below " << m_shape.aggsPerPod);
    return NodeAt(m_firstSpine + pod * m_shape.aggsPerPod + agg, "GetAgg");
}

Ptr<Node>
ClosPlane::GetCore(uint32_t core) const
{
    NS_ABORT_MSG_IF(core >= m_shape.cores,
                    "ClosPlane::GetCore: core (" << core << ") must be below " << m_shape.cores
                                                 << " (a 2-tier fabric has no cores)");
    return NodeAt(m_firstCore + core, "GetCore");
}

uint32_t
ClosPlane::IndexOf(Ptr<Node> node, const char* what) const
{
    NS_ABORT_MSG_IF(!node, "ClosPlane: " << what << " is null");
    auto it = m_nodeIdToIndex.find(node->GetId());
    NS_ABORT_MSG_IF(it == m_nodeIdToIndex.end(),
                    "ClosPlane: " << what << " (node " << node->GetId()
                                  << ") is not a node of plane " << m_planeIndex);
    return it->second;
}

ClosPlane::Role
ClosPlane::GetRole(Ptr<Node> node) const
{
    return m_roles[IndexOf(node, "node")];
}

std::string
ClosPlane::GetNodeName(Ptr<Node> node) const
{
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
ClosPlane::FindLink(Ptr<Node> a, Ptr<Node> b, uint32_t k) const
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
ClosPlane::GetHostLink(uint32_t host) const
{
    NS_ABORT_MSG_IF(host >= GetNHosts(),
                    "ClosPlane::GetHostLink: host (" << host << ") must be below " << GetNHosts());
    const std::vector<uint32_t>& links = m_routes.GetNodeLinks(host);
    NS_ABORT_MSG_IF(links.empty(), "ClosPlane::GetHostLink: host " << host << " has no link yet");
    return links.front();
}

uint32_t
ClosPlane::GetLeafSpineLink(uint32_t leaf, uint32_t spine, uint32_t k) const
{
    NS_ABORT_MSG_IF(k >= m_shape.parallelLinks,
                    "ClosPlane::GetLeafSpineLink: k (" << k << ") must be below "
                                                       << m_shape.parallelLinks);
    return FindLink(GetLeaf(leaf), GetSpine(spine), k);
}

uint32_t
ClosPlane::GetLeafAggLink(uint32_t leaf, uint32_t agg, uint32_t k) const
{
    NS_ABORT_MSG_IF(k >= m_shape.parallelLinks,
                    "ClosPlane::GetLeafAggLink: k (" << k << ") must be below "
                                                     << m_shape.parallelLinks);
    return FindLink(GetLeaf(leaf), GetAgg(leaf / m_shape.leavesPerPod, agg), k);
}

uint32_t
ClosPlane::GetAggCoreLink(uint32_t pod, uint32_t agg, uint32_t core, uint32_t k) const
{
    NS_ABORT_MSG_IF(k >= m_shape.parallelLinks,
                    "ClosPlane::GetAggCoreLink: k (" << k << ") must be below "
                                                     << m_shape.parallelLinks);
    uint32_t link = FindLink(GetAgg(pod, agg), GetCore(core), k);
    NS_ABORT_MSG_IF(link == NO_LINK,
                    "ClosPlane::GetAggCoreLink: core (" << core << ") is not linked to agg " << pod
                                                        << "." << agg);
    return link;
}

std::vector<uint32_t>
ClosPlane::GetLinks(Tier tier) const
{
    std::vector<uint32_t> links;
    for (uint32_t i = 0; i < m_links.size(); i++)
    {
        if (m_links[i].tier == tier)
        {
            links.push_back(i);
        }
    }
    return links;
}

std::string
ClosPlane::ValidateLink(uint32_t link) const
{
    if (link == NO_LINK)
    {
        return "link: NO_LINK (the two nodes are not linked) is not a link of the plane";
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
ClosPlane::CheckLink(uint32_t link, const char* caller) const
{
    std::string error = ValidateLink(link);
    NS_ABORT_MSG_IF(!error.empty(), "ClosPlane::" << caller << ": " << error);
}

ClosPlane::Tier
ClosPlane::GetLinkTier(uint32_t link) const
{
    CheckLink(link, "GetLinkTier");
    return m_links[link].tier;
}

Ptr<Node>
ClosPlane::GetLinkNode(uint32_t link, uint32_t side) const
{
    CheckLink(link, "GetLinkNode");
    NS_ABORT_MSG_IF(side > 1, "ClosPlane::GetLinkNode: side must be 0 or 1");
    return m_nodes[m_links[link].node[side]];
}

Ptr<PointToPointNetDevice>
ClosPlane::GetLinkDevice(uint32_t link, uint32_t side) const
{
    CheckLink(link, "GetLinkDevice");
    NS_ABORT_MSG_IF(side > 1, "ClosPlane::GetLinkDevice: side must be 0 or 1");
    return m_links[link].device[side];
}

std::string
ClosPlane::GetLinkName(uint32_t link) const
{
    CheckLink(link, "GetLinkName");
    const Link& l = m_links[link];
    std::string name = GetNodeName(m_nodes[l.node[0]]) + "-" + GetNodeName(m_nodes[l.node[1]]);
    if (m_shape.parallelLinks > 1 && l.tier != HOST_LEAF)
    {
        name += "#" + std::to_string(l.parallelIndex);
    }
    return name;
}

bool
ClosPlane::IsLinkUp(uint32_t link) const
{
    CheckLink(link, "IsLinkUp");
    return m_links[link].up;
}

bool
ClosPlane::IsLinkRouted(uint32_t link) const
{
    CheckLink(link, "IsLinkRouted");
    return m_routes.IsRouted(link);
}

DataRate
ClosPlane::GetLinkRate(uint32_t link) const
{
    CheckLink(link, "GetLinkRate");
    DataRateValue v;
    m_links[link].device[0]->GetAttribute("DataRate", v);
    return v.Get();
}

Time
ClosPlane::GetLinkDelay(uint32_t link) const
{
    CheckLink(link, "GetLinkDelay");
    TimeValue v;
    m_links[link].device[0]->GetChannel()->GetAttribute("Delay", v);
    return v.Get();
}

ClosPlane::LinkCounters
ClosPlane::GetLinkCounters(uint32_t link, uint32_t direction) const
{
    CheckLink(link, "GetLinkCounters");
    NS_ABORT_MSG_IF(direction > 1, "ClosPlane::GetLinkCounters: direction must be 0 or 1");
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
ClosPlane::GetQueueDisc(uint32_t link, uint32_t side) const
{
    CheckLink(link, "GetQueueDisc");
    NS_ABORT_MSG_IF(side > 1, "ClosPlane::GetQueueDisc: side must be 0 or 1");
    Ptr<NetDevice> dev = m_links[link].device[side];
    Ptr<TrafficControlLayer> tc = dev->GetNode()->GetObject<TrafficControlLayer>();
    return tc ? tc->GetRootQueueDiscOnDevice(dev) : nullptr;
}

ClosPlane::QueueStats
ClosPlane::GetQueueStats(uint32_t link, uint32_t side) const
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

uint64_t
ClosPlane::RecomputeRoutes()
{
    NS_LOG_FUNCTION(this);
    NS_ABORT_MSG_IF(!m_finished, "ClosPlane::RecomputeRoutes: call Finish() first");
    uint64_t unreachable = m_routes.Compute();
    for (uint32_t s = GetNHosts(); s < m_nodes.size(); s++)
    {
        m_switches[s]->SetRoutes(m_routes.GetHostToSet(s), m_routes.GetSets(s));
    }
    NS_LOG_DEBUG("routes recomputed, " << unreachable << " (switch, host) pairs unreachable");
    return unreachable;
}

const ClosRoutes&
ClosPlane::GetRoutes() const
{
    return m_routes;
}

std::vector<uint32_t>
ClosPlane::GetRoutedPath(uint32_t src, uint32_t dst) const
{
    NS_ABORT_MSG_IF(src >= GetNHosts() || dst >= GetNHosts(),
                    "ClosPlane::GetRoutedPath: src (" << src << ") and dst (" << dst
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

bool
ClosPlane::KeepsEveryPairConnected(const std::set<std::pair<uint32_t, uint32_t>>& failed) const
{
    const uint32_t hosts = GetNHosts();
    // reaches[node]: -1 unknown, 0 no, 1 yes, for the current destination.
    std::vector<int8_t> reaches(m_nodes.size());
    for (uint32_t dst = 0; dst < hosts; ++dst)
    {
        std::fill(reaches.begin(), reaches.end(), -1);
        reaches[dst] = 1;
        // The next hops lower the distance to dst's leaf at every step, so the walk ends.
        std::function<bool(uint32_t)> reach = [&](uint32_t node) -> bool {
            if (reaches[node] >= 0)
            {
                return reaches[node] == 1;
            }
            reaches[node] = 0;
            if (node >= hosts)
            {
                for (uint32_t port : m_switches[node]->GetNextHops(dst))
                {
                    const uint32_t link = m_portLinks[node][port];
                    const Link& l = m_links[link];
                    const uint32_t direction = l.node[0] == node ? 0 : 1;
                    if (failed.count({link, direction}) == 0 && reach(l.node[1 - direction]))
                    {
                        reaches[node] = 1;
                        break;
                    }
                }
            }
            return reaches[node] == 1;
        };
        for (uint32_t src = 0; src < hosts; ++src)
        {
            const uint32_t link = GetHostLink(src);
            if (src != dst && (failed.count({link, 0}) != 0 || !reach(m_links[link].node[1])))
            {
                return false;
            }
        }
    }
    return true;
}

Time
ClosPlane::GetBaseRtt(uint32_t src, uint32_t dst, uint32_t packetBytes, uint32_t ackBytes) const
{
    NS_ABORT_MSG_IF(src >= GetNHosts() || dst >= GetNHosts(),
                    "ClosPlane::GetBaseRtt: src (" << src << ") and dst (" << dst
                                                   << ") must be below " << GetNHosts());
    NS_ABORT_MSG_IF(src == dst, "ClosPlane::GetBaseRtt: src and dst must differ");
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
ClosPlane::GetNEqualCostPaths(uint32_t src, uint32_t dst) const
{
    NS_ABORT_MSG_IF(src >= GetNHosts() || dst >= GetNHosts(),
                    "ClosPlane::GetNEqualCostPaths: src (" << src << ") and dst (" << dst
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
ClosPlane::GetBisectionBandwidth() const
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
    return DataRate(static_cast<uint64_t>(best));
}

double
ClosPlane::GetOversubscription(Tier tier) const
{
    if (tier == LEAF_SPINE || tier == LEAF_AGG)
    {
        uint32_t uplinks =
            (m_shape.tiers == 2 ? m_shape.spines : m_shape.aggsPerPod) * m_shape.parallelLinks;
        if (uplinks == 0)
        {
            return 0; // a rail-only plane: no up-links
        }
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

Time
ClosPlane::GetRoutingConvergenceDelay() const
{
    return m_convergenceDelay;
}

void
ClosPlane::SetLinkState(uint32_t link, bool up)
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
    if (m_convergenceDelay != Time::Max())
    {
        Simulator::Schedule(m_convergenceDelay,
                            &ClosPlane::SetRouteState,
                            Ptr<ClosPlane>(this),
                            link,
                            up);
    }
}

void
ClosPlane::SetRouteState(uint32_t link, bool up)
{
    NS_LOG_FUNCTION(this << link << up);
    if (m_routes.IsRouted(link) == up)
    {
        return;
    }
    m_routes.SetRouted(link, up);
    m_routeStateTrace(link, up);
    // Links that change state at the same instant (a switch, a plane) share one recomputation.
    if (!m_recomputePending)
    {
        m_recomputePending = true;
        Simulator::ScheduleNow(&ClosPlane::RecomputePendingRoutes, Ptr<ClosPlane>(this));
    }
}

void
ClosPlane::RecomputePendingRoutes()
{
    NS_LOG_FUNCTION(this);
    m_recomputePending = false;
    RecomputeRoutes();
}

void
ClosPlane::SetLinkRate(uint32_t link, DataRate rate)
{
    NS_LOG_FUNCTION(this << link << rate);
    m_links[link].device[0]->SetDataRate(rate);
    m_links[link].device[1]->SetDataRate(rate);
}

void
ClosPlane::FailLink(uint32_t link, Time at, Time upAt)
{
    NS_LOG_FUNCTION(this << link << at << upAt);
    CheckLink(link, "FailLink");
    Time now = Simulator::Now();
    NS_ABORT_MSG_IF(at < now,
                    "ClosPlane::FailLink: at (" << at.As(Time::US) << ") must not be in the past");
    NS_ABORT_MSG_IF(upAt <= at,
                    "ClosPlane::FailLink: upAt (" << upAt.As(Time::US) << ") must be after at ("
                                                  << at.As(Time::US) << ")");
    Simulator::Schedule(at - now, &ClosPlane::SetLinkState, Ptr<ClosPlane>(this), link, false);
    if (upAt != Time::Max())
    {
        Simulator::Schedule(upAt - now, &ClosPlane::SetLinkState, Ptr<ClosPlane>(this), link, true);
    }
}

void
ClosPlane::DegradeLink(uint32_t link, DataRate rate, Time at)
{
    NS_LOG_FUNCTION(this << link << rate << at);
    CheckLink(link, "DegradeLink");
    NS_ABORT_MSG_IF(rate.GetBitRate() == 0, "ClosPlane::DegradeLink: rate must be positive");
    Time now = Simulator::Now();
    if (at <= now)
    {
        SetLinkRate(link, rate);
    }
    else
    {
        Simulator::Schedule(at - now, &ClosPlane::SetLinkRate, Ptr<ClosPlane>(this), link, rate);
    }
}

} // namespace ns3
