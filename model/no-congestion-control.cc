/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "no-congestion-control.h"

#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("NoCongestionControl");

NS_OBJECT_ENSURE_REGISTERED(NoCongestionControl);

TypeId
NoCongestionControl::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::NoCongestionControl")
            .SetParent<RdmaCongestionControl>()
            .SetGroupName("Reps")
            .AddConstructor<NoCongestionControl>()
            .AddAttribute("Window",
                          "Fixed window in payload bytes; 0 leaves the bytes in flight limited "
                          "only by the queue pair's receive window. A non-zero window must hold "
                          "at least one packet (the queue pair's Mtu).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&NoCongestionControl::m_window),
                          MakeUintegerChecker<uint32_t>());
    return tid;
}

NoCongestionControl::NoCongestionControl()
    : m_window(0)
{
    NS_LOG_FUNCTION(this);
}

NoCongestionControl::~NoCongestionControl()
{
    NS_LOG_FUNCTION(this);
}

std::string
NoCongestionControl::GetName() const
{
    return "none";
}

std::string
NoCongestionControl::Validate(const RdmaCcContext& context) const
{
    if (m_window != 0 && m_window < context.mtu)
    {
        std::ostringstream os;
        os << "NoCongestionControl: Window (" << m_window
           << " bytes) must be 0 (unlimited) or at least one packet (Mtu = " << context.mtu
           << " bytes)";
        return os.str();
    }
    return "";
}

void
NoCongestionControl::DoInit()
{
    NS_LOG_FUNCTION(this);
    SetWindow(m_window == 0 ? UNLIMITED : m_window);
}

} // namespace ns3
