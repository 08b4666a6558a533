/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "hash-port-selector.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("HashPortSelector");

NS_OBJECT_ENSURE_REGISTERED(HashPortSelector);

TypeId
HashPortSelector::GetTypeId()
{
    static TypeId tid = TypeId("ns3::HashPortSelector")
                            .SetParent<PortSelector>()
                            .SetGroupName("Reps")
                            .AddConstructor<HashPortSelector>();
    return tid;
}

HashPortSelector::HashPortSelector()
{
    NS_LOG_FUNCTION(this);
}

HashPortSelector::~HashPortSelector()
{
    NS_LOG_FUNCTION(this);
}

uint32_t
HashPortSelector::DoPick(const uint32_t* ports, uint32_t n, const Flow& flow)
{
    return flow.hashPort;
}

} // namespace ns3
