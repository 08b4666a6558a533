/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ecmp-path-selector.h"

#include "ns3/log.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("EcmpPathSelector");

NS_OBJECT_ENSURE_REGISTERED(EcmpPathSelector);

TypeId
EcmpPathSelector::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::EcmpPathSelector")
            .SetParent<PathSelector>()
            .SetGroupName("Reps")
            .AddConstructor<EcmpPathSelector>()
            .AddAttribute("Entropy",
                          "The EV every packet carries (0 to 65535, inside the entropy space), or "
                          "65536 to draw one uniformly from the entropy space when the connection "
                          "starts.",
                          UintegerValue(65536),
                          MakeUintegerAccessor(&EcmpPathSelector::m_pinned),
                          MakeUintegerChecker<uint32_t>(0, 65536));
    return tid;
}

EcmpPathSelector::EcmpPathSelector()
    : m_pinned(65536),
      m_ev(0)
{
    NS_LOG_FUNCTION(this);
}

EcmpPathSelector::~EcmpPathSelector()
{
    NS_LOG_FUNCTION(this);
}

std::string
EcmpPathSelector::GetName() const
{
    return "ecmp";
}

std::string
EcmpPathSelector::DoValidate(const PathSelectorContext& context) const
{
    const uint32_t end = GetEntropyBase() + GetEntropySpace();
    if (m_pinned < 65536 && (m_pinned < GetEntropyBase() || m_pinned >= end))
    {
        return "EcmpPathSelector: Entropy (" + std::to_string(m_pinned) + ") must lie in [" +
               std::to_string(GetEntropyBase()) + ", " + std::to_string(end) + ")";
    }
    return "";
}

void
EcmpPathSelector::DoStart()
{
    NS_LOG_FUNCTION(this);
    if (m_pinned < 65536)
    {
        m_ev = static_cast<uint16_t>(m_pinned);
    }
    else
    {
        m_ev = RandomEntropy();
    }
}

uint16_t
EcmpPathSelector::DoNextEntropy(bool retransmission, Choice& why)
{
    why = FIXED;
    return m_ev;
}

uint16_t
EcmpPathSelector::GetEntropy() const
{
    return m_ev;
}

} // namespace ns3
