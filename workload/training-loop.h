/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_TRAINING_LOOP_H
#define REPS_TRAINING_LOOP_H

#include "collective.h"

#include "ns3/abort.h"
#include "ns3/object-factory.h"
#include "ns3/rdma-helper.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup reps
 * A data-parallel training job: Iterations iterations, each a compute phase of ComputeTime
 * (no traffic) followed by one collective (by default a RingAllReduce of 1 MiB; SetCollective
 * chooses another kind and its attributes) over the loop's hosts. An iteration ends when its
 * collective completes; the next begins at once. The iteration times add up to the loop's
 * duration.
 *
 * Flows are numbered FirstFlowId + iteration x (flows per iteration) + the collective's own
 * flow offset, carry the loop's Group and Tag ("training" by default), and their step is the
 * collective's step.
 */
class TrainingLoop : public Collective
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    TrainingLoop();
    ~TrainingLoop() override;

    /**
     * TracedCallback signature for the end of an iteration.
     * \param [in] iteration its index, from 0.
     * \param [in] duration its compute time plus its collective's time.
     */
    typedef void (*IterationTracedCallback)(uint32_t iteration, Time duration);

    /**
     * Choose the collective of every iteration.
     * \param type the TypeId name of a Collective subclass (e.g. "ns3::RingAllGather").
     * \param args name and value pairs of its attributes.
     */
    template <typename... Ts>
    void SetCollective(const std::string& type, Ts&&... args);

    /**
     * Choose the collective of every iteration.
     * \param factory makes it (its TypeId must be a constructible Collective subclass).
     */
    void SetCollective(const ObjectFactory& factory);

    uint32_t GetFlowCount() const override;
    std::string GetName() const override;

    /// \return the time of every completed iteration, in order.
    const std::vector<Time>& GetIterationTimes() const;

    /// \return the time the collective of every completed iteration took, in order.
    const std::vector<Time>& GetCollectiveTimes() const;

  protected:
    void DoDispose() override;
    void DoStart() override;
    void DoFillRecord(FlowStats::Collective& record) const override;

  private:
    /// Begin the next iteration's compute phase.
    void StartIteration();
    /// Compute phase over: start the iteration's collective.
    void StartCollective();
    /// The iteration's collective completed.
    void CollectiveDone();

    /**
     * Launch one flow of the current iteration's collective as a flow of the loop.
     * \param flow the collective's flow (ids from 0).
     * \param done its completion.
     */
    void LaunchInner(const FlowSpec& flow, FlowCompletionCallback done);

    uint32_t m_iterations;                //!< Iterations attribute.
    Time m_computeTime;                   //!< ComputeTime attribute.
    ObjectFactory m_factory;              //!< Makes each iteration's collective.
    mutable uint32_t m_flowsPerIteration; //!< Flows of one collective (0: not known yet).
    uint32_t m_current;                   //!< Index of the running iteration.
    Time m_iterationStart;                //!< When it began.
    Time m_collectiveStart;               //!< When its collective began.
    Ptr<Collective> m_collective;         //!< Its collective.
    EventId m_computeEvent;               //!< End of its compute phase.
    std::vector<Time> m_iterationTimes;   //!< Per completed iteration.
    std::vector<Time> m_collectiveTimes;  //!< Per completed iteration.
    TracedCallback<uint32_t, Time> m_iterationTrace; //!< IterationCompleted trace.
};

template <typename... Ts>
void
TrainingLoop::SetCollective(const std::string& type, Ts&&... args)
{
    std::string error =
        RdmaHelper::ValidateTypeId(type, Collective::GetTypeId(), "TrainingLoop::SetCollective");
    NS_ABORT_MSG_IF(!error.empty(), error);
    NS_ABORT_MSG_IF(type == "ns3::TrainingLoop", "TrainingLoop::SetCollective: not a loop");
    m_factory = ObjectFactory(type, std::forward<Ts>(args)...);
    m_flowsPerIteration = 0;
}

} // namespace ns3

#endif /* REPS_TRAINING_LOOP_H */
