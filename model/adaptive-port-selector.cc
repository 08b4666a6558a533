/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "adaptive-port-selector.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AdaptivePortSelector");

NS_OBJECT_ENSURE_REGISTERED(AdaptivePortSelector);

TypeId
AdaptivePortSelector::GetTypeId()
{
    static TypeId tid = TypeId("ns3::AdaptivePortSelector")
                            .SetParent<PortSelector>()
                            .SetGroupName("Reps")
                            .AddConstructor<AdaptivePortSelector>();
    return tid;
}

AdaptivePortSelector::AdaptivePortSelector()
{
    NS_LOG_FUNCTION(this);
}

AdaptivePortSelector::~AdaptivePortSelector()
{
    NS_LOG_FUNCTION(this);
}

void
AdaptivePortSelector::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_load.Clear();
    PortSelector::DoDispose();
}

const PortLoadMonitor&
AdaptivePortSelector::GetPortLoad() const
{
    return m_load;
}

void
AdaptivePortSelector::DoAddPort(uint32_t port, Ptr<NetDevice> device, Ptr<QueueDisc> queueDisc)
{
    m_load.AddPort(device, queueDisc);
}

uint32_t
AdaptivePortSelector::DoPick(const uint32_t* ports, uint32_t n, const Flow& flow)
{
    m_score.resize(n);
    for (uint32_t k = 0; k < n; k++)
    {
        m_score[k] = m_load.GetDrainTime(ports[k]).GetNanoSeconds();
    }
    return ports[LeastAtRandom(m_score)];
}

} // namespace ns3
