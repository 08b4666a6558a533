/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_NCCL_SCHEDULE_H
#define REPS_NCCL_SCHEDULE_H

#include <cstdint>
#include <string>
#include <vector>

/**
 * \file
 * \ingroup reps
 * The transfers of an NCCL-style collective as a plain C++ computation (no simulator): who
 * sends how many bytes to whom, on which channel and queue pair, and after which other
 * transfers. A collective engine runs the result on a fabric; the GoogleTests check it against
 * hand-computed schedules. The manual's chapter "AI training" describes the algorithms and the
 * defaults (those of NCCL 2.21: 2 channels, messages of 512 KiB, 4 per chunk, 8 in flight per
 * connection, 1 queue pair per connection, messages round-robin over the queue pairs).
 */

namespace ns3
{

/// \ingroup reps
/// The collectives.
enum class NcclOperation : uint8_t
{
    ALL_REDUCE = 0,
    ALL_GATHER = 1,
    REDUCE_SCATTER = 2,
    BROADCAST = 3,
    ALL_TO_ALL = 4,
    REDUCE = 5,
    GATHER = 6,
    SCATTER = 7,
};

/// \ingroup reps
/// The algorithms: a ring, (all-reduce only) a double binary tree, or (all-reduce, all-gather,
/// reduce-scatter) a hierarchical ring: inside each server's scale-up domain, then on the rails.
enum class NcclAlgorithm : uint8_t
{
    RING = 0,
    TREE = 1,
    HIERARCHICAL = 2,
};

/**
 * \param c a collective
 * \return its name ("allreduce", "allgather", "reducescatter", "broadcast", "alltoall",
 *         "reduce", "gather", "scatter")
 */
const char* NcclOperationName(NcclOperation c);

/**
 * \param a an algorithm
 * \return its name ("ring", "tree", "hierarchical")
 */
const char* NcclAlgorithmName(NcclAlgorithm a);

/**
 * \ingroup reps
 * The GPUs of a communicator: rank i is GPU local[i] of server server[i].
 */
struct NcclCommunicator
{
    std::vector<uint32_t> server; //!< Server of each rank.
    std::vector<uint32_t> local;  //!< Index of each rank's GPU in its server.

    /**
     * \param servers servers
     * \param gpusPerServer GPUs of each
     * \return every GPU of the servers, rank s x gpusPerServer + g for GPU g of server s
     */
    static NcclCommunicator Servers(uint32_t servers, uint32_t gpusPerServer);

    /// \return the number of ranks
    uint32_t GetSize() const
    {
        return static_cast<uint32_t>(server.size());
    }
};

/**
 * \ingroup reps
 * What to schedule, and NCCL's knobs.
 */
struct NcclScheduleParameters
{
    NcclOperation collective{NcclOperation::ALL_REDUCE}; //!< The collective.
    NcclAlgorithm algorithm{NcclAlgorithm::RING};        //!< The algorithm.
    /**
     * The collective's size as nccl-tests states it: the buffer of each rank (all-reduce,
     * broadcast, reduce), the output of each rank (all-gather: n pieces), the input of each
     * rank (reduce-scatter: n pieces), the send buffer of each rank (all-to-all: bytes / n to
     * each rank, itself included, which is a local copy), the root's buffer (gather, scatter:
     * n pieces, the root's own a local copy).
     */
    uint64_t bytes{0};
    uint32_t channels{2};         //!< Channels (NCCL_MIN_NCHANNELS = NCCL_MAX_NCHANNELS).
    uint64_t chunkBytes{524288};  //!< Bytes of one message (NCCL_BUFFSIZE / NCCL_STEPS).
    uint32_t chunkSteps{4};       //!< Ring: messages per rank per loop (NCCL's CHUNKSTEPS).
    uint32_t slots{8};            //!< Messages in flight per connection (NCCL_STEPS).
    uint32_t qpsPerConnection{1}; //!< Queue pairs per connection (NCCL_IB_QPS_PER_CONNECTION).
    bool splitDataOnQps{false};   //!< Split each message over the QPs (NCCL_IB_SPLIT_DATA_ON_QPS).
    uint32_t root{0};             //!< Root rank of a broadcast, reduce, gather or scatter.
    uint32_t allToAllWindow{0};   //!< Peers an all-to-all, gather or scatter has at once (0: all).
    bool pxn{false};              //!< Send cross-server messages from the GPU on the peer's rail.
};

/**
 * \ingroup reps
 * One transfer: bytes from GPU src to GPU dst, over the scale-up domain when both are on one
 * server, else over the fabric on queue pair qp of the connection (channel, src, dst).
 */
struct NcclTransfer
{
    uint32_t channel{0}; //!< Channel (the tree, for the tree algorithm: channel % 2).
    uint32_t src{0};     //!< Sending rank.
    uint32_t dst{0};     //!< Receiving rank.
    uint32_t qp{0};      //!< Queue pair of the connection.
    uint64_t bytes{0};   //!< Payload bytes.
    /// Step of the algorithm (ring step; broadcast, reduce: hop of the chain; tree: 0 up, 1
    /// down; a2a: peer; gather, scatter: the peer's distance from the root; hierarchical: the steps
    /// of its phases numbered in turn, e.g. all-reduce on S servers of G GPUs: 0 .. G-2 inside
    /// the servers, G-1 .. G+2S-4 on the rails, then G+2S-3 .. 2G+2S-5 inside the servers).
    uint32_t step{0};
    uint32_t chunk{0};   //!< Pipeline chunk of the channel.
    bool scaleUp{false}; //!< src and dst are on one server.
    bool proxy{false};   //!< The scale-up hop of a PXN message, or its fabric hop from the proxy.
    std::vector<uint32_t> after; //!< Transfers (indices) that must have arrived before it starts.
};

/**
 * \ingroup reps
 * Builds the transfers of a collective.
 */
class NcclSchedule
{
  public:
    /**
     * \param p what to schedule
     * \param comm the communicator
     * \return "" when they can be scheduled, else a message naming the parameter and its
     *         allowed range
     */
    static std::string Check(const NcclScheduleParameters& p, const NcclCommunicator& comm);

    /**
     * \param p what to schedule (Check() must have accepted it)
     * \param comm the communicator
     * \return every transfer, each after the transfers it waits for; transfers of one queue
     *         pair are posted in their order here
     */
    static std::vector<NcclTransfer> Build(const NcclScheduleParameters& p,
                                           const NcclCommunicator& comm);

    /**
     * The ring of a channel: the GPUs of each server in turn, server after server, starting
     * in every server at GPU (channel mod G), so that channels leave each server from
     * different GPUs.
     * \param comm the communicator
     * \param channel the channel
     * \return the ranks in ring order
     */
    static std::vector<uint32_t> Ring(const NcclCommunicator& comm, uint32_t channel);

    /**
     * The tree of a channel: a balanced binary tree over the servers (over the ranks when
     * each server has one GPU of the communicator), the second tree (odd channels) mirrored,
     * or shifted by one for an odd number of servers, so that a leaf of one is inner in the
     * other; inside a server, a chain from the server's first GPU.
     * \param comm the communicator
     * \param tree 0 or 1
     * \param [out] parent parent of each rank (the root's is itself)
     * \return the root
     */
    static uint32_t Tree(const NcclCommunicator& comm,
                         uint32_t tree,
                         std::vector<uint32_t>& parent);

    /**
     * \param c a collective
     * \param n ranks
     * \return the factor nccl-tests gives bus bandwidth over algorithm bandwidth
     *         (all-reduce 2(n-1)/n; all-gather, reduce-scatter, all-to-all, gather, scatter
     *         (n-1)/n; broadcast, reduce 1)
     */
    static double BusBandwidthFactor(NcclOperation c, uint32_t n);
};

} // namespace ns3

#endif /* REPS_NCCL_SCHEDULE_H */
