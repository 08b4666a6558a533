/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_MPRDMA_PATH_SELECTOR_H
#define REPS_MPRDMA_PATH_SELECTOR_H

#include "path-selector.h"

namespace ns3
{

/**
 * \ingroup reps
 * MPRDMA-style reuse of the last good EV (after the virtual-path reuse of MP-RDMA, Lu et al.,
 * NSDI 2018), reduced to its path-selection rule: an unmarked ACK makes the EV it echoes
 * pending, and the next packet sent (new data or retransmission) takes the pending EV (reason
 * RECYCLED), which is then no longer pending. An ECN-marked ACK, a NACK or a loss of the pending
 * EV, and a retransmission timeout, leave nothing pending. With nothing pending the packet
 * takes a uniformly random EV (reason RANDOM), so a marked ACK is followed by a new random EV.
 *
 * One slot: when several unmarked ACKs arrive before the next packet, the most recent one wins
 * and the others are not reused. MP-RDMA's own congestion control, its out-of-order window and
 * its per-VP synchronisation are not modelled; the transport's window decides when packets go.
 *
 * Counters for research scripts: GetPacketCount(), GetRecycledCount() (the reuse rate is
 * GetRecycledCount() / GetPacketCount()), GetMarkedAckCount().
 */
class MprdmaPathSelector : public PathSelector
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    MprdmaPathSelector();
    ~MprdmaPathSelector() override;

    std::string GetName() const override;

    /// \return whether an EV is pending (the next packet will reuse it).
    bool HasPending() const;
    /// \return the pending EV (meaningful only when HasPending()).
    uint16_t GetPending() const;
    /// \return how many packets (GetPacketCount()) reused the EV of an unmarked ACK.
    uint64_t GetRecycledCount() const;
    /// \return the number of ECN-marked ACKs since Start().
    uint64_t GetMarkedAckCount() const;

  protected:
    uint16_t DoNextEntropy(bool retransmission, Choice& why) override;
    void DoFeedback(const Feedback& feedback) override;
    void DoTimeout() override;
    void DoStart() override;
    void DoGetCounters(Counters& counters) const override;

  private:
    bool m_hasPending;   //!< An unmarked ACK's EV waits for the next packet.
    uint16_t m_pending;  //!< That EV.
    uint64_t m_recycled; //!< Of which reused a pending EV.
    uint64_t m_marked;   //!< ECN-marked ACKs.
};

} // namespace ns3

#endif /* REPS_MPRDMA_PATH_SELECTOR_H */
