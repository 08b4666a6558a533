/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The stages of ExperimentRun that change the fabric under the workload (degraded and failed
// links, the failure schedule) or watch it (packet captures).

#include "experiment-run.h"
#include "experiment-streams.h"
#include "option-parser.h"

#include "ns3/cable-failure-controller.h"
#include "ns3/double.h"
#include "ns3/fabric-trace-helper.h"
#include "ns3/failure-injector.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>

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
