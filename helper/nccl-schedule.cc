/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "nccl-schedule.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <tuple>
#include <utility>

namespace ns3
{

const char*
NcclOperationName(NcclOperation c)
{
    switch (c)
    {
    case NcclOperation::ALL_REDUCE:
        return "allreduce";
    case NcclOperation::ALL_GATHER:
        return "allgather";
    case NcclOperation::REDUCE_SCATTER:
        return "reducescatter";
    case NcclOperation::BROADCAST:
        return "broadcast";
    case NcclOperation::ALL_TO_ALL:
        return "alltoall";
    case NcclOperation::REDUCE:
        return "reduce";
    case NcclOperation::GATHER:
        return "gather";
    case NcclOperation::SCATTER:
        return "scatter";
    }
    return "?";
}

const char*
NcclAlgorithmName(NcclAlgorithm a)
{
    switch (a)
    {
    case NcclAlgorithm::RING:
        return "ring";
    case NcclAlgorithm::TREE:
        return "tree";
    case NcclAlgorithm::HIERARCHICAL:
        return "hierarchical";
    }
    return "?";
}

NcclCommunicator
NcclCommunicator::Servers(uint32_t servers, uint32_t gpusPerServer)
{
    NcclCommunicator comm;
    for (uint32_t s = 0; s < servers; ++s)
    {
        for (uint32_t g = 0; g < gpusPerServer; ++g)
        {
            comm.server.push_back(s);
            comm.local.push_back(g);
        }
    }
    return comm;
}

namespace
{

/// The share of part of \p total split into \p parts as evenly as bytes allow.
uint64_t
Share(uint64_t total, uint32_t parts, uint32_t part)
{
    return total / parts + (part < total % parts ? 1 : 0);
}

/// The servers of a communicator in order of first appearance, each with its ranks by GPU.
std::vector<std::vector<uint32_t>>
ServerRanks(const NcclCommunicator& comm)
{
    std::vector<std::vector<uint32_t>> servers;
    std::map<uint32_t, size_t> index;
    for (uint32_t r = 0; r < comm.GetSize(); ++r)
    {
        auto [it, added] = index.emplace(comm.server[r], servers.size());
        if (added)
        {
            servers.emplace_back();
        }
        servers[it->second].push_back(r);
    }
    for (auto& ranks : servers)
    {
        std::stable_sort(ranks.begin(), ranks.end(), [&comm](uint32_t a, uint32_t b) {
            return comm.local[a] < comm.local[b];
        });
    }
    return servers;
}

/**
 * The parent of in-order position q (1-based) of a complete binary tree over 1..m: the node
 * of height h (q's trailing zeros) hangs below q + 2^h or q - 2^h, whichever has height h + 1;
 * ancestors beyond m are skipped. The root, the largest power of two in 1..m, returns 0.
 */
uint32_t
InOrderParent(uint64_t q, uint64_t m)
{
    uint64_t root = 1;
    while (root * 2 <= m)
    {
        root *= 2;
    }
    if (q == root)
    {
        return 0;
    }
    do
    {
        uint64_t low = q & (~q + 1); // 2^h
        q = ((q / low / 2) % 2 == 0) ? q + low : q - low;
    } while (q > m);
    return static_cast<uint32_t>(q);
}

/// Builds the transfers: messages on connections, with the slot rule and the queue pairs.
class Builder
{
  public:
    Builder(const NcclScheduleParameters& p, const NcclCommunicator& comm)
        : m_p(p),
          m_comm(comm)
    {
        for (uint32_t r = 0; r < comm.GetSize(); ++r)
        {
            m_rankOf[{comm.server[r], comm.local[r]}] = r;
        }
    }

    /**
     * A message of the algorithm; with PXN, a cross-rail message is a scale-up hop to the
     * GPU of the sender's server on the receiver's rail, then that GPU's fabric message.
     * \return what a transfer waiting for it waits for
     */
    std::vector<uint32_t> Message(uint32_t channel,
                                  uint32_t src,
                                  uint32_t dst,
                                  uint64_t bytes,
                                  uint32_t step,
                                  uint32_t chunk,
                                  const std::vector<uint32_t>& after)
    {
        if (bytes == 0)
        {
            return after; // nothing to send: its dependants wait for what it waited for
        }
        if (m_p.pxn && m_comm.server[src] != m_comm.server[dst] &&
            m_comm.local[src] != m_comm.local[dst])
        {
            auto it = m_rankOf.find({m_comm.server[src], m_comm.local[dst]});
            if (it != m_rankOf.end())
            {
                std::vector<uint32_t> hop =
                    Post(channel, src, it->second, bytes, step, chunk, after, true);
                return Post(channel, it->second, dst, bytes, step, chunk, hop, true);
            }
        }
        return Post(channel, src, dst, bytes, step, chunk, after, false);
    }

    std::vector<NcclTransfer> Take()
    {
        return std::move(m_out);
    }

  private:
    /// One message on the connection (channel, src, dst): its pieces on the queue pairs.
    std::vector<uint32_t> Post(uint32_t channel,
                               uint32_t src,
                               uint32_t dst,
                               uint64_t bytes,
                               uint32_t step,
                               uint32_t chunk,
                               const std::vector<uint32_t>& after,
                               bool proxy)
    {
        const bool scaleUp = m_comm.server[src] == m_comm.server[dst];
        std::vector<std::vector<uint32_t>>& sent = m_connections[{channel, src, dst}];
        std::vector<uint32_t> wait = after;
        if (sent.size() >= m_p.slots)
        {
            // The receiver's buffer has m_p.slots slots: a message waits for the arrival of
            // the one m_p.slots before it on the connection.
            const std::vector<uint32_t>& freed = sent[sent.size() - m_p.slots];
            wait.insert(wait.end(), freed.begin(), freed.end());
        }
        std::sort(wait.begin(), wait.end());
        wait.erase(std::unique(wait.begin(), wait.end()), wait.end());

        std::vector<uint32_t> pieces;
        auto add = [&](uint32_t qp, uint64_t b) {
            NcclTransfer t;
            t.channel = channel;
            t.src = src;
            t.dst = dst;
            t.qp = qp;
            t.bytes = b;
            t.step = step;
            t.chunk = chunk;
            t.scaleUp = scaleUp;
            t.proxy = proxy;
            t.after = wait;
            pieces.push_back(static_cast<uint32_t>(m_out.size()));
            m_out.push_back(std::move(t));
        };
        const uint32_t qps = scaleUp ? 1 : m_p.qpsPerConnection;
        if (m_p.splitDataOnQps && qps > 1)
        {
            for (uint32_t q = 0; q < qps; ++q)
            {
                uint64_t b = Share(bytes, qps, q);
                if (b > 0)
                {
                    add(q, b);
                }
            }
        }
        else
        {
            add(static_cast<uint32_t>(sent.size() % qps), bytes);
        }
        sent.push_back(pieces);
        return pieces;
    }

    const NcclScheduleParameters& m_p;
    const NcclCommunicator& m_comm;
    std::map<std::pair<uint32_t, uint32_t>, uint32_t> m_rankOf; //!< (server, GPU) -> rank.
    /// Per connection (channel, src, dst): the pieces of each message posted, in order.
    std::map<std::tuple<uint32_t, uint32_t, uint32_t>, std::vector<std::vector<uint32_t>>>
        m_connections;
    std::vector<NcclTransfer> m_out;
};

/// What a ring pass computes.
enum class RingKind : uint8_t
{
    ALL_REDUCE,     //!< Steps 0 .. 2n-3: reduce-scatter, then all-gather.
    ALL_GATHER,     //!< Steps 0 .. n-2: every piece forwarded around the ring.
    REDUCE_SCATTER, //!< Steps 0 .. n-2: every piece summed around the ring.
};

/**
 * One loop of a ring: the n ranks of \p ring move one piece each per step. Piece k is the
 * piece position k starts with (all-gather) or the piece that ends, summed, at position k - 1
 * (reduce-scatter, all-reduce); at step s position pos sends piece (pos - s) mod n to
 * position pos + 1, in messages of at most chunkBytes; message m of a step waits for message m
 * of the step before, which carried the same piece into the sender.
 */
struct RingLoop
{
    RingKind kind{RingKind::ALL_REDUCE};     //!< What the loop computes.
    std::vector<uint32_t> ring;              //!< Ranks in ring order (n = its size).
    std::function<uint64_t(uint32_t)> piece; //!< Bytes of piece k.
    uint32_t channel{0};                     //!< Channel of its connections.
    uint32_t stepBase{0};                    //!< Step number of its step 0.
    uint32_t chunk{0};                       //!< Its pipeline chunk (the loop's number).
    /// Per position: transfers that must have arrived before it sends its own data (empty: none).
    std::vector<std::vector<uint32_t>> ready;

    /// \return the number of steps
    uint32_t Steps() const
    {
        auto n = static_cast<uint32_t>(ring.size());
        return kind == RingKind::ALL_REDUCE ? 2 * (n - 1) : n - 1;
    }

    /**
     * Posts the loop's messages.
     * \param b the builder
     * \param chunkBytes bytes of a message
     * \return per position, what its result waits for: its ready transfers and the messages
     *         that brought it final data (all-reduce: the last n - 1 steps' into it and the
     *         step's before them; reduce-scatter: the last step's; all-gather: all)
     */
    std::vector<std::vector<uint32_t>> Post(Builder& b, uint64_t chunkBytes) const;
};

std::vector<std::vector<uint32_t>>
RingLoop::Post(Builder& b, uint64_t chunkBytes) const
{
    const auto n = static_cast<uint32_t>(ring.size());
    std::vector<std::vector<uint32_t>> result = ready;
    result.resize(n);
    if (n < 2)
    {
        return result;
    }
    const std::vector<uint32_t> none;
    // What each position sent at the step before, per message of the piece.
    std::vector<std::vector<std::vector<uint32_t>>> previous(n);
    for (uint32_t s = 0; s < Steps(); ++s)
    {
        // Whether the sender's own data is in the step's messages, and whether they bring
        // their receiver final data.
        const bool own = kind == RingKind::ALL_GATHER ? s == 0 : s + 1 < n;
        const bool final = kind == RingKind::ALL_GATHER || s + 2 >= n;
        std::vector<std::vector<std::vector<uint32_t>>> current(n);
        for (uint32_t pos = 0; pos < n; ++pos)
        {
            const uint64_t bytes = piece((pos + n - s % n) % n);
            const auto& before = previous[(pos + n - 1) % n];
            const uint64_t messages = (bytes + chunkBytes - 1) / chunkBytes;
            const bool waitReady = own && pos < ready.size() && !ready[pos].empty();
            const uint32_t next = (pos + 1) % n;
            current[pos].resize(messages);
            for (uint64_t m = 0; m < messages; ++m)
            {
                const uint64_t size = std::min(chunkBytes, bytes - m * chunkBytes);
                const std::vector<uint32_t>& chain =
                    s == 0 || m >= before.size() ? none : before[m];
                std::vector<uint32_t> after;
                if (waitReady)
                {
                    after = chain;
                    after.insert(after.end(), ready[pos].begin(), ready[pos].end());
                }
                current[pos][m] = b.Message(channel,
                                            ring[pos],
                                            ring[next],
                                            size,
                                            stepBase + s,
                                            chunk,
                                            waitReady ? after : chain);
                if (final)
                {
                    result[next].insert(result[next].end(),
                                        current[pos][m].begin(),
                                        current[pos][m].end());
                }
            }
        }
        previous = std::move(current);
    }
    return result;
}

/**
 * Ring all-reduce (steps 0 .. 2n-3), all-gather and reduce-scatter (steps 0 .. n-2). A loop
 * moves one piece per rank (all-reduce: the loop's bytes in n pieces; all-gather and
 * reduce-scatter: a part of each rank's own piece), each step's piece in up to chunkSteps
 * messages of chunkBytes.
 */
void
BuildRing(Builder& b, const NcclScheduleParameters& p, const NcclCommunicator& comm)
{
    const uint32_t n = comm.GetSize();
    const bool allReduce = p.collective == NcclOperation::ALL_REDUCE;
    const uint64_t perRank = allReduce ? p.bytes : p.bytes / n;
    const uint64_t pieceBytes = p.chunkBytes * p.chunkSteps;
    const uint64_t loopBytes = allReduce ? pieceBytes * n : pieceBytes;
    RingLoop loop;
    loop.kind = allReduce ? RingKind::ALL_REDUCE
                          : (p.collective == NcclOperation::ALL_GATHER ? RingKind::ALL_GATHER
                                                                       : RingKind::REDUCE_SCATTER);
    for (uint32_t c = 0; c < p.channels; ++c)
    {
        loop.ring = NcclSchedule::Ring(comm, c);
        loop.channel = c;
        const uint64_t part = Share(perRank, p.channels, c);
        for (uint64_t offset = 0, k = 0; offset < part; offset += loopBytes, ++k)
        {
            const uint64_t inLoop = std::min(loopBytes, part - offset);
            loop.piece = [inLoop, n, allReduce](uint32_t piece) {
                return allReduce ? Share(inLoop, n, piece) : inLoop;
            };
            loop.chunk = static_cast<uint32_t>(k);
            loop.Post(b, p.chunkBytes);
        }
    }
}

/// One loop of a hierarchical collective: its phases, posted in turn, each GPU's part of a
/// phase waiting for what the phase before delivered to it.
class HierarchicalLoop
{
  public:
    /**
     * \param b the builder
     * \param p the parameters
     * \param channel the channel
     * \param chunk the loop's number
     * \param inServer per server, the channel's ring of its GPUs
     * \param rail per position in those rings, the rail ring of its GPUs (one per server)
     */
    HierarchicalLoop(Builder& b,
                     const NcclScheduleParameters& p,
                     uint32_t channel,
                     uint32_t chunk,
                     const std::vector<std::vector<uint32_t>>& inServer,
                     const std::vector<std::vector<uint32_t>>& rail)
        : m_b(b),
          m_p(p),
          m_inServer(inServer),
          m_rail(rail),
          m_ready(inServer.size(), std::vector<std::vector<uint32_t>>(rail.size()))
    {
        m_loop.channel = channel;
        m_loop.chunk = chunk;
    }

    /// A ring inside every server; \param kind what it computes \param piece bytes of piece k
    void ServerPhase(RingKind kind, std::function<uint64_t(uint32_t)> piece)
    {
        m_loop.kind = kind;
        m_loop.piece = std::move(piece);
        for (size_t i = 0; i < m_inServer.size(); ++i)
        {
            m_loop.ring = m_inServer[i];
            m_loop.ready = m_ready[i];
            m_ready[i] = m_loop.Post(m_b, m_p.chunkBytes);
        }
        m_loop.stepBase += m_loop.Steps();
    }

    /**
     * A ring on every rail.
     * \param kind what it computes
     * \param bytes per position q of the servers' rings, the data of each of its GPUs (the
     *        buffer for an all-reduce, each GPU's piece for the others)
     */
    void RailPhase(RingKind kind, const std::function<uint64_t(uint32_t)>& bytes)
    {
        m_loop.kind = kind;
        const auto s = static_cast<uint32_t>(m_inServer.size());
        for (uint32_t q = 0; q < m_rail.size(); ++q)
        {
            const uint64_t data = bytes(q);
            m_loop.piece = [data, s, kind](uint32_t piece) {
                return kind == RingKind::ALL_REDUCE ? Share(data, s, piece) : data;
            };
            m_loop.ring = m_rail[q];
            m_loop.ready.assign(s, {});
            for (uint32_t i = 0; i < s; ++i)
            {
                m_loop.ready[i] = m_ready[i][q];
            }
            std::vector<std::vector<uint32_t>> done = m_loop.Post(m_b, m_p.chunkBytes);
            for (uint32_t i = 0; i < s; ++i)
            {
                m_ready[i][q] = std::move(done[i]);
            }
        }
        m_loop.stepBase += m_loop.Steps();
    }

  private:
    Builder& m_b;                                         //!< The builder.
    const NcclScheduleParameters& m_p;                    //!< The parameters.
    const std::vector<std::vector<uint32_t>>& m_inServer; //!< Each server's ring.
    const std::vector<std::vector<uint32_t>>& m_rail;     //!< Each rail's ring.
    /// Per server, per position: what that GPU's data of the loop waits for.
    std::vector<std::vector<std::vector<uint32_t>>> m_ready;
    RingLoop m_loop; //!< The phase being posted (channel, chunk and step base kept).
};

/**
 * Hierarchical collectives: the scale-up domain, then the rails. Channel c's share of the
 * buffer goes in loops; in every server the GPUs form channel c's ring of Ring() (the same
 * GPU order in every server), and the GPUs at one position of it, one per server, form a
 * rail ring over the servers. All-reduce: a reduce-scatter inside each server (each GPU then
 * holds the server's sum of one piece), an all-reduce of that piece on its rail, an all-gather
 * inside each server. All-gather: the rail's all-gather of the ranks' pieces, then the
 * server's. Reduce-scatter: the server's reduce-scatter, then the rail's. Each phase of a
 * loop starts, per GPU, when the phase before has delivered that GPU's data; loops pipeline.
 */
void
BuildHierarchical(Builder& b, const NcclScheduleParameters& p, const NcclCommunicator& comm)
{
    const std::vector<std::vector<uint32_t>> servers = ServerRanks(comm);
    const auto s = static_cast<uint32_t>(servers.size());
    const auto g = static_cast<uint32_t>(servers[0].size());
    const uint64_t pieceBytes = p.chunkBytes * p.chunkSteps;
    const bool allReduce = p.collective == NcclOperation::ALL_REDUCE;
    // All-reduce: loops of the buffer, g pieces; the others: of each rank's own piece.
    const uint64_t perRank = allReduce ? p.bytes : p.bytes / (s * g);
    const uint64_t loopBytes = allReduce ? pieceBytes * g : pieceBytes;
    for (uint32_t c = 0; c < p.channels; ++c)
    {
        std::vector<std::vector<uint32_t>> inServer(s);
        std::vector<std::vector<uint32_t>> rail(g);
        for (uint32_t i = 0; i < s; ++i)
        {
            for (uint32_t q = 0; q < g; ++q)
            {
                inServer[i].push_back(servers[i][(c + q) % g]);
                rail[q].push_back(servers[i][(c + q) % g]);
            }
        }
        const uint64_t part = Share(perRank, p.channels, c);
        for (uint64_t offset = 0, k = 0; offset < part; offset += loopBytes, ++k)
        {
            const uint64_t in = std::min(loopBytes, part - offset);
            HierarchicalLoop loop(b, p, c, static_cast<uint32_t>(k), inServer, rail);
            if (allReduce)
            {
                // Position q ends the reduce-scatter with piece q + 1, and starts the
                // all-gather with it.
                loop.ServerPhase(RingKind::REDUCE_SCATTER,
                                 [in, g](uint32_t piece) { return Share(in, g, piece); });
                loop.RailPhase(RingKind::ALL_REDUCE,
                               [in, g](uint32_t q) { return Share(in, g, (q + 1) % g); });
                loop.ServerPhase(RingKind::ALL_GATHER,
                                 [in, g](uint32_t piece) { return Share(in, g, (piece + 1) % g); });
            }
            else if (p.collective == NcclOperation::ALL_GATHER)
            {
                loop.RailPhase(RingKind::ALL_GATHER, [in](uint32_t) { return in; });
                loop.ServerPhase(RingKind::ALL_GATHER, [in, s](uint32_t) { return s * in; });
            }
            else
            {
                loop.ServerPhase(RingKind::REDUCE_SCATTER, [in, s](uint32_t) { return s * in; });
                loop.RailPhase(RingKind::REDUCE_SCATTER, [in](uint32_t) { return in; });
            }
        }
    }
}

/**
 * Pipelined chain along the channel's ring: broadcast from the root to the rank before it;
 * reduce from the rank after the root to the root, each rank adding its own data to what it
 * forwards.
 */
void
BuildChain(Builder& b, const NcclScheduleParameters& p, const NcclCommunicator& comm)
{
    const uint32_t n = comm.GetSize();
    for (uint32_t c = 0; c < p.channels; ++c)
    {
        std::vector<uint32_t> chain = NcclSchedule::Ring(comm, c);
        auto root = std::find(chain.begin(), chain.end(), p.root);
        std::rotate(chain.begin(),
                    p.collective == NcclOperation::REDUCE ? root + 1 : root,
                    chain.end());
        const uint64_t part = Share(p.bytes, p.channels, c);
        for (uint64_t offset = 0, k = 0; offset < part; offset += p.chunkBytes, ++k)
        {
            const uint64_t bytes = std::min(p.chunkBytes, part - offset);
            std::vector<uint32_t> previous;
            for (uint32_t h = 0; h + 1 < n; ++h)
            {
                previous = b.Message(c,
                                     chain[h],
                                     chain[h + 1],
                                     bytes,
                                     h,
                                     static_cast<uint32_t>(k),
                                     previous);
            }
        }
    }
}

/**
 * One rank's data for one peer: over the channels, each channel's share in messages of
 * chunkBytes, all after \p after.
 * \return the last message of every channel
 */
std::vector<uint32_t>
PostToPeer(Builder& b,
           const NcclScheduleParameters& p,
           uint32_t src,
           uint32_t dst,
           uint64_t bytes,
           uint32_t step,
           const std::vector<uint32_t>& after)
{
    std::vector<uint32_t> done;
    for (uint32_t c = 0; c < p.channels; ++c)
    {
        const uint64_t part = Share(bytes, p.channels, c);
        std::vector<uint32_t> last;
        for (uint64_t offset = 0, k = 0; offset < part; offset += p.chunkBytes, ++k)
        {
            const uint64_t size = std::min(p.chunkBytes, part - offset);
            last = b.Message(c, src, dst, size, step, static_cast<uint32_t>(k), after);
        }
        done.insert(done.end(), last.begin(), last.end());
    }
    return done;
}

/// Every rank to every other, peer (r + i) mod n in turn, at most window peers at once.
void
BuildAllToAll(Builder& b, const NcclScheduleParameters& p, const NcclCommunicator& comm)
{
    const uint32_t n = comm.GetSize();
    const uint32_t window = p.allToAllWindow == 0 ? n - 1 : p.allToAllWindow;
    const std::vector<uint32_t> none;
    for (uint32_t r = 0; r < n; ++r)
    {
        std::vector<std::vector<uint32_t>> done(n); // per peer index: its last messages
        for (uint32_t i = 1; i < n; ++i)
        {
            done[i] = PostToPeer(b,
                                 p,
                                 r,
                                 (r + i) % n,
                                 p.bytes / n,
                                 i,
                                 i > window ? done[i - window] : none);
        }
    }
}

/**
 * Gather (every other rank sends its piece to the root) or scatter (the root sends each other
 * rank its piece), as PyTorch runs them on NCCL's send and receive: peer root + i in turn, at
 * most window peers at once, each piece over the channels in messages of chunkBytes.
 */
void
BuildRooted(Builder& b, const NcclScheduleParameters& p, const NcclCommunicator& comm)
{
    const uint32_t n = comm.GetSize();
    const uint32_t window = p.allToAllWindow == 0 ? n - 1 : p.allToAllWindow;
    const bool gather = p.collective == NcclOperation::GATHER;
    const std::vector<uint32_t> none;
    std::vector<std::vector<uint32_t>> done(n); // per peer index: its last messages
    for (uint32_t i = 1; i < n; ++i)
    {
        const uint32_t peer = (p.root + i) % n;
        done[i] = PostToPeer(b,
                             p,
                             gather ? peer : p.root,
                             gather ? p.root : peer,
                             p.bytes / n,
                             i,
                             i > window ? done[i - window] : none);
    }
}

/// Double binary tree all-reduce: chunks reduced up the channel's tree, then sent down.
void
BuildTree(Builder& b, const NcclScheduleParameters& p, const NcclCommunicator& comm)
{
    const uint32_t n = comm.GetSize();
    for (uint32_t c = 0; c < p.channels; ++c)
    {
        std::vector<uint32_t> parent;
        const uint32_t root = NcclSchedule::Tree(comm, c % 2, parent);
        std::vector<std::vector<uint32_t>> children(n);
        std::vector<uint32_t> depth(n, 0);
        for (uint32_t r = 0; r < n; ++r)
        {
            if (r != root)
            {
                children[parent[r]].push_back(r);
            }
            for (uint32_t a = r; a != root; a = parent[a])
            {
                ++depth[r];
            }
        }
        std::vector<uint32_t> byDepth(n);
        for (uint32_t r = 0; r < n; ++r)
        {
            byDepth[r] = r;
        }
        std::stable_sort(byDepth.begin(), byDepth.end(), [&depth](uint32_t a, uint32_t x) {
            return depth[a] < depth[x];
        });
        const uint64_t part = Share(p.bytes, p.channels, c);
        for (uint64_t offset = 0, k = 0; offset < part; offset += p.chunkBytes, ++k)
        {
            const uint64_t bytes = std::min(p.chunkBytes, part - offset);
            const auto chunk = static_cast<uint32_t>(k);
            std::vector<std::vector<uint32_t>> up(n), down(n);
            // Up: deepest first; a rank sends its partial sum once its children's arrived.
            for (auto it = byDepth.rbegin(); it != byDepth.rend(); ++it)
            {
                const uint32_t r = *it;
                std::vector<uint32_t> after;
                for (uint32_t child : children[r])
                {
                    after.insert(after.end(), up[child].begin(), up[child].end());
                }
                if (r == root)
                {
                    up[r] = after; // the root holds the sum once its children's arrived
                }
                else
                {
                    up[r] = b.Message(c, r, parent[r], bytes, 0, chunk, after);
                }
            }
            // Down: the sum from the root to the leaves.
            for (uint32_t r : byDepth)
            {
                const std::vector<uint32_t>& after = r == root ? up[root] : down[r];
                for (uint32_t child : children[r])
                {
                    down[child] = b.Message(c, r, child, bytes, 1, chunk, after);
                }
            }
        }
    }
}

/// \return whether \p c has a root rank
bool
IsRooted(NcclOperation c)
{
    return c == NcclOperation::BROADCAST || c == NcclOperation::REDUCE ||
           c == NcclOperation::GATHER || c == NcclOperation::SCATTER;
}

/// \return whether the size of \p c holds one piece per rank (a multiple of the ranks)
bool
IsPerRank(NcclOperation c)
{
    return c == NcclOperation::ALL_GATHER || c == NcclOperation::REDUCE_SCATTER ||
           c == NcclOperation::ALL_TO_ALL || c == NcclOperation::GATHER ||
           c == NcclOperation::SCATTER;
}

/// \return "" when the hierarchical algorithm can run \p p on \p comm, else why not
std::string
CheckHierarchical(const NcclScheduleParameters& p, const NcclCommunicator& comm)
{
    if (p.collective != NcclOperation::ALL_REDUCE && p.collective != NcclOperation::ALL_GATHER &&
        p.collective != NcclOperation::REDUCE_SCATTER)
    {
        return std::string("algorithm = hierarchical for ") + NcclOperationName(p.collective) +
               "; allowed: hierarchical for allreduce, allgather and reducescatter (ring for "
               "every collective)";
    }
    const std::vector<std::vector<uint32_t>> servers = ServerRanks(comm);
    for (const std::vector<uint32_t>& ranks : servers)
    {
        bool same = ranks.size() == servers[0].size();
        for (size_t i = 0; same && i < ranks.size(); ++i)
        {
            same = comm.local[ranks[i]] == comm.local[servers[0][i]];
        }
        if (!same)
        {
            auto gpus = [&comm](const std::vector<uint32_t>& rs) {
                std::string out;
                for (uint32_t r : rs)
                {
                    out += (out.empty() ? "" : ",") + std::to_string(comm.local[r]);
                }
                return "{" + out + "}";
            };
            return "algorithm = hierarchical: server " + std::to_string(comm.server[ranks[0]]) +
                   " has GPUs " + gpus(ranks) + " of the communicator but server " +
                   std::to_string(comm.server[servers[0][0]]) + " " + gpus(servers[0]) +
                   "; allowed: the same GPUs of every server (else ring or tree)";
        }
    }
    return "";
}

} // namespace

std::string
NcclSchedule::Check(const NcclScheduleParameters& p, const NcclCommunicator& comm)
{
    const uint32_t n = comm.GetSize();
    if (comm.local.size() != comm.server.size())
    {
        return "communicator: " + std::to_string(comm.server.size()) + " servers but " +
               std::to_string(comm.local.size()) + " GPU indices; allowed: one of each per rank";
    }
    if (n < 2 || n > 65536)
    {
        return "communicator: " + std::to_string(n) + " ranks; allowed: 2 to 65536";
    }
    std::set<std::pair<uint32_t, uint32_t>> gpus;
    for (uint32_t r = 0; r < n; ++r)
    {
        if (!gpus.emplace(comm.server[r], comm.local[r]).second)
        {
            return "communicator: rank " + std::to_string(r) + " is GPU " +
                   std::to_string(comm.local[r]) + " of server " + std::to_string(comm.server[r]) +
                   " again; allowed: each GPU once";
        }
    }
    const uint64_t maxBytes = uint64_t(1) << 40;
    if (p.bytes == 0 || p.bytes > maxBytes)
    {
        return "bytes = " + std::to_string(p.bytes) + "; allowed: 1 to 2^40";
    }
    if (p.channels == 0 || p.channels > 64)
    {
        return "channels = " + std::to_string(p.channels) + "; allowed: 1 to 64";
    }
    if (p.chunkBytes == 0 || p.chunkBytes > (uint64_t(1) << 30))
    {
        return "chunkBytes = " + std::to_string(p.chunkBytes) + "; allowed: 1 to 2^30";
    }
    if (p.chunkSteps == 0 || p.chunkSteps > 64)
    {
        return "chunkSteps = " + std::to_string(p.chunkSteps) + "; allowed: 1 to 64";
    }
    if (p.slots == 0 || p.slots > 64)
    {
        return "slots = " + std::to_string(p.slots) + "; allowed: 1 to 64";
    }
    if (p.qpsPerConnection == 0 || p.qpsPerConnection > 128)
    {
        return "qpsPerConnection = " + std::to_string(p.qpsPerConnection) + "; allowed: 1 to 128";
    }
    if (p.algorithm == NcclAlgorithm::TREE && p.collective != NcclOperation::ALL_REDUCE)
    {
        return std::string("algorithm = tree for ") + NcclOperationName(p.collective) +
               "; allowed: tree for allreduce only (ring for every collective)";
    }
    if (p.algorithm == NcclAlgorithm::HIERARCHICAL)
    {
        std::string error = CheckHierarchical(p, comm);
        if (!error.empty())
        {
            return error;
        }
    }
    if (IsRooted(p.collective) && p.root >= n)
    {
        return "root = " + std::to_string(p.root) + "; allowed: 0 to " + std::to_string(n - 1);
    }
    if (IsPerRank(p.collective) && p.bytes % n != 0)
    {
        return "bytes = " + std::to_string(p.bytes) + " for " + NcclOperationName(p.collective) +
               "; allowed: a multiple of the " + std::to_string(n) + " ranks";
    }
    if (p.allToAllWindow > n - 1)
    {
        return "allToAllWindow = " + std::to_string(p.allToAllWindow) + "; allowed: 0 (all) to " +
               std::to_string(n - 1);
    }
    return "";
}

std::vector<NcclTransfer>
NcclSchedule::Build(const NcclScheduleParameters& p, const NcclCommunicator& comm)
{
    Builder b(p, comm);
    switch (p.collective)
    {
    case NcclOperation::ALL_REDUCE:
        if (p.algorithm == NcclAlgorithm::TREE)
        {
            BuildTree(b, p, comm);
        }
        else if (p.algorithm == NcclAlgorithm::HIERARCHICAL)
        {
            BuildHierarchical(b, p, comm);
        }
        else
        {
            BuildRing(b, p, comm);
        }
        break;
    case NcclOperation::ALL_GATHER:
    case NcclOperation::REDUCE_SCATTER:
        if (p.algorithm == NcclAlgorithm::HIERARCHICAL)
        {
            BuildHierarchical(b, p, comm);
        }
        else
        {
            BuildRing(b, p, comm);
        }
        break;
    case NcclOperation::BROADCAST:
    case NcclOperation::REDUCE:
        BuildChain(b, p, comm);
        break;
    case NcclOperation::ALL_TO_ALL:
        BuildAllToAll(b, p, comm);
        break;
    case NcclOperation::GATHER:
    case NcclOperation::SCATTER:
        BuildRooted(b, p, comm);
        break;
    }
    return b.Take();
}

std::vector<uint32_t>
NcclSchedule::Ring(const NcclCommunicator& comm, uint32_t channel)
{
    std::vector<uint32_t> ring;
    for (const std::vector<uint32_t>& ranks : ServerRanks(comm))
    {
        const size_t g = ranks.size();
        for (size_t i = 0; i < g; ++i)
        {
            ring.push_back(ranks[(channel + i) % g]);
        }
    }
    return ring;
}

uint32_t
NcclSchedule::Tree(const NcclCommunicator& comm, uint32_t tree, std::vector<uint32_t>& parent)
{
    const std::vector<std::vector<uint32_t>> servers = ServerRanks(comm);
    const auto m = static_cast<uint32_t>(servers.size());
    // The server at in-order position i of the tree.
    auto at = [m, tree](uint32_t i) {
        if (tree == 0)
        {
            return i;
        }
        return m % 2 == 0 ? m - 1 - i : (i + 1) % m;
    };
    parent.assign(comm.GetSize(), 0);
    uint32_t root = 0;
    for (uint32_t i = 0; i < m; ++i)
    {
        const std::vector<uint32_t>& ranks = servers[at(i)];
        uint32_t up = InOrderParent(i + 1, m);
        uint32_t head = ranks[0];
        if (up == 0)
        {
            root = head;
            parent[head] = head;
        }
        else
        {
            parent[head] = servers[at(up - 1)][0];
        }
        for (size_t j = 1; j < ranks.size(); ++j)
        {
            parent[ranks[j]] = ranks[j - 1]; // the chain inside the server
        }
    }
    return root;
}

double
NcclSchedule::BusBandwidthFactor(NcclOperation c, uint32_t n)
{
    switch (c)
    {
    case NcclOperation::ALL_REDUCE:
        return 2.0 * (n - 1) / n;
    case NcclOperation::ALL_GATHER:
    case NcclOperation::REDUCE_SCATTER:
    case NcclOperation::ALL_TO_ALL:
    case NcclOperation::GATHER:
    case NcclOperation::SCATTER:
        return double(n - 1) / n;
    case NcclOperation::BROADCAST:
    case NcclOperation::REDUCE:
        return 1.0;
    }
    return 1.0;
}

} // namespace ns3
