/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "roce-credit-request-header.h"

#include "ns3/abort.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RoceCreditRequestHeader");

NS_OBJECT_ENSURE_REGISTERED(RoceCreditRequestHeader);

namespace
{
constexpr uint64_t kSpeculativeBit = uint64_t(1) << 63; //!< S, the first bit.
} // namespace

TypeId
RoceCreditRequestHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RoceCreditRequestHeader")
                            .SetParent<Header>()
                            .SetGroupName("Reps")
                            .AddConstructor<RoceCreditRequestHeader>();
    return tid;
}

TypeId
RoceCreditRequestHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

RoceCreditRequestHeader::RoceCreditRequestHeader()
    : m_target(0),
      m_speculative(false)
{
}

void
RoceCreditRequestHeader::Print(std::ostream& os) const
{
    os << "CREDIT-REQUEST target=" << m_target << (m_speculative ? " speculative" : "");
}

uint32_t
RoceCreditRequestHeader::GetSerializedSize() const
{
    return SIZE;
}

void
RoceCreditRequestHeader::Serialize(Buffer::Iterator start) const
{
    start.WriteHtonU64((m_speculative ? kSpeculativeBit : 0) | (m_target & MAX_TARGET));
}

uint32_t
RoceCreditRequestHeader::Deserialize(Buffer::Iterator start)
{
    if (start.GetRemainingSize() < SIZE)
    {
        return 0;
    }
    Buffer::Iterator i = start;
    const uint64_t word = i.ReadNtohU64();
    m_speculative = (word & kSpeculativeBit) != 0;
    m_target = word & MAX_TARGET;
    return i.GetDistanceFrom(start);
}

void
RoceCreditRequestHeader::SetPullTarget(uint64_t target)
{
    NS_ABORT_MSG_IF(target > MAX_TARGET,
                    "RoceCreditRequestHeader: pull target " << target << " exceeds 56 bits");
    m_target = target;
}

uint64_t
RoceCreditRequestHeader::GetPullTarget() const
{
    return m_target;
}

void
RoceCreditRequestHeader::SetSpeculative(bool speculative)
{
    m_speculative = speculative;
}

bool
RoceCreditRequestHeader::IsSpeculative() const
{
    return m_speculative;
}

} // namespace ns3
