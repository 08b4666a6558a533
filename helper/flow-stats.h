/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_FLOW_STATS_H
#define REPS_FLOW_STATS_H

#include "flow-spec.h"
#include "sample-summary.h"

#include "ns3/callback.h"
#include "ns3/data-rate.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace ns3
{

/**
 * \ingroup reps
 * Per-flow and per-collective completion times of one run.
 *
 * A flow's completion time (FCT) is the time from its FlowSpec::start (when the sender posted
 * it) to its completion. Its ideal FCT is what it would take alone on an idle fabric, fixed
 * when the flow is registered: by default bytes * 8 / rate + base RTT (SetIdeal), or what the
 * ideal callback says (SetIdealCallback; on a fabric, IdealFct over the pair's path: its own
 * packets store and forward, so that no flow can beat it); its slowdown is FCT / ideal FCT
 * (1 at best).
 */
class FlowStats
{
  public:
    /// What is known of one flow.
    struct Record
    {
        FlowSpec flow;             //!< The flow as specified (start = when it was posted).
        Time ideal{Seconds(0)};    //!< Its ideal FCT.
        Time finished{Seconds(0)}; //!< When it completed (valid if completed).
        bool completed{false};     //!< Whether it completed.
    };

    /// One run of a collective (ring all-reduce, all-to-all).
    struct Collective
    {
        std::string name;             //!< What it was ("allreduce", ...).
        uint32_t group{0};            //!< The group id its flows carry.
        Time start{Seconds(0)};       //!< When it started.
        Time finished{Seconds(0)};    //!< When its last flow completed (valid if completed).
        bool completed{false};        //!< Whether it completed.
        uint64_t bytes{0};            //!< Bytes moved by all its flows.
        std::vector<Time> iterations; //!< Training loop: the time of each iteration (else empty).

        /// One collective call inside a trace replay.
        struct Call
        {
            std::string name;          //!< The trace's name of it.
            std::string collective;    //!< What it ran ("allreduce", ...).
            std::string group;         //!< Its process group ("" = every rank).
            uint32_t ranks{0};         //!< Its ranks.
            uint64_t bytes{0};         //!< Its size.
            Time start{Seconds(0)};    //!< When its last rank reached it.
            Time finished{Seconds(0)}; //!< When it completed (valid if completed).
            bool completed{false};     //!< Whether it completed.
        };

        std::vector<Call> calls;       //!< Trace replay: its collective calls (else empty).
        std::vector<Time> exposedComm; //!< Trace replay: each rank's exposed communication.
    };

    FlowStats();

    /**
     * Set what the ideal FCT is computed from.
     * \param rate the host link rate (> 0).
     * \param baseRtt the unloaded round-trip time between two hosts (>= 0).
     */
    void SetIdeal(DataRate rate, Time baseRtt);

    /**
     * Give the ideal FCT of every flow (e.g. IdealFct::Compute over the pair's path, so that
     * a flow within a rack is not compared with a cross-fabric RTT, nor a one-packet flow with
     * a full packet's serialization). Applies to flows registered from now on; others keep the
     * ideal they were registered with.
     * \param ideal returns the ideal FCT of a flow (> 0).
     */
    void SetIdealCallback(Callback<Time, const FlowSpec&> ideal);

    /// \return the host link rate of the ideal FCT.
    DataRate GetIdealRate() const;
    /// \return the base RTT of the ideal FCT.
    Time GetBaseRtt() const;

    /**
     * Register a flow (its id must be new).
     * \param flow the flow.
     */
    void AddFlow(const FlowSpec& flow);

    /**
     * \param id a registered flow.
     * \param t when it completed (>= its start).
     */
    void RecordCompletion(uint32_t id, Time t);

    /**
     * \param collective a collective run (completed or not).
     */
    void AddCollective(const Collective& collective);

    /// \return whether a flow with this id is registered.
    bool HasFlow(uint32_t id) const;
    /// \return the number of registered flows.
    uint32_t GetFlowCount() const;
    /// \return the number of completed flows.
    uint32_t GetCompletedCount() const;
    /**
     * \param id a registered flow.
     * \return its record.
     */
    const Record& GetRecord(uint32_t id) const;
    /// \return the records in the order the flows were registered.
    const std::vector<Record>& GetRecords() const;
    /// \return the collectives.
    const std::vector<Collective>& GetCollectives() const;

    /**
     * \param r a flow's record.
     * \return its ideal FCT (as registered).
     */
    Time GetIdealFct(const Record& r) const;

    /**
     * \param r a completed flow's record.
     * \return its FCT.
     */
    static Time GetFct(const Record& r);

    /**
     * \param r a completed flow's record.
     * \return its FCT divided by its ideal FCT.
     */
    double GetSlowdown(const Record& r) const;

    /// \return the summary of the FCTs of the completed flows, in microseconds.
    SampleSummary GetFctSummaryUs() const;
    /// \return the summary of the slowdowns of the completed flows.
    SampleSummary GetSlowdownSummary() const;

    /**
     * \return the completion time of the collectives in microseconds: the longest duration
     * among them; NaN when there is none or one did not complete.
     */
    double GetCollectiveUs() const;

    /// \return the time the last completed flow completed (zero if none did).
    Time GetLastCompletion() const;

  private:
    DataRate m_rate;                              //!< Host link rate of the ideal FCT.
    Time m_baseRtt;                               //!< Base RTT of the ideal FCT.
    Callback<Time, const FlowSpec&> m_idealCb;    //!< Ideal FCT per flow (if set).
    std::vector<Record> m_records;                //!< All flows.
    std::unordered_map<uint32_t, size_t> m_index; //!< Flow id to its record.
    uint32_t m_completed;                         //!< Completed flows.
    std::vector<Collective> m_collectives;        //!< Collectives.
};

} // namespace ns3

#endif /* REPS_FLOW_STATS_H */
