/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_REPS_PATH_SELECTOR_H
#define REPS_REPS_PATH_SELECTOR_H

#include "path-selector.h"

#include "ns3/nstime.h"
#include "ns3/traced-callback.h"
#include "ns3/traced-value.h"

#include <array>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <utility>

namespace ns3
{

class RepsCoreHolder;

/**
 * \ingroup reps
 * Recycled Entropy Packet Spraying (REPS, Bonato et al., EuroSys 2026): EVs whose ACKs come
 * back without an ECN mark are cached in a small circular buffer and reused, oldest first; an
 * empty buffer means a random EV. A retransmission timeout that counts as a failure signal
 * freezes the connection for FreezeDuration: it then reuses only the EVs it had cached,
 * round-robin, so that new packets stay away from a failed path. The first feedback (ACK, NACK
 * or timeout) after the freeze time ends freezing, clears the buffer and starts an exploration
 * window of one BDP of packets with random EVs.
 *
 * The algorithm itself is RepsCore (a plain C++ type); this Object adds the attributes, the
 * trace sources, the random stream and simulated time.
 *
 * Failure signal: with packet trimming in the network (PathSelectorContext::trimming) every
 * timeout; without, a timeout only when the largest recent RTT is below RttThresholdFactor x
 * base RTT (the loss was not congestion). The recent maximum is kept over windows of
 * MaxRttWindow (RttWindow attribute): sliding (the default) forgets samples older than the
 * window; tumbling, as in the REPS authors' simulator, keeps the maximum of the current window
 * until an ACK arrives after its end, so a connection that has heard nothing since a congested
 * RTT still remembers it. No RTT sample at all counts as a low RTT.
 *
 * Counters for research scripts: GetFreezeCount(), GetFailureSignalCount(), and those of every
 * selector (GetChoiceCount() per reason, e.g. the recycled-EV hit rate is
 * (RECYCLED + FROZEN) / GetPacketCount()); GetCounters() adds "freezes" and "failure-signals".
 */
class RepsPathSelector : public PathSelector
{
  public:
    /// Which packets of an exploration window get a random EV (ExplorationVariant attribute).
    enum ExplorationVariant
    {
        EXPLORE_ALL_RANDOM = 0,   //!< Every packet of the window (the paper's description).
        EXPLORE_EVERY_EIGHTH = 1, //!< Every 8th packet; the others reuse cached EVs.
    };

    /// How the recent maximum RTT of the failure rule is kept (RttWindow attribute).
    enum RttWindow
    {
        RTT_WINDOW_TUMBLING = 0, //!< Since the window began; it ends at the first ACK after it.
        RTT_WINDOW_SLIDING = 1,  //!< Over the samples of the last MaxRttWindow.
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    RepsPathSelector();
    ~RepsPathSelector() override;

    /**
     * TracedCallback signature for an EV that enters or leaves the cache.
     * \param [in] ev the entropy value.
     */
    typedef void (*EntropyTracedCallback)(uint16_t ev);

    /**
     * TracedCallback signature for FreezeStarted and FreezeEnded.
     * \param [in] time for FreezeStarted the time at which freezing may end; for FreezeEnded
     *             how long the connection was frozen (at least FreezeDuration, as the exit
     *             waits for an ACK).
     */
    typedef void (*FreezeTracedCallback)(Time time);

    std::string GetName() const override;

    /**
     * Check a configuration (DoValidate() of a selector with these attributes).
     * \param bufferSize the BufferSize attribute.
     * \param freezeDuration the FreezeDuration attribute.
     * \param rttThresholdFactor the RttThresholdFactor attribute.
     * \param maxRttWindow the MaxRttWindow attribute.
     * \return an empty string if the values are allowed, otherwise what is wrong.
     */
    static std::string CheckAttributes(uint32_t bufferSize,
                                       Time freezeDuration,
                                       double rttThresholdFactor,
                                       Time maxRttWindow);

    /// \return whether the connection is frozen (the exit is checked on the next ACK).
    bool IsFrozen() const;
    /// \return the number of valid cached EVs.
    uint32_t GetValidCount() const;
    /// \return the number of packets left in the exploration window.
    uint32_t GetExplorationCounter() const;
    /// \return how many times freezing was entered since Start().
    uint64_t GetFreezeCount() const;
    /// \return how many of those timeouts counted as a failure signal.
    uint64_t GetFailureSignalCount() const;
    /// \return the largest RTT measured within MaxRttWindow of now (zero if none).
    Time GetMaxRecentRtt();
    /// \return the window over which the recent maximum RTT is taken (valid once started).
    Time GetMaxRttWindow() const;

  protected:
    uint16_t DoNextEntropy(bool retransmission, Choice& why) override;
    void DoFeedback(const Feedback& feedback) override;
    void DoTimeout() override;
    void DoStart() override;
    std::string DoValidate(const PathSelectorContext& context) const override;
    void DoGetCounters(Counters& counters) const override;
    void DoDispose() override;

  private:
    /**
     * An ACK came back: record its RTT sample, cache or forget its EV.
     * \param ev the EV it echoes.
     * \param ecn its CE bit.
     * \param rtt its RTT sample (zero when unknown).
     */
    void Ack(uint16_t ev, bool ecn, Time rtt);

    /// \return the number of packets of an exploration window (one BDP, capped at 65535).
    uint32_t ExplorePackets() const;
    /// Update BufferOccupancy from the core.
    void UpdateOccupancy();
    /// \return the time to hand the core: now, or the freeze end once it has passed.
    Time CoreNow() const;
    /// Fire FreezeEnded for a freeze that has just ended.
    void NotifyFreezeEnded();

    uint32_t m_bufferSize;                  //!< BufferSize attribute.
    Time m_freezeDuration;                  //!< FreezeDuration attribute.
    bool m_freezingEnabled;                 //!< FreezingEnabled attribute.
    ExplorationVariant m_variant;           //!< ExplorationVariant attribute.
    double m_rttThresholdFactor;            //!< RttThresholdFactor attribute.
    Time m_maxRttWindowAttribute;           //!< MaxRttWindow attribute (zero: 2 RTOs).
    RttWindow m_rttWindow;                  //!< RttWindow attribute.
    Time m_maxRttWindow;                    //!< The window in use.
    std::unique_ptr<RepsCoreHolder> m_core; //!< The algorithm, for BufferSize slots.
    Time m_freezeStart;                     //!< When freezing was last entered.
    Time m_freezeEnd; //!< When it may end (full-width copy of the core's tick).
    std::deque<std::pair<Time, Time>> m_rtts;    //!< (when, RTT), decreasing RTTs: windowed max.
    Time m_windowMax;                            //!< Tumbling window: its maximum RTT so far.
    Time m_windowEnd;                            //!< Tumbling window: when it ends.
    uint64_t m_freezes;                          //!< Freezes entered.
    uint64_t m_failureSignals;                   //!< Timeouts that counted.
    TracedCallback<uint16_t> m_entropyCached;    //!< EntropyCached trace.
    TracedCallback<uint16_t> m_entropyDiscarded; //!< EntropyDiscarded trace.
    TracedCallback<Time> m_freezeStarted;        //!< FreezeStarted trace.
    TracedCallback<Time> m_freezeEnded;          //!< FreezeEnded trace.
    TracedValue<uint32_t> m_occupancy;           //!< BufferOccupancy trace.
};

} // namespace ns3

#endif /* REPS_REPS_PATH_SELECTOR_H */
