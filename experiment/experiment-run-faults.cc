/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The stages of ExperimentRun that change the fabric under the workload (degraded and failed
// links, the failure schedule) or watch it (packet captures).

#include "experiment-run.h"
#include "experiment-streams.h"
#include "option-parser.h"

#include "ns3/cable-failure-controller.h"
#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/ecn-queue-disc.h"
#include "ns3/fabric-trace-helper.h"
#include "ns3/failure-injector.h"
#include "ns3/log.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/queue-size.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ExperimentRunFaults");

void
ExperimentRun::EnableCaptures()
{
    const FabricExperiment& e = m_exp;
    if (e.pcap.empty())
    {
        return;
    }
    FabricTraceHelper trace;
    std::string error = trace.SetSnapLength(e.pcapSnapLen);
    NodeContainer nodes;
    if (error.empty())
    {
        error = FabricTraceHelper::ParseNodes(m_fabric, e.pcapNodes, nodes);
    }
    if (!error.empty())
    {
        OptionParser::Exit("--pcapNodes: " + error);
    }
    // One set of files per path selector: each has a fabric of its own.
    trace.EnablePcap(e.pcap + "-" + m_choice.name, m_fabric, nodes);
}

void
ExperimentRun::SlowDownLinks()
{
    const FabricExperiment& e = m_exp;
    if (e.slowLinks == 0)
    {
        return;
    }
    const ExperimentOptions::SlowQueue q = e.GetSlowLinkQueue();
    // (link, transmitting side): 3 tiers, the core's side of agg-core links; 2 tiers, both.
    std::vector<std::pair<uint32_t, uint32_t>> directions;
    for (const auto& [g, l] : e.GetSlowLinkSelection())
    {
        if (e.tiers == 2)
        {
            for (uint32_t leaf = 0; leaf < m_fabric->GetNLeaves(); ++leaf)
            {
                const uint32_t link = m_fabric->GetLeafSpineLink(leaf, g);
                directions.emplace_back(link, 0);
                directions.emplace_back(link, 1);
            }
            continue;
        }
        const uint32_t pod = g / e.spines;
        Ptr<Node> agg = m_fabric->GetAgg(pod, g % e.spines);
        // The l-th core this aggregation switch is wired to, in core order.
        uint32_t seen = 0;
        for (uint32_t core = 0; core < m_fabric->GetNCores(); ++core)
        {
            const uint32_t link = m_fabric->FindLink(agg, m_fabric->GetCore(core));
            if (link != ClosFabric::NO_LINK && seen++ == l)
            {
                directions.emplace_back(link, 1);
                break;
            }
        }
    }
    for (const auto& [link, side] : directions)
    {
        Ptr<PointToPointNetDevice> device = m_fabric->GetLinkDevice(link, side);
        DataRateValue rate;
        device->GetAttribute("DataRate", rate);
        const DataRate slow(static_cast<uint64_t>(
            std::llround(static_cast<double>(rate.Get().GetBitRate()) * e.slowLinkFactor)));
        device->SetDataRate(slow);
        Ptr<EcnQueueDisc> disc = DynamicCast<EcnQueueDisc>(m_fabric->GetQueueDisc(link, side));
        if (!disc)
        {
            OptionParser::Exit("--slowLinks: the egress queue of " + m_fabric->GetLinkName(link) +
                               " is not an EcnQueueDisc, whose size and ECN thresholds it "
                               "scales; allowed: the experiments' switch queues");
        }
        // Kmin first: every intermediate state stays below the size.
        disc->SetAttribute("Kmin", QueueSizeValue(QueueSize(QueueSizeUnit::PACKETS, q.kmin)));
        disc->SetAttribute("Kmax", QueueSizeValue(QueueSize(QueueSizeUnit::PACKETS, q.kmax)));
        disc->SetMaxSize(QueueSize(QueueSizeUnit::PACKETS, q.size));
        SlowLink s;
        s.link = m_fabric->GetNodeName(m_fabric->GetLinkNode(link, side)) + "->" +
                 m_fabric->GetNodeName(m_fabric->GetLinkNode(link, 1 - side));
        s.rateBps = slow.GetBitRate();
        s.queuePackets = q.size;
        s.ecnKmin = q.kmin;
        s.ecnKmax = q.kmax;
        m_result.slowLinks.push_back(s);
        // In the JSON's events, as the other links of the fault options.
        m_result.events.push_back({Seconds(0),
                                   s.link + " at " + std::to_string(s.rateBps / 1000000) +
                                       "Mbps, queue " + std::to_string(q.size) + " packets, ECN " +
                                       std::to_string(q.kmin) + "-" + std::to_string(q.kmax) +
                                       " (--slowLinks)"});
    }
}

std::vector<FailureSchedule::Event>
ExperimentRun::FaultOptionEvents() const
{
    const FabricExperiment& e = m_exp;
    // Not lines of a file (line 0), and not in the JSON "failures" array.
    std::vector<FailureSchedule::Event> events;
    FailureSchedule::Event uplinks;
    uplinks.isUplinks = true;
    uplinks.reported = false;
    if (e.degradedLinks > 0)
    {
        FailureSchedule::Event d = uplinks;
        d.uplinks = e.degradedLinks;
        d.leaf = e.degradeLeaf;
        d.stream = e.degradeLeaf < 0 ? ExperimentStreams::DEGRADED : -1;
        d.action = FailureSchedule::RATE;
        d.rateBps = m_parsed.degradedRate.GetBitRate();
        events.push_back(d);
    }
    if (e.failedLinks > 0)
    {
        FailureSchedule::Event f = uplinks;
        f.uplinks = e.failedLinks;
        f.leaf = e.failLeaf;
        f.stream = e.failLeaf < 0 ? ExperimentStreams::FAILED : -1;
        f.gapNs = m_parsed.failGap.GetNanoSeconds();
        f.timeNs = m_parsed.failAt.GetNanoSeconds();
        f.action = FailureSchedule::DOWN;
        events.push_back(f);
        if (m_parsed.failFor.IsStrictlyPositive())
        {
            f.timeNs += m_parsed.failFor.GetNanoSeconds();
            f.action = FailureSchedule::UP;
            events.push_back(f);
        }
    }
    return events;
}

void
ExperimentRun::InjectCableFailures()
{
    // --failedCables and its companions are the controller's attributes (defaults set by the
    // options); a share of 0 installs nothing.
    Ptr<CableFailureController> cables = CreateObject<CableFailureController>();
    const FailureSchedule::HtsimCableFailures& file = m_exp.GetHtsimCableFailures();
    if (file.on)
    {
        DoubleValue option;
        cables->GetAttribute("MaxShare", option);
        if (option.Get() > 0)
        {
            OptionParser::Exit("--failedCables and --failureFile " + m_exp.failureFile +
                               " (Cable-Fail: ON) both fail cables; give one of them");
        }
        cables->SetAttribute("MaxShare", DoubleValue(file.share));
        cables->SetAttribute("StartTime", TimeValue(NanoSeconds(file.startNs)));
        cables->SetAttribute("Period", TimeValue(NanoSeconds(file.periodNs)));
    }
    DoubleValue share;
    cables->GetAttribute("MaxShare", share);
    if (share.Get() <= 0)
    {
        return;
    }
    m_cables = cables;
    m_cables->Install(m_fabric);
    Ptr<ClosFabric> fabric = m_fabric;
    RunResult* result = &m_result;
    m_cables->TraceConnectWithoutContext(
        "CableFailed",
        Callback<void, uint32_t, uint32_t>([fabric, result](uint32_t link, uint32_t direction) {
            const std::string from = fabric->GetNodeName(fabric->GetLinkNode(link, direction));
            const std::string to = fabric->GetNodeName(fabric->GetLinkNode(link, 1 - direction));
            result->events.push_back({Simulator::Now(), from + "->" + to + " fails"});
        }));
}

void
ExperimentRun::InjectFaults()
{
    // The same for every path selector: fixed streams, whatever the selector drew before.
    const FabricExperiment& e = m_exp;
    InjectCableFailures();
    std::vector<FailureSchedule::Event> events = FaultOptionEvents();
    const size_t fromOptions = events.size();
    events.insert(events.end(), e.GetFailureEvents().begin(), e.GetFailureEvents().end());
    if (!events.empty())
    {
        m_injector = CreateObject<FailureInjector>();
        std::string error = m_injector->Schedule(m_fabric, events);
        if (!error.empty())
        {
            // Line 0: the fault options, whose counts the options' own checks bound.
            const std::string option = "line 0: ";
            OptionParser::Exit(error.rfind(option, 0) == 0
                                   ? "--degradedLinks, --failedLinks: " +
                                         error.substr(option.size())
                                   : "--failureFile: " + e.failureFile + ": " + error);
        }
        m_injector->AssignStreams(ExperimentStreams::LOSS);
    }
    // The events of the fault options, link by link in the order picked (an up right after
    // its down: the order of the markers of one time).
    for (size_t i = 0; i < fromOptions; ++i)
    {
        const FailureSchedule::Event& o = events[i];
        if (o.action == FailureSchedule::UP)
        {
            continue;
        }
        std::vector<uint32_t> links = m_injector->GetEventLinks(i);
        for (size_t k = 0; k < links.size(); ++k)
        {
            const std::string name = m_fabric->GetLinkName(links[k]);
            const Time at = NanoSeconds(o.timeNs + static_cast<int64_t>(k) * o.gapNs);
            if (o.action == FailureSchedule::RATE)
            {
                m_result.events.push_back({at, name + " at " + e.degradedRate});
                continue;
            }
            m_result.events.push_back({at, name + " down"});
            if (m_parsed.failFor.IsStrictlyPositive())
            {
                m_result.events.push_back({at + m_parsed.failFor, name + " up"});
            }
        }
    }
    if (m_injector)
    {
        for (const FailureInjector::Outcome& o : m_injector->GetOutcomes())
        {
            m_result.events.push_back({o.at, o.element + " " + o.action});
        }
    }
    std::stable_sort(m_result.events.begin(),
                     m_result.events.end(),
                     [](const RunEvent& a, const RunEvent& b) { return a.time < b.time; });
}

} // namespace ns3
