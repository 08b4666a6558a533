/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_COLLECTIVE_H
#define REPS_COLLECTIVE_H

#include "ns3/event-id.h"
#include "ns3/flow-spec.h"
#include "ns3/flow-stats.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup reps
 * Base class of the collective-communication drivers: a set of hosts that exchange data in
 * steps, each flow launched through a FlowLauncher only when the data it depends on has
 * arrived, as a collective library (NCCL, MPI) does.
 *
 * Set the hosts (SetHosts) and the launcher (SetLauncher, e.g. WorkloadRunner::GetLauncher),
 * then call Start(): the collective begins at the StartTime attribute (or now, if that is
 * past). Flows carry the Group attribute as FlowSpec::group and are numbered from FirstFlowId.
 */
class Collective : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    Collective();
    ~Collective() override;

    /**
     * TracedCallback signature for the completion of the collective.
     * \param [in] duration the time from its start to the completion of its last flow.
     */
    typedef void (*CompletedTracedCallback)(Time duration);

    /**
     * \param hosts the participants, by host index, in ring order where order matters (at
     * least 2, all different).
     */
    void SetHosts(const std::vector<uint32_t>& hosts);

    /**
     * \param n the participants are hosts 0 to n-1.
     */
    void SetHosts(uint32_t n);

    /// \return the participants.
    const std::vector<uint32_t>& GetHosts() const;

    /**
     * \param launcher what starts a flow.
     */
    void SetLauncher(FlowLauncher launcher);

    /**
     * \param cb called when the collective completes.
     */
    void SetCompletedCallback(Callback<void> cb);

    /// Begin at the StartTime attribute (or now, if that is past).
    void Start();

    /// \return whether every flow of the collective has completed.
    bool IsComplete() const;
    /// \return when it began (valid once started).
    Time GetStartTime() const;
    /// \return when its last flow completed (valid once complete).
    Time GetCompletionTime() const;
    /// \return completion time minus start time (valid once complete).
    Time GetDuration() const;
    /// \return bytes launched so far by all its flows.
    uint64_t GetBytesLaunched() const;
    /// \return the number of flows it launches in total.
    virtual uint32_t GetFlowCount() const = 0;
    /// \return the number of its flows that completed.
    uint32_t GetCompletedFlows() const;
    /// \return a short name for statistics ("allreduce", "alltoall").
    virtual std::string GetName() const = 0;
    /// \return its record for FlowStats.
    FlowStats::Collective GetRecord() const;

  protected:
    void DoDispose() override;

    /// Launch the first flows; called at the start time, with the hosts and launcher set.
    virtual void DoStart() = 0;

    /**
     * Add what a subclass measures to its record (nothing by default).
     * \param record the record GetRecord() returns.
     */
    virtual void DoFillRecord(FlowStats::Collective& record) const;

    /**
     * Launch one flow now.
     * \param src sending host index.
     * \param dst receiving host index.
     * \param bytes size.
     * \param step step (or round) of the collective.
     * \param subflow index among parallel flows.
     * \param id flow id offset (added to FirstFlowId).
     * \param done called when it completes, before the collective checks its own completion.
     */
    void LaunchFlow(uint32_t src,
                    uint32_t dst,
                    uint64_t bytes,
                    uint32_t step,
                    uint32_t subflow,
                    uint32_t id,
                    Callback<void> done);

    /// \return the number of participants.
    uint32_t GetSize() const;

    /**
     * \return whether the collective still has work besides its flows (compute of a trace
     * replay, say); it completes when its last flow has completed and this is false. After
     * its own work ends, a subclass calls CheckComplete(). None by default.
     */
    virtual bool HasOtherWork() const;

    /// Complete the collective now if every flow has completed and no other work is left.
    void CheckComplete();

  private:
    /// Start time reached.
    void Begin();

    /**
     * One flow completed.
     * \param done the subclass's callback.
     */
    void FlowDone(Callback<void> done);

    Time m_startAt;                        //!< StartTime attribute.
    uint32_t m_group;                      //!< Group attribute.
    uint32_t m_firstId;                    //!< FirstFlowId attribute.
    std::string m_tag;                     //!< Tag attribute.
    std::vector<uint32_t> m_hosts;         //!< Participants.
    FlowLauncher m_launcher;               //!< Starts flows.
    Callback<void> m_completedCb;          //!< Called on completion.
    bool m_started;                        //!< Start() reached its start time.
    bool m_complete;                       //!< Every flow completed.
    Time m_begin;                          //!< Start time.
    Time m_end;                            //!< Completion time.
    uint64_t m_bytes;                      //!< Bytes launched.
    uint32_t m_launched;                   //!< Flows launched.
    uint32_t m_completed;                  //!< Flows completed.
    EventId m_startEvent;                  //!< Pending start.
    TracedCallback<Time> m_completedTrace; //!< Completed trace.
};

} // namespace ns3

#endif /* REPS_COLLECTIVE_H */
