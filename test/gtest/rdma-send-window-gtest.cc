/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Unit tests of the send window of a queue pair: sequence numbers across the 24-bit PSN wrap,
// acknowledgements (single, cumulative, SACK), losses, the retransmission queue, the timer's
// loss rule, go-back-N and ring growth.

#include "ns3/rdma-send-window.h"

#include <cstdint>
#include <gtest/gtest.h>
#include <vector>

using ns3::NanoSeconds;
using ns3::RdmaPsnOf;
using ns3::RdmaSendWindow;
using ns3::RdmaUnwrapPsn;
using ns3::Time;

namespace
{

using State = RdmaSendWindow::State;
using Slot = RdmaSendWindow::Slot;

constexpr uint64_t kPsnSpace = uint64_t(1) << 24;

/// Append and send n packets of `bytes` each, the k-th at time k ns; \return the first seq.
uint64_t
SendPackets(RdmaSendWindow& w, uint32_t n, uint32_t bytes = 1000)
{
    const uint64_t first = w.GetHigh();
    for (uint32_t k = 0; k < n; ++k)
    {
        const uint64_t seq = w.Append(bytes, 0);
        w.MarkSent(seq, static_cast<uint16_t>(seq), NanoSeconds(static_cast<int64_t>(seq - first)));
    }
    return first;
}

/// The retransmission queue as a vector.
std::vector<uint64_t>
Retx(const RdmaSendWindow& w)
{
    return {w.GetRetransmissions().begin(), w.GetRetransmissions().end()};
}

TEST(RdmaSendWindow, UnwrapsPsnsNearTheCumulativePointAcrossTheWrap)
{
    RdmaSendWindow w;
    const uint64_t first = kPsnSpace - 3;
    w.Reset(first, 4096);
    SendPackets(w, 6); // seqs 2^24 - 3 .. 2^24 + 2: PSNs 16777213 .. 2
    EXPECT_EQ(w.Unwrap(16777213), first);
    EXPECT_EQ(w.Unwrap(0), kPsnSpace);
    EXPECT_EQ(w.Unwrap(2), kPsnSpace + 2);
    EXPECT_EQ(RdmaPsnOf(kPsnSpace + 2), 2u);
    // A PSN just behind the cumulative point is an old packet, not one 2^24 ahead.
    EXPECT_EQ(w.Unwrap(16777212), first - 1);
}

TEST(RdmaSendWindow, UnwrapTakesHalfTheSpaceAheadAndClampsBeforeTheStart)
{
    const uint64_t ref = 5 * kPsnSpace + 100;
    EXPECT_EQ(RdmaUnwrapPsn(100 + (1u << 23) - 1, ref), ref + (1u << 23) - 1);
    EXPECT_EQ(RdmaUnwrapPsn(100 + (1u << 23), ref), ref - (1u << 23));
    // Behind sequence number 0 there is nothing: such a PSN maps to 0.
    EXPECT_EQ(RdmaUnwrapPsn(static_cast<uint32_t>(kPsnSpace - 5), 3), 0u);
}

TEST(RdmaSendWindow, CumulativeAckAcrossThePsnWrapCompletesEveryPacket)
{
    RdmaSendWindow w;
    w.Reset(kPsnSpace - 2, 4096);
    SendPackets(w, 5, 100);
    EXPECT_EQ(w.GetBytesInFlight(), 500u);
    // The receiver expects PSN 3 next: everything up to 2^24 + 2 arrived.
    const uint64_t cum = w.Unwrap(3);
    EXPECT_EQ(cum, kPsnSpace + 3);
    EXPECT_EQ(w.AckBelow(cum), 500u);
    EXPECT_EQ(w.AdvanceUna(), 5u);
    EXPECT_EQ(w.GetUna(), kPsnSpace + 3);
    EXPECT_EQ(w.GetOutstanding(), 0u);
    EXPECT_EQ(w.GetBytesInFlight(), 0u);
}

TEST(RdmaSendWindow, AckCountsBytesOnceAndIgnoresWhatIsNotOutstanding)
{
    RdmaSendWindow w;
    w.Reset(10, 4096);
    SendPackets(w, 3, 700);
    EXPECT_EQ(w.MarkAcked(11), 700u);
    EXPECT_EQ(w.MarkAcked(11), 0u) << "a duplicate ACK acknowledges nothing new";
    EXPECT_EQ(w.MarkAcked(9), 0u) << "below the window";
    EXPECT_EQ(w.MarkAcked(13), 0u) << "not sent yet";
    EXPECT_EQ(w.GetBytesInFlight(), 1400u);
    // The cumulative point cannot pass the hole at 10.
    EXPECT_EQ(w.AdvanceUna(), 0u);
    EXPECT_EQ(w.MarkAcked(10), 700u);
    EXPECT_EQ(w.AdvanceUna(), 2u);
    EXPECT_EQ(w.GetUna(), 12u);
}

TEST(RdmaSendWindow, SackBitZeroIsTheOneAfterTheCumulativePointAndBit63TheLast)
{
    RdmaSendWindow w;
    w.Reset(0, 4096);
    SendPackets(w, 100, 10);
    const uint64_t bitmap = (uint64_t(1) << 0) | (uint64_t(1) << 63);
    EXPECT_EQ(w.AckSack(20, bitmap), 20u);
    EXPECT_EQ(w.At(21).state, State::ACKED);
    EXPECT_EQ(w.At(84).state, State::ACKED);
    EXPECT_EQ(w.At(20).state, State::IN_FLIGHT) << "the cumulative point itself is missing";
    EXPECT_EQ(w.At(22).state, State::IN_FLIGHT);
    EXPECT_EQ(w.At(85).state, State::IN_FLIGHT);
}

TEST(RdmaSendWindow, LostPacketsWaitForRetransmissionAndLeaveTheBytesInFlight)
{
    RdmaSendWindow w;
    w.Reset(0, 4096);
    SendPackets(w, 4, 500);
    w.MarkLost(2);
    w.MarkLost(1);
    EXPECT_EQ(w.GetBytesInFlight(), 1000u);
    EXPECT_EQ(Retx(w), (std::vector<uint64_t>{2, 1})) << "queued in the order declared";
    uint64_t seq = 0;
    ASSERT_TRUE(w.PopRetransmission(seq));
    EXPECT_EQ(seq, 2u);
    w.MarkSent(seq, 7, NanoSeconds(50));
    EXPECT_EQ(w.GetBytesInFlight(), 1500u);
    EXPECT_EQ(w.At(2).ev, 7);
    EXPECT_EQ(w.At(2).sendTime, NanoSeconds(50));
}

TEST(RdmaSendWindow, RetransmissionQueueSkipsWhatWasAckedMeanwhile)
{
    RdmaSendWindow w;
    w.Reset(0, 4096);
    SendPackets(w, 4, 500);
    w.MarkLost(0);
    w.MarkLost(3);
    // A late ACK of a packet declared lost: it must not be sent again.
    EXPECT_EQ(w.MarkAcked(0), 500u);
    EXPECT_EQ(w.GetBytesInFlight(), 1000u) << "a lost packet was not counted in flight";
    w.AdvanceUna();
    EXPECT_TRUE(w.HasRetransmissions());
    uint64_t seq = 0;
    ASSERT_TRUE(w.PopRetransmission(seq));
    EXPECT_EQ(seq, 3u);
    EXPECT_FALSE(w.PopRetransmission(seq));
    EXPECT_FALSE(w.HasRetransmissions());
}

TEST(RdmaSendWindow, OrderingTheRetransmissionQueueSortsAndDropsDuplicates)
{
    RdmaSendWindow w;
    w.Reset(0, 4096);
    SendPackets(w, 6, 100);
    w.MarkLost(4);
    w.MarkLost(1);
    w.MarkSent(1, 0, NanoSeconds(9)); // resent before its entry was popped
    w.MarkLost(1);
    w.MarkLost(3);
    EXPECT_EQ(Retx(w), (std::vector<uint64_t>{4, 1, 1, 3}));
    w.OrderRetransmissions();
    EXPECT_EQ(Retx(w), (std::vector<uint64_t>{1, 3, 4}));
}

TEST(RdmaSendWindow, TimerDeclaresLostExactlyThePacketsSentRtoAgo)
{
    RdmaSendWindow w;
    w.Reset(0, 4096);
    SendPackets(w, 5, 100); // sent at 0, 1, 2, 3, 4 ns
    w.MarkAcked(1);
    std::vector<uint64_t> lost;
    const auto expiry =
        w.Expire(NanoSeconds(12), NanoSeconds(10), false, [&](uint64_t seq, const Slot& slot) {
            EXPECT_EQ(slot.state, State::IN_FLIGHT) << "reported before it is declared lost";
            lost.push_back(seq);
        });
    EXPECT_EQ(lost, (std::vector<uint64_t>{0, 2})) << "sent at or before now - rto";
    EXPECT_EQ(expiry.lost, 2u);
    EXPECT_EQ(expiry.next, NanoSeconds(13)) << "packet 3 expires next";
    EXPECT_EQ(Retx(w), (std::vector<uint64_t>{0, 2}));
    EXPECT_EQ(w.GetBytesInFlight(), 200u);
    const auto none =
        w.Expire(NanoSeconds(100), NanoSeconds(10), false, [](uint64_t, const Slot&) {});
    EXPECT_EQ(none.lost, 2u);
    EXPECT_EQ(none.next, Time::Max()) << "nothing left in flight";
}

TEST(RdmaSendWindow, GoBackNTimeoutResendsEverythingAfterTheFirstLoss)
{
    RdmaSendWindow w;
    w.Reset(0, 4096);
    SendPackets(w, 5, 100);
    std::vector<uint64_t> lost;
    const auto expiry =
        w.Expire(NanoSeconds(11), NanoSeconds(10), true, [&](uint64_t seq, const Slot&) {
            lost.push_back(seq);
        });
    EXPECT_EQ(lost, (std::vector<uint64_t>{0, 1, 2, 3, 4}));
    EXPECT_EQ(expiry.next, Time::Max());
}

TEST(RdmaSendWindow, GoBackNackResendsInFlightPacketsFromTheCumulativePoint)
{
    RdmaSendWindow w;
    w.Reset(0, 4096);
    SendPackets(w, 6, 100);
    w.MarkAcked(4);
    w.MarkLost(5); // trimmed earlier, already queued
    int firsts = 0;
    uint16_t firstEv = 0;
    const uint32_t lost = w.GoBack(2, [&](const Slot& slot) {
        ++firsts;
        firstEv = slot.ev;
    });
    EXPECT_EQ(lost, 2u) << "2 and 3; 4 is acknowledged, 5 already lost";
    EXPECT_EQ(firsts, 1);
    EXPECT_EQ(firstEv, 2) << "the first packet in flight from the cumulative point";
    EXPECT_EQ(Retx(w), (std::vector<uint64_t>{2, 3, 5}));
    EXPECT_EQ(w.At(0).state, State::IN_FLIGHT) << "below the NACK's cumulative point";
}

TEST(RdmaSendWindow, GoBackNackOlderThanTheCumulativePointTouchesNoNewerPacket)
{
    RdmaSendWindow w;
    w.Reset(0, 4096);
    const uint32_t capacity = w.GetCapacity();
    SendPackets(w, capacity, 100);
    w.MarkAcked(0);
    w.MarkAcked(1);
    w.AdvanceUna();
    SendPackets(w, 2, 100); // the ring is exactly full: seqs 2 .. capacity + 1
    ASSERT_EQ(w.GetCapacity(), capacity);
    uint64_t firstEv = 0;
    const uint32_t lost = w.GoBack(0, [&](const Slot& slot) { firstEv = slot.ev; });
    EXPECT_EQ(lost, capacity) << "every packet in flight, each once";
    EXPECT_EQ(firstEv, 2u) << "the first packet from the cumulative point, not the newest";
    std::vector<uint64_t> expected;
    for (uint64_t s = 2; s < capacity + 2; ++s)
    {
        expected.push_back(s);
    }
    EXPECT_EQ(Retx(w), expected) << "every lost packet is queued for retransmission";
}

TEST(RdmaSendWindow, RingGrowsKeepingEveryOutstandingRecord)
{
    RdmaSendWindow w;
    w.Reset(kPsnSpace - 30, 4096); // across the PSN wrap and around the ring
    EXPECT_EQ(w.GetCapacity(), RdmaSendWindow::INITIAL_CAPACITY);
    const uint64_t first = SendPackets(w, 40, 1);
    w.MarkAcked(first);
    w.MarkAcked(first + 1);
    w.AdvanceUna();
    w.MarkLost(first + 5);
    SendPackets(w, 100, 1);
    EXPECT_EQ(w.GetOutstanding(), 138u);
    EXPECT_EQ(w.GetCapacity(), 256u) << "the smallest power of two that holds them";
    for (uint64_t s = first + 2; s < first + 40; ++s)
    {
        EXPECT_EQ(w.At(s).sendTime, NanoSeconds(static_cast<int64_t>(s - first))) << s;
        EXPECT_EQ(w.At(s).ev, static_cast<uint16_t>(s)) << s;
        EXPECT_EQ(w.At(s).state, s == first + 5 ? State::LOST : State::IN_FLIGHT) << s;
    }
    EXPECT_EQ(w.At(first + 40).state, State::IN_FLIGHT);
}

TEST(RdmaSendWindow, LimitCapsTheOutstandingPackets)
{
    RdmaSendWindow w;
    w.Reset(0, 3);
    SendPackets(w, 3, 1);
    EXPECT_TRUE(w.IsFull());
    w.MarkAcked(1);
    w.AdvanceUna();
    EXPECT_TRUE(w.IsFull()) << "acknowledged above a hole still counts";
    w.MarkAcked(0);
    w.AdvanceUna();
    EXPECT_FALSE(w.IsFull());
    EXPECT_EQ(w.GetOutstanding(), 1u);
}

} // namespace
