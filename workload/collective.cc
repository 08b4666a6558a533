/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "collective.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <set>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("Collective");

NS_OBJECT_ENSURE_REGISTERED(Collective);

TypeId
Collective::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::Collective")
            .SetParent<Object>()
            .SetGroupName("Reps")
            .AddAttribute("StartTime",
                          "When the collective begins (absolute simulated time).",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&Collective::m_startAt),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("Group",
                          "Group id carried by every flow of the collective (FlowSpec::group).",
                          UintegerValue(1),
                          MakeUintegerAccessor(&Collective::m_group),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("FirstFlowId",
                          "Id of the collective's first flow; its flows are numbered from here, "
                          "so that they do not clash with other flows of the experiment.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&Collective::m_firstId),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Tag",
                          "Tag carried by every flow (FlowSpec::tag); empty: the collective's "
                          "name.",
                          StringValue(""),
                          MakeStringAccessor(&Collective::m_tag),
                          MakeStringChecker())
            .AddTraceSource("Completed",
                            "Every flow of the collective completed; gives its duration.",
                            MakeTraceSourceAccessor(&Collective::m_completedTrace),
                            "ns3::Collective::CompletedTracedCallback");
    return tid;
}

Collective::Collective()
    : m_startAt(Seconds(0)),
      m_group(1),
      m_firstId(0),
      m_started(false),
      m_complete(false),
      m_begin(Seconds(0)),
      m_end(Seconds(0)),
      m_bytes(0),
      m_launched(0),
      m_completed(0)
{
    NS_LOG_FUNCTION(this);
}

Collective::~Collective()
{
    NS_LOG_FUNCTION(this);
}

void
Collective::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_startEvent.Cancel();
    m_launcher = FlowLauncher();
    m_completedCb = Callback<void>();
    Object::DoDispose();
}

void
Collective::SetHosts(const std::vector<uint32_t>& hosts)
{
    NS_LOG_FUNCTION(this << hosts.size());
    NS_ABORT_MSG_IF(m_started, GetName() << ": hosts cannot change once started");
    NS_ABORT_MSG_IF(hosts.size() < 2, GetName() << ": needs at least 2 hosts");
    std::set<uint32_t> unique(hosts.begin(), hosts.end());
    NS_ABORT_MSG_IF(unique.size() != hosts.size(), GetName() << ": a host appears twice");
    m_hosts = hosts;
}

void
Collective::SetHosts(uint32_t n)
{
    std::vector<uint32_t> hosts(n);
    for (uint32_t i = 0; i < n; ++i)
    {
        hosts[i] = i;
    }
    SetHosts(hosts);
}

const std::vector<uint32_t>&
Collective::GetHosts() const
{
    return m_hosts;
}

void
Collective::SetLauncher(FlowLauncher launcher)
{
    NS_LOG_FUNCTION(this);
    m_launcher = launcher;
}

void
Collective::SetCompletedCallback(Callback<void> cb)
{
    NS_LOG_FUNCTION(this);
    m_completedCb = cb;
}

void
Collective::Start()
{
    NS_LOG_FUNCTION(this);
    NS_ABORT_MSG_IF(m_hosts.empty(), GetName() << ": no hosts (SetHosts)");
    NS_ABORT_MSG_IF(m_launcher.IsNull(), GetName() << ": no launcher (SetLauncher)");
    NS_ABORT_MSG_IF(m_started || !m_startEvent.IsExpired(), GetName() << ": started twice");
    Time delay = m_startAt > Simulator::Now() ? m_startAt - Simulator::Now() : Seconds(0);
    m_startEvent = Simulator::Schedule(delay, &Collective::Begin, this);
}

void
Collective::Begin()
{
    NS_LOG_FUNCTION(this);
    m_started = true;
    m_begin = Simulator::Now();
    DoStart();
}

void
Collective::LaunchFlow(uint32_t src,
                       uint32_t dst,
                       uint64_t bytes,
                       uint32_t step,
                       uint32_t subflow,
                       uint32_t id,
                       Callback<void> done)
{
    NS_LOG_FUNCTION(this << src << dst << bytes << step);
    FlowSpec f;
    f.id = m_firstId + id;
    f.src = src;
    f.dst = dst;
    f.bytes = bytes;
    f.start = Simulator::Now();
    f.tag = m_tag.empty() ? GetName() : m_tag;
    f.group = m_group;
    f.step = step;
    f.subflow = subflow;
    ++m_launched;
    m_bytes += bytes;
    m_launcher(f, MakeCallback(&Collective::FlowDone, this).Bind(done));
}

void
Collective::FlowDone(Callback<void> done)
{
    NS_LOG_FUNCTION(this);
    ++m_completed;
    if (!done.IsNull())
    {
        done();
    }
    CheckComplete();
}

bool
Collective::HasOtherWork() const
{
    return false;
}

void
Collective::CheckComplete()
{
    NS_LOG_FUNCTION(this);
    if (m_started && !m_complete && m_completed == GetFlowCount() && !HasOtherWork())
    {
        m_complete = true;
        m_end = Simulator::Now();
        m_completedTrace(m_end - m_begin);
        if (!m_completedCb.IsNull())
        {
            m_completedCb();
        }
    }
}

bool
Collective::IsComplete() const
{
    return m_complete;
}

Time
Collective::GetStartTime() const
{
    return m_begin;
}

Time
Collective::GetCompletionTime() const
{
    return m_end;
}

Time
Collective::GetDuration() const
{
    return m_end - m_begin;
}

uint64_t
Collective::GetBytesLaunched() const
{
    return m_bytes;
}

uint32_t
Collective::GetCompletedFlows() const
{
    return m_completed;
}

uint32_t
Collective::GetSize() const
{
    return static_cast<uint32_t>(m_hosts.size());
}

FlowStats::Collective
Collective::GetRecord() const
{
    FlowStats::Collective c;
    c.name = GetName();
    c.group = m_group;
    c.start = m_begin;
    c.finished = m_end;
    c.completed = m_complete;
    c.bytes = m_bytes;
    DoFillRecord(c);
    return c;
}

void
Collective::DoFillRecord(FlowStats::Collective& /* record */) const
{
}

} // namespace ns3
