/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Unit tests of the NCCL-style schedules (helper/nccl-schedule.h) against hand-computed ones
// on small communicators: who sends how many bytes to whom, in which order, after what.

#include "ns3/nccl-schedule.h"

#include <cstdint>
#include <gtest/gtest.h>
#include <map>
#include <vector>

using ns3::NcclAlgorithm;
using ns3::NcclAlgorithmName;
using ns3::NcclCommunicator;
using ns3::NcclOperation;
using ns3::NcclOperationName;
using ns3::NcclSchedule;
using ns3::NcclScheduleParameters;
using ns3::NcclTransfer;

namespace
{

NcclScheduleParameters
Params(NcclOperation c, uint64_t bytes, uint64_t chunk = 100)
{
    NcclScheduleParameters p;
    p.collective = c;
    p.bytes = bytes;
    p.channels = 1;
    p.chunkBytes = chunk;
    p.chunkSteps = 1;
    p.slots = 64;
    return p;
}

std::vector<NcclTransfer>
Build(const NcclScheduleParameters& p, const NcclCommunicator& comm)
{
    EXPECT_EQ(NcclSchedule::Check(p, comm), "");
    return NcclSchedule::Build(p, comm);
}

void
ExpectTransfer(const NcclTransfer& t,
               uint32_t src,
               uint32_t dst,
               uint64_t bytes,
               std::vector<uint32_t> after)
{
    EXPECT_EQ(t.src, src);
    EXPECT_EQ(t.dst, dst);
    EXPECT_EQ(t.bytes, bytes);
    EXPECT_EQ(t.after, after);
}

/// Bytes each rank sends over the fabric (scale-up hops excluded).
std::map<uint32_t, uint64_t>
SentBytes(const std::vector<NcclTransfer>& ts)
{
    std::map<uint32_t, uint64_t> sent;
    for (const NcclTransfer& t : ts)
    {
        sent[t.src] += t.bytes;
    }
    return sent;
}

} // namespace

TEST(NcclSchedule, RingAllReduceOfThreeRanks)
{
    // 3 ranks, one loop of 3 chunks of 100 bytes: step s, position p sends piece (p - s) mod 3
    // to p + 1; steps 0-1 reduce-scatter, 2-3 all-gather; each waits for what p - 1 sent at
    // step s - 1.
    auto ts = Build(Params(NcclOperation::ALL_REDUCE, 300), NcclCommunicator::Servers(3, 1));
    ASSERT_EQ(ts.size(), 12U);
    ExpectTransfer(ts[0], 0, 1, 100, {});
    ExpectTransfer(ts[1], 1, 2, 100, {});
    ExpectTransfer(ts[2], 2, 0, 100, {});
    ExpectTransfer(ts[3], 0, 1, 100, {2});
    ExpectTransfer(ts[4], 1, 2, 100, {0});
    ExpectTransfer(ts[5], 2, 0, 100, {1});
    ExpectTransfer(ts[9], 0, 1, 100, {8});
    ExpectTransfer(ts[11], 2, 0, 100, {7});
    for (uint32_t i = 0; i < 12; ++i)
    {
        EXPECT_EQ(ts[i].step, i / 3);
        EXPECT_FALSE(ts[i].scaleUp);
    }
    // nccl-tests' bus bandwidth factor is what each rank sends over what it holds.
    for (const auto& [rank, bytes] : SentBytes(ts))
    {
        EXPECT_DOUBLE_EQ(bytes / 300.0,
                         NcclSchedule::BusBandwidthFactor(NcclOperation::ALL_REDUCE, 3));
    }
}

TEST(NcclSchedule, RingAllReducePiecesAndLoops)
{
    // 301 bytes in one loop of 3 x 101: pieces 101, 100, 100 follow their index around.
    auto ts = Build(Params(NcclOperation::ALL_REDUCE, 301, 101), NcclCommunicator::Servers(3, 1));
    ASSERT_EQ(ts.size(), 12U);
    EXPECT_EQ(ts[0].bytes, 101U); // position 0, step 0: piece 0
    EXPECT_EQ(ts[4].bytes, 101U); // position 1, step 1: piece 0
    EXPECT_EQ(ts[8].bytes, 101U); // position 2, step 2: piece 0
    EXPECT_EQ(ts[9].bytes, 101U); // position 0, step 3: piece 0
    // Chunks of 100: a second loop of 1 byte, whose one non-empty piece goes round alone,
    // each hop after the last (empty pieces send nothing and pass their wait on).
    auto odd = Build(Params(NcclOperation::ALL_REDUCE, 301), NcclCommunicator::Servers(3, 1));
    ASSERT_EQ(odd.size(), 16U);
    ExpectTransfer(odd[12], 0, 1, 1, {});
    ExpectTransfer(odd[13], 1, 2, 1, {12});
    ExpectTransfer(odd[14], 2, 0, 1, {13});
    ExpectTransfer(odd[15], 0, 1, 1, {14});
    // 700 bytes: loops of 300, 300 and 100 (pieces 34, 33, 33); the chunk index is the loop.
    auto big = Build(Params(NcclOperation::ALL_REDUCE, 700), NcclCommunicator::Servers(3, 1));
    ASSERT_EQ(big.size(), 36U);
    EXPECT_EQ(big[24].chunk, 2U);
    EXPECT_EQ(big[24].bytes, 34U);
    EXPECT_EQ(big[24].after, std::vector<uint32_t>{});
    uint64_t total = 0;
    for (const NcclTransfer& t : big)
    {
        total += t.bytes;
    }
    EXPECT_EQ(total, 3U * 4U * 700U / 3U); // every rank sends 2(n-1)/n of the buffer
}

TEST(NcclSchedule, RingPiecesInSeveralMessages)
{
    // Chunks of 2 messages of 100 bytes: a loop of 3 ranks moves up to 600 bytes, each step's
    // piece in up to two messages; message m waits for message m of the step before.
    auto p = Params(NcclOperation::ALL_REDUCE, 450);
    p.chunkSteps = 2;
    auto ts = Build(p, NcclCommunicator::Servers(3, 1));
    // Pieces of 150: messages of 100 and 50; 4 steps x 3 positions x 2 messages.
    ASSERT_EQ(ts.size(), 24U);
    ExpectTransfer(ts[0], 0, 1, 100, {});
    ExpectTransfer(ts[1], 0, 1, 50, {});
    ExpectTransfer(ts[6], 0, 1, 100, {4}); // step 1 of position 0: rank 2's step-0 messages
    ExpectTransfer(ts[7], 0, 1, 50, {5});
}

TEST(NcclSchedule, RingsOfChannelsOnServers)
{
    // 2 servers x 2 GPUs: channel 0 enters each server at GPU 0, channel 1 at GPU 1.
    NcclCommunicator comm = NcclCommunicator::Servers(2, 2);
    EXPECT_EQ(NcclSchedule::Ring(comm, 0), (std::vector<uint32_t>{0, 1, 2, 3}));
    EXPECT_EQ(NcclSchedule::Ring(comm, 1), (std::vector<uint32_t>{1, 0, 3, 2}));
    EXPECT_EQ(NcclSchedule::Ring(comm, 2), (std::vector<uint32_t>{0, 1, 2, 3}));
    // The buffer is shared among channels: 2 channels of 200 bytes, 4 pieces of 50.
    auto p = Params(NcclOperation::ALL_REDUCE, 400);
    p.channels = 2;
    auto ts = Build(p, comm);
    ASSERT_EQ(ts.size(), 2U * 6U * 4U);
    EXPECT_EQ(ts[0].channel, 0U);
    EXPECT_EQ(ts[24].channel, 1U);
    ExpectTransfer(ts[24], 1, 0, 50, {});
    EXPECT_TRUE(ts[24].scaleUp);  // GPU 1 to GPU 0 of server 0
    EXPECT_FALSE(ts[25].scaleUp); // GPU 0 of server 0 to GPU 1 of server 1
    ExpectTransfer(ts[25], 0, 3, 50, {});
}

TEST(NcclSchedule, SlotsBoundTheMessagesInFlight)
{
    // All-gather of 2 ranks, 400 bytes each (800 in all), chunks of 100: 4 messages per
    // connection; with 2 slots message k waits for message k - 2 of its connection.
    auto p = Params(NcclOperation::ALL_GATHER, 800);
    p.slots = 2;
    auto ts = Build(p, NcclCommunicator::Servers(2, 1));
    ASSERT_EQ(ts.size(), 8U);
    // Per loop: 0->1 then 1->0.
    ExpectTransfer(ts[0], 0, 1, 100, {});
    ExpectTransfer(ts[1], 1, 0, 100, {});
    ExpectTransfer(ts[2], 0, 1, 100, {});
    ExpectTransfer(ts[4], 0, 1, 100, {0});
    ExpectTransfer(ts[5], 1, 0, 100, {1});
    ExpectTransfer(ts[6], 0, 1, 100, {2});
}

TEST(NcclSchedule, QueuePairsPerConnection)
{
    // Round-robin (NCCL_IB_SPLIT_DATA_ON_QPS=0): message k of a connection on QP k mod 2.
    auto p = Params(NcclOperation::ALL_GATHER, 800);
    p.qpsPerConnection = 2;
    auto ts = Build(p, NcclCommunicator::Servers(2, 1));
    ASSERT_EQ(ts.size(), 8U);
    for (uint32_t i = 0; i < 8; ++i)
    {
        EXPECT_EQ(ts[i].qp, (i / 2) % 2);
        EXPECT_EQ(ts[i].bytes, 100U);
    }
    // Split (=1): each message in two halves, one per QP; the next step waits for both.
    p = Params(NcclOperation::ALL_GATHER, 3 * 101, 1000);
    p.qpsPerConnection = 2;
    p.splitDataOnQps = true;
    auto split = Build(p, NcclCommunicator::Servers(3, 1));
    ASSERT_EQ(split.size(), 2U * 3U * 2U);
    EXPECT_EQ(split[0].qp, 0U);
    EXPECT_EQ(split[0].bytes, 51U);
    EXPECT_EQ(split[1].qp, 1U);
    EXPECT_EQ(split[1].bytes, 50U);
    // Step 1 of position 0 waits for both halves position 2 sent at step 0.
    EXPECT_EQ(split[6].src, 0U);
    EXPECT_EQ(split[6].after, (std::vector<uint32_t>{4, 5}));
    EXPECT_EQ(split[7].after, (std::vector<uint32_t>{4, 5}));
    // The scale-up domain has no queue pairs: one transfer whatever the setting.
    auto scaleUp = Build(p, NcclCommunicator::Servers(1, 3));
    EXPECT_EQ(scaleUp.size(), 6U);
}

TEST(NcclSchedule, PxnSendsFromTheGpuOnThePeersRail)
{
    // 2 servers x 2 GPUs, ring 0 1 2 3: the hops 1 -> 2 and 3 -> 0 cross rails (GPU 1 to
    // GPU 0). With PXN, GPU 1 hands the data to GPU 0 of its server over the scale-up
    // domain, which sends it on rail 0.
    auto p = Params(NcclOperation::ALL_GATHER, 400);
    p.pxn = true;
    auto ts = Build(p, NcclCommunicator::Servers(2, 2));
    // Step 0: 0->1 (scale-up), 1->0 then 0->2 (PXN), 2->3 (scale-up), 3->2 then 2->0 (PXN).
    ASSERT_GE(ts.size(), 6U);
    ExpectTransfer(ts[0], 0, 1, 100, {});
    EXPECT_TRUE(ts[0].scaleUp);
    EXPECT_FALSE(ts[0].proxy);
    ExpectTransfer(ts[1], 1, 0, 100, {});
    EXPECT_TRUE(ts[1].scaleUp && ts[1].proxy);
    ExpectTransfer(ts[2], 0, 2, 100, {1});
    EXPECT_TRUE(!ts[2].scaleUp && ts[2].proxy);
    ExpectTransfer(ts[4], 3, 2, 100, {});
    ExpectTransfer(ts[5], 2, 0, 100, {4});
    // Step 1 of position 2 (rank 2) waits for the fabric hop that brought rank 1's data.
    ExpectTransfer(ts[9], 2, 3, 100, {2});
    // Every fabric transfer stays on its rail.
    NcclCommunicator comm = NcclCommunicator::Servers(2, 2);
    for (const NcclTransfer& t : ts)
    {
        if (!t.scaleUp)
        {
            EXPECT_EQ(comm.local[t.src], comm.local[t.dst]);
        }
    }
    // Without PXN the same hop goes across rails.
    p.pxn = false;
    auto plain = Build(p, comm);
    ExpectTransfer(plain[1], 1, 2, 100, {});
}

TEST(NcclSchedule, BroadcastIsAPipelinedChainFromTheRoot)
{
    // Root 2 of 4: chain 2 3 0 1; chunks of 100, 100, 50; hop h of chunk k after hop h - 1.
    auto p = Params(NcclOperation::BROADCAST, 250);
    p.root = 2;
    auto ts = Build(p, NcclCommunicator::Servers(4, 1));
    ASSERT_EQ(ts.size(), 9U);
    ExpectTransfer(ts[0], 2, 3, 100, {});
    ExpectTransfer(ts[1], 3, 0, 100, {0});
    ExpectTransfer(ts[2], 0, 1, 100, {1});
    ExpectTransfer(ts[3], 2, 3, 100, {});
    ExpectTransfer(ts[6], 2, 3, 50, {});
    ExpectTransfer(ts[8], 0, 1, 50, {7});
}

TEST(NcclSchedule, ReduceIsAPipelinedChainIntoTheRoot)
{
    // Root 2 of 4: chain 3 0 1 2 (from the rank after the root, each adding its data); chunks
    // of 100, 100, 50; hop h of chunk k after hop h - 1 of the same chunk.
    auto p = Params(NcclOperation::REDUCE, 250);
    p.root = 2;
    auto ts = Build(p, NcclCommunicator::Servers(4, 1));
    ASSERT_EQ(ts.size(), 9U);
    ExpectTransfer(ts[0], 3, 0, 100, {});
    ExpectTransfer(ts[1], 0, 1, 100, {0});
    ExpectTransfer(ts[2], 1, 2, 100, {1});
    ExpectTransfer(ts[3], 3, 0, 100, {});
    ExpectTransfer(ts[6], 3, 0, 50, {});
    ExpectTransfer(ts[8], 1, 2, 50, {7});
    EXPECT_EQ(ts[8].step, 2U);
    EXPECT_EQ(ts[8].chunk, 2U);
    // Every rank but the root sends the whole buffer once, as nccl-tests' factor 1 says.
    for (const auto& [rank, bytes] : SentBytes(ts))
    {
        EXPECT_NE(rank, 2U);
        EXPECT_DOUBLE_EQ(bytes / 250.0, NcclSchedule::BusBandwidthFactor(NcclOperation::REDUCE, 4));
    }
    // Root 0: the chain is the ring rotated to start after it and end at it.
    p.root = 0;
    ts = Build(p, NcclCommunicator::Servers(4, 1));
    ExpectTransfer(ts[0], 1, 2, 100, {});
    ExpectTransfer(ts[2], 3, 0, 100, {1});
}

TEST(NcclSchedule, GatherAndScatterAtTheRoot)
{
    // 4 ranks, root 1, 400 bytes at the root: 100 from (gather) or to (scatter) each other
    // rank, peers root+1, root+2, root+3 = 2, 3, 0; messages of 60 bytes; two peers at once.
    auto p = Params(NcclOperation::GATHER, 400, 60);
    p.root = 1;
    p.allToAllWindow = 2;
    auto ts = Build(p, NcclCommunicator::Servers(4, 1));
    ASSERT_EQ(ts.size(), 6U);
    ExpectTransfer(ts[0], 2, 1, 60, {});
    ExpectTransfer(ts[1], 2, 1, 40, {});
    ExpectTransfer(ts[2], 3, 1, 60, {});
    ExpectTransfer(ts[3], 3, 1, 40, {});
    // The third peer starts once the first one's last message arrived.
    ExpectTransfer(ts[4], 0, 1, 60, {1});
    ExpectTransfer(ts[5], 0, 1, 40, {1});
    EXPECT_EQ(ts[4].step, 3U);
    p.collective = NcclOperation::SCATTER;
    p.allToAllWindow = 0;
    ts = Build(p, NcclCommunicator::Servers(4, 1));
    ASSERT_EQ(ts.size(), 6U);
    ExpectTransfer(ts[0], 1, 2, 60, {});
    ExpectTransfer(ts[3], 1, 3, 40, {});
    ExpectTransfer(ts[5], 1, 0, 40, {});
    std::map<uint32_t, uint64_t> received;
    for (const NcclTransfer& t : ts)
    {
        EXPECT_TRUE(t.after.empty());
        received[t.dst] += t.bytes;
    }
    EXPECT_EQ(received, (std::map<uint32_t, uint64_t>{{0, 100}, {2, 100}, {3, 100}}));
    // The root moves (n-1)/n of its buffer: nccl-tests' factor.
    EXPECT_DOUBLE_EQ(SentBytes(ts)[1] / 400.0,
                     NcclSchedule::BusBandwidthFactor(NcclOperation::SCATTER, 4));
    // Sizes are the root's buffer: a multiple of the ranks; roots among the ranks.
    p.bytes = 402;
    EXPECT_EQ(NcclSchedule::Check(p, NcclCommunicator::Servers(4, 1)),
              "bytes = 402 for scatter; allowed: a multiple of the 4 ranks");
    p = Params(NcclOperation::GATHER, 400);
    p.root = 4;
    EXPECT_EQ(NcclSchedule::Check(p, NcclCommunicator::Servers(4, 1)), "root = 4; allowed: 0 to 3");
    EXPECT_EQ(NcclOperationName(NcclOperation::REDUCE), std::string("reduce"));
    EXPECT_EQ(NcclOperationName(NcclOperation::GATHER), std::string("gather"));
    EXPECT_EQ(NcclOperationName(NcclOperation::SCATTER), std::string("scatter"));
}

TEST(NcclSchedule, AllToAllWithAWindowOfPeers)
{
    // 4 ranks, 400 bytes each: 100 to each peer (the own share is a local copy); one peer at
    // a time: rank 0 sends to 1, then 2 once 1's arrived, then 3.
    auto p = Params(NcclOperation::ALL_TO_ALL, 400);
    p.allToAllWindow = 1;
    auto ts = Build(p, NcclCommunicator::Servers(4, 1));
    ASSERT_EQ(ts.size(), 12U);
    ExpectTransfer(ts[0], 0, 1, 100, {});
    ExpectTransfer(ts[1], 0, 2, 100, {0});
    ExpectTransfer(ts[2], 0, 3, 100, {1});
    ExpectTransfer(ts[3], 1, 2, 100, {});
    ExpectTransfer(ts[5], 1, 0, 100, {4});
    // Without a window every message starts at once.
    p.allToAllWindow = 0;
    for (const NcclTransfer& t : Build(p, NcclCommunicator::Servers(4, 1)))
    {
        EXPECT_TRUE(t.after.empty());
    }
    for (const auto& [rank, bytes] : SentBytes(ts))
    {
        EXPECT_DOUBLE_EQ(bytes / 400.0,
                         NcclSchedule::BusBandwidthFactor(NcclOperation::ALL_TO_ALL, 4));
    }
}

TEST(NcclSchedule, DoubleBinaryTree)
{
    // 4 ranks: tree 0 is the in-order tree 0-1-2-3 rooted at 3 (1 above 0 and 2); tree 1 its
    // mirror, rooted at 0 (2 above 3 and 1): a leaf of one tree is inner in the other.
    NcclCommunicator comm = NcclCommunicator::Servers(4, 1);
    std::vector<uint32_t> parent;
    EXPECT_EQ(NcclSchedule::Tree(comm, 0, parent), 3U);
    EXPECT_EQ(parent, (std::vector<uint32_t>{1, 3, 1, 3}));
    EXPECT_EQ(NcclSchedule::Tree(comm, 1, parent), 0U);
    EXPECT_EQ(parent, (std::vector<uint32_t>{0, 2, 0, 2}));
    // 5 ranks: root 3 (the largest power of two among positions 1-5 is 4); 4 hangs below 3.
    EXPECT_EQ(NcclSchedule::Tree(NcclCommunicator::Servers(5, 1), 0, parent), 3U);
    EXPECT_EQ(parent, (std::vector<uint32_t>{1, 3, 1, 3, 3}));
    // Servers of 2 GPUs: the tree over the servers' first GPUs, a chain inside each server.
    EXPECT_EQ(NcclSchedule::Tree(NcclCommunicator::Servers(2, 2), 0, parent), 2U);
    EXPECT_EQ(parent, (std::vector<uint32_t>{2, 0, 2, 2}));

    // All-reduce of one chunk on tree 0: up 0->1, 2->1, then 1->3; down 3->1, then 1->0, 1->2.
    auto p = Params(NcclOperation::ALL_REDUCE, 100);
    p.algorithm = NcclAlgorithm::TREE;
    auto ts = Build(p, comm);
    ASSERT_EQ(ts.size(), 6U);
    ExpectTransfer(ts[0], 2, 1, 100, {});
    ExpectTransfer(ts[1], 0, 1, 100, {});
    ExpectTransfer(ts[2], 1, 3, 100, {0, 1});
    ExpectTransfer(ts[3], 3, 1, 100, {2});
    ExpectTransfer(ts[4], 1, 0, 100, {3});
    ExpectTransfer(ts[5], 1, 2, 100, {3});
    EXPECT_EQ(ts[2].step, 0U);
    EXPECT_EQ(ts[3].step, 1U);
    // Two channels use the two trees, each with half the buffer.
    p.bytes = 200;
    p.channels = 2;
    ts = Build(p, comm);
    ASSERT_EQ(ts.size(), 12U);
    EXPECT_EQ(ts[6].channel, 1U);
    EXPECT_EQ(ts[6].dst, 2U); // a leaf of tree 1 (3 or 1) sends to 2 first
}

TEST(NcclSchedule, CheckNamesTheParameterAndRange)
{
    NcclCommunicator comm = NcclCommunicator::Servers(4, 1);
    auto p = Params(NcclOperation::ALL_REDUCE, 100);
    EXPECT_EQ(NcclSchedule::Check(p, comm), "");
    EXPECT_EQ(NcclSchedule::Check(p, NcclCommunicator::Servers(1, 1)),
              "communicator: 1 ranks; allowed: 2 to 65536");
    p.channels = 0;
    EXPECT_EQ(NcclSchedule::Check(p, comm), "channels = 0; allowed: 1 to 64");
    p = Params(NcclOperation::ALL_GATHER, 102);
    EXPECT_EQ(NcclSchedule::Check(p, comm),
              "bytes = 102 for allgather; allowed: a multiple of the 4 ranks");
    p = Params(NcclOperation::BROADCAST, 100);
    p.algorithm = NcclAlgorithm::TREE;
    EXPECT_EQ(NcclSchedule::Check(p, comm),
              "algorithm = tree for broadcast; allowed: tree for allreduce only (ring for every "
              "collective)");
    p.algorithm = NcclAlgorithm::RING;
    p.root = 4;
    EXPECT_EQ(NcclSchedule::Check(p, comm), "root = 4; allowed: 0 to 3");
    comm.local[1] = 0;
    comm.server[1] = 0;
    EXPECT_EQ(NcclSchedule::Check(Params(NcclOperation::ALL_REDUCE, 100), comm),
              "communicator: rank 1 is GPU 0 of server 0 again; allowed: each GPU once");
}

TEST(NcclSchedule, BusBandwidthFactors)
{
    EXPECT_DOUBLE_EQ(NcclSchedule::BusBandwidthFactor(NcclOperation::ALL_REDUCE, 8), 1.75);
    EXPECT_DOUBLE_EQ(NcclSchedule::BusBandwidthFactor(NcclOperation::ALL_GATHER, 8), 0.875);
    EXPECT_DOUBLE_EQ(NcclSchedule::BusBandwidthFactor(NcclOperation::REDUCE_SCATTER, 8), 0.875);
    EXPECT_DOUBLE_EQ(NcclSchedule::BusBandwidthFactor(NcclOperation::BROADCAST, 8), 1.0);
    EXPECT_DOUBLE_EQ(NcclSchedule::BusBandwidthFactor(NcclOperation::REDUCE, 8), 1.0);
    EXPECT_DOUBLE_EQ(NcclSchedule::BusBandwidthFactor(NcclOperation::GATHER, 8), 0.875);
    EXPECT_DOUBLE_EQ(NcclSchedule::BusBandwidthFactor(NcclOperation::SCATTER, 8), 0.875);
}

TEST(NcclSchedule, HierarchicalAllReduceOnTwoServersOfTwo)
{
    // Servers {0, 1} and {2, 3}; loops of G x 100 = 200 bytes. Per loop: a reduce-scatter in
    // each server (position q ends with piece q + 1), an all-reduce of that piece (100 bytes,
    // in pieces of 50) on each rail {0, 2} and {1, 3}, then an all-gather in each server;
    // each phase of a GPU waits for what delivered its data in the phase before.
    auto p = Params(NcclOperation::ALL_REDUCE, 400);
    p.algorithm = NcclAlgorithm::HIERARCHICAL;
    auto ts = Build(p, NcclCommunicator::Servers(2, 2));
    ASSERT_EQ(ts.size(), 32U);
    ExpectTransfer(ts[0], 0, 1, 100, {});
    ExpectTransfer(ts[1], 1, 0, 100, {});
    ExpectTransfer(ts[2], 2, 3, 100, {});
    ExpectTransfer(ts[3], 3, 2, 100, {});
    ExpectTransfer(ts[4], 0, 2, 50, {1});
    ExpectTransfer(ts[5], 2, 0, 50, {3});
    ExpectTransfer(ts[6], 0, 2, 50, {5});
    ExpectTransfer(ts[7], 2, 0, 50, {4});
    ExpectTransfer(ts[8], 1, 3, 50, {0});
    ExpectTransfer(ts[9], 3, 1, 50, {2});
    ExpectTransfer(ts[10], 1, 3, 50, {9});
    ExpectTransfer(ts[11], 3, 1, 50, {8});
    ExpectTransfer(ts[12], 0, 1, 100, {1, 5, 7});
    ExpectTransfer(ts[13], 1, 0, 100, {0, 9, 11});
    ExpectTransfer(ts[14], 2, 3, 100, {3, 4, 6});
    ExpectTransfer(ts[15], 3, 2, 100, {2, 8, 10});
    const std::vector<uint32_t> steps{0, 0, 0, 0, 1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 3, 3};
    for (uint32_t i = 0; i < 32; ++i)
    {
        EXPECT_EQ(ts[i].step, steps[i % 16]) << i;
        EXPECT_EQ(ts[i].chunk, i / 16) << i;
        EXPECT_EQ(ts[i].scaleUp, i % 16 < 4 || i % 16 >= 12) << i;
    }
    // The second loop is the first one's copy, 16 transfers on.
    ExpectTransfer(ts[28], 0, 1, 100, {17, 21, 23});
}

TEST(NcclSchedule, HierarchicalBytesOnRailsAndScaleUp)
{
    // 4 servers of 4 GPUs, 2 channels: every fabric transfer stays on its rail, and each rank
    // sends the ring's share of what the phase moves: all-reduce 2(S-1)/S x B/G on its rail and
    // 2(G-1)/G x B in its server; all-gather and reduce-scatter (S-1)/S x B/G and (G-1)/G x B.
    const uint32_t s = 4;
    const uint32_t g = 4;
    const uint64_t bytes = 1 << 20;
    NcclCommunicator comm = NcclCommunicator::Servers(s, g);
    for (NcclOperation op :
         {NcclOperation::ALL_REDUCE, NcclOperation::ALL_GATHER, NcclOperation::REDUCE_SCATTER})
    {
        auto p = Params(op, bytes, 16384);
        p.algorithm = NcclAlgorithm::HIERARCHICAL;
        p.channels = 2;
        p.chunkSteps = 4;
        p.slots = 8;
        auto ts = Build(p, comm);
        std::map<uint32_t, uint64_t> fabric;
        std::map<uint32_t, uint64_t> scaleUp;
        for (uint32_t i = 0; i < ts.size(); ++i)
        {
            const NcclTransfer& t = ts[i];
            EXPECT_EQ(t.scaleUp, comm.server[t.src] == comm.server[t.dst]);
            if (!t.scaleUp)
            {
                EXPECT_EQ(comm.local[t.src], comm.local[t.dst]) << "off its rail: " << i;
            }
            (t.scaleUp ? scaleUp : fabric)[t.src] += t.bytes;
            for (uint32_t a : t.after)
            {
                EXPECT_LT(a, i); // what it waits for was posted before it
            }
        }
        const double factor = op == NcclOperation::ALL_REDUCE ? 2.0 : 1.0;
        for (uint32_t r = 0; r < s * g; ++r)
        {
            EXPECT_DOUBLE_EQ(fabric[r], factor * (s - 1) / s * bytes / g) << r;
            EXPECT_DOUBLE_EQ(scaleUp[r], factor * (g - 1) / g * bytes) << r;
        }
    }
}

TEST(NcclSchedule, HierarchicalChecks)
{
    auto p = Params(NcclOperation::BROADCAST, 100);
    p.algorithm = NcclAlgorithm::HIERARCHICAL;
    EXPECT_EQ(NcclSchedule::Check(p, NcclCommunicator::Servers(2, 2)),
              "algorithm = hierarchical for broadcast; allowed: hierarchical for allreduce, "
              "allgather and reducescatter (ring for every collective)");
    for (auto c : {NcclOperation::REDUCE, NcclOperation::GATHER, NcclOperation::SCATTER})
    {
        p.collective = c;
        p.bytes = 400;
        EXPECT_NE(NcclSchedule::Check(p, NcclCommunicator::Servers(2, 2)).find("allowed: hier"),
                  std::string::npos)
            << NcclOperationName(c);
    }
    p.bytes = 100;
    // Server 1 brings GPU 0 only.
    NcclCommunicator comm;
    comm.server = {0, 0, 1};
    comm.local = {0, 1, 0};
    p.collective = NcclOperation::ALL_REDUCE;
    EXPECT_EQ(NcclSchedule::Check(p, comm),
              "algorithm = hierarchical: server 1 has GPUs {0} of the communicator but server 0 "
              "{0,1}; allowed: the same GPUs of every server (else ring or tree)");
    // One GPU per server: a ring over the servers, on the fabric only.
    auto ts = Build(p, NcclCommunicator::Servers(3, 1));
    ASSERT_EQ(ts.size(), 12U);
    for (const NcclTransfer& t : ts)
    {
        EXPECT_FALSE(t.scaleUp);
    }
    EXPECT_EQ(NcclAlgorithmName(NcclAlgorithm::HIERARCHICAL), std::string("hierarchical"));
}
