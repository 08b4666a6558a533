/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_RCCC_CONGESTION_CONTROL_H
#define REPS_RCCC_CONGESTION_CONTROL_H

#include "rdma-congestion-control.h"

namespace ns3
{

/**
 * \ingroup reps
 * RCCC alone, the receiver-credit congestion control of the Ultra Ethernet transport with no
 * sender window (the reference simulator's -receiver_cc_only; --cc=rccc): the queue pair sends
 * on the credit the receiver's pull pacer grants (RcccSender, RcccPullPacer) and on
 * speculative credit at its start, never on a window. It asks the queue pair for receiver
 * credits (UsesReceiverCredits()), whatever the queue pair's ReceiverCredits attribute says.
 * Receiver credits under a sender congestion control (NSCC and receiver credits, the
 * reference's -sender_cc -receiver_cc) are that controller with the queue pair's
 * ReceiverCredits attribute set.
 */
class RcccCongestionControl : public RdmaCongestionControl
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    RcccCongestionControl();
    ~RcccCongestionControl() override;

    std::string GetName() const override;
    bool UsesReceiverCredits() const override;

  protected:
    void DoInit() override;
};

} // namespace ns3

#endif /* REPS_RCCC_CONGESTION_CONTROL_H */
