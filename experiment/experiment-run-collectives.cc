/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The collectives of --pattern beyond the ring all-reduce and the all-to-all: ring all-gather,
// ring reduce-scatter, butterfly all-reduce and the training loop.

#include "experiment-run.h"

#include "ns3/abort.h"
#include "ns3/chakra-trace-replay.h"
#include "ns3/flow-trace-replay.h"
#include "ns3/job-placement.h"
#include "ns3/nccl-collective.h"
#include "ns3/object-factory.h"
#include "ns3/simulator.h"
#include "ns3/training-loop.h"
#include "ns3/uinteger.h"

#include <map>

namespace ns3
{

std::string
ExperimentRun::CollectiveTypeId(const std::string& kind)
{
    static const std::map<std::string, std::string> types = {
        {"allreduce", "ns3::RingAllReduce"},
        {"allgather", "ns3::RingAllGather"},
        {"reducescatter", "ns3::RingReduceScatter"},
        {"butterfly", "ns3::HalvingDoublingAllReduce"},
        {"alltoall", "ns3::AllToAllCollective"},
    };
    return types.at(kind);
}

void
ExperimentRun::PrepareCollectivePairs(const std::string& kind)
{
    uint32_t n = static_cast<uint32_t>(m_ringOrder.size());
    for (uint32_t i = 0; i < n; ++i)
    {
        if (kind == "alltoall")
        {
            for (uint32_t j = 0; j < n; ++j)
            {
                for (uint32_t q = 0; i != j && q < m_exp.qpsPerPeer; ++q)
                {
                    m_launcher->PreparePair(m_ringOrder[i], m_ringOrder[j], q, false);
                }
            }
        }
        else if (kind == "butterfly")
        {
            for (uint32_t d = 1; d < n; d *= 2)
            {
                m_launcher->PreparePair(m_ringOrder[i], m_ringOrder[i ^ d], 0, false);
            }
        }
        else
        {
            m_launcher->PreparePair(m_ringOrder[i], m_ringOrder[(i + 1) % n], 0, false);
        }
    }
}

Ptr<Collective>
ExperimentRun::CreatePatternCollective() const
{
    std::string kind = m_exp.GetCollectiveKind();
    ObjectFactory factory(CollectiveTypeId(kind));
    if (kind == "alltoall")
    {
        factory.Set("BytesPerPeer", UintegerValue(m_parsed.flowBytes));
        factory.Set("FlowsPerPeer", UintegerValue(m_exp.qpsPerPeer));
    }
    else
    {
        factory.Set("DataBytes", UintegerValue(m_parsed.flowBytes));
    }
    if (m_exp.pattern != "training")
    {
        return factory.Create<Collective>();
    }
    Ptr<TrainingLoop> loop = CreateObject<TrainingLoop>();
    loop->SetAttribute("Iterations", UintegerValue(m_exp.iterations));
    loop->SetAttribute("ComputeTime", TimeValue(m_parsed.computeTime));
    loop->SetCollective(factory);
    return loop;
}

void
ExperimentRun::MakeSteppedCollective()
{
    m_collective = CreatePatternCollective();
    m_ringOrder = RingOrder();
    PrepareCollectivePairs(m_exp.GetCollectiveKind());
}

void
ExperimentRun::MakeNccl()
{
    Ptr<NcclCollective> nccl = CreateObject<NcclCollective>();
    nccl->SetAttribute("DataBytes", UintegerValue(m_parsed.flowBytes));
    m_ringOrder = RingOrder();
    nccl->SetHosts(m_ringOrder);
    nccl->SetGpusPerServer(m_fabric->GetGpusPerServer());
    // Every connection's queue pairs exist before the run (their streams are assigned), and
    // the transfers of a connection queue on them as messages.
    for (const auto& [src, dst, subflow] : nccl->GetConnections())
    {
        m_launcher->PreparePair(src, dst, subflow, false);
    }
    m_collective = nccl;
}

void
ExperimentRun::MakeTraining()
{
    MakeSteppedCollective();
}

void
ExperimentRun::MakeTrace()
{
    Ptr<FlowTraceReplay> replay = CreateObject<FlowTraceReplay>();
    replay->SetTrace(m_exp.GetTrace());
    m_collective = replay;
    // The trace's flows are prepared as the launcher's ConnectionMapping wants them (one queue
    // pair per flow by default); their ids follow the other flows'.
    std::vector<FlowSpec> flows;
    uint32_t id = m_firstCollectiveId;
    for (const FlowTrace::Flow& f : m_exp.GetTrace().GetFlows())
    {
        FlowSpec spec;
        spec.id = id++;
        spec.src = f.src;
        spec.dst = f.dst;
        spec.bytes = f.bytes;
        flows.push_back(spec);
    }
    m_launcher->Prepare(flows);
}

void
ExperimentRun::MakeChakra()
{
    Ptr<ChakraTraceReplay> replay = CreateObject<ChakraTraceReplay>();
    replay->SetGpusPerServer(m_fabric->GetGpusPerServer());
    std::string error = replay->SetTrace(m_exp.GetChakraTrace());
    NS_ABORT_MSG_UNLESS(error.empty(), "--chakraTrace: " << error);
    // Rank r on host r: the replay's hosts are the trace's ranks.
    m_ringOrder = replay->GetHosts();
    for (const auto& [src, dst, subflow] : replay->GetConnections())
    {
        m_launcher->PreparePair(src, dst, subflow, false);
    }
    m_collective = replay;
}

void
ExperimentRun::MakeJobs()
{
    if (m_exp.jobs <= 1)
    {
        Patterns().at(m_exp.pattern)(*this);
        return;
    }
    JobPlacement::Layout layout = JobPlacement::Layout::CONTIGUOUS;
    bool known = JobPlacement::LayoutFromName(m_exp.jobLayout, layout);
    NS_ABORT_MSG_UNLESS(known, "--jobLayout: " << m_exp.jobLayout);
    m_jobHosts = JobPlacement::Split(m_hosts.GetN(), m_exp.jobs, layout);
    for (const std::vector<uint32_t>& hosts : m_jobHosts)
    {
        m_jobs.push_back(CreatePatternCollective());
        m_ringOrder = hosts;
        PrepareCollectivePairs(m_exp.GetCollectiveKind());
    }
    m_ringOrder.clear();
}

void
ExperimentRun::StartJobs()
{
    uint32_t firstId = m_firstCollectiveId;
    for (uint32_t j = 0; j < m_jobs.size(); ++j)
    {
        Ptr<Collective> c = m_jobs[j];
        c->SetAttribute("StartTime", TimeValue(m_parsed.start));
        c->SetAttribute("FirstFlowId", UintegerValue(firstId));
        c->SetAttribute("Group", UintegerValue(j + 1));
        c->SetHosts(m_jobHosts[j]);
        c->SetLauncher(m_runner->GetLauncher());
        c->SetCompletedCallback(MakeCallback(&ExperimentRun::RdmaPartDone, this));
        c->Start();
        firstId += c->GetFlowCount();
        m_totalFlows += c->GetFlowCount();
    }
}

void
ExperimentRun::RdmaPartDone()
{
    bool jobsDone = true;
    for (const Ptr<Collective>& c : m_jobs)
    {
        jobsDone = jobsDone && c->IsComplete();
    }
    if (m_runner->IsDone() && (!m_collective || m_collective->IsComplete()) && jobsDone)
    {
        m_completion.rdma = true;
        if (m_completion.tcp)
        {
            Simulator::Stop();
        }
    }
}

} // namespace ns3
