/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_ROCE_BTH_HEADER_H
#define REPS_ROCE_BTH_HEADER_H

#include "ns3/header.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup reps
 * The RoCEv2 (InfiniBand) base transport header, 12 bytes, carried after the UDP header of
 * every RoCEv2 packet (UDP destination port 4791).
 *
 * \verbatim
    0                   1                   2                   3
    0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
   |    OpCode     |S|M|Pad| TVer  |        Partition Key          |
   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
   |F|B|Rsv|C|L|T|         Destination QP                          |
   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
   |A|   Rsvd    |            Packet Sequence Number               |
   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
   \endverbatim
 *
 * F and B are the FECN/BECN bits, A the AckReq bit. T and L are reserved bits of the
 * specification; the module uses T to mark a packet whose payload a switch has trimmed
 * (see SetTrimmed()) and L to say that the switch trimmed it on the port that faces the
 * destination host, the last hop (see SetTrimmedAtLastHop()), and C to say that a credit
 * request of receiver credits (RoceCreditRequestHeader) follows the BTH of a data packet (see
 * SetCreditRequest()). Reserved bits are sent as zero and ignored on receipt, as the
 * specification asks, so T, L and C are invisible to any other RoCEv2 implementation (which
 * would take a credit request for 8 bytes of payload).
 */
class RoceBthHeader : public Header
{
  public:
    /// The UDP destination port of RoCEv2.
    static constexpr uint16_t UDP_PORT = 4791;
    /// Serialized size of the header, in bytes.
    static constexpr uint32_t SIZE = 12;
    /// Size of the invariant CRC trailer every RoCEv2 packet ends with, in bytes.
    static constexpr uint32_t ICRC_SIZE = 4;
    /// Largest queue pair number (24 bits).
    static constexpr uint32_t MAX_QPN = 0xFFFFFF;
    /// Largest packet sequence number (24 bits).
    static constexpr uint32_t MAX_PSN = 0xFFFFFF;
    /// The module's trimmed mark (T) in byte 4 of the serialized header.
    static constexpr uint8_t TRIMMED_BIT = 0x01;
    /// The module's last-hop trim mark (L) in byte 4 of the serialized header.
    static constexpr uint8_t LAST_HOP_BIT = 0x02;
    /// The module's credit-request mark (C) in byte 4 of the serialized header.
    static constexpr uint8_t CREDIT_REQUEST_BIT = 0x04;

    /// Reliable Connected opcodes (InfiniBand specification, table 38) used by the module.
    enum OpCode : uint8_t
    {
        RC_SEND_FIRST = 0x00,  //!< First packet of a multi-packet message.
        RC_SEND_MIDDLE = 0x01, //!< Middle packet of a message.
        RC_SEND_LAST = 0x02,   //!< Last packet of a message.
        RC_SEND_ONLY = 0x04,   //!< A message of one packet.
        RC_ACK = 0x11,         //!< Acknowledge (an AETH follows).
        CNP = 0x81,            //!< RoCEv2 congestion notification packet.
        PROBE = 0xC0,          //!< Path probe (manufacturer-specific; RoceProbeHeader follows).
        PROBE_REPLY = 0xC1,    //!< Answer to a path probe (RoceProbeHeader echoed).
        PULL = 0xC2,           //!< Receiver credits: a grant of credit (RocePullHeader follows).
        RTS = 0xC3,            //!< Receiver credits: a request to send (a credit request follows).
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;

    RoceBthHeader();

    void Print(std::ostream& os) const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    /**
     * \param start where the header starts.
     * \return the bytes read: SIZE, or 0 when fewer than SIZE bytes remain (a malformed
     *         packet, which Packet::RemoveHeader() then leaves untouched).
     */
    uint32_t Deserialize(Buffer::Iterator start) override;

    /// \param opCode the opcode
    void SetOpCode(uint8_t opCode);
    /// \return the opcode
    uint8_t GetOpCode() const;
    /// \return whether the opcode is one of the data (SEND) opcodes
    bool IsData() const;
    /**
     * \param opCode an opcode
     * \return whether it is one of the data (SEND) opcodes
     */
    static bool IsDataOpCode(uint8_t opCode);

    /// \param qpn the destination queue pair number (24 bits)
    void SetDestQp(uint32_t qpn);
    /// \return the destination queue pair number
    uint32_t GetDestQp() const;

    /// \param psn the packet sequence number (24 bits)
    void SetPsn(uint32_t psn);
    /// \return the packet sequence number
    uint32_t GetPsn() const;

    /// \param ackReq whether the responder is asked to acknowledge this packet
    void SetAckRequest(bool ackReq);
    /// \return the AckReq bit
    bool GetAckRequest() const;

    /// \param pkey the partition key
    void SetPartitionKey(uint16_t pkey);
    /// \return the partition key
    uint16_t GetPartitionKey() const;

    /// \param padCount number of pad bytes after the payload (0 to 3)
    void SetPadCount(uint8_t padCount);
    /// \return the pad count
    uint8_t GetPadCount() const;

    /// \param fecn the FECN bit
    void SetFecn(bool fecn);
    /// \return the FECN bit
    bool GetFecn() const;

    /// \param becn the BECN bit
    void SetBecn(bool becn);
    /// \return the BECN bit
    bool GetBecn() const;

    /// \param trimmed whether a switch removed the payload of this packet
    void SetTrimmed(bool trimmed);
    /// \return whether a switch removed the payload of this packet
    bool IsTrimmed() const;

    /**
     * \param lastHop whether the switch that trimmed this packet did so on its port toward the
     *        destination host (the egress of the destination's leaf), rather than inside the
     *        fabric; meaningful only on a trimmed packet
     */
    void SetTrimmedAtLastHop(bool lastHop);
    /// \return whether the packet was trimmed at the last hop (see SetTrimmedAtLastHop())
    bool IsTrimmedAtLastHop() const;

    /**
     * \param request whether a credit request (RoceCreditRequestHeader) follows this BTH; set
     *        on the data packets of a queue pair that sends on receiver credits
     */
    void SetCreditRequest(bool request);
    /// \return whether a credit request follows this BTH
    bool HasCreditRequest() const;

  private:
    uint8_t m_opCode;  //!< OpCode.
    uint8_t m_flags;   //!< SE, M, PadCnt, TVer.
    uint16_t m_pkey;   //!< Partition key.
    uint8_t m_resv8a;  //!< FECN, BECN, reserved bits (T and L among them).
    uint32_t m_destQp; //!< Destination QP (24 bits).
    bool m_ackReq;     //!< AckReq.
    uint32_t m_psn;    //!< PSN (24 bits).
};

} // namespace ns3

#endif /* REPS_ROCE_BTH_HEADER_H */
