/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "training-loop.h"

#include "ring-all-reduce.h"

#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TrainingLoop");

NS_OBJECT_ENSURE_REGISTERED(TrainingLoop);

TypeId
TrainingLoop::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::TrainingLoop")
            .SetParent<Collective>()
            .SetGroupName("Reps")
            .AddConstructor<TrainingLoop>()
            .AddAttribute("Iterations",
                          "Number of training iterations (1 to 100000).",
                          UintegerValue(1),
                          MakeUintegerAccessor(&TrainingLoop::m_iterations),
                          MakeUintegerChecker<uint32_t>(1, 100000))
            .AddAttribute("ComputeTime",
                          "Compute phase at the start of every iteration, before its "
                          "collective (>= 0).",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&TrainingLoop::m_computeTime),
                          MakeTimeChecker(Seconds(0)))
            .AddTraceSource("IterationCompleted",
                            "An iteration ended; gives its index and duration.",
                            MakeTraceSourceAccessor(&TrainingLoop::m_iterationTrace),
                            "ns3::TrainingLoop::IterationTracedCallback");
    return tid;
}

TrainingLoop::TrainingLoop()
    : m_iterations(1),
      m_computeTime(Seconds(0)),
      m_factory(RingAllReduce::GetTypeId().GetName()),
      m_flowsPerIteration(0),
      m_current(0)
{
    NS_LOG_FUNCTION(this);
}

TrainingLoop::~TrainingLoop()
{
    NS_LOG_FUNCTION(this);
}

void
TrainingLoop::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_computeEvent.Cancel();
    if (m_collective)
    {
        m_collective->Dispose();
    }
    m_collective = nullptr;
    Collective::DoDispose();
}

void
TrainingLoop::SetCollective(const ObjectFactory& factory)
{
    NS_LOG_FUNCTION(this);
    std::string type = factory.GetTypeId().GetName();
    std::string error =
        RdmaHelper::ValidateTypeId(type, Collective::GetTypeId(), "TrainingLoop::SetCollective");
    NS_ABORT_MSG_IF(!error.empty(), error);
    NS_ABORT_MSG_IF(type == "ns3::TrainingLoop", "TrainingLoop::SetCollective: not a loop");
    m_factory = factory;
    m_flowsPerIteration = 0;
}

std::string
TrainingLoop::GetName() const
{
    return "training";
}

uint32_t
TrainingLoop::GetFlowCount() const
{
    if (m_flowsPerIteration == 0)
    {
        // The collective's flow count depends on its hosts and attributes only.
        Ptr<Collective> probe = m_factory.Create<Collective>();
        probe->SetHosts(GetHosts());
        m_flowsPerIteration = probe->GetFlowCount();
        probe->Dispose();
    }
    return m_iterations * m_flowsPerIteration;
}

const std::vector<Time>&
TrainingLoop::GetIterationTimes() const
{
    return m_iterationTimes;
}

const std::vector<Time>&
TrainingLoop::GetCollectiveTimes() const
{
    return m_collectiveTimes;
}

void
TrainingLoop::DoStart()
{
    NS_LOG_FUNCTION(this);
    NS_ABORT_MSG_IF(static_cast<uint64_t>(m_iterations) * GetFlowCount() > UINT32_MAX,
                    "TrainingLoop: Iterations x flows per iteration exceeds 2^32 flow ids");
    m_current = 0;
    m_iterationTimes.clear();
    m_collectiveTimes.clear();
    StartIteration();
}

void
TrainingLoop::StartIteration()
{
    NS_LOG_FUNCTION(this << m_current);
    m_iterationStart = Simulator::Now();
    m_computeEvent = Simulator::Schedule(m_computeTime, &TrainingLoop::StartCollective, this);
}

void
TrainingLoop::StartCollective()
{
    NS_LOG_FUNCTION(this << m_current);
    if (m_collective)
    {
        m_collective->Dispose();
    }
    m_collective = m_factory.Create<Collective>();
    m_collective->SetHosts(GetHosts());
    m_collective->SetLauncher(MakeCallback(&TrainingLoop::LaunchInner, this));
    m_collective->SetCompletedCallback(MakeCallback(&TrainingLoop::CollectiveDone, this));
    m_collectiveStart = Simulator::Now();
    m_collective->Start();
}

void
TrainingLoop::LaunchInner(const FlowSpec& flow, FlowCompletionCallback done)
{
    NS_LOG_FUNCTION(this << flow.id);
    NS_ASSERT(flow.id < m_flowsPerIteration);
    LaunchFlow(flow.src,
               flow.dst,
               flow.bytes,
               flow.step,
               flow.subflow,
               m_current * m_flowsPerIteration + flow.id,
               done);
}

void
TrainingLoop::CollectiveDone()
{
    NS_LOG_FUNCTION(this << m_current);
    Time now = Simulator::Now();
    m_collectiveTimes.push_back(now - m_collectiveStart);
    m_iterationTimes.push_back(now - m_iterationStart);
    uint32_t done = m_current++;
    m_iterationTrace(done, m_iterationTimes.back());
    if (m_current < m_iterations)
    {
        // Not from inside the collective's own completion: it is still on the stack.
        m_computeEvent = Simulator::ScheduleNow(&TrainingLoop::StartIteration, this);
    }
}

void
TrainingLoop::DoFillRecord(FlowStats::Collective& record) const
{
    record.iterations = m_iterationTimes;
}

} // namespace ns3
