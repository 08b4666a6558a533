/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_WORKLOAD_RUNNER_H
#define REPS_WORKLOAD_RUNNER_H

#include "ns3/callback.h"
#include "ns3/flow-spec.h"
#include "ns3/flow-stats.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup reps
 * Runs a workload over any transport: starts every flow at its start time through a
 * FlowLauncher (which the experiment binds to RDMA queue pairs, TCP sockets, or a fake delay
 * in tests), and records each completion in a FlowStats.
 *
 * Collectives (RingAllReduce, AllToAllCollective) launch their flows through GetLauncher(), so
 * that their flows are recorded too. The AllCompleted callback fires when every registered
 * flow has completed and no scheduled flow is waiting to start; a driver that launches more
 * flows when a flow completes must do so from inside that flow's completion callback (the
 * collectives do).
 */
class WorkloadRunner : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    WorkloadRunner();
    ~WorkloadRunner() override;

    /**
     * TracedCallback signature for a flow that starts.
     * \param [in] flow the flow.
     */
    typedef void (*FlowStartedTracedCallback)(const FlowSpec& flow);

    /**
     * TracedCallback signature for a flow that completes.
     * \param [in] flow the flow.
     * \param [in] fct its completion time.
     */
    typedef void (*FlowCompletedTracedCallback)(const FlowSpec& flow, Time fct);

    /**
     * \param launcher what starts a flow over the transport.
     */
    void SetLauncher(FlowLauncher launcher);

    /**
     * \param cb called once every flow has completed (e.g. to stop the simulation).
     */
    void SetAllCompletedCallback(Callback<void> cb);

    /**
     * Register flows and start each at its FlowSpec::start (which must not be in the past).
     * \param flows the flows.
     */
    void Schedule(const std::vector<FlowSpec>& flows);

    /**
     * Register a flow and start it now.
     * \param flow the flow (its start is set to now).
     * \param done called when it completes (may be null).
     */
    void Launch(const FlowSpec& flow, FlowCompletionCallback done);

    /// \return a launcher that starts flows through Launch(), for collectives.
    FlowLauncher GetLauncher();

    /// \return the statistics (set the ideal rate and base RTT here).
    FlowStats& GetStats();
    /// \return the statistics.
    const FlowStats& GetStats() const;

    /// \return the number of flows registered so far.
    uint32_t GetTotal() const;
    /// \return the number of flows completed so far.
    uint32_t GetCompleted() const;
    /// \return whether every registered flow completed and none waits to start.
    bool IsDone() const;

  protected:
    void DoDispose() override;

  private:
    /**
     * Start a flow now.
     * \param flow the flow.
     * \param done called when it completes.
     */
    void Start(FlowSpec flow, FlowCompletionCallback done);

    /**
     * A flow completed.
     * \param id its id.
     * \param done the caller's completion callback.
     */
    void Completed(uint32_t id, FlowCompletionCallback done);

    FlowLauncher m_launcher;                               //!< Starts flows.
    Callback<void> m_allCompleted;                         //!< Called when all are done.
    FlowStats m_stats;                                     //!< What happened.
    uint32_t m_waiting;                                    //!< Scheduled, not started yet.
    TracedCallback<const FlowSpec&> m_flowStarted;         //!< FlowStarted trace.
    TracedCallback<const FlowSpec&, Time> m_flowCompleted; //!< FlowCompleted trace.
};

} // namespace ns3

#endif /* REPS_WORKLOAD_RUNNER_H */
