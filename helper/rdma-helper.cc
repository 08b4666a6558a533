/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-helper.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/node-list.h"
#include "ns3/node.h"
#include "ns3/path-selector.h"
#include "ns3/rccc-pull-pacer.h"
#include "ns3/rdma-congestion-control.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaHelper");

RdmaHelper::RdmaHelper()
{
    m_psFactory.SetTypeId("ns3::EcmpPathSelector");
    m_ccFactory.SetTypeId("ns3::RdmaWindowCongestionControl");
    m_qpFactory.SetTypeId("ns3::RdmaQueuePair");
}

std::string
RdmaHelper::ValidateTypeId(const std::string& type, TypeId base, const std::string& what)
{
    TypeId tid;
    if (!TypeId::LookupByNameFailSafe(type, &tid))
    {
        return what + ": unknown TypeId \"" + type + "\" (expected a subclass of " +
               base.GetName() + ")";
    }
    if (!tid.IsChildOf(base) || !tid.HasConstructor())
    {
        return what + ": TypeId \"" + type + "\" is not a constructible subclass of " +
               base.GetName();
    }
    return "";
}

void
RdmaHelper::Configure(const std::string& method,
                      TypeId base,
                      const std::string& type,
                      const AttributeCheck::AttributeList& attributes,
                      ObjectFactory& factory)
{
    std::string error = ValidateTypeId(type, base, method);
    if (!error.empty())
    {
        Refuse(error);
        return;
    }
    TypeId tid = TypeId::LookupByName(type);
    ObjectFactory configured;
    configured.SetTypeId(tid);
    for (const auto& [name, value] : attributes)
    {
        error = AttributeCheck::SetOn(method, configured, name, *value);
        if (!error.empty())
        {
            Refuse(error);
            return;
        }
    }
    factory = configured;
}

void
RdmaHelper::Refuse(const std::string& error)
{
    // The first refusal is the one Validate() reports.
    if (m_error.empty())
    {
        m_error = error;
    }
}

std::string
RdmaHelper::Validate() const
{
    return m_error;
}

void
RdmaHelper::ExitIfRefused() const
{
    if (!m_error.empty())
    {
        AttributeCheck::Exit(m_error);
    }
}

void
RdmaHelper::SetQueuePairAttribute(const std::string& name, const AttributeValue& value)
{
    Refuse(AttributeCheck::SetOn("RdmaHelper::SetQueuePairAttribute", m_qpFactory, name, value));
}

void
RdmaHelper::SetPathSelectorAttribute(const std::string& name, const AttributeValue& value)
{
    Refuse(AttributeCheck::SetOn("RdmaHelper::SetPathSelectorAttribute", m_psFactory, name, value));
}

void
RdmaHelper::SetBaseRttCallback(BaseRttCallback cb)
{
    m_baseRtt = cb;
}

void
RdmaHelper::Install(NodeContainer nodes) const
{
    for (auto it = nodes.Begin(); it != nodes.End(); ++it)
    {
        Install(*it);
    }
}

void
RdmaHelper::Install(Ptr<Node> node) const
{
    ExitIfRefused();
    NS_ABORT_MSG_IF(node->GetObject<RdmaStack>(),
                    "RdmaHelper: node " << node->GetId() << " already has an RDMA stack");
    Ptr<RdmaStack> stack = CreateObject<RdmaStack>();
    node->AggregateObject(stack);
    stack->Setup(node);
}

std::pair<Ptr<RdmaQueuePair>, Ptr<RdmaQueuePair>>
RdmaHelper::CreateQueuePair(Ptr<Node> src, Ptr<Node> dst)
{
    ExitIfRefused();
    Ptr<RdmaStack> a = src->GetObject<RdmaStack>();
    Ptr<RdmaStack> b = dst->GetObject<RdmaStack>();
    NS_ABORT_MSG_IF(!a || !b,
                    "RdmaHelper::CreateQueuePair: install the RDMA stack on nodes "
                        << src->GetId() << " and " << dst->GetId() << " first");
    Ptr<RdmaQueuePair> qa = m_qpFactory.Create<RdmaQueuePair>();
    Ptr<RdmaQueuePair> qb = m_qpFactory.Create<RdmaQueuePair>();
    if (!m_baseRtt.IsNull())
    {
        Time rtt = m_baseRtt(a->GetAddress(), b->GetAddress());
        NS_ABORT_MSG_UNLESS(rtt.IsStrictlyPositive(),
                            "RdmaHelper: the base-RTT callback gave " << rtt.As(Time::US)
                                                                      << " for "
                                                                      << a->GetAddress() << " and "
                                                                      << b->GetAddress()
                                                                      << "; it must be > 0");
        qa->SetAttribute("BaseRtt", TimeValue(rtt));
        qb->SetAttribute("BaseRtt", TimeValue(rtt));
    }
    uint32_t qpnA = a->AddQueuePair(qa);
    uint32_t qpnB = b->AddQueuePair(qb);
    qa->Connect(a,
                qpnA,
                a->GetAddress(),
                b->GetAddress(),
                qpnB,
                m_psFactory.Create<PathSelector>(),
                m_ccFactory.Create<RdmaCongestionControl>());
    qb->Connect(b,
                qpnB,
                b->GetAddress(),
                a->GetAddress(),
                qpnA,
                m_psFactory.Create<PathSelector>(),
                m_ccFactory.Create<RdmaCongestionControl>());
    return {qa, qb};
}

std::pair<Ptr<RdmaQueuePair>, Ptr<RdmaQueuePair>>
RdmaHelper::CreateQueuePair(Ipv4Address src, Ipv4Address dst)
{
    Ptr<Node> a;
    Ptr<Node> b;
    for (uint32_t i = 0; i < NodeList::GetNNodes(); ++i)
    {
        Ptr<Node> node = NodeList::GetNode(i);
        Ptr<RdmaStack> stack = node->GetObject<RdmaStack>();
        if (stack && stack->GetAddress() == src)
        {
            a = node;
        }
        if (stack && stack->GetAddress() == dst)
        {
            b = node;
        }
    }
    NS_ABORT_MSG_IF(!a, "RdmaHelper::CreateQueuePair: no host with an RDMA stack has " << src);
    NS_ABORT_MSG_IF(!b, "RdmaHelper::CreateQueuePair: no host with an RDMA stack has " << dst);
    return CreateQueuePair(a, b);
}

int64_t
RdmaHelper::AssignStreams(NodeContainer nodes, int64_t stream) const
{
    int64_t current = stream;
    for (auto it = nodes.Begin(); it != nodes.End(); ++it)
    {
        Ptr<RdmaStack> s = (*it)->GetObject<RdmaStack>();
        if (!s)
        {
            continue;
        }
        for (uint32_t q = 1; q <= s->GetNQueuePairs(); ++q)
        {
            Ptr<RdmaQueuePair> qp = s->GetQueuePair(q);
            if (qp->GetPathSelector())
            {
                current += qp->GetPathSelector()->AssignStreams(current);
            }
            if (qp->GetCongestionControl())
            {
                current += qp->GetCongestionControl()->AssignStreams(current);
            }
        }
        if (s->HasPullPacer())
        {
            current += s->GetPullPacer()->AssignStreams(current);
        }
    }
    return current - stream;
}

} // namespace ns3
