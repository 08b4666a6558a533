/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Unit tests of the receive window of a queue pair: sequence numbers across the 24-bit PSN
// wrap, duplicates, the window limit, the SACK bitmap at the edges of the ring's words,
// in-order delivery, ring growth and go-back-N acceptance.

#include "ns3/rdma-receive-window.h"

#include <cstdint>
#include <gtest/gtest.h>
#include <vector>

using ns3::RdmaReceiveWindow;

namespace
{

using Verdict = RdmaReceiveWindow::Verdict;
using Slot = RdmaReceiveWindow::Slot;

constexpr uint64_t kPsnSpace = uint64_t(1) << 24;
constexpr uint64_t kBit0 = 1;
constexpr uint64_t kBit63 = uint64_t(1) << 63;

/// Admit and place seq (with seq % 251 payload bytes); \return the verdict.
Verdict
Offer(RdmaReceiveWindow& w, uint64_t seq, uint8_t opCode = 0)
{
    const Verdict v = w.Admit(seq);
    if (v == Verdict::ACCEPT)
    {
        w.Place(seq, static_cast<uint32_t>(seq % 251), opCode);
    }
    return v;
}

/// Advance the window; \return the sequence numbers delivered.
std::vector<uint64_t>
Deliver(RdmaReceiveWindow& w)
{
    std::vector<uint64_t> out;
    w.Advance([&](uint64_t seq, const Slot&) { out.push_back(seq); });
    return out;
}

TEST(RdmaReceiveWindow, InOrderPacketsAcrossThePsnWrapMoveTheCumulativePoint)
{
    RdmaReceiveWindow w;
    w.Reset(kPsnSpace - 2, 4096, false);
    for (uint32_t psn : {16777214u, 16777215u, 0u, 1u})
    {
        const uint64_t seq = w.Unwrap(psn);
        EXPECT_EQ(Offer(w, seq), Verdict::ACCEPT) << psn;
        EXPECT_EQ(Deliver(w), std::vector<uint64_t>{seq});
    }
    EXPECT_EQ(w.GetNext(), kPsnSpace + 2);
    EXPECT_EQ(w.Unwrap(2), kPsnSpace + 2);
    // A late copy of PSN 16777215 is a duplicate, not a packet 2^24 ahead.
    EXPECT_EQ(w.Unwrap(16777215), kPsnSpace - 1);
    EXPECT_EQ(w.Admit(w.Unwrap(16777215)), Verdict::DUPLICATE);
}

TEST(RdmaReceiveWindow, DuplicatesAreBelowTheCumulativePointOrAlreadyPlaced)
{
    RdmaReceiveWindow w;
    w.Reset(0, 4096, false);
    EXPECT_EQ(Offer(w, 0), Verdict::ACCEPT);
    Deliver(w);
    EXPECT_EQ(Offer(w, 5), Verdict::ACCEPT);
    EXPECT_TRUE(w.Has(5));
    EXPECT_EQ(w.Admit(5), Verdict::DUPLICATE);
    EXPECT_EQ(w.Admit(0), Verdict::DUPLICATE);
    EXPECT_EQ(w.Admit(1), Verdict::ACCEPT) << "a gap is not a duplicate";
    EXPECT_EQ(w.GetNext(), 1u) << "a packet above a gap does not move the cumulative point";
}

TEST(RdmaReceiveWindow, LimitIsTheLastPacketThatCanBePlaced)
{
    RdmaReceiveWindow w;
    w.Reset(1000, 128, false);
    EXPECT_EQ(w.Admit(1000 + 128), Verdict::BEYOND_WINDOW);
    EXPECT_EQ(Offer(w, 1000 + 127), Verdict::ACCEPT);
    EXPECT_EQ(w.GetCapacity(), 128u) << "the ring never exceeds the limit";
    EXPECT_EQ(w.GetSackBitmap(), 0u) << "127 above the cumulative point: beyond the SACK view";
    // Filling the hole delivers everything, the packet at the limit included.
    for (uint64_t s = 1000; s < 1127; ++s)
    {
        Offer(w, s);
    }
    EXPECT_EQ(Deliver(w).size(), 128u);
    EXPECT_EQ(w.GetNext(), 1128u);
    EXPECT_EQ(w.Admit(1128 + 127), Verdict::ACCEPT) << "the limit moves with the point";
}

TEST(RdmaReceiveWindow, SackBitsAreTheFirstAndLastBitOfAnAlignedWord)
{
    RdmaReceiveWindow w;
    w.Reset(63, 4096, false); // the view GetNext() + 1 ... + 64 is exactly ring word 1
    Offer(w, 64);
    Offer(w, 127);
    Offer(w, 128); // bit 64: beyond the view
    EXPECT_EQ(w.GetSackBitmap(), kBit0 | kBit63);
}

TEST(RdmaReceiveWindow, SackViewStraddlingTwoWords)
{
    RdmaReceiveWindow w;
    w.Reset(100, 4096, false); // view starts at ring bit 101 = word 1, bit 37
    Offer(w, 101);             // word 1, bit 37: SACK bit 0
    Offer(w, 127);             // word 1, bit 63: SACK bit 26
    Offer(w, 128);             // word 0 (wrapped), bit 0: SACK bit 27
    Offer(w, 164);             // word 0, bit 36: SACK bit 63
    Offer(w, 165);             // SACK bit 64: beyond the view
    EXPECT_EQ(w.GetSackBitmap(), kBit0 | (kBit0 << 26) | (kBit0 << 27) | kBit63);
}

TEST(RdmaReceiveWindow, SackViewStartingAtTheVeryLastBitOfTheRing)
{
    RdmaReceiveWindow w;
    w.Reset(126, 4096, false); // view starts at ring bit 127, the last one of a 128-bit ring
    Offer(w, 127);             // SACK bit 0
    Offer(w, 190);             // ring bit 62 after the wrap: SACK bit 63
    EXPECT_EQ(w.GetCapacity(), 128u);
    EXPECT_EQ(w.GetSackBitmap(), kBit0 | kBit63);
    // A gap at the very end of the view leaves the last bit clear.
    RdmaReceiveWindow v;
    v.Reset(126, 4096, false);
    for (uint64_t s = 127; s < 190; ++s)
    {
        Offer(v, s);
    }
    EXPECT_EQ(v.GetSackBitmap(), ~kBit63);
}

TEST(RdmaReceiveWindow, SackViewEmptiesAsTheCumulativePointPassesIt)
{
    RdmaReceiveWindow w;
    w.Reset(0, 4096, false);
    EXPECT_EQ(w.GetSackBitmap(), 0u) << "nothing placed yet";
    Offer(w, 1);
    Offer(w, 2);
    Offer(w, 4);
    EXPECT_EQ(w.GetSackBitmap(), 0b1011u);
    Offer(w, 0);
    EXPECT_EQ(Deliver(w), (std::vector<uint64_t>{0, 1, 2}));
    EXPECT_EQ(w.GetSackBitmap(), 0b1u) << "3 is missing, 4 is the first bit";
}

TEST(RdmaReceiveWindow, DeliversRecordsInOrderBeforeMovingPastThem)
{
    RdmaReceiveWindow w;
    w.Reset(10, 4096, false);
    w.Place(12, 300, 2);
    w.Place(11, 200, 1);
    EXPECT_TRUE(Deliver(w).empty()) << "10 is missing";
    w.Place(10, 100, 0);
    std::vector<uint32_t> bytes;
    w.Advance([&](uint64_t seq, const Slot& slot) {
        EXPECT_EQ(w.GetNext(), seq);
        EXPECT_EQ(slot.opCode, seq - 10);
        bytes.push_back(slot.bytes);
    });
    EXPECT_EQ(bytes, (std::vector<uint32_t>{100, 200, 300}));
    EXPECT_FALSE(w.Has(12));
}

TEST(RdmaReceiveWindow, RingGrowsKeepingThePlacedPackets)
{
    RdmaReceiveWindow w;
    w.Reset(kPsnSpace - 50, 4096, false);
    EXPECT_EQ(w.GetCapacity(), 0u) << "no ring until a packet is placed";
    const uint64_t base = w.GetNext();
    w.Place(base + 3, 33, 0);
    w.Place(base + 100, 44, 0);
    EXPECT_EQ(w.GetCapacity(), 128u);
    w.Place(base + 300, 55, 0);
    EXPECT_EQ(w.GetCapacity(), 512u);
    EXPECT_TRUE(w.Has(base + 3));
    EXPECT_TRUE(w.Has(base + 100));
    EXPECT_TRUE(w.Has(base + 300));
    EXPECT_FALSE(w.Has(base + 4));
    EXPECT_EQ(w.GetSackBitmap(), kBit0 << 2);
    for (uint64_t s = base; s < base + 301; ++s)
    {
        if (!w.Has(s))
        {
            w.Place(s, 1, 0);
        }
    }
    uint64_t total = 0;
    w.Advance([&](uint64_t, const Slot& slot) { total += slot.bytes; });
    EXPECT_EQ(total, 33u + 44u + 55u + 298u);
    EXPECT_EQ(w.GetNext(), base + 301);
}

TEST(RdmaReceiveWindow, GoBackNRefusesOutOfOrderAndNacksOncePerGap)
{
    RdmaReceiveWindow w;
    w.Reset(0, 128, true);
    EXPECT_EQ(Offer(w, 0), Verdict::ACCEPT);
    Deliver(w);
    EXPECT_EQ(Offer(w, 2), Verdict::OUT_OF_ORDER_NACK) << "1 was lost: one NACK";
    EXPECT_EQ(Offer(w, 3), Verdict::OUT_OF_ORDER) << "same gap: no second NACK";
    EXPECT_FALSE(w.Has(2)) << "out-of-order packets are not kept";
    EXPECT_EQ(w.Admit(0), Verdict::DUPLICATE);
    EXPECT_EQ(w.Admit(200), Verdict::BEYOND_WINDOW);
    EXPECT_EQ(Offer(w, 1), Verdict::ACCEPT);
    EXPECT_EQ(Deliver(w), std::vector<uint64_t>{1});
    // The sender went back, but 2 was lost again: a new gap, a new NACK.
    EXPECT_EQ(Offer(w, 3), Verdict::OUT_OF_ORDER_NACK);
    EXPECT_EQ(w.GetSackBitmap(), 0u);
}

TEST(RdmaReceiveWindow, ResetStartsAgainAtTheInitialPsn)
{
    RdmaReceiveWindow w;
    w.Reset(0, 128, true);
    Offer(w, 5);
    w.Reset(7, 256, false);
    EXPECT_EQ(w.GetNext(), 7u);
    EXPECT_EQ(w.GetLimit(), 256u);
    EXPECT_FALSE(w.IsGoBackN());
    EXPECT_EQ(w.GetCapacity(), 0u);
    EXPECT_EQ(Offer(w, 9), Verdict::ACCEPT) << "selective repeat places out of order";
}

} // namespace
