/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "reps-test-compat.h"

#include "ns3/chakra-trace-replay.h"
#include "ns3/chakra-trace.h"
#include "ns3/double.h"
#include "ns3/fabric-experiment.h"
#include "ns3/simulator.h"
#include "ns3/test.h"

#include <map>
#include <string>
#include <vector>

/**
 * \file
 * \ingroup reps-test
 * Chakra execution-trace replay: compute delays, messages matched by tag, data and control
 * dependencies, collectives among their ranks, the results; and a trace of one all-reduce
 * completing at the same nanosecond as the NCCL-style engine running it directly.
 */

using namespace ns3;

namespace
{

/**
 * \return a node of the given kind.
 * \param id its id.
 * \param name its name.
 * \param kind its kind.
 */
ChakraTrace::Node
MakeNode(uint64_t id, const std::string& name, ChakraTrace::Kind kind)
{
    ChakraTrace::Node n;
    n.id = id;
    n.name = name;
    n.kind = kind;
    return n;
}

/// \return a compute node of \p us microseconds.
ChakraTrace::Node
Compute(uint64_t id, uint64_t us)
{
    ChakraTrace::Node n = MakeNode(id, "compute" + std::to_string(id), ChakraTrace::Kind::COMPUTE);
    n.durationMicros = us;
    return n;
}

/// \return a send or receive node.
ChakraTrace::Node
Message(uint64_t id, bool send, uint32_t peer, uint64_t tag, uint64_t bytes)
{
    ChakraTrace::Node n = MakeNode(id,
                                   (send ? "send" : "recv") + std::to_string(id),
                                   send ? ChakraTrace::Kind::SEND : ChakraTrace::Kind::RECV);
    n.peer = peer;
    n.tag = tag;
    n.bytes = bytes;
    return n;
}

/// \return an all-reduce node of \p bytes among every rank.
ChakraTrace::Node
AllReduce(uint64_t id, uint64_t bytes)
{
    ChakraTrace::Node n = MakeNode(id, "allreduce", ChakraTrace::Kind::COLLECTIVE);
    n.collective = ChakraTrace::Collective::ALL_REDUCE;
    n.bytes = bytes;
    return n;
}

/// \return a collective node \p c of \p bytes among every rank, rooted at \p root.
ChakraTrace::Node
CollectiveNode(ChakraTrace::Collective c, uint64_t bytes, uint32_t root)
{
    ChakraTrace::Node n = AllReduce(0, bytes);
    n.name = ChakraTrace::CollectiveName(c);
    n.collective = c;
    n.root = root;
    return n;
}

} // namespace

/**
 * \ingroup reps-test
 * A three-rank trace on a fake transport (a flow of B bytes takes B ns): compute nodes take
 * their duration, one at a time per GPU; the two messages of ranks 0 to 1 are matched by tag,
 * not by order; data and control dependencies both hold a node back; the all-reduce starts
 * when its last rank reaches it and completes every rank's node; the iteration time and the
 * exposed communication follow.
 */
class ChakraReplayTestCase : public TestCase
{
  public:
    ChakraReplayTestCase()
        : TestCase("Chakra replay: compute delays, messages by tag, dependencies, collectives")
    {
    }

  private:
    void DoRun() override
    {
        std::vector<std::vector<ChakraTrace::Node>> ranks(3);
        // Rank 0: compute 5 us, then send tag 7 (1000 B); send tag 3 (2000 B) at once;
        // compute 2 us after the tag-7 send (control); the all-reduce after that (data).
        ranks[0] = {Compute(0, 5),
                    Message(1, true, 1, 7, 1000),
                    Message(2, true, 1, 3, 2000),
                    Compute(3, 2),
                    AllReduce(4, 3000)};
        ranks[0][1].dataDeps = {0};
        ranks[0][3].ctrlDeps = {1};
        ranks[0][4].dataDeps = {3};
        // Rank 1: receives in the other order than rank 0 sends; compute 4 us after tag 7.
        ranks[1] = {Message(10, false, 0, 3, 0),
                    Message(11, false, 0, 7, 1000),
                    Compute(12, 4),
                    AllReduce(13, 3000)};
        ranks[1][2].dataDeps = {11};
        ranks[1][3].ctrlDeps = {12, 10};
        // Rank 2: computes 20 us, then the all-reduce; an extra compute of 1 us, queued on the
        // GPU behind the first.
        ranks[2] = {Compute(20, 20), AllReduce(21, 3000), Compute(22, 1)};
        ranks[2][1].dataDeps = {20};
        std::vector<std::string> files;
        for (uint32_t r = 0; r < 3; ++r)
        {
            files.push_back(CreateTempDirFilename("replay." + std::to_string(r) + ".et"));
            NS_TEST_ASSERT_MSG_EQ(ChakraTrace::WriteFile(files[r], ranks[r]), "", "written");
        }
        ChakraTrace trace;
        std::string error;
        NS_TEST_ASSERT_MSG_EQ(trace.LoadFiles(files, error), true, error);
        NS_TEST_ASSERT_MSG_EQ(trace.GetMessages().size(), 2, "two messages");
        NS_TEST_ASSERT_MSG_EQ(trace.GetCalls().size(), 1, "one collective call");

        Ptr<ChakraTraceReplay> replay = CreateObject<ChakraTraceReplay>();
        NS_TEST_ASSERT_MSG_EQ(replay->SetTrace(trace), "", "its collective can run");
        std::vector<FlowSpec> flows;
        replay->SetLauncher(FlowLauncher([&flows](const FlowSpec& f, FlowCompletionCallback done) {
            flows.push_back(f);
            Simulator::Schedule(NanoSeconds(f.bytes), [done]() { done(); });
        }));
        replay->Start();
        Simulator::Run();

        auto end = [&replay](uint32_t r, uint32_t i) { return replay->GetNodeEnd(r, i); };
        auto start = [&replay](uint32_t r, uint32_t i) { return replay->GetNodeStart(r, i); };
        NS_TEST_ASSERT_MSG_EQ(replay->IsComplete(), true, "the replay completes");
        NS_TEST_ASSERT_MSG_EQ(flows.size(), replay->GetFlowCount(), "every flow launched");
        // Tag 3 (2000 B) is sent at 0 and matched with rank 1's first receive.
        NS_TEST_ASSERT_MSG_EQ(end(0, 2), MicroSeconds(2), "the tag-3 send at once");
        NS_TEST_ASSERT_MSG_EQ(end(1, 0), MicroSeconds(2), "its receive, matched by tag");
        // Tag 7 waits for the 5 us compute (data dependency).
        NS_TEST_ASSERT_MSG_EQ(end(0, 0), MicroSeconds(5), "compute takes its duration");
        NS_TEST_ASSERT_MSG_EQ(end(0, 1), MicroSeconds(6), "the tag-7 send after its input");
        NS_TEST_ASSERT_MSG_EQ(end(1, 1), MicroSeconds(6), "its receive");
        NS_TEST_ASSERT_MSG_EQ(start(0, 3), MicroSeconds(6), "control dependency holds back");
        NS_TEST_ASSERT_MSG_EQ(end(0, 3), MicroSeconds(8), "then 2 us");
        NS_TEST_ASSERT_MSG_EQ(end(1, 2), MicroSeconds(10), "rank 1 computes after tag 7");
        // The GPU runs one node at a time: the 1 us node after the 20 us one.
        NS_TEST_ASSERT_MSG_EQ(start(2, 2), MicroSeconds(20), "one node at a time per GPU");
        NS_TEST_ASSERT_MSG_EQ(end(2, 2), MicroSeconds(21), "then its duration");
        std::vector<FlowStats::Collective::Call> calls = replay->GetCalls();
        calls.resize(1);
        NS_TEST_ASSERT_MSG_EQ(calls[0].start, MicroSeconds(20), "when the last rank is there");
        Time done = calls[0].finished;
        NS_TEST_ASSERT_MSG_GT(done, MicroSeconds(20), "the all-reduce takes time");
        for (auto [r, i] : std::vector<std::pair<uint32_t, uint32_t>>{{0, 4}, {1, 3}, {2, 1}})
        {
            NS_TEST_ASSERT_MSG_EQ(end(r, i), done, "every rank's node ends with the call");
        }
        NS_TEST_ASSERT_MSG_EQ(replay->GetCompletionTime(), done, "the replay ends with it");
        std::vector<Time> iterations = replay->GetIterationTimes();
        iterations.resize(1);
        NS_TEST_ASSERT_MSG_EQ(replay->GetIterationTimes().size(), 1, "one iteration");
        NS_TEST_ASSERT_MSG_EQ(iterations[0], done, "as long as the replay");
        std::vector<Time> exposed = replay->GetExposedCommunication();
        exposed.resize(3);
        // Rank 1: receiving [0, 6 us] with no compute, the call [10 us, done] likewise.
        NS_TEST_ASSERT_MSG_EQ(exposed[1], MicroSeconds(6) + done - MicroSeconds(10), "rank 1");
        // Rank 2: the call overlaps its 1 us compute.
        NS_TEST_ASSERT_MSG_EQ(exposed[2], done - MicroSeconds(21), "rank 2");
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * Roofline timing of compute and memory nodes without duration_micros: off by default (they
 * take no time); with PeakFlops a compute node takes num_ops / PeakFlops, with MemoryBandwidth
 * its tensor_size over the bandwidth if that is longer, and a memory node its tensor_size over
 * the bandwidth; a traced duration always wins. The num_ops and tensor_size attributes survive
 * the file.
 */
class ChakraRooflineTestCase : public TestCase
{
  public:
    ChakraRooflineTestCase()
        : TestCase("Chakra replay: num_ops and tensor_size timed by PeakFlops, MemoryBandwidth")
    {
    }

  private:
    /// \return the end of each node of rank 0 with the given roofline settings
    std::vector<Time> Ends(const ChakraTrace& trace, double flops, double bandwidth)
    {
        Ptr<ChakraTraceReplay> replay = CreateObject<ChakraTraceReplay>();
        replay->SetAttribute("PeakFlops", DoubleValue(flops));
        replay->SetAttribute("MemoryBandwidth", DoubleValue(bandwidth));
        replay->SetTrace(trace);
        replay->SetLauncher(FlowLauncher([](const FlowSpec& f, FlowCompletionCallback done) {
            Simulator::Schedule(NanoSeconds(f.bytes), [done]() { done(); });
        }));
        replay->Start();
        Simulator::Run();
        std::vector<Time> ends;
        for (uint32_t i = 0; i < 4; ++i)
        {
            ends.push_back(replay->GetNodeEnd(0, i));
        }
        Simulator::Destroy();
        return ends;
    }

    void DoRun() override
    {
        // Rank 0, in a chain: 2e9 operations on 1 MB (compute-bound at 1 PFLOP/s and
        // 1 TB/s: 2 us), 1e6 operations on 8 MB (memory-bound: 8 us), a memory load of 3 MB
        // (3 us), and a compute of 5 us traced with num_ops too (5 us whatever the roofline).
        std::vector<std::vector<ChakraTrace::Node>> ranks(2);
        ranks[0] = {Compute(0, 0), Compute(1, 0), Compute(2, 0), Compute(3, 5)};
        ranks[0][0].numOps = 2000000000;
        ranks[0][0].tensorBytes = 1000000;
        ranks[0][1].numOps = 1000000;
        ranks[0][1].tensorBytes = 8000000;
        ranks[0][2].kind = ChakraTrace::Kind::MEMORY;
        ranks[0][2].tensorBytes = 3000000;
        ranks[0][3].numOps = 1000000000000;
        for (uint32_t i = 1; i < 4; ++i)
        {
            ranks[0][i].dataDeps = {i - 1};
        }
        ranks[1] = {Compute(10, 1)};
        std::vector<std::string> files;
        for (uint32_t r = 0; r < 2; ++r)
        {
            files.push_back(CreateTempDirFilename("roofline." + std::to_string(r) + ".et"));
            NS_TEST_ASSERT_MSG_EQ(ChakraTrace::WriteFile(files[r], ranks[r]), "", "written");
        }
        ChakraTrace trace;
        std::string error;
        NS_TEST_ASSERT_MSG_EQ(trace.LoadFiles(files, error), true, error);
        NS_TEST_ASSERT_MSG_EQ(trace.GetNodes(0)[0].numOps, 2000000000, "num_ops read back");
        NS_TEST_ASSERT_MSG_EQ(trace.GetNodes(0)[2].tensorBytes, 3000000, "tensor_size read back");

        std::vector<Time> off = Ends(trace, 0, 0);
        NS_TEST_ASSERT_MSG_EQ(off[2], Seconds(0), "off: untimed nodes take no time");
        NS_TEST_ASSERT_MSG_EQ(off[3], MicroSeconds(5), "off: the traced duration");
        std::vector<Time> on = Ends(trace, 1e15, 1e12); // 1 TB/s
        NS_TEST_ASSERT_MSG_EQ(on[0], MicroSeconds(2), "compute-bound: num_ops / PeakFlops");
        NS_TEST_ASSERT_MSG_EQ(on[1], MicroSeconds(10), "memory-bound: tensor_size / bandwidth");
        NS_TEST_ASSERT_MSG_EQ(on[2], MicroSeconds(13), "memory node: tensor_size / bandwidth");
        NS_TEST_ASSERT_MSG_EQ(on[3], MicroSeconds(18), "a traced duration wins");
        std::vector<Time> flopsOnly = Ends(trace, 1e15, 0);
        NS_TEST_ASSERT_MSG_EQ(flopsOnly[1], NanoSeconds(2001), "flops only: 1e6 ops in 1 ns");
    }
};

/**
 * \ingroup reps-test
 * A trace holding one collective gives the same start and completion, to the nanosecond, as
 * --pattern=nccl running that collective directly, on the same fabric and seed; a barrier
 * runs as the all-reduce of one byte per rank on one channel.
 */
class ChakraEqualsEngineTestCase : public TestCase
{
  public:
    /**
     * \param c the trace's collective
     * \param operation the engine's (--ncclOperation)
     * \param root the root rank
     * \param traceBytes the trace's comm_size
     * \param engineBytes the engine's size (--flowSize)
     */
    ChakraEqualsEngineTestCase(ChakraTrace::Collective c,
                               std::string operation,
                               uint32_t root,
                               uint64_t traceBytes,
                               std::string engineBytes)
        : TestCase("Chakra replay: a traced " + ChakraTrace::CollectiveName(c) +
                   " completes when the engine's " + operation + " does"),
          m_collective(c),
          m_operation(std::move(operation)),
          m_root(root),
          m_traceBytes(traceBytes),
          m_engineBytes(std::move(engineBytes))
    {
    }

  private:
    /// Set up the fabric both runs use. \param e the experiment.
    static void Configure(FabricExperiment& e)
    {
        e.leaves = 2;
        e.hostsPerLeaf = 2;
        e.spines = 2;
        e.lb = "reps";
        e.quiet = true;
        e.flowSize = "64KiB";
        e.Set("ncclChunkBytes", "8KiB");
    }

    void DoRun() override
    {
        const bool barrier = m_collective == ChakraTrace::Collective::BARRIER;
        FabricExperiment direct;
        Configure(direct);
        direct.pattern = "nccl";
        direct.flowSize = m_engineBytes;
        direct.Set("ncclOperation", m_operation);
        direct.Set("ncclRoot", std::to_string(m_root));
        if (barrier)
        {
            direct.Set("ncclChannels", "1");
        }
        // The trace's group is ranks 0, 1, 2, 3 in that order: the engine's ring too.
        direct.ring = "sequential";
        direct.Check();
        RunResult a = direct.Run(direct.GetSelectors()[0]);
        NS_TEST_ASSERT_MSG_EQ(a.flows.GetCollectives().size(), 1, "the engine's collective");
        const FlowStats::Collective engine = a.flows.GetCollectives()[0];
        NS_TEST_ASSERT_MSG_EQ(engine.completed, true, "the engine completes");

        std::string prefix = CreateTempDirFilename("allreduce");
        for (uint32_t r = 0; r < 4; ++r)
        {
            NS_TEST_ASSERT_MSG_EQ(
                ChakraTrace::WriteFile(prefix + "." + std::to_string(r) + ".et",
                                       {CollectiveNode(m_collective, m_traceBytes, m_root)}),
                "",
                "written");
        }
        FabricExperiment traced;
        Configure(traced);
        traced.pattern = "chakra";
        traced.chakraTrace = prefix;
        traced.Check();
        RunResult b = traced.Run(traced.GetSelectors()[0]);
        NS_TEST_ASSERT_MSG_EQ(b.flows.GetCollectives().size(), 1, "the replay");
        const FlowStats::Collective replay = b.flows.GetCollectives()[0];
        NS_TEST_ASSERT_MSG_EQ(replay.completed, true, "the replay completes");
        NS_TEST_ASSERT_MSG_EQ(replay.calls.size(), 1, "one call");
        const FlowStats::Collective::Call& call = replay.calls[0];
        NS_TEST_ASSERT_MSG_EQ(call.start, engine.start, "same start");
        NS_TEST_ASSERT_MSG_EQ(call.finished, engine.finished, "same completion, to the ns");
        NS_TEST_ASSERT_MSG_EQ(replay.finished, engine.finished, "the replay ends with it");
        if (!barrier)
        {
            NS_TEST_ASSERT_MSG_EQ(replay.bytes, engine.bytes, "same bytes");
        }
        NS_TEST_ASSERT_MSG_EQ(b.flows.GetFlowCount(), a.flows.GetFlowCount(), "same flows");
    }

    ChakraTrace::Collective m_collective; //!< The trace's collective.
    std::string m_operation;              //!< The engine's.
    uint32_t m_root;                      //!< The root rank.
    uint64_t m_traceBytes;                //!< The trace's comm_size.
    std::string m_engineBytes;            //!< The engine's size.
};

/**
 * \ingroup reps-test
 * The suite.
 */
class ChakraTestSuite : public TestSuite
{
  public:
    ChakraTestSuite()
        : TestSuite("reps-chakra", TestSuite::Type::UNIT)
    {
        AddTestCase(new ChakraReplayTestCase, reps::kQuick);
        AddTestCase(new ChakraRooflineTestCase, reps::kQuick);
        using C = ChakraTrace::Collective;
        AddTestCase(new ChakraEqualsEngineTestCase(C::ALL_REDUCE, "allreduce", 0, 65536, "64KiB"),
                    reps::kQuick);
        AddTestCase(new ChakraEqualsEngineTestCase(C::REDUCE, "reduce", 2, 65536, "64KiB"),
                    reps::kQuick);
        AddTestCase(new ChakraEqualsEngineTestCase(C::GATHER, "gather", 1, 65536, "64KiB"),
                    reps::kQuick);
        AddTestCase(new ChakraEqualsEngineTestCase(C::SCATTER, "scatter", 3, 65536, "64KiB"),
                    reps::kQuick);
        AddTestCase(new ChakraEqualsEngineTestCase(C::BARRIER, "allreduce", 0, 0, "4"),
                    reps::kQuick);
    }
};

/// The suite's instance.
static ChakraTestSuite g_chakraTestSuite;
