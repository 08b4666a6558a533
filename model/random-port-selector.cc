/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "random-port-selector.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RandomPortSelector");

NS_OBJECT_ENSURE_REGISTERED(RandomPortSelector);

TypeId
RandomPortSelector::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RandomPortSelector")
                            .SetParent<PortSelector>()
                            .SetGroupName("Reps")
                            .AddConstructor<RandomPortSelector>();
    return tid;
}

RandomPortSelector::RandomPortSelector()
{
    NS_LOG_FUNCTION(this);
}

RandomPortSelector::~RandomPortSelector()
{
    NS_LOG_FUNCTION(this);
}

uint32_t
RandomPortSelector::DoPick(const uint32_t* ports, uint32_t n, const Flow& flow)
{
    return ports[RandomInteger(n - 1)];
}

} // namespace ns3
