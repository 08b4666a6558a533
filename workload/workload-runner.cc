/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "workload-runner.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WorkloadRunner");

NS_OBJECT_ENSURE_REGISTERED(WorkloadRunner);

TypeId
WorkloadRunner::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::WorkloadRunner")
            .SetParent<Object>()
            .SetGroupName("Reps")
            .AddConstructor<WorkloadRunner>()
            .AddTraceSource("FlowStarted",
                            "A flow was handed to the launcher.",
                            MakeTraceSourceAccessor(&WorkloadRunner::m_flowStarted),
                            "ns3::WorkloadRunner::FlowStartedTracedCallback")
            .AddTraceSource("FlowCompleted",
                            "A flow completed; gives the flow and its completion time.",
                            MakeTraceSourceAccessor(&WorkloadRunner::m_flowCompleted),
                            "ns3::WorkloadRunner::FlowCompletedTracedCallback");
    return tid;
}

WorkloadRunner::WorkloadRunner()
    : m_waiting(0)
{
    NS_LOG_FUNCTION(this);
}

WorkloadRunner::~WorkloadRunner()
{
    NS_LOG_FUNCTION(this);
}

void
WorkloadRunner::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_launcher = FlowLauncher();
    m_allCompleted = Callback<void>();
    Object::DoDispose();
}

void
WorkloadRunner::SetLauncher(FlowLauncher launcher)
{
    NS_LOG_FUNCTION(this);
    m_launcher = launcher;
}

void
WorkloadRunner::SetAllCompletedCallback(Callback<void> cb)
{
    NS_LOG_FUNCTION(this);
    m_allCompleted = cb;
}

void
WorkloadRunner::Schedule(const std::vector<FlowSpec>& flows)
{
    NS_LOG_FUNCTION(this << flows.size());
    for (const FlowSpec& f : flows)
    {
        NS_ABORT_MSG_IF(f.start < Simulator::Now(),
                        "WorkloadRunner: flow " << f.id << " starts at " << f.start.As(Time::US)
                                                << ", in the past");
        NS_ABORT_MSG_IF(f.bytes == 0, "WorkloadRunner: flow " << f.id << " has 0 bytes");
        m_stats.AddFlow(f);
        ++m_waiting;
        Simulator::Schedule(f.start - Simulator::Now(),
                            &WorkloadRunner::Start,
                            this,
                            f,
                            FlowCompletionCallback());
    }
}

void
WorkloadRunner::Launch(const FlowSpec& flow, FlowCompletionCallback done)
{
    NS_LOG_FUNCTION(this << flow.id);
    NS_ABORT_MSG_IF(flow.bytes == 0, "WorkloadRunner: flow " << flow.id << " has 0 bytes");
    FlowSpec f = flow;
    f.start = Simulator::Now();
    m_stats.AddFlow(f);
    ++m_waiting;
    Start(f, done);
}

FlowLauncher
WorkloadRunner::GetLauncher()
{
    return MakeCallback(&WorkloadRunner::Launch, this);
}

void
WorkloadRunner::Start(FlowSpec flow, FlowCompletionCallback done)
{
    NS_LOG_FUNCTION(this << flow.id);
    NS_ABORT_MSG_IF(m_launcher.IsNull(), "WorkloadRunner: no launcher set (SetLauncher)");
    NS_ASSERT(m_waiting > 0);
    --m_waiting;
    m_flowStarted(flow);
    m_launcher(flow, MakeCallback(&WorkloadRunner::Completed, this).Bind(flow.id, done));
}

void
WorkloadRunner::Completed(uint32_t id, FlowCompletionCallback done)
{
    NS_LOG_FUNCTION(this << id);
    m_stats.RecordCompletion(id, Simulator::Now());
    const FlowStats::Record& r = m_stats.GetRecord(id);
    m_flowCompleted(r.flow, FlowStats::GetFct(r));
    if (!done.IsNull())
    {
        done();
    }
    if (IsDone() && !m_allCompleted.IsNull())
    {
        m_allCompleted();
    }
}

FlowStats&
WorkloadRunner::GetStats()
{
    return m_stats;
}

const FlowStats&
WorkloadRunner::GetStats() const
{
    return m_stats;
}

uint32_t
WorkloadRunner::GetTotal() const
{
    return m_stats.GetFlowCount();
}

uint32_t
WorkloadRunner::GetCompleted() const
{
    return m_stats.GetCompletedCount();
}

bool
WorkloadRunner::IsDone() const
{
    return m_waiting == 0 && m_stats.GetCompletedCount() == m_stats.GetFlowCount();
}

} // namespace ns3
