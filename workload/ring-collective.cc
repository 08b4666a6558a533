/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ring-collective.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RingCollective");

NS_OBJECT_ENSURE_REGISTERED(RingCollective);

TypeId
RingCollective::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RingCollective").SetParent<SteppedCollective>().SetGroupName("Reps");
    return tid;
}

RingCollective::RingCollective()
{
    NS_LOG_FUNCTION(this);
}

RingCollective::~RingCollective()
{
    NS_LOG_FUNCTION(this);
}

uint32_t
RingCollective::GetPeer(uint32_t i, uint32_t /* k */) const
{
    return (i + 1) % GetSize();
}

uint64_t
RingCollective::GetStepBytes(uint32_t i, uint32_t k) const
{
    return GetChunkBytes(GetChunk(i, k));
}

uint32_t
RingCollective::GetInputSource(uint32_t i, uint32_t /* k */) const
{
    return (i + GetSize() - 1) % GetSize();
}

} // namespace ns3
