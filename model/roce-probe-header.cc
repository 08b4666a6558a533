/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "roce-probe-header.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RoceProbeHeader");

NS_OBJECT_ENSURE_REGISTERED(RoceProbeHeader);

TypeId
RoceProbeHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RoceProbeHeader")
                            .SetParent<Header>()
                            .SetGroupName("Reps")
                            .AddConstructor<RoceProbeHeader>();
    return tid;
}

TypeId
RoceProbeHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

RoceProbeHeader::RoceProbeHeader()
    : m_ev(0),
      m_sequence(0),
      m_timestamp(0)
{
}

void
RoceProbeHeader::Print(std::ostream& os) const
{
    os << "PROBE ev=" << m_ev << " seq=" << m_sequence << " ts=" << m_timestamp << "ns";
}

uint32_t
RoceProbeHeader::GetSerializedSize() const
{
    return SIZE;
}

void
RoceProbeHeader::Serialize(Buffer::Iterator start) const
{
    Buffer::Iterator i = start;
    i.WriteHtonU16(m_ev);
    i.WriteHtonU16(0);
    i.WriteHtonU32(m_sequence);
    i.WriteHtonU64(m_timestamp);
}

uint32_t
RoceProbeHeader::Deserialize(Buffer::Iterator start)
{
    if (start.GetRemainingSize() < SIZE)
    {
        return 0;
    }
    Buffer::Iterator i = start;
    m_ev = i.ReadNtohU16();
    i.ReadNtohU16();
    m_sequence = i.ReadNtohU32();
    m_timestamp = i.ReadNtohU64();
    return i.GetDistanceFrom(start);
}

void
RoceProbeHeader::SetEntropy(uint16_t ev)
{
    m_ev = ev;
}

uint16_t
RoceProbeHeader::GetEntropy() const
{
    return m_ev;
}

void
RoceProbeHeader::SetSequence(uint32_t sequence)
{
    m_sequence = sequence;
}

uint32_t
RoceProbeHeader::GetSequence() const
{
    return m_sequence;
}

void
RoceProbeHeader::SetTimestamp(Time timestamp)
{
    m_timestamp =
        timestamp.IsStrictlyPositive() ? static_cast<uint64_t>(timestamp.GetNanoSeconds()) : 0;
}

Time
RoceProbeHeader::GetTimestamp() const
{
    return NanoSeconds(static_cast<int64_t>(m_timestamp));
}

} // namespace ns3
