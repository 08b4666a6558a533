/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_RDMA_WINDOW_CONGESTION_CONTROL_H
#define REPS_RDMA_WINDOW_CONGESTION_CONTROL_H

#include "rdma-congestion-control.h"

namespace ns3
{

/**
 * \ingroup reps
 * The window-based ECN controller of the REPS evaluation (DCTCP-like, per ACK), in payload
 * bytes:
 * - unmarked ACK: cwnd += acked * Mtu / cwnd (about one Mtu per RTT), at most the maximum
 *   window;
 * - ECN-marked ACK: cwnd -= acked / 4;
 * - NACK, or a packet declared lost by the retransmission timer: cwnd -= its size;
 * - never below one Mtu.
 *
 * The initial and maximum windows are given in bandwidth-delay products of the connection.
 * The window is kept as a real number so that increases smaller than a byte accumulate; the
 * CongestionWindow trace reports it rounded down.
 */
class RdmaWindowCongestionControl : public RdmaCongestionControl
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    RdmaWindowCongestionControl();
    ~RdmaWindowCongestionControl() override;

    std::string GetName() const override;

    std::string Validate(const RdmaCcContext& context) const override;
    void OnAck(uint32_t ackedBytes, bool ce, Time rtt) override;
    void OnNack(uint32_t lostBytes, bool lastHop) override;
    void OnLoss(uint32_t lostBytes) override;

    /// \return the window as the controller holds it (payload bytes, fractional)
    double GetExactWindow() const;
    /// \return the largest window (payload bytes)
    double GetMaxWindow() const;

  protected:
    void DoInit() override;

  private:
    /// \param cwnd new window, clamped to [Mtu, max window]
    void Update(double cwnd);

    double m_initialBdp; //!< InitialWindow attribute, in BDPs.
    double m_maxBdp;     //!< MaxWindow attribute, in BDPs.
    double m_cwnd;       //!< Window, payload bytes.
    double m_maxCwnd;    //!< Largest window, payload bytes.
};

} // namespace ns3

#endif /* REPS_RDMA_WINDOW_CONGESTION_CONTROL_H */
