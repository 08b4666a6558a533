/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "stepped-collective.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SteppedCollective");

NS_OBJECT_ENSURE_REGISTERED(SteppedCollective);

TypeId
SteppedCollective::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::SteppedCollective")
            .SetParent<Collective>()
            .SetGroupName("Reps")
            .AddAttribute("DataBytes",
                          "Bytes of the buffer every host holds (the input of a reduce-scatter "
                          "or all-reduce, the output of an all-gather); it is cut into N chunks "
                          "of DataBytes / N. At least N.",
                          UintegerValue(1 << 20),
                          MakeUintegerAccessor(&SteppedCollective::m_dataBytes),
                          MakeUintegerChecker<uint64_t>(1));
    return tid;
}

SteppedCollective::SteppedCollective()
    : m_dataBytes(1 << 20)
{
    NS_LOG_FUNCTION(this);
}

SteppedCollective::~SteppedCollective()
{
    NS_LOG_FUNCTION(this);
}

uint32_t
SteppedCollective::GetFlowCount() const
{
    return GetSize() * GetSteps();
}

uint64_t
SteppedCollective::GetChunkBytes(uint32_t chunk) const
{
    uint32_t n = GetSize();
    NS_ASSERT(chunk < n);
    return m_dataBytes / n + (chunk < m_dataBytes % n ? 1 : 0);
}

uint64_t
SteppedCollective::GetChunkRangeBytes(uint32_t first, uint32_t count) const
{
    uint64_t bytes = 0;
    for (uint32_t c = first; c < first + count; ++c)
    {
        bytes += GetChunkBytes(c);
    }
    return bytes;
}

const std::vector<SteppedCollective::Step>&
SteppedCollective::GetStepRecords() const
{
    return m_steps;
}

uint64_t
SteppedCollective::GetDataBytes() const
{
    return m_dataBytes;
}

void
SteppedCollective::CheckSize() const
{
    NS_ABORT_MSG_IF(m_dataBytes < GetSize(),
                    GetName() << ": DataBytes (" << m_dataBytes
                              << ") must be >= the number of hosts (" << GetSize() << ")");
}

void
SteppedCollective::DoStart()
{
    NS_LOG_FUNCTION(this);
    CheckSize();
    uint32_t n = GetSize();
    uint32_t steps = GetSteps();
    m_steps.assign(static_cast<size_t>(n) * steps, Step());
    m_next.assign(n, 0);
    for (uint32_t i = 0; i < n; ++i)
    {
        for (uint32_t k = 0; k < steps; ++k)
        {
            Step& s = m_steps[i * steps + k];
            s.host = i;
            s.peer = GetPeer(i, k);
            s.step = k;
            s.bytes = GetStepBytes(i, k);
            NS_ASSERT(s.peer < n && s.peer != i);
        }
        m_steps[i * steps].inputArrived = Simulator::Now();
    }
    for (uint32_t i = 0; i < n; ++i)
    {
        TryAdvance(i);
    }
}

void
SteppedCollective::TryAdvance(uint32_t i)
{
    NS_LOG_FUNCTION(this << i);
    uint32_t steps = GetSteps();
    while (m_next[i] < steps)
    {
        uint32_t k = m_next[i];
        if (k > 0 && !m_steps[GetInputSource(i, k) * steps + k - 1].completed)
        {
            return;
        }
        Step& s = m_steps[i * steps + k];
        s.started = true;
        s.start = Simulator::Now();
        ++m_next[i];
        LaunchFlow(GetHosts()[i],
                   GetHosts()[s.peer],
                   s.bytes,
                   k,
                   0,
                   i * steps + k,
                   MakeCallback(&SteppedCollective::StepDone, this).Bind(i, k));
    }
}

void
SteppedCollective::StepDone(uint32_t i, uint32_t k)
{
    NS_LOG_FUNCTION(this << i << k);
    uint32_t steps = GetSteps();
    Step& s = m_steps[i * steps + k];
    NS_ASSERT(s.started && !s.completed);
    s.completed = true;
    s.end = Simulator::Now();
    if (k + 1 < steps)
    {
        NS_ASSERT(GetInputSource(s.peer, k + 1) == i);
        m_steps[s.peer * steps + k + 1].inputArrived = Simulator::Now();
        TryAdvance(s.peer);
    }
}

} // namespace ns3
