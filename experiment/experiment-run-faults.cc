/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The stages of ExperimentRun that change the fabric under the workload (degraded and failed
// links, the failure schedule) or watch it (packet captures).

#include "experiment-run.h"
#include "experiment-streams.h"
#include "option-parser.h"

#include "ns3/fabric-trace-helper.h"
#include "ns3/failure-injector.h"
#include "ns3/log.h"
#include "ns3/random-variable-stream.h"
#include "ns3/shuffle.h"
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

void
ExperimentRun::InjectFaults()
{
    // The same for every path selector.
    const FabricExperiment& e = m_exp;
    for (uint32_t link : PickUplinks(e.degradedLinks,
                                     e.degradeLeaf,
                                     ExperimentStreams::DEGRADED,
                                     "--degradedLinks"))
    {
        m_fabric->DegradeLink(link, m_parsed.degradedRate, Seconds(0));
        m_result.events.push_back(
            {Seconds(0), m_fabric->GetLinkName(link) + " at " + e.degradedRate});
    }
    std::vector<uint32_t> failed =
        PickUplinks(e.failedLinks, e.failLeaf, ExperimentStreams::FAILED, "--failedLinks");
    for (size_t k = 0; k < failed.size(); ++k)
    {
        Time at = m_parsed.failAt + m_parsed.failGap * static_cast<int64_t>(k);
        Time up = m_parsed.failFor.IsStrictlyPositive() ? at + m_parsed.failFor : Time::Max();
        m_fabric->FailLink(failed[k], at, up);
        m_result.events.push_back({at, m_fabric->GetLinkName(failed[k]) + " down"});
        if (up != Time::Max())
        {
            m_result.events.push_back({up, m_fabric->GetLinkName(failed[k]) + " up"});
        }
    }
    if (!e.GetFailureEvents().empty())
    {
        m_injector = CreateObject<FailureInjector>();
        std::string error = m_injector->Schedule(m_fabric, e.GetFailureEvents());
        if (!error.empty())
        {
            OptionParser::Exit("--failureFile: " + e.failureFile + ": " + error);
        }
        m_injector->AssignStreams(ExperimentStreams::LOSS);
        for (const FailureInjector::Outcome& o : m_injector->GetOutcomes())
        {
            m_result.events.push_back({o.at, o.element + " " + o.action});
        }
    }
    std::stable_sort(m_result.events.begin(),
                     m_result.events.end(),
                     [](const RunEvent& a, const RunEvent& b) { return a.time < b.time; });
}

std::vector<uint32_t>
ExperimentRun::PickUplinks(uint32_t n,
                           int32_t leaf,
                           int64_t stream,
                           const std::string& option) const
{
    std::vector<uint32_t> candidates;
    uint32_t nLeaves = m_fabric->GetNLeaves();
    bool twoTier = m_exp.tiers == 2;
    // The uplinks of every plane, plane by plane (links numbered across the planes).
    for (uint32_t p = 0; p < m_fabric->GetNPlanes(); ++p)
    {
        Ptr<ClosFabric> plane = m_fabric->GetPlane(p);
        const uint32_t first = m_fabric->GetPlaneFirstLink(p);
        for (uint32_t l = 0; l < nLeaves; ++l)
        {
            if (leaf >= 0 && l != static_cast<uint32_t>(leaf))
            {
                continue;
            }
            uint32_t ups = twoTier ? plane->GetNSpines() : plane->GetNAggsPerPod();
            for (uint32_t u = 0; u < ups; ++u)
            {
                candidates.push_back(first + (twoTier ? plane->GetLeafSpineLink(l, u)
                                                      : plane->GetLeafAggLink(l, u)));
            }
        }
    }
    NS_ABORT_MSG_IF(n > candidates.size(),
                    option << ": " << n << " links asked, only " << candidates.size()
                           << " uplinks to choose from");
    if (n == 0)
    {
        return {};
    }
    if (leaf < 0)
    {
        // A random choice that depends on --RngRun, the same for every path selector.
        Ptr<UniformRandomVariable> rng = CreateObject<UniformRandomVariable>();
        rng->SetStream(stream);
        Shuffle(candidates, rng);
    }
    // Else the first n uplinks of the leaf, in order (a reproducible, easy-to-name choice).
    candidates.resize(n);
    return candidates;
}

} // namespace ns3
