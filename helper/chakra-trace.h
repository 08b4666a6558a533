/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_CHAKRA_TRACE_H
#define REPS_CHAKRA_TRACE_H

#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace ChakraProtoMsg
{
class Node;
} // namespace ChakraProtoMsg

namespace ns3
{

/**
 * \ingroup reps
 * A Chakra execution trace (MLCommons Chakra's ET format), read for replay: one file per rank,
 * `PREFIX.<rank>.et` for ranks 0, 1, ... (as many as exist in a row), each a sequence of
 * protobuf messages, each preceded by its length as a varint: one GlobalMetadata, then Nodes
 * (the schema is helper/chakra-et-def.proto, package ChakraProtoMsg).
 *
 * Node types and the attributes read:
 * - METADATA_NODE: no time. A node named `process_group:init` may declare process groups: its
 *   inputs' values text holds objects with `"pg_name": "NAME"` and `"ranks": [r, ...]` (as
 *   PyTorch's execution traces write them).
 * - COMP_NODE, MEM_LOAD_NODE, MEM_STORE_NODE: `duration_micros`; `is_cpu_op` (bool) puts a
 *   compute node on the rank's CPU instead of its GPU.
 * - COMM_SEND_NODE: `comm_dst` (rank), `comm_size` (bytes, >= 1), `comm_tag`.
 * - COMM_RECV_NODE: `comm_src` (rank), `comm_tag`; `comm_size`, if given, equal to the send's.
 * - COMM_COLL_NODE: `comm_type` (any of Chakra's: ALL_REDUCE, REDUCE, ALL_GATHER, GATHER,
 *   SCATTER, BROADCAST, ALL_TO_ALL, REDUCE_SCATTER, REDUCE_SCATTER_BLOCK, BARRIER),
 *   `comm_size` (bytes, as nccl-tests count them; a barrier's is not read), `pg_name` (the
 *   process group; none: every rank of the trace), `comm_src` or `comm_dst` (broadcast,
 *   reduce, gather, scatter: the root rank, default the group's first).
 * - Every node: `ctrl_deps` and `data_deps` (ids of nodes of the same rank), and the optional
 *   integer attribute `iteration` (the training iteration the node belongs to, default 0).
 *
 * Integer attributes may have any integer value field (int32_val, int64_val, uint64_val, ...).
 * Load() links the ranks: the k-th send from rank a to rank b with tag t is matched with the
 * k-th receive at b from a with tag t; the k-th collective of a process group on each of its
 * ranks are one collective call. It refuses, naming the file, the node and the rank: a missing
 * or truncated file, a message that does not parse, an unknown node type, a comm_type that is
 * not Chakra's, a duplicate node id, a dependency on a missing node, a dependency cycle, an
 * unmatched send or receive, a peer out of range, and collective calls whose ranks disagree.
 *
 * A plain type with no simulator.
 */
class ChakraTrace
{
  public:
    /// No match / no index.
    static constexpr uint32_t NONE = UINT32_MAX;
    /// Most ranks of a trace.
    static constexpr uint32_t MAX_RANKS = 65536;

    /// What a node does in the replay.
    enum class Kind
    {
        METADATA,   //!< Nothing (no time).
        COMPUTE,    //!< A delay of its duration on the rank's GPU or CPU.
        MEMORY,     //!< A delay of its duration (memory load or store).
        SEND,       //!< A message to a peer.
        RECV,       //!< Waits for a message from a peer.
        COLLECTIVE, //!< One rank's part of a collective call.
    };

    /// The collectives a COMM_COLL_NODE may run (values of Chakra's CollectiveCommType).
    enum class Collective
    {
        ALL_REDUCE = 0,
        REDUCE = 1,
        ALL_GATHER = 2,
        GATHER = 3,
        SCATTER = 4,
        BROADCAST = 5,
        ALL_TO_ALL = 6,
        REDUCE_SCATTER = 7,
        REDUCE_SCATTER_BLOCK = 8,
        BARRIER = 9,
    };

    /// One node of a rank.
    struct Node
    {
        uint64_t id{0};                                //!< Its id (unique in its rank).
        std::string name;                              //!< Its name.
        Kind kind{Kind::METADATA};                     //!< What it does.
        std::vector<uint64_t> dataDeps;                //!< Data dependencies, by id.
        std::vector<uint64_t> ctrlDeps;                //!< Control dependencies, by id.
        std::vector<uint32_t> deps;                    //!< Both, as indices in the rank.
        uint64_t durationMicros{0};                    //!< duration_micros.
        uint64_t numOps{0};                            //!< num_ops (compute).
        uint64_t tensorBytes{0};                       //!< tensor_size (compute, memory).
        bool cpu{false};                               //!< is_cpu_op.
        Collective collective{Collective::ALL_REDUCE}; //!< comm_type of a collective.
        uint64_t bytes{0};                             //!< comm_size.
        uint32_t peer{NONE};                           //!< Send: comm_dst; receive: comm_src.
        uint64_t tag{0};                               //!< comm_tag.
        std::string group;                             //!< pg_name.
        uint32_t root{NONE};                           //!< Rooted: comm_src or comm_dst.
        uint32_t iteration{0};                         //!< iteration attribute.
        uint32_t match{NONE}; //!< Send, receive: its message; collective: its call.
    };

    /// A message: a send matched with its receive.
    struct Message
    {
        uint32_t src{0};   //!< Sending rank.
        uint32_t dst{0};   //!< Receiving rank.
        uint32_t send{0};  //!< Index of the send node in its rank.
        uint32_t recv{0};  //!< Index of the receive node in its rank.
        uint64_t bytes{0}; //!< Size.
        uint64_t tag{0};   //!< Tag.
    };

    /// A collective call: the k-th collective of one process group on each of its ranks.
    struct Call
    {
        std::string group;                             //!< Process group ("" = all ranks).
        std::vector<uint32_t> ranks;                   //!< Its ranks, in ring order.
        std::vector<uint32_t> nodes;                   //!< Node index on each of them.
        Collective collective{Collective::ALL_REDUCE}; //!< What it runs.
        uint64_t bytes{0};                             //!< Its size.
        uint32_t root{0};                              //!< Rooted: index of the root in ranks.
        std::string name;                              //!< Name of the first rank's node.
    };

    /**
     * Read the files PREFIX.0.et, PREFIX.1.et, ... (as many as exist in a row) and link them.
     * \param prefix the path of the files without ".<rank>.et".
     * \param error set to why not, when it fails.
     * \return whether the trace was read; on failure the trace keeps what it held before.
     */
    bool Load(const std::string& prefix, std::string& error);

    /**
     * Read the given files as ranks 0, 1, ... and link them.
     * \param files one file per rank.
     * \param error set to why not, when it fails.
     * \return whether the trace was read; on failure the trace keeps what it held before.
     */
    bool LoadFiles(const std::vector<std::string>& files, std::string& error);

    /// \return the number of ranks (0 before a Load).
    uint32_t GetRanks() const;
    /// \return the file of each rank.
    const std::vector<std::string>& GetFiles() const;
    /**
     * \param rank a rank.
     * \return its nodes, in file order.
     */
    const std::vector<Node>& GetNodes(uint32_t rank) const;
    /**
     * \param rank a rank.
     * \return the indices of its nodes in an order where every node follows its dependencies.
     */
    const std::vector<uint32_t>& GetOrder(uint32_t rank) const;
    /// \return the messages.
    const std::vector<Message>& GetMessages() const;
    /// \return the collective calls, in order of their first node (rank 0's first).
    const std::vector<Call>& GetCalls() const;
    /// \return the process groups by name, each its ranks ("" is every rank).
    const std::map<std::string, std::vector<uint32_t>>& GetGroups() const;
    /// \return the largest iteration attribute + 1 (1 when none is given).
    uint32_t GetIterations() const;

    /**
     * \param hosts the hosts of the fabric (rank r runs on host r).
     * \return "" when every rank has a host, else why not (with the allowed range).
     */
    std::string CheckHosts(uint32_t hosts) const;

    /**
     * \param rank a rank.
     * \param node a node index in it.
     * \return "node ID 'NAME' of rank R", for messages.
     */
    std::string Describe(uint32_t rank, uint32_t node) const;

    /**
     * Write one rank's file (for tests and for traces made in C++): a GlobalMetadata, a
     * `process_group:init` node declaring \p groups if any, then the nodes with the
     * attributes the replay reads (collective, bytes, peer, tag, group, root, is_cpu_op,
     * iteration; deps and match are not written).
     * \param file the path.
     * \param nodes the nodes.
     * \param groups process groups to declare, by name (empty: none).
     * \return "" or why the file could not be written.
     */
    static std::string WriteFile(const std::string& file,
                                 const std::vector<Node>& nodes,
                                 const std::map<std::string, std::vector<uint32_t>>& groups = {});

    /// \return the name of a node kind ("compute", "send", ...).
    static std::string KindName(Kind kind);
    /// \return the name of a collective ("all-reduce", ...).
    static std::string CollectiveName(Collective collective);

  private:
    /// What one rank's file holds.
    struct Rank
    {
        std::string file;                                      //!< Where it was read from.
        std::vector<Node> nodes;                               //!< Its nodes.
        std::vector<uint32_t> order;                           //!< A dependency order of them.
        std::map<std::string, std::vector<uint32_t>> declared; //!< Groups it declares.
    };

    /**
     * Read one rank's file.
     * \param file the path.
     * \param rank its rank.
     * \param out filled.
     * \return "" or why not.
     */
    static std::string ReadRank(const std::string& file, uint32_t rank, Rank& out);
    /**
     * Add a node read from a rank's file.
     * \param proto the node as read.
     * \param rank its rank.
     * \param out the rank.
     * \return "" or why the node is not valid.
     */
    static std::string AddNode(const ChakraProtoMsg::Node& proto, uint32_t rank, Rank& out);
    /**
     * Resolve one rank's dependencies and order them.
     * \param rank its rank.
     * \param r it.
     * \return "" or why not.
     */
    static std::string OrderRank(uint32_t rank, Rank& r);
    /// \return "" or why the sends and receives do not match.
    std::string MatchMessages();
    /// (source rank, destination rank, tag) -> node indices, in file order.
    typedef std::map<std::tuple<uint32_t, uint32_t, uint64_t>, std::vector<uint32_t>> Endpoints;
    /**
     * Pair the k-th send of each (source, destination, tag) with the k-th receive.
     * \param sends the sends.
     * \param recvs the receives.
     * \return "" or why not.
     */
    std::string PairMessages(const Endpoints& sends, const Endpoints& recvs);
    /// \return "" or why the process groups are not valid.
    std::string MakeGroups();
    /// \return "" or why the collectives do not form calls.
    std::string MatchCalls();
    /**
     * Make the calls of one process group.
     * \param group its name.
     * \param lists the node indices of its collectives on each rank.
     * \return "" or why its ranks disagree.
     */
    std::string MakeCalls(const std::string& group,
                          const std::vector<std::vector<uint32_t>>& lists);
    /**
     * Run every node in zero time, sends with their receives and collectives when all their
     * ranks reached them.
     * \return "" when every node completes, else which node waits forever, and for what.
     */
    std::string DryRun() const;
    /**
     * \param started each node of each rank started in the dry run.
     * \param done each node of each rank completed in it.
     * \return "" or the first node that started and never completed, and why.
     */
    std::string Stuck(const std::vector<std::vector<bool>>& started,
                      const std::vector<std::vector<bool>>& done) const;
    /**
     * \param r a rank being read.
     * \param rank its rank.
     * \param node a node index.
     * \return Describe() of a rank being read (not in m_ranks yet).
     */
    static std::string Describe(const Rank& r, uint32_t rank, uint32_t node);

    std::vector<Rank> m_ranks;                             //!< Each rank.
    std::vector<std::string> m_files;                      //!< Each rank's file.
    std::vector<Message> m_messages;                       //!< Matched messages.
    std::vector<Call> m_calls;                             //!< Collective calls.
    std::map<std::string, std::vector<uint32_t>> m_groups; //!< Process groups.
    uint32_t m_iterations{0};                              //!< Iterations.
};

} // namespace ns3

#endif /* REPS_CHAKRA_TRACE_H */
