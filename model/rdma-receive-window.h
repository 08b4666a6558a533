/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_RDMA_RECEIVE_WINDOW_H
#define REPS_RDMA_RECEIVE_WINDOW_H

#include "rdma-psn.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup reps
 * The receive side of a RoCEv2 queue pair as a plain C++ type (no simulator inside): which
 * packets above the cumulative point have arrived, the cumulative point itself, the SACK view
 * an ACK carries and the acceptance rules of selective repeat and go-back-N.
 *
 * GetNext() is the next expected sequence number (see rdma-psn.h): every packet below it has
 * arrived and been delivered. A packet from GetNext() up to GetNext() + GetLimit() - 1 can be
 * placed out of order (selective repeat); in go-back-N mode only GetNext() itself is accepted
 * and the first packet after a gap asks for one sequence-error NACK. Arrived packets are held in
 * a ring bitmap with one record (payload bytes, opcode) each; the ring is allocated at the
 * first placement (128 packets) and doubles as far as the packets placed need, up to the limit.
 *
 * A receiver calls Admit() for every untrimmed data packet, Place() for the accepted ones and
 * then Advance(), which moves the cumulative point over the in-order packets and hands each to
 * the caller for reassembly.
 */
class RdmaReceiveWindow
{
  public:
    /// Record of a packet placed above the cumulative point.
    struct Slot
    {
        uint32_t bytes{0}; //!< Payload bytes.
        uint8_t opCode{0}; //!< BTH opcode.
    };

    /// What to do with an arriving data packet (Admit()).
    enum class Verdict : uint8_t
    {
        ACCEPT = 0,            //!< New and acceptable: Place() it.
        DUPLICATE = 1,         //!< Below the cumulative point or already placed.
        BEYOND_WINDOW = 2,     //!< GetLimit() or more above the cumulative point: drop it.
        OUT_OF_ORDER_NACK = 3, //!< Go-back-N, first packet after a gap: drop it, send a NACK.
        OUT_OF_ORDER = 4,      //!< Go-back-N, the gap was already NACKed: drop it silently.
    };

    /// Ring size at the first placement, packets.
    static constexpr uint64_t MIN_CAPACITY = 128;

    /// An empty window expecting sequence number 0, selective repeat, with no limit.
    RdmaReceiveWindow();

    /**
     * Empty the window and release the ring.
     * \param first the first sequence number expected (the initial PSN)
     * \param limit packets above the cumulative point that can be placed (>= 1)
     * \param goBackN whether only the next expected packet is accepted
     */
    void Reset(uint64_t first, uint64_t limit, bool goBackN);

    /**
     * \param psn the PSN of an arriving data packet
     * \return the sequence number with that PSN nearest to GetNext()
     */
    uint64_t Unwrap(uint32_t psn) const
    {
        return RdmaUnwrapPsn(psn, m_next);
    }

    /// \return the next expected sequence number (the cumulative point)
    uint64_t GetNext() const
    {
        return m_next;
    }

    /// \return packets above the cumulative point that can be placed
    uint64_t GetLimit() const
    {
        return m_limit;
    }

    /// \return whether the window is in go-back-N mode
    bool IsGoBackN() const
    {
        return m_goBackN;
    }

    /// \return the number of packets the ring holds (0 before the first placement)
    uint64_t GetCapacity() const
    {
        return m_ring.size();
    }

    /**
     * \param seq a sequence number
     * \return whether seq has been placed and not yet delivered
     */
    bool Has(uint64_t seq) const
    {
        return seq >= m_next && seq < m_next + m_ring.size() && Bit(seq);
    }

    /**
     * \param seq a sequence number
     * \return whether a packet seq would be a duplicate: below the cumulative point or placed
     */
    bool IsDuplicate(uint64_t seq) const
    {
        return seq < m_next || (seq < m_next + m_ring.size() && Bit(seq));
    }

    /**
     * Decide what to do with an arriving (untrimmed) data packet. In go-back-N mode this
     * records that the gap it reveals is NACKed, so that the gap gets one NACK only.
     * \param seq its sequence number
     * \return the verdict
     */
    Verdict Admit(uint64_t seq)
    {
        if (IsDuplicate(seq))
        {
            return Verdict::DUPLICATE;
        }
        if (seq >= m_next + m_limit)
        {
            return Verdict::BEYOND_WINDOW;
        }
        if (m_goBackN && seq != m_next)
        {
            if (m_gapNacked)
            {
                return Verdict::OUT_OF_ORDER;
            }
            m_gapNacked = true;
            return Verdict::OUT_OF_ORDER_NACK;
        }
        return Verdict::ACCEPT;
    }

    /**
     * Place an accepted packet (Admit() said ACCEPT), growing the ring if needed. The
     * cumulative point does not move until Advance().
     * \param seq its sequence number
     * \param bytes its payload bytes
     * \param opCode its BTH opcode
     */
    void Place(uint64_t seq, uint32_t bytes, uint8_t opCode);

    /**
     * Move the cumulative point over the packets placed at it, in order.
     * \param onDeliver called as onDeliver(seq, slot) for each packet, in sequence order,
     *                  before the cumulative point moves past it
     * \return how many packets it moved over
     */
    template <typename F>
    uint64_t Advance(F&& onDeliver);

    /**
     * The SACK view of an ACK: bit i is set when sequence number GetNext() + 1 + i has been
     * placed (GetNext() itself is missing, or the cumulative point would be past it).
     * \return the 64-bit SACK bitmap (0 before the first placement)
     */
    uint64_t GetSackBitmap() const;

  private:
    /**
     * \param seq a sequence number within the ring's span above the cumulative point
     * \return its ring bit
     */
    bool Bit(uint64_t seq) const
    {
        const uint64_t i = seq & m_mask;
        return (m_bits[i >> 6] >> (i & 63)) & 1;
    }

    /// Make the ring hold at least n packets.
    void Grow(uint64_t n);

    std::vector<uint64_t> m_bits; //!< Ring bitmap of placed packets, bit seq & m_mask.
    std::vector<Slot> m_ring;     //!< Records of placed packets, indexed by seq & m_mask.
    uint64_t m_mask;              //!< m_ring.size() - 1.
    uint64_t m_next;              //!< Next expected sequence number.
    uint64_t m_limit;             //!< Packets above m_next that can be placed.
    bool m_goBackN;               //!< Accept only m_next.
    bool m_gapNacked;             //!< Go-back-N: the current gap was NACKed.
};

template <typename F>
uint64_t
RdmaReceiveWindow::Advance(F&& onDeliver)
{
    if (m_ring.empty())
    {
        return 0;
    }
    const uint64_t before = m_next;
    while (Bit(m_next))
    {
        const uint64_t i = m_next & m_mask;
        m_bits[i >> 6] &= ~(uint64_t(1) << (i & 63));
        const Slot slot = m_ring[i];
        onDeliver(m_next, slot);
        ++m_next;
    }
    return m_next - before;
}

} // namespace ns3

#endif /* REPS_RDMA_RECEIVE_WINDOW_H */
