/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_ROCE_PULL_HEADER_H
#define REPS_ROCE_PULL_HEADER_H

#include "ns3/header.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup reps
 * The PULL of RCCC (receiver credits): a grant of credit from the pull pacer of a receiving
 * NIC to one sending queue pair, carried after the BTH of a PULL packet (RoceBthHeader::PULL,
 * an opcode of the manufacturer-specific range; a control packet, so switches serve it ahead
 * of data). 8 bytes:
 *
 * \verbatim
    0                   1                   2                   3
    0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
   |W|  Reserved   |                                               |
   +-+-+-+-+-+-+-+-+       Credit granted in all (bytes)           +
   |                                                               |
   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
   \endverbatim
 *
 * The credit (56 bits) is cumulative: all the credit the receiver has granted this queue pair,
 * in bytes on the wire; the sender adds the difference to the last one it saw, so a lost PULL
 * is made up by the next. W says that it is a slow pull: credit granted to an idle sender,
 * beyond what it asked for, for its next message. Reserved bits are sent as zero and ignored.
 */
class RocePullHeader : public Header
{
  public:
    /// Serialized size of the header, in bytes.
    static constexpr uint32_t SIZE = 8;
    /// Largest cumulative credit (56 bits).
    static constexpr uint64_t MAX_CREDIT = (uint64_t(1) << 56) - 1;

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;

    RocePullHeader();

    void Print(std::ostream& os) const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    /**
     * \param start where the header starts.
     * \return SIZE, or 0 when fewer than SIZE bytes remain (a malformed packet).
     */
    uint32_t Deserialize(Buffer::Iterator start) override;

    /// \param credit the credit granted in all, bytes (at most MAX_CREDIT)
    void SetCumulativeCredit(uint64_t credit);
    /// \return the credit granted in all, bytes
    uint64_t GetCumulativeCredit() const;

    /// \param slow whether it is a slow pull
    void SetSlow(bool slow);
    /// \return whether it is a slow pull
    bool IsSlow() const;

  private:
    uint64_t m_credit; //!< Cumulative credit.
    bool m_slow;       //!< W.
};

} // namespace ns3

#endif /* REPS_ROCE_PULL_HEADER_H */
