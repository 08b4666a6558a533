/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_FABRIC_EXPERIMENT_H
#define REPS_FABRIC_EXPERIMENT_H

#include "experiment-report.h"
#include "path-selector-names.h"
#include "run-result.h"

#include "ns3/callback.h"
#include "ns3/command-line.h"
#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/type-id.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

class ClosFabric;
class RdmaHelper;
class RdmaQueuePair;
class WorkloadHelper;

/**
 * \ingroup reps
 * One load-balancing experiment on a Clos fabric, run once per path selector with everything
 * else equal: the fabric (2 or 3 tiers, rates, delays, ECN queues, trimming), its faults
 * (degraded and failed leaf uplinks), RDMA queue pairs with the chosen congestion control, and
 * a workload (permutation, tornado, incast, all-to-all, ring all-reduce, or Poisson flows with
 * web-search or Hadoop sizes, plus optional ECMP-pinned RDMA background flows and ns-3 TCP
 * background flows).
 *
 * The public fields are the options; an example changes the defaults it wants, calls
 * AddOptions() (which lists every option, with its unit, in --help), parses its command line,
 * then Check() (which converts and checks every value, and exits with a message naming the
 * option and what is allowed on a bad one), and Run() per path selector.
 *
 * Every run uses the same workload and the same random streams (they depend on --RngRun only),
 * so the runs differ only by their path selector.
 */
class FabricExperiment
{
  public:
    FabricExperiment();

    /**
     * Register every option with the command line.
     * \param cmd the command line.
     */
    void AddOptions(CommandLine& cmd);

    /// Convert and check every option; print what is wrong and exit(1) on a bad one.
    void Check();

    /// \return the path selectors of --lb (after Check()).
    const std::vector<PathSelectorNames::Choice>& GetSelectors() const;

    /**
     * Record every option in a report's configuration.
     * \param report the report.
     */
    void FillConfig(ExperimentReport& report) const;

    /**
     * Build the fabric, run the workload with one path selector, and tear the simulation
     * down.
     * \param lb the path selector.
     * \return what was measured.
     */
    RunResult Run(const PathSelectorNames::Choice& lb);

    /**
     * Run every path selector of --lb, print the setup and the side-by-side table to \p os,
     * and write --json and --csv (exits with a message when a file cannot be written).
     * \param os where to print.
     * \param report receives the configuration and one result per path selector.
     */
    void RunAll(std::ostream& os, ExperimentReport& report);

    /**
     * Write the report to --json and --csv if they are set; exit(1) with a message if a file
     * cannot be written.
     * \param report the report.
     */
    void WriteOutputs(const ExperimentReport& report) const;

    /**
     * Give every shape option left at 0 the default of the chosen tier count: the 2-tier
     * 128-host fabric of the REPS paper (16 leaves x 8 hosts, 8 spines) or the k = 8 fat tree
     * (8 pods of 4 leaves x 4 hosts and 4 aggregation switches, 16 cores). Check() calls it.
     */
    void ApplyTierDefaults();

    /**
     * Print one line describing the fabric and workload (hosts, links, base RTT, flows).
     * \param os the stream.
     */
    void PrintSetup(std::ostream& os) const;

    /// \return the number of hosts of the fabric the options describe.
    uint32_t GetHosts() const;

    /**
     * Called in every run once the fabric, the RDMA stacks and the queue pairs of the
     * workload are built, before the simulation starts: the place for a research script to
     * connect its own trace sinks or change attributes of the objects built.
     */
    typedef Callback<void, Ptr<ClosFabric>, const std::vector<Ptr<RdmaQueuePair>>&> BuiltCallback;

    /// \param cb called in every run after building (a null callback: none)
    void SetBuiltCallback(BuiltCallback cb);

    // The options (their names on the command line are the field names).
    std::string lb;                //!< Comma list of path selectors.
    uint32_t tiers;                //!< 2 or 3.
    uint32_t leaves;               //!< Leaves (2 tiers) or leaves per pod (3 tiers).
    uint32_t hostsPerLeaf;         //!< Hosts per leaf.
    uint32_t spines;               //!< Spines (2 tiers) or aggregation switches per pod (3 tiers).
    uint32_t pods;                 //!< Pods (3 tiers).
    uint32_t cores;                //!< Core switches (3 tiers).
    std::string linkRate;          //!< Rate of every link.
    std::string linkDelay;         //!< Propagation delay of every link.
    uint32_t mtu;                  //!< Payload bytes per packet.
    uint32_t queuePackets;         //!< Switch egress queue size in packets.
    uint32_t ecnKmin;              //!< ECN marking starts (packets).
    uint32_t ecnKmax;              //!< ECN marking at full probability (packets).
    bool trim;                     //!< Trim instead of dropping.
    std::string markOn;            //!< ECN decided on dequeue or enqueue.
    bool controlPriority;          //!< Control packets served ahead of data.
    std::string baseRtt;           //!< Queue pairs' base RTT: pair or fabric.
    std::string rto;               //!< RTO rule: reference, basertt or a Time.
    std::string minRto;            //!< Lower bound of every queue pair's RTO.
    bool rtoBackoff;               //!< Exponential RTO backoff.
    std::string opsVariant;        //!< OPS: uniform or deck.
    bool freezing;                 //!< REPS freezing enabled.
    std::string freezeDuration;    //!< REPS freeze duration.
    std::string forwarding;        //!< Switch forwarding: hash, random or adaptive.
    std::string cc;                //!< Congestion control: short name or TypeId.
    std::string pattern;           //!< Traffic pattern.
    std::string flowSize;          //!< Bytes per flow (or per host for all-reduce).
    double load;                   //!< Offered load of Poisson patterns.
    std::string duration;          //!< Arrival window of Poisson patterns.
    std::string cdf;               //!< Flow-size distribution of Poisson patterns (name or file).
    uint32_t incastSenders;        //!< Senders of the incast pattern.
    uint32_t qpsPerPeer;           //!< Queue pairs per peer (all-to-all).
    std::string ring;              //!< Ring order of the all-reduce.
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
    std::string reconverge;        //!< Routing convergence delay after a change ("never").
    uint32_t evSpace;              //!< Entropy space of the path selectors.
    uint64_t rngRun;               //!< ns-3 run number (RngSeedManager::SetRun).
    std::string startTime;         //!< When the workload starts.
    std::string stopTime;          //!< Simulated-time limit.
    std::string sampleInterval;    //!< Time-series interval (0: none).
    std::string json;              //!< JSON summary file.
    std::string csv;               //!< CSV file.
    bool quiet;                    //!< No progress lines.

  private:
    /**
     * \return the selected leaf uplinks of one leaf or at random, for degradation or failure.
     * \param fabric the fabric.
     * \param n how many.
     * \param leaf which leaf (-1: random over all leaf uplinks).
     * \param seed seed of the random choice.
     * \param option the option, for messages.
     */
    std::vector<uint32_t> PickUplinks(Ptr<ClosFabric> fabric,
                                      uint32_t n,
                                      int32_t leaf,
                                      uint32_t seed,
                                      const std::string& option) const;

    /**
     * \param workload draws the random order.
     * \param fabric the fabric.
     * \return the hosts in the all-reduce ring order of --ring.
     */
    std::vector<uint32_t> RingOrder(WorkloadHelper& workload, Ptr<ClosFabric> fabric) const;

    /**
     * \param fabricRtt the fabric's longest base RTT.
     * \param packetBytes IPv4 size of a full data packet.
     * \return the Rto attribute of the queue pairs under --rto (0: 5 x their base RTT).
     */
    Time QueuePairRto(Time fabricRtt, uint32_t packetBytes) const;

    /**
     * Apply the options that belong to one kind of path selector (--opsVariant, --freezing,
     * --freezeDuration) when the selector has them.
     * \param rdma the helper whose path selector was just set.
     * \param selector the selector's TypeId.
     */
    void SetSelectorOptions(RdmaHelper& rdma, TypeId selector) const;

    BuiltCallback m_built;                              //!< SetBuiltCallback().
    bool m_checked;                                     //!< Check() ran.
    std::vector<PathSelectorNames::Choice> m_selectors; //!< Parsed --lb.
    DataRate m_linkRate;                                //!< Parsed --linkRate.
    Time m_linkDelay;                                   //!< Parsed --linkDelay.
    uint64_t m_flowBytes;                               //!< Parsed --flowSize.
    uint64_t m_backgroundBytes;                         //!< Parsed --backgroundSize.
    uint64_t m_tcpBackgroundBytes;                      //!< Parsed --tcpBackgroundSize.
    Time m_tcpMinRto;                                   //!< Parsed --tcpMinRto.
    TypeId m_tcpVariant;                                //!< Parsed --tcpVariant.
    Time m_duration;                                    //!< Parsed --duration.
    DataRate m_degradedRate;                            //!< Parsed --degradedRate.
    Time m_failAt;                                      //!< Parsed --failAt.
    Time m_failFor;                                     //!< Parsed --failFor.
    Time m_failGap;                                     //!< Parsed --failGap.
    Time m_reconverge;                                  //!< Parsed --reconverge.
    Time m_rto;                                         //!< Parsed --rto when a Time, else 0.
    Time m_minRto;                                      //!< Parsed --minRto.
    Time m_freezeDuration;                              //!< Parsed --freezeDuration.
    Time m_start;                                       //!< Parsed --startTime.
    Time m_stop;                                        //!< Parsed --stopTime.
    Time m_sample;                                      //!< Parsed --sampleInterval.
    std::string m_ccType;                               //!< TypeId of --cc.
};

} // namespace ns3

#endif /* REPS_FABRIC_EXPERIMENT_H */
