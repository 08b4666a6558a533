/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ring-all-reduce.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RingAllReduce");

NS_OBJECT_ENSURE_REGISTERED(RingAllReduce);

TypeId
RingAllReduce::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RingAllReduce")
                            .SetParent<SteppedCollective>()
                            .SetGroupName("Reps")
                            .AddConstructor<RingAllReduce>();
    return tid;
}

RingAllReduce::RingAllReduce()
{
    NS_LOG_FUNCTION(this);
}

RingAllReduce::~RingAllReduce()
{
    NS_LOG_FUNCTION(this);
}

std::string
RingAllReduce::GetName() const
{
    return "allreduce";
}

uint32_t
RingAllReduce::GetSteps() const
{
    return 2 * (GetSize() - 1);
}

uint32_t
RingAllReduce::GetChunk(uint32_t i, uint32_t k) const
{
    uint32_t n = GetSize();
    return (i + n - k % n) % n;
}

uint32_t
RingAllReduce::GetPeer(uint32_t i, uint32_t /* k */) const
{
    return (i + 1) % GetSize();
}

uint64_t
RingAllReduce::GetStepBytes(uint32_t i, uint32_t k) const
{
    return GetChunkBytes(GetChunk(i, k));
}

uint32_t
RingAllReduce::GetInputSource(uint32_t i, uint32_t /* k */) const
{
    return (i + GetSize() - 1) % GetSize();
}

} // namespace ns3
