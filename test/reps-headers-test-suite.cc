/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/buffer.h"
#include "ns3/packet.h"
#include "ns3/reps-ns3-compat.h"
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
    }
};

/// The one instance of the suite.
static RepsHeadersTestSuite g_repsHeadersTestSuite;
