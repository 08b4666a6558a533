/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_REPS_CORE_H
#define REPS_REPS_CORE_H

#include <cstdint>

/**
 * \file
 * \ingroup reps
 * The REPS algorithm of one connection as a plain C++ type: no simulator, no allocation, no
 * hidden randomness. Times are plain integers (nanoseconds) and random EVs come from a callable
 * the caller passes in, so that a scripted sequence of feedback always gives the same choices.
 */

namespace ns3
{

/**
 * \ingroup reps
 * Which packets of an exploration window get a random EV.
 */
enum class RepsExploration : uint8_t
{
    ALL_RANDOM = 0,   //!< Every packet of the window (the paper's description).
    EVERY_EIGHTH = 1, //!< Only every 8th packet; the others reuse cached EVs (authors' sources).
};

/**
 * \ingroup reps
 * Recycled Entropy Packet Spraying for one connection: the circular buffer of EVs whose ACKs
 * came back unmarked, the exploration counter and freezing mode (see the manual, chapter
 * "Path selectors", section "REPS", "Algorithm").
 *
 * \tparam N number of buffer slots (1 to 32; 8 in the paper).
 *
 * The state is held as a hardware NIC would hold it, bit-packed in bytes, so that sizeof()
 * is the per-connection cost. For the default N = 8 the bytes add up as follows:
 *
 * | field                                                      | bits | bytes |
 * |------------------------------------------------------------|------|-------|
 * | 8 EVs of 16 bits                                           | 128  | 16    |
 * | 8 valid bits                                               | 8    | 1     |
 * | head (3), valid count (4), frozen round-robin index (3),   |      |       |
 * | frozen flag (1), "buffer has wrapped" flag (1)             | 12   | 2     |
 * | exploration counter (packets, saturates at 65535)          | 16   | 2     |
 * | freeze end time (low 32 bits of nanoseconds)               | 32   | 4     |
 * | total                                                      | 196  | 25    |
 *
 * The paper's "about 25 bytes" are the same items: 8 x 17 bits of buffer (17 bytes), a few
 * bits of indices and flags, a counter and a time. The round-robin index of frozen mode and the
 * "wrapped" flag (which slots were ever filled since the buffer was last cleared) are what
 * frozen mode needs on top of the paper's list.
 *
 * The freeze end is kept modulo 2^32 ns and compared with serial-number arithmetic: exact as
 * long as the freeze lasts less than 2^31 ns (about 2.1 s) and the time passed to OnAck() is
 * within 2^31 ns of the freeze end. Callers that may stay silent longer than that (an idle
 * connection) pass min(now, freeze end) once they know the freeze is over; RepsPathSelector
 * does so.
 */
template <uint32_t N = 8>
class RepsCore
{
    static_assert(N >= 1 && N <= 32, "RepsCore: the buffer holds 1 to 32 EVs");

  public:
    /// Why an EV was chosen.
    enum class Source : uint8_t
    {
        EXPLORE = 0,  //!< A random EV drawn while exploring.
        FROZEN = 1,   //!< A cached EV reused round-robin while frozen.
        RECYCLED = 2, //!< The oldest valid cached EV.
        RANDOM = 3,   //!< A random EV: nothing is cached.
    };

    /// The EV of a packet and why it was chosen.
    struct Pick
    {
        uint16_t ev;   //!< The EV.
        Source source; //!< Why.
    };

    /// What an ACK did to the state.
    struct AckOutcome
    {
        bool freezeEnded{false}; //!< Freezing was left (buffer cleared, exploration started).
        bool cached{false};      //!< The EV was written into the buffer.
        bool discarded{false};   //!< The ACK was ECN-marked: the EV was forgotten.
    };

    /// An empty buffer, not frozen, not exploring.
    RepsCore()
    {
        Reset();
    }

    /// Back to the state of a new connection.
    void Reset()
    {
        for (auto& b : m_ev)
        {
            b = 0;
        }
        for (auto& b : m_valid)
        {
            b = 0;
        }
        for (auto& b : m_ctrl)
        {
            b = 0;
        }
        m_explore[0] = m_explore[1] = 0;
        for (auto& b : m_freezeEnd)
        {
            b = 0;
        }
    }

    /// \return the number of slots.
    static constexpr uint32_t GetCapacity()
    {
        return N;
    }

    /**
     * An ACK came back.
     * \param ev the EV it echoes.
     * \param ecn the CE bit it echoes.
     * \param nowNs the current time [ns].
     * \param explorePackets length of the exploration window started if freezing ends here
     *        (one BDP in packets; saturates at 65535).
     * \return what the ACK did.
     */
    AckOutcome OnAck(uint16_t ev, bool ecn, int64_t nowNs, uint32_t explorePackets)
    {
        AckOutcome out;
        out.freezeEnded = ExpireFreeze(nowNs, explorePackets);
        if (ecn)
        {
            out.discarded = true;
            return out;
        }
        uint32_t head = GetHead();
        SetSlot(head, ev);
        if (!IsValid(head))
        {
            SetValid(head, true);
            SetField(CountOffset(), kCountBits, GetValidCount() + 1);
        }
        ++head;
        if (head == N)
        {
            head = 0;
            SetField(WrappedOffset(), 1, 1);
        }
        SetField(HeadOffset(), kIndexBits, head);
        out.cached = true;
        return out;
    }

    /**
     * A NACK came back (the packet sent with \p ev was trimmed). REPS never caches the EV of a
     * trimmed packet; like any feedback, the NACK ends a freeze that has lasted long enough.
     * \param ev the EV of the trimmed packet.
     * \param nowNs the current time [ns].
     * \param explorePackets length of the exploration window started if freezing ends here.
     * \return whether freezing ended.
     */
    bool OnNack(uint16_t ev, int64_t nowNs, uint32_t explorePackets)
    {
        return ExpireFreeze(nowNs, explorePackets);
    }

    /**
     * Leave freezing if it has lasted long enough: clear the buffer and start an exploration
     * window. The exit is checked lazily, on feedback: OnAck() and OnNack() call this, and the
     * caller calls it on a retransmission timeout, so that a connection whose cached EVs all
     * lead to dead paths (no ACK ever returns) still leaves freezing.
     * \param nowNs the current time [ns].
     * \param explorePackets length of the exploration window (saturates at 65535).
     * \return whether freezing ended.
     */
    bool ExpireFreeze(int64_t nowNs, uint32_t explorePackets)
    {
        if (!IsFrozen() ||
            static_cast<int32_t>(static_cast<uint32_t>(nowNs) - GetFreezeEndTick()) < 0)
        {
            return false;
        }
        ClearBuffer();
        SetField(FrozenOffset(), 1, 0);
        SetExplorationCounter(explorePackets > 0xffff ? 0xffff : explorePackets);
        return true;
    }

    /**
     * Choose the EV of the next packet (new data or retransmission).
     * \param randomEv callable returning a uniformly random EV; called only when one is needed.
     * \param variant which packets of an exploration window are random.
     * \return the EV and why it was chosen.
     */
    template <typename RandomEv>
    Pick Next(RandomEv&& randomEv, RepsExploration variant = RepsExploration::ALL_RANDOM)
    {
        uint32_t explore = GetExplorationCounter();
        if (explore > 0)
        {
            --explore;
            SetExplorationCounter(explore);
            // The every-8th variant draws when the remaining count is a multiple of 8, so the
            // last packet of every window is random even when the window is shorter than 8.
            if (variant == RepsExploration::ALL_RANDOM || explore % 8 == 0)
            {
                return Pick{static_cast<uint16_t>(randomEv()), Source::EXPLORE};
            }
        }
        if (IsFrozen())
        {
            uint32_t filled = GetFilledCount();
            if (filled == 0)
            {
                return Pick{static_cast<uint16_t>(randomEv()), Source::RANDOM};
            }
            uint32_t slot = GetField(RoundRobinOffset(), kIndexBits);
            if (slot >= filled)
            {
                slot = 0;
            }
            Consume(slot);
            SetField(RoundRobinOffset(), kIndexBits, (slot + 1) % N);
            return Pick{GetSlot(slot), Source::FROZEN};
        }
        if (GetValidCount() > 0)
        {
            uint32_t head = GetHead();
            for (uint32_t i = 0; i < N; ++i)
            {
                uint32_t slot = (head + i) % N;
                if (IsValid(slot))
                {
                    Consume(slot);
                    return Pick{GetSlot(slot), Source::RECYCLED};
                }
            }
        }
        return Pick{static_cast<uint16_t>(randomEv()), Source::RANDOM};
    }

    /// \return whether Freeze() would enter freezing now (not frozen, not exploring).
    bool CanFreeze() const
    {
        return !IsFrozen() && GetExplorationCounter() == 0;
    }

    /**
     * The failure signal (a retransmission timeout that counts) arrived: freeze unless already
     * frozen or exploring.
     * \param nowNs the current time [ns].
     * \param durationNs how long to stay frozen [ns], 0 to 2^31 - 1.
     * \return whether freezing was entered.
     */
    bool Freeze(int64_t nowNs, int64_t durationNs)
    {
        if (!CanFreeze())
        {
            return false;
        }
        SetField(FrozenOffset(), 1, 1);
        SetFreezeEndTick(static_cast<uint32_t>(nowNs + durationNs));
        // Start the round robin at the oldest slot ever filled.
        SetField(RoundRobinOffset(), kIndexBits, GetField(WrappedOffset(), 1) ? GetHead() : 0);
        return true;
    }

    /**
     * Whether a retransmission timeout is a failure signal (the manual, "Path selectors",
     * section "REPS", "Algorithm": the failure signal).
     * \param trimming whether the network trims packets (then any timeout counts).
     * \param maxRecentRttNs the largest RTT seen recently (about the last 2 RTOs) [ns].
     * \param baseRttNs the base RTT of the connection [ns].
     * \param factor the threshold factor (1.65 in the paper).
     * \return whether the timeout counts: with trimming always; without, only if the
     *         recent maximum RTT is below factor x base RTT (the loss was not congestion).
     */
    static bool IsFailureSignal(bool trimming,
                                int64_t maxRecentRttNs,
                                int64_t baseRttNs,
                                double factor)
    {
        return trimming ||
               static_cast<double>(maxRecentRttNs) < factor * static_cast<double>(baseRttNs);
    }

    /// \return whether the connection is frozen (the exit is checked lazily).
    bool IsFrozen() const
    {
        return GetField(FrozenOffset(), 1) != 0;
    }

    /// \return the number of valid (cached, not yet reused) EVs.
    uint32_t GetValidCount() const
    {
        return GetField(CountOffset(), kCountBits);
    }

    /// \return the slot the next cached EV is written into (the oldest one).
    uint32_t GetHead() const
    {
        return GetField(HeadOffset(), kIndexBits);
    }

    /// \return the number of slots written since the buffer was last cleared (at most N).
    uint32_t GetFilledCount() const
    {
        return GetField(WrappedOffset(), 1) ? N : GetHead();
    }

    /// \return the number of packets left in the exploration window.
    uint32_t GetExplorationCounter() const
    {
        return static_cast<uint32_t>(m_explore[0]) | static_cast<uint32_t>(m_explore[1]) << 8;
    }

    /// \return the freeze end time, modulo 2^32 ns.
    uint32_t GetFreezeEndTick() const
    {
        return static_cast<uint32_t>(m_freezeEnd[0]) | static_cast<uint32_t>(m_freezeEnd[1]) << 8 |
               static_cast<uint32_t>(m_freezeEnd[2]) << 16 |
               static_cast<uint32_t>(m_freezeEnd[3]) << 24;
    }

    /**
     * \param slot a slot index (below N).
     * \return the EV last written into it.
     */
    uint16_t GetSlot(uint32_t slot) const
    {
        return static_cast<uint16_t>(m_ev[2 * slot] | m_ev[2 * slot + 1] << 8);
    }

    /**
     * \param slot a slot index (below N).
     * \return whether it holds an EV not yet reused.
     */
    bool IsValid(uint32_t slot) const
    {
        return (m_valid[slot / 8] >> (slot % 8)) & 1;
    }

  private:
    /**
     * \param v a value.
     * \return the number of bits needed to hold 0 to v (at least 1).
     */
    static constexpr uint32_t BitsFor(uint32_t v)
    {
        return v <= 1 ? 1 : 1 + BitsFor(v / 2);
    }

    static constexpr uint32_t kIndexBits = BitsFor(N - 1); //!< Bits of a slot index.
    static constexpr uint32_t kCountBits = BitsFor(N);     //!< Bits of the valid count.
    /// Bits of the control fields: head, valid count, round-robin index, frozen, wrapped.
    static constexpr uint32_t kCtrlBits = 2 * kIndexBits + kCountBits + 2;

    /// \return bit offset of the head index.
    static constexpr uint32_t HeadOffset()
    {
        return 0;
    }

    /// \return bit offset of the valid count.
    static constexpr uint32_t CountOffset()
    {
        return kIndexBits;
    }

    /// \return bit offset of the frozen round-robin index.
    static constexpr uint32_t RoundRobinOffset()
    {
        return kIndexBits + kCountBits;
    }

    /// \return bit offset of the frozen flag.
    static constexpr uint32_t FrozenOffset()
    {
        return 2 * kIndexBits + kCountBits;
    }

    /// \return bit offset of the "buffer has wrapped since it was cleared" flag.
    static constexpr uint32_t WrappedOffset()
    {
        return 2 * kIndexBits + kCountBits + 1;
    }

    /**
     * \param offset first bit.
     * \param width number of bits.
     * \return the control field.
     */
    uint32_t GetField(uint32_t offset, uint32_t width) const
    {
        uint32_t word = 0;
        for (uint32_t i = 0; i < sizeof(m_ctrl); ++i)
        {
            word |= static_cast<uint32_t>(m_ctrl[i]) << (8 * i);
        }
        return (word >> offset) & ((1u << width) - 1);
    }

    /**
     * \param offset first bit.
     * \param width number of bits.
     * \param value new value of the control field.
     */
    void SetField(uint32_t offset, uint32_t width, uint32_t value)
    {
        uint32_t word = 0;
        for (uint32_t i = 0; i < sizeof(m_ctrl); ++i)
        {
            word |= static_cast<uint32_t>(m_ctrl[i]) << (8 * i);
        }
        uint32_t mask = ((1u << width) - 1) << offset;
        word = (word & ~mask) | ((value << offset) & mask);
        for (uint32_t i = 0; i < sizeof(m_ctrl); ++i)
        {
            m_ctrl[i] = static_cast<uint8_t>(word >> (8 * i));
        }
    }

    /**
     * \param slot a slot index.
     * \param ev the EV to write into it.
     */
    void SetSlot(uint32_t slot, uint16_t ev)
    {
        m_ev[2 * slot] = static_cast<uint8_t>(ev);
        m_ev[2 * slot + 1] = static_cast<uint8_t>(ev >> 8);
    }

    /**
     * \param slot a slot index.
     * \param valid its new valid bit.
     */
    void SetValid(uint32_t slot, bool valid)
    {
        uint8_t bit = static_cast<uint8_t>(1u << (slot % 8));
        m_valid[slot / 8] = valid ? (m_valid[slot / 8] | bit) : (m_valid[slot / 8] & ~bit);
    }

    /// \param slot a slot whose EV is being used: clear its valid bit.
    void Consume(uint32_t slot)
    {
        if (IsValid(slot))
        {
            SetValid(slot, false);
            SetField(CountOffset(), kCountBits, GetValidCount() - 1);
        }
    }

    /// \param value new exploration counter (at most 65535).
    void SetExplorationCounter(uint32_t value)
    {
        m_explore[0] = static_cast<uint8_t>(value);
        m_explore[1] = static_cast<uint8_t>(value >> 8);
    }

    /// \param tick new freeze end, modulo 2^32 ns.
    void SetFreezeEndTick(uint32_t tick)
    {
        for (uint32_t i = 0; i < 4; ++i)
        {
            m_freezeEnd[i] = static_cast<uint8_t>(tick >> (8 * i));
        }
    }

    /// Forget every cached EV; writing starts again at slot 0.
    void ClearBuffer()
    {
        for (auto& b : m_valid)
        {
            b = 0;
        }
        SetField(HeadOffset(), kIndexBits, 0);
        SetField(CountOffset(), kCountBits, 0);
        SetField(RoundRobinOffset(), kIndexBits, 0);
        SetField(WrappedOffset(), 1, 0);
    }

    uint8_t m_ev[2 * N];                 //!< The EVs, little-endian 16 bits each.
    uint8_t m_valid[(N + 7) / 8];        //!< One valid bit per slot.
    uint8_t m_ctrl[(kCtrlBits + 7) / 8]; //!< Head, valid count, round robin, frozen, wrapped.
    uint8_t m_explore[2];                //!< Exploration counter, little-endian.
    uint8_t m_freezeEnd[4];              //!< Freeze end modulo 2^32 ns, little-endian.
};

static_assert(sizeof(RepsCore<>) <= 25,
              "REPS state of the default 8-slot buffer must fit the paper's 25-byte budget");

} // namespace ns3

#endif /* REPS_REPS_CORE_H */
