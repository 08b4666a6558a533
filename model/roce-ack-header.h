/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_ROCE_ACK_HEADER_H
#define REPS_ROCE_ACK_HEADER_H

#include "ns3/header.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup reps
 * The acknowledgement header of the module, carried after the BTH of an RC_ACK packet (in the
 * place of the InfiniBand AETH, which has no room for what packet spraying needs).
 *
 * One ACK (or NACK) answers one data packet, the "trigger": it echoes the trigger's PSN, its
 * entropy value (the UDP source port it arrived with) and its CE bit, and carries the
 * receiver's cumulative point (the next PSN it expects) with a selective-ACK bitmap of the 64
 * PSNs above it. 20 bytes:
 *
 * \verbatim
    0                   1                   2                   3
    0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
   |     Type      |Reason |R|L|D|C|       Echoed entropy (EV)     |
   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
   |   Reserved    |          Trigger PSN                          |
   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
   |   Reserved    |          Cumulative PSN (next expected)       |
   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
   |                                                               |
   +                SACK bitmap (bit i: PSN cum + 1 + i)           +
   |                                                               |
   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
   \endverbatim
 *
 * Type is ACK (0) or NACK (1); any other value is rejected. Reason is zero in an ACK and
 * TRIMMED (1) or SEQUENCE_ERROR (2) in a NACK. C is the echoed CE bit, D says that the trigger
 * was a duplicate. L, in a TRIMMED NACK only, says that the trigger was trimmed at the last hop
 * (the egress port of the destination's leaf toward the receiver: congestion at the receiver,
 * not on the path), as UET and MRC NACKs tell; the receiver copies it from the trimmed
 * packet's BTH (RoceBthHeader::IsTrimmedAtLastHop()). In any other ACK or NACK the L position
 * is reserved. The bitmap's bit 0 (least significant) stands for PSN cum + 1, since PSN cum
 * itself is missing by definition. Reserved bits are sent as zero and ignored.
 */
class RoceAckHeader : public Header
{
  public:
    /// Serialized size of the header, in bytes.
    static constexpr uint32_t SIZE = 20;
    /// Number of PSNs above the cumulative point covered by the SACK bitmap.
    static constexpr uint32_t SACK_BITS = 64;

    /// Whether the packet acknowledges or asks for a retransmission.
    enum Type : uint8_t
    {
        ACK = 0,  //!< The trigger was received.
        NACK = 1, //!< The trigger (or what precedes it) must be sent again.
    };

    /// Why a NACK was sent.
    enum NackReason : uint8_t
    {
        NONE = 0,           //!< Not a NACK.
        TRIMMED = 1,        //!< The trigger arrived trimmed: its payload was cut by a switch.
        SEQUENCE_ERROR = 2, //!< Go-back-N: the trigger was out of order; resend from cum.
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;

    RoceAckHeader();

    void Print(std::ostream& os) const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    /**
     * \param start where the header starts.
     * \return SIZE, or 0 when fewer than SIZE bytes remain or the buffer does not hold a valid
     *         header (unknown type, a reason that does not fit the type); IsValid() then
     *         returns false.
     */
    uint32_t Deserialize(Buffer::Iterator start) override;

    /// \return whether the last Deserialize() read a well-formed header (true when built).
    bool IsValid() const;

    /// \param type ACK or NACK
    void SetType(Type type);
    /// \return ACK or NACK
    Type GetType() const;
    /// \return whether this is a NACK
    bool IsNack() const;

    /// \param reason why a NACK was sent (NONE for an ACK)
    void SetNackReason(NackReason reason);
    /// \return why the NACK was sent (NONE for an ACK)
    NackReason GetNackReason() const;

    /// \param psn PSN of the data packet that triggered this ACK (24 bits)
    void SetTriggerPsn(uint32_t psn);
    /// \return PSN of the data packet that triggered this ACK
    uint32_t GetTriggerPsn() const;

    /// \param psn the next PSN the receiver expects (24 bits)
    void SetCumulativePsn(uint32_t psn);
    /// \return the next PSN the receiver expects
    uint32_t GetCumulativePsn() const;

    /// \param bitmap bit i set: PSN cum + 1 + i was received
    void SetSackBitmap(uint64_t bitmap);
    /// \return the SACK bitmap
    uint64_t GetSackBitmap() const;

    /// \param ev the entropy value the trigger arrived with
    void SetEchoedEntropy(uint16_t ev);
    /// \return the entropy value the trigger arrived with
    uint16_t GetEchoedEntropy() const;

    /// \param ce whether the trigger arrived with the IPv4 CE codepoint
    void SetEchoedCe(bool ce);
    /// \return whether the trigger arrived with the IPv4 CE codepoint
    bool GetEchoedCe() const;

    /**
     * \param lastHop whether the trigger was trimmed at the last hop; true only in a NACK whose
     *        reason is TRIMMED (set the type and reason first)
     */
    void SetLastHop(bool lastHop);
    /// \return whether this is a TRIMMED NACK whose trigger was trimmed at the last hop
    bool IsLastHop() const;

    /// \param duplicate whether the trigger had been received before
    void SetDuplicate(bool duplicate);
    /// \return whether the trigger had been received before
    bool IsDuplicate() const;

  private:
    Type m_type;           //!< ACK or NACK.
    NackReason m_reason;   //!< NACK reason.
    bool m_ce;             //!< Echoed CE bit.
    bool m_duplicate;      //!< Trigger was a duplicate.
    bool m_lastHop;        //!< Trigger was trimmed at the last hop (TRIMMED NACK only).
    uint16_t m_ev;         //!< Echoed EV.
    uint32_t m_triggerPsn; //!< Trigger PSN (24 bits).
    uint32_t m_cumPsn;     //!< Cumulative PSN (24 bits).
    uint64_t m_sack;       //!< SACK bitmap.
    bool m_valid;          //!< Last Deserialize() succeeded.
};

} // namespace ns3

#endif /* REPS_ROCE_ACK_HEADER_H */
