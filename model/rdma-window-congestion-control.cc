/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-window-congestion-control.h"

#include "ns3/double.h"
#include "ns3/log.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaWindowCongestionControl");

NS_OBJECT_ENSURE_REGISTERED(RdmaWindowCongestionControl);

TypeId
RdmaWindowCongestionControl::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaWindowCongestionControl")
            .SetParent<RdmaCongestionControl>()
            .SetGroupName("Reps")
            .AddConstructor<RdmaWindowCongestionControl>()
            .AddAttribute("InitialWindow",
                          "Initial window, in bandwidth-delay products of the connection "
                          "(line rate x BaseRtt); at least one Mtu is used.",
                          DoubleValue(1.5),
                          MakeDoubleAccessor(&RdmaWindowCongestionControl::m_initialBdp),
                          MakeDoubleChecker<double>(0.0, 1000.0))
            .AddAttribute("MaxWindow",
                          "Largest window, in bandwidth-delay products of the connection; must "
                          "not be below InitialWindow and must hold at least one Mtu.",
                          DoubleValue(1.5),
                          MakeDoubleAccessor(&RdmaWindowCongestionControl::m_maxBdp),
                          MakeDoubleChecker<double>(0.0, 1000.0));
    return tid;
}

RdmaWindowCongestionControl::RdmaWindowCongestionControl()
    : m_initialBdp(1.5),
      m_maxBdp(1.5),
      m_cwnd(0),
      m_maxCwnd(0)
{
    NS_LOG_FUNCTION(this);
}

RdmaWindowCongestionControl::~RdmaWindowCongestionControl()
{
    NS_LOG_FUNCTION(this);
}

std::string
RdmaWindowCongestionControl::GetName() const
{
    return "window";
}

std::string
RdmaWindowCongestionControl::Validate(const RdmaCcContext& context) const
{
    std::ostringstream os;
    if (m_maxBdp < m_initialBdp)
    {
        os << "RdmaWindowCongestionControl: MaxWindow (" << m_maxBdp
           << " BDP) must be >= InitialWindow (" << m_initialBdp << " BDP)";
    }
    else if (m_maxBdp * context.bdpBytes < context.mtu)
    {
        os << "RdmaWindowCongestionControl: MaxWindow (" << m_maxBdp
           << " BDP = " << m_maxBdp * context.bdpBytes
           << " bytes) must hold at least one packet (Mtu = " << context.mtu << " bytes)";
    }
    return os.str();
}

void
RdmaWindowCongestionControl::DoInit()
{
    NS_LOG_FUNCTION(this);
    const RdmaCcContext& c = GetContext();
    m_maxCwnd = std::max<double>(c.mtu, m_maxBdp * c.bdpBytes);
    m_cwnd = 0;
    Update(m_initialBdp * c.bdpBytes);
}

void
RdmaWindowCongestionControl::Update(double cwnd)
{
    m_cwnd = std::min(m_maxCwnd, std::max<double>(GetContext().mtu, cwnd));
    SetWindow(static_cast<uint32_t>(std::floor(m_cwnd)));
}

void
RdmaWindowCongestionControl::OnAck(uint32_t ackedBytes, bool ce, Time rtt)
{
    NS_LOG_FUNCTION(this << ackedBytes << ce);
    if (ce)
    {
        Update(m_cwnd - ackedBytes / 4.0);
    }
    else
    {
        Update(m_cwnd + static_cast<double>(ackedBytes) * GetContext().mtu / m_cwnd);
    }
}

void
RdmaWindowCongestionControl::OnNack(uint32_t lostBytes, bool lastHop)
{
    NS_LOG_FUNCTION(this << lostBytes);
    Update(m_cwnd - lostBytes);
}

void
RdmaWindowCongestionControl::OnLoss(uint32_t lostBytes)
{
    NS_LOG_FUNCTION(this << lostBytes);
    Update(m_cwnd - lostBytes);
}

double
RdmaWindowCongestionControl::GetExactWindow() const
{
    return m_cwnd;
}

double
RdmaWindowCongestionControl::GetMaxWindow() const
{
    return m_maxCwnd;
}

} // namespace ns3
