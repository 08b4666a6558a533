/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "roce-bth-header.h"

#include "ns3/abort.h"
#include "ns3/log.h"

#include <iomanip>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RoceBthHeader");

NS_OBJECT_ENSURE_REGISTERED(RoceBthHeader);

namespace
{
constexpr uint8_t kFecnBit = 0x80;                                //!< FECN in the reserved byte.
constexpr uint8_t kBecnBit = 0x40;                                //!< BECN in the reserved byte.
constexpr uint8_t kTrimmedBit = RoceBthHeader::TRIMMED_BIT;       //!< The trimmed mark.
constexpr uint8_t kLastHopBit = RoceBthHeader::LAST_HOP_BIT;      //!< The last-hop trim mark.
constexpr uint8_t kCreditBit = RoceBthHeader::CREDIT_REQUEST_BIT; //!< A credit request follows.
constexpr uint8_t kPadShift = 4;   //!< PadCnt position in the flags byte.
constexpr uint8_t kPadMask = 0x30; //!< PadCnt bits in the flags byte.
} // namespace

TypeId
RoceBthHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RoceBthHeader")
                            .SetParent<Header>()
                            .SetGroupName("Reps")
                            .AddConstructor<RoceBthHeader>();
    return tid;
}

TypeId
RoceBthHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

RoceBthHeader::RoceBthHeader()
    : m_opCode(RC_SEND_ONLY),
      m_flags(0),
      m_pkey(0xFFFF),
      m_resv8a(0),
      m_destQp(0),
      m_ackReq(false),
      m_psn(0)
{
}

void
RoceBthHeader::Print(std::ostream& os) const
{
    os << "opcode=0x" << std::hex << std::setw(2) << std::setfill('0')
       << static_cast<uint32_t>(m_opCode) << std::dec << std::setfill(' ') << " dqp=" << m_destQp
       << " psn=" << m_psn << (m_ackReq ? " A" : "") << (GetFecn() ? " F" : "")
       << (GetBecn() ? " B" : "") << (IsTrimmed() ? " trimmed" : "")
       << (IsTrimmedAtLastHop() ? " last-hop" : "") << (HasCreditRequest() ? " credit" : "");
}

uint32_t
RoceBthHeader::GetSerializedSize() const
{
    return SIZE;
}

void
RoceBthHeader::Serialize(Buffer::Iterator start) const
{
    Buffer::Iterator i = start;
    i.WriteU8(m_opCode);
    i.WriteU8(m_flags);
    i.WriteHtonU16(m_pkey);
    i.WriteHtonU32((static_cast<uint32_t>(m_resv8a) << 24) | (m_destQp & MAX_QPN));
    i.WriteHtonU32((m_ackReq ? 0x80000000U : 0U) | (m_psn & MAX_PSN));
}

uint32_t
RoceBthHeader::Deserialize(Buffer::Iterator start)
{
    if (start.GetRemainingSize() < SIZE)
    {
        // Too short to be a BTH: consume nothing, so that Packet::RemoveHeader() returns 0.
        return 0;
    }
    Buffer::Iterator i = start;
    m_opCode = i.ReadU8();
    m_flags = i.ReadU8();
    m_pkey = i.ReadNtohU16();
    uint32_t word = i.ReadNtohU32();
    m_resv8a = static_cast<uint8_t>(word >> 24);
    m_destQp = word & MAX_QPN;
    word = i.ReadNtohU32();
    m_ackReq = (word & 0x80000000U) != 0;
    m_psn = word & MAX_PSN;
    return i.GetDistanceFrom(start);
}

void
RoceBthHeader::SetOpCode(uint8_t opCode)
{
    m_opCode = opCode;
}

uint8_t
RoceBthHeader::GetOpCode() const
{
    return m_opCode;
}

bool
RoceBthHeader::IsData() const
{
    return IsDataOpCode(m_opCode);
}

bool
RoceBthHeader::IsDataOpCode(uint8_t opCode)
{
    return opCode == RC_SEND_FIRST || opCode == RC_SEND_MIDDLE || opCode == RC_SEND_LAST ||
           opCode == RC_SEND_ONLY;
}

void
RoceBthHeader::SetDestQp(uint32_t qpn)
{
    NS_ABORT_MSG_IF(qpn > MAX_QPN, "RoceBthHeader: destination QP " << qpn << " exceeds 24 bits");
    m_destQp = qpn;
}

uint32_t
RoceBthHeader::GetDestQp() const
{
    return m_destQp;
}

void
RoceBthHeader::SetPsn(uint32_t psn)
{
    m_psn = psn & MAX_PSN;
}

uint32_t
RoceBthHeader::GetPsn() const
{
    return m_psn;
}

void
RoceBthHeader::SetAckRequest(bool ackReq)
{
    m_ackReq = ackReq;
}

bool
RoceBthHeader::GetAckRequest() const
{
    return m_ackReq;
}

void
RoceBthHeader::SetPartitionKey(uint16_t pkey)
{
    m_pkey = pkey;
}

uint16_t
RoceBthHeader::GetPartitionKey() const
{
    return m_pkey;
}

void
RoceBthHeader::SetPadCount(uint8_t padCount)
{
    NS_ABORT_MSG_IF(padCount > 3, "RoceBthHeader: pad count " << +padCount << " exceeds 3");
    m_flags = static_cast<uint8_t>((m_flags & ~kPadMask) | (padCount << kPadShift));
}

uint8_t
RoceBthHeader::GetPadCount() const
{
    return (m_flags & kPadMask) >> kPadShift;
}

void
RoceBthHeader::SetFecn(bool fecn)
{
    m_resv8a = fecn ? (m_resv8a | kFecnBit) : (m_resv8a & ~kFecnBit);
}

bool
RoceBthHeader::GetFecn() const
{
    return (m_resv8a & kFecnBit) != 0;
}

void
RoceBthHeader::SetBecn(bool becn)
{
    m_resv8a = becn ? (m_resv8a | kBecnBit) : (m_resv8a & ~kBecnBit);
}

bool
RoceBthHeader::GetBecn() const
{
    return (m_resv8a & kBecnBit) != 0;
}

void
RoceBthHeader::SetTrimmed(bool trimmed)
{
    m_resv8a = trimmed ? (m_resv8a | kTrimmedBit) : (m_resv8a & ~kTrimmedBit);
}

bool
RoceBthHeader::IsTrimmed() const
{
    return (m_resv8a & kTrimmedBit) != 0;
}

void
RoceBthHeader::SetTrimmedAtLastHop(bool lastHop)
{
    m_resv8a = lastHop ? (m_resv8a | kLastHopBit) : (m_resv8a & ~kLastHopBit);
}

bool
RoceBthHeader::IsTrimmedAtLastHop() const
{
    return (m_resv8a & kLastHopBit) != 0;
}

void
RoceBthHeader::SetCreditRequest(bool request)
{
    m_resv8a = request ? (m_resv8a | kCreditBit) : (m_resv8a & ~kCreditBit);
}

bool
RoceBthHeader::HasCreditRequest() const
{
    return (m_resv8a & kCreditBit) != 0;
}

} // namespace ns3
