/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * libFuzzer target: RoceBthHeader::Deserialize, RoceAckHeader::Deserialize,
 * RoceProbeHeader::Deserialize and the receiver-credit headers' (RoceCreditRequestHeader,
 * RocePullHeader) on arbitrary bytes, through Packet::RemoveHeader as the transport receives
 * them.
 *
 * Checked for every input: Deserialize reads at most the bytes there are (Buffer::Iterator's
 * bounds assertions are compiled in: the target is built with NS3_ASSERT_ENABLE) and consumes
 * either nothing or the header's size; a rejected header leaves the packet unchanged; an accepted
 * header serializes back to the bytes it was read from, up to the reserved bits it ignores, and
 * reads back equal; the ACK header's last-hop flag is read in a TRIMMED NACK and only there;
 * the credit headers' 56-bit counts and flag are read whole, from any 8 bytes.
 *
 * reps-fuzz-sources: model/roce-bth-header.cc model/roce-ack-header.cc model/roce-probe-header.cc
 * reps-fuzz-sources: model/roce-credit-request-header.cc model/roce-pull-header.cc
 */

#include "roce-ack-header.h"
#include "roce-bth-header.h"
#include "roce-credit-request-header.h"
#include "roce-probe-header.h"
#include "roce-pull-header.h"

#include "ns3/packet.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

using namespace ns3;

namespace
{

/**
 * Stop the run with a message: libFuzzer reports the input as a crash.
 * \param what the broken property.
 */
[[noreturn]] void
Fail(const char* what)
{
    std::fprintf(stderr, "roce-headers-fuzz: %s\n", what);
    std::abort();
}

/**
 * \param p a packet.
 * \return its bytes.
 */
std::vector<uint8_t>
Bytes(const Ptr<const Packet>& p)
{
    std::vector<uint8_t> out(p->GetSize());
    if (!out.empty())
    {
        p->CopyData(out.data(), out.size());
    }
    return out;
}

/**
 * Deserialize \p header from the front of \p input, then check the properties above.
 * \tparam H RoceBthHeader, RoceAckHeader or RoceProbeHeader.
 * \param input the bytes.
 * \param mask for each serialized byte, the bits that the header keeps (the others are
 *             reserved: ignored on receipt and sent as zero).
 * \return whether the header was accepted.
 */
template <typename H>
bool
CheckHeader(const std::vector<uint8_t>& input, const std::vector<uint8_t>& mask)
{
    Ptr<Packet> packet = Create<Packet>(input.data(), input.size());
    H header;
    uint32_t read = packet->RemoveHeader(header);
    if (read == 0)
    {
        if (Bytes(packet) != input)
        {
            Fail("a rejected header changed the packet");
        }
        return false;
    }
    if (read != H::SIZE || input.size() < H::SIZE || header.GetSerializedSize() != H::SIZE)
    {
        Fail("Deserialize consumed other than the header's size");
    }
    if (packet->GetSize() != input.size() - H::SIZE ||
        Bytes(packet) != std::vector<uint8_t>(input.begin() + H::SIZE, input.end()))
    {
        Fail("the payload after the header changed");
    }
    Ptr<Packet> again = Create<Packet>();
    again->AddHeader(header);
    std::vector<uint8_t> out = Bytes(again);
    if (out.size() != H::SIZE)
    {
        Fail("Serialize wrote other than the header's size");
    }
    for (uint32_t i = 0; i < H::SIZE; ++i)
    {
        if ((out[i] & ~mask[i]) != 0)
        {
            Fail("a reserved bit was sent as one");
        }
        if ((out[i] & mask[i]) != (input[i] & mask[i]))
        {
            Fail("the round trip changed a byte");
        }
    }
    H back;
    if (again->RemoveHeader(back) != H::SIZE || again->GetSize() != 0)
    {
        Fail("a serialized header does not read back");
    }
    return true;
}

} // namespace

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    std::vector<uint8_t> input(data, data + size);

    // BTH: every bit is kept except the 7 reserved bits after AckReq (byte 8).
    std::vector<uint8_t> bthMask(RoceBthHeader::SIZE, 0xFF);
    bthMask[8] = 0x80;
    if (CheckHeader<RoceBthHeader>(input, bthMask))
    {
        RoceBthHeader bth;
        Ptr<Packet> p = Create<Packet>(input.data(), input.size());
        p->RemoveHeader(bth);
        if (bth.GetDestQp() > RoceBthHeader::MAX_QPN || bth.GetPsn() > RoceBthHeader::MAX_PSN ||
            bth.GetPadCount() > 3)
        {
            Fail("a BTH field is out of range");
        }
    }

    // ACK: the reserved bits of the flags byte (0x0C) and the reserved bytes 4 and 8 go; in a
    // TRIMMED NACK (type 1, reason 1) bit 0x04 is the last-hop flag and is kept.
    std::vector<uint8_t> ackMask(RoceAckHeader::SIZE, 0xFF);
    const bool trimmedNack = input.size() >= 2 && input[0] == RoceAckHeader::NACK &&
                             (input[1] >> 4) == RoceAckHeader::TRIMMED;
    ackMask[1] = trimmedNack ? 0xF7 : 0xF3;
    ackMask[4] = 0;
    ackMask[8] = 0;
    bool accepted = CheckHeader<RoceAckHeader>(input, ackMask);
    RoceAckHeader ack;
    Ptr<Packet> p = Create<Packet>(input.data(), input.size());
    p->RemoveHeader(ack);
    if (ack.IsValid() != accepted)
    {
        Fail("RoceAckHeader::IsValid() disagrees with Deserialize");
    }
    if (accepted &&
        ((ack.GetType() == RoceAckHeader::ACK) != (ack.GetNackReason() == RoceAckHeader::NONE) ||
         ack.GetNackReason() > RoceAckHeader::SEQUENCE_ERROR ||
         ack.GetTriggerPsn() > RoceBthHeader::MAX_PSN ||
         ack.GetCumulativePsn() > RoceBthHeader::MAX_PSN))
    {
        Fail("an accepted ACK header has a field out of range");
    }
    if (accepted && ack.IsLastHop() != (trimmedNack && (input[1] & 0x04) != 0))
    {
        Fail("the last-hop flag was read outside a TRIMMED NACK, or not read in one");
    }

    // Probe: every bit is kept except the reserved bytes 2 and 3; any 16 bytes are a probe.
    std::vector<uint8_t> probeMask(RoceProbeHeader::SIZE, 0xFF);
    probeMask[2] = 0;
    probeMask[3] = 0;
    if (CheckHeader<RoceProbeHeader>(input, probeMask) != (input.size() >= RoceProbeHeader::SIZE))
    {
        Fail("RoceProbeHeader refused 16 bytes or accepted fewer");
    }

    // Receiver credits: a flag, 7 reserved bits and a 56-bit count; any 8 bytes are one.
    std::vector<uint8_t> creditMask(RoceCreditRequestHeader::SIZE, 0xFF);
    creditMask[0] = 0x80;
    const bool eight = input.size() >= RoceCreditRequestHeader::SIZE;
    if (CheckHeader<RoceCreditRequestHeader>(input, creditMask) != eight ||
        CheckHeader<RocePullHeader>(input, creditMask) != eight)
    {
        Fail("a credit header refused 8 bytes or accepted fewer");
    }
    if (eight)
    {
        uint64_t count = 0;
        for (uint32_t i = 1; i < 8; ++i)
        {
            count = (count << 8) | input[i];
        }
        const bool flag = (input[0] & 0x80) != 0;
        RoceCreditRequestHeader request;
        RocePullHeader pull;
        Ptr<Packet> q = Create<Packet>(input.data(), input.size());
        q->PeekHeader(request);
        q->PeekHeader(pull);
        if (request.GetPullTarget() != count || request.IsSpeculative() != flag ||
            pull.GetCumulativeCredit() != count || pull.IsSlow() != flag ||
            count > RoceCreditRequestHeader::MAX_TARGET)
        {
            Fail("a credit header read its count or flag wrong");
        }
    }
    return 0;
}
