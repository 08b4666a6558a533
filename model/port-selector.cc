/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "port-selector.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/queue-disc.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PortSelector");

NS_OBJECT_ENSURE_REGISTERED(PortSelector);

TypeId
PortSelector::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::PortSelector")
            .SetParent<Object>()
            .SetGroupName("Reps")
            .AddTraceSource("PortChosen",
                            "The egress port of a packet, the number of equal-cost ports it "
                            "was chosen from, and the packet's flow.",
                            MakeTraceSourceAccessor(&PortSelector::m_portChosen),
                            "ns3::PortSelector::PortChosenTracedCallback");
    return tid;
}

PortSelector::PortSelector()
    : m_rng(CreateObject<UniformRandomVariable>()),
      m_nPorts(0)
{
    NS_LOG_FUNCTION(this);
}

PortSelector::~PortSelector()
{
    NS_LOG_FUNCTION(this);
}

void
PortSelector::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_rng = nullptr;
    Object::DoDispose();
}

int64_t
PortSelector::AssignStreams(int64_t stream)
{
    NS_LOG_FUNCTION(this << stream);
    m_rng->SetStream(stream);
    return 1;
}

void
PortSelector::AddPort(Ptr<NetDevice> device, Ptr<QueueDisc> queueDisc)
{
    NS_LOG_FUNCTION(this << device << queueDisc);
    DoAddPort(m_nPorts++, device, queueDisc);
}

uint32_t
PortSelector::GetNPorts() const
{
    return m_nPorts;
}

uint32_t
PortSelector::Pick(const uint32_t* ports, uint32_t n, const Flow& flow)
{
    NS_ASSERT(n > 0);
    uint32_t port = n == 1 ? ports[0] : DoPick(ports, n, flow);
    NS_ABORT_MSG_IF(std::find(ports, ports + n, port) == ports + n,
                    GetInstanceTypeId().GetName()
                        << "::DoPick() returned port " << port << ", which is not one of the " << n
                        << " equal-cost ports");
    m_portChosen(port, n, flow);
    return port;
}

void
PortSelector::OnForward(Ipv4Header& ip,
                        const uint32_t* ports,
                        uint32_t n,
                        uint32_t outPort,
                        const Flow& flow)
{
    DoForward(ip, ports, n, outPort, flow);
}

void
PortSelector::DoAddPort(uint32_t port, Ptr<NetDevice> device, Ptr<QueueDisc> queueDisc)
{
}

void
PortSelector::DoForward(Ipv4Header& ip,
                        const uint32_t* ports,
                        uint32_t n,
                        uint32_t outPort,
                        const Flow& flow)
{
}

uint32_t
PortSelector::RandomInteger(uint32_t max)
{
    return m_rng->GetInteger(0, max);
}

uint32_t
PortSelector::LeastAtRandom(const std::vector<int64_t>& score)
{
    NS_ASSERT(!score.empty());
    int64_t best = score[0];
    m_ties.assign(1, 0);
    for (uint32_t k = 1; k < score.size(); k++)
    {
        if (score[k] < best)
        {
            best = score[k];
            m_ties.assign(1, k);
        }
        else if (score[k] == best)
        {
            m_ties.push_back(k);
        }
    }
    if (m_ties.size() == 1)
    {
        return m_ties[0];
    }
    return m_ties[RandomInteger(m_ties.size() - 1)];
}

} // namespace ns3
