/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The stages of an ExperimentRun that only an MPI run (--systems > 1) takes.

#include "distributed-run.h"
#include "experiment-run.h"

#include "ns3/abort.h"
#include "ns3/channel.h"
#include "ns3/clos-fabric.h"
#include "ns3/log.h"
#include "ns3/point-to-point-net-device.h"

#include <iostream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ExperimentRunDistributed");

namespace
{

} // namespace

void
ExperimentRun::ScheduleOwnFlows()
{
    NS_LOG_FUNCTION(this);
    CheckPartition();
    // No stop when this rank's flows are done: its hosts still receive and acknowledge flows
    // of other ranks. A rank runs until no rank has events left (or --stopTime).
    const uint32_t rank = DistributedRun::GetRank();
    std::vector<FlowSpec> own;
    for (const FlowSpec& f : m_flows)
    {
        if (m_hosts.Get(f.src)->GetSystemId() == rank)
        {
            own.push_back(f);
        }
    }
    m_runner->Schedule(own);
    m_totalFlows = static_cast<uint32_t>(own.size());
}

void
ExperimentRun::CheckPartition() const
{
    const uint32_t ranks = DistributedRun::GetSize();
    std::vector<uint32_t> hostsPerRank(ranks, 0);
    for (uint32_t h = 0; h < m_hosts.GetN(); ++h)
    {
        uint32_t system = m_hosts.Get(h)->GetSystemId();
        NS_ABORT_MSG_UNLESS(system < ranks, "host " << h << " is on system " << system);
        ++hostsPerRank[system];
    }
    uint32_t cut = 0;
    Time lookahead = Time::Max();
    for (uint32_t link = 0; link < m_fabric->GetNLinks(); ++link)
    {
        Ptr<Node> a = m_fabric->GetLinkNode(link, 0);
        Ptr<Node> b = m_fabric->GetLinkNode(link, 1);
        NS_ABORT_MSG_UNLESS(a->GetSystemId() < ranks && b->GetSystemId() < ranks,
                            "link " << m_fabric->GetLinkName(link) << " has a node on no rank");
        if (a->GetSystemId() == b->GetSystemId())
        {
            continue;
        }
        // ns-3's PointToPointHelper makes the remote channel when the ends are on two ranks.
        std::string channel =
            m_fabric->GetLinkDevice(link, 0)->GetChannel()->GetInstanceTypeId().GetName();
        NS_ABORT_MSG_UNLESS(channel == "ns3::PointToPointRemoteChannel",
                            "link " << m_fabric->GetLinkName(link) << " between ranks is a "
                                    << channel);
        ++cut;
        lookahead = std::min(lookahead, m_fabric->GetLinkDelay(link));
    }
    if (DistributedRun::GetRank() == 0 && !m_exp.quiet)
    {
        std::cout << "MPI: " << ranks << " ranks, hosts per rank";
        for (uint32_t n : hostsPerRank)
        {
            std::cout << " " << n;
        }
        std::cout << ", " << cut << " links between ranks (remote channels), lookahead "
                  << lookahead.As(Time::US) << std::endl;
    }
}

void
ExperimentRun::GatherRanks()
{
    NS_LOG_FUNCTION(this);
    RunResult& r = m_result;
    std::vector<std::vector<uint64_t>> parts = DistributedRun::GatherToRoot(DistributedRun::Pack(r));
    if (DistributedRun::GetRank() != 0)
    {
        return;
    }
    const Time localEnd = r.simTime;
    DistributedRun::ClearCounters(r);
    std::map<uint32_t, Time> completions;
    for (const std::vector<uint64_t>& part : parts)
    {
        std::string error = DistributedRun::Merge(r, part, completions);
        NS_ABORT_MSG_UNLESS(error.empty(), "gathering the ranks' results: " << error);
    }
    // The flows in the order a sequential run registers them, with their completions.
    FlowStats merged;
    merged.SetIdealCallback(IdealFctCallback());
    for (const FlowSpec& f : m_flows)
    {
        merged.AddFlow(f);
        auto it = completions.find(f.id);
        if (it != completions.end())
        {
            merged.RecordCompletion(f.id, it->second);
        }
    }
    r.flows = merged;
    // A sequential run stops when the last flow completes; the ranks run on until none has
    // events left.
    if (merged.GetFlowCount() > 0 && merged.GetCompletedCount() == merged.GetFlowCount())
    {
        r.simTime = merged.GetLastCompletion();
    }
    NS_LOG_LOGIC("rank 0 ended at " << localEnd.As(Time::US) << ", run " << r.simTime);
    double linkPackets = r.extra["link_packets"];
    r.extra["wall_us_per_link_packet"] = linkPackets ? r.wallSeconds * 1e6 / linkPackets : 0.0;
}

} // namespace ns3
