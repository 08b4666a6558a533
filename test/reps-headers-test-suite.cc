/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "reps-test-compat.h"

#include "ns3/buffer.h"
#include "ns3/packet.h"
#include "ns3/roce-ack-header.h"
#include "ns3/roce-bth-header.h"
#include "ns3/test.h"

#include <vector>

using namespace ns3;

/**
 * \ingroup reps-test
 * The BTH serializes to the exact 12 bytes of the specification and reads back every field.
 */
class RoceBthRoundTripTestCase : public TestCase
{
  public:
    RoceBthRoundTripTestCase()
        : TestCase("BTH: exact wire bytes and round trip of every field")
    {
    }

  private:
    void DoRun() override
    {
        RoceBthHeader bth;
        bth.SetOpCode(RoceBthHeader::RC_SEND_MIDDLE);
        bth.SetPadCount(2);
        bth.SetPartitionKey(0xABCD);
        bth.SetBecn(true);
        bth.SetTrimmed(true);
        bth.SetDestQp(0x123456);
        bth.SetAckRequest(true);
        bth.SetPsn(0xFEDCBA);
        NS_TEST_ASSERT_MSG_EQ(bth.GetSerializedSize(), 12, "BTH is 12 bytes");

        Ptr<Packet> p = Create<Packet>(100);
        p->AddHeader(bth);
        NS_TEST_ASSERT_MSG_EQ(p->GetSize(), 112, "header adds 12 bytes");
        std::vector<uint8_t> bytes(12);
        p->CopyData(bytes.data(), 12);
        const std::vector<uint8_t> expected =
            {0x01, 0x20, 0xAB, 0xCD, 0x41, 0x12, 0x34, 0x56, 0x80, 0xFE, 0xDC, 0xBA};
        NS_TEST_ASSERT_MSG_EQ((bytes == expected), true, "BTH wire bytes differ from the spec");

        RoceBthHeader back;
        NS_TEST_ASSERT_MSG_EQ(p->RemoveHeader(back), 12, "12 bytes read");
        NS_TEST_ASSERT_MSG_EQ(+back.GetOpCode(), +RoceBthHeader::RC_SEND_MIDDLE, "opcode");
        NS_TEST_ASSERT_MSG_EQ(+back.GetPadCount(), 2, "pad count");
        NS_TEST_ASSERT_MSG_EQ(back.GetPartitionKey(), 0xABCD, "pkey");
        NS_TEST_ASSERT_MSG_EQ(back.GetBecn(), true, "BECN");
        NS_TEST_ASSERT_MSG_EQ(back.GetFecn(), false, "FECN");
        NS_TEST_ASSERT_MSG_EQ(back.IsTrimmed(), true, "trimmed mark");
        NS_TEST_ASSERT_MSG_EQ(back.GetDestQp(), 0x123456, "dest QP");
        NS_TEST_ASSERT_MSG_EQ(back.GetAckRequest(), true, "AckReq");
        NS_TEST_ASSERT_MSG_EQ(back.GetPsn(), 0xFEDCBA, "PSN");
        NS_TEST_ASSERT_MSG_EQ(back.IsData(), true, "SEND MIDDLE is data");
        NS_TEST_ASSERT_MSG_EQ(p->GetSize(), 100, "payload left intact");

        back.SetTrimmed(false);
        back.SetPsn(0x1FFFFFF);
        NS_TEST_ASSERT_MSG_EQ(back.IsTrimmed(), false, "trimmed mark cleared");
        NS_TEST_ASSERT_MSG_EQ(back.GetPsn(), 0xFFFFFF, "PSN wraps to 24 bits");
    }
};

/**
 * \ingroup reps-test
 * A buffer too short to hold a BTH is rejected without reading past its end.
 */
class RoceBthShortBufferTestCase : public TestCase
{
  public:
    RoceBthShortBufferTestCase()
        : TestCase("BTH: a short buffer is rejected and left untouched")
    {
    }

  private:
    void DoRun() override
    {
        // Deserialize works on the raw buffer, as Packet::PeekHeader() and RemoveHeader() do;
        // a receiver checks the return value (0: not a BTH) before using the fields.
        for (uint32_t size = 0; size < RoceBthHeader::SIZE; ++size)
        {
            Buffer buffer;
            buffer.AddAtStart(size);
            RoceBthHeader bth;
            bth.SetPsn(77);
            NS_TEST_ASSERT_MSG_EQ(bth.Deserialize(buffer.Begin()), 0, "short buffer accepted");
            NS_TEST_ASSERT_MSG_EQ(bth.GetPsn(), 77, "short buffer changed the header");
        }
        Buffer exact;
        exact.AddAtStart(RoceBthHeader::SIZE);
        RoceBthHeader bth;
        NS_TEST_ASSERT_MSG_EQ(bth.Deserialize(exact.Begin()), 12, "a 12-byte buffer is a BTH");
    }
};

/**
 * \ingroup reps-test
 * The ACK header serializes to its documented 20 bytes and reads back every field, for an ACK
 * and for both kinds of NACK; a whole RC_ACK packet (BTH + ACK + ICRC) has the expected size.
 */
class RoceAckRoundTripTestCase : public TestCase
{
  public:
    RoceAckRoundTripTestCase()
        : TestCase("ACK header: exact wire bytes and round trip of every field")
    {
    }

  private:
    void DoRun() override
    {
        RoceAckHeader ack;
        ack.SetType(RoceAckHeader::ACK);
        ack.SetEchoedCe(true);
        ack.SetDuplicate(true);
        ack.SetEchoedEntropy(0xBEEF);
        ack.SetTriggerPsn(0x1ABCDEF); // wraps to 24 bits
        ack.SetCumulativePsn(0x000102);
        ack.SetSackBitmap(0x8000000000000005ULL);
        NS_TEST_ASSERT_MSG_EQ(ack.GetSerializedSize(), 20, "ACK header is 20 bytes");

        Ptr<Packet> p = Create<Packet>(RoceBthHeader::ICRC_SIZE);
        p->AddHeader(ack);
        RoceBthHeader bth;
        bth.SetOpCode(RoceBthHeader::RC_ACK);
        p->AddHeader(bth);
        NS_TEST_ASSERT_MSG_EQ(p->GetSize(), 36, "BTH + ACK + ICRC = 36 bytes");
        std::vector<uint8_t> bytes(36);
        p->CopyData(bytes.data(), 36);
        const std::vector<uint8_t> expected = {0x00, 0x03, 0xBE, 0xEF, 0x00, 0xAB, 0xCD,
                                               0xEF, 0x00, 0x00, 0x01, 0x02, 0x80, 0x00,
                                               0x00, 0x00, 0x00, 0x00, 0x00, 0x05};
        NS_TEST_ASSERT_MSG_EQ(
            (std::vector<uint8_t>(bytes.begin() + 12, bytes.begin() + 32) == expected),
            true,
            "ACK wire bytes differ from the documented layout");

        RoceBthHeader bthBack;
        NS_TEST_ASSERT_MSG_EQ(p->RemoveHeader(bthBack), 12, "BTH read");
        NS_TEST_ASSERT_MSG_EQ(+bthBack.GetOpCode(), +RoceBthHeader::RC_ACK, "RC_ACK opcode");
        RoceAckHeader back;
        NS_TEST_ASSERT_MSG_EQ(p->RemoveHeader(back), 20, "ACK read");
        NS_TEST_ASSERT_MSG_EQ(back.IsValid(), true, "valid");
        NS_TEST_ASSERT_MSG_EQ(back.IsNack(), false, "ACK");
        NS_TEST_ASSERT_MSG_EQ(+back.GetNackReason(), +RoceAckHeader::NONE, "no reason");
        NS_TEST_ASSERT_MSG_EQ(back.GetEchoedCe(), true, "CE echo");
        NS_TEST_ASSERT_MSG_EQ(back.IsDuplicate(), true, "duplicate");
        NS_TEST_ASSERT_MSG_EQ(back.GetEchoedEntropy(), 0xBEEF, "EV echo");
        NS_TEST_ASSERT_MSG_EQ(back.GetTriggerPsn(), 0xABCDEF, "trigger PSN");
        NS_TEST_ASSERT_MSG_EQ(back.GetCumulativePsn(), 0x102, "cumulative PSN");
        NS_TEST_ASSERT_MSG_EQ(back.GetSackBitmap(), 0x8000000000000005ULL, "SACK bitmap");
        NS_TEST_ASSERT_MSG_EQ(p->GetSize(), RoceBthHeader::ICRC_SIZE, "ICRC left");

        for (auto reason : {RoceAckHeader::TRIMMED, RoceAckHeader::SEQUENCE_ERROR})
        {
            RoceAckHeader nack;
            nack.SetType(RoceAckHeader::NACK);
            nack.SetNackReason(reason);
            nack.SetEchoedEntropy(7);
            nack.SetTriggerPsn(99);
            Ptr<Packet> q = Create<Packet>();
            q->AddHeader(nack);
            RoceAckHeader nackBack;
            NS_TEST_ASSERT_MSG_EQ(q->RemoveHeader(nackBack), 20, "NACK read");
            NS_TEST_ASSERT_MSG_EQ(nackBack.IsNack(), true, "NACK");
            NS_TEST_ASSERT_MSG_EQ(+nackBack.GetNackReason(), +reason, "NACK reason");
            NS_TEST_ASSERT_MSG_EQ(nackBack.GetEchoedCe(), false, "no CE");
            NS_TEST_ASSERT_MSG_EQ(nackBack.GetEchoedEntropy(), 7, "EV");
            NS_TEST_ASSERT_MSG_EQ(nackBack.GetTriggerPsn(), 99, "PSN");
        }
    }
};

/**
 * \ingroup reps-test
 * Short buffers and buffers with an unknown type or an impossible reason are rejected.
 */
class RoceAckMalformedTestCase : public TestCase
{
  public:
    RoceAckMalformedTestCase()
        : TestCase("ACK header: short and corrupt buffers are rejected")
    {
    }

  private:
    void DoRun() override
    {
        for (uint32_t size = 0; size < RoceAckHeader::SIZE; ++size)
        {
            Ptr<Packet> p = Create<Packet>(size);
            RoceAckHeader ack;
            NS_TEST_ASSERT_MSG_EQ(p->PeekHeader(ack), 0, "short buffer accepted");
            NS_TEST_ASSERT_MSG_EQ(ack.IsValid(), false, "short buffer marked valid");
            NS_TEST_ASSERT_MSG_EQ(p->GetSize(), size, "short buffer changed");
        }
        // {type, flags}: unknown types, an ACK with a reason, a NACK without or with an
        // unknown reason.
        const std::vector<std::pair<uint8_t, uint8_t>> corrupt =
            {{2, 0x00}, {0xFF, 0x00}, {0, 0x10}, {1, 0x00}, {1, 0x30}, {1, 0xF1}};
        for (const auto& [type, flags] : corrupt)
        {
            std::vector<uint8_t> bytes(RoceAckHeader::SIZE, 0);
            bytes[0] = type;
            bytes[1] = flags;
            Ptr<Packet> p = Create<Packet>(bytes.data(), bytes.size());
            RoceAckHeader ack;
            NS_TEST_ASSERT_MSG_EQ(p->PeekHeader(ack),
                                  0,
                                  "corrupt header accepted (type " << +type << ", flags " << +flags
                                                                   << ")");
            NS_TEST_ASSERT_MSG_EQ(ack.IsValid(), false, "corrupt header marked valid");
        }
        // The same bytes with a known type are accepted.
        std::vector<uint8_t> good(RoceAckHeader::SIZE, 0);
        good[0] = 1;
        good[1] = 0x21;
        Ptr<Packet> p = Create<Packet>(good.data(), good.size());
        RoceAckHeader ack;
        NS_TEST_ASSERT_MSG_EQ(p->PeekHeader(ack), 20, "well-formed NACK rejected");
        NS_TEST_ASSERT_MSG_EQ(+ack.GetNackReason(), +RoceAckHeader::SEQUENCE_ERROR, "reason");
        NS_TEST_ASSERT_MSG_EQ(ack.GetEchoedCe(), true, "CE");
    }
};

/**
 * \ingroup reps-test
 * The last-hop marks: the BTH's L bit (0x02 of byte 4, beside T) and the TRIMMED NACK's
 * last-hop flag (0x04 of the flags byte) go on the wire and read back; in any other ACK or
 * NACK the flag's position is reserved: never sent, ignored on receipt.
 */
class RoceLastHopFlagTestCase : public TestCase
{
  public:
    RoceLastHopFlagTestCase()
        : TestCase("Last-hop marks: BTH L bit and TRIMMED NACK flag, round trip and reserved")
    {
    }

  private:
    /**
     * \param header a header
     * \return its serialized bytes
     */
    template <typename H>
    static std::vector<uint8_t> Wire(const H& header)
    {
        Ptr<Packet> p = Create<Packet>();
        p->AddHeader(header);
        std::vector<uint8_t> bytes(p->GetSize());
        p->CopyData(bytes.data(), bytes.size());
        return bytes;
    }

    void DoRun() override
    {
        RoceBthHeader bth;
        bth.SetOpCode(RoceBthHeader::RC_SEND_ONLY);
        bth.SetTrimmed(true);
        bth.SetTrimmedAtLastHop(true);
        std::vector<uint8_t> bytes = Wire(bth);
        NS_TEST_ASSERT_MSG_EQ(+bytes[4], 0x03, "BTH byte 4 holds T (0x01) and L (0x02)");
        RoceBthHeader bthBack;
        Ptr<Packet> p = Create<Packet>(bytes.data(), bytes.size());
        p->RemoveHeader(bthBack);
        NS_TEST_ASSERT_MSG_EQ(bthBack.IsTrimmed(), true, "T read back");
        NS_TEST_ASSERT_MSG_EQ(bthBack.IsTrimmedAtLastHop(), true, "L read back");
        bthBack.SetTrimmedAtLastHop(false);
        NS_TEST_ASSERT_MSG_EQ(+Wire(bthBack)[4], 0x01, "L cleared, T kept");

        RoceAckHeader nack;
        nack.SetType(RoceAckHeader::NACK);
        nack.SetNackReason(RoceAckHeader::TRIMMED);
        nack.SetEchoedCe(true);
        nack.SetLastHop(true);
        bytes = Wire(nack);
        NS_TEST_ASSERT_MSG_EQ(+bytes[1], 0x15, "flags: TRIMMED (0x10), L (0x04), C (0x01)");
        RoceAckHeader back;
        p = Create<Packet>(bytes.data(), bytes.size());
        NS_TEST_ASSERT_MSG_EQ(p->RemoveHeader(back), 20, "last-hop NACK read");
        NS_TEST_ASSERT_MSG_EQ(back.IsLastHop(), true, "last-hop flag read back");
        NS_TEST_ASSERT_MSG_EQ(back.GetEchoedCe(), true, "CE kept beside it");
        NS_TEST_ASSERT_MSG_EQ(+back.GetNackReason(), +RoceAckHeader::TRIMMED, "reason kept");

        nack.SetLastHop(false);
        NS_TEST_ASSERT_MSG_EQ(+Wire(nack)[1], 0x11, "a fabric trim's NACK has no flag");
        nack.SetLastHop(true);
        nack.SetNackReason(RoceAckHeader::SEQUENCE_ERROR);
        NS_TEST_ASSERT_MSG_EQ(nack.IsLastHop(), false, "a sequence-error NACK is no last-hop NACK");
        NS_TEST_ASSERT_MSG_EQ(+Wire(nack)[1], 0x21, "and sends the bit as zero");

        // Received with the bit set, an ACK and a sequence-error NACK ignore it.
        for (const auto& [type, flags] :
             std::vector<std::pair<uint8_t, uint8_t>>{{0, 0x04}, {1, 0x24}})
        {
            std::vector<uint8_t> in(RoceAckHeader::SIZE, 0);
            in[0] = type;
            in[1] = flags;
            Ptr<Packet> q = Create<Packet>(in.data(), in.size());
            RoceAckHeader other;
            NS_TEST_ASSERT_MSG_EQ(q->RemoveHeader(other), 20, "reserved bit set: still accepted");
            NS_TEST_ASSERT_MSG_EQ(other.IsLastHop(), false, "reserved bit ignored");
            NS_TEST_ASSERT_MSG_EQ(+Wire(other)[1], (flags & ~0x04), "and sent back as zero");
        }
    }
};

/**
 * \ingroup reps-test
 * Wire-format headers.
 */
class RepsHeadersTestSuite : public TestSuite
{
  public:
    RepsHeadersTestSuite()
        : TestSuite("reps-headers", TestSuite::Type::UNIT)
    {
        AddTestCase(new RoceBthRoundTripTestCase, reps::kQuick);
        AddTestCase(new RoceBthShortBufferTestCase, reps::kQuick);
        AddTestCase(new RoceAckRoundTripTestCase, reps::kQuick);
        AddTestCase(new RoceAckMalformedTestCase, reps::kQuick);
        AddTestCase(new RoceLastHopFlagTestCase, reps::kQuick);
    }
};

/// The one instance of the suite.
static RepsHeadersTestSuite g_repsHeadersTestSuite;
