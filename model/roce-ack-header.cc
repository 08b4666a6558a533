/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "roce-ack-header.h"

#include "roce-bth-header.h"

#include "ns3/abort.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RoceAckHeader");

NS_OBJECT_ENSURE_REGISTERED(RoceAckHeader);

namespace
{
constexpr uint8_t kReasonShift = 4;     //!< NACK reason position in the flags byte.
constexpr uint8_t kReasonMask = 0xF0;   //!< NACK reason bits in the flags byte.
constexpr uint8_t kLastHopBit = 0x04;   //!< Last-hop bit in the flags byte (TRIMMED NACK).
constexpr uint8_t kDuplicateBit = 0x02; //!< Duplicate bit in the flags byte.
constexpr uint8_t kCeBit = 0x01;        //!< Echoed CE bit in the flags byte.
} // namespace

TypeId
RoceAckHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RoceAckHeader")
                            .SetParent<Header>()
                            .SetGroupName("Reps")
                            .AddConstructor<RoceAckHeader>();
    return tid;
}

TypeId
RoceAckHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

RoceAckHeader::RoceAckHeader()
    : m_type(ACK),
      m_reason(NONE),
      m_ce(false),
      m_duplicate(false),
      m_lastHop(false),
      m_ev(0),
      m_triggerPsn(0),
      m_cumPsn(0),
      m_sack(0),
      m_valid(true)
{
}

void
RoceAckHeader::Print(std::ostream& os) const
{
    os << (m_type == ACK ? "ACK" : "NACK");
    if (m_type == NACK)
    {
        os << (m_reason == TRIMMED ? " trimmed" : " seq-err") << (m_lastHop ? " last-hop" : "");
    }
    os << " psn=" << m_triggerPsn << " cum=" << m_cumPsn << " sack=0x" << std::hex << m_sack
       << std::dec << " ev=" << m_ev << (m_ce ? " CE" : "") << (m_duplicate ? " dup" : "");
}

uint32_t
RoceAckHeader::GetSerializedSize() const
{
    return SIZE;
}

void
RoceAckHeader::Serialize(Buffer::Iterator start) const
{
    Buffer::Iterator i = start;
    i.WriteU8(m_type);
    i.WriteU8(static_cast<uint8_t>((m_reason << kReasonShift) | (IsLastHop() ? kLastHopBit : 0) |
                                   (m_duplicate ? kDuplicateBit : 0) | (m_ce ? kCeBit : 0)));
    i.WriteHtonU16(m_ev);
    i.WriteHtonU32(m_triggerPsn & RoceBthHeader::MAX_PSN);
    i.WriteHtonU32(m_cumPsn & RoceBthHeader::MAX_PSN);
    i.WriteHtonU64(m_sack);
}

uint32_t
RoceAckHeader::Deserialize(Buffer::Iterator start)
{
    m_valid = false;
    if (start.GetRemainingSize() < SIZE)
    {
        return 0;
    }
    Buffer::Iterator i = start;
    uint8_t type = i.ReadU8();
    uint8_t flags = i.ReadU8();
    uint8_t reason = (flags & kReasonMask) >> kReasonShift;
    if (type > NACK || (type == ACK && reason != NONE) ||
        (type == NACK && reason != TRIMMED && reason != SEQUENCE_ERROR))
    {
        return 0;
    }
    m_type = static_cast<Type>(type);
    m_reason = static_cast<NackReason>(reason);
    m_duplicate = (flags & kDuplicateBit) != 0;
    // Outside a TRIMMED NACK the bit is reserved: ignored.
    m_lastHop = m_reason == TRIMMED && (flags & kLastHopBit) != 0;
    m_ce = (flags & kCeBit) != 0;
    m_ev = i.ReadNtohU16();
    m_triggerPsn = i.ReadNtohU32() & RoceBthHeader::MAX_PSN;
    m_cumPsn = i.ReadNtohU32() & RoceBthHeader::MAX_PSN;
    m_sack = i.ReadNtohU64();
    m_valid = true;
    return i.GetDistanceFrom(start);
}

bool
RoceAckHeader::IsValid() const
{
    return m_valid;
}

void
RoceAckHeader::SetType(Type type)
{
    NS_ABORT_MSG_IF(type > NACK, "RoceAckHeader: type " << +type << " is neither ACK nor NACK");
    m_type = type;
    if (type == ACK)
    {
        m_reason = NONE;
        m_lastHop = false;
    }
    else if (m_reason == NONE)
    {
        m_reason = TRIMMED;
    }
}

RoceAckHeader::Type
RoceAckHeader::GetType() const
{
    return m_type;
}

bool
RoceAckHeader::IsNack() const
{
    return m_type == NACK;
}

void
RoceAckHeader::SetNackReason(NackReason reason)
{
    NS_ABORT_MSG_IF(reason > SEQUENCE_ERROR, "RoceAckHeader: unknown NACK reason " << +reason);
    NS_ABORT_MSG_IF((m_type == ACK) != (reason == NONE),
                    "RoceAckHeader: an ACK has reason NONE, a NACK TRIMMED or SEQUENCE_ERROR");
    m_reason = reason;
    if (reason != TRIMMED)
    {
        m_lastHop = false;
    }
}

RoceAckHeader::NackReason
RoceAckHeader::GetNackReason() const
{
    return m_reason;
}

void
RoceAckHeader::SetTriggerPsn(uint32_t psn)
{
    m_triggerPsn = psn & RoceBthHeader::MAX_PSN;
}

uint32_t
RoceAckHeader::GetTriggerPsn() const
{
    return m_triggerPsn;
}

void
RoceAckHeader::SetCumulativePsn(uint32_t psn)
{
    m_cumPsn = psn & RoceBthHeader::MAX_PSN;
}

uint32_t
RoceAckHeader::GetCumulativePsn() const
{
    return m_cumPsn;
}

void
RoceAckHeader::SetSackBitmap(uint64_t bitmap)
{
    m_sack = bitmap;
}

uint64_t
RoceAckHeader::GetSackBitmap() const
{
    return m_sack;
}

void
RoceAckHeader::SetEchoedEntropy(uint16_t ev)
{
    m_ev = ev;
}

uint16_t
RoceAckHeader::GetEchoedEntropy() const
{
    return m_ev;
}

void
RoceAckHeader::SetEchoedCe(bool ce)
{
    m_ce = ce;
}

bool
RoceAckHeader::GetEchoedCe() const
{
    return m_ce;
}

void
RoceAckHeader::SetLastHop(bool lastHop)
{
    NS_ABORT_MSG_IF(lastHop && m_reason != TRIMMED,
                    "RoceAckHeader: only a NACK whose reason is TRIMMED can be a last-hop NACK");
    m_lastHop = lastHop;
}

bool
RoceAckHeader::IsLastHop() const
{
    return m_lastHop && m_reason == TRIMMED;
}

void
RoceAckHeader::SetDuplicate(bool duplicate)
{
    m_duplicate = duplicate;
}

bool
RoceAckHeader::IsDuplicate() const
{
    return m_duplicate;
}

} // namespace ns3
