/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_RCCC_PULL_PACER_H
#define REPS_RCCC_PULL_PACER_H

#include "rccc-oversubscription-core.h"
#include "rccc-pacer-core.h"

#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/random-variable-stream.h"
#include "ns3/traced-callback.h"
#include "ns3/traced-value.h"

#include <memory>
#include <string>

namespace ns3
{

class RdmaStack;
class RdmaQueuePair;

/**
 * \ingroup reps
 * Counters of an RcccPullPacer.
 */
struct RcccPullPacerStats
{
    uint64_t pulls{0};        //!< PULLs sent.
    uint64_t slowPulls{0};    //!< Of those, slow pulls (to idle senders).
    uint64_t emptyPulls{0};   //!< Of those, PULLs that granted nothing new.
    uint64_t bytesGranted{0}; //!< Credit granted in all, bytes on the wire.
    uint64_t requeues{0};     //!< Senders put back in the active queue (trims, RTS).
    uint64_t rateChanges{0};  //!< Oversubscription-control updates that changed the rate.
};

/**
 * \ingroup reps
 * The receiver's side of RCCC, receiver credits (see the manual, chapter "UEC transport",
 * section "RCCC"): one pull pacer per NIC, owned by the node's RdmaStack (made when a queue
 * pair of the node first uses receiver credits, with this TypeId's attributes as defaults:
 * Config::SetDefault, or --ns3::RcccPullPacer::CreditBytes=... on a command line).
 *
 * Every data packet, trimmed header and RTS of a sender on credit carries its pull target; the
 * pacer keeps the senders that want credit in an active queue and, at just under the NIC's
 * rate (PullRateFraction of the sum of its ports' rates), sends PULLs of CreditBytes to them
 * in turn, never beyond what each asked for. A sender whose demand is met moves to an idle
 * queue, where it gets slow pulls when no sender is active, up to its MaxCredit (RcccSender)
 * beyond its target. A trimmed packet or an RTS puts its sender back in the active queue. The
 * queue rules are RcccPacerCore's.
 *
 * Oversubscription control (OversubscriptionControl, off by default): every control interval
 * (1.5 ControlRtt, drawn uniformly in [0.75, 1.25] of that), the smoothed ECN fraction of the
 * data that arrived and the trims inside the fabric scale the pull rate down, and it grows
 * back otherwise (RcccOversubscriptionCore). The loop rests after an interval without a
 * packet once the rate is back to the full rate, and starts again with the next packet.
 */
class RcccPullPacer : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    RcccPullPacer();
    ~RcccPullPacer() override;

    /**
     * TracedCallback signature of PullSent.
     * \param qpn the receiving queue pair the PULL is for (its sender is that QP's peer)
     * \param granted the credit it adds, bytes
     * \param cumulative the credit granted to that queue pair in all, bytes
     * \param slow whether it is a slow pull
     */
    typedef void (*PullTracedCallback)(uint32_t qpn,
                                       uint32_t granted,
                                       uint64_t cumulative,
                                       bool slow);

    /**
     * Check the attributes.
     * \return an empty string when valid, else what is wrong and what is allowed
     */
    std::string Validate() const;

    /**
     * Serve a NIC (done by RdmaStack); aborts with the message of Validate() when it fails.
     * \param stack the node's stack
     */
    void Setup(Ptr<RdmaStack> stack);

    /**
     * A packet of a sender on credit arrived with a pull target.
     * \param qp the receiving queue pair
     * \param target the cumulative pull target, bytes
     */
    void OnPullTarget(RdmaQueuePair* qp, uint64_t target);

    /**
     * A trimmed packet (its sender must resend) or an RTS arrived: the sender is put back in
     * the active queue.
     * \param qp the receiving queue pair
     */
    void Requeue(RdmaQueuePair* qp);

    /**
     * A packet of a sender on credit reached the NIC (what the oversubscription control
     * counts; nothing when it is off).
     * \param ce whether it carried an ECN mark
     * \param trimmed whether it was trimmed
     * \param lastHop whether it was trimmed at the last hop
     */
    void OnPacket(bool ce, bool trimmed, bool lastHop);

    /// \return the rate at which credit is granted now (rate factor included)
    DataRate GetPullRate() const;
    /// \return the oversubscription control's rate factor (1 when it is off)
    double GetRateFactor() const;
    /// \return the counters
    const RcccPullPacerStats& GetStats() const;
    /// \return the credit granted to a receiving queue pair's sender in all, bytes
    uint64_t GetGranted(uint32_t qpn) const;
    /// \return the queue rules (valid after Setup())
    const RcccPacerCore& GetCore() const;

    /**
     * Assign fixed random variable stream numbers to the random variables used by this model.
     * \param stream first stream index to use
     * \return the number of stream indices assigned
     */
    int64_t AssignStreams(int64_t stream);

  protected:
    void DoDispose() override;

  private:
    /// The pacer was idle and has a sender to pull: run a turn now.
    void Wake();
    /// A turn: send the next PULL and schedule the next turn.
    void Turn();
    /// Start the oversubscription control loop if it rests.
    void StartControl();
    /// The end of a control interval.
    void Control();
    /// \return the next control interval
    Time NextInterval();
    /// \param qp a receiving queue pair \return the slow credit its sender may hold
    int64_t SlowLimitOf(RdmaQueuePair* qp) const;

    uint32_t m_creditBytes;    //!< CreditBytes attribute.
    double m_rateFraction;     //!< PullRateFraction attribute.
    uint32_t m_emptyPull;      //!< EmptyPullBytes attribute.
    bool m_control;            //!< OversubscriptionControl attribute.
    double m_targetCongestion; //!< TargetCongestion attribute.
    double m_increase;         //!< IncreaseStep attribute.
    double m_decrease;         //!< DecreaseFactor attribute.
    double m_ecnWeight;        //!< EcnWeight attribute.
    double m_minRate;          //!< MinRate attribute.
    Time m_controlRtt;         //!< ControlRtt attribute (0: the largest BaseRtt of the node).

    RdmaStack* m_stack{nullptr};                    //!< The node's stack (owns this).
    DataRate m_rate;                                //!< Rate of the NIC (all ports).
    std::unique_ptr<RcccPacerCore> m_core;          //!< Queue rules.
    std::unique_ptr<RcccOversubscriptionCore> m_os; //!< Oversubscription control.
    Ptr<UniformRandomVariable> m_jitter;            //!< Control interval draws.
    double m_dueNs{0};                              //!< Time of the next turn, ns.
    EventId m_turn;                                 //!< The next turn.
    EventId m_controlEvent;                         //!< The next control update.
    Time m_rtt;                                     //!< ControlRtt in use.
    RcccPullPacerStats m_stats;                     //!< Counters.
    TracedValue<double> m_rateFactor;               //!< RateFactor trace.
    TracedCallback<uint32_t, uint32_t, uint64_t, bool> m_pullTrace; //!< PullSent trace.
};

} // namespace ns3

#endif /* REPS_RCCC_PULL_PACER_H */
