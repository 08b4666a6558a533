/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "all-to-all-collective.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AllToAllCollective");

NS_OBJECT_ENSURE_REGISTERED(AllToAllCollective);

TypeId
AllToAllCollective::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::AllToAllCollective")
            .SetParent<Collective>()
            .SetGroupName("Reps")
            .AddConstructor<AllToAllCollective>()
            .AddAttribute("BytesPerPeer",
                          "Bytes every host sends to every other host (at least FlowsPerPeer).",
                          UintegerValue(1 << 16),
                          MakeUintegerAccessor(&AllToAllCollective::m_bytesPerPeer),
                          MakeUintegerChecker<uint64_t>(1))
            .AddAttribute("FlowsPerPeer",
                          "Parallel flows (queue pairs) per ordered pair of hosts.",
                          UintegerValue(1),
                          MakeUintegerAccessor(&AllToAllCollective::m_flowsPerPeer),
                          MakeUintegerChecker<uint32_t>(1, 1024))
            .AddAttribute("Staggered",
                          "Run the exchange in N-1 shift rounds, a host starting its next round "
                          "when its current one has arrived (false: every flow at once).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&AllToAllCollective::m_staggered),
                          MakeBooleanChecker());
    return tid;
}

AllToAllCollective::AllToAllCollective()
    : m_bytesPerPeer(1 << 16),
      m_flowsPerPeer(1),
      m_staggered(false)
{
    NS_LOG_FUNCTION(this);
}

AllToAllCollective::~AllToAllCollective()
{
    NS_LOG_FUNCTION(this);
}

uint32_t
AllToAllCollective::GetFlowCount() const
{
    return GetSize() * (GetSize() - 1) * m_flowsPerPeer;
}

std::string
AllToAllCollective::GetName() const
{
    return "alltoall";
}

void
AllToAllCollective::DoStart()
{
    NS_LOG_FUNCTION(this);
    NS_ABORT_MSG_IF(m_bytesPerPeer < m_flowsPerPeer,
                    "AllToAllCollective: BytesPerPeer ("
                        << m_bytesPerPeer << ") must be >= FlowsPerPeer (" << m_flowsPerPeer
                        << ")");
    uint32_t n = GetSize();
    m_pending.assign(n, 0);
    for (uint32_t i = 0; i < n; ++i)
    {
        if (m_staggered)
        {
            LaunchRound(i, 1);
        }
        else
        {
            for (uint32_t r = 1; r < n; ++r)
            {
                LaunchRound(i, r);
            }
        }
    }
}

void
AllToAllCollective::LaunchRound(uint32_t i, uint32_t r)
{
    NS_LOG_FUNCTION(this << i << r);
    uint32_t n = GetSize();
    m_pending[i] += m_flowsPerPeer;
    for (uint32_t q = 0; q < m_flowsPerPeer; ++q)
    {
        uint64_t bytes = m_bytesPerPeer / m_flowsPerPeer + (q < m_bytesPerPeer % m_flowsPerPeer);
        LaunchFlow(GetHosts()[i],
                   GetHosts()[(i + r) % n],
                   bytes,
                   r,
                   q,
                   (i * (n - 1) + r - 1) * m_flowsPerPeer + q,
                   MakeCallback(&AllToAllCollective::FlowArrived, this).Bind(i, r));
    }
}

void
AllToAllCollective::FlowArrived(uint32_t i, uint32_t r)
{
    NS_LOG_FUNCTION(this << i << r);
    NS_ASSERT(m_pending[i] > 0);
    --m_pending[i];
    if (m_staggered && m_pending[i] == 0 && r + 1 < GetSize())
    {
        LaunchRound(i, r + 1);
    }
}

} // namespace ns3
