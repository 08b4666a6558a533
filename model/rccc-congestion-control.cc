/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rccc-congestion-control.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RcccCongestionControl");

NS_OBJECT_ENSURE_REGISTERED(RcccCongestionControl);

TypeId
RcccCongestionControl::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RcccCongestionControl")
                            .SetParent<RdmaCongestionControl>()
                            .SetGroupName("Reps")
                            .AddConstructor<RcccCongestionControl>();
    return tid;
}

RcccCongestionControl::RcccCongestionControl()
{
    NS_LOG_FUNCTION(this);
}

RcccCongestionControl::~RcccCongestionControl()
{
    NS_LOG_FUNCTION(this);
}

std::string
RcccCongestionControl::GetName() const
{
    return "rccc";
}

bool
RcccCongestionControl::UsesReceiverCredits() const
{
    return true;
}

void
RcccCongestionControl::DoInit()
{
    NS_LOG_FUNCTION(this);
    // Credit alone limits the bytes in flight, and the pull pacer the rate.
    SetWindow(UNLIMITED);
}

} // namespace ns3
