/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_MRC_PATH_SELECTOR_H
#define REPS_MRC_PATH_SELECTOR_H

#include "path-selector.h"

#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/traced-callback.h"

#include <array>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace ns3
{

/**
 * \ingroup reps
 * An MRC-style multipath selector (after the Multipath Reliable Connection extension of
 * RoCEv2): every packet of the queue pair is sprayed over a per-connection set of PathCount
 * EVs, spread evenly over the network planes, and every EV ("path") has a state:
 *
 * - GOOD: used for data, round robin over the set (in plane-interleaved order, so the planes
 *   get equal shares).
 * - SKIP: EcnThreshold consecutive congestion signals (ECN-marked ACKs, or NACKs of trimmed
 *   packets: a trimmed header crossed the path, so it works but is congested) while GOOD. Not
 *   used for SkipTime, then GOOD again. Used only when no path is GOOD.
 * - ASSUMED_BAD: LossThreshold packets sent on it were declared lost since its last unmarked
 *   ACK. Not used for data (unless every path is ASSUMED_BAD); probed every ProbeInterval. A
 *   probe reply makes it GOOD again; an unmarked ACK of a packet sent before does not.
 * - DENIED: ProbeFailThreshold probes in a row went unanswered. The EV is retired for the
 *   rest of the connection and its slot gets a fresh EV of the same plane, drawn from the
 *   entropy space, which starts ASSUMED_BAD: it carries data only after a probe proved it
 *   (the PathReplaced trace reports the swap).
 *
 * A retransmission avoids every path with a loss since its last unmarked ACK, so it never
 * leaves on the path that lost the packet while another one is usable.
 *
 * A whole plane (PlaneLossThreshold, fabrics of more than one plane): when that many paths of
 * one plane became ASSUMED_BAD with no sign of life from the plane in between (an ACK, marked
 * or not, a trim NACK or a probe reply from any of its paths), the
 * plane is suspected and every GOOD or SKIP path of it becomes ASSUMED_BAD at once (each is
 * probed and comes back on its own reply; the PlaneSuspected trace reports it). A NIC learns
 * of a dead port from its link state; this rule covers a plane that dies beyond the first hop,
 * which otherwise costs one timeout per path of the plane.
 *
 * Probes are sent through the queue pair's probe hook (PathSelector::SetProbeCallback();
 * RdmaQueuePair sends a PROBE packet, see RoceProbeHeader). Probing runs while the connection
 * sends: a probe round is skipped when no packet left since the previous one, and the next
 * packet restarts it, so an idle connection leaves no events behind.
 */
class MrcPathSelector : public PathSelector
{
  public:
    /// The state of one path (one EV of the set).
    enum PathState : uint8_t
    {
        GOOD = 0,        //!< Used for data.
        SKIP = 1,        //!< Congested: avoided for SkipTime.
        ASSUMED_BAD = 2, //!< Lost packets: not used for data, probed.
        DENIED = 3,      //!< Probes failed: retired and replaced.
    };

    /// Number of PathState values.
    static constexpr uint32_t N_STATES = 4;

    /// One path of the set.
    struct Path
    {
        uint16_t ev{0};               //!< Its EV.
        PathState state{GOOD};        //!< Its state.
        uint32_t marks{0};            //!< Consecutive congestion signals while GOOD.
        uint32_t losses{0};           //!< Losses since its last unmarked ACK.
        uint32_t probeFailures{0};    //!< Consecutive unanswered probes while ASSUMED_BAD.
        bool probeOutstanding{false}; //!< A probe was sent and not answered yet.
        Time probeSentAt;             //!< When that probe was sent.
        Time skipUntil;               //!< SKIP: when it may be used again.
    };

    /**
     * TracedCallback signature for a path's state change.
     * \param [in] ev the path's EV.
     * \param [in] from the old state.
     * \param [in] to the new state.
     */
    typedef void (*PathStateChangedTracedCallback)(uint16_t ev, PathState from, PathState to);

    /**
     * TracedCallback signature for a denied EV replaced by a fresh one.
     * \param [in] denied the retired EV.
     * \param [in] fresh the EV that takes its slot (ASSUMED_BAD until a probe answers).
     */
    typedef void (*PathReplacedTracedCallback)(uint16_t denied, uint16_t fresh);

    /**
     * TracedCallback signature for a suspected plane.
     * \param [in] plane the plane whose paths all became ASSUMED_BAD.
     */
    typedef void (*PlaneSuspectedTracedCallback)(uint32_t plane);

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    MrcPathSelector();
    ~MrcPathSelector() override;

    std::string GetName() const override;

    /**
     * Check a configuration (DoValidate() of a selector with these attributes).
     * \param pathCount the PathCount attribute.
     * \param entropySpace the EntropySpace attribute.
     * \param entropyBase the EntropyBase attribute.
     * \param planes the number of planes of the connection.
     * \return an empty string if allowed, otherwise what is wrong and what is allowed.
     */
    static std::string CheckAttributes(uint32_t pathCount,
                                       uint32_t entropySpace,
                                       uint32_t entropyBase,
                                       uint32_t planes);

    /**
     * \param state a state.
     * \return its name ("good", "skip", "assumed-bad", "denied").
     */
    static std::string StateName(PathState state);

    /// \return the paths, in the order data uses them (valid once started).
    const std::vector<Path>& GetPaths() const;

    /**
     * \param ev an EV.
     * \param [out] state the state of its path.
     * \return whether \p ev is in the set (a retired EV reports DENIED and returns true).
     */
    bool GetState(uint16_t ev, PathState& state) const;

    /**
     * \param state a state (DENIED: the EVs retired since Start()).
     * \return how many paths are in it.
     */
    uint32_t CountPaths(PathState state) const;

    /// \return the skip time in use (SkipTime, or 2 base RTTs when 0).
    Time GetSkipTime() const;
    /// \return the probe interval in use (ProbeInterval, or the RTO when 0).
    Time GetProbeInterval() const;

  protected:
    void DoDispose() override;
    uint16_t DoNextEntropy(bool retransmission, Choice& why) override;
    void DoFeedback(const Feedback& feedback) override;
    void DoStart() override;
    std::string DoValidate(const PathSelectorContext& context) const override;
    void DoProbeReply(uint16_t ev, Time rtt) override;
    void DoGetCounters(Counters& counters) const override;

  private:
    /**
     * Move a path to another state (resets the counters the new state starts from) and fire
     * the trace.
     * \param path the path.
     * \param to its new state.
     */
    void SetState(Path& path, PathState to);
    /**
     * Count a path of a plane that became ASSUMED_BAD, and suspect the plane at the threshold.
     * \param ev the path's EV.
     */
    void PlaneLoss(uint16_t ev);
    /**
     * Make a path ASSUMED_BAD and send its first probe.
     * \param path the path.
     */
    void AssumeBad(Path& path);
    /**
     * Send a probe on a path through the probe hook and note it outstanding.
     * \param path the path.
     */
    void Probe(Path& path);
    /// Schedule the next probe round unless one is pending or no path is ASSUMED_BAD.
    void ScheduleProbing();
    /// A probe round: count unanswered probes, deny, probe every ASSUMED_BAD path.
    void ProbeRound();
    /**
     * Retire the EV of a path and give its slot a fresh EV of the same plane.
     * \param slot the index of the path.
     */
    void Deny(std::size_t slot);
    /**
     * Draw an EV of a plane that is neither in the set nor retired.
     * \param plane the plane.
     * \param [out] ev the EV.
     * \return whether one was found.
     */
    bool DrawEntropy(uint32_t plane, uint16_t& ev);
    /**
     * \param path a path.
     * \param retransmission whether the packet is a retransmission.
     * \return its rank as a candidate (0 best; lower ranks win).
     */
    uint32_t Rank(Path& path, bool retransmission);

    // attributes
    uint32_t m_pathCount;          //!< PathCount.
    uint32_t m_ecnThreshold;       //!< EcnThreshold.
    uint32_t m_lossThreshold;      //!< LossThreshold.
    uint32_t m_probeFailThreshold; //!< ProbeFailThreshold.
    Time m_skipTimeAttr;           //!< SkipTime (0: 2 base RTTs).
    Time m_probeIntervalAttr;      //!< ProbeInterval (0: the RTO).
    uint32_t m_planeLossThreshold; //!< PlaneLossThreshold (0: off).

    // state
    std::vector<Path> m_paths;                         //!< The set, plane-interleaved.
    std::unordered_map<uint16_t, std::size_t> m_slots; //!< EV -> index in m_paths.
    std::set<uint16_t> m_retired;                      //!< Denied EVs.
    std::size_t m_cursor;                              //!< Round-robin position.
    uint16_t m_lastLost;                               //!< EV of the last loss reported.
    bool m_anyLoss;                                    //!< A loss was reported.
    bool m_sentSinceRound;                             //!< A packet left since the last round.
    EventId m_probeEvent;                              //!< Next probe round.
    std::vector<uint32_t> m_planeLosses; //!< Per plane: paths lost since its last unmarked ACK.

    // counters
    uint64_t m_probesSent;                      //!< Probes sent.
    uint64_t m_probesAnswered;                  //!< Replies for paths of the set.
    uint64_t m_probesFailed;                    //!< Probes counted unanswered.
    uint64_t m_denials;                         //!< EVs retired.
    uint64_t m_planeSuspicions;                 //!< Planes suspected.
    std::array<uint64_t, N_STATES> m_entered{}; //!< Transitions into each state.
    std::array<uint64_t, N_STATES> m_sentIn{};  //!< Packets sent on a path per state.

    TracedCallback<uint16_t, PathState, PathState> m_stateChanged; //!< PathStateChanged.
    TracedCallback<uint16_t, uint16_t> m_pathReplaced;             //!< PathReplaced.
    TracedCallback<uint32_t> m_planeSuspected;                     //!< PlaneSuspected.
};

} // namespace ns3

#endif /* REPS_MRC_PATH_SELECTOR_H */
