/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_PFC_HEADER_H
#define REPS_PFC_HEADER_H

#include "ns3/data-rate.h"
#include "ns3/header.h"
#include "ns3/mac48-address.h"
#include "ns3/nstime.h"

#include <array>
#include <cstdint>

namespace ns3
{

/**
 * \ingroup reps
 * An IEEE 802.1Qbb priority-based flow control (PFC) frame: a MAC control frame (EtherType
 * 0x8808, opcode 0x0101) that asks the device at the other end of the link to stop sending the
 * priorities whose bit is set in the class-enable vector, each for its quanta x 512 bit times
 * at the link's rate. Quanta 0 resumes the priority at once (XON).
 *
 * The header is the whole 64-byte minimum Ethernet frame:
 *
 * \verbatim
   bytes  0- 5  destination MAC 01-80-C2-00-00-01 (MAC control multicast)
   bytes  6-11  source MAC
   bytes 12-13  EtherType 0x8808
   bytes 14-15  opcode 0x0101 (PFC)
   bytes 16-17  class-enable vector (bit p: the quanta of priority p is valid)
   bytes 18-33  quanta of priorities 0 to 7 (16 bits each)
   bytes 34-59  zero padding to the minimum frame
   bytes 60-63  frame check sequence (sent as zero, not checked)
   \endverbatim
 *
 * Deserialize() accepts any 64 bytes; IsValid() says whether they were a PFC frame (right
 * destination, EtherType and opcode). Fewer than 64 bytes are not read at all (Deserialize()
 * returns 0 and IsValid() false).
 */
class PfcHeader : public Header
{
  public:
    /// Size of the frame on the wire, in bytes (the Ethernet minimum, FCS included).
    static constexpr uint32_t SIZE = 64;
    /// Number of priorities (traffic classes).
    static constexpr uint8_t N_PRIORITIES = 8;
    /// EtherType of MAC control frames.
    static constexpr uint16_t ETHER_TYPE = 0x8808;
    /// MAC control opcode of PFC.
    static constexpr uint16_t OPCODE = 0x0101;
    /// Bit times in one pause quantum.
    static constexpr uint32_t QUANTUM_BITS = 512;

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;

    PfcHeader();

    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;
    void Print(std::ostream& os) const override;

    /**
     * Enable a priority with its quanta (0: resume).
     * \param priority the priority, 0 to 7
     * \param quanta the pause time in quanta of 512 bit times
     */
    void SetQuanta(uint8_t priority, uint16_t quanta);
    /**
     * \param priority the priority, 0 to 7
     * \return its quanta (meaningful when IsEnabled(priority))
     */
    uint16_t GetQuanta(uint8_t priority) const;
    /**
     * \param priority the priority, 0 to 7
     * \return whether its bit is set in the class-enable vector
     */
    bool IsEnabled(uint8_t priority) const;
    /// \return the class-enable vector
    uint16_t GetClassEnableVector() const;
    /// \param source the source MAC address
    void SetSource(Mac48Address source);
    /// \return the source MAC address
    Mac48Address GetSource() const;
    /// \return whether the deserialized bytes were a PFC frame
    bool IsValid() const;

    /**
     * The pause time that a number of quanta stands for on a link.
     * \param quanta the number of quanta
     * \param rate the link rate
     * \return quanta x 512 bit times at rate
     */
    static Time QuantaToTime(uint16_t quanta, DataRate rate);

  private:
    Mac48Address m_source;                         //!< Source MAC address.
    uint16_t m_classEnable;                        //!< Class-enable vector.
    std::array<uint16_t, N_PRIORITIES> m_quanta{}; //!< Quanta of each priority.
    bool m_valid;                                  //!< Destination, EtherType, opcode matched.
};

} // namespace ns3

#endif /* REPS_PFC_HEADER_H */
