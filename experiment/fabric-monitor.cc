/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fabric-monitor.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/fabric-trace-helper.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/pfc-port.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/queue-disc.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FabricMonitor");

NS_OBJECT_ENSURE_REGISTERED(FabricMonitor);

namespace
{

/**
 * \param role a switch role.
 * \return the name of its tier.
 */
const char*
RoleName(ClosFabric::Role role)
{
    switch (role)
    {
    case ClosFabric::LEAF:
        return "leaf";
    case ClosFabric::SPINE:
        return "spine";
    case ClosFabric::AGG:
        return "agg";
    case ClosFabric::CORE:
        return "core";
    default:
        return "host";
    }
}

/**
 * \param tier a link tier.
 * \return its name.
 */
const char*
TierName(ClosFabric::Tier tier)
{
    switch (tier)
    {
    case ClosFabric::HOST_LEAF:
        return "host-leaf";
    case ClosFabric::LEAF_SPINE:
        return "leaf-spine";
    case ClosFabric::LEAF_AGG:
        return "leaf-agg";
    default:
        return "agg-core";
    }
}

/**
 * \param fabric the fabric
 * \param link a link
 * \param side one end of it (the direction from that end, or the port on that end)
 * \return a series name: "leaf0-spine1" for leaf 0 toward spine 1 ("_k" for parallel link k)
 */
std::string
SeriesName(Ptr<ClosFabric> fabric, uint32_t link, uint32_t side)
{
    std::string name = FabricTraceHelper::GetPortName(fabric, link, side);
    std::replace(name.begin(), name.end(), '#', '_');
    return name;
}

} // namespace

TypeId
FabricMonitor::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FabricMonitor")
            .SetParent<Object>()
            .SetGroupName("Reps")
            .AddConstructor<FabricMonitor>()
            .AddAttribute("Interval",
                          "Sampling interval of the time series (0: no time series).",
                          TimeValue(MicroSeconds(10)),
                          MakeTimeAccessor(&FabricMonitor::m_interval),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("PerLinkSeries",
                          "Also sample link_utilization (every switch-to-switch link, per "
                          "direction) and port_queue_bytes (the busiest switch ports).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&FabricMonitor::m_perLink),
                          MakeBooleanChecker())
            .AddAttribute("BusiestPorts",
                          "How many switch ports port_queue_bytes holds: those with the "
                          "deepest maximum queue over the samples.",
                          UintegerValue(8),
                          MakeUintegerAccessor(&FabricMonitor::m_busiestPorts),
                          MakeUintegerChecker<uint32_t>(1, 1024));
    return tid;
}

FabricMonitor::FabricMonitor()
    : m_interval(MicroSeconds(10)),
      m_lastQueueDrops(0),
      m_lastLinkDrops(0),
      m_lastDelivered(0),
      m_completedSince(0),
      m_perLink(false),
      m_busiestPorts(8),
      m_started(false)
{
    NS_LOG_FUNCTION(this);
}

FabricMonitor::~FabricMonitor()
{
    NS_LOG_FUNCTION(this);
}

void
FabricMonitor::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_event.Cancel();
    m_ports.clear();
    m_fabric = nullptr;
    m_runner = nullptr;
    Object::DoDispose();
}

void
FabricMonitor::SetFabric(Ptr<ClosFabric> fabric)
{
    NS_LOG_FUNCTION(this << fabric);
    m_fabric = fabric;
    m_ports.clear();
    m_tierNames.clear();
    for (uint32_t link = 0; link < fabric->GetNLinks(); ++link)
    {
        for (uint32_t side = 0; side < 2; ++side)
        {
            ClosFabric::Role role = fabric->GetRole(fabric->GetLinkNode(link, side));
            Ptr<QueueDisc> qd = fabric->GetQueueDisc(link, side);
            if (role == ClosFabric::HOST || !qd)
            {
                continue;
            }
            std::string name = RoleName(role);
            auto it = std::find(m_tierNames.begin(), m_tierNames.end(), name);
            uint32_t tier = static_cast<uint32_t>(it - m_tierNames.begin());
            if (it == m_tierNames.end())
            {
                m_tierNames.push_back(name);
            }
            m_ports.push_back({link, side, tier, qd});
        }
    }
}

void
FabricMonitor::SetRunner(Ptr<WorkloadRunner> runner)
{
    NS_LOG_FUNCTION(this << runner);
    m_runner = runner;
    runner->TraceConnectWithoutContext("FlowCompleted",
                                       MakeCallback(&FabricMonitor::FlowCompleted, this));
}

void
FabricMonitor::FlowCompleted(const FlowSpec& flow, Time fct)
{
    ++m_completedSince;
}

void
FabricMonitor::Start()
{
    NS_LOG_FUNCTION(this);
    NS_ABORT_MSG_UNLESS(m_fabric, "FabricMonitor: no fabric (SetFabric)");
    m_started = true;
    m_queue = TimeSeries("queue_bytes", "bytes", m_tierNames);
    m_drops = TimeSeries("drops", "packets", {"queue", "link_down"});
    m_delivered = TimeSeries("delivered_bytes", "bytes", {"total"});
    m_completed = TimeSeries("completed_flows", "flows", {"total"});
    m_lastQueueDrops = 0;
    m_lastLinkDrops = 0;
    m_lastDelivered = GetDeliveredBytes();
    m_completedSince = 0;
    m_links.clear();
    m_portDepth.assign(m_perLink ? m_ports.size() : 0, {});
    m_lastSample = Simulator::Now();
    if (m_perLink)
    {
        std::vector<std::string> names;
        for (uint32_t link = 0; link < m_fabric->GetNLinks(); ++link)
        {
            if (m_fabric->GetLinkTier(link) == ClosFabric::HOST_LEAF)
            {
                continue;
            }
            for (uint32_t dir = 0; dir < 2; ++dir)
            {
                m_links.push_back({link, dir, m_fabric->GetLinkCounters(link, dir).bytes});
                names.push_back(SeriesName(m_fabric, link, dir));
            }
        }
        m_linkUtil = TimeSeries("link_utilization", "fraction", names);
    }
    if (m_interval.IsStrictlyPositive())
    {
        m_event = Simulator::Schedule(m_interval, &FabricMonitor::Sample, this);
    }
}

void
FabricMonitor::Sample()
{
    Record();
    bool done = m_runner && m_runner->GetTotal() > 0 && m_runner->IsDone();
    if (!done && !Simulator::IsFinished())
    {
        m_event = Simulator::Schedule(m_interval, &FabricMonitor::Sample, this);
    }
}

void
FabricMonitor::Record()
{
    std::vector<double> depth(m_tierNames.size(), 0.0);
    uint64_t queueDrops = 0;
    for (const Port& p : m_ports)
    {
        depth[p.tier] = std::max(depth[p.tier], static_cast<double>(p.qd->GetNBytes()));
        queueDrops += p.qd->GetStats().nTotalDroppedPackets;
    }
    uint64_t linkDrops = 0;
    for (uint32_t link = 0; link < m_fabric->GetNLinks(); ++link)
    {
        linkDrops += m_fabric->GetLinkCounters(link, 0).droppedPackets +
                     m_fabric->GetLinkCounters(link, 1).droppedPackets;
    }
    uint64_t delivered = GetDeliveredBytes();
    Time now = Simulator::Now();
    m_queue.Append(now, depth);
    m_drops.Append(now,
                   {static_cast<double>(queueDrops - m_lastQueueDrops),
                    static_cast<double>(linkDrops - m_lastLinkDrops)});
    m_delivered.Append(now, {static_cast<double>(delivered - m_lastDelivered)});
    m_completed.Append(now, {static_cast<double>(m_completedSince)});
    m_lastQueueDrops = queueDrops;
    m_lastLinkDrops = linkDrops;
    m_lastDelivered = delivered;
    m_completedSince = 0;
    if (m_perLink)
    {
        RecordLinks();
    }
    m_lastSample = now;
}

void
FabricMonitor::RecordLinks()
{
    Time now = Simulator::Now();
    double seconds = (now - m_lastSample).GetSeconds();
    std::vector<double> util;
    util.reserve(m_links.size());
    for (DirectedLink& l : m_links)
    {
        uint64_t bytes = m_fabric->GetLinkCounters(l.link, l.direction).bytes;
        double capacity = m_fabric->GetLinkRate(l.link).GetBitRate() * seconds;
        util.push_back(capacity > 0 ? 8.0 * (bytes - l.lastBytes) / capacity : 0.0);
        l.lastBytes = bytes;
    }
    m_linkUtil.Append(now, util);
    for (size_t i = 0; i < m_ports.size(); ++i)
    {
        m_portDepth[i].push_back(static_cast<double>(m_ports[i].qd->GetNBytes()));
    }
}

TimeSeries
FabricMonitor::BusiestPortSeries() const
{
    std::vector<std::pair<double, size_t>> peaks;
    for (size_t i = 0; i < m_portDepth.size(); ++i)
    {
        double peak = 0;
        for (double v : m_portDepth[i])
        {
            peak = std::max(peak, v);
        }
        peaks.emplace_back(peak, i);
    }
    // Deepest first; ties in the order of the ports, so that a run is reproducible.
    std::stable_sort(peaks.begin(), peaks.end(), [](const auto& a, const auto& b) {
        return a.first > b.first;
    });
    peaks.resize(std::min<size_t>(peaks.size(), m_busiestPorts));
    std::vector<std::string> names;
    for (const auto& p : peaks)
    {
        names.push_back(SeriesName(m_fabric, m_ports[p.second].link, m_ports[p.second].side));
    }
    TimeSeries ts("port_queue_bytes", "bytes", names);
    const std::vector<double>& times = m_queue.GetTimesUs();
    for (size_t k = 0; k < times.size(); ++k)
    {
        std::vector<double> row;
        for (const auto& p : peaks)
        {
            row.push_back(m_portDepth[p.second][k]);
        }
        ts.Append(MicroSeconds(1) * times[k], row);
    }
    return ts;
}

uint64_t
FabricMonitor::GetDeliveredBytes() const
{
    uint64_t bytes = 0;
    for (uint32_t host = 0; host < m_fabric->GetNHosts(); ++host)
    {
        // Direction 1 of a host link runs from the leaf down to the host.
        bytes += m_fabric->GetLinkCounters(m_fabric->GetHostLink(host), 1).bytes;
    }
    return bytes;
}

uint64_t
FabricMonitor::GetDrops() const
{
    uint64_t drops = 0;
    for (const Port& p : m_ports)
    {
        drops += p.qd->GetStats().nTotalDroppedPackets;
    }
    for (uint32_t link = 0; link < m_fabric->GetNLinks(); ++link)
    {
        drops += m_fabric->GetLinkCounters(link, 0).droppedPackets +
                 m_fabric->GetLinkCounters(link, 1).droppedPackets;
    }
    return drops;
}

uint64_t
FabricMonitor::GetLinkPackets() const
{
    uint64_t packets = 0;
    for (uint32_t link = 0; link < m_fabric->GetNLinks(); ++link)
    {
        packets +=
            m_fabric->GetLinkCounters(link, 0).packets + m_fabric->GetLinkCounters(link, 1).packets;
    }
    return packets;
}

void
FabricMonitor::FillPfc(PfcResult& pfc) const
{
    pfc = PfcResult();
    for (uint32_t link = 0; link < m_fabric->GetNLinks(); ++link)
    {
        for (uint32_t side = 0; side < 2; ++side)
        {
            Ptr<PfcPort> port = m_fabric->GetLinkDevice(link, side)->GetObject<PfcPort>();
            if (!port)
            {
                continue;
            }
            pfc.enabled = true;
            const PfcPort::Counters& c = port->GetCounters();
            PortPause pp;
            Ptr<Node> node = m_fabric->GetLinkNode(link, side);
            pp.port = m_fabric->GetNodeName(node) + "->" +
                      m_fabric->GetNodeName(m_fabric->GetLinkNode(link, 1 - side));
            std::string name = m_fabric->GetLinkName(link);
            size_t hash = name.find('#');
            pp.port += hash == std::string::npos ? "" : name.substr(hash);
            pp.tier = RoleName(m_fabric->GetRole(node));
            pp.pausesSent = c.pausesSent;
            pp.resumesSent = c.resumesSent;
            pp.pausesReceived = c.pausesReceived;
            pp.pausedUs = port->GetPausedTime(port->GetPriority()).ToDouble(Time::US);
            pfc.pausesSent += pp.pausesSent;
            pfc.resumesSent += pp.resumesSent;
            pfc.pausesReceived += pp.pausesReceived;
            pfc.pausedUs += pp.pausedUs;
            pfc.pausesSentPerTier[pp.tier] += pp.pausesSent;
            if (pp.pausesSent + pp.resumesSent + pp.pausesReceived > 0)
            {
                pfc.ports.push_back(pp);
            }
        }
    }
}

void
FabricMonitor::Fill(RunResult& result)
{
    NS_LOG_FUNCTION(this);
    NS_ABORT_MSG_UNLESS(m_fabric, "FabricMonitor: no fabric (SetFabric)");
    result.drops = GetDrops();
    result.trims = 0;
    result.ecnMarks = 0;
    result.maxQueueBytes = 0;
    result.maxQueueBytesPerTier.clear();
    for (const std::string& name : m_tierNames)
    {
        result.maxQueueBytesPerTier[name] = 0;
    }
    for (const Port& p : m_ports)
    {
        ClosFabric::QueueStats s = m_fabric->GetQueueStats(p.link, p.side);
        result.trims += s.trims;
        result.ecnMarks += s.marks;
        uint64_t maxBytes = s.hasDepth ? s.maxBytes : 0;
        uint64_t& tierMax = result.maxQueueBytesPerTier[m_tierNames[p.tier]];
        tierMax = std::max(tierMax, maxBytes);
        result.maxQueueBytes = std::max(result.maxQueueBytes, maxBytes);
    }
    result.linkBytes.clear();
    for (uint32_t link = 0; link < m_fabric->GetNLinks(); ++link)
    {
        ClosFabric::Tier tier = m_fabric->GetLinkTier(link);
        if (tier == ClosFabric::HOST_LEAF)
        {
            continue;
        }
        for (uint32_t dir = 0; dir < 2; ++dir)
        {
            LinkLoad l;
            std::string a = m_fabric->GetNodeName(m_fabric->GetLinkNode(link, dir));
            std::string b = m_fabric->GetNodeName(m_fabric->GetLinkNode(link, 1 - dir));
            std::string name = m_fabric->GetLinkName(link);
            size_t hash = name.find('#');
            l.link = a + "->" + b + (hash == std::string::npos ? "" : name.substr(hash));
            l.tier = std::string(TierName(tier)) + (dir == 0 ? ":up" : ":down");
            l.bytes = m_fabric->GetLinkCounters(link, dir).bytes;
            l.rateBps = m_fabric->GetLinkRate(link).GetBitRate();
            result.linkBytes.push_back(l);
        }
    }
    FillPlanes(result.planes);
    FillScaleUp(result.extra);
    FillPfc(result.pfc);
    if (m_started && m_interval.IsStrictlyPositive())
    {
        if (m_queue.GetSize() == 0 ||
            m_queue.GetTimesUs().back() < Simulator::Now().ToDouble(Time::US))
        {
            Record();
        }
        result.timeseries.push_back(m_queue);
        result.timeseries.push_back(m_drops);
        result.timeseries.push_back(m_delivered);
        if (m_runner)
        {
            result.timeseries.push_back(m_completed);
        }
        if (m_perLink && !m_ports.empty())
        {
            result.timeseries.push_back(m_linkUtil);
            result.timeseries.push_back(BusiestPortSeries());
        }
    }
}

void
FabricMonitor::FillScaleUp(std::map<std::string, double>& extra) const
{
    Ptr<ScaleUpDomain> domain = m_fabric->GetScaleUp();
    if (!domain)
    {
        return;
    }
    uint64_t packets = 0;
    uint64_t bytes = 0;
    for (uint32_t h = 0; h < domain->GetNLinks(); ++h)
    {
        ClosFabric::LinkCounters c = domain->GetLinkCounters(h, 0);
        packets += c.packets;
        bytes += c.bytes;
    }
    extra["scale_up_packets"] = static_cast<double>(packets);
    extra["scale_up_bytes"] = static_cast<double>(bytes);
}

void
FabricMonitor::FillPlanes(std::vector<PlaneLoad>& planes) const
{
    // What the hosts sent into each plane, over their links to its leaves.
    planes.clear();
    for (uint32_t p = 0; m_fabric->GetNPlanes() > 1 && p < m_fabric->GetNPlanes(); ++p)
    {
        PlaneLoad load;
        load.plane = p;
        for (uint32_t h = 0; h < m_fabric->GetNHosts(); ++h)
        {
            ClosFabric::LinkCounters c = m_fabric->GetLinkCounters(m_fabric->GetHostLink(h, p), 0);
            load.packets += c.packets;
            load.bytes += c.bytes;
        }
        planes.push_back(load);
    }
    uint64_t total = 0;
    for (const PlaneLoad& load : planes)
    {
        total += load.bytes;
    }
    for (PlaneLoad& load : planes)
    {
        load.share = total ? static_cast<double>(load.bytes) / total : 0.0;
    }
}

} // namespace ns3
