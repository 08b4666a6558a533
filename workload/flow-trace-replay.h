/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_FLOW_TRACE_REPLAY_H
#define REPS_FLOW_TRACE_REPLAY_H

#include "collective.h"

#include "ns3/flow-trace.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup reps
 * Replays a FlowTrace as a collective: a flow without a dependency starts its start time after
 * the replay began; a flow with one starts its start time after that flow completed; a flow
 * of a connection matrix that waits for a trigger starts when the trigger fires it (the
 * completions of the flows that activate it, as FlowTrace describes). Trace host
 * h is the replay's host h (SetHosts). Flow i of the trace has id FirstFlowId + i, step 0 and
 * the tag "trace"; the replay completes with the last flow.
 */
class FlowTraceReplay : public Collective
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    FlowTraceReplay();
    ~FlowTraceReplay() override;

    /**
     * \param trace the flows to replay (not empty).
     */
    void SetTrace(const FlowTrace& trace);

    uint32_t GetFlowCount() const override;
    std::string GetName() const override;

    /// \return when each flow started (valid once started), by trace flow id.
    const std::vector<Time>& GetFlowStartTimes() const;
    /// \return when each flow completed (valid once completed), by trace flow id.
    const std::vector<Time>& GetFlowEndTimes() const;

  protected:
    void DoStart() override;

  private:
    /**
     * Start flow \p i now.
     * \param i trace flow id.
     */
    void Launch(uint32_t i);

    /**
     * Flow \p i completed: schedule the flows waiting for it.
     * \param i trace flow id.
     */
    void Done(uint32_t i);

    /**
     * A flow that activates trigger \p t completed.
     * \param t trigger index.
     */
    void Activate(uint32_t t);

    std::vector<FlowTrace::Flow> m_flows;         //!< The trace.
    std::vector<std::vector<uint32_t>> m_waiting; //!< Flows waiting for each flow.
    std::vector<Time> m_starts;                   //!< Start time of each flow.
    std::vector<Time> m_ends;                     //!< Completion time of each flow.
    std::vector<FlowTrace::Trigger> m_triggers;   //!< The trace's triggers.
    std::vector<uint32_t> m_activations;          //!< Activations of each trigger so far.
};

} // namespace ns3

#endif /* REPS_FLOW_TRACE_REPLAY_H */
