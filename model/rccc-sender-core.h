/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_RCCC_SENDER_CORE_H
#define REPS_RCCC_SENDER_CORE_H

#include <cstdint>

/**
 * \file
 * \ingroup reps
 * The sender's rules of RCCC, the Ultra Ethernet receiver-credit congestion control, for one
 * connection as a plain C++ type: no simulator, no allocation, no randomness. Byte counts are
 * bytes on the wire (every header included), as the receiver's pull pacer paces them; times
 * are nanoseconds. RcccSender adapts it to RdmaQueuePair.
 */

namespace ns3
{

/**
 * \ingroup reps
 * The configuration of one connection's credit accounting, as RcccSender's attributes give it.
 */
struct RcccSenderParameters
{
    int64_t maxCreditBytes{225000}; //!< Most credit held; speculative credit by default.
    int64_t speculativeBytes{0};    //!< Speculative credit of a new connection; 0: maxCreditBytes.
    int64_t packetBytes{4142};      //!< Wire bytes of a full packet (the least request).
    int64_t rtsIntervalNs{12000};   //!< Least time between two RTS.
};

/**
 * \ingroup reps
 * Credit of one sending connection under RCCC (see the manual, chapter "UEC transport",
 * section "RCCC"). A connection starts speculating: it holds maxCreditBytes of credit it was
 * never granted, so that its first round trip is not spent waiting. The first ACK, NACK or
 * PULL ends speculation: the credit left unused is dropped (a debt is kept). From then on every
 * byte sent spends credit the receiver granted in PULLs; a packet may leave while the credit is
 * positive, so credit goes negative by less than a packet. Every data packet (and every RTS)
 * tells the receiver how much credit the connection would like, as a cumulative target: the
 * credit granted so far plus what it is still short of (its backlog of new data and
 * retransmissions, capped, less the credit it holds), shared among the connections of the
 * sender's NIC that wait to send.
 */
class RcccSenderCore
{
  public:
    /// \param p the configuration (not checked here: RcccSender does)
    explicit RcccSenderCore(const RcccSenderParameters& p);

    /// \return whether a packet may leave now (the credit is positive)
    bool HasCredit() const;

    /**
     * A packet left: it spends its bytes of credit (speculative or granted).
     * \param wireBytes its bytes on the wire
     */
    void OnSend(int64_t wireBytes);

    /**
     * The first ACK, NACK or PULL arrived: stop speculating and drop the speculative credit
     * left (a negative credit stays).
     * \return the bytes of credit dropped (0 when no longer speculating)
     */
    int64_t StopSpeculating();

    /**
     * A PULL arrived.
     * \param cumulative the credit the receiver granted this connection in all, bytes
     * \return the credit it adds (0 for a PULL older than one seen, or one that grants
     *         nothing); the credit never exceeds maxCreditBytes
     */
    int64_t OnPull(int64_t cumulative);

    /**
     * The target to tell the receiver: the credit granted so far plus what the connection
     * wants more.
     * \param backlogBytes wire bytes of new data not yet sent
     * \param retransmitBytes wire bytes waiting to be sent again
     * \param windowCapBytes the sender's window plus a packet, wire bytes, when a sender
     *        congestion control limits the window; a negative value when none does
     * \param activeSources the connections of the sender's NIC that wait to send, this one
     *        included (the request is shared among them)
     * \return the cumulative target, bytes (never negative)
     */
    int64_t PullTarget(int64_t backlogBytes,
                       int64_t retransmitBytes,
                       int64_t windowCapBytes,
                       uint32_t activeSources) const;

    /**
     * \param nowNs the time
     * \return whether an RTS may leave now (none sent yet, or the last rtsIntervalNs ago)
     */
    bool MayRequest(int64_t nowNs) const;

    /// \param nowNs an RTS left at this time
    void OnRequest(int64_t nowNs);

    /// \return the credit held, bytes (negative: a debt of less than a packet)
    int64_t GetCredit() const;
    /// \return the credit granted in all (the last PULL's cumulative count), bytes
    int64_t GetPulled() const;
    /// \return whether the connection still speculates
    bool IsSpeculating() const;
    /// \return the bytes sent in all (credit spent)
    int64_t GetSpent() const;
    /// \return the most credit held at once (maxCreditBytes)
    int64_t GetMaxCredit() const;

  private:
    RcccSenderParameters m_p;   //!< Configuration.
    int64_t m_credit;           //!< Credit held, bytes.
    int64_t m_pulled{0};        //!< Cumulative credit of the latest PULL.
    int64_t m_spent{0};         //!< Bytes sent.
    bool m_speculating{true};   //!< Speculating.
    bool m_requested{false};    //!< An RTS was sent.
    int64_t m_lastRequestNs{0}; //!< When the last RTS was sent.
};

} // namespace ns3

#endif /* REPS_RCCC_SENDER_CORE_H */
