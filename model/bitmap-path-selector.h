/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_BITMAP_PATH_SELECTOR_H
#define REPS_BITMAP_PATH_SELECTOR_H

#include "path-selector.h"

#include "ns3/nstime.h"
#include "ns3/random-variable-stream.h"
#include "ns3/traced-callback.h"

#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup reps
 * Bitmap/penalty spraying: a generic model of the sprayers that keep a "bitmap of bad paths"
 * (one of the comparison points of the REPS paper), not a model of any vendor's implementation.
 *
 * A fixed set of Paths distinct EVs is drawn at random when the connection starts (at the first
 * packet, feedback or GetEntropies() after Start(), so that AssignStreams() called between
 * Start() and the first packet, as helpers do, governs the set). Each EV has
 * a saturating penalty counter in [0, MaxPenalty]: an ECN-marked ACK adds EcnPenalty to the EV
 * it echoes, a NACK or a declared loss adds DropPenalty. Every DecayRtts base RTTs all
 * penalties drop by one (applied lazily, at the next call, as often as whole intervals have
 * passed). Unmarked ACKs do not clear a penalty: only time does. With MaxPenalty = 1 the
 * counters are exactly a bitmap of bad EVs whose bits are cleared each interval.
 *
 * Order chooses the rule of every packet (new data and retransmissions alike):
 * - Random (the default): an EV drawn uniformly at random among the EVs with the lowest
 *   penalty, so spraying is oblivious while nothing is penalized, and a penalized EV is avoided
 *   until its penalty has decayed to the level of the others; random rather than round-robin so
 *   that the order of the EVs cannot synchronize with other senders'.
 * - Sweep (the Ultra Ethernet simulator's bitmap): a cursor sweeps the Paths EVs in rounds, in
 *   the order index XOR a mask drawn at random each round; an EV with a penalty is skipped, and
 *   the first one skipped for a packet loses one point, so penalties last a number of the
 *   connection's own rounds rather than a time (DecayRtts is not used). Paths must be a power
 *   of two. After a whole round of penalized EVs the packet takes the one the cursor stands on.
 * EntropyChosen reports RANDOM.
 *
 * Counters for research scripts: GetPacketCount(), GetAvoidingCount() (packets sent while some
 * EVs were penalized), GetPenaltyEventCount(), GetPenalizedEntropyCount().
 */
class BitmapPathSelector : public PathSelector
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    BitmapPathSelector();
    ~BitmapPathSelector() override;

    /**
     * TracedCallback signature for a change of an EV's penalty by feedback.
     * \param [in] ev the EV penalized.
     * \param [in] penalty its penalty after the event.
     */
    typedef void (*PenaltyTracedCallback)(uint16_t ev, uint8_t penalty);

    /// How the next EV is chosen (Order attribute).
    enum Order
    {
        LEAST_PENALIZED, //!< At random among the least penalized; penalties decay with time.
        SWEEP,           //!< A permuted sweep skipping penalized EVs, each skip taking a point off.
    };

    /**
     * Check a configuration (DoValidate() of a selector with these attributes).
     * \param paths the Paths attribute.
     * \param entropySpace the EntropySpace attribute.
     * \param maxPenalty the MaxPenalty attribute.
     * \param decayRtts the DecayRtts attribute.
     * \param order the Order attribute.
     * \return an empty string if allowed, otherwise what is wrong.
     */
    static std::string CheckAttributes(uint32_t paths,
                                       uint32_t entropySpace,
                                       uint32_t maxPenalty,
                                       double decayRtts,
                                       Order order = LEAST_PENALIZED);

    std::string GetName() const override;
    int64_t AssignStreams(int64_t stream) override;

    /**
     * The connection's EVs, in the order they were drawn; drawn now if not yet (see the class
     * description).
     * \return the EVs (empty before Start()).
     */
    const std::vector<uint16_t>& GetEntropies();
    /**
     * \param ev an EV of the connection.
     * \return its current penalty (after any decay due now); 0 for an EV not in the set.
     */
    uint32_t GetPenalty(uint16_t ev);
    /// \return the number of EVs whose penalty is above zero now.
    uint32_t GetPenalizedEntropyCount();
    /// \return how many packets (GetPacketCount()) were sent while at least one EV was penalized.
    uint64_t GetAvoidingCount() const;
    /// \return the number of penalizing events (marked ACKs, NACKs, losses) since Start().
    uint64_t GetPenaltyEventCount() const;

  protected:
    uint16_t DoNextEntropy(bool retransmission, Choice& why) override;
    void DoFeedback(const Feedback& feedback) override;
    void DoStart() override;
    std::string DoValidate(const PathSelectorContext& context) const override;
    void DoGetCounters(Counters& counters) const override;
    void DoDispose() override;

  private:
    /**
     * \param ev an EV.
     * \return its index in m_evs, or -1 if it is not one of the connection's EVs.
     */
    int32_t IndexOf(uint16_t ev) const;
    /**
     * Add to the penalty of an EV.
     * \param ev the EV.
     * \param amount how much.
     */
    void Penalize(uint16_t ev, uint32_t amount);
    /// Apply the decay of every whole interval that has passed.
    void Decay();
    /**
     * Move an EV to another penalty level.
     * \param index its index in m_evs.
     * \param level its new penalty.
     */
    void SetLevel(uint32_t index, uint8_t level);
    /// Draw the set of EVs and clear the penalties.
    void DrawEntropies();
    /// \return the index of the next EV under Order = Sweep.
    uint32_t NextSweep();
    /// Move the sweep's cursor one step; a new round draws a new mask.
    void AdvanceSweep();

    /// Draw the set of EVs if it was not drawn since Start().
    void EnsureEntropies()
    {
        if (m_evs.empty())
        {
            DrawEntropies();
        }
    }

    uint32_t m_paths;                            //!< Paths attribute.
    uint32_t m_maxPenalty;                       //!< MaxPenalty attribute.
    uint32_t m_ecnPenalty;                       //!< EcnPenalty attribute.
    uint32_t m_dropPenalty;                      //!< DropPenalty attribute.
    double m_decayRtts;                          //!< DecayRtts attribute.
    Order m_order;                               //!< Order attribute.
    uint32_t m_cursor;                           //!< Sweep: position in the round.
    uint32_t m_mask;                             //!< Sweep: this round's XOR mask.
    Time m_decayInterval;                        //!< DecayRtts base RTTs.
    Time m_lastDecay;                            //!< Start of the current decay interval.
    std::vector<uint16_t> m_evs;                 //!< The EVs.
    std::vector<uint8_t> m_penalty;              //!< Penalty of each EV (by index).
    std::vector<uint32_t> m_slot;                //!< Position of each EV in its level's bucket.
    std::vector<std::vector<uint32_t>> m_levels; //!< Indices of the EVs at each penalty.
    std::vector<std::pair<uint16_t, uint32_t>> m_sorted; //!< (EV, index), sorted by EV.
    uint32_t m_penalized;                                //!< EVs whose penalty is above zero.
    uint64_t m_avoiding;               //!< Of which sent while some EV was penalized.
    uint64_t m_events;                 //!< Penalizing events.
    Ptr<UniformRandomVariable> m_pick; //!< Chooses among the least penalized EVs.
    TracedCallback<uint16_t, uint8_t> m_penaltyTrace; //!< Penalty trace.
};

} // namespace ns3

#endif /* REPS_BITMAP_PATH_SELECTOR_H */
