/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ops-path-selector.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("OpsPathSelector");

NS_OBJECT_ENSURE_REGISTERED(OpsPathSelector);

TypeId
OpsPathSelector::GetTypeId()
{
    static TypeId tid = TypeId("ns3::OpsPathSelector")
                            .SetParent<PathSelector>()
                            .SetGroupName("Reps")
                            .AddConstructor<OpsPathSelector>();
    return tid;
}

OpsPathSelector::OpsPathSelector()
{
    NS_LOG_FUNCTION(this);
}

OpsPathSelector::~OpsPathSelector()
{
    NS_LOG_FUNCTION(this);
}

uint16_t
OpsPathSelector::DoNextEntropy(bool retransmission, Choice& why)
{
    why = RANDOM;
    return RandomEntropy();
}

} // namespace ns3
