/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-flow-launcher.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/path-selector.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaFlowLauncher");

RdmaFlowLauncher::RdmaFlowLauncher(NodeContainer hosts, RdmaHelper* helper, RdmaHelper* background)
    : m_hosts(hosts),
      m_helper(helper),
      m_background(background ? background : helper)
{
    NS_LOG_FUNCTION(this << hosts.GetN());
    NS_ABORT_MSG_IF(!helper, "RdmaFlowLauncher: no RdmaHelper");
}

void
RdmaFlowLauncher::Prepare(const std::vector<FlowSpec>& flows)
{
    NS_LOG_FUNCTION(this << flows.size());
    for (const FlowSpec& f : flows)
    {
        PreparePair(f.src, f.dst, f.subflow, f.background);
    }
}

Ptr<RdmaQueuePair>
RdmaFlowLauncher::PreparePair(uint32_t src, uint32_t dst, uint32_t subflow, bool background)
{
    NS_LOG_FUNCTION(this << src << dst << subflow << background);
    NS_ABORT_MSG_IF(src >= m_hosts.GetN() || dst >= m_hosts.GetN() || src == dst,
                    "RdmaFlowLauncher: hosts " << src << " and " << dst << " must differ and be < "
                                               << m_hosts.GetN());
    Key key(src, dst, subflow, background);
    auto it = m_qps.find(key);
    if (it != m_qps.end())
    {
        return it->second;
    }
    RdmaHelper* helper = background ? m_background : m_helper;
    Ptr<RdmaQueuePair> qp = helper->CreateQueuePair(m_hosts.Get(src), m_hosts.Get(dst)).first;
    m_qps[key] = qp;
    m_senders.push_back(qp);
    return qp;
}

void
RdmaFlowLauncher::Launch(const FlowSpec& flow, FlowCompletionCallback done)
{
    NS_LOG_FUNCTION(this << flow.id);
    Ptr<RdmaQueuePair> qp = PreparePair(flow.src, flow.dst, flow.subflow, flow.background);
    qp->PostSend(flow.bytes, MakeBoundCallback(&RdmaFlowLauncher::MessageDone, done));
}

void
RdmaFlowLauncher::MessageDone(FlowCompletionCallback done, uint64_t id, uint64_t size, Time fct)
{
    if (!done.IsNull())
    {
        done();
    }
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
        t.timeouts += s.timeouts;
        t.packetsLost += s.packetsLost;
        t.cnpsReceived += s.cnpsReceived;
        t.messagesCompleted += s.messagesCompleted;
    }
    return t;
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
