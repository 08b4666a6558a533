/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_RCCC_SENDER_H
#define REPS_RCCC_SENDER_H

#include "rccc-sender-core.h"
#include "rdma-congestion-control.h"

#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"
#include "ns3/traced-value.h"

#include <memory>

namespace ns3
{

/**
 * \ingroup reps
 * The sender's side of RCCC, receiver credits (see the manual, chapter "UEC transport",
 * section "RCCC"), for one queue pair: the queue pair makes one when it sends on credit (its
 * ReceiverCredits attribute, or a congestion controller that asks for it, as
 * RcccCongestionControl does), with this TypeId's attributes as defaults
 * (Config::SetDefault, or --ns3::RcccSender::MaxCredit=... on a command line).
 *
 * A new queue pair speculates: it holds MaxCredit BDPs of credit nobody granted, so that its
 * first round trip is not wasted; the first ACK, NACK or PULL ends that and drops what is left.
 * Then a packet (new or sent again) leaves only while the credit granted by the receiver's
 * PULLs is positive, and spends its bytes on the wire. Every data packet carries the pull
 * target (RoceCreditRequestHeader). A queue pair that has a packet to send again and no credit
 * sends an RTS, at most once per RtsInterval: when the retransmission timer declares a packet
 * lost (as the reference does), and when it has been stuck with nothing in flight for
 * RtsTimeout without a PULL or an RTS (lost PULLs or RTS; the reference has no such fallback).
 * The rules are
 * RcccSenderCore's; this class gives them attributes and trace sources.
 */
class RcccSender : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    RcccSender();
    ~RcccSender() override;

    /**
     * TracedCallback signature of CreditGranted and CreditUsed.
     * \param bytes the credit a PULL added, or a packet spent
     * \param credit the credit held after it (negative: a debt of less than a packet)
     */
    typedef void (*CreditTracedCallback)(uint32_t bytes, int64_t credit);
    /**
     * TracedCallback signature of RtsSent.
     * \param target the cumulative pull target the RTS carries
     */
    typedef void (*RtsTracedCallback)(uint64_t target);

    /**
     * Check the attributes against the connection.
     * \param context the connection (packetBytes: IPv4 and up, with the credit request)
     * \return an empty string when valid, else what is wrong and what is allowed
     */
    std::string Validate(const RdmaCcContext& context) const;

    /**
     * Start a connection; aborts with the message of Validate() when it fails.
     * \param context the connection
     * \param rto the queue pair's retransmission timeout (RtsTimeout's default)
     */
    void Init(const RdmaCcContext& context, Time rto);

    /// \return whether a packet may leave now
    bool HasCredit() const;
    /// \param wireBytes a packet of this size on the wire left (CreditUsed)
    void OnSend(uint32_t wireBytes);
    /// An ACK, NACK or PULL arrived: speculation ends (its credit left is dropped)
    void StopSpeculating();
    /**
     * A PULL arrived.
     * \param cumulative the credit granted in all, bytes
     * \return the credit it added (CreditGranted when not 0)
     */
    uint32_t OnPull(uint64_t cumulative);
    /**
     * \param backlogBytes wire bytes of new data not sent yet
     * \param retransmitBytes wire bytes to send again
     * \param windowCapBytes the sender's window plus a packet in wire bytes, or negative
     * \param activeSources queue pairs of the NIC waiting to send, this one included
     * \return the pull target to put in a packet
     */
    uint64_t PullTarget(uint64_t backlogBytes,
                        uint64_t retransmitBytes,
                        int64_t windowCapBytes,
                        uint32_t activeSources) const;
    /// \return whether an RTS may leave now (RtsInterval since the last)
    bool MayRequest() const;
    /// \param target an RTS with this pull target left (RtsSent)
    void OnRequest(uint64_t target);

    /// \return the credit held, bytes on the wire
    int64_t GetCredit() const;
    /// \return the credit granted by PULLs in all
    uint64_t GetPulled() const;
    /// \return whether the queue pair still speculates
    bool IsSpeculating() const;
    /// \return the most credit held at once, bytes on the wire (MaxCredit BDPs)
    uint64_t GetMaxCredit() const;
    /// \return the bytes sent on credit in all (speculative or granted)
    uint64_t GetSpent() const;
    /// \return the speculative credit of the start (MaxCredit BDPs)
    uint64_t GetSpeculativeCredit() const;
    /// \return the time after which a stuck queue pair sends an RTS again
    Time GetRtsTimeout() const;

  private:
    /// Publish the credit (Credit trace).
    void Publish();

    double m_maxCredit;           //!< MaxCredit attribute, BDPs.
    uint64_t m_speculativeCredit; //!< SpeculativeCredit attribute, bytes (0: MaxCredit).
    Time m_rtsInterval;           //!< RtsInterval attribute (0: the base RTT).
    double m_rtsTimeout;          //!< RtsTimeout attribute, in Rtos.
    Time m_timeout;               //!< RtsTimeout in use.

    std::unique_ptr<RcccSenderCore> m_core;                 //!< The rules.
    TracedValue<int64_t> m_credit;                          //!< Credit held.
    TracedCallback<uint32_t, int64_t> m_creditGrantedTrace; //!< CreditGranted.
    TracedCallback<uint32_t, int64_t> m_creditUsedTrace;    //!< CreditUsed.
    TracedCallback<uint64_t> m_rtsTrace;                    //!< RtsSent.
};

} // namespace ns3

#endif /* REPS_RCCC_SENDER_H */
