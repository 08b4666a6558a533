/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-congestion-control.h"

#include "ns3/abort.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaCongestionControl");

NS_OBJECT_ENSURE_REGISTERED(RdmaCongestionControl);

TypeId
RdmaCongestionControl::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaCongestionControl")
            .SetParent<Object>()
            .SetGroupName("Reps")
            .AddTraceSource("CongestionWindow",
                            "The window (payload bytes allowed in flight; 4294967295 when "
                            "unlimited).",
                            MakeTraceSourceAccessor(&RdmaCongestionControl::m_cwnd),
                            "ns3::TracedValueCallback::Uint32")
            .AddTraceSource("Rate",
                            "The sending rate.",
                            MakeTraceSourceAccessor(&RdmaCongestionControl::m_rate),
                            "ns3::TracedValueCallback::DataRate");
    return tid;
}

RdmaCongestionControl::RdmaCongestionControl()
    : m_cwnd(UNLIMITED),
      m_rate(DataRate("100Gbps"))
{
    NS_LOG_FUNCTION(this);
}

RdmaCongestionControl::~RdmaCongestionControl()
{
    NS_LOG_FUNCTION(this);
}

std::string
RdmaCongestionControl::GetName() const
{
    return GetInstanceTypeId().GetName();
}

bool
RdmaCongestionControl::UsesReceiverCredits() const
{
    return false;
}

std::string
RdmaCongestionControl::Validate(const RdmaCcContext& context) const
{
    return "";
}

void
RdmaCongestionControl::Init(const RdmaCcContext& context)
{
    NS_LOG_FUNCTION(this);
    std::string error = Validate(context);
    NS_ABORT_MSG_IF(!error.empty(), error);
    m_context = context;
    m_rate = context.lineRate;
    m_cwnd = UNLIMITED;
    DoInit();
}

void
RdmaCongestionControl::DoInit()
{
}

void
RdmaCongestionControl::OnSend(uint32_t wireBytes)
{
}

void
RdmaCongestionControl::OnAck(uint32_t ackedBytes, bool ce, Time rtt)
{
}

void
RdmaCongestionControl::OnNack(uint32_t lostBytes, bool lastHop)
{
}

void
RdmaCongestionControl::OnLoss(uint32_t lostBytes)
{
}

void
RdmaCongestionControl::OnTimeout()
{
}

void
RdmaCongestionControl::OnCnp()
{
}

Time
RdmaCongestionControl::GetCnpInterval() const
{
    return Time(0);
}

uint32_t
RdmaCongestionControl::GetWindow() const
{
    return m_cwnd;
}

DataRate
RdmaCongestionControl::GetRate() const
{
    return m_rate;
}

const RdmaCcContext&
RdmaCongestionControl::GetContext() const
{
    return m_context;
}

int64_t
RdmaCongestionControl::AssignStreams(int64_t stream)
{
    return 0;
}

void
RdmaCongestionControl::SetWindow(uint32_t bytes)
{
    if (bytes != m_cwnd)
    {
        m_cwnd = bytes;
    }
}

void
RdmaCongestionControl::SetRate(DataRate rate)
{
    if (rate != m_rate)
    {
        m_rate = rate;
    }
}

} // namespace ns3
