/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_ROCE_CREDIT_REQUEST_HEADER_H
#define REPS_ROCE_CREDIT_REQUEST_HEADER_H

#include "ns3/header.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup reps
 * The credit request of RCCC (receiver credits): what a sender tells the pull pacer of the
 * receiver. It follows the BTH of every data packet of a queue pair that sends on credit (the
 * BTH's C bit says so, RoceBthHeader::HasCreditRequest(); a trimmed packet keeps it) and is the
 * whole content of an RTS packet (RoceBthHeader::RTS). 8 bytes:
 *
 * \verbatim
    0                   1                   2                   3
    0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
   |S|  Reserved   |                                               |
   +-+-+-+-+-+-+-+-+           Pull target (bytes)                 +
   |                                                               |
   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
   \endverbatim
 *
 * The pull target (56 bits) is cumulative: the credit the sender would like to have been
 * granted in all, in bytes on the wire; the receiver keeps the highest it has seen, so a lost
 * or reordered request does no harm. S says that the packet was sent on speculative credit
 * (before the sender heard from the receiver). Reserved bits are sent as zero and ignored.
 */
class RoceCreditRequestHeader : public Header
{
  public:
    /// Serialized size of the header, in bytes.
    static constexpr uint32_t SIZE = 8;
    /// Largest pull target (56 bits).
    static constexpr uint64_t MAX_TARGET = (uint64_t(1) << 56) - 1;

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;

    RoceCreditRequestHeader();

    void Print(std::ostream& os) const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    /**
     * \param start where the header starts.
     * \return SIZE, or 0 when fewer than SIZE bytes remain (a malformed packet).
     */
    uint32_t Deserialize(Buffer::Iterator start) override;

    /// \param target the cumulative pull target, bytes (at most MAX_TARGET)
    void SetPullTarget(uint64_t target);
    /// \return the cumulative pull target, bytes
    uint64_t GetPullTarget() const;

    /// \param speculative whether the packet was sent on speculative credit
    void SetSpeculative(bool speculative);
    /// \return whether the packet was sent on speculative credit
    bool IsSpeculative() const;

  private:
    uint64_t m_target;  //!< Pull target.
    bool m_speculative; //!< S.
};

} // namespace ns3

#endif /* REPS_ROCE_CREDIT_REQUEST_HEADER_H */
