/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_WORKLOAD_HELPER_H
#define REPS_WORKLOAD_HELPER_H

#include "flow-size-cdf.h"
#include "flow-spec.h"

#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/random-variable-stream.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup reps
 * Generates the classic data-center and AI-training traffic patterns over N hosts (indices 0
 * to N-1) as lists of FlowSpec, independent of the fabric and of the transport.
 *
 * Every flow starts at the start time (SetStartTime), plus a uniformly random delay in
 * [0, jitter) when SetStartJitter is set. The random choices (the permutation, the incast
 * senders, Poisson arrivals and sizes, background hosts) come from RandomVariableStream
 * members: AssignStreams() fixes their streams, so that `--RngRun` changes the workload and the
 * same run number reproduces it. Flow ids are unique across all the calls on one helper.
 *
 * \code
 *   WorkloadHelper wl(128);
 *   wl.AssignStreams(100);
 *   wl.SetStartTime(MicroSeconds(10));
 *   std::vector<FlowSpec> flows = wl.Permutation(8 * 1024 * 1024);
 * \endcode
 */
class WorkloadHelper
{
  public:
    /**
     * \param hosts number of hosts N (at least 2).
     */
    explicit WorkloadHelper(uint32_t hosts);

    /// \return the number of hosts.
    uint32_t GetHosts() const;

    /**
     * \param start when the flows start (absolute simulated time).
     */
    void SetStartTime(Time start);

    /**
     * \param jitter each flow starts at a uniformly random offset in [0, jitter) after the
     * start time (zero: all start together).
     */
    void SetStartJitter(Time jitter);

    /**
     * Assign fixed random variable stream numbers to the random variables used here.
     * \param stream first stream index to use
     * \return the number of stream indices assigned (3)
     */
    int64_t AssignStreams(int64_t stream);

    /**
     * A random permutation without fixed points (a derangement, drawn uniformly): every host
     * sends to exactly one other host and receives from exactly one.
     * \param bytes message size of every flow.
     * \return N flows, tag "permutation".
     */
    std::vector<FlowSpec> Permutation(uint64_t bytes);

    /**
     * \param bytes message size of every flow.
     * \return N flows, host i to host (i + N/2) mod N, tag "tornado".
     */
    std::vector<FlowSpec> Tornado(uint64_t bytes);

    /**
     * \param senders number of senders (1 to N-1), drawn at random among the other hosts.
     * \param dst the receiving host.
     * \param bytes message size of every flow.
     * \return \p senders flows into \p dst, tag "incast".
     */
    std::vector<FlowSpec> Incast(uint32_t senders, uint32_t dst, uint64_t bytes);

    /**
     * One connection across the fabric, or one each way (uet-htsim's one.cm and bidir.cm):
     * host 0 to the last host, which lies under another leaf (and pod) whenever there is one.
     * \param bytes message size of every flow.
     * \param bidirectional also a flow from the last host to host 0.
     * \return 1 or 2 flows, tag "single" or "bidir".
     */
    std::vector<FlowSpec> Pair(uint64_t bytes, bool bidirectional);

    /**
     * An incast whose senders also send elsewhere (uet-htsim's outcast_incast.cm): hosts 1 to
     * \p senders each send one flow into host 0; hosts 2 to \p senders also each send
     * \p outcastFlows flows to hosts of their own, numbered on from \p senders + 1 (host 2 to
     * senders + 1, ..., host 3 to the next ones), so that host 1's flow into host 0 is the
     * victim of the others' outcast. Needs 1 + senders + (senders - 1) x outcastFlows hosts.
     * \param senders incast senders (1 to N-1).
     * \param outcastFlows flows each sender but host 1 also sends to hosts of its own.
     * \param bytes message size of every flow.
     * \return the incast flows (tag "incast") and the outcast flows (tag "outcast").
     */
    std::vector<FlowSpec> OutcastIncast(uint32_t senders, uint32_t outcastFlows, uint64_t bytes);

    /**
     * Every host sends to every other host.
     * \param bytesPerPeer bytes from one host to one peer, split over \p flowsPerPeer flows.
     * \param flowsPerPeer parallel flows (queue pairs) per ordered pair of hosts (at least 1).
     * \return N (N-1) flowsPerPeer flows, tag "alltoall".
     */
    std::vector<FlowSpec> AllToAll(uint64_t bytesPerPeer, uint32_t flowsPerPeer = 1);

    /**
     * Open-loop traffic: each host starts flows as a Poisson process of rate
     * load * hostRate / (8 * mean size), sizes drawn from \p sizes (linear interpolation,
     * rounded to whole bytes, at least 1), to a destination drawn uniformly among the others.
     * \param sizes the flow-size distribution.
     * \param load offered load per host, a fraction of its link rate (0, 1].
     * \param hostRate link rate of a host.
     * \param duration flows start in [start, start + duration).
     * Calls with the same distribution continue one size sequence; a different distribution
     * starts a new sequence on the same stream.
     * \return the flows in order of start time, tag "poisson".
     */
    std::vector<FlowSpec> Poisson(const FlowSizeCdf& sizes,
                                  double load,
                                  DataRate hostRate,
                                  Time duration);

    /**
     * Background traffic: round(fraction * N) hosts, drawn at random, each send one flow to a
     * random other host; the flows are marked as background (to be pinned to one path, as
     * ECMP does).
     * \param fraction share of hosts that send, in [0, 1].
     * \param bytes message size of every flow.
     * \return the flows, tag "background".
     */
    std::vector<FlowSpec> Background(double fraction, uint64_t bytes);

    /**
     * \param n a number of items.
     * \return a uniformly random permutation of 0..n-1.
     */
    std::vector<uint32_t> Shuffle(uint32_t n);

  private:
    /**
     * \param src sender.
     * \param dst receiver.
     * \param bytes size.
     * \param tag the pattern's name.
     * \return a flow with the next id and the start time (plus jitter).
     */
    FlowSpec Make(uint32_t src, uint32_t dst, uint64_t bytes, const char* tag);

    /**
     * \param src a host.
     * \return a host other than \p src, uniformly.
     */
    uint32_t OtherHost(uint32_t src);

    uint32_t m_hosts;                           //!< Number of hosts N.
    Time m_start;                               //!< Start time of every flow.
    Time m_jitter;                              //!< Random start offset bound.
    uint32_t m_nextId;                          //!< Id of the next flow.
    int64_t m_sizeStream;                       //!< Stream of flow-size variables (-1: auto).
    Ptr<UniformRandomVariable> m_uniform;       //!< Permutations, hosts, jitter.
    Ptr<ExponentialRandomVariable> m_interval;  //!< Poisson inter-arrival times.
    Ptr<EmpiricalRandomVariable> m_sizes;       //!< Flow sizes of the last distribution used.
    std::vector<FlowSizeCdf::Point> m_sizesCdf; //!< The points m_sizes was built from.
};

} // namespace ns3

#endif /* REPS_WORKLOAD_HELPER_H */
