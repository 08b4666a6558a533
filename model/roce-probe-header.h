/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_ROCE_PROBE_HEADER_H
#define REPS_ROCE_PROBE_HEADER_H

#include "ns3/header.h"
#include "ns3/nstime.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup reps
 * The path probe header of the module, carried after the BTH of a PROBE or PROBE_REPLY packet
 * (RoceBthHeader::PROBE, RoceBthHeader::PROBE_REPLY: opcodes of the manufacturer-specific
 * range, so no other RoCEv2 implementation mistakes them for its own).
 *
 * A sender whose path selector suspects a path (MrcPathSelector) sends a probe with the EV of
 * that path as its UDP source port; the fabric hashes it like data, so a probe takes the
 * path data with that EV would take. The remote queue pair answers at once with a reply that
 * echoes the whole header and carries the probed EV as its own UDP source port. Neither packet
 * has a PSN (the BTH's PSN is zero and ignored): probes never touch the reliability state of
 * either end. 16 bytes:
 *
 * \verbatim
    0                   1                   2                   3
    0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
   |       Probed entropy (EV)     |           Reserved            |
   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
   |                       Probe sequence number                   |
   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
   |                                                               |
   +          Timestamp (sender's clock when sent, nanoseconds)    +
   |                                                               |
   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
   \endverbatim
 *
 * The sequence number counts the probes of one queue pair; the timestamp is echoed so that
 * the sender measures the probe's RTT without keeping per-probe state. Reserved bits are sent
 * as zero and ignored.
 */
class RoceProbeHeader : public Header
{
  public:
    /// Serialized size of the header, in bytes.
    static constexpr uint32_t SIZE = 16;

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;

    RoceProbeHeader();

    void Print(std::ostream& os) const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    /**
     * \param start where the header starts.
     * \return SIZE, or 0 when fewer than SIZE bytes remain (a malformed packet).
     */
    uint32_t Deserialize(Buffer::Iterator start) override;

    /// \param ev the EV being probed (the probe's UDP source port)
    void SetEntropy(uint16_t ev);
    /// \return the EV being probed
    uint16_t GetEntropy() const;

    /// \param sequence the probe's number on its queue pair
    void SetSequence(uint32_t sequence);
    /// \return the probe's number on its queue pair
    uint32_t GetSequence() const;

    /// \param timestamp when the probe was sent (nanoseconds, sender's clock; >= 0)
    void SetTimestamp(Time timestamp);
    /// \return when the probe was sent
    Time GetTimestamp() const;

  private:
    uint16_t m_ev;        //!< Probed EV.
    uint32_t m_sequence;  //!< Probe sequence number.
    uint64_t m_timestamp; //!< Send time, nanoseconds.
};

} // namespace ns3

#endif /* REPS_ROCE_PROBE_HEADER_H */
