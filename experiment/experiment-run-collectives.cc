/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The collectives of --pattern beyond the ring all-reduce and the all-to-all: ring all-gather,
// ring reduce-scatter, butterfly all-reduce and the training loop.

#include "experiment-run.h"

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

void
ExperimentRun::MakeSteppedCollective()
{
    ObjectFactory factory(CollectiveTypeId(m_exp.pattern));
    factory.Set("DataBytes", UintegerValue(m_parsed.flowBytes));
    m_collective = factory.Create<Collective>();
    m_ringOrder = RingOrder();
    PrepareCollectivePairs(m_exp.pattern);
}

void
ExperimentRun::MakeTraining()
{
    Ptr<TrainingLoop> loop = CreateObject<TrainingLoop>();
    loop->SetAttribute("Iterations", UintegerValue(m_exp.iterations));
    loop->SetAttribute("ComputeTime", TimeValue(m_parsed.computeTime));
    if (m_exp.collective == "alltoall")
    {
        loop->SetCollective(CollectiveTypeId(m_exp.collective),
                            "BytesPerPeer",
                            UintegerValue(m_parsed.flowBytes),
                            "FlowsPerPeer",
                            UintegerValue(m_exp.qpsPerPeer));
    }
    else
    {
        loop->SetCollective(CollectiveTypeId(m_exp.collective),
                            "DataBytes",
                            UintegerValue(m_parsed.flowBytes));
    }
    m_collective = loop;
    m_ringOrder = RingOrder();
    PrepareCollectivePairs(m_exp.collective);
}

void
ExperimentRun::RdmaPartDone()
{
    if (m_runner->IsDone() && (!m_collective || m_collective->IsComplete()))
    {
        m_completion.rdma = true;
        if (m_completion.tcp)
        {
            Simulator::Stop();
        }
    }
}

} // namespace ns3
