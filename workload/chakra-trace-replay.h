/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_CHAKRA_TRACE_REPLAY_H
#define REPS_CHAKRA_TRACE_REPLAY_H

#include "collective.h"
#include "nccl-collective.h"

#include "ns3/chakra-trace.h"

#include <deque>
#include <string>
#include <tuple>
#include <vector>

namespace ns3
{

/**
 * \ingroup reps
 * Replays a Chakra execution trace (ChakraTrace) on the fabric, rank r on host r: a node
 * starts once every node it depends on (data and control dependencies alike) has completed.
 *
 * - Compute and memory nodes are delays of their duration_micros; each rank runs one at a
 *   time on its GPU (and one at a time on its CPU for is_cpu_op nodes), in the order they
 *   became ready.
 * - A send posts a message (one flow) to its peer; the matched receive completes when that
 *   message has completed and the receive has started; the send completes with the message.
 * - A collective node waits for the same call on every rank of its process group; the call
 *   then runs as an NcclCollective among the group's ranks (in rank order; its attributes'
 *   defaults for everything but Operation, DataBytes and Root), and completes on every rank
 *   when the collective completes.
 * - Metadata nodes take no time.
 *
 * The replay completes when every node of every rank has completed. Flows are numbered
 * FirstFlowId + (messages in trace order, then the flows of each call in turn).
 *
 * Results: the time of each iteration (nodes carry an iteration attribute; iteration k ends
 * when its last node completes, and lasts from the end of iteration k - 1, or the start), the
 * start and end of each collective call, and each rank's exposed communication time: the time
 * its communication nodes (send, receive, collective: from when the node started until it
 * completed) were running while no compute node ran on its GPU.
 */
class ChakraTraceReplay : public Collective
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    ChakraTraceReplay();
    ~ChakraTraceReplay() override;

    /**
     * Set the trace and prepare its collectives (hosts 0 to ranks - 1 take part).
     * \param trace a loaded trace of at least 2 ranks.
     * \return "" or why a collective of it cannot run (naming the node and the rank).
     */
    std::string SetTrace(const ChakraTrace& trace);

    /**
     * Tell the collectives how the fabric's hosts form servers (ClosFabric::GetGpusPerServer()),
     * as NcclCollective::SetGpusPerServer() does; before SetTrace(). 1 (the default) makes
     * every rank a server of its own.
     * \param gpus GPUs per server, at least 1
     */
    void SetGpusPerServer(uint32_t gpus);

    uint32_t GetFlowCount() const override;
    std::string GetName() const override;

    /**
     * The queue pairs the replay uses, to prepare them before the run.
     * \return (source host, destination host, subflow) of each, in order of first use
     */
    std::vector<std::tuple<uint32_t, uint32_t, uint32_t>> GetConnections() const;

    /// \return the time of each iteration (once complete; empty before).
    std::vector<Time> GetIterationTimes() const;
    /// \return each collective call (its times valid once it completed).
    std::vector<FlowStats::Collective::Call> GetCalls() const;
    /// \return each rank's exposed communication time (once complete).
    std::vector<Time> GetExposedCommunication() const;
    /**
     * \param rank a rank.
     * \param node a node index in it.
     * \return when the node completed (negative while it has not).
     */
    Time GetNodeEnd(uint32_t rank, uint32_t node) const;
    /**
     * \param rank a rank.
     * \param node a node index in it.
     * \return when the node started (negative while it has not).
     */
    Time GetNodeStart(uint32_t rank, uint32_t node) const;
    /// \return the nodes that have not completed, described, at most \p most of them.
    std::string DescribeUnfinished(uint32_t most) const;

  protected:
    void DoStart() override;
    void DoDispose() override;
    void DoFillRecord(FlowStats::Collective& record) const override;
    bool HasOtherWork() const override;

  private:
    /// A rank's state during the replay.
    struct RankState
    {
        std::vector<uint32_t> waiting;                 //!< Dependencies left per node.
        std::vector<std::vector<uint32_t>> dependants; //!< Who waits for each node.
        std::vector<Time> start;                       //!< When each node started.
        std::vector<Time> end;                         //!< When each node completed.
        std::deque<uint32_t> gpuQueue;                 //!< Ready GPU compute nodes.
        std::deque<uint32_t> cpuQueue;                 //!< Ready CPU compute nodes.
        bool gpuBusy{false};                           //!< A node runs on the GPU.
        bool cpuBusy{false};                           //!< A node runs on the CPU.
    };

    /// Start the nodes that became ready, until none is left.
    void Drain();
    /// Node \p node of \p rank has no dependency left: start it.
    void Issue(uint32_t rank, uint32_t node);
    /// Node \p node of \p rank completed.
    void Complete(uint32_t rank, uint32_t node);
    /// Run the next ready compute node of \p rank on its GPU (\p cpu false) or CPU.
    void RunNext(uint32_t rank, bool cpu);
    /// The compute node \p node of \p rank ran its duration.
    void ComputeDone(uint32_t rank, uint32_t node, bool cpu);
    /// \return how long compute or memory node \p n takes (its duration_micros, or roofline)
    Time Duration(const ChakraTrace::Node& n) const;
    /// Message \p m completed.
    void MessageDone(uint32_t m);
    /// Collective call \p c completed.
    void CallDone(uint32_t c);
    /// Launch a flow of call \p c's collective as a flow of the replay.
    void LaunchCallFlow(uint32_t c, const FlowSpec& flow, FlowCompletionCallback done);
    /// \return the exposed communication time of \p rank.
    Time Exposed(uint32_t rank) const;

    ChakraTrace m_trace;                                //!< The trace.
    std::vector<Ptr<NcclCollective>> m_colls;           //!< The collective of each call.
    std::vector<uint32_t> m_callFirstId;                //!< First flow id of each call.
    std::vector<uint32_t> m_callReady;                  //!< Ranks that reached each call.
    std::vector<Time> m_callStart;                      //!< When each call started.
    std::vector<Time> m_callEnd;                        //!< When each call completed.
    std::vector<bool> m_messageDone;                    //!< Each message completed.
    std::vector<RankState> m_ranks;                     //!< Each rank's state.
    std::vector<std::pair<uint32_t, uint32_t>> m_ready; //!< Ready nodes to start.
    bool m_draining{false};                             //!< Drain() is running.
    uint64_t m_nodesLeft{0};                            //!< Nodes not completed yet.
    uint32_t m_flowCount{0};                            //!< Flows of the whole replay.
    uint32_t m_gpus{1};                                 //!< SetGpusPerServer().
    double m_peakFlops{0};                              //!< PeakFlops attribute.
    double m_memoryBandwidth{0};                        //!< MemoryBandwidth attribute.
};

} // namespace ns3

#endif /* REPS_CHAKRA_TRACE_REPLAY_H */
