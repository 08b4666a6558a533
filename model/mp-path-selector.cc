/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mp-path-selector.h"

#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <set>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MpPathSelector");

NS_OBJECT_ENSURE_REGISTERED(MpPathSelector);

TypeId
MpPathSelector::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MpPathSelector")
            .SetParent<PathSelector>()
            .SetGroupName("Reps")
            .AddConstructor<MpPathSelector>()
            .AddAttribute("Paths",
                          "Number of distinct EVs used round-robin (1 to 256, and at most "
                          "EntropySpace; 8 in the REPS paper's MP baseline).",
                          UintegerValue(8),
                          MakeUintegerAccessor(&MpPathSelector::m_paths),
                          MakeUintegerChecker<uint32_t>(1, 256));
    return tid;
}

MpPathSelector::MpPathSelector()
    : m_paths(8),
      m_next(0)
{
    NS_LOG_FUNCTION(this);
}

MpPathSelector::~MpPathSelector()
{
    NS_LOG_FUNCTION(this);
}

std::string
MpPathSelector::GetName() const
{
    return "mp";
}

std::string
MpPathSelector::CheckAttributes(uint32_t paths, uint32_t entropySpace)
{
    std::ostringstream msg;
    if (paths < 1 || paths > 256)
    {
        msg << "MpPathSelector: Paths (" << paths << ") must be in [1, 256]";
    }
    else if (paths > entropySpace)
    {
        msg << "MpPathSelector: Paths (" << paths << ") must not exceed EntropySpace ("
            << entropySpace << "): the EVs must be distinct";
    }
    return msg.str();
}

std::string
MpPathSelector::DoValidate(const PathSelectorContext& context) const
{
    return CheckAttributes(m_paths, GetEntropySpace());
}

void
MpPathSelector::DoStart()
{
    NS_LOG_FUNCTION(this);
    m_evs.clear();
    std::set<uint16_t> seen;
    while (m_evs.size() < m_paths)
    {
        uint16_t ev = RandomEntropy();
        if (seen.insert(ev).second)
        {
            m_evs.push_back(ev);
        }
    }
    m_next = 0;
}

uint16_t
MpPathSelector::DoNextEntropy(bool retransmission, Choice& why)
{
    why = ROUND_ROBIN;
    uint16_t ev = m_evs[m_next];
    m_next = (m_next + 1) % m_evs.size();
    return ev;
}

const std::vector<uint16_t>&
MpPathSelector::GetEntropies() const
{
    return m_evs;
}

} // namespace ns3
