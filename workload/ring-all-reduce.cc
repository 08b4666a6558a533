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
                            .SetParent<RingCollective>()
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

} // namespace ns3
