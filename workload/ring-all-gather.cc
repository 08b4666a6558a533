/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ring-all-gather.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RingAllGather");

NS_OBJECT_ENSURE_REGISTERED(RingAllGather);

TypeId
RingAllGather::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RingAllGather")
                            .SetParent<RingCollective>()
                            .SetGroupName("Reps")
                            .AddConstructor<RingAllGather>();
    return tid;
}

RingAllGather::RingAllGather()
{
    NS_LOG_FUNCTION(this);
}

RingAllGather::~RingAllGather()
{
    NS_LOG_FUNCTION(this);
}

std::string
RingAllGather::GetName() const
{
    return "allgather";
}

uint32_t
RingAllGather::GetSteps() const
{
    return GetSize() - 1;
}

uint32_t
RingAllGather::GetChunk(uint32_t i, uint32_t k) const
{
    uint32_t n = GetSize();
    return (i + n - k) % n;
}

} // namespace ns3
