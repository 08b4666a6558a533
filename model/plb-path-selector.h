/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_PLB_PATH_SELECTOR_H
#define REPS_PLB_PATH_SELECTOR_H

#include "path-selector.h"

#include "ns3/nstime.h"
#include "ns3/traced-callback.h"

namespace ns3
{

/**
 * \ingroup reps
 * Protective Load Balancing (PLB, Qureshi et al., SIGCOMM 2022) as a path selector: one EV
 * per connection, as ECMP, replaced by a new random EV after CongestedRounds consecutive rounds
 * in which more than MarkThreshold of the ACKs were ECN-marked, or when the retransmission
 * timer fires (RepathOnTimeout).
 *
 * A round lasts one RTT: it starts at an ACK and ends at the first ACK at least one RTT later
 * (the RTT measured by the ACK that started it, or the base RTT when larger or unknown); the
 * ACK that ends a round is counted in it.
 *
 * EntropyChosen reports RANDOM for the first packet after a re-path and FIXED otherwise.
 */
class PlbPathSelector : public PathSelector
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    PlbPathSelector();
    ~PlbPathSelector() override;

    /**
     * TracedCallback signature for a re-path.
     * \param [in] oldEv the EV given up.
     * \param [in] newEv the new EV.
     * \param [in] timeout whether a retransmission timeout caused it (else congestion).
     */
    typedef void (*RepathTracedCallback)(uint16_t oldEv, uint16_t newEv, bool timeout);

    std::string GetName() const override;

    /// \return the connection's current EV (valid once started).
    uint16_t GetEntropy() const;
    /// \return the number of re-paths since Start().
    uint64_t GetRepathCount() const;
    /// \return the number of rounds completed since Start().
    uint64_t GetRoundCount() const;

  protected:
    uint16_t DoNextEntropy(bool retransmission, Choice& why) override;
    void DoFeedback(const Feedback& feedback) override;
    void DoTimeout() override;
    void DoStart() override;
    void DoGetCounters(Counters& counters) const override;

  private:
    /**
     * Take a new random EV (different from the current one when the space allows).
     * \param timeout whether a timeout caused it.
     */
    void Repath(bool timeout);

    uint32_t m_congestedRounds; //!< CongestedRounds attribute.
    double m_markThreshold;     //!< MarkThreshold attribute.
    bool m_repathOnTimeout;     //!< RepathOnTimeout attribute.
    uint16_t m_ev;              //!< The current EV.
    bool m_newPath;             //!< No packet was sent on the current EV yet.
    bool m_roundOpen;           //!< A round is being measured.
    Time m_roundStart;          //!< When it started.
    Time m_roundLength;         //!< How long it lasts.
    uint32_t m_roundAcks;       //!< ACKs in it.
    uint32_t m_roundMarked;     //!< ECN-marked ACKs in it.
    uint32_t m_congestedInARow; //!< Consecutive congested rounds.
    uint64_t m_repaths;         //!< Re-paths.
    uint64_t m_rounds;          //!< Rounds completed.
    TracedCallback<uint16_t, uint16_t, bool> m_repathTrace; //!< Repath trace.
};

} // namespace ns3

#endif /* REPS_PLB_PATH_SELECTOR_H */
