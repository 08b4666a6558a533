/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ring-all-reduce.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RingAllReduce");

NS_OBJECT_ENSURE_REGISTERED(RingAllReduce);

TypeId
RingAllReduce::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RingAllReduce")
            .SetParent<Collective>()
            .SetGroupName("Reps")
            .AddConstructor<RingAllReduce>()
            .AddAttribute("DataBytes",
                          "Bytes of data every host contributes (and receives reduced); each "
                          "step moves DataBytes / N. At least N.",
                          UintegerValue(1 << 20),
                          MakeUintegerAccessor(&RingAllReduce::m_dataBytes),
                          MakeUintegerChecker<uint64_t>(1));
    return tid;
}

RingAllReduce::RingAllReduce()
    : m_dataBytes(1 << 20)
{
    NS_LOG_FUNCTION(this);
}

RingAllReduce::~RingAllReduce()
{
    NS_LOG_FUNCTION(this);
}

uint32_t
RingAllReduce::GetFlowCount() const
{
    return GetSize() * GetSteps();
}

std::string
RingAllReduce::GetName() const
{
    return "allreduce";
}

uint32_t
RingAllReduce::GetSteps() const
{
    return 2 * (GetSize() - 1);
}

uint64_t
RingAllReduce::GetChunkBytes(uint32_t chunk) const
{
    uint32_t n = GetSize();
    NS_ASSERT(chunk < n);
    return m_dataBytes / n + (chunk < m_dataBytes % n ? 1 : 0);
}

const std::vector<RingAllReduce::Step>&
RingAllReduce::GetStepRecords() const
{
    return m_steps;
}

void
RingAllReduce::DoStart()
{
    NS_LOG_FUNCTION(this);
    uint32_t n = GetSize();
    NS_ABORT_MSG_IF(m_dataBytes < n,
                    "RingAllReduce: DataBytes ("
                        << m_dataBytes << ") must be >= the number of hosts (" << n << ")");
    uint32_t steps = GetSteps();
    m_steps.assign(static_cast<size_t>(n) * steps, Step());
    m_next.assign(n, 0);
    for (uint32_t i = 0; i < n; ++i)
    {
        for (uint32_t k = 0; k < steps; ++k)
        {
            Step& s = m_steps[i * steps + k];
            s.host = i;
            s.step = k;
            s.bytes = GetChunkBytes((i + n - k % n) % n);
        }
        m_steps[i * steps].inputArrived = Simulator::Now();
    }
    for (uint32_t i = 0; i < n; ++i)
    {
        TryAdvance(i);
    }
}

void
RingAllReduce::TryAdvance(uint32_t i)
{
    NS_LOG_FUNCTION(this << i);
    uint32_t n = GetSize();
    uint32_t steps = GetSteps();
    uint32_t left = (i + n - 1) % n;
    while (m_next[i] < steps)
    {
        uint32_t k = m_next[i];
        if (k > 0 && !m_steps[left * steps + k - 1].completed)
        {
            return;
        }
        Step& s = m_steps[i * steps + k];
        s.started = true;
        s.start = Simulator::Now();
        ++m_next[i];
        LaunchFlow(GetHosts()[i],
                   GetHosts()[(i + 1) % n],
                   s.bytes,
                   k,
                   0,
                   i * steps + k,
                   MakeCallback(&RingAllReduce::StepDone, this).Bind(i, k));
    }
}

void
RingAllReduce::StepDone(uint32_t i, uint32_t k)
{
    NS_LOG_FUNCTION(this << i << k);
    uint32_t n = GetSize();
    uint32_t steps = GetSteps();
    Step& s = m_steps[i * steps + k];
    NS_ASSERT(s.started && !s.completed);
    s.completed = true;
    s.end = Simulator::Now();
    uint32_t right = (i + 1) % n;
    if (k + 1 < steps)
    {
        m_steps[right * steps + k + 1].inputArrived = Simulator::Now();
    }
    TryAdvance(right);
}

} // namespace ns3
