/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_EXPERIMENT_RUN_H
#define REPS_EXPERIMENT_RUN_H

#include "fabric-experiment.h"
#include "fabric-monitor.h"
#include "progress-reporter.h"
#include "run-result.h"

#include "ns3/cable-failure-controller.h"
#include "ns3/collective.h"
#include "ns3/flow-spec.h"
#include "ns3/node-container.h"
#include "ns3/rdma-flow-launcher.h"
#include "ns3/rdma-helper.h"
#include "ns3/tcp-background.h"
#include "ns3/workload-helper.h"
#include "ns3/workload-runner.h"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

class ClosFabric;

/**
 * \ingroup reps
 * One run of a FabricExperiment with one path selector, in named stages that Execute() calls
 * in order: BuildFabric() (the Clos fabric and its switch queues), InstallTransport() (RDMA
 * stacks, path selector and congestion control), MakeWorkload() (the flows of --pattern, from
 * a table of patterns, and the collectives), ScheduleWorkload(), AddTcpBackground(),
 * InjectFaults() (degraded and failed uplinks), then the simulation and Collect() (what was
 * measured). The order of the stages is the order in which objects and random streams are
 * created, which the same results for the same run number depend on.
 */
class ExperimentRun
{
  public:
    /**
     * \param experiment the checked options (and the built callback).
     * \param choice the path selector of this run.
     */
    ExperimentRun(const FabricExperiment& experiment, const PathSelectorNames::Choice& choice);

    /// \return what the run measured; the simulation is destroyed afterwards.
    RunResult Execute();

  private:
    /// What must finish before a run stops early.
    struct Completion
    {
        bool rdma{false}; //!< Every RDMA flow and collective completed.
        bool tcp{true};   //!< Every sized TCP background flow completed (true when none is).
    };

    /// Build the fabric with its switch queues, and give its switches their streams.
    void BuildFabric();
    /// Slow down the links of --slowLinks with their egress queues and ECN thresholds
    /// (uet-htsim's -failed N), after the fabric's base RTT is known (as uet-htsim's, from
    /// the nominal rates).
    void SlowDownLinks();
    /// Install the RDMA stack on every host with the path selector of the run.
    void InstallTransport();
    /// Packet captures of the ports of --pcapNodes, when --pcap is given.
    void EnableCaptures();
    /// Make the flows and collectives of --pattern, and the background flows.
    void MakeWorkload();
    /// Create the queue pairs of the workload and schedule its flows and collectives.
    void ScheduleWorkload();
    /// Start the ns-3 TCP background flows of --tcpBackground.
    void AddTcpBackground();
    /// Degrade and fail the uplinks of --degradedLinks and --failedLinks, and play
    /// --failureFile: one schedule, one FailureInjector; then the failed cables.
    void InjectFaults();
    /// Install the CableFailureController of --failedCables (if its share is above 0).
    void InjectCableFailures();
    /// Start the monitor and the progress lines.
    void StartMonitors();
    /// Fill the result from the runner, the monitor and the queue pairs.
    void Collect();
    /// MPI run: schedule the flows whose sender is a host of this rank (the queue pairs of
    /// every flow exist on every rank, with the same random streams).
    void ScheduleOwnFlows();
    /// MPI run: check that every link between ranks is a remote channel, and print the cut.
    void CheckPartition() const;
    /// MPI run: gather every rank's part of the result on rank 0 (see DistributedRun).
    void GatherRanks();
    /// A flow or the collective completed: the RDMA part is done when both the runner and the
    /// collective are (a training loop leaves the runner idle during its compute phases).
    void RdmaPartDone();
    /// Poisson flows with the sizes of --cdf (or the pattern's own distribution).
    void MakePoisson();
    /// A ring all-reduce in the order of --ring.
    void MakeAllReduce();
    /// --pattern=nccl: an NcclCollective in ring order, its queue pairs prepared.
    void MakeNccl();
    /// An all-to-all with --qpsPerPeer queue pairs per pair of hosts.
    void MakeAllToAll();
    /// Ring all-gather, ring reduce-scatter or butterfly all-reduce of --flowSize per host.
    void MakeSteppedCollective();
    /// Training loop: --iterations x (--computeTime, then --collective).
    void MakeTraining();
    /// Replay of the flow trace of --traceFile.
    void MakeTrace();
    /// Replay of the Chakra execution trace of --chakraTrace, its queue pairs prepared.
    void MakeChakra();
    /// \return the collective of --pattern (a training loop of --collective for training).
    Ptr<Collective> CreatePatternCollective() const;
    /// The collective of --pattern; with --jobs > 1, one per job, on the host sets of
    /// --jobLayout.
    void MakeJobs();
    /// Start the collectives of the jobs, numbering their flows one job after the other.
    void StartJobs();

    /**
     * \param kind a collective (allreduce, allgather, reducescatter, butterfly, alltoall).
     * \return its TypeId name.
     */
    static std::string CollectiveTypeId(const std::string& kind);

    /**
     * Create the queue pairs a collective uses, over the hosts in m_ringOrder.
     * \param kind a collective (allreduce, allgather, reducescatter, butterfly, alltoall).
     */
    void PrepareCollectivePairs(const std::string& kind);

    /**
     * \return the failure-schedule events of --degradedLinks and --failedLinks (uplinks
     *         elements, line 0), the degradation first
     */
    std::vector<FailureSchedule::Event> FaultOptionEvents() const;
    /// \return the hosts in the all-reduce ring order of --ring.
    std::vector<uint32_t> RingOrder();
    /**
     * \param fabricRtt the fabric's longest base RTT.
     * \return the Rto attribute of the queue pairs under --rto (0: 5 x their base RTT).
     */
    Time QueuePairRto(Time fabricRtt) const;
    /// \return the largest buffer (shared plus headroom) of the fabric's PFC switches, in bytes
    uint64_t LargestPfcBuffer() const;
    /// \return the ideal FCT of a flow on this fabric: IdealFct over the pair's routed path,
    ///         with this run's packet and ACK sizes.
    Callback<Time, const FlowSpec&> IdealFctCallback() const;

    /// Makes the flows (and collective) of one pattern.
    using PatternMaker = std::function<void(ExperimentRun&)>;
    /// \return the table of patterns, by --pattern name.
    static const std::map<std::string, PatternMaker>& Patterns();

    const FabricExperiment& m_exp;              //!< The options.
    const FabricExperiment::Parsed& m_parsed;   //!< Its converted options.
    PathSelectorNames::Choice m_choice;         //!< The path selector.
    Ptr<ClosFabric> m_fabric;                   //!< The fabric.
    NodeContainer m_hosts;                      //!< Its hosts.
    uint32_t m_packetBytes{0};                  //!< IPv4 size of a full data packet.
    uint32_t m_ackBytes{0};                     //!< IPv4 size of an ACK.
    Time m_fabricRtt;                           //!< The fabric's longest base RTT.
    RdmaHelper m_rdma;                          //!< Queue pairs of the workload.
    RdmaHelper m_backgroundRdma;                //!< Queue pairs of background flows.
    Ptr<RdmaFlowLauncher> m_launcher;           //!< Creates queue pairs, posts flows.
    std::unique_ptr<WorkloadHelper> m_workload; //!< Draws the workload.
    std::vector<FlowSpec> m_flows;              //!< Flows of the workload.
    Ptr<Collective> m_collective;               //!< The collective, if any.
    std::vector<Ptr<Collective>> m_jobs;        //!< --jobs > 1: a collective per job.
    std::vector<uint32_t> m_ringOrder;          //!< All-reduce ring order, if any.
    uint32_t m_firstCollectiveId{0};            //!< Flow id of the collective's first flow.
    Ptr<WorkloadRunner> m_runner;               //!< Runs the flows.
    uint32_t m_totalFlows{0};                   //!< Flows the run will have.
    Completion m_completion;                    //!< What has completed.
    TcpBackground m_tcp;                        //!< ns-3 TCP background flows.
    Ptr<FabricMonitor> m_monitor;               //!< Link loads, queues, time series.
    Ptr<FailureInjector> m_injector;            //!< Fault options, --failureFile (or null).
    Ptr<CableFailureController> m_cables;       //!< --failedCables (or null).
    Ptr<ProgressReporter> m_progress;           //!< Progress lines.
    RunResult m_result;                         //!< What was measured.

    /// The hosts of every job (--jobs > 1).
    std::vector<std::vector<uint32_t>> m_jobHosts;
};

} // namespace ns3

#endif /* REPS_EXPERIMENT_RUN_H */
