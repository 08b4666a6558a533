/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_EXPERIMENT_OPTIONS_H
#define REPS_EXPERIMENT_OPTIONS_H

#include "experiment-report.h"
#include "fabric-options.h"

#include "ns3/chakra-trace.h"
#include "ns3/failure-schedule.h"
#include "ns3/flow-trace.h"

#include <cstdint>
#include <ostream>
#include <string>

namespace ns3
{

/**
 * \ingroup reps
 * The options of a fabric experiment (FabricExperiment): those of the fabric and transport
 * (FabricOptions), plus the workload, the background traffic, the faults, the run and its
 * outputs. Each option is registered once (name, help, field, check): adding one is a field,
 * its default and one registration.
 */
class ExperimentOptions : public FabricOptions
{
  public:
    ExperimentOptions();

    /**
     * Record every option in a report's configuration.
     * \param report the report.
     */
    void FillConfig(ExperimentReport& report) const;

    /**
     * Print one line describing the fabric and workload (hosts, links, base RTT, flows).
     * \param os the stream.
     */
    void PrintSetup(std::ostream& os) const;

    /// \return the events of --failureFile (empty without one), read when the options are checked
    const std::vector<FailureSchedule::Event>& GetFailureEvents() const;
    /// \return the failed cables of --failureFile in htsim's failures_input format (off
    ///         otherwise)
    const FailureSchedule::HtsimCableFailures& GetHtsimCableFailures() const;
    /// \return the flow trace of --traceFile (valid after Check() with --pattern=trace).
    const FlowTrace& GetTrace() const;
    /// \return the Chakra trace of --chakraTrace (valid after Check() with --pattern=chakra).
    const ChakraTrace& GetChakraTrace() const;

    /// \return the collective --pattern runs (that of --collective for training), or "".
    std::string GetCollectiveKind() const;

    // The options (their names on the command line are the field names).
    std::string pattern;           //!< Traffic pattern.
    std::string flowSize;          //!< Bytes per flow (or per host for all-reduce).
    double load;                   //!< Offered load of Poisson patterns.
    std::string duration;          //!< Arrival window of Poisson patterns.
    std::string cdf;               //!< Flow-size distribution of Poisson patterns (name or file).
    uint32_t incastSenders;        //!< Senders of the incast pattern.
    uint32_t outcastFlows;         //!< Outcast flows per sender of outcastincast.
    uint32_t qpsPerPeer;           //!< Queue pairs per peer (all-to-all).
    std::string ring;              //!< Ring order of the all-reduce.
    uint32_t iterations;           //!< Iterations of the training loop.
    std::string computeTime;       //!< Compute phase of every training iteration.
    std::string collective;        //!< Collective of every training iteration.
    uint32_t jobs;                 //!< Concurrent jobs of a collective pattern.
    std::string jobLayout;         //!< How hosts are dealt to the jobs.
    std::string traceFile;         //!< Flow trace replayed by --pattern=trace.
    std::string traceStartUnit;    //!< Unit of connection-matrix start times (ps or us).
    std::string chakraTrace;       //!< Chakra trace (file prefix) replayed by --pattern=chakra.
    double background;             //!< Share of hosts sending ECMP-pinned background flows.
    std::string backgroundSize;    //!< Bytes per background flow.
    double tcpBackground;          //!< Share of hosts sending one ns-3 TCP flow.
    std::string tcpBackgroundSize; //!< Bytes per TCP flow (0: unlimited).
    std::string tcpMinRto;         //!< Minimum RTO and initial RTT estimate of the TCP flows.
    std::string tcpVariant;        //!< TCP congestion control (empty: ns-3's default).
    uint32_t degradedLinks;        //!< Leaf uplinks slowed down.
    std::string degradedRate;      //!< Their rate.
    int32_t degradeLeaf;           //!< Leaf whose uplinks are degraded (-1: random uplinks).
    uint32_t failedLinks;          //!< Leaf uplinks that fail.
    std::string failAt;            //!< When the first fails.
    std::string failFor;           //!< How long each stays down (0: for good).
    std::string failGap;           //!< Time between two successive failures.
    int32_t failLeaf;              //!< Leaf whose uplinks fail (-1: random uplinks).
    std::string failureFile;       //!< Failure schedule file (empty: none).
    uint32_t slowLinks;            //!< uet-htsim's -failed N: links slowed with their queues.
    double slowLinkFactor;         //!< Share of the rate, queue and ECN thresholds they keep.
    uint64_t rngRun;               //!< ns-3 run number (RngSeedManager::SetRun).
    std::string startTime;         //!< When the workload starts.
    std::string stopTime;          //!< Simulated-time limit.
    std::string sampleInterval;    //!< Time-series interval (0: none).
    bool linkSeries;               //!< Per-link utilization and busiest-port series.
    std::string json;              //!< JSON summary file.
    std::string csv;               //!< CSV file.
    std::string pcap;              //!< Prefix of the packet captures (empty: none).
    std::string pcapNodes;         //!< Nodes whose ports are captured.
    uint32_t pcapSnapLen;          //!< Bytes kept of each captured packet (0: all).
    bool quiet;                    //!< No progress lines.
    uint32_t systems;              //!< MPI ranks the fabric is cut into (1: sequential).

    /**
     * The links of --slowLinks, picked as uet-htsim's -failed N picks them. With 3 tiers: the
     * core-to-aggregation direction of the l-th core link of aggregation switch g (counted
     * over all pods, g = pod x aggsPerPod + agg) whenever l + g x aggsPerPod < N. With 2
     * tiers: both directions of every link of the first N spines.
     * \return (g, l) pairs with 3 tiers, (spine, 0) pairs with 2 tiers, in that order
     */
    std::vector<std::pair<uint32_t, uint32_t>> GetSlowLinkSelection() const;

    /// Egress queue of a slow link, in packets.
    struct SlowQueue
    {
        uint32_t size; //!< --queuePackets scaled.
        uint32_t kmin; //!< --ecnKmin scaled.
        uint32_t kmax; //!< --ecnKmax scaled.
    };

    /**
     * \return the queue size and ECN thresholds scaled by --slowLinkFactor, each rounded to
     *         the nearest packet, then kept valid: size >= 1, kmin < kmax <= size
     */
    SlowQueue GetSlowLinkQueue() const;

  private:
    /// PrintSetup()'s second line: the workload. \param os where to print
    void PrintWorkload(std::ostream& os) const;
    std::vector<FailureSchedule::Event> m_failureEvents; //!< Events of --failureFile.

    /// Register the options of the workload.
    void RegisterWorkloadOptions();
    /// Register the options of the incast patterns (incast, outcastincast).
    void RegisterIncastOptions();
    /// Check --cdf, and that a Poisson pattern draws at most 10^7 flows.
    void CheckCdf() const;
    /// Register the options of the training loop, and the checks of the collectives.
    void RegisterCollectiveOptions();
    /// Register the options of the trace replay; loads --traceFile.
    void RegisterTraceOptions();
    /// The options of --pattern=nccl (NcclCollective's attributes).
    void RegisterNcclOptions();
    /// Register --chakraTrace; loads the trace and checks its collectives (after the NCCL
    /// options, whose attribute defaults its collectives take).
    void RegisterChakraOptions();
    /// Register the options of the background traffic.
    void RegisterBackgroundOptions();
    /// Register the options of the faults.
    void RegisterFaultOptions();
    /// Register --slowLinks and --slowLinkFactor (uet-htsim's -failed N).
    void RegisterSlowLinkOptions();
    /// Register the options of the run, and the checks across options.
    void RegisterRunOptions();
    /// Register the options of the outputs: JSON, CSV, packet captures, progress lines.
    void RegisterOutputOptions();
    /// Register --systems (MPI ranks) with what a distributed run refuses; starts the MPI
    /// engine when the options are checked.
    void RegisterDistributedOptions();

    FlowTrace m_trace;                                 //!< The trace of --traceFile.
    ChakraTrace m_chakra;                              //!< The trace of --chakraTrace.
    FailureSchedule::HtsimCableFailures m_htsimCables; //!< --failureFile in htsim's format.
};

} // namespace ns3

#endif /* REPS_EXPERIMENT_OPTIONS_H */
