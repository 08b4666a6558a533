/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-flow-launcher.h"

#include "ns3/abort.h"
#include "ns3/attribute-check.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/path-selector.h"
#include "ns3/reps-ns3-compat.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaFlowLauncher");

NS_OBJECT_ENSURE_REGISTERED(RdmaFlowLauncher);

TypeId
RdmaFlowLauncher::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaFlowLauncher")
            .SetParent<Object>()
            .SetGroupName("Reps")
            .AddAttribute("ConnectionMapping",
                          "Which queue pair a flow rides: Flow (a connection of its own, as "
                          "the reference simulators open one per flow), Pair (one per pair of "
                          "hosts: its flows queue on it as messages) or Reuse (a finished "
                          "connection of the pair, keeping its selector and window state, else "
                          "a new one). Pairs opened with PreparePair keep their connection.",
                          EnumValue(RdmaFlowLauncher::PER_FLOW),
                          REPS_MAKE_ENUM_ACCESSOR(ConnectionMapping, &RdmaFlowLauncher::m_mapping),
                          MakeEnumChecker(RdmaFlowLauncher::PER_FLOW,
                                          "Flow",
                                          RdmaFlowLauncher::PER_PAIR,
                                          "Pair",
                                          RdmaFlowLauncher::REUSE,
                                          "Reuse"))
            .AddTraceSource("FlowPosted",
                            "A flow's message was posted on a sending queue pair (the one the "
                            "mapping chose).",
                            MakeTraceSourceAccessor(&RdmaFlowLauncher::m_flowPosted),
                            "ns3::RdmaFlowLauncher::FlowPostedTracedCallback");
    return tid;
}

RdmaFlowLauncher::RdmaFlowLauncher()
    : m_helper(nullptr),
      m_background(nullptr),
      m_mapping(PER_FLOW)
{
    NS_LOG_FUNCTION(this);
}

RdmaFlowLauncher::RdmaFlowLauncher(NodeContainer hosts, RdmaHelper* helper, RdmaHelper* background)
    : m_hosts(hosts),
      m_helper(helper),
      m_background(background ? background : helper),
      m_mapping(PER_FLOW)
{
    NS_LOG_FUNCTION(this << hosts.GetN());
    NS_ABORT_MSG_IF(!helper, "RdmaFlowLauncher: no RdmaHelper");
}

RdmaFlowLauncher::~RdmaFlowLauncher()
{
    NS_LOG_FUNCTION(this);
}

void
RdmaFlowLauncher::DoDispose()
{
    m_pairs.clear();
    m_flowQps.clear();
    m_idle.clear();
    m_senders.clear();
    Object::DoDispose();
}

RdmaFlowLauncher::Key
RdmaFlowLauncher::KeyOf(const FlowSpec& flow)
{
    return Key(flow.src, flow.dst, flow.subflow, flow.background);
}

Ptr<RdmaQueuePair>
RdmaFlowLauncher::Open(const Key& key)
{
    const auto& [src, dst, subflow, background] = key;
    NS_LOG_FUNCTION(this << src << dst << subflow << background);
    NS_ABORT_MSG_IF(!m_helper, "RdmaFlowLauncher: no RdmaHelper (use the constructor with hosts)");
    NS_ABORT_MSG_IF(src >= m_hosts.GetN() || dst >= m_hosts.GetN() || src == dst,
                    "RdmaFlowLauncher: hosts " << src << " and " << dst << " must differ and be < "
                                               << m_hosts.GetN());
    RdmaHelper* helper = background ? m_background : m_helper;
    Ptr<RdmaQueuePair> qp = helper->CreateQueuePair(m_hosts.Get(src), m_hosts.Get(dst)).first;
    m_senders.push_back(qp);
    return qp;
}

void
RdmaFlowLauncher::SetAttribute(const std::string& name, const AttributeValue& value)
{
    NS_LOG_FUNCTION(this << name);
    Ptr<AttributeValue> valid;
    std::string error = AttributeCheck::Check("RdmaFlowLauncher::SetAttribute",
                                              GetTypeId(),
                                              name,
                                              value,
                                              valid);
    if (!error.empty())
    {
        // The first refusal is the one Validate() reports.
        if (m_attributeError.empty())
        {
            m_attributeError = error;
        }
        return;
    }
    ObjectBase::SetAttribute(name, *valid);
}

std::string
RdmaFlowLauncher::Validate() const
{
    return m_attributeError;
}

void
RdmaFlowLauncher::Prepare(const std::vector<FlowSpec>& flows)
{
    NS_LOG_FUNCTION(this << flows.size());
    if (!m_attributeError.empty())
    {
        AttributeCheck::Exit(m_attributeError);
    }
    for (const FlowSpec& f : flows)
    {
        const Key key = KeyOf(f);
        if (m_pairs.count(key) != 0)
        {
            continue;
        }
        switch (m_mapping)
        {
        case PER_FLOW:
            if (m_flowQps.count(f.id) == 0)
            {
                m_flowQps[f.id] = Open(key);
            }
            break;
        case PER_PAIR:
            m_pairs[key] = Open(key);
            break;
        case REUSE:
            if (m_idle[key].empty())
            {
                m_idle[key].push_back(Open(key));
            }
            break;
        }
    }
}

Ptr<RdmaQueuePair>
RdmaFlowLauncher::PreparePair(uint32_t src, uint32_t dst, uint32_t subflow, bool background)
{
    NS_LOG_FUNCTION(this << src << dst << subflow << background);
    if (!m_attributeError.empty())
    {
        AttributeCheck::Exit(m_attributeError);
    }
    Key key(src, dst, subflow, background);
    auto it = m_pairs.find(key);
    if (it != m_pairs.end())
    {
        return it->second;
    }
    return m_pairs[key] = Open(key);
}

Ptr<RdmaQueuePair>
RdmaFlowLauncher::Pick(const FlowSpec& flow)
{
    const Key key = KeyOf(flow);
    if (auto it = m_pairs.find(key); it != m_pairs.end())
    {
        return it->second;
    }
    switch (m_mapping)
    {
    case PER_PAIR:
        return m_pairs[key] = Open(key);
    case REUSE:
        if (auto it = m_idle.find(key); it != m_idle.end() && !it->second.empty())
        {
            Ptr<RdmaQueuePair> qp = it->second.back();
            it->second.pop_back();
            return qp;
        }
        return Open(key);
    case PER_FLOW:
        break;
    }
    auto it = m_flowQps.find(flow.id);
    if (it == m_flowQps.end())
    {
        return Open(key);
    }
    Ptr<RdmaQueuePair> qp = it->second;
    m_flowQps.erase(it);
    return qp;
}

void
RdmaFlowLauncher::Launch(const FlowSpec& flow, FlowCompletionCallback done)
{
    NS_LOG_FUNCTION(this << flow.id);
    Ptr<RdmaQueuePair> qp = Pick(flow);
    const Key key = KeyOf(flow);
    // The callback is held by the queue pair: it names the queue pair by a plain pointer, so
    // that a message left unfinished at the end of a run does not keep its queue pair alive.
    RdmaQueuePair* raw = PeekPointer(qp);
    qp->PostSend(flow.bytes,
                 RdmaQueuePair::MessageCallback([this, done, key, raw](uint64_t, uint64_t, Time) {
                     MessageDone(done, key, Ptr<RdmaQueuePair>(raw));
                 }));
    m_flowPosted(flow, qp);
}

void
RdmaFlowLauncher::MessageDone(FlowCompletionCallback done, Key key, Ptr<RdmaQueuePair> qp)
{
    if (m_mapping == REUSE && m_pairs.count(key) == 0)
    {
        m_idle[key].push_back(qp);
    }
    if (!done.IsNull())
    {
        done();
    }
}

RdmaFlowLauncher::ConnectionMapping
RdmaFlowLauncher::GetConnectionMapping() const
{
    return m_mapping;
}

std::string
RdmaFlowLauncher::GetMappingName(ConnectionMapping mapping)
{
    switch (mapping)
    {
    case PER_FLOW:
        return "Flow";
    case PER_PAIR:
        return "Pair";
    case REUSE:
        return "Reuse";
    }
    return "?";
}

FlowLauncher
RdmaFlowLauncher::GetLauncher()
{
    return MakeCallback(&RdmaFlowLauncher::Launch, this);
}

const std::vector<Ptr<RdmaQueuePair>>&
RdmaFlowLauncher::GetSenders() const
{
    return m_senders;
}

RdmaQueuePairStats
RdmaFlowLauncher::GetSenderTotals() const
{
    RdmaQueuePairStats t;
    for (const Ptr<RdmaQueuePair>& qp : m_senders)
    {
        const RdmaQueuePairStats& s = qp->GetStats();
        t.packetsSent += s.packetsSent;
        t.bytesSent += s.bytesSent;
        t.retransmissions += s.retransmissions;
        t.acksReceived += s.acksReceived;
        t.ecnAcks += s.ecnAcks;
        t.nacksReceived += s.nacksReceived;
        t.lastHopNacksReceived += s.lastHopNacksReceived;
        t.timeouts += s.timeouts;
        t.packetsLost += s.packetsLost;
        t.cnpsReceived += s.cnpsReceived;
        t.messagesCompleted += s.messagesCompleted;
        t.pullsReceived += s.pullsReceived;
        t.rtsSent += s.rtsSent;
    }
    return t;
}

bool
RdmaFlowLauncher::UsesReceiverCredits() const
{
    for (const Ptr<RdmaQueuePair>& qp : m_senders)
    {
        if (qp->GetCreditSender())
        {
            return true;
        }
    }
    return false;
}

uint64_t
RdmaFlowLauncher::GetFreezes() const
{
    uint64_t freezes = 0;
    for (const Ptr<RdmaQueuePair>& qp : m_senders)
    {
        freezes += qp->GetPathSelector()->GetCounter("freezes");
    }
    return freezes;
}

PathSelector::Counters
RdmaFlowLauncher::GetSelectorCounters() const
{
    PathSelector::Counters total;
    for (const Ptr<RdmaQueuePair>& qp : m_senders)
    {
        for (const auto& [name, value] : qp->GetPathSelector()->GetCounters())
        {
            total[name] += value;
        }
    }
    return total;
}

} // namespace ns3
