/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "clos-fabric.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/queue-disc.h"

#include <algorithm>
#include <iomanip>
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
            .AddTraceSource("LinkState",
                            "A link of any plane (numbered across the planes) went down or came "
                            "back up (both directions).",
                            MakeTraceSourceAccessor(&ClosFabric::m_linkStateTrace),
                            "ns3::ClosFabric::LinkStateTracedCallback")
            .AddTraceSource("RouteState",
                            "Routing of a plane removed a link (numbered across the planes) "
                            "from, or restored it to, that plane's tables (the tables are "
                            "recomputed right after).",
                            MakeTraceSourceAccessor(&ClosFabric::m_routeStateTrace),
                            "ns3::ClosFabric::LinkStateTracedCallback");
    return tid;
}

ClosFabric::ClosFabric()
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
    for (auto& plane : m_planes)
    {
        plane->Dispose();
    }
    m_planes.clear();
    m_firstLinks.clear();
    if (m_scaleUp)
    {
        m_scaleUp->Dispose();
        m_scaleUp = nullptr;
    }
    Object::DoDispose();
}

namespace
{

/**
 * \param a a shape
 * \param b another shape
 * \return the first count (a field of ClosPlane::Shape) in which they differ, or null
 */
const char*
FirstDifference(const ClosPlane::Shape& a, const ClosPlane::Shape& b)
{
    const std::pair<const char*, uint32_t ClosPlane::Shape::*> counts[] = {
        {"tiers", &ClosPlane::Shape::tiers},
        {"hostsPerLeaf", &ClosPlane::Shape::hostsPerLeaf},
        {"pods", &ClosPlane::Shape::pods},
        {"leavesPerPod", &ClosPlane::Shape::leavesPerPod},
        {"aggsPerPod", &ClosPlane::Shape::aggsPerPod},
        {"spines", &ClosPlane::Shape::spines},
        {"cores", &ClosPlane::Shape::cores},
        {"parallelLinks", &ClosPlane::Shape::parallelLinks},
        {"rails", &ClosPlane::Shape::rails},
    };
    for (const auto& [name, field] : counts)
    {
        if (a.*field != b.*field)
        {
            return name;
        }
    }
    return nullptr;
}

} // namespace

std::string
ClosFabric::ValidateNewPlane(Ptr<ClosPlane> plane) const
{
    if (!plane || !plane->IsFinished())
    {
        return "the plane must be a finished ClosPlane (ClosPlane::Finish())";
    }
    std::ostringstream os;
    for (uint32_t p = 0; p < m_planes.size(); p++)
    {
        if (m_planes[p] == plane)
        {
            os << "the plane is plane " << p << " of this fabric already";
            return os.str();
        }
    }
    if (m_planes.empty())
    {
        return ""; // the first plane defines the shape
    }
    const ClosPlane& first = *m_planes.front();
    if (const char* field = FirstDifference(plane->GetShape(), first.GetShape()))
    {
        os << "the plane's shape differs from that of plane 0 in " << field
           << " (every plane of a fabric has the counts of plane 0)";
        return os.str();
    }
    const uint32_t hosts = first.GetNHosts();
    for (uint32_t h = 0; h < hosts; h++)
    {
        if (plane->GetHost(h) != first.GetHost(h))
        {
            os << "host " << h << " of the plane is not host " << h
               << " of plane 0 (the planes share the hosts)";
            return os.str();
        }
    }
    // GetHostIndex() takes an address of any plane: no two planes may give out the same one.
    const uint64_t mine = plane->GetShape().addressBase.Get();
    for (uint32_t p = 0; p < m_planes.size(); p++)
    {
        const uint64_t theirs = m_planes[p]->GetShape().addressBase.Get();
        if (mine < theirs + hosts && theirs < mine + hosts)
        {
            os << "the plane's host addresses (" << plane->GetHostAddress(0) << " to "
               << plane->GetHostAddress(hosts - 1) << ") overlap those of plane " << p;
            return os.str();
        }
    }
    return "";
}

void
ClosFabric::AddPlane(Ptr<ClosPlane> plane)
{
    NS_LOG_FUNCTION(this << plane);
    const std::string error = ValidateNewPlane(plane);
    NS_ABORT_MSG_IF(!error.empty(), "ClosFabric::AddPlane: " << error);
    const uint32_t first = GetNLinks();
    plane->SetPlaneIndex(m_planes.size());
    plane->TraceConnectWithoutContext("LinkState",
                                      MakeCallback(&ClosFabric::NotifyLinkState, this).Bind(first));
    plane->TraceConnectWithoutContext(
        "RouteState",
        MakeCallback(&ClosFabric::NotifyRouteState, this).Bind(first));
    m_planes.push_back(plane);
    m_firstLinks.push_back(first);
}

void
ClosFabric::NotifyLinkState(uint32_t firstLink, uint32_t link, bool up)
{
    m_linkStateTrace(firstLink + link, up);
}

void
ClosFabric::NotifyRouteState(uint32_t firstLink, uint32_t link, bool up)
{
    m_routeStateTrace(firstLink + link, up);
}

uint32_t
ClosFabric::GetNPlanes() const
{
    return m_planes.size();
}

Ptr<ClosPlane>
ClosFabric::GetPlane(uint32_t plane) const
{
    NS_ABORT_MSG_IF(plane >= GetNPlanes(),
                    "ClosFabric::GetPlane: plane (" << plane << ") must be below " << GetNPlanes());
    return m_planes[plane];
}

const ClosPlane&
ClosFabric::First(const char* caller) const
{
    NS_ABORT_MSG_IF(m_planes.empty(), "ClosFabric::" << caller << ": the fabric has no plane");
    return *m_planes.front();
}

std::pair<uint32_t, uint32_t>
ClosFabric::Locate(uint32_t link, const char* caller) const
{
    const std::string error = ValidateLink(link);
    NS_ABORT_MSG_IF(!error.empty(), "ClosFabric::" << caller << ": " << error);
    // The last plane whose first link is at or before the link.
    auto next = std::upper_bound(m_firstLinks.begin(), m_firstLinks.end(), link);
    const auto plane = static_cast<uint32_t>(std::distance(m_firstLinks.begin(), next) - 1);
    return {plane, link - m_firstLinks[plane]};
}

std::pair<const ClosPlane*, uint32_t>
ClosFabric::LocalLink(uint32_t link, const char* caller) const
{
    const auto [plane, local] = Locate(link, caller);
    return {PeekPointer(m_planes[plane]), local};
}

std::pair<ClosPlane*, uint32_t>
ClosFabric::LocalLink(uint32_t link, const char* caller)
{
    const auto [plane, local] = Locate(link, caller);
    return {PeekPointer(m_planes[plane]), local};
}

uint32_t
ClosFabric::GetPlaneOfLink(uint32_t link) const
{
    return Locate(link, "GetPlaneOfLink").first;
}

uint32_t
ClosFabric::GetLocalLink(uint32_t link) const
{
    return Locate(link, "GetLocalLink").second;
}

uint32_t
ClosFabric::GetPlaneFirstLink(uint32_t plane) const
{
    NS_ABORT_MSG_IF(plane >= GetNPlanes(),
                    "ClosFabric::GetPlaneFirstLink: plane (" << plane << ") must be below "
                                                             << GetNPlanes());
    return m_firstLinks[plane];
}

uint32_t
ClosFabric::PlaneIndexOfNode(Ptr<Node> node) const
{
    for (uint32_t p = 0; p < m_planes.size(); p++)
    {
        if (m_planes[p]->HasNode(node))
        {
            return p;
        }
    }
    return m_planes.size();
}

const ClosPlane&
ClosFabric::PlaneOfNode(Ptr<Node> node, const char* caller) const
{
    const uint32_t p = PlaneIndexOfNode(node);
    NS_ABORT_MSG_IF(p == m_planes.size(),
                    "ClosFabric::" << caller << ": "
                                   << (node ? "node " + std::to_string(node->GetId())
                                            : std::string("a null node"))
                                   << " is not a node of this fabric");
    return *m_planes[p];
}

uint32_t
ClosFabric::GetPlaneOfNode(Ptr<Node> node) const
{
    return PlaneOfNode(node, "GetPlaneOfNode").GetPlaneIndex();
}

uint32_t
ClosFabric::GetHostLink(uint32_t host, uint32_t plane) const
{
    return GetPlaneFirstLink(plane) + m_planes[plane]->GetHostLink(host);
}

Ipv4Address
ClosFabric::GetHostAddress(uint32_t host, uint32_t plane) const
{
    return GetPlane(plane)->GetHostAddress(host);
}

const ClosFabric::Shape&
ClosFabric::GetShape() const
{
    return First("GetShape").GetShape();
}

uint32_t
ClosFabric::GetNTiers() const
{
    return First("GetNTiers").GetNTiers();
}

uint32_t
ClosFabric::GetNHosts() const
{
    return First("GetNHosts").GetNHosts();
}

uint32_t
ClosFabric::GetNLeaves() const
{
    return First("GetNLeaves").GetNLeaves();
}

uint32_t
ClosFabric::GetNHostsPerLeaf() const
{
    return First("GetNHostsPerLeaf").GetNHostsPerLeaf();
}

uint32_t
ClosFabric::GetNSpines() const
{
    return First("GetNSpines").GetNSpines();
}

uint32_t
ClosFabric::GetNPods() const
{
    return First("GetNPods").GetNPods();
}

uint32_t
ClosFabric::GetNLeavesPerPod() const
{
    return First("GetNLeavesPerPod").GetNLeavesPerPod();
}

uint32_t
ClosFabric::GetNAggsPerPod() const
{
    return First("GetNAggsPerPod").GetNAggsPerPod();
}

uint32_t
ClosFabric::GetNCores() const
{
    return First("GetNCores").GetNCores();
}

uint32_t
ClosFabric::GetNParallelLinks() const
{
    return First("GetNParallelLinks").GetNParallelLinks();
}

uint32_t
ClosFabric::GetNSwitches() const
{
    uint32_t n = 0;
    for (const auto& plane : m_planes)
    {
        n += plane->GetNSwitches();
    }
    return n;
}

uint32_t
ClosFabric::GetNLinks() const
{
    return m_planes.empty() ? 0 : m_firstLinks.back() + m_planes.back()->GetNLinks();
}

Ptr<Node>
ClosFabric::GetHost(uint32_t host) const
{
    return First("GetHost").GetHost(host);
}

Ipv4Address
ClosFabric::GetHostAddress(uint32_t host) const
{
    return First("GetHostAddress").GetHostAddress(host);
}

uint32_t
ClosFabric::GetHostIndex(Ipv4Address address) const
{
    const uint32_t none = GetNHosts();
    for (const auto& plane : m_planes)
    {
        const uint32_t host = plane->GetHostIndex(address);
        if (host != none)
        {
            return host;
        }
    }
    return none;
}

uint32_t
ClosFabric::GetLeafOfHost(uint32_t host) const
{
    return First("GetLeafOfHost").GetLeafOfHost(host);
}

uint32_t
ClosFabric::GetPodOfHost(uint32_t host) const
{
    return First("GetPodOfHost").GetPodOfHost(host);
}

NodeContainer
ClosFabric::GetHosts() const
{
    return First("GetHosts").GetHosts();
}

NodeContainer
ClosFabric::GetSwitches() const
{
    NodeContainer c;
    for (const auto& plane : m_planes)
    {
        c.Add(plane->GetSwitches());
    }
    return c;
}

Ptr<Node>
ClosFabric::GetLeaf(uint32_t leaf) const
{
    return First("GetLeaf").GetLeaf(leaf);
}

Ptr<Node>
ClosFabric::GetSpine(uint32_t spine) const
{
    return First("GetSpine").GetSpine(spine);
}

Ptr<Node>
ClosFabric::GetAgg(uint32_t pod, uint32_t agg) const
{
    return First("GetAgg").GetAgg(pod, agg);
}

Ptr<Node>
ClosFabric::GetCore(uint32_t core) const
{
    return First("GetCore").GetCore(core);
}

ClosFabric::Role
ClosFabric::GetRole(Ptr<Node> node) const
{
    return PlaneOfNode(node, "GetRole").GetRole(node);
}

std::string
ClosFabric::GetNodeName(Ptr<Node> node) const
{
    if (m_scaleUp && m_scaleUp->HasSwitch(node))
    {
        return m_scaleUp->GetSwitchName(node);
    }
    return PlaneOfNode(node, "GetNodeName").GetNodeName(node);
}

uint32_t
ClosFabric::GetHostLink(uint32_t host) const
{
    return First("GetHostLink").GetHostLink(host);
}

uint32_t
ClosFabric::GetLeafSpineLink(uint32_t leaf, uint32_t spine, uint32_t k) const
{
    return First("GetLeafSpineLink").GetLeafSpineLink(leaf, spine, k);
}

uint32_t
ClosFabric::GetLeafAggLink(uint32_t leaf, uint32_t agg, uint32_t k) const
{
    return First("GetLeafAggLink").GetLeafAggLink(leaf, agg, k);
}

uint32_t
ClosFabric::GetAggCoreLink(uint32_t pod, uint32_t agg, uint32_t core, uint32_t k) const
{
    return First("GetAggCoreLink").GetAggCoreLink(pod, agg, core, k);
}

uint32_t
ClosFabric::FindLink(Ptr<Node> a, Ptr<Node> b, uint32_t k) const
{
    First("FindLink");
    // The plane of the switch end: a host is in every plane (and found in plane 0).
    uint32_t p = PlaneIndexOfNode(a);
    if (p == 0 || p == m_planes.size())
    {
        p = PlaneIndexOfNode(b);
    }
    if (p == m_planes.size())
    {
        p = 0; // plane 0 names the node that is not in the fabric
    }
    const uint32_t link = m_planes[p]->FindLink(a, b, k);
    return link == NO_LINK ? NO_LINK : m_firstLinks[p] + link;
}

std::vector<uint32_t>
ClosFabric::GetLinks(Tier tier) const
{
    std::vector<uint32_t> links;
    for (uint32_t p = 0; p < m_planes.size(); p++)
    {
        for (uint32_t link : m_planes[p]->GetLinks(tier))
        {
            links.push_back(m_firstLinks[p] + link);
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

ClosFabric::Tier
ClosFabric::GetLinkTier(uint32_t link) const
{
    const auto [plane, local] = LocalLink(link, "GetLinkTier");
    return plane->GetLinkTier(local);
}

Ptr<Node>
ClosFabric::GetLinkNode(uint32_t link, uint32_t side) const
{
    const auto [plane, local] = LocalLink(link, "GetLinkNode");
    return plane->GetLinkNode(local, side);
}

Ptr<PointToPointNetDevice>
ClosFabric::GetLinkDevice(uint32_t link, uint32_t side) const
{
    const auto [plane, local] = LocalLink(link, "GetLinkDevice");
    return plane->GetLinkDevice(local, side);
}

std::string
ClosFabric::GetLinkName(uint32_t link) const
{
    const auto [plane, local] = LocalLink(link, "GetLinkName");
    return plane->GetLinkName(local);
}

bool
ClosFabric::IsLinkUp(uint32_t link) const
{
    const auto [plane, local] = LocalLink(link, "IsLinkUp");
    return plane->IsLinkUp(local);
}

bool
ClosFabric::IsLinkRouted(uint32_t link) const
{
    const auto [plane, local] = LocalLink(link, "IsLinkRouted");
    return plane->IsLinkRouted(local);
}

DataRate
ClosFabric::GetLinkRate(uint32_t link) const
{
    const auto [plane, local] = LocalLink(link, "GetLinkRate");
    return plane->GetLinkRate(local);
}

Time
ClosFabric::GetLinkDelay(uint32_t link) const
{
    const auto [plane, local] = LocalLink(link, "GetLinkDelay");
    return plane->GetLinkDelay(local);
}

ClosFabric::LinkCounters
ClosFabric::GetLinkCounters(uint32_t link, uint32_t direction) const
{
    const auto [plane, local] = LocalLink(link, "GetLinkCounters");
    return plane->GetLinkCounters(local, direction);
}

ClosFabric::QueueStats
ClosFabric::GetQueueStats(uint32_t link, uint32_t side) const
{
    const auto [plane, local] = LocalLink(link, "GetQueueStats");
    return plane->GetQueueStats(local, side);
}

Ptr<QueueDisc>
ClosFabric::GetQueueDisc(uint32_t link, uint32_t side) const
{
    const auto [plane, local] = LocalLink(link, "GetQueueDisc");
    return plane->GetQueueDisc(local, side);
}

void
ClosFabric::SetScaleUp(Ptr<ScaleUpDomain> domain)
{
    NS_LOG_FUNCTION(this << domain);
    NS_ABORT_MSG_IF(
        !domain || !domain->IsFinished(),
        "ClosFabric::SetScaleUp: the domain must be finished (ScaleUpDomain::Finish())");
    NS_ABORT_MSG_IF(domain->GetNHosts() != GetNHosts(),
                    "ClosFabric::SetScaleUp: the domain has "
                        << domain->GetNHosts() << " hosts, the fabric " << GetNHosts());
    m_scaleUp = domain;
}

Ptr<ScaleUpDomain>
ClosFabric::GetScaleUp() const
{
    return m_scaleUp;
}

uint32_t
ClosFabric::GetGpusPerServer() const
{
    return m_scaleUp ? m_scaleUp->GetGpusPerServer() : 1;
}

uint32_t
ClosFabric::GetNServers() const
{
    return m_scaleUp ? m_scaleUp->GetNServers() : GetNHosts();
}

uint32_t
ClosFabric::GetServerOfHost(uint32_t host) const
{
    NS_ABORT_MSG_IF(host >= GetNHosts(),
                    "ClosFabric::GetServerOfHost: host (" << host << ") must be below "
                                                          << GetNHosts());
    return host / GetGpusPerServer();
}

bool
ClosFabric::IsSameServer(uint32_t a, uint32_t b) const
{
    return m_scaleUp && m_scaleUp->IsSameServer(a, b);
}

uint32_t
ClosFabric::GetRelay(uint32_t src, uint32_t dst) const
{
    const Shape& shape = First("GetRelay").GetShape();
    const uint32_t gpus = GetGpusPerServer();
    if (!m_scaleUp || shape.tiers != 2 || shape.spines != 0 || IsSameServer(src, dst) ||
        src % gpus == dst % gpus)
    {
        return GetNHosts();
    }
    return src / gpus * gpus + dst % gpus;
}

std::vector<uint32_t>
ClosFabric::GetRoutedPath(uint32_t src, uint32_t dst) const
{
    if (IsSameServer(src, dst))
    {
        return {};
    }
    const uint32_t relay = GetRelay(src, dst);
    if (relay != GetNHosts())
    {
        return First("GetRoutedPath").GetRoutedPath(relay, dst);
    }
    // Plane 0's links are the first of the fabric's numbering.
    return First("GetRoutedPath").GetRoutedPath(src, dst);
}

Time
ClosFabric::GetBaseRtt(uint32_t src, uint32_t dst, uint32_t packetBytes, uint32_t ackBytes) const
{
    if (src != dst && IsSameServer(src, dst))
    {
        return m_scaleUp->GetBaseRtt(src, dst, packetBytes, ackBytes);
    }
    const uint32_t relay =
        src < GetNHosts() && dst < GetNHosts() ? GetRelay(src, dst) : GetNHosts();
    if (relay != GetNHosts())
    {
        const Time rest = First("GetBaseRtt").GetBaseRtt(relay, dst, packetBytes, ackBytes);
        return rest == Time::Max()
                   ? rest
                   : m_scaleUp->GetBaseRtt(src, relay, packetBytes, ackBytes) + rest;
    }
    return First("GetBaseRtt").GetBaseRtt(src, dst, packetBytes, ackBytes);
}

uint64_t
ClosFabric::GetNEqualCostPaths(uint32_t src, uint32_t dst) const
{
    return First("GetNEqualCostPaths").GetNEqualCostPaths(src, dst);
}

DataRate
ClosFabric::GetBisectionBandwidth() const
{
    uint64_t bps = 0;
    for (const auto& plane : m_planes)
    {
        bps += plane->GetBisectionBandwidth().GetBitRate();
    }
    return DataRate(bps);
}

double
ClosFabric::GetOversubscription(Tier tier) const
{
    return First("GetOversubscription").GetOversubscription(tier);
}

namespace
{

/**
 * The summary's lines about the servers (GPUs per server, scale-up) and the rails.
 * \param os where to print them
 * \param shape the shape of plane 0
 * \param scaleUp the scale-up domain, or null
 */
void
PrintServers(std::ostream& os, const ClosPlane::Shape& shape, Ptr<const ScaleUpDomain> scaleUp)
{
    if (scaleUp)
    {
        const uint32_t g = scaleUp->GetGpusPerServer();
        os << "  " << scaleUp->GetNServers() << " servers x " << g << " GPUs (host h is GPU h % "
           << g << " of server h / " << g
           << "), a scale-up switch per server: " << scaleUp->GetRate().GetBitRate() / 1e9
           << " Gb/s, " << scaleUp->GetDelay().GetNanoSeconds() << " ns\n";
    }
    if (shape.rails > 1 && shape.tiers == 2 && shape.spines == 0)
    {
        os << "  rail-only: " << shape.rails << " rail leaves (GPU g of every server on leaf g), "
           << "no spines; a GPU reaches another rail through its server's GPU on that rail\n";
    }
    else if (shape.rails > 1)
    {
        os << "  rail-optimised: " << shape.rails << " rails; GPU g of every server of a group of "
           << shape.hostsPerLeaf << " servers on rail leaf g of the group's " << shape.rails
           << " leaves\n";
    }
}

} // namespace

void
ClosFabric::PrintSummary(std::ostream& os) const
{
    const Shape& shape = First("PrintSummary").GetShape();
    const uint32_t nHosts = GetNHosts();
    os << "Clos fabric, " << shape.tiers << " tiers: " << nHosts << " hosts, " << GetNLeaves()
       << " leaves x " << shape.hostsPerLeaf << " hosts";
    if (shape.tiers == 2)
    {
        os << ", " << shape.spines << " spines";
    }
    else
    {
        os << ", " << shape.pods << " pods x (" << shape.leavesPerPod << " leaves + "
           << shape.aggsPerPod << " aggs), " << shape.cores << " cores";
    }
    os << ", " << GetNSwitches() << " switches, " << GetNLinks() << " links";
    if (shape.parallelLinks > 1)
    {
        os << " (" << shape.parallelLinks << " parallel links between linked switches)";
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
    PrintServers(os, shape, m_scaleUp);
    os << "  host links " << shape.hostRate.GetBitRate() / 1e9 << " Gb/s";
    if (shape.tiers == 2)
    {
        os << ", leaf-spine " << shape.leafUplinkRate.GetBitRate() / 1e9
           << " Gb/s, oversubscription " << GetOversubscription(LEAF_SPINE) << ":1";
    }
    else
    {
        os << ", leaf-agg " << shape.leafUplinkRate.GetBitRate() / 1e9 << " Gb/s (oversubscription "
           << GetOversubscription(LEAF_AGG) << ":1), agg-core "
           << shape.aggUplinkRate.GetBitRate() / 1e9 << " Gb/s (oversubscription "
           << GetOversubscription(AGG_CORE) << ":1)";
    }
    os << "\n";
    os << "  bisection bandwidth " << GetBisectionBandwidth().GetBitRate() / 1e9 << " Gb/s\n";
    if (nHosts > 1)
    {
        const uint32_t dst = nHosts - 1;
        os << "  host 0 -> host " << dst << " (leaf " << GetLeafOfHost(dst) << ", pod "
           << GetPodOfHost(dst) << "): base RTT " << GetBaseRtt(0, dst).GetNanoSeconds() / 1e3
           << " us (4096-byte packet, 64-byte ACK), " << GetNEqualCostPaths(0, dst)
           << " equal-cost paths\n";
    }
    const Time delay = m_planes.front()->GetRoutingConvergenceDelay();
    os << "  routing convergence delay: ";
    if (delay == Time::Max())
    {
        os << "never (failed links blackhole)\n";
    }
    else
    {
        os << delay.GetNanoSeconds() / 1e3 << " us\n";
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
ClosFabric::FailLink(uint32_t link, Time at, Time upAt)
{
    NS_LOG_FUNCTION(this << link << at << upAt);
    const auto [plane, local] = LocalLink(link, "FailLink");
    plane->FailLink(local, at, upAt);
}

void
ClosFabric::DegradeLink(uint32_t link, DataRate rate, Time at)
{
    NS_LOG_FUNCTION(this << link << rate << at);
    const auto [plane, local] = LocalLink(link, "DegradeLink");
    plane->DegradeLink(local, rate, at);
}

uint64_t
ClosFabric::RecomputeRoutes()
{
    NS_LOG_FUNCTION(this);
    uint64_t unreachable = 0;
    for (auto& plane : m_planes)
    {
        unreachable += plane->RecomputeRoutes();
    }
    return unreachable;
}

const ClosRoutes&
ClosFabric::GetRoutes(uint32_t plane) const
{
    return GetPlane(plane)->GetRoutes();
}

} // namespace ns3
