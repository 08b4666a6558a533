/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_RDMA_FLOW_LAUNCHER_H
#define REPS_RDMA_FLOW_LAUNCHER_H

#include "flow-spec.h"
#include "rdma-helper.h"

#include "ns3/node-container.h"
#include "ns3/path-selector.h"
#include "ns3/rdma-queue-pair.h"

#include <cstdint>
#include <map>
#include <tuple>
#include <vector>

namespace ns3
{

/**
 * \ingroup reps
 * Carries workload flows over RDMA queue pairs: the FlowLauncher of an RDMA experiment.
 *
 * Each distinct (source, destination, subflow, background) of the flows gets its own
 * connected pair of queue pairs, created by the RdmaHelper given for it (background flows by
 * the background helper, typically with ns3::EcmpPathSelector so that they stay on one path).
 * A flow is one message posted on its queue pair; the flow completes when the message is
 * acknowledged in full. Flows of one pair share its queue pair, in order, as messages of one
 * connection do.
 *
 * Create the queue pairs before the simulation starts (Prepare, PreparePair), then call
 * RdmaHelper::AssignStreams on the hosts, so that every path selector and congestion
 * controller has a fixed stream; a flow whose pair was not prepared gets a queue pair when it
 * starts (with automatic streams).
 */
class RdmaFlowLauncher
{
  public:
    /**
     * \param hosts the hosts, in host-index order (host i of a FlowSpec is hosts.Get(i)); the
     * RDMA stack must be installed on them.
     * \param helper creates the queue pairs of ordinary flows (must outlive the launcher).
     * \param background creates those of background flows (null: the same helper).
     */
    RdmaFlowLauncher(NodeContainer hosts, RdmaHelper* helper, RdmaHelper* background = nullptr);

    /**
     * Create the queue pairs the flows need.
     * \param flows the flows.
     */
    void Prepare(const std::vector<FlowSpec>& flows);

    /**
     * Create the queue pair of one (source, destination, subflow, background), if it does not
     * exist yet.
     * \param src sending host.
     * \param dst receiving host.
     * \param subflow index among parallel flows of the pair.
     * \param background whether it carries background flows.
     * \return the sending queue pair.
     */
    Ptr<RdmaQueuePair> PreparePair(uint32_t src, uint32_t dst, uint32_t subflow, bool background);

    /**
     * Start a flow now: post its bytes on its queue pair.
     * \param flow the flow.
     * \param done called when the message is acknowledged in full.
     */
    void Launch(const FlowSpec& flow, FlowCompletionCallback done);

    /// \return a FlowLauncher bound to Launch().
    FlowLauncher GetLauncher();

    /// \return the sending queue pairs, in the order they were created.
    const std::vector<Ptr<RdmaQueuePair>>& GetSenders() const;

    /// \return the sum of the counters of the sending queue pairs.
    RdmaQueuePairStats GetSenderTotals() const;

    /// \return the freezes entered by the path selectors of the sending queue pairs (their
    ///         "freezes" counter: REPS).
    uint64_t GetFreezes() const;

    /// \return the counters of the path selectors of the sending queue pairs, summed by name
    ///         (see PathSelector::GetCounters()).
    PathSelector::Counters GetSelectorCounters() const;

  private:
    /**
     * A message completed.
     * \param done the flow's completion callback.
     * \param id message id.
     * \param size message size.
     * \param fct its completion time.
     */
    static void MessageDone(FlowCompletionCallback done, uint64_t id, uint64_t size, Time fct);

    /// Key of a queue pair: source, destination, subflow, background.
    typedef std::tuple<uint32_t, uint32_t, uint32_t, bool> Key;

    NodeContainer m_hosts;                     //!< Hosts by index.
    RdmaHelper* m_helper;                      //!< Creates ordinary queue pairs.
    RdmaHelper* m_background;                  //!< Creates background queue pairs.
    std::map<Key, Ptr<RdmaQueuePair>> m_qps;   //!< Sending queue pair per key.
    std::vector<Ptr<RdmaQueuePair>> m_senders; //!< In creation order.
};

} // namespace ns3

#endif /* REPS_RDMA_FLOW_LAUNCHER_H */
