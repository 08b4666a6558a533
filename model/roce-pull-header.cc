/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "roce-pull-header.h"

#include "ns3/abort.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RocePullHeader");

NS_OBJECT_ENSURE_REGISTERED(RocePullHeader);

namespace
{
constexpr uint64_t kSlowBit = uint64_t(1) << 63; //!< W, the first bit.
} // namespace

TypeId
RocePullHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RocePullHeader")
                            .SetParent<Header>()
                            .SetGroupName("Reps")
                            .AddConstructor<RocePullHeader>();
    return tid;
}

TypeId
RocePullHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

RocePullHeader::RocePullHeader()
    : m_credit(0),
      m_slow(false)
{
}

void
RocePullHeader::Print(std::ostream& os) const
{
    os << "PULL credit=" << m_credit << (m_slow ? " slow" : "");
}

uint32_t
RocePullHeader::GetSerializedSize() const
{
    return SIZE;
}

void
RocePullHeader::Serialize(Buffer::Iterator start) const
{
    start.WriteHtonU64((m_slow ? kSlowBit : 0) | (m_credit & MAX_CREDIT));
}

uint32_t
RocePullHeader::Deserialize(Buffer::Iterator start)
{
    if (start.GetRemainingSize() < SIZE)
    {
        return 0;
    }
    Buffer::Iterator i = start;
    const uint64_t word = i.ReadNtohU64();
    m_slow = (word & kSlowBit) != 0;
    m_credit = word & MAX_CREDIT;
    return i.GetDistanceFrom(start);
}

void
RocePullHeader::SetCumulativeCredit(uint64_t credit)
{
    NS_ABORT_MSG_IF(credit > MAX_CREDIT,
                    "RocePullHeader: cumulative credit " << credit << " exceeds 56 bits");
    m_credit = credit;
}

uint64_t
RocePullHeader::GetCumulativeCredit() const
{
    return m_credit;
}

void
RocePullHeader::SetSlow(bool slow)
{
    m_slow = slow;
}

bool
RocePullHeader::IsSlow() const
{
    return m_slow;
}

} // namespace ns3
