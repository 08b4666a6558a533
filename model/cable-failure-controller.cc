/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "cable-failure-controller.h"

#include "clos-plane.h"
#include "fabric-link-error-model.h"

#include "ns3/abort.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"

#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CableFailureController");

NS_OBJECT_ENSURE_REGISTERED(CableFailureController);

TypeId
CableFailureController::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::CableFailureController")
            .SetParent<Object>()
            .SetGroupName("Reps")
            .AddConstructor<CableFailureController>()
            .AddAttribute(
                "MaxShare",
                "Failed link directions stop once they outnumber this share of the "
                "fabric's links, host links included (checked before each failure, "
                "as the reference does: one more than MaxShare x links fail); 0 to 1, 0: none "
                "fails (the REPS evaluation's 5% failed cables: 0.05).",
                DoubleValue(0),
                MakeDoubleAccessor(&CableFailureController::m_maxShare),
                MakeDoubleChecker<double>(0, 1))
            .AddAttribute("StartTime",
                          "No direction fails before this time.",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&CableFailureController::m_start),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("Period",
                          "Least time between two failures (0: one after another, at the "
                          "first packets that reach them).",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&CableFailureController::m_period),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("Duration",
                          "How long a failed direction stays down (Time::Max(): for good, as the "
                          "reference, which fixes it at 100 s).",
                          TimeValue(Time::Max()),
                          MakeTimeAccessor(&CableFailureController::m_duration),
                          MakeTimeChecker(NanoSeconds(1), Time::Max()))
            .AddTraceSource("CableFailed",
                            "A link direction failed (link numbered across the planes, "
                            "direction 0 up, 1 down).",
                            MakeTraceSourceAccessor(&CableFailureController::m_cableFailed),
                            "ns3::CableFailureController::CableFailedTracedCallback");
    return tid;
}

CableFailureController::CableFailureController()
    : m_maxShare(0),
      m_nextFailure(Seconds(0)),
      m_paused(false)
{
    NS_LOG_FUNCTION(this);
}

CableFailureController::~CableFailureController()
{
    NS_LOG_FUNCTION(this);
}

void
CableFailureController::DoDispose()
{
    m_fabric = nullptr;
    Object::DoDispose();
}

void
CableFailureController::Install(Ptr<ClosFabric> fabric)
{
    NS_LOG_FUNCTION(this << fabric);
    NS_ABORT_MSG_IF(!fabric, "CableFailureController::Install: no fabric");
    NS_ABORT_MSG_IF(m_fabric, "CableFailureController::Install: already installed");
    m_fabric = fabric;
    m_nextFailure = m_start;
    for (uint32_t link = 0; link < fabric->GetNLinks(); ++link)
    {
        if (fabric->GetLinkTier(link) == ClosFabric::HOST_LEAF)
        {
            continue;
        }
        for (uint32_t direction = 0; direction < 2; ++direction)
        {
            // Direction d ends at side 1 - d, whose receive error model sees its packets.
            PointerValue v;
            fabric->GetLinkDevice(link, 1 - direction)->GetAttribute("ReceiveErrorModel", v);
            Ptr<FabricLinkErrorModel> em = v.Get<FabricLinkErrorModel>();
            NS_ABORT_MSG_IF(!em, "CableFailureController: link " << link << " has no counters");
            em->SetFailOnTraffic(FabricLinkErrorModel::FailOnTrafficCallback(
                [this, link, direction](Ptr<const Packet> p) {
                    return Consider(link, direction, p);
                }));
        }
    }
}

uint32_t
CableFailureController::GetBudget() const
{
    if (!m_fabric || m_maxShare <= 0)
    {
        return 0;
    }
    return static_cast<uint32_t>(std::floor(m_maxShare * m_fabric->GetNLinks())) + 1;
}

bool
CableFailureController::Consider(uint32_t link, uint32_t direction, Ptr<const Packet> packet)
{
    const Time now = Simulator::Now();
    if (m_paused || now < m_nextFailure || m_maxShare <= 0)
    {
        return false;
    }
    const std::pair<uint32_t, uint32_t> cable(link, direction);
    if (m_needed.count(cable) != 0)
    {
        return false;
    }
    if (static_cast<double>(m_down.size()) / m_fabric->GetNLinks() > m_maxShare)
    {
        m_paused = true; // until a failed direction comes back
        return false;
    }
    if (!KeepsConnectivity(link, direction))
    {
        m_needed.insert(cable);
        return false;
    }
    NS_LOG_INFO("link " << m_fabric->GetLinkName(link) << " direction " << direction << " fails at "
                        << now.As(Time::US));
    m_down.insert(cable);
    m_failed.push_back(cable);
    m_nextFailure = now + m_period;
    if (m_duration != Time::Max())
    {
        Simulator::Schedule(m_duration, &CableFailureController::Recover, this, link, direction);
    }
    m_cableFailed(link, direction);
    return true;
}

bool
CableFailureController::KeepsConnectivity(uint32_t link, uint32_t direction) const
{
    const uint32_t plane = m_fabric->GetPlaneOfLink(link);
    const uint32_t first = m_fabric->GetPlaneFirstLink(plane);
    std::set<std::pair<uint32_t, uint32_t>> local;
    for (const auto& [l, d] : m_down)
    {
        if (m_fabric->GetPlaneOfLink(l) == plane)
        {
            local.insert({l - first, d});
        }
    }
    local.insert({link - first, direction});
    return m_fabric->GetPlane(plane)->KeepsEveryPairConnected(local);
}

void
CableFailureController::Recover(uint32_t link, uint32_t direction)
{
    NS_LOG_FUNCTION(this << link << direction);
    PointerValue v;
    m_fabric->GetLinkDevice(link, 1 - direction)->GetAttribute("ReceiveErrorModel", v);
    v.Get<FabricLinkErrorModel>()->SetDown(false);
    m_down.erase({link, direction});
    m_needed.clear();
    m_paused = false;
}

const std::vector<std::pair<uint32_t, uint32_t>>&
CableFailureController::GetFailed() const
{
    return m_failed;
}

} // namespace ns3
