/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fabric-link-error-model.h"

#include "ns3/log.h"
#include "ns3/packet.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FabricLinkErrorModel");

NS_OBJECT_ENSURE_REGISTERED(FabricLinkErrorModel);

TypeId
FabricLinkErrorModel::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FabricLinkErrorModel")
            .SetParent<ErrorModel>()
            .SetGroupName("Reps")
            .AddConstructor<FabricLinkErrorModel>()
            .AddTraceSource("Drop",
                            "A packet was lost because the link was down.",
                            MakeTraceSourceAccessor(&FabricLinkErrorModel::m_dropTrace),
                            "ns3::FabricLinkErrorModel::DropTracedCallback")
            .AddTraceSource("Loss",
                            "A packet was lost by the loss model while the link was up.",
                            MakeTraceSourceAccessor(&FabricLinkErrorModel::m_lossTrace),
                            "ns3::FabricLinkErrorModel::DropTracedCallback");
    return tid;
}

FabricLinkErrorModel::FabricLinkErrorModel()
    : m_down(false),
      m_rxPackets(0),
      m_rxBytes(0),
      m_droppedPackets(0),
      m_droppedBytes(0),
      m_lostPackets(0),
      m_lostBytes(0)
{
    NS_LOG_FUNCTION(this);
}

FabricLinkErrorModel::~FabricLinkErrorModel()
{
    NS_LOG_FUNCTION(this);
}

void
FabricLinkErrorModel::SetDown(bool down)
{
    NS_LOG_FUNCTION(this << down);
    m_down = down;
}

bool
FabricLinkErrorModel::IsDown() const
{
    return m_down;
}

void
FabricLinkErrorModel::SetFailOnTraffic(FailOnTrafficCallback cb)
{
    NS_LOG_FUNCTION(this);
    m_failOnTraffic = cb;
}

uint64_t
FabricLinkErrorModel::GetRxPackets() const
{
    return m_rxPackets;
}

uint64_t
FabricLinkErrorModel::GetRxBytes() const
{
    return m_rxBytes;
}

uint64_t
FabricLinkErrorModel::GetDroppedPackets() const
{
    return m_droppedPackets;
}

uint64_t
FabricLinkErrorModel::GetDroppedBytes() const
{
    return m_droppedBytes;
}

bool
FabricLinkErrorModel::DoCorrupt(Ptr<Packet> p)
{
    if (!m_down && !m_failOnTraffic.IsNull() && m_failOnTraffic(p))
    {
        m_down = true;
    }
    if (m_down)
    {
        m_droppedPackets++;
        m_droppedBytes += p->GetSize();
        m_dropTrace(p);
        return true;
    }
    if (m_loss && m_loss->IsCorrupt(p))
    {
        m_lostPackets++;
        m_lostBytes += p->GetSize();
        m_lossTrace(p);
        return true;
    }
    m_rxPackets++;
    m_rxBytes += p->GetSize();
    return false;
}

void
FabricLinkErrorModel::SetLossModel(Ptr<ErrorModel> loss)
{
    NS_LOG_FUNCTION(this << loss);
    m_loss = loss;
}

Ptr<ErrorModel>
FabricLinkErrorModel::GetLossModel() const
{
    return m_loss;
}

uint64_t
FabricLinkErrorModel::GetLostPackets() const
{
    return m_lostPackets;
}

uint64_t
FabricLinkErrorModel::GetLostBytes() const
{
    return m_lostBytes;
}

void
FabricLinkErrorModel::DoReset()
{
    NS_LOG_FUNCTION(this);
    m_rxPackets = 0;
    m_rxBytes = 0;
    m_droppedPackets = 0;
    m_droppedBytes = 0;
    m_lostPackets = 0;
    m_lostBytes = 0;
}

} // namespace ns3
