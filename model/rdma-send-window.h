/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_RDMA_SEND_WINDOW_H
#define REPS_RDMA_SEND_WINDOW_H

#include "rdma-psn.h"

#include "ns3/assert.h"
#include "ns3/nstime.h"

#include <algorithm>
#include <cstdint>
#include <deque>
#include <vector>

namespace ns3
{

/**
 * \ingroup reps
 * The send side of a RoCEv2 queue pair as a plain C++ type (no simulator inside; send times
 * are passed in): the state of every packet sent and not yet behind the cumulative point, the
 * payload bytes in flight and the queue of packets to send again.
 *
 * Packets are numbered with 64-bit sequence numbers (see rdma-psn.h); the window holds those
 * from GetUna(), the lowest unacknowledged one, up to GetHigh(), the next new one. Their
 * records live in a power-of-two ring indexed by sequence number, which grows when more packets
 * are outstanding than it holds; at most GetLimit() packets are outstanding (the receiver's
 * window).
 *
 * A packet goes FREE (appended, not sent) -> IN_FLIGHT (MarkSent) -> ACKED (MarkAcked) or
 * LOST (MarkLost, queued for retransmission) -> IN_FLIGHT again when resent. AdvanceUna()
 * moves the cumulative point over the acknowledged packets at the bottom of the window. Only
 * IN_FLIGHT packets count in GetBytesInFlight().
 */
class RdmaSendWindow
{
  public:
    /// State of one packet.
    enum class State : uint8_t
    {
        FREE = 0,      //!< Not sent yet (or behind the cumulative point).
        IN_FLIGHT = 1, //!< Sent, neither acknowledged nor declared lost.
        LOST = 2,      //!< Declared lost, waiting to be sent again.
        ACKED = 3,     //!< Acknowledged.
    };

    /// Record of one packet.
    struct Slot
    {
        Time sendTime;            //!< When it was last sent.
        uint32_t bytes{0};        //!< Payload bytes.
        uint16_t ev{0};           //!< Entropy value it was last sent with.
        uint8_t opCode{0};        //!< BTH opcode.
        State state{State::FREE}; //!< State.
    };

    /// Outcome of Expire().
    struct Expiry
    {
        uint32_t lost{0};       //!< Packets declared lost.
        Time next{Time::Max()}; //!< When the oldest packet still in flight expires (Max: none).
    };

    /// Ring size of a new window, packets.
    static constexpr uint64_t INITIAL_CAPACITY = 64;

    /// An empty window starting at sequence number 0, with no limit.
    RdmaSendWindow();

    /**
     * Empty the window: the next packet appended gets sequence number first.
     * \param first sequence number of the first packet (the initial PSN)
     * \param limit most packets outstanding at once (>= 1)
     */
    void Reset(uint64_t first, uint64_t limit);

    /**
     * \param psn a PSN echoed by an ACK or NACK
     * \return the sequence number with that PSN nearest to GetUna()
     */
    uint64_t Unwrap(uint32_t psn) const
    {
        return RdmaUnwrapPsn(psn, m_una);
    }

    /// \return the lowest unacknowledged sequence number (the cumulative point)
    uint64_t GetUna() const
    {
        return m_una;
    }

    /// \return the sequence number the next appended packet gets
    uint64_t GetHigh() const
    {
        return m_high;
    }

    /// \return the packets from GetUna() to GetHigh() (acknowledged ones above GetUna() included)
    uint64_t GetOutstanding() const
    {
        return m_high - m_una;
    }

    /// \return the most packets outstanding at once
    uint64_t GetLimit() const
    {
        return m_limit;
    }

    /// \return whether GetLimit() packets are outstanding, so that none may be appended
    bool IsFull() const
    {
        return m_high - m_una >= m_limit;
    }

    /// \return the payload bytes of the packets in flight (sent, neither acknowledged nor lost)
    uint64_t GetBytesInFlight() const
    {
        return m_inflight;
    }

    /// \return the number of packets the ring holds (a power of two)
    uint64_t GetCapacity() const
    {
        return m_ring.size();
    }

    /**
     * \param seq a sequence number
     * \return whether seq is outstanding: GetUna() <= seq < GetHigh()
     */
    bool Contains(uint64_t seq) const
    {
        return seq >= m_una && seq < m_high;
    }

    /**
     * \param seq an outstanding sequence number
     * \return its record
     */
    Slot& At(uint64_t seq)
    {
        return m_ring[seq & m_mask];
    }

    /**
     * \param seq an outstanding sequence number
     * \return its record
     */
    const Slot& At(uint64_t seq) const
    {
        return m_ring[seq & m_mask];
    }

    /**
     * \param seq a sequence number
     * \return whether seq is outstanding and in flight
     */
    bool IsInFlight(uint64_t seq) const
    {
        return Contains(seq) && At(seq).state == State::IN_FLIGHT;
    }

    /**
     * Append a new packet (FREE until MarkSent()), growing the ring if it is full.
     * \param bytes its payload bytes
     * \param opCode its BTH opcode
     * \return its sequence number (the former GetHigh())
     */
    uint64_t Append(uint32_t bytes, uint8_t opCode);

    /**
     * A packet leaves, for the first time or again: it is in flight from now.
     * \param seq an outstanding sequence number, FREE or LOST
     * \param ev the entropy value it is sent with
     * \param now the time it is sent
     */
    void MarkSent(uint64_t seq, uint16_t ev, Time now)
    {
        Slot& slot = At(seq);
        NS_ASSERT(Contains(seq) && slot.state != State::IN_FLIGHT && slot.state != State::ACKED);
        if (slot.state == State::LOST)
        {
            m_lostBytes -= slot.bytes;
            --m_lostPackets;
        }
        slot.ev = ev;
        slot.sendTime = now;
        slot.state = State::IN_FLIGHT;
        m_inflight += slot.bytes;
    }

    /**
     * Acknowledge one packet. Ignored (returns 0) when seq is not outstanding, not sent yet or
     * already acknowledged; a LOST packet becomes acknowledged too, and its queued
     * retransmission is skipped.
     * \param seq a sequence number
     * \return the payload bytes newly acknowledged
     */
    uint32_t MarkAcked(uint64_t seq)
    {
        if (!Contains(seq))
        {
            return 0;
        }
        Slot& slot = At(seq);
        if (slot.state == State::ACKED || slot.state == State::FREE)
        {
            return 0;
        }
        if (slot.state == State::IN_FLIGHT)
        {
            m_inflight -= slot.bytes;
        }
        else if (slot.state == State::LOST)
        {
            m_lostBytes -= slot.bytes;
            --m_lostPackets;
        }
        slot.state = State::ACKED;
        return slot.bytes;
    }

    /**
     * Acknowledge every packet below a cumulative point.
     * \param cum the receiver's next expected sequence number (at most GetHigh())
     * \return the payload bytes newly acknowledged
     */
    uint32_t AckBelow(uint64_t cum);

    /**
     * Acknowledge the packets a SACK bitmap shows: bit i stands for sequence number cum + 1 + i
     * (cum itself is missing, or it would be below the cumulative point).
     * \param cum the receiver's next expected sequence number
     * \param bitmap the SACK bitmap
     * \return the payload bytes newly acknowledged
     */
    uint32_t AckSack(uint64_t cum, uint64_t bitmap);

    /**
     * Declare an in-flight packet lost and queue it for retransmission, at the back of the
     * retransmission queue.
     * \param seq a sequence number whose slot is IN_FLIGHT
     */
    void MarkLost(uint64_t seq)
    {
        Slot& slot = At(seq);
        NS_ASSERT(slot.state == State::IN_FLIGHT);
        slot.state = State::LOST;
        m_inflight -= slot.bytes;
        m_lostBytes += slot.bytes;
        ++m_lostPackets;
        m_retx.push_back(seq);
    }

    /**
     * The retransmission timer fired: declare lost every packet in flight that was sent at
     * least rto before now, in sequence order (with goBackN, also every packet in flight after
     * the first one declared lost), then put the retransmission queue in order.
     * \param now the current time
     * \param rto the retransmission timeout
     * \param goBackN whether everything after a lost packet goes again too
     * \param onLost called as onLost(seq, slot) for each packet just before it is declared lost
     * \return how many were declared lost and when the next one would expire
     */
    template <typename F>
    Expiry Expire(Time now, Time rto, bool goBackN, F&& onLost);

    /**
     * A go-back-N NACK: declare lost every packet in flight from `from` to GetHigh(), then put
     * the retransmission queue in order.
     * \param from the receiver's next expected sequence number
     * \param onFirst called as onFirst(slot) for the first packet in flight, just before it is
     *                declared lost (not called when none is in flight)
     * \return how many were declared lost
     */
    template <typename F>
    uint32_t GoBack(uint64_t from, F&& onFirst);

    /**
     * Move the cumulative point over the acknowledged packets at the bottom of the window,
     * freeing their records.
     * \return how many packets it moved over
     */
    uint64_t AdvanceUna();

    /**
     * \return whether the retransmission queue is not empty (its entries may have been
     *         acknowledged since they were queued: PopRetransmission() skips those)
     */
    bool HasRetransmissions() const
    {
        return !m_retx.empty();
    }

    /// \return the payload bytes of the packets declared lost and not yet sent again
    uint64_t GetLostBytes() const
    {
        return m_lostBytes;
    }

    /// \return the packets declared lost and not yet sent again (nor acknowledged since)
    uint64_t GetLostPackets() const
    {
        return m_lostPackets;
    }

    /// \return the retransmission queue, front first
    const std::deque<uint64_t>& GetRetransmissions() const
    {
        return m_retx;
    }

    /**
     * Take the next packet to send again from the front of the retransmission queue, dropping
     * the entries that no longer need it (acknowledged since, or behind the cumulative point).
     * \param [out] seq its sequence number
     * \return whether there was one
     */
    bool PopRetransmission(uint64_t& seq);

    /// Sort the retransmission queue by sequence number and drop duplicate entries.
    void OrderRetransmissions();

  private:
    /// Make the ring hold at least n packets.
    void Grow(uint64_t n);

    std::vector<Slot> m_ring;    //!< Per-packet records, indexed by seq & m_mask.
    uint64_t m_mask;             //!< m_ring.size() - 1.
    uint64_t m_una;              //!< Lowest unacknowledged sequence number.
    uint64_t m_high;             //!< Next new sequence number.
    uint64_t m_limit;            //!< Most packets outstanding at once.
    uint64_t m_inflight;         //!< Payload bytes in flight.
    uint64_t m_lostBytes;        //!< Payload bytes declared lost, not yet sent again.
    uint64_t m_lostPackets;      //!< Packets declared lost, not yet sent again.
    std::deque<uint64_t> m_retx; //!< Sequence numbers to send again, front first.
};

template <typename F>
RdmaSendWindow::Expiry
RdmaSendWindow::Expire(Time now, Time rto, bool goBackN, F&& onLost)
{
    Expiry out;
    for (uint64_t s = m_una; s < m_high; ++s)
    {
        Slot& slot = At(s);
        if (slot.state != State::IN_FLIGHT)
        {
            continue;
        }
        if (slot.sendTime + rto <= now || (goBackN && out.lost > 0))
        {
            ++out.lost;
            onLost(s, static_cast<const Slot&>(slot));
            MarkLost(s);
        }
        else
        {
            out.next = std::min(out.next, slot.sendTime + rto);
        }
    }
    if (out.lost > 0)
    {
        OrderRetransmissions();
    }
    return out;
}

template <typename F>
uint32_t
RdmaSendWindow::GoBack(uint64_t from, F&& onFirst)
{
    uint32_t lost = 0;
    // An ACK that overtook the NACK on another path may have moved the cumulative point past
    // the NACK's: below it the ring's slots already hold newer packets.
    for (uint64_t s = std::max(from, m_una); s < m_high; ++s)
    {
        if (At(s).state == State::IN_FLIGHT)
        {
            if (lost == 0)
            {
                onFirst(static_cast<const Slot&>(At(s)));
            }
            ++lost;
            MarkLost(s);
        }
    }
    OrderRetransmissions();
    return lost;
}

} // namespace ns3

#endif /* REPS_RDMA_SEND_WINDOW_H */
