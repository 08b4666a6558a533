/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "flow-trace-replay.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FlowTraceReplay");

NS_OBJECT_ENSURE_REGISTERED(FlowTraceReplay);

TypeId
FlowTraceReplay::GetTypeId()
{
    static TypeId tid = TypeId("ns3::FlowTraceReplay")
                            .SetParent<Collective>()
                            .SetGroupName("Reps")
                            .AddConstructor<FlowTraceReplay>();
    return tid;
}

FlowTraceReplay::FlowTraceReplay()
{
    NS_LOG_FUNCTION(this);
}

FlowTraceReplay::~FlowTraceReplay()
{
    NS_LOG_FUNCTION(this);
}

void
FlowTraceReplay::SetTrace(const FlowTrace& trace)
{
    NS_LOG_FUNCTION(this);
    NS_ABORT_MSG_IF(trace.GetFlows().empty(), "FlowTraceReplay: the trace has no flows");
    m_flows = trace.GetFlows();
    m_triggers = trace.GetTriggers();
}

uint32_t
FlowTraceReplay::GetFlowCount() const
{
    return static_cast<uint32_t>(m_flows.size());
}

std::string
FlowTraceReplay::GetName() const
{
    return "trace";
}

const std::vector<Time>&
FlowTraceReplay::GetFlowStartTimes() const
{
    return m_starts;
}

const std::vector<Time>&
FlowTraceReplay::GetFlowEndTimes() const
{
    return m_ends;
}

void
FlowTraceReplay::DoStart()
{
    NS_LOG_FUNCTION(this);
    NS_ABORT_MSG_IF(m_flows.empty(), "FlowTraceReplay: no trace (SetTrace)");
    uint32_t n = static_cast<uint32_t>(m_flows.size());
    m_waiting.assign(n, {});
    m_starts.assign(n, Seconds(0));
    m_ends.assign(n, Seconds(0));
    m_activations.assign(m_triggers.size(), 0);
    for (uint32_t i = 0; i < n; ++i)
    {
        const FlowTrace::Flow& f = m_flows[i];
        NS_ABORT_MSG_IF(f.src >= GetSize() || f.dst >= GetSize(),
                        "FlowTraceReplay: flow " << i << " (line " << f.line
                                                 << ") names a host beyond the " << GetSize()
                                                 << " hosts of the replay");
        if (f.trigger != FlowTrace::NONE)
        {
            continue; // started by its trigger
        }
        if (f.after == FlowTrace::NONE)
        {
            Simulator::Schedule(NanoSeconds(f.startNs), &FlowTraceReplay::Launch, this, i);
        }
        else
        {
            NS_ASSERT(f.after < i);
            m_waiting[f.after].push_back(i);
        }
    }
}

void
FlowTraceReplay::Launch(uint32_t i)
{
    NS_LOG_FUNCTION(this << i);
    const FlowTrace::Flow& f = m_flows[i];
    m_starts[i] = Simulator::Now();
    LaunchFlow(GetHosts()[f.src],
               GetHosts()[f.dst],
               f.bytes,
               0,
               0,
               i,
               MakeCallback(&FlowTraceReplay::Done, this).Bind(i));
}

void
FlowTraceReplay::Done(uint32_t i)
{
    NS_LOG_FUNCTION(this << i);
    m_ends[i] = Simulator::Now();
    for (uint32_t j : m_waiting[i])
    {
        Simulator::Schedule(NanoSeconds(m_flows[j].startNs), &FlowTraceReplay::Launch, this, j);
    }
    if (m_flows[i].activates != FlowTrace::NONE)
    {
        Activate(m_flows[i].activates);
    }
}

void
FlowTraceReplay::Activate(uint32_t t)
{
    NS_LOG_FUNCTION(this << t);
    const FlowTrace::Trigger& g = m_triggers[t];
    const uint32_t n = ++m_activations[t];
    if (g.kind == FlowTrace::Trigger::MULTI_SHOT)
    {
        if (n <= g.targets.size())
        {
            Launch(g.targets[n - 1]);
        }
        return;
    }
    // One-shot and barrier triggers fire once, at their count-th activation.
    if (n == g.count)
    {
        for (uint32_t j : g.targets)
        {
            Launch(j);
        }
    }
}

} // namespace ns3
