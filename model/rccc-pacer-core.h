/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_RCCC_PACER_CORE_H
#define REPS_RCCC_PACER_CORE_H

#include <cstdint>
#include <deque>
#include <vector>

/**
 * \file
 * \ingroup reps
 * The pull pacer of RCCC (the Ultra Ethernet receiver-credit congestion control) for one
 * receiving NIC, as a plain C++ type: no simulator, no randomness. Byte counts are bytes on
 * the wire; the gap between two PULLs is returned in nanoseconds (fractional, so that the
 * caller's clock does not drift by rounding). RcccPullPacer adapts it to RdmaStack.
 */

namespace ns3
{

/**
 * \ingroup reps
 * The configuration of a pull pacer, as RcccPullPacer's attributes give it.
 */
struct RcccPacerParameters
{
    int64_t creditBytes{16384};   //!< Credit one PULL grants (4 MSS of 4096 bytes).
    double rateBps{400e9};        //!< Rate of the receiving NIC, bit/s.
    double rateFraction{0.99};    //!< PULLs grant credit at this fraction of the rate.
    int64_t emptyPullBytes{1024}; //!< Pacing time a PULL that grants nothing takes, in bytes.
};

/**
 * \ingroup reps
 * One pull pacer (see the manual, chapter "UEC transport", section "RCCC"): the connections
 * (sinks: the receiving queue pairs, by number) that want credit wait in an active queue, the
 * ones whose demand is met in an idle queue. Each turn the pacer takes the first active sink
 * and grants it up to creditBytes, never beyond the target it asked for; a sink still short
 * goes to the back, one that is satisfied moves to the idle queue. When no sink is active, the
 * first idle sink gets a slow pull of creditBytes whatever it asked for (credit for its next
 * message), until it holds slowLimit beyond its target (a sink that already holds that much
 * does not join the idle queue). The next turn comes after the time
 * the credit granted takes at rateFraction of the NIC's rate (scaled by a rate factor, the
 * oversubscription control's), or emptyPullBytes' time when nothing was granted. A sink is in
 * at most one queue. Counts are cumulative (a lost PULL is made up by the next one).
 */
class RcccPacerCore
{
  public:
    /// One PULL to send.
    struct Pull
    {
        uint32_t sink{0};      //!< The sink it is for.
        int64_t cumulative{0}; //!< Credit granted to that sink in all, bytes.
        int64_t granted{0};    //!< Credit this PULL adds, bytes.
        bool slow{false};      //!< A slow pull (to an idle sink).
    };

    /// \param p the configuration (not checked here: RcccPullPacer does)
    explicit RcccPacerCore(const RcccPacerParameters& p);

    /**
     * A data packet, trimmed header or RTS carried a sink's cumulative pull target.
     * \param sink the sink (a number below 2^24)
     * \param target the target, bytes
     * \param slowLimit the slow credit the sink may hold beyond its target, bytes
     * \return whether the pacer was idle and must run now (then it counts as running)
     */
    bool OnPullTarget(uint32_t sink, int64_t target, int64_t slowLimit);

    /**
     * A sink's sender must be heard again: a trimmed packet (a NACK makes it resend) or an
     * RTS; the sink joins the active queue if it is not in it.
     * \param sink the sink
     * \param slowLimit as for OnPullTarget()
     * \return whether the pacer was idle and must run now
     */
    bool Requeue(uint32_t sink, int64_t slowLimit);

    /**
     * The pacer's turn: the next PULL.
     * \param [out] pull the PULL to send
     * \return false when no sink waits (the pacer stops running until woken)
     */
    bool Next(Pull& pull);

    /**
     * \param grantedBytes credit a PULL granted
     * \return the time until the next turn, ns
     */
    double GapNs(int64_t grantedBytes) const;

    /// \param factor the rate factor, in (0, 1] (the oversubscription control's)
    void SetRateFactor(double factor);
    /// \return the rate factor
    double GetRateFactor() const;

    /// \return whether the pacer is running (a turn is due)
    bool IsRunning() const;
    /// \return the number of sinks in the active queue
    uint32_t GetNActive() const;
    /// \return the number of sinks in the idle queue
    uint32_t GetNIdle() const;
    /// \param sink a sink \return its target less the credit granted (0 when met)
    int64_t GetBacklog(uint32_t sink) const;
    /// \param sink a sink \return the credit granted beyond its target (slow pulls)
    int64_t GetSlowCredit(uint32_t sink) const;
    /// \param sink a sink \return the credit granted to it in all
    int64_t GetGranted(uint32_t sink) const;
    /// \param sink a sink \return the highest target it asked for
    int64_t GetTarget(uint32_t sink) const;

  private:
    /// What the pacer knows of one sink.
    struct Sink
    {
        int64_t target{0};    //!< Highest target asked for.
        int64_t granted{0};   //!< Credit granted in all.
        int64_t slowLimit{0}; //!< Most slow credit beyond the target.
        bool known{false};    //!< Seen at all.
        bool active{false};   //!< In the active queue.
        bool idle{false};     //!< In the idle queue.
    };

    /// \param sink a sink \return its state (created when first seen)
    Sink& At(uint32_t sink);
    /// Put a sink at the back of the active queue (out of the idle queue).
    bool Activate(uint32_t sink);

    RcccPacerParameters m_p;       //!< Configuration.
    double m_factor{1.0};          //!< Rate factor.
    bool m_running{false};         //!< A turn is due.
    std::vector<Sink> m_sinks;     //!< Per sink, by number.
    std::deque<uint32_t> m_active; //!< Sinks that want credit, in turn order.
    std::deque<uint32_t> m_idle;   //!< Sinks whose demand is met, in turn order.
};

} // namespace ns3

#endif /* REPS_RCCC_PACER_CORE_H */
