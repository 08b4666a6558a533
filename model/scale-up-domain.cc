/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "scale-up-domain.h"

#include "fabric-link-error-model.h"
#include "fabric-switch.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/node-container.h"
#include "ns3/point-to-point-channel.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ScaleUpDomain");

NS_OBJECT_ENSURE_REGISTERED(ScaleUpDomain);

TypeId
ScaleUpDomain::GetTypeId()
{
    static TypeId tid = TypeId("ns3::ScaleUpDomain")
                            .SetParent<Object>()
                            .SetGroupName("Reps")
                            .AddConstructor<ScaleUpDomain>();
    return tid;
}

ScaleUpDomain::ScaleUpDomain()
    : m_servers(0),
      m_gpus(0),
      m_finished(false)
{
    NS_LOG_FUNCTION(this);
}

ScaleUpDomain::~ScaleUpDomain()
{
    NS_LOG_FUNCTION(this);
}

void
ScaleUpDomain::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_switches.clear();
    m_fabricSw.clear();
    m_links.clear();
    Object::DoDispose();
}

std::string
ScaleUpDomain::ValidateShape(uint32_t servers, uint32_t gpusPerServer)
{
    std::ostringstream os;
    if (servers == 0)
    {
        os << "servers must be >= 1";
    }
    else if (gpusPerServer < 2)
    {
        os << "gpusPerServer (" << gpusPerServer << ") must be >= 2 (one GPU needs no scale-up)";
    }
    return os.str();
}

void
ScaleUpDomain::SetShape(uint32_t servers, uint32_t gpusPerServer)
{
    NS_LOG_FUNCTION(this << servers << gpusPerServer);
    NS_ABORT_MSG_IF(!m_switches.empty(), "ScaleUpDomain::SetShape: switches have been added");
    std::string error = ValidateShape(servers, gpusPerServer);
    NS_ABORT_MSG_IF(!error.empty(), "ScaleUpDomain::SetShape: " << error);
    m_servers = servers;
    m_gpus = gpusPerServer;
}

std::string
ScaleUpDomain::ValidateNewSwitch(Ptr<Node> node) const
{
    if (m_servers == 0 || m_finished || m_switches.size() >= m_servers)
    {
        return "the shape has no room for another switch";
    }
    if (!node || !node->GetObject<FabricSwitch>())
    {
        return "the switch node must carry a FabricSwitch";
    }
    if (HasSwitch(node))
    {
        return "the node is a scale-up switch already";
    }
    return "";
}

uint32_t
ScaleUpDomain::AddSwitch(Ptr<Node> node)
{
    NS_LOG_FUNCTION(this << node);
    std::string error = ValidateNewSwitch(node);
    NS_ABORT_MSG_IF(!error.empty(), "ScaleUpDomain::AddSwitch: " << error);
    m_switches.push_back(node);
    m_fabricSw.push_back(node->GetObject<FabricSwitch>());
    return m_switches.size() - 1;
}

std::string
ScaleUpDomain::ValidateNewLink(uint32_t host,
                               Ptr<PointToPointNetDevice> gpu,
                               Ptr<PointToPointNetDevice> port) const
{
    std::ostringstream os;
    if (m_finished || m_switches.size() != m_servers)
    {
        os << "add every switch (" << m_servers << ") before the links, and no link after Finish()";
    }
    else if (host != m_links.size() || host >= GetNHosts())
    {
        os << "host (" << host << ") must be the next host (" << m_links.size() << ") below "
           << GetNHosts();
    }
    else if (!gpu || !port || !gpu->GetChannel() || gpu->GetChannel() != port->GetChannel())
    {
        os << "gpu and port must be the two devices of one point-to-point channel";
    }
    else if (port->GetNode() != m_switches[host / m_gpus])
    {
        os << "port must be a device of scaleup" << host / m_gpus << ", the switch of host " << host
           << "'s server";
    }
    return os.str();
}

uint32_t
ScaleUpDomain::AddLink(uint32_t host,
                       Ptr<PointToPointNetDevice> gpu,
                       Ptr<PointToPointNetDevice> port)
{
    NS_LOG_FUNCTION(this << host << gpu << port);
    std::string error = ValidateNewLink(host, gpu, port);
    NS_ABORT_MSG_IF(!error.empty(), "ScaleUpDomain::AddLink: " << error);
    Link link;
    link.device[0] = gpu;
    link.device[1] = port;
    for (uint32_t side = 0; side < 2; side++)
    {
        link.receiver[side] = CreateObject<FabricLinkErrorModel>();
        link.device[side]->SetReceiveErrorModel(link.receiver[side]);
    }
    link.port = m_fabricSw[host / m_gpus]->AddPort(port);
    m_links.push_back(link);
    return host;
}

void
ScaleUpDomain::Finish(Ipv4Address addressBase)
{
    NS_LOG_FUNCTION(this << addressBase);
    NS_ABORT_MSG_IF(m_finished, "ScaleUpDomain::Finish: called twice");
    NS_ABORT_MSG_IF(m_servers == 0 || m_links.size() != GetNHosts(),
                    "ScaleUpDomain::Finish: " << m_links.size() << " links added, the shape has "
                                              << GetNHosts());
    const uint32_t hosts = GetNHosts();
    for (uint32_t s = 0; s < m_servers; s++)
    {
        // One set per GPU of the server (its own port), then the empty set of every other host.
        std::vector<std::vector<uint32_t>> sets(m_gpus + 1);
        std::vector<uint32_t> hostToSet(hosts, m_gpus);
        for (uint32_t g = 0; g < m_gpus; g++)
        {
            const uint32_t host = s * m_gpus + g;
            sets[g] = {m_links[host].port};
            hostToSet[host] = g;
        }
        m_fabricSw[s]->SetHostAddressing(addressBase, hosts);
        m_fabricSw[s]->SetRoutes(hostToSet, sets);
    }
    m_finished = true;
}

void
ScaleUpDomain::SetRoutes(uint32_t server, const std::vector<std::vector<uint32_t>>& ports)
{
    NS_LOG_FUNCTION(this << server);
    NS_ABORT_MSG_IF(!m_finished, "ScaleUpDomain::SetRoutes: call Finish() first");
    NS_ABORT_MSG_IF(server >= m_servers,
                    "ScaleUpDomain::SetRoutes: server (" << server << ") must be below "
                                                         << m_servers);
    NS_ABORT_MSG_IF(ports.size() != GetNHosts(),
                    "ScaleUpDomain::SetRoutes: ports has " << ports.size() << " hosts, not "
                                                           << GetNHosts());
    // Hosts with the same ports share a set, as in the planes' switches.
    std::vector<std::vector<uint32_t>> sets;
    std::vector<uint32_t> hostToSet(ports.size());
    for (uint32_t h = 0; h < ports.size(); h++)
    {
        for (uint32_t port : ports[h])
        {
            NS_ABORT_MSG_IF(port >= m_gpus,
                            "ScaleUpDomain::SetRoutes: port (" << port << ") must be below "
                                                               << m_gpus);
        }
        auto it = std::find(sets.begin(), sets.end(), ports[h]);
        hostToSet[h] = it - sets.begin();
        if (it == sets.end())
        {
            sets.push_back(ports[h]);
        }
    }
    m_fabricSw[server]->SetRoutes(hostToSet, sets);
}

bool
ScaleUpDomain::IsFinished() const
{
    return m_finished;
}

uint32_t
ScaleUpDomain::GetNServers() const
{
    return m_servers;
}

uint32_t
ScaleUpDomain::GetGpusPerServer() const
{
    return m_gpus;
}

uint32_t
ScaleUpDomain::GetNHosts() const
{
    return m_servers * m_gpus;
}

void
ScaleUpDomain::CheckHost(uint32_t host, const char* caller) const
{
    NS_ABORT_MSG_IF(host >= m_links.size(),
                    "ScaleUpDomain::" << caller << ": host (" << host << ") must be below "
                                      << m_links.size());
}

uint32_t
ScaleUpDomain::GetServerOfHost(uint32_t host) const
{
    NS_ABORT_MSG_IF(host >= GetNHosts(),
                    "ScaleUpDomain::GetServerOfHost: host (" << host << ") must be below "
                                                             << GetNHosts());
    return host / m_gpus;
}

bool
ScaleUpDomain::IsSameServer(uint32_t a, uint32_t b) const
{
    return a < GetNHosts() && b < GetNHosts() && a / m_gpus == b / m_gpus;
}

Ptr<Node>
ScaleUpDomain::GetSwitch(uint32_t server) const
{
    NS_ABORT_MSG_IF(server >= m_switches.size(),
                    "ScaleUpDomain::GetSwitch: server (" << server << ") must be below "
                                                         << m_switches.size());
    return m_switches[server];
}

NodeContainer
ScaleUpDomain::GetSwitches() const
{
    NodeContainer c;
    for (const auto& node : m_switches)
    {
        c.Add(node);
    }
    return c;
}

bool
ScaleUpDomain::HasSwitch(Ptr<Node> node) const
{
    for (const auto& sw : m_switches)
    {
        if (sw == node)
        {
            return true;
        }
    }
    return false;
}

std::string
ScaleUpDomain::GetSwitchName(Ptr<Node> node) const
{
    for (uint32_t s = 0; s < m_switches.size(); s++)
    {
        if (m_switches[s] == node)
        {
            return "scaleup" + std::to_string(s);
        }
    }
    NS_ABORT_MSG("ScaleUpDomain::GetSwitchName: the node is not a scale-up switch");
    return "";
}

uint32_t
ScaleUpDomain::GetNLinks() const
{
    return m_links.size();
}

Ptr<PointToPointNetDevice>
ScaleUpDomain::GetLinkDevice(uint32_t host, uint32_t side) const
{
    CheckHost(host, "GetLinkDevice");
    NS_ABORT_MSG_IF(side > 1, "ScaleUpDomain::GetLinkDevice: side must be 0 or 1");
    return m_links[host].device[side];
}

std::string
ScaleUpDomain::GetLinkName(uint32_t host) const
{
    CheckHost(host, "GetLinkName");
    return "host" + std::to_string(host) + "-scaleup" + std::to_string(host / m_gpus);
}

void
ScaleUpDomain::FailLink(uint32_t host, Time at, Time upAt)
{
    NS_LOG_FUNCTION(this << host << at << upAt);
    CheckHost(host, "FailLink");
    const Time now = Simulator::Now();
    NS_ABORT_MSG_IF(at < now,
                    "ScaleUpDomain::FailLink: at (" << at.As(Time::US)
                                                    << ") must not be in the past");
    NS_ABORT_MSG_IF(upAt <= at,
                    "ScaleUpDomain::FailLink: upAt (" << upAt.As(Time::US) << ") must be after at ("
                                                      << at.As(Time::US) << ")");
    Simulator::Schedule(at - now,
                        &ScaleUpDomain::SetLinkState,
                        Ptr<ScaleUpDomain>(this),
                        host,
                        false);
    if (upAt != Time::Max())
    {
        Simulator::Schedule(upAt - now,
                            &ScaleUpDomain::SetLinkState,
                            Ptr<ScaleUpDomain>(this),
                            host,
                            true);
    }
}

void
ScaleUpDomain::DegradeLink(uint32_t host, DataRate rate, Time at)
{
    NS_LOG_FUNCTION(this << host << rate << at);
    CheckHost(host, "DegradeLink");
    NS_ABORT_MSG_IF(rate.GetBitRate() == 0, "ScaleUpDomain::DegradeLink: rate must be positive");
    const Time now = Simulator::Now();
    if (at <= now)
    {
        SetLinkRate(host, rate);
        return;
    }
    Simulator::Schedule(at - now,
                        &ScaleUpDomain::SetLinkRate,
                        Ptr<ScaleUpDomain>(this),
                        host,
                        rate);
}

void
ScaleUpDomain::SetLinkState(uint32_t host, bool up)
{
    NS_LOG_FUNCTION(this << host << up);
    m_links[host].receiver[0]->SetDown(!up);
    m_links[host].receiver[1]->SetDown(!up);
}

void
ScaleUpDomain::SetLinkRate(uint32_t host, DataRate rate)
{
    NS_LOG_FUNCTION(this << host << rate);
    m_links[host].device[0]->SetDataRate(rate);
    m_links[host].device[1]->SetDataRate(rate);
}

ClosPlane::LinkCounters
ScaleUpDomain::GetLinkCounters(uint32_t host, uint32_t direction) const
{
    CheckHost(host, "GetLinkCounters");
    NS_ABORT_MSG_IF(direction > 1, "ScaleUpDomain::GetLinkCounters: direction must be 0 or 1");
    // Direction 0 ends at the switch, whose receive error model counts it.
    const Ptr<FabricLinkErrorModel>& em = m_links[host].receiver[1 - direction];
    ClosPlane::LinkCounters c;
    c.packets = em->GetRxPackets();
    c.bytes = em->GetRxBytes();
    c.droppedPackets = em->GetDroppedPackets();
    c.droppedBytes = em->GetDroppedBytes();
    return c;
}

DataRate
ScaleUpDomain::GetRate() const
{
    CheckHost(0, "GetRate");
    DataRateValue v;
    m_links[0].device[0]->GetAttribute("DataRate", v);
    return v.Get();
}

Time
ScaleUpDomain::GetDelay() const
{
    CheckHost(0, "GetDelay");
    TimeValue v;
    m_links[0].device[0]->GetChannel()->GetAttribute("Delay", v);
    return v.Get();
}

Time
ScaleUpDomain::GetBaseRtt(uint32_t src, uint32_t dst, uint32_t packetBytes, uint32_t ackBytes) const
{
    NS_ABORT_MSG_IF(!IsSameServer(src, dst) || src == dst,
                    "ScaleUpDomain::GetBaseRtt: src (" << src << ") and dst (" << dst
                                                       << ") must be two GPUs of one server");
    constexpr uint32_t ppp = 2;
    const DataRate rate = GetRate();
    const Time perLink = 2 * GetDelay() + rate.CalculateBytesTxTime(packetBytes + ppp) +
                         rate.CalculateBytesTxTime(ackBytes + ppp);
    return 2 * perLink;
}

} // namespace ns3
