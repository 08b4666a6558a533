/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "pfc-header.h"

#include "ns3/abort.h"
#include "ns3/address-utils.h"
#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfcHeader");

NS_OBJECT_ENSURE_REGISTERED(PfcHeader);

namespace
{
/// The MAC control multicast address every PFC frame is sent to.
const uint8_t kPauseDestination[6] = {0x01, 0x80, 0xC2, 0x00, 0x00, 0x01};
/// Bytes of the frame before the padding: addresses, EtherType, opcode, vector, quanta.
constexpr uint32_t kUsedBytes = 6 + 6 + 2 + 2 + 2 + 2 * PfcHeader::N_PRIORITIES;
} // namespace

TypeId
PfcHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::PfcHeader")
                            .SetParent<Header>()
                            .SetGroupName("Reps")
                            .AddConstructor<PfcHeader>();
    return tid;
}

TypeId
PfcHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

PfcHeader::PfcHeader()
    : m_classEnable(0),
      m_valid(true)
{
}

uint32_t
PfcHeader::GetSerializedSize() const
{
    return SIZE;
}

void
PfcHeader::Serialize(Buffer::Iterator start) const
{
    Buffer::Iterator i = start;
    i.Write(kPauseDestination, 6);
    WriteTo(i, m_source);
    i.WriteHtonU16(ETHER_TYPE);
    i.WriteHtonU16(OPCODE);
    i.WriteHtonU16(m_classEnable);
    for (uint16_t q : m_quanta)
    {
        i.WriteHtonU16(q);
    }
    i.WriteU8(0, SIZE - kUsedBytes);
}

uint32_t
PfcHeader::Deserialize(Buffer::Iterator start)
{
    if (start.GetRemainingSize() < SIZE)
    {
        // A truncated frame: nothing read, and not a PFC frame.
        m_valid = false;
        return 0;
    }
    Buffer::Iterator i = start;
    uint8_t destination[6];
    i.Read(destination, 6);
    ReadFrom(i, m_source);
    uint16_t etherType = i.ReadNtohU16();
    uint16_t opcode = i.ReadNtohU16();
    m_classEnable = i.ReadNtohU16();
    for (uint16_t& q : m_quanta)
    {
        q = i.ReadNtohU16();
    }
    i.Next(SIZE - kUsedBytes);
    m_valid = etherType == ETHER_TYPE && opcode == OPCODE &&
              std::equal(destination, destination + 6, kPauseDestination);
    return SIZE;
}

void
PfcHeader::Print(std::ostream& os) const
{
    os << "PFC src=" << m_source << " quanta:";
    for (uint8_t p = 0; p < N_PRIORITIES; p++)
    {
        if (IsEnabled(p))
        {
            os << " p" << +p << "=" << m_quanta[p];
        }
    }
}

void
PfcHeader::SetQuanta(uint8_t priority, uint16_t quanta)
{
    NS_ABORT_MSG_IF(priority >= N_PRIORITIES,
                    "PfcHeader: priority " << +priority << " must be 0 to 7");
    m_classEnable |= static_cast<uint16_t>(1U << priority);
    m_quanta[priority] = quanta;
}

uint16_t
PfcHeader::GetQuanta(uint8_t priority) const
{
    NS_ABORT_MSG_IF(priority >= N_PRIORITIES,
                    "PfcHeader: priority " << +priority << " must be 0 to 7");
    return m_quanta[priority];
}

bool
PfcHeader::IsEnabled(uint8_t priority) const
{
    return priority < N_PRIORITIES && (m_classEnable & (1U << priority)) != 0;
}

uint16_t
PfcHeader::GetClassEnableVector() const
{
    return m_classEnable;
}

void
PfcHeader::SetSource(Mac48Address source)
{
    m_source = source;
}

Mac48Address
PfcHeader::GetSource() const
{
    return m_source;
}

bool
PfcHeader::IsValid() const
{
    return m_valid;
}

Time
PfcHeader::QuantaToTime(uint16_t quanta, DataRate rate)
{
    return rate.CalculateBytesTxTime(static_cast<uint64_t>(quanta) * QUANTUM_BITS / 8);
}

} // namespace ns3
