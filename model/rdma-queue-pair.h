/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_RDMA_QUEUE_PAIR_H
#define REPS_RDMA_QUEUE_PAIR_H

#include "path-selector.h"
#include "rccc-sender.h"
#include "rdma-congestion-control.h"
#include "rdma-receive-window.h"
#include "rdma-send-window.h"

#include "ns3/callback.h"
#include "ns3/event-id.h"
#include "ns3/ipv4-address.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/packet.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <deque>
#include <string>

namespace ns3
{

class RdmaStack;
class RoceBthHeader;
class RoceAckHeader;
class Ipv4Route;

/**
 * \ingroup reps
 * Counters of a queue pair, readable after a run (RdmaQueuePair::GetStats()).
 */
struct RdmaQueuePairStats
{
    // sender side
    uint64_t packetsSent{0};          //!< Data packets sent, retransmissions included.
    uint64_t bytesSent{0};            //!< Payload bytes sent, retransmissions included.
    uint64_t retransmissions{0};      //!< Data packets sent again.
    uint64_t acksReceived{0};         //!< ACKs received (NACKs not included).
    uint64_t ecnAcks{0};              //!< ACKs and NACKs echoing a CE mark.
    uint64_t nacksReceived{0};        //!< NACKs received.
    uint64_t lastHopNacksReceived{0}; //!< NACKs of packets trimmed at the last hop.
    uint64_t timeouts{0};             //!< Retransmission-timer expiries that declared a loss.
    uint64_t packetsLost{0};          //!< Packets declared lost by the retransmission timer.
    uint64_t cnpsReceived{0};         //!< CNPs received.
    uint64_t messagesCompleted{0};    //!< Messages whose every packet was acknowledged.
    uint64_t probesSent{0};           //!< Path probes sent (asked for by the path selector).
    uint64_t probeReplies{0};         //!< Replies to those probes received.
    uint64_t pullsReceived{0};        //!< Receiver credits: PULLs received.
    uint64_t rtsSent{0};              //!< Receiver credits: RTS sent.
    // receiver side
    uint64_t dataReceived{0};           //!< Data packets received (duplicates, trimmed included).
    uint64_t bytesReceived{0};          //!< Payload bytes placed (each byte once).
    uint64_t duplicates{0};             //!< Duplicate data packets (not placed again).
    uint64_t trimmedReceived{0};        //!< Trimmed data packets (answered with a NACK).
    uint64_t lastHopTrimmedReceived{0}; //!< Those trimmed at the last hop (a last-hop NACK).
    uint64_t outOfWindow{0};            //!< Data packets beyond the receive window (dropped).
    uint64_t outOfOrderDropped{0};      //!< Go-back-N: data packets dropped for being out of order.
    uint64_t acksSent{0};               //!< ACKs sent.
    uint64_t nacksSent{0};              //!< NACKs sent.
    uint64_t cnpsSent{0};               //!< CNPs sent.
    uint64_t messagesReceived{0};       //!< Messages whose every byte arrived.
    uint64_t probesAnswered{0};         //!< Path probes received and answered.
    uint64_t pullsSent{0};              //!< Receiver credits: PULLs sent (by the NIC's pacer).
    uint64_t rtsReceived{0};            //!< Receiver credits: RTS received.
};

/**
 * \ingroup reps
 * A connected reliable (RC) RoCEv2 queue pair: sends messages to one remote queue pair and
 * receives the messages that queue pair sends.
 *
 * Send side: PostSend() queues a message; it is cut into packets of Mtu payload bytes with
 * consecutive PSNs. A packet may leave when the congestion controller's window has room and its
 * rate allows (the RdmaStack then serializes the node's queue pairs onto the NIC round-robin).
 * Every packet, retransmissions included, gets its entropy value (UDP source port) from the
 * path selector. Per-packet state (send time, EV, size, state) lives in an RdmaSendWindow.
 * ACKs acknowledge the trigger packet, everything below the cumulative PSN and what the SACK
 * bitmap shows; a NACK of a trimmed packet makes exactly that packet go again; the
 * retransmission timer (Rto) declares lost exactly the packets sent more than Rto ago and
 * still unacknowledged. A message completes (callback and MessageComplete trace) when every
 * one of its packets is acknowledged.
 *
 * Receive side: selective repeat. A packet is placed wherever it falls in a bitmap window
 * (RdmaReceiveWindow) of ReceiveWindow PSNs above the next expected PSN; a duplicate is detected
 * and not counted twice; a message is received when the expected PSN passes its last packet. One
 * ACK per data packet by default; ACK coalescing (AckEvery packets, AckEveryBytes bytes,
 * whichever comes first, and the AckDelay timer) acknowledges several packets with one ACK that
 * echoes the EV and CE bit of the packet that triggered it only (see RoceAckHeader); CE-marked,
 * out-of-order, duplicate, last-of-message and AckReq packets are acknowledged at once, so the
 * packets an ACK covers silently all arrived unmarked. A trimmed packet is answered at once
 * with a NACK. In
 * GoBackN mode (classic RoCEv2) only the expected PSN is accepted, the first out-of-order packet is
 * answered with a sequence-error NACK and the sender goes back to the cumulative PSN.
 *
 * Path probes: the queue pair gives its path selector a probe hook
 * (PathSelector::SetProbeCallback()); a selector that probes (MrcPathSelector) has it send a
 * PROBE packet (RoceProbeHeader) with the probed EV as UDP source port, ahead of data as ACKs
 * are. The remote queue pair answers every probe at once with a PROBE_REPLY that echoes it on
 * the same EV, and the reply goes to the selector with its RTT (PathSelector::OnProbeReply()).
 * Probes carry no PSN and never touch the send or receive window.
 *
 * Receiver credits (RCCC; ReceiverCredits, or a congestion controller that asks for them such
 * as RcccCongestionControl): a packet also needs credit (RcccSender), speculative at the start,
 * then granted by PULLs from the pull pacer of the receiver's NIC (RcccPullPacer), and every
 * data packet carries the queue pair's pull target (RoceCreditRequestHeader after the BTH). The
 * receive side hands the targets of the data, trimmed headers and RTS it receives to the pacer
 * of its own NIC, which sends the PULLs through it. A queue pair that has a packet to send
 * again and no credit sends an RTS (see RcccSender).
 */
class RdmaQueuePair : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    RdmaQueuePair();
    ~RdmaQueuePair() override;

    /// Completion of a message: (message id, size in bytes, flow completion time).
    typedef Callback<void, uint64_t, uint64_t, Time> MessageCallback;

    /**
     * TracedCallback signature for a data packet sent.
     * \param [in] psn its PSN (24 bits)
     * \param [in] ev its entropy value (UDP source port)
     * \param [in] retransmission whether it was sent before
     */
    typedef void (*PacketSentTracedCallback)(uint32_t psn, uint16_t ev, bool retransmission);
    /**
     * TracedCallback signature for an ACK (or NACK) received.
     * \param [in] psn the PSN of the data packet it answers
     * \param [in] ev the entropy value it echoes
     * \param [in] ce the CE bit it echoes
     * \param [in] rtt the RTT sample (zero when the packet had already been acknowledged)
     */
    typedef void (*AckTracedCallback)(uint32_t psn, uint16_t ev, bool ce, Time rtt);
    /**
     * TracedCallback signature for a NACK received.
     * \param [in] psn the PSN of the data packet it reports
     * \param [in] ev the entropy value it echoes
     * \param [in] reason a RoceAckHeader::NackReason
     */
    typedef void (*NackTracedCallback)(uint32_t psn, uint16_t ev, uint8_t reason);
    /**
     * TracedCallback signature for a packet declared lost by the retransmission timer.
     * \param [in] psn its PSN
     * \param [in] ev the entropy value it was sent with
     */
    typedef void (*LossTracedCallback)(uint32_t psn, uint16_t ev);
    /**
     * TracedCallback signature for a retransmission-timer expiry.
     * \param [in] lost the number of packets it declared lost
     */
    typedef void (*TimeoutTracedCallback)(uint32_t lost);
    /**
     * TracedCallback signature for a message completed (sender) or received (receiver).
     * \param [in] id the message id (sender: as returned by PostSend(); receiver: the index
     *                of the message on this queue pair, from 0)
     * \param [in] size its size in bytes
     * \param [in] time sender: the flow completion time (PostSend() to the last ACK);
     *                  receiver: the time since the first packet of the message arrived
     */
    typedef void (*MessageTracedCallback)(uint64_t id, uint64_t size, Time time);
    /**
     * TracedCallback signature for a data packet received.
     * \param [in] psn its PSN
     * \param [in] ev the entropy value (UDP source port) it arrived with
     * \param [in] ce whether it arrived with the IPv4 CE codepoint
     * \param [in] duplicate whether it had been received before
     */
    typedef void (*DataReceivedTracedCallback)(uint32_t psn, uint16_t ev, bool ce, bool duplicate);
    /**
     * TracedCallback signature for an ACK or NACK sent by the receiver.
     * \param [in] psn the PSN of the data packet it answers
     * \param [in] ev the entropy value it echoes
     * \param [in] ce the CE bit it echoes
     * \param [in] nack whether it is a NACK
     */
    typedef void (*AckSentTracedCallback)(uint32_t psn, uint16_t ev, bool ce, bool nack);

    /**
     * Check the queue pair's attributes.
     * \return an empty string when valid, else what is wrong and what is allowed.
     */
    std::string Validate() const;

    /**
     * Connect to the remote queue pair and start (done by RdmaHelper / RdmaStack). Aborts with
     * the message of Validate() (or of the congestion controller's) when an attribute is wrong.
     * \param stack the stack of this node, which owns the queue pair
     * \param localQpn this queue pair's number
     * \param local this node's IPv4 address
     * \param remote the remote node's IPv4 address
     * \param remoteQpn the remote queue pair's number
     * \param pathSelector the path selector of the send side
     * \param cc the congestion controller of the send side
     */
    void Connect(Ptr<RdmaStack> stack,
                 uint32_t localQpn,
                 Ipv4Address local,
                 Ipv4Address remote,
                 uint32_t remoteQpn,
                 Ptr<PathSelector> pathSelector,
                 Ptr<RdmaCongestionControl> cc);

    /**
     * Post a message for sending.
     * \param size its size in bytes (a message of 0 bytes is one empty packet)
     * \param onComplete called once every packet of the message is acknowledged
     * \return the message id (0, 1, 2, ... on this queue pair)
     */
    uint64_t PostSend(uint64_t size, MessageCallback onComplete = MessageCallback());

    /**
     * \param cb called for every message received by this queue pair (id, size, time from the
     *           arrival of its first packet)
     */
    void SetReceiveCallback(MessageCallback cb);

    /// \return this queue pair's number
    uint32_t GetQpn() const;
    /// \return the remote queue pair's number
    uint32_t GetRemoteQpn() const;
    /// \return this node's address
    Ipv4Address GetLocalAddress() const;
    /// \return the remote node's address
    Ipv4Address GetRemoteAddress() const;
    /// \return the path selector of the send side
    Ptr<PathSelector> GetPathSelector() const;
    /// \return the congestion controller of the send side
    Ptr<RdmaCongestionControl> GetCongestionControl() const;
    /// \return the counters
    const RdmaQueuePairStats& GetStats() const;
    /// \return the payload bytes sent and not yet acknowledged nor declared lost
    uint64_t GetBytesInFlight() const;
    /// \return the retransmission timeout in use
    Time GetRto() const;
    /// \return the base RTT
    Time GetBaseRtt() const;
    /// \return the payload bytes per packet
    uint32_t GetMtu() const;
    /// \return whether every posted message has completed
    bool IsIdle() const;
    /// \return the credit side of receiver credits, or null when the queue pair does not use them
    Ptr<RcccSender> GetCreditSender() const;
    /**
     * \return the slow credit the receiver's pacer may give this queue pair's peer beyond its
     *         target: the MaxCredit of this end's RcccSender (both ends have the same
     *         attributes), or 0 when this end does not use credits
     */
    uint64_t GetCreditLimit() const;

    // Used by RdmaStack.

    /// \return whether a data packet may leave now (something to send, window and rate allow)
    bool CanSend() const;
    /**
     * Build the next data packet (the stack calls it when the NIC is free and CanSend()).
     * \param [out] sport its entropy value (UDP source port)
     * \return the packet (BTH, payload and ICRC), ready for UDP
     */
    Ptr<Packet> BuildNextPacket(uint16_t& sport);
    /**
     * A RoCEv2 packet for this queue pair arrived.
     * \param packet the packet, BTH removed
     * \param bth its BTH
     * \param sport its UDP source port (the entropy value)
     * \param ce whether it carried the IPv4 CE codepoint
     */
    void Receive(Ptr<Packet> packet, const RoceBthHeader& bth, uint16_t sport, bool ce);
    /// \return the cached route towards the remote node (null until found)
    Ptr<Ipv4Route> GetRoute() const;
    /// \param route the route towards the remote node
    void SetRoute(Ptr<Ipv4Route> route);
    /// \return whether the remote GPU is in this one's scale-up domain (fixed by Setup())
    bool IsScaleUpPeer() const;
    /// \return the stack's IPv4 identification counter towards the remote node (null until set)
    uint16_t* GetIpIdCounter() const;
    /// \param counter the stack's IPv4 identification counter towards the remote node
    void SetIpIdCounter(uint16_t* counter);
    /**
     * Send a PULL to the remote queue pair (the NIC's pull pacer calls it).
     * \param cumulative the credit granted to it in all, bytes on the wire
     * \param slow whether it is a slow pull
     */
    void SendPull(uint64_t cumulative, bool slow);

  protected:
    void DoDispose() override;

  private:
    /// A posted message.
    struct Message
    {
        uint64_t id{0};             //!< Id returned by PostSend().
        uint64_t size{0};           //!< Bytes.
        uint64_t unsegmented{0};    //!< Bytes not yet cut into packets.
        bool started{false};        //!< Its first packet has a PSN.
        uint64_t lastSeq{0};        //!< Sequence number of its last packet (once fully cut).
        Time posted;                //!< When PostSend() was called.
        MessageCallback onComplete; //!< Completion callback.
    };

    /// Whether new data is waiting to be cut into packets.
    bool HasNewData() const;
    /**
     * Cut the next packet of the message being segmented and append it to the send window.
     * \return its sequence number
     */
    uint64_t SegmentNext();
    /// Handle an ACK or NACK.
    void ReceiveAck(Ptr<Packet> packet, const RoceBthHeader& bth);
    /**
     * Handle a NACK, after the packets it acknowledges were marked.
     * \param ack the NACK
     * \param trigger the sequence number of the data packet it reports
     * \param cum the cumulative point it carries, unwrapped
     * \param acked the payload bytes it acknowledged
     */
    void ReceiveNack(const RoceAckHeader& ack, uint64_t trigger, uint64_t cum, uint32_t acked);
    /// Handle a data packet.
    void ReceiveData(Ptr<Packet> packet, const RoceBthHeader& bth, uint16_t ev, bool ce);
    /**
     * Place an accepted data packet, deliver what is now in order and acknowledge.
     * \param packet the packet, BTH removed
     * \param bth its BTH
     * \param seq its sequence number
     * \param ev its entropy value
     * \param ce whether it carried CE
     */
    void AcceptData(Ptr<Packet> packet,
                    const RoceBthHeader& bth,
                    uint64_t seq,
                    uint16_t ev,
                    bool ce);
    /**
     * Account a packet the receive window delivered in order; completes a message at its
     * last packet.
     * \param bytes its payload bytes
     * \param opCode its BTH opcode
     */
    void DeliverData(uint32_t bytes, uint8_t opCode);
    /// Advance the unacknowledged point and complete messages.
    void AdvanceUna();
    /// The retransmission timer fired.
    void RtoExpired();
    /// Arm the retransmission timer if it is not running.
    void ArmRto();
    /// The ACK-coalescing timer fired: acknowledge what is pending.
    void AckDelayExpired();
    /// Send an ACK or NACK for a data packet (lastHop: a TRIMMED NACK's last-hop flag).
    void SendAck(uint32_t psn,
                 uint16_t ev,
                 bool ce,
                 bool duplicate,
                 uint8_t nackReason,
                 bool lastHop = false);
    /// Send a CNP to the remote queue pair, on the plane of the marked packet's EV ev.
    void SendCnp(uint16_t ev);
    /**
     * Send a path probe with an EV (the path selector's probe hook).
     * \param ev the EV to probe
     */
    void SendProbe(uint16_t ev);
    /**
     * Handle a probe (answer it) or a probe reply (hand it to the path selector).
     * \param packet the packet, BTH removed
     * \param reply whether it is a reply
     */
    void ReceiveProbe(Ptr<Packet> packet, bool reply);
    /// Tell the stack that this queue pair may have a packet to send.
    void NotifyStack();
    /**
     * Receiver credits: a data packet spends its credit and carries the pull target.
     * \param packet the packet, payload and ICRC (the credit request is added)
     * \param bth its BTH (the C bit is set)
     * \param payloadBytes its payload
     * \return whether the credit ran out (the packet asks for an ACK)
     */
    bool SpendCredit(Ptr<Packet> packet, RoceBthHeader& bth, uint32_t payloadBytes);
    /// \return the wire bytes of a packet beyond its payload (IPv4 and up, PPP, ICRC)
    uint32_t PacketOverhead() const;
    /// \return the pull target now (receiver credits)
    uint64_t PullTargetNow() const;
    /// \return whether receiver credits hold back a packet that waits to be sent
    bool IsStuckOnCredit() const;
    /// Arm the RTS timer when stuck on credit with nothing in flight.
    void CheckStuck();
    /// Arm the RTS timer if it is not running.
    void ArmRtsTimer();
    /// The RTS timer fired.
    void RtsTimerExpired();
    /// Send an RTS, unless one left less than RtsInterval ago.
    void SendRts();
    /**
     * A PULL arrived.
     * \param packet the packet, BTH removed
     */
    void ReceivePull(Ptr<Packet> packet);
    /**
     * An RTS arrived.
     * \param packet the packet, BTH removed
     * \param ev its UDP source port
     */
    void ReceiveRts(Ptr<Packet> packet, uint16_t ev);
    /**
     * Hand a credit request of the remote queue pair to this NIC's pacer.
     * \param target its pull target
     * \param ev the EV it came with (the PULLs go back on it)
     * \param ce whether it carried CE
     * \param trimmed whether it was trimmed
     * \param lastHop whether it was trimmed at the last hop
     */
    void HandleCreditRequest(uint64_t target, uint16_t ev, bool ce, bool trimmed, bool lastHop);
    /// Pacing timer fired.
    void PaceExpired();

    // attributes
    uint32_t m_mtu;           //!< Mtu: payload bytes per packet.
    uint32_t m_receiveWindow; //!< ReceiveWindow: PSNs a receiver can place.
    Time m_baseRtt;           //!< BaseRtt.
    Time m_rtoAttr;           //!< Rto attribute (0: 5 x BaseRtt).
    Time m_minRto;            //!< MinRto attribute.
    bool m_rtoBackoff;        //!< RtoBackoff attribute.
    uint32_t m_ackEvery;      //!< AckEvery.
    uint32_t m_ackEveryBytes; //!< AckEveryBytes (0: off).
    Time m_ackDelay;          //!< AckDelay (0: off).
    bool m_goBackN;           //!< GoBackN.
    bool m_trimming;          //!< Trimming.
    uint32_t m_initialPsn;    //!< InitialPsn.
    bool m_receiverCredits;   //!< ReceiverCredits.

    // connection
    Ptr<RdmaStack> m_stack;          //!< Owner.
    Ptr<PathSelector> m_ps;          //!< Path selector.
    PathSelectorContext m_psContext; //!< What the path selector is started with.
    Ptr<RdmaCongestionControl> m_cc; //!< Congestion control.
    Ptr<Ipv4Route> m_route;          //!< Cached route towards the remote node.
    uint16_t* m_ipId{nullptr};       //!< The stack's IPv4 identification counter to the peer.
    bool m_scaleUpPeer{false};       //!< Whether the peer is in the scale-up domain.
    uint32_t m_qpn;                  //!< Local QPN.
    uint32_t m_remoteQpn;            //!< Remote QPN.
    Ipv4Address m_local;             //!< Local address.
    Ipv4Address m_remote;            //!< Remote address.
    bool m_connected;                //!< Connect() was called.
    Time m_rto;                      //!< RTO in use (m_baseRto, backed off).
    Time m_baseRto;                  //!< RTO without backoff.
    uint32_t m_backoff;              //!< Timeouts since the last progress (backoff exponent).
    DataRate m_lineRate;             //!< NIC rate.

    // receiver credits
    Ptr<RcccSender> m_credit; //!< Credit side (null: no receiver credits).
    uint64_t m_backlogWire;   //!< Wire bytes of the data not yet cut into packets.
    EventId m_rtsTimer;       //!< Sends an RTS again while stuck on credit.
    Time m_lastPull;          //!< When the last PULL arrived.
    Time m_lastRts;           //!< When the last RTS left (or a message was posted while stuck).
    uint16_t m_pullEv;        //!< EV of the last credit request received (PULLs go back on it).

    // send side
    RdmaSendWindow m_txWindow;      //!< Packets outstanding and to send again.
    std::deque<Message> m_messages; //!< Messages not yet complete.
    size_t m_segIndex;              //!< Index in m_messages of the message being cut.
    uint64_t m_nextMessageId;       //!< Id of the next posted message.
    Time m_nextSendTime;            //!< Rate pacing: earliest time of the next packet.
    uint32_t m_probeSequence;       //!< Number of the next path probe.
    EventId m_rtoEvent;             //!< Retransmission timer.
    EventId m_paceEvent;            //!< Pacing timer.

    // receive side
    RdmaReceiveWindow m_rxWindow; //!< Packets placed above the cumulative point.
    uint64_t m_rxMessageBytes;    //!< Bytes of the message being received, so far.
    uint64_t m_rxMessageId;       //!< Index of the message being received.
    Time m_rxMessageStart;        //!< Arrival of the first packet of that message.
    bool m_rxMessageStarted;      //!< A packet of that message arrived.
    uint32_t m_unacked;           //!< Data packets not acknowledged yet (coalescing).
    uint64_t m_unackedBytes;      //!< Payload bytes not acknowledged yet (coalescing).
    uint32_t m_pendingPsn;        //!< PSN of the last packet not acknowledged yet.
    uint16_t m_pendingEv;         //!< Its entropy value.
    EventId m_ackTimer;           //!< AckDelay timer.
    Time m_lastCnp;               //!< When the last CNP was sent.
    bool m_cnpSent;               //!< A CNP was sent at least once.
    MessageCallback m_onReceive;  //!< Receive callback.

    RdmaQueuePairStats m_stats; //!< Counters.

    TracedCallback<uint32_t, uint16_t, bool> m_packetSentTrace;         //!< PacketSent.
    TracedCallback<uint32_t, uint16_t, bool, Time> m_ackReceivedTrace;  //!< AckReceived.
    TracedCallback<uint32_t, uint16_t, uint8_t> m_nackReceivedTrace;    //!< NackReceived.
    TracedCallback<uint32_t, uint16_t> m_lossTrace;                     //!< PacketLost.
    TracedCallback<uint32_t> m_timeoutTrace;                            //!< Timeout.
    TracedCallback<uint64_t, uint64_t, Time> m_messageCompleteTrace;    //!< MessageComplete.
    TracedCallback<uint64_t, uint64_t, Time> m_messageReceivedTrace;    //!< MessageReceived.
    TracedCallback<uint32_t, uint16_t, bool, bool> m_dataReceivedTrace; //!< DataReceived.
    TracedCallback<uint32_t, uint16_t, bool, bool> m_ackSentTrace;      //!< AckSent.
    TracedCallback<> m_cnpReceivedTrace;                                //!< CnpReceived.
};

} // namespace ns3

#endif /* REPS_RDMA_QUEUE_PAIR_H */
