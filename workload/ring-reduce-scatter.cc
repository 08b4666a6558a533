/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ring-reduce-scatter.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RingReduceScatter");

NS_OBJECT_ENSURE_REGISTERED(RingReduceScatter);

TypeId
RingReduceScatter::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RingReduceScatter")
                            .SetParent<RingCollective>()
                            .SetGroupName("Reps")
                            .AddConstructor<RingReduceScatter>();
    return tid;
}

RingReduceScatter::RingReduceScatter()
{
    NS_LOG_FUNCTION(this);
}

RingReduceScatter::~RingReduceScatter()
{
    NS_LOG_FUNCTION(this);
}

std::string
RingReduceScatter::GetName() const
{
    return "reducescatter";
}

uint32_t
RingReduceScatter::GetSteps() const
{
    return GetSize() - 1;
}

uint32_t
RingReduceScatter::GetChunk(uint32_t i, uint32_t k) const
{
    uint32_t n = GetSize();
    return (i + 2 * n - k - 1) % n;
}

} // namespace ns3
