/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "clos-fabric.h"

#include "ns3/abort.h"
#include "ecn-queue-disc.h"
#include "fabric-link-error-model.h"
#include "fabric-switch.h"
#include "ns3/log.h"
#include "ns3/nstime.h"
#include "ns3/point-to-point-channel.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/queue-disc.h"
#include "ns3/shuffle.h"
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
    : m_tiers(2),
      m_hostsPerLeaf(0),
      m_pods(1),
      m_leavesPerPod(0),
      m_aggsPerPod(0),
      m_spines(0),
      m_cores(0),
      m_parallel(1),
      m_firstLeaf(0),
      m_firstSpine(0),
      m_firstCore(0),
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
    m_nodes.clear();
    m_switches.clear();
    m_links.clear();
    Object::DoDispose();
}

uint32_t
ClosFabric::GetNTiers() const
{
    return m_tiers;
}

uint32_t
ClosFabric::GetNHosts() const
{
    return GetNLeaves() * m_hostsPerLeaf;
}

uint32_t
ClosFabric::GetNLeaves() const
{
    return m_pods * m_leavesPerPod;
}

uint32_t
ClosFabric::GetNHostsPerLeaf() const
{
    return m_hostsPerLeaf;
}

uint32_t
ClosFabric::GetNSpines() const
{
    return m_spines;
}

uint32_t
ClosFabric::GetNPods() const
{
    return m_pods;
}

uint32_t
ClosFabric::GetNLeavesPerPod() const
{
    return m_leavesPerPod;
}

uint32_t
ClosFabric::GetNAggsPerPod() const
{
    return m_aggsPerPod;
}

uint32_t
ClosFabric::GetNCores() const
{
    return m_cores;
}

uint32_t
ClosFabric::GetNParallelLinks() const
{
    return m_parallel;
}

uint32_t
ClosFabric::GetNSwitches() const
{
    return m_nodes.size() - GetNHosts();
}

uint32_t
ClosFabric::GetNLinks() const
{
    return m_links.size();
}

Ptr<Node>
ClosFabric::GetHost(uint32_t host) const
{
    NS_ABORT_MSG_IF(host >= GetNHosts(),
                    "ClosFabric::GetHost: host (" << host << ") must be below " << GetNHosts());
    return m_nodes[host];
}

Ipv4Address
ClosFabric::GetHostAddress(uint32_t host) const
{
    NS_ABORT_MSG_IF(host >= GetNHosts(),
                    "ClosFabric::GetHostAddress: host (" << host << ") must be below "
                                                         << GetNHosts());
    return Ipv4Address(m_base.Get() + 1 + host);
}

uint32_t
ClosFabric::GetHostIndex(Ipv4Address address) const
{
    uint32_t host = address.Get() - m_base.Get() - 1;
    return host < GetNHosts() ? host : GetNHosts();
}

uint32_t
ClosFabric::GetLeafOfHost(uint32_t host) const
{
    NS_ABORT_MSG_IF(host >= GetNHosts(),
                    "ClosFabric::GetLeafOfHost: host (" << host << ") must be below "
                                                        << GetNHosts());
    return host / m_hostsPerLeaf;
}

uint32_t
ClosFabric::GetPodOfHost(uint32_t host) const
{
    return GetLeafOfHost(host) / m_leavesPerPod;
}

NodeContainer
ClosFabric::GetHosts() const
{
    NodeContainer c;
    for (uint32_t i = 0; i < GetNHosts(); i++)
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
    return c;
}

Ptr<Node>
ClosFabric::GetLeaf(uint32_t leaf) const
{
    NS_ABORT_MSG_IF(leaf >= GetNLeaves(),
                    "ClosFabric::GetLeaf: leaf (" << leaf << ") must be below " << GetNLeaves());
    return m_nodes[m_firstLeaf + leaf];
}

Ptr<Node>
ClosFabric::GetSpine(uint32_t spine) const
{
    NS_ABORT_MSG_IF(spine >= m_spines,
                    "ClosFabric::GetSpine: spine (" << spine << ") must be below " << m_spines
                                                    << " (a 3-tier fabric has no spines)");
    return m_nodes[m_firstSpine + spine];
}

Ptr<Node>
ClosFabric::GetAgg(uint32_t pod, uint32_t agg) const
{
    NS_ABORT_MSG_IF(m_tiers != 3, "ClosFabric::GetAgg: a 2-tier fabric has no aggregation tier");
    NS_ABORT_MSG_IF(pod >= m_pods,
                    "ClosFabric::GetAgg: pod (" << pod << ") must be below " << m_pods);
    NS_ABORT_MSG_IF(agg >= m_aggsPerPod,
                    "ClosFabric::GetAgg: agg (" << agg << ") must be below " << m_aggsPerPod);
    return m_nodes[m_firstSpine + pod * m_aggsPerPod + agg];
}

Ptr<Node>
ClosFabric::GetCore(uint32_t core) const
{
    NS_ABORT_MSG_IF(core >= m_cores,
                    "ClosFabric::GetCore: core (" << core << ") must be below " << m_cores
                                                  << " (a 2-tier fabric has no cores)");
    return m_nodes[m_firstCore + core];
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
    return m_roles[IndexOf(node, "node")];
}

std::string
ClosFabric::GetNodeName(Ptr<Node> node) const
{
    uint32_t i = IndexOf(node, "node");
    std::ostringstream os;
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
        os << "agg" << (i - m_firstSpine) / m_aggsPerPod << "."
           << (i - m_firstSpine) % m_aggsPerPod;
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
    uint32_t ia = IndexOf(a, "node a");
    uint32_t ib = IndexOf(b, "node b");
    uint32_t seen = 0;
    for (uint32_t link : m_adjacency[ia])
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
    return m_adjacency[host].front();
}

uint32_t
ClosFabric::GetLeafSpineLink(uint32_t leaf, uint32_t spine, uint32_t k) const
{
    NS_ABORT_MSG_IF(k >= m_parallel,
                    "ClosFabric::GetLeafSpineLink: k (" << k << ") must be below " << m_parallel);
    return FindLink(GetLeaf(leaf), GetSpine(spine), k);
}

uint32_t
ClosFabric::GetLeafAggLink(uint32_t leaf, uint32_t agg, uint32_t k) const
{
    NS_ABORT_MSG_IF(k >= m_parallel,
                    "ClosFabric::GetLeafAggLink: k (" << k << ") must be below " << m_parallel);
    return FindLink(GetLeaf(leaf), GetAgg(leaf / m_leavesPerPod, agg), k);
}

uint32_t
ClosFabric::GetAggCoreLink(uint32_t pod, uint32_t agg, uint32_t core, uint32_t k) const
{
    NS_ABORT_MSG_IF(k >= m_parallel,
                    "ClosFabric::GetAggCoreLink: k (" << k << ") must be below " << m_parallel);
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
    return links;
}

std::string
ClosFabric::ValidateLink(uint32_t link) const
{
    if (link == NO_LINK)
    {
        return "link: NO_LINK (the two nodes are not linked) is not a link of the fabric";
    }
    if (link >= m_links.size())
    {
        std::ostringstream os;
        os << "link (" << link << ") must be below the number of links (" << m_links.size() << ")";
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
    return m_links[link].tier;
}

Ptr<Node>
ClosFabric::GetLinkNode(uint32_t link, uint32_t side) const
{
    CheckLink(link, "GetLinkNode");
    NS_ABORT_MSG_IF(side > 1, "ClosFabric::GetLinkNode: side must be 0 or 1");
    return m_nodes[m_links[link].node[side]];
}

Ptr<PointToPointNetDevice>
ClosFabric::GetLinkDevice(uint32_t link, uint32_t side) const
{
    CheckLink(link, "GetLinkDevice");
    NS_ABORT_MSG_IF(side > 1, "ClosFabric::GetLinkDevice: side must be 0 or 1");
    return m_links[link].device[side];
}

std::string
ClosFabric::GetLinkName(uint32_t link) const
{
    CheckLink(link, "GetLinkName");
    const Link& l = m_links[link];
    std::string name = GetNodeName(m_nodes[l.node[0]]) + "-" + GetNodeName(m_nodes[l.node[1]]);
    if (m_parallel > 1 && l.tier != HOST_LEAF)
    {
        name += "#" + std::to_string(l.parallelIndex);
    }
    return name;
}

bool
ClosFabric::IsLinkUp(uint32_t link) const
{
    CheckLink(link, "IsLinkUp");
    return m_links[link].up;
}

bool
ClosFabric::IsLinkRouted(uint32_t link) const
{
    CheckLink(link, "IsLinkRouted");
    return m_links[link].routed;
}

DataRate
ClosFabric::GetLinkRate(uint32_t link) const
{
    CheckLink(link, "GetLinkRate");
    DataRateValue v;
    m_links[link].device[0]->GetAttribute("DataRate", v);
    return v.Get();
}

Time
ClosFabric::GetLinkDelay(uint32_t link) const
{
    CheckLink(link, "GetLinkDelay");
    TimeValue v;
    m_links[link].device[0]->GetChannel()->GetAttribute("Delay", v);
    return v.Get();
}

ClosFabric::LinkCounters
ClosFabric::GetLinkCounters(uint32_t link, uint32_t direction) const
{
    CheckLink(link, "GetLinkCounters");
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
    const uint32_t nHosts = GetNHosts();
    const uint32_t nLeaves = GetNLeaves();
    const uint32_t nNodes = m_nodes.size();
    constexpr uint32_t inf = std::numeric_limits<uint32_t>::max();

    // sets[s][l]: ports of switch s toward leaf l; then one set per host of s if s is a leaf.
    std::vector<std::vector<std::vector<uint32_t>>> sets(nNodes);
    for (uint32_t s = nHosts; s < nNodes; s++)
    {
        sets[s].resize(nLeaves);
    }
    std::vector<uint32_t> dist(nNodes);
    std::vector<uint32_t> queue;
    queue.reserve(nNodes);
    for (uint32_t l = 0; l < nLeaves; l++)
    {
        uint32_t leaf = m_firstLeaf + l;
        std::fill(dist.begin(), dist.end(), inf);
        dist[leaf] = 0;
        queue.clear();
        queue.push_back(leaf);
        for (size_t head = 0; head < queue.size(); head++)
        {
            uint32_t u = queue[head];
            for (uint32_t link : m_adjacency[u])
            {
                const Link& k = m_links[link];
                uint32_t v = k.node[0] == u ? k.node[1] : k.node[0];
                if (k.routed && v >= nHosts && dist[v] == inf)
                {
                    dist[v] = dist[u] + 1;
                    queue.push_back(v);
                }
            }
        }
        for (uint32_t s = nHosts; s < nNodes; s++)
        {
            if (s == leaf || dist[s] == inf)
            {
                continue;
            }
            std::vector<uint32_t>& ports = sets[s][l];
            for (uint32_t link : m_adjacency[s])
            {
                const Link& k = m_links[link];
                uint32_t v = k.node[0] == s ? k.node[1] : k.node[0];
                if (k.routed && v >= nHosts && dist[v] + 1 == dist[s])
                {
                    ports.push_back(PortOf(s, link));
                }
            }
        }
    }

    uint64_t unreachable = 0;
    std::vector<uint32_t> hostToSet(nHosts);
    for (uint32_t s = nHosts; s < nNodes; s++)
    {
        bool isLeaf = m_roles[s] == LEAF;
        uint32_t leafNumber = s - m_firstLeaf;
        for (uint32_t h = 0; h < nHosts; h++)
        {
            uint32_t l = h / m_hostsPerLeaf;
            if (isLeaf && l == leafNumber)
            {
                uint32_t link = m_adjacency[h].front();
                hostToSet[h] = sets[s].size();
                sets[s].emplace_back();
                if (m_links[link].routed)
                {
                    sets[s].back().push_back(PortOf(s, link));
                }
            }
            else
            {
                hostToSet[h] = l;
            }
            unreachable += sets[s][hostToSet[h]].empty() ? 1 : 0;
        }
        m_switches[s]->SetRoutes(hostToSet, sets[s]);
    }
    NS_LOG_DEBUG("routes recomputed, " << unreachable << " (switch, host) pairs unreachable");
    return unreachable;
}

Time
ClosFabric::GetBaseRtt(uint32_t src, uint32_t dst, uint32_t packetBytes, uint32_t ackBytes) const
{
    NS_ABORT_MSG_IF(src >= GetNHosts() || dst >= GetNHosts(),
                    "ClosFabric::GetBaseRtt: src (" << src << ") and dst (" << dst
                                                    << ") must be below " << GetNHosts());
    NS_ABORT_MSG_IF(src == dst, "ClosFabric::GetBaseRtt: src and dst must differ");
    constexpr uint32_t ppp = 2;
    Time rtt(0);
    uint32_t link = m_adjacency[src].front();
    uint32_t node = src;
    for (uint32_t hops = 0; hops <= m_nodes.size(); hops++)
    {
        const Link& l = m_links[link];
        DataRate rate = GetLinkRate(link);
        rtt += 2 * GetLinkDelay(link) + rate.CalculateBytesTxTime(packetBytes + ppp) +
               rate.CalculateBytesTxTime(ackBytes + ppp);
        node = l.node[0] == node ? l.node[1] : l.node[0];
        if (node == dst)
        {
            return rtt;
        }
        if (node < GetNHosts())
        {
            return Time::Max();
        }
        std::vector<uint32_t> hopsToDst = m_switches[node]->GetNextHops(dst);
        if (hopsToDst.empty())
        {
            return Time::Max();
        }
        link = m_portLinks[node][hopsToDst.front()];
    }
    return Time::Max();
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
    const Link& first = m_links[m_adjacency[src].front()];
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
    if (m_tiers == 3 && m_pods > 1)
    {
        best = std::min(best, tierTotal[AGG_CORE] / 2);
    }
    return DataRate(static_cast<uint64_t>(best));
}

double
ClosFabric::GetOversubscription(Tier tier) const
{
    if (tier == LEAF_SPINE || tier == LEAF_AGG)
    {
        uint32_t uplinks = (m_tiers == 2 ? m_spines : m_aggsPerPod) * m_parallel;
        DataRate up = m_nominalRate[m_tiers == 2 ? LEAF_SPINE : LEAF_AGG];
        return static_cast<double>(m_hostsPerLeaf) * m_nominalRate[HOST_LEAF].GetBitRate() /
               (static_cast<double>(uplinks) * up.GetBitRate());
    }
    if (tier == AGG_CORE && m_tiers == 3)
    {
        double down =
            static_cast<double>(m_leavesPerPod) * m_parallel * m_nominalRate[LEAF_AGG].GetBitRate();
        double up = static_cast<double>(m_cores / m_aggsPerPod) * m_parallel *
                    m_nominalRate[AGG_CORE].GetBitRate();
        return down / up;
    }
    return 1.0;
}

void
ClosFabric::PrintSummary(std::ostream& os) const
{
    uint32_t nHosts = GetNHosts();
    os << "Clos fabric, " << m_tiers << " tiers: " << nHosts << " hosts, " << GetNLeaves()
       << " leaves x " << m_hostsPerLeaf << " hosts";
    if (m_tiers == 2)
    {
        os << ", " << m_spines << " spines";
    }
    else
    {
        os << ", " << m_pods << " pods x (" << m_leavesPerPod << " leaves + " << m_aggsPerPod
           << " aggs), " << m_cores << " cores";
    }
    os << ", " << GetNSwitches() << " switches, " << GetNLinks() << " links";
    if (m_parallel > 1)
    {
        os << " (" << m_parallel << " parallel links between linked switches)";
    }
    os << "\n";
    os << "  host links " << m_nominalRate[HOST_LEAF].GetBitRate() / 1e9 << " Gb/s";
    if (m_tiers == 2)
    {
        os << ", leaf-spine " << m_nominalRate[LEAF_SPINE].GetBitRate() / 1e9
           << " Gb/s, oversubscription " << GetOversubscription(LEAF_SPINE) << ":1";
    }
    else
    {
        os << ", leaf-agg " << m_nominalRate[LEAF_AGG].GetBitRate() / 1e9
           << " Gb/s (oversubscription " << GetOversubscription(LEAF_AGG) << ":1), agg-core "
           << m_nominalRate[AGG_CORE].GetBitRate() / 1e9 << " Gb/s (oversubscription "
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
    for (uint32_t i = 0; i < m_links.size(); i++)
    {
        if (m_links[i].tier == HOST_LEAF && !hostLinks)
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
    Link& l = m_links[link];
    if (l.routed == up)
    {
        return;
    }
    l.routed = up;
    m_routeStateTrace(link, up);
    // Links that change state at the same instant (FailRandomLinks) share one recomputation.
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

std::vector<uint32_t>
ClosFabric::ChooseLinks(Tier tier, uint32_t n, uint32_t seed, const char* caller) const
{
    std::vector<uint32_t> links = GetLinks(tier);
    NS_ABORT_MSG_IF(n > links.size(),
                    "ClosFabric::" << caller << ": n (" << n << ") must be at most the number of "
                                   << "links of the tier (" << links.size() << ")");
    // An ns-3 stream: the choice follows the stream index and the run number (--RngRun).
    Ptr<UniformRandomVariable> rng = CreateObject<UniformRandomVariable>();
    rng->SetStream(seed);
    Shuffle(links, rng);
    links.resize(n);
    std::sort(links.begin(), links.end());
    return links;
}

std::vector<uint32_t>
ClosFabric::FailRandomLinks(Tier tier, uint32_t n, uint32_t seed, Time at, Time upAt)
{
    NS_LOG_FUNCTION(this << tier << n << seed << at << upAt);
    std::vector<uint32_t> links = ChooseLinks(tier, n, seed, "FailRandomLinks");
    for (uint32_t link : links)
    {
        FailLink(link, at, upAt);
    }
    return links;
}

std::vector<uint32_t>
ClosFabric::DegradeRandomLinks(Tier tier, uint32_t n, DataRate rate, uint32_t seed, Time at)
{
    NS_LOG_FUNCTION(this << tier << n << rate << seed << at);
    std::vector<uint32_t> links = ChooseLinks(tier, n, seed, "DegradeRandomLinks");
    for (uint32_t link : links)
    {
        DegradeLink(link, rate, at);
    }
    return links;
}

} // namespace ns3
