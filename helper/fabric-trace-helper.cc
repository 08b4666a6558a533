/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fabric-trace-helper.h"

#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/pcap-file-wrapper.h"
#include "ns3/point-to-point-helper.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/trace-helper.h"

#include <map>
#include <set>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FabricTraceHelper");

namespace
{

/// Largest snapshot length of a pcap file (and the length of "whole packets").
constexpr uint32_t MAX_SNAP = 65535;
/// Smallest useful snapshot length: PPP (2) + IPv4 (20) + UDP (8) + BTH (12) + ACK (20) bytes.
constexpr uint32_t MIN_SNAP = 64;

/// The groups a node list may name.
const std::set<std::string> g_groups = {"all", "hosts", "switches", "leaves", "spines", "aggs",
                                        "cores"};

/**
 * \return the message for an unknown name
 * \param item the name
 * \param tiers, hosts, leaves, spines, pods, aggsPerPod, cores the fabric's shape
 */
std::string
UnknownNode(const std::string& item,
            uint32_t tiers,
            uint32_t hosts,
            uint32_t leaves,
            uint32_t spines,
            uint32_t pods,
            uint32_t aggsPerPod,
            uint32_t cores)
{
    std::ostringstream os;
    os << "no node '" << item << "' in this fabric; allowed: hosts, switches, all, leaves, "
       << "spines, aggs, cores, or node names host0 to host" << hosts - 1 << ", leaf0 to leaf"
       << leaves - 1;
    if (tiers == 2)
    {
        os << ", spine0 to spine" << spines - 1;
    }
    else
    {
        os << ", agg<pod>.<i> (agg0.0 to agg" << pods - 1 << "." << aggsPerPod - 1
           << "), core0 to core" << cores - 1;
    }
    os << " (comma list)";
    return os.str();
}

/// Message for a list with an empty name.
const char* const g_emptyName = "empty node name in the list; allowed: hosts, switches, all, or "
                                "a comma list of node names such as host0,leaf1";

/**
 * Split a node list on commas.
 * \param spec the list
 * \param[out] items its names
 * \return false when a name is empty
 */
bool
SplitNodes(const std::string& spec, std::vector<std::string>& items)
{
    items.clear();
    std::string item;
    std::istringstream in(spec);
    while (std::getline(in, item, ','))
    {
        items.push_back(item);
    }
    if (items.empty() || spec.back() == ',')
    {
        return false;
    }
    for (const std::string& i : items)
    {
        if (i.empty())
        {
            return false;
        }
    }
    return true;
}

/**
 * \param text digits
 * \param limit exclusive bound
 * \return whether text is a decimal number below limit, without leading zeros
 */
bool
IndexBelow(const std::string& text, uint32_t limit)
{
    if (text.empty() || text.size() > 9 || (text.size() > 1 && text[0] == '0') ||
        text.find_first_not_of("0123456789") != std::string::npos)
    {
        return false;
    }
    return std::stoul(text) < limit;
}

} // namespace

FabricTraceHelper::FabricTraceHelper()
    : m_snapLength(MAX_SNAP)
{
}

std::string
FabricTraceHelper::SetSnapLength(uint32_t bytes)
{
    if (bytes != 0 && (bytes < MIN_SNAP || bytes > MAX_SNAP))
    {
        std::ostringstream os;
        os << "snapshot length " << bytes << " bytes; allowed: 0 (whole packets) or " << MIN_SNAP
           << " to " << MAX_SNAP;
        return os.str();
    }
    m_snapLength = bytes == 0 ? MAX_SNAP : bytes;
    return "";
}

std::string
FabricTraceHelper::ParseNodes(Ptr<ClosFabric> fabric, const std::string& spec, NodeContainer& nodes)
{
    NS_ASSERT(fabric);
    // Every node of the fabric by name, and the groups.
    std::map<std::string, Ptr<Node>> byName;
    std::map<std::string, std::vector<Ptr<Node>>> groups;
    std::vector<Ptr<Node>> order;
    for (NodeContainer c : {fabric->GetHosts(), fabric->GetSwitches()})
    {
        for (uint32_t i = 0; i < c.GetN(); ++i)
        {
            Ptr<Node> n = c.Get(i);
            byName[fabric->GetNodeName(n)] = n;
            order.push_back(n);
            groups["all"].push_back(n);
            switch (fabric->GetRole(n))
            {
            case ClosFabric::HOST:
                groups["hosts"].push_back(n);
                break;
            case ClosFabric::LEAF:
                groups["leaves"].push_back(n);
                break;
            case ClosFabric::SPINE:
                groups["spines"].push_back(n);
                break;
            case ClosFabric::AGG:
                groups["aggs"].push_back(n);
                break;
            case ClosFabric::CORE:
                groups["cores"].push_back(n);
                break;
            }
            if (fabric->GetRole(n) != ClosFabric::HOST)
            {
                groups["switches"].push_back(n);
            }
        }
    }
    std::vector<std::string> items;
    if (!SplitNodes(spec, items))
    {
        return g_emptyName;
    }
    std::set<Ptr<Node>> chosen;
    for (const std::string& item : items)
    {
        auto g = groups.find(item);
        if (g != groups.end())
        {
            chosen.insert(g->second.begin(), g->second.end());
            continue;
        }
        if (g_groups.count(item))
        {
            continue; // a group this fabric has no node of (e.g. spines in 3 tiers)
        }
        auto n = byName.find(item);
        if (n == byName.end())
        {
            return UnknownNode(item,
                               fabric->GetNTiers(),
                               fabric->GetNHosts(),
                               fabric->GetNLeaves(),
                               fabric->GetNSpines(),
                               fabric->GetNPods(),
                               fabric->GetNAggsPerPod(),
                               fabric->GetNCores());
        }
        chosen.insert(n->second);
    }
    nodes = NodeContainer();
    for (Ptr<Node> n : order)
    {
        if (chosen.count(n))
        {
            nodes.Add(n);
        }
    }
    return "";
}

std::string
FabricTraceHelper::CheckNodes(const std::string& spec,
                              uint32_t tiers,
                              uint32_t hosts,
                              uint32_t leaves,
                              uint32_t spines,
                              uint32_t pods,
                              uint32_t aggsPerPod,
                              uint32_t cores)
{
    std::vector<std::string> items;
    if (!SplitNodes(spec, items))
    {
        return g_emptyName;
    }
    for (const std::string& item : items)
    {
        bool ok = g_groups.count(item) > 0;
        auto tail = [&item](const char* role) {
            size_t n = std::string(role).size();
            return item.compare(0, n, role) == 0 ? item.substr(n) : std::string();
        };
        if (!ok && item.rfind("host", 0) == 0)
        {
            ok = IndexBelow(tail("host"), hosts);
        }
        else if (!ok && item.rfind("leaf", 0) == 0)
        {
            ok = IndexBelow(tail("leaf"), leaves);
        }
        else if (!ok && tiers == 2 && item.rfind("spine", 0) == 0)
        {
            ok = IndexBelow(tail("spine"), spines);
        }
        else if (!ok && tiers == 3 && item.rfind("core", 0) == 0)
        {
            ok = IndexBelow(tail("core"), cores);
        }
        else if (!ok && tiers == 3 && item.rfind("agg", 0) == 0)
        {
            std::string rest = tail("agg");
            size_t dot = rest.find('.');
            ok = dot != std::string::npos && IndexBelow(rest.substr(0, dot), pods) &&
                 IndexBelow(rest.substr(dot + 1), aggsPerPod);
        }
        if (!ok)
        {
            return UnknownNode(item, tiers, hosts, leaves, spines, pods, aggsPerPod, cores);
        }
    }
    return "";
}

std::string
FabricTraceHelper::GetPortName(Ptr<ClosFabric> fabric, uint32_t link, uint32_t side)
{
    NS_ABORT_MSG_IF(side > 1, "FabricTraceHelper: side must be 0 or 1");
    std::string name = fabric->GetNodeName(fabric->GetLinkNode(link, side)) + "-" +
                       fabric->GetNodeName(fabric->GetLinkNode(link, 1 - side));
    // The link name ends with "#k" for a parallel link: keep the index.
    std::string linkName = fabric->GetLinkName(link);
    size_t hash = linkName.rfind('#');
    if (hash != std::string::npos)
    {
        name += linkName.substr(hash);
    }
    return name;
}

std::string
FabricTraceHelper::EnablePcap(const std::string& prefix,
                              Ptr<ClosFabric> fabric,
                              uint32_t link,
                              uint32_t side) const
{
    NS_LOG_FUNCTION(this << prefix << link << side);
    Ptr<PointToPointNetDevice> device = fabric->GetLinkDevice(link, side);
    std::string file = prefix + "-" + GetPortName(fabric, link, side) + ".pcap";
    Ptr<PcapFileWrapper> pcap = CreateObject<PcapFileWrapper>();
    pcap->SetAttribute("NanosecMode", BooleanValue(true));
    pcap->Open(file, std::ios::out | std::ios::binary);
    NS_ABORT_MSG_IF(pcap->Fail(), "FabricTraceHelper: cannot create the capture file " << file);
    pcap->Init(PcapHelper::DLT_PPP, m_snapLength);
    PcapHelper().HookDefaultSink<PointToPointNetDevice>(device, "PromiscSniffer", pcap);
    return file;
}

std::vector<std::string>
FabricTraceHelper::EnablePcap(const std::string& prefix,
                              Ptr<ClosFabric> fabric,
                              const NodeContainer& nodes) const
{
    std::set<Ptr<Node>> wanted(nodes.Begin(), nodes.End());
    std::vector<std::string> files;
    for (uint32_t link = 0; link < fabric->GetNLinks(); ++link)
    {
        for (uint32_t side = 0; side < 2; ++side)
        {
            if (wanted.count(fabric->GetLinkNode(link, side)))
            {
                files.push_back(EnablePcap(prefix, fabric, link, side));
            }
        }
    }
    return files;
}

void
FabricTraceHelper::EnableAscii(Ptr<OutputStreamWrapper> stream,
                               Ptr<ClosFabric> fabric,
                               const NodeContainer& nodes) const
{
    std::set<Ptr<Node>> wanted(nodes.Begin(), nodes.End());
    PointToPointHelper p2p;
    for (uint32_t link = 0; link < fabric->GetNLinks(); ++link)
    {
        for (uint32_t side = 0; side < 2; ++side)
        {
            if (wanted.count(fabric->GetLinkNode(link, side)))
            {
                p2p.EnableAscii(stream, fabric->GetLinkDevice(link, side));
            }
        }
    }
}

} // namespace ns3
