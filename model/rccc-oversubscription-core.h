/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_RCCC_OVERSUBSCRIPTION_CORE_H
#define REPS_RCCC_OVERSUBSCRIPTION_CORE_H

#include <cstdint>

/**
 * \file
 * \ingroup reps
 * The receiver-side oversubscription control of RCCC for one pull pacer, as a plain C++ type:
 * no simulator, no randomness (the caller draws the control intervals). RcccPullPacer drives
 * it and applies its rate to the pacer.
 */

namespace ns3
{

/**
 * \ingroup reps
 * The constants of the oversubscription control, as RcccPullPacer's attributes give them (the
 * defaults are those of the UEC's reference simulator).
 */
struct RcccOversubscriptionParameters
{
    double targetCongestion{0.3}; //!< Smoothed ECN fraction above which the rate is cut.
    double increase{0.01};        //!< Additive increase per interval, fraction of line rate.
    double decrease{0.5};         //!< Gain of the cut: rate x= 1 - (g - target) x decrease.
    double ecnWeight{0.5};        //!< Weight of an interval's ECN fraction in g.
    double minRate{0.01};         //!< Least rate factor.
};

/**
 * \ingroup reps
 * Oversubscription control (see the manual, chapter "UEC transport", section "RCCC"): when the
 * fabric's core, not the receiver's port, is the bottleneck, pulling at line rate builds
 * queues there. Per control interval it counts the packets that reached the receiver, those
 * ECN-marked and those trimmed (at the receiver's last hop, or inside the fabric); g is an
 * EWMA of the marked fraction of the untrimmed packets. Trims inside the fabric cut the rate by
 * their share of the packets, a g above the target cuts it by (g - target) x decrease; with no
 * cut the rate grows by increase x 2^n (n: intervals in a row without a cut) when no packet was
 * marked, by increase when some were. The rate stays in [minRate, 1].
 */
class RcccOversubscriptionCore
{
  public:
    /// \param p the constants (not checked here: RcccPullPacer does)
    explicit RcccOversubscriptionCore(const RcccOversubscriptionParameters& p);

    /**
     * A packet reached the receiver (data, trimmed header or RTS).
     * \param ce whether it carried an ECN mark (counted for untrimmed data only)
     * \param trimmed whether it was trimmed
     * \param lastHop whether it was trimmed at the receiver's last hop
     */
    void OnPacket(bool ce, bool trimmed, bool lastHop);

    /**
     * The end of a control interval: update g and the rate from what arrived since the last.
     * \return the new rate factor
     */
    double Update();

    /// \return the rate factor, in [minRate, 1]
    double GetRate() const;
    /// \return the smoothed ECN fraction g
    double GetMarkedFraction() const;
    /// \return the intervals in a row without a cut (the exponent of the increase)
    uint32_t GetIncreaseCount() const;
    /// \return the packets counted in the current interval
    uint64_t GetPending() const;

  private:
    RcccOversubscriptionParameters m_p; //!< Constants.
    double m_rate{1.0};                 //!< Rate factor.
    double m_g{0.0};                    //!< Smoothed ECN fraction.
    uint32_t m_increases{0};            //!< Intervals without a cut in a row.
    uint64_t m_packets{0};              //!< Packets this interval.
    uint64_t m_ecn{0};                  //!< ECN-marked data packets this interval.
    uint64_t m_trimmedLastHop{0};       //!< Trimmed at the last hop this interval.
    uint64_t m_trimmedOther{0};         //!< Trimmed inside the fabric this interval.
};

} // namespace ns3

#endif /* REPS_RCCC_OVERSUBSCRIPTION_CORE_H */
