/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_FLOWLET_PATH_SELECTOR_H
#define REPS_FLOWLET_PATH_SELECTOR_H

#include "path-selector.h"

#include "ns3/nstime.h"

namespace ns3
{

/**
 * \ingroup reps
 * Flowlet switching at the sender: packets sent close together keep the EV of their flowlet;
 * a packet sent after an idle gap longer than FlowletTimeout starts a new flowlet with a new
 * random EV, but the EV changes at most once per retransmission timeout (RTO) of the
 * connection. The first packet draws the connection's first EV; that draw counts as a change
 * for the once-per-RTO limit.
 *
 * EntropyChosen reports RANDOM for the first packet of a flowlet and FIXED for the others.
 * Gaps are measured in simulated time between consecutive calls of NextEntropy().
 */
class FlowletPathSelector : public PathSelector
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    FlowletPathSelector();
    ~FlowletPathSelector() override;

    std::string GetName() const override;

    /// \return the idle gap that starts a new flowlet (valid once started).
    Time GetFlowletTimeout() const;
    /// \return the number of flowlets so far, the first one included.
    uint64_t GetFlowletCount() const;
    /// \return the number of idle gaps that did not change the EV because of the RTO limit.
    uint64_t GetSuppressedCount() const;

  protected:
    uint16_t DoNextEntropy(bool retransmission, Choice& why) override;
    void DoStart() override;
    void DoGetCounters(Counters& counters) const override;

  private:
    Time m_timeoutAttribute; //!< FlowletTimeout attribute (zero: half the base RTT).
    Time m_timeout;          //!< The gap in use.
    uint16_t m_ev;           //!< EV of the current flowlet.
    bool m_sent;             //!< A packet was sent since Start().
    Time m_lastSend;         //!< When the last packet was sent.
    Time m_lastChange;       //!< When the EV last changed.
    uint64_t m_flowlets;     //!< Flowlets so far.
    uint64_t m_suppressed;   //!< Gaps ignored because of the RTO limit.
};

} // namespace ns3

#endif /* REPS_FLOWLET_PATH_SELECTOR_H */
