/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_RDMA_FLOW_LAUNCHER_H
#define REPS_RDMA_FLOW_LAUNCHER_H

#include "flow-spec.h"
#include "rdma-helper.h"

#include "ns3/node-container.h"
#include "ns3/object.h"
#include "ns3/path-selector.h"
#include "ns3/rdma-queue-pair.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace ns3
{

/**
 * \ingroup reps
 * Carries workload flows over RDMA queue pairs: the FlowLauncher of an RDMA experiment.
 *
 * A flow is one message posted on a sending queue pair (one of a connected pair created by
 * the RdmaHelper given for it; background flows by the background helper, typically with
 * ns3::EcmpPathSelector so that they stay on one path); it completes when the message is
 * acknowledged in full. Which queue pair a flow rides is the ConnectionMapping attribute:
 *
 * - Flow (the default, as the reference simulators do): every flow gets a connection of its
 *   own, with a fresh path selector and congestion controller, as if the NIC opened a queue
 *   pair per message; flows between the same two hosts that overlap in time run side by side.
 * - Pair: one connection per (source, destination, subflow, background); its flows are
 *   messages queued on one queue pair, sent one after the other, sharing its selector and
 *   window.
 * - Reuse: a flow takes a connection of its pair that has finished its previous flow, with the
 *   state that flow left (the selector's memory, the window, the RTO estimate), the most
 *   recently finished first; if every connection of the pair is busy, a new one is opened. This
 *   is the carrying of state from one flow of a pair to the next of the REPS evaluation's
 *   connection mapping.
 *
 * A connection opened with PreparePair() is a persistent connection of its pair (what a
 * collective library keeps for each peer): every flow of that pair rides it, whatever the
 * mapping.
 *
 * Create the queue pairs before the simulation starts (Prepare, PreparePair), then call
 * RdmaHelper::AssignStreams on the hosts, so that every path selector and congestion
 * controller has a fixed stream; a queue pair created when a flow starts (a flow that was not
 * prepared, or a further connection under Reuse) gets automatic streams.
 */
class RdmaFlowLauncher : public Object
{
  public:
    /// Which queue pair a flow rides (ConnectionMapping attribute).
    enum ConnectionMapping
    {
        PER_FLOW, //!< A connection per flow.
        PER_PAIR, //!< One connection per pair of hosts (and subflow): messages queue on it.
        REUSE,    //!< A finished connection of the pair, with its state, else a new one.
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    RdmaFlowLauncher();

    /**
     * TracedCallback signature of the FlowPosted trace source.
     * \param [in] flow the flow
     * \param [in] qp the sending queue pair its message was posted on
     */
    typedef void (*FlowPostedTracedCallback)(const FlowSpec& flow, Ptr<RdmaQueuePair> qp);

    /**
     * \param hosts the hosts, in host-index order (host i of a FlowSpec is hosts.Get(i)); the
     * RDMA stack must be installed on them.
     * \param helper creates the queue pairs of ordinary flows (must outlive the launcher).
     * \param background creates those of background flows (null: the same helper).
     */
    RdmaFlowLauncher(NodeContainer hosts, RdmaHelper* helper, RdmaHelper* background = nullptr);

    ~RdmaFlowLauncher() override;

    /**
     * Set one of the launcher's attributes (ConnectionMapping), checked first, as
     * ClosFabricHelper::SetAttribute() is: a name it does not have or a value its checker
     * refuses is kept (the first one), Validate() returns it naming the allowed values, and
     * Prepare() and PreparePair() stop the program with it.
     * \param name the attribute
     * \param value its value
     */
    void SetAttribute(const std::string& name, const AttributeValue& value);

    /// \return "" or the first attribute value SetAttribute() refused, with what is allowed
    std::string Validate() const;

    /**
     * Create the queue pairs the flows need under the mapping: one per flow (Flow), one
     * per pair (Pair, Reuse).
     * \param flows the flows.
     */
    void Prepare(const std::vector<FlowSpec>& flows);

    /**
     * Open the persistent connection of one (source, destination, subflow, background), if
     * it does not exist yet: every flow of that key will ride it, whatever the mapping.
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

    /// \return the mapping (ConnectionMapping attribute).
    ConnectionMapping GetConnectionMapping() const;

    /**
     * \param mapping a mapping
     * \return its name as the attribute spells it ("Flow", "Pair", "Reuse")
     */
    static std::string GetMappingName(ConnectionMapping mapping);

    /// \return the sending queue pairs, in the order they were created.
    const std::vector<Ptr<RdmaQueuePair>>& GetSenders() const;

    /// \return the sum of the counters of the sending queue pairs.
    RdmaQueuePairStats GetSenderTotals() const;

    /// \return whether a sending queue pair uses receiver credits (RCCC)
    bool UsesReceiverCredits() const;

    /// \return the freezes entered by the path selectors of the sending queue pairs (their
    ///         "freezes" counter: REPS).
    uint64_t GetFreezes() const;

    /// \return the counters of the path selectors of the sending queue pairs, summed by name
    ///         (see PathSelector::GetCounters()).
    PathSelector::Counters GetSelectorCounters() const;

  protected:
    void DoDispose() override;

  private:
    /// Key of a connection: source, destination, subflow, background.
    typedef std::tuple<uint32_t, uint32_t, uint32_t, bool> Key;

    /**
     * \param flow a flow
     * \return its key
     */
    static Key KeyOf(const FlowSpec& flow);
    /**
     * Open a new connection.
     * \param key its hosts, subflow and kind
     * \return the sending queue pair
     */
    Ptr<RdmaQueuePair> Open(const Key& key);
    /**
     * The queue pair a flow starts on now (opened if needed).
     * \param flow the flow
     * \return the queue pair
     */
    Ptr<RdmaQueuePair> Pick(const FlowSpec& flow);
    /**
     * A message completed.
     * \param done the flow's completion callback.
     * \param key the flow's key (Reuse: the connection goes back to its pair's idle ones)
     * \param qp the queue pair it rode
     */
    void MessageDone(FlowCompletionCallback done, Key key, Ptr<RdmaQueuePair> qp);

    NodeContainer m_hosts;                            //!< Hosts by index.
    RdmaHelper* m_helper;                             //!< Creates ordinary queue pairs.
    RdmaHelper* m_background;                         //!< Creates background queue pairs.
    ConnectionMapping m_mapping;                      //!< ConnectionMapping attribute.
    std::string m_attributeError;                     //!< Why SetAttribute() refused one.
    std::map<Key, Ptr<RdmaQueuePair>> m_pairs;        //!< Persistent connection per key.
    std::map<uint32_t, Ptr<RdmaQueuePair>> m_flowQps; //!< Flow: prepared, by flow id.
    std::map<Key, std::vector<Ptr<RdmaQueuePair>>> m_idle; //!< Reuse: idle connections.
    std::vector<Ptr<RdmaQueuePair>> m_senders;             //!< In creation order.
    TracedCallback<const FlowSpec&, Ptr<RdmaQueuePair>> m_flowPosted; //!< FlowPosted trace.
};

} // namespace ns3

#endif /* REPS_RDMA_FLOW_LAUNCHER_H */
