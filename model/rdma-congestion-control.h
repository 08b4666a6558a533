/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_RDMA_CONGESTION_CONTROL_H
#define REPS_RDMA_CONGESTION_CONTROL_H

#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-value.h"

#include <cstdint>
#include <limits>
#include <string>

namespace ns3
{

/**
 * \ingroup reps
 * What a congestion controller knows of the queue pair it serves; given by the queue pair when
 * the connection starts.
 */
struct RdmaCcContext
{
    DataRate lineRate{"100Gbps"};  //!< Rate of the host's NIC.
    uint32_t mtu{4096};            //!< Payload bytes of a full packet.
    uint32_t packetBytes{4140};    //!< Bytes of a full packet on the wire (IPv4 and up).
    Time baseRtt{MicroSeconds(8)}; //!< Unloaded round-trip time of the connection.
    uint64_t bdpBytes{100000};     //!< lineRate x baseRtt, in payload bytes (at least mtu).
    bool trimming{false};          //!< The switches trim packets instead of dropping them.
    bool receiverCredits{false};   //!< The queue pair also sends on receiver credits (RCCC).
};

/**
 * \ingroup reps
 * Base class of the congestion controllers of RdmaQueuePair, chosen by TypeId (as ns-3's
 * TcpCongestionOps): the queue pair reports what happens to its packets, and reads back a
 * window (payload bytes in flight) and a sending rate.
 *
 * All byte counts given to the hooks are payload bytes, as the window is. A controller that
 * does not limit the window returns UNLIMITED from GetWindow(); one that does not pace returns
 * the line rate from GetRate().
 */
class RdmaCongestionControl : public Object
{
  public:
    /// GetWindow() of a controller that does not limit the bytes in flight.
    static constexpr uint32_t UNLIMITED = std::numeric_limits<uint32_t>::max();

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    RdmaCongestionControl();
    ~RdmaCongestionControl() override;

    /**
     * \return the short name of this controller on command lines and in results ("window",
     *         "dcqcn", "nscc", "none"); by default its TypeId name.
     */
    virtual std::string GetName() const;

    /**
     * \return whether this controller needs receiver credits (RCCC) under it: the queue pair
     *         then sends on credit whatever its ReceiverCredits attribute says. False by
     *         default; RcccCongestionControl says true.
     */
    virtual bool UsesReceiverCredits() const;

    /**
     * Check the controller's attributes against the connection.
     * \param context the connection.
     * \return an empty string when valid, else what is wrong and what is allowed.
     */
    virtual std::string Validate(const RdmaCcContext& context) const;

    /**
     * Start serving a connection; aborts with the message of Validate() when it fails.
     * \param context the connection.
     */
    void Init(const RdmaCcContext& context);

    /**
     * A data packet leaves (new or retransmitted).
     * \param wireBytes its size on the wire (IPv4 and up).
     */
    virtual void OnSend(uint32_t wireBytes);

    /**
     * An ACK came back.
     * \param ackedBytes payload bytes it newly acknowledged (0 for a duplicate).
     * \param ce the CE bit it echoes.
     * \param rtt the RTT sample of the acknowledged packet (zero when unknown).
     */
    virtual void OnAck(uint32_t ackedBytes, bool ce, Time rtt);

    /**
     * A NACK came back.
     * \param lostBytes payload bytes of the packet it reports.
     * \param lastHop whether the packet was trimmed at the receiver's last hop (congestion at
     *        the receiver's port, which receiver credits, when on, take care of).
     */
    virtual void OnNack(uint32_t lostBytes, bool lastHop);

    /**
     * A packet was declared lost by the retransmission timer.
     * \param lostBytes its payload bytes.
     */
    virtual void OnLoss(uint32_t lostBytes);

    /// The retransmission timer fired (after the OnLoss() calls of the packets it declared lost).
    virtual void OnTimeout();

    /// A congestion notification packet (CNP) arrived.
    virtual void OnCnp();

    /**
     * \return the least time between two CNPs a receiver sends to this controller's peer for
     *         CE-marked packets, or zero when this controller does not use CNPs.
     */
    virtual Time GetCnpInterval() const;

    /// \return the window: payload bytes allowed in flight, or UNLIMITED.
    uint32_t GetWindow() const;
    /// \return the sending rate.
    DataRate GetRate() const;
    /// \return the connection given to Init().
    const RdmaCcContext& GetContext() const;

    /**
     * Assign fixed random variable stream numbers to the random variables used by this model.
     * \param stream first stream index to use
     * \return the number of stream indices assigned
     */
    virtual int64_t AssignStreams(int64_t stream);

  protected:
    /// Called by Init() once the context is set: subclasses set their window and rate here.
    virtual void DoInit();

    /// \param bytes the new window (UNLIMITED or payload bytes)
    void SetWindow(uint32_t bytes);
    /// \param rate the new sending rate
    void SetRate(DataRate rate);

  private:
    RdmaCcContext m_context;      //!< The connection.
    TracedValue<uint32_t> m_cwnd; //!< Window, payload bytes.
    TracedValue<DataRate> m_rate; //!< Sending rate.
};

} // namespace ns3

#endif /* REPS_RDMA_CONGESTION_CONTROL_H */
