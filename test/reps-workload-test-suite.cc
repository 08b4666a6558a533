/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "reps-test-compat.h"

#include "ns3/all-to-all-collective.h"
#include "ns3/boolean.h"
#include "ns3/csv-reader.h"
#include "ns3/double.h"
#include "ns3/experiment-report.h"
#include "ns3/flow-size-cdf.h"
#include "ns3/flow-trace-replay.h"
#include "ns3/halving-doubling-all-reduce.h"
#include "ns3/job-placement.h"
#include "ns3/nccl-collective.h"
#include "ns3/progress-reporter.h"
#include "ns3/ring-all-gather.h"
#include "ns3/ring-all-reduce.h"
#include "ns3/ring-reduce-scatter.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/training-loop.h"
#include "ns3/uinteger.h"
#include "ns3/workload-helper.h"
#include "ns3/workload-runner.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <tuple>

using namespace ns3;

namespace
{

/**
 * A transport stand-in: completes every flow after a fixed latency plus its bytes at a fixed
 * rate, plus an optional random extra delay (so that completions can come out of order).
 */
struct FakeTransport
{
    Time latency{MicroSeconds(1)};     //!< Fixed part of every flow's time.
    DataRate rate{DataRate("10Gbps")}; //!< Serialization rate.
    Ptr<UniformRandomVariable> jitter; //!< Extra delay in [0, maxJitter), or null.
    Time maxJitter{Seconds(0)};        //!< Bound of the extra delay.
    bool fixedTime{false};             //!< Every flow takes the latency alone, whatever its size.
    std::vector<FlowSpec> launched;    //!< Every flow, in launch order.
    std::vector<Time> launchTimes;     //!< When each was launched.

    /**
     * \param flow the flow
     * \param done its completion
     */
    void Launch(const FlowSpec& flow, FlowCompletionCallback done)
    {
        launched.push_back(flow);
        launchTimes.push_back(Simulator::Now());
        Time d = fixedTime ? latency : latency + rate.CalculateBytesTxTime(flow.bytes);
        if (jitter)
        {
            d += Seconds(jitter->GetValue(0, maxJitter.GetSeconds()));
        }
        Simulator::Schedule(d, [done]() { done(); });
    }

    /// \return a launcher bound to this transport.
    FlowLauncher Launcher()
    {
        return MakeCallback(&FakeTransport::Launch, this);
    }
};

/**
 * \param flows a workload.
 * \param n hosts.
 * \param [out] sends flows per sender.
 * \param [out] receives flows per receiver.
 */
void
CountEnds(const std::vector<FlowSpec>& flows,
          uint32_t n,
          std::vector<uint32_t>& sends,
          std::vector<uint32_t>& receives)
{
    sends.assign(n, 0);
    receives.assign(n, 0);
    for (const FlowSpec& f : flows)
    {
        sends.at(f.src)++;
        receives.at(f.dst)++;
    }
}

} // namespace

/**
 * \ingroup reps-test
 * A permutation is a derangement (every host sends once and receives once, never to itself)
 * for any size; the same stream reproduces it, another stream changes it.
 */
class PermutationTestCase : public TestCase
{
  public:
    PermutationTestCase()
        : TestCase("Permutation is a derangement, reproducible from its stream")
    {
    }

  private:
    void DoRun() override
    {
        for (uint32_t n : {2U, 3U, 5U, 16U, 33U, 128U})
        {
            for (int64_t stream = 0; stream < 20; ++stream)
            {
                WorkloadHelper wl(n);
                wl.AssignStreams(stream * 3);
                wl.SetStartTime(MicroSeconds(5));
                std::vector<FlowSpec> flows = wl.Permutation(1000);
                NS_TEST_ASSERT_MSG_EQ(flows.size(), n, "one flow per host");
                std::vector<uint32_t> sends;
                std::vector<uint32_t> receives;
                CountEnds(flows, n, sends, receives);
                std::set<uint32_t> ids;
                for (uint32_t i = 0; i < n; ++i)
                {
                    NS_TEST_ASSERT_MSG_EQ(sends[i], 1, "host " << i << " sends once");
                    NS_TEST_ASSERT_MSG_EQ(receives[i], 1, "host " << i << " receives once");
                    NS_TEST_ASSERT_MSG_NE(flows[i].src, flows[i].dst, "no fixed point");
                    NS_TEST_ASSERT_MSG_EQ(flows[i].bytes, 1000, "size");
                    NS_TEST_ASSERT_MSG_EQ(flows[i].start, MicroSeconds(5), "start time");
                    ids.insert(flows[i].id);
                }
                NS_TEST_ASSERT_MSG_EQ(ids.size(), n, "unique ids");
            }
        }
        // Reproducible from the stream; another stream gives another permutation.
        auto draw = [](int64_t stream) {
            WorkloadHelper wl(64);
            wl.AssignStreams(stream);
            std::vector<uint32_t> dst;
            for (const FlowSpec& f : wl.Permutation(1))
            {
                dst.push_back(f.dst);
            }
            return dst;
        };
        NS_TEST_ASSERT_MSG_EQ((draw(7) == draw(7)), true, "same stream, same permutation");
        NS_TEST_ASSERT_MSG_EQ((draw(7) == draw(10)), false, "other stream, other permutation");
        // A derangement of 3 hosts is one of the two 3-cycles; both must show up.
        std::set<uint32_t> seen;
        for (int64_t stream = 0; stream < 40; ++stream)
        {
            WorkloadHelper wl(3);
            wl.AssignStreams(stream * 3);
            seen.insert(wl.Permutation(1)[0].dst);
        }
        NS_TEST_ASSERT_MSG_EQ(seen.size(), 2, "both derangements of 3 hosts are drawn");
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * Tornado sends host i to host i + N/2 mod N; incast has the asked number of distinct senders
 * into one host; all-to-all covers every ordered pair with the asked number of flows and bytes.
 */
class PatternCountsTestCase : public TestCase
{
  public:
    PatternCountsTestCase()
        : TestCase("Tornado pairs, incast and all-to-all counts")
    {
    }

  private:
    void DoRun() override
    {
        for (uint32_t n : {2U, 7U, 8U, 128U})
        {
            WorkloadHelper wl(n);
            std::vector<FlowSpec> flows = wl.Tornado(4096);
            NS_TEST_ASSERT_MSG_EQ(flows.size(), n, "one flow per host");
            for (uint32_t i = 0; i < n; ++i)
            {
                NS_TEST_ASSERT_MSG_EQ(flows[i].src, i, "sender");
                NS_TEST_ASSERT_MSG_EQ(flows[i].dst, (i + n / 2) % n, "tornado partner");
                NS_TEST_ASSERT_MSG_EQ(flows[i].tag, "tornado", "tag");
            }
        }
        {
            WorkloadHelper wl(8);
            std::vector<FlowSpec> t = wl.Tornado(1);
            NS_TEST_ASSERT_MSG_EQ(t[0].dst, 4, "0 -> 4");
            NS_TEST_ASSERT_MSG_EQ(t[5].dst, 1, "5 -> 1");
        }
        for (uint32_t senders : {1U, 8U, 31U})
        {
            WorkloadHelper wl(32);
            wl.AssignStreams(senders);
            std::vector<FlowSpec> flows = wl.Incast(senders, 5, 1 << 20);
            NS_TEST_ASSERT_MSG_EQ(flows.size(), senders, "one flow per sender");
            std::set<uint32_t> src;
            for (const FlowSpec& f : flows)
            {
                NS_TEST_ASSERT_MSG_EQ(f.dst, 5, "all into the receiver");
                NS_TEST_ASSERT_MSG_NE(f.src, 5, "the receiver does not send");
                src.insert(f.src);
            }
            NS_TEST_ASSERT_MSG_EQ(src.size(), senders, "distinct senders");
        }
        {
            uint32_t n = 6;
            WorkloadHelper wl(n);
            std::vector<FlowSpec> flows = wl.AllToAll(1003, 4);
            NS_TEST_ASSERT_MSG_EQ(flows.size(), n * (n - 1) * 4, "N(N-1)q flows");
            std::map<std::pair<uint32_t, uint32_t>, uint64_t> bytes;
            std::map<std::pair<uint32_t, uint32_t>, uint32_t> count;
            for (const FlowSpec& f : flows)
            {
                NS_TEST_ASSERT_MSG_NE(f.src, f.dst, "no self flow");
                bytes[{f.src, f.dst}] += f.bytes;
                count[{f.src, f.dst}]++;
            }
            NS_TEST_ASSERT_MSG_EQ(bytes.size(), n * (n - 1), "every ordered pair");
            for (const auto& [pair, b] : bytes)
            {
                NS_TEST_ASSERT_MSG_EQ(b, 1003, "bytes per peer");
                NS_TEST_ASSERT_MSG_EQ(count[pair], 4, "flows per peer");
            }
        }
        {
            WorkloadHelper wl(20);
            wl.AssignStreams(1);
            std::vector<FlowSpec> bg = wl.Background(0.1, 5000);
            NS_TEST_ASSERT_MSG_EQ(bg.size(), 2, "10% of 20 hosts");
            NS_TEST_ASSERT_MSG_NE(bg[0].src, bg[1].src, "distinct background senders");
            for (const FlowSpec& f : bg)
            {
                NS_TEST_ASSERT_MSG_EQ(f.background, true, "marked as background");
                NS_TEST_ASSERT_MSG_NE(f.src, f.dst, "no self flow");
            }
            // Ids stay unique across calls on one helper.
            std::vector<FlowSpec> more = wl.Permutation(1);
            NS_TEST_ASSERT_MSG_EQ(more[0].id, 2, "ids continue after the background flows");
        }
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * Poisson arrivals with web-search sizes offer the asked load (within a tolerance a few
 * standard deviations wide), with sizes distributed as the CDF says.
 */
class PoissonLoadTestCase : public TestCase
{
  public:
    PoissonLoadTestCase()
        : TestCase("Poisson arrivals offer the target load with the empirical sizes")
    {
    }

  private:
    void DoRun() override
    {
        FlowSizeCdf cdf;
        std::string error;
        NS_TEST_ASSERT_MSG_EQ(cdf.Load("websearch", error), true, error);
        uint32_t n = 16;
        DataRate rate("100Gbps");
        Time duration = MilliSeconds(200);
        for (double load : {0.3, 0.8})
        {
            WorkloadHelper wl(n);
            wl.AssignStreams(load * 100);
            wl.SetStartTime(MicroSeconds(10));
            std::vector<FlowSpec> flows = wl.Poisson(cdf, load, rate, duration);
            double bytes = 0;
            uint32_t small = 0;
            for (size_t i = 0; i < flows.size(); ++i)
            {
                const FlowSpec& f = flows[i];
                bytes += f.bytes;
                small += f.bytes <= 80000 ? 1 : 0;
                NS_TEST_ASSERT_MSG_NE(f.src, f.dst, "no self flow");
                NS_TEST_ASSERT_MSG_EQ((f.start >= MicroSeconds(10)), true, "after the start");
                NS_TEST_ASSERT_MSG_EQ((f.start < MicroSeconds(10) + duration), true, "in window");
                NS_TEST_ASSERT_MSG_EQ((i == 0 || flows[i - 1].start <= f.start), true, "sorted");
                NS_TEST_ASSERT_MSG_EQ(f.id, flows[0].id + i, "numbered in start order");
                NS_TEST_ASSERT_MSG_EQ((f.bytes >= 1 && f.bytes <= 30000000), true, "size range");
            }
            double offered = bytes * 8 / (n * rate.GetBitRate() * duration.GetSeconds());
            NS_TEST_ASSERT_MSG_EQ_TOL(offered, load, load * 0.1, "offered load");
            double expectedFlows =
                load * rate.GetBitRate() / (8 * cdf.GetMean()) * duration.GetSeconds() * n;
            NS_TEST_ASSERT_MSG_EQ_TOL(flows.size(), expectedFlows, expectedFlows * 0.05, "flows");
            NS_TEST_ASSERT_MSG_EQ_TOL(double(small) / flows.size(), 0.53, 0.03, "P(size<=80kB)");
        }
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * Ring all-reduce: no step starts before its input (the left neighbour's previous step) has
 * arrived, every host sends 2(N-1) chunks of data/N bytes, and with a fixed per-flow time the
 * collective takes exactly 2(N-1) flow times.
 */
class RingAllReduceTestCase : public TestCase
{
  public:
    RingAllReduceTestCase()
        : TestCase("Ring all-reduce steps wait for their input and move 2(N-1) chunks per host")
    {
    }

  private:
    void DoRun() override
    {
        for (bool jitter : {false, true})
        {
            for (uint32_t n : {2U, 5U, 8U})
            {
                Run(n, 64 * 1000 * n, jitter);
            }
        }
        Run(7, 1000003, true); // data not divisible by N
    }

    /**
     * \param n hosts
     * \param data bytes per host
     * \param withJitter random extra flow delays
     */
    void Run(uint32_t n, uint64_t data, bool withJitter)
    {
        FakeTransport transport;
        if (withJitter)
        {
            transport.jitter = CreateObject<UniformRandomVariable>();
            transport.jitter->SetStream(n);
            transport.maxJitter = MicroSeconds(20);
        }
        Ptr<WorkloadRunner> runner = CreateObject<WorkloadRunner>();
        runner->SetLauncher(transport.Launcher());
        bool allDone = false;
        runner->SetAllCompletedCallback(Callback<void>([&allDone]() { allDone = true; }));
        // Hosts in a shuffled ring order, to check that the ring follows the given order.
        std::vector<uint32_t> hosts(n);
        for (uint32_t i = 0; i < n; ++i)
        {
            hosts[i] = (i * 3 + 1) % (3 * n);
        }
        Ptr<RingAllReduce> ar = CreateObject<RingAllReduce>();
        ar->SetAttribute("DataBytes", UintegerValue(data));
        ar->SetAttribute("StartTime", TimeValue(MicroSeconds(7)));
        ar->SetAttribute("FirstFlowId", UintegerValue(100));
        ar->SetHosts(hosts);
        ar->SetLauncher(runner->GetLauncher());
        ar->Start();
        Simulator::Run();

        uint32_t steps = 2 * (n - 1);
        NS_TEST_ASSERT_MSG_EQ(ar->IsComplete(), true, "completes");
        NS_TEST_ASSERT_MSG_EQ(allDone, true, "the runner saw every flow complete");
        NS_TEST_ASSERT_MSG_EQ(runner->GetTotal(), n * steps, "N * 2(N-1) flows");
        NS_TEST_ASSERT_MSG_EQ(ar->GetStartTime(), MicroSeconds(7), "starts at StartTime");

        // Independent check from the runner's records: flow (host i, step k) starts no earlier
        // than flow (host i-1, step k-1) into host i ended.
        std::map<std::pair<uint32_t, uint32_t>, const FlowStats::Record*> bySrcStep;
        std::map<uint32_t, uint64_t> sent;
        uint64_t total = 0;
        for (const FlowStats::Record& r : runner->GetStats().GetRecords())
        {
            NS_TEST_ASSERT_MSG_EQ(r.completed, true, "flow completed");
            bySrcStep[{r.flow.src, r.flow.step}] = &r;
            sent[r.flow.src] += r.flow.bytes;
            total += r.flow.bytes;
            NS_TEST_ASSERT_MSG_EQ((r.flow.id >= 100 && r.flow.id < 100 + n * steps), true, "id");
            NS_TEST_ASSERT_MSG_EQ(r.flow.tag, "allreduce", "tag");
        }
        Time last = Seconds(0);
        for (uint32_t i = 0; i < n; ++i)
        {
            uint32_t left = hosts[(i + n - 1) % n];
            for (uint32_t k = 0; k < steps; ++k)
            {
                const FlowStats::Record* r = bySrcStep.at({hosts[i], k});
                NS_TEST_ASSERT_MSG_EQ(r->flow.dst, hosts[(i + 1) % n], "sends to the right");
                last = std::max(last, r->finished);
                if (k == 0)
                {
                    NS_TEST_ASSERT_MSG_EQ(r->flow.start, MicroSeconds(7), "step 0 at start");
                    continue;
                }
                const FlowStats::Record* input = bySrcStep.at({left, k - 1});
                NS_TEST_ASSERT_MSG_EQ((r->flow.start >= input->finished),
                                      true,
                                      "host " << i << " step " << k << " started before input");
                const FlowStats::Record* prev = bySrcStep.at({hosts[i], k - 1});
                NS_TEST_ASSERT_MSG_EQ((r->flow.start >= prev->flow.start), true, "steps in order");
            }
        }
        NS_TEST_ASSERT_MSG_EQ(ar->GetCompletionTime(), last, "completion = last arrival");
        NS_TEST_ASSERT_MSG_EQ(total, steps * data, "every chunk moves 2(N-1) times in total");
        NS_TEST_ASSERT_MSG_EQ(ar->GetBytesLaunched(), total, "bytes launched");
        if (data % n == 0)
        {
            for (const auto& [host, bytes] : sent)
            {
                NS_TEST_ASSERT_MSG_EQ(bytes * n, steps * data, "host sends 2(N-1)/N x data");
            }
        }
        if (!withJitter && data % n == 0)
        {
            // Every step takes one flow time, and steps cannot overlap along the ring.
            Time flowTime = transport.latency + transport.rate.CalculateBytesTxTime(data / n);
            NS_TEST_ASSERT_MSG_EQ(ar->GetDuration(), flowTime * steps, "2(N-1) flow times");
        }
        FlowStats::Collective c = ar->GetRecord();
        NS_TEST_ASSERT_MSG_EQ(c.completed, true, "record complete");
        NS_TEST_ASSERT_MSG_EQ(c.name, "allreduce", "record name");
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * Ring all-gather, ring reduce-scatter and halving-doubling all-reduce: every host sends the
 * expected chunk to the expected peer at every step, never before the chunk it depends on has
 * arrived; the bytes in total and per host are those of the algorithm; with a fixed flow time
 * the collective takes exactly steps x flow time.
 */
class SteppedCollectiveTestCase : public TestCase
{
  public:
    SteppedCollectiveTestCase()
        : TestCase("All-gather, reduce-scatter and butterfly: peers, bytes, order and timing")
    {
    }

  private:
    void DoRun() override
    {
        for (std::string kind : {"allgather", "reducescatter", "butterfly"})
        {
            for (bool jitter : {false, true})
            {
                for (uint32_t n : {2U, 4U, 8U, 16U})
                {
                    Run(kind, n, 64 * 1000 * n, jitter);
                }
                if (kind != "butterfly")
                {
                    Run(kind, 5, 64 * 1000 * 5, jitter);
                }
            }
            Run(kind, 8, 1000003, true); // data not divisible by N
        }
        NS_TEST_ASSERT_MSG_EQ(HalvingDoublingAllReduce::IsValidSize(1), false, "1 host");
        NS_TEST_ASSERT_MSG_EQ(HalvingDoublingAllReduce::IsValidSize(2), true, "2 hosts");
        NS_TEST_ASSERT_MSG_EQ(HalvingDoublingAllReduce::IsValidSize(12), false, "12 hosts");
        NS_TEST_ASSERT_MSG_EQ(HalvingDoublingAllReduce::IsValidSize(64), true, "64 hosts");
    }

    /**
     * \param kind allgather, reducescatter or butterfly
     * \param n hosts
     * \param data DataBytes
     * \param withJitter random extra flow delays
     */
    void Run(const std::string& kind, uint32_t n, uint64_t data, bool withJitter)
    {
        FakeTransport transport;
        if (withJitter)
        {
            transport.jitter = CreateObject<UniformRandomVariable>();
            transport.jitter->SetStream(n + 17);
            transport.maxJitter = MicroSeconds(20);
        }
        Ptr<WorkloadRunner> runner = CreateObject<WorkloadRunner>();
        runner->SetLauncher(transport.Launcher());
        std::vector<uint32_t> hosts(n);
        for (uint32_t i = 0; i < n; ++i)
        {
            hosts[i] = (i * 5 + 2) % (5 * n);
        }
        Ptr<SteppedCollective> c;
        uint32_t steps = n - 1;
        uint32_t log2n = 0;
        while ((1U << (log2n + 1)) <= n)
        {
            ++log2n;
        }
        if (kind == "allgather")
        {
            c = CreateObject<RingAllGather>();
        }
        else if (kind == "reducescatter")
        {
            c = CreateObject<RingReduceScatter>();
        }
        else
        {
            c = CreateObject<HalvingDoublingAllReduce>();
            steps = 2 * log2n;
        }
        c->SetAttribute("DataBytes", UintegerValue(data));
        c->SetAttribute("StartTime", TimeValue(MicroSeconds(3)));
        c->SetAttribute("FirstFlowId", UintegerValue(50));
        c->SetHosts(hosts);
        c->SetLauncher(runner->GetLauncher());
        c->Start();
        Simulator::Run();

        std::string what = kind + " n=" + std::to_string(n);
        NS_TEST_ASSERT_MSG_EQ(c->IsComplete(), true, what << " completes");
        NS_TEST_ASSERT_MSG_EQ(c->GetSteps(), steps, what << " steps");
        NS_TEST_ASSERT_MSG_EQ(runner->GetTotal(), n * steps, what << " N x steps flows");
        NS_TEST_ASSERT_MSG_EQ(c->GetName(), kind, "name");

        std::map<uint32_t, uint32_t> position;
        for (uint32_t i = 0; i < n; ++i)
        {
            position[hosts[i]] = i;
        }
        std::map<std::pair<uint32_t, uint32_t>, const FlowStats::Record*> bySrcStep;
        std::map<uint32_t, uint64_t> sent;
        std::map<uint32_t, uint64_t> received;
        uint64_t total = 0;
        std::set<uint32_t> ids;
        for (const FlowStats::Record& r : runner->GetStats().GetRecords())
        {
            NS_TEST_ASSERT_MSG_EQ(r.completed, true, "flow completed");
            bySrcStep[{position.at(r.flow.src), r.flow.step}] = &r;
            sent[r.flow.src] += r.flow.bytes;
            received[r.flow.dst] += r.flow.bytes;
            total += r.flow.bytes;
            ids.insert(r.flow.id);
            NS_TEST_ASSERT_MSG_EQ(r.flow.tag, kind, "tag");
        }
        NS_TEST_ASSERT_MSG_EQ(ids.size(), n * steps, "unique ids");
        NS_TEST_ASSERT_MSG_EQ(*ids.begin(), 50, "first id");
        // Who sends to whom, how much, and after which input: derived here from the algorithm,
        // independently of the classes.
        Time last = Seconds(0);
        auto chunk = [n, data](uint32_t c) { return data / n + (c < data % n ? 1 : 0); };
        for (uint32_t i = 0; i < n; ++i)
        {
            for (uint32_t k = 0; k < steps; ++k)
            {
                const FlowStats::Record* r = bySrcStep.at({i, k});
                uint32_t peer;
                uint32_t input; // whose step k-1 flow is our input
                uint64_t bytes = 0;
                if (kind == "butterfly")
                {
                    uint32_t d = k < log2n ? n >> (k + 1) : 1U << (k - log2n);
                    peer = i ^ d;
                    uint32_t dPrev = k == 0 ? 0 : (k - 1 < log2n ? n >> k : 1U << (k - 1 - log2n));
                    input = i ^ dPrev;
                    // Reduce-scatter sends the block the peer keeps; all-gather the block held.
                    uint32_t owner = k < log2n ? peer : i;
                    for (uint32_t c = owner / d * d; c < owner / d * d + d; ++c)
                    {
                        bytes += chunk(c);
                    }
                }
                else
                {
                    peer = (i + 1) % n;
                    input = (i + n - 1) % n;
                    uint32_t shift = kind == "allgather" ? 0 : 1;
                    bytes = chunk((i + 2 * n - k - shift) % n);
                }
                NS_TEST_ASSERT_MSG_EQ(r->flow.dst, hosts[peer], what << " step " << k << " peer");
                NS_TEST_ASSERT_MSG_EQ(r->flow.bytes, bytes, what << " step " << k << " bytes");
                last = std::max(last, r->finished);
                if (k == 0)
                {
                    NS_TEST_ASSERT_MSG_EQ(r->flow.start, MicroSeconds(3), "step 0 at start");
                    continue;
                }
                const FlowStats::Record* in = bySrcStep.at({input, k - 1});
                NS_TEST_ASSERT_MSG_EQ(in->flow.dst, hosts[i], "the input flows into host i");
                NS_TEST_ASSERT_MSG_EQ((r->flow.start >= in->finished),
                                      true,
                                      what << " host " << i << " step " << k << " before input");
                const FlowStats::Record* prev = bySrcStep.at({i, k - 1});
                NS_TEST_ASSERT_MSG_EQ((r->flow.start >= prev->flow.start), true, "in order");
            }
        }
        NS_TEST_ASSERT_MSG_EQ(c->GetCompletionTime(), last, "completion = last arrival");
        NS_TEST_ASSERT_MSG_EQ(c->GetBytesLaunched(), total, "bytes launched");
        // Total: every chunk crosses N-1 links per phase.
        uint64_t phases = kind == "butterfly" ? 2 : 1;
        NS_TEST_ASSERT_MSG_EQ(total, phases * (n - 1) * data, what << " total bytes");
        if (data % n == 0)
        {
            for (uint32_t h : hosts)
            {
                NS_TEST_ASSERT_MSG_EQ(sent[h] * n, phases * (n - 1) * data, "sent per host");
                NS_TEST_ASSERT_MSG_EQ(received[h] * n, phases * (n - 1) * data, "received");
            }
        }
        if (!withJitter && data % n == 0 && kind != "butterfly")
        {
            Time flowTime = transport.latency + transport.rate.CalculateBytesTxTime(data / n);
            NS_TEST_ASSERT_MSG_EQ(c->GetDuration(), flowTime * steps, "(N-1) flow times");
        }
        if (!withJitter && data % n == 0 && kind == "butterfly")
        {
            // Step k moves d chunks: the duration is the sum of the steps' flow times.
            Time expected = Seconds(0);
            for (uint32_t k = 0; k < steps; ++k)
            {
                uint32_t d = k < log2n ? n >> (k + 1) : 1U << (k - log2n);
                expected += transport.latency + transport.rate.CalculateBytesTxTime(d * data / n);
            }
            NS_TEST_ASSERT_MSG_EQ(c->GetDuration(), expected, "sum of the step flow times");
        }
        if (!withJitter && kind == "butterfly")
        {
            // A fixed flow time whatever the size: exactly 2 log2 N flow times.
            FakeTransport fixed;
            fixed.fixedTime = true;
            Ptr<HalvingDoublingAllReduce> b = CreateObject<HalvingDoublingAllReduce>();
            b->SetAttribute("DataBytes", UintegerValue(data));
            b->SetHosts(n);
            b->SetLauncher(fixed.Launcher());
            b->Start();
            Simulator::Run();
            NS_TEST_ASSERT_MSG_EQ(b->GetDuration(), fixed.latency * steps, "2 log2 N flow times");
        }
        FlowStats::Collective rec = c->GetRecord();
        NS_TEST_ASSERT_MSG_EQ(rec.completed, true, "record complete");
        NS_TEST_ASSERT_MSG_EQ(rec.name, kind, "record name");
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * Training loop: K iterations of compute then collective; the iteration times add up to the
 * loop's duration, each is the compute time plus its collective's time (steps x flow time with
 * a fixed flow time), no flow of an iteration starts before its compute phase ended, and the
 * trace reports every iteration once, in order.
 */
class TrainingLoopTestCase : public TestCase
{
  public:
    TrainingLoopTestCase()
        : TestCase("Training loop: iteration times add up; each is compute + collective time")
    {
    }

  private:
    void DoRun() override
    {
        // kind, TypeId, steps of the collective on 8 hosts
        const std::vector<std::tuple<std::string, std::string, uint32_t>> kinds = {
            {"allreduce", "ns3::RingAllReduce", 14},
            {"allgather", "ns3::RingAllGather", 7},
            {"reducescatter", "ns3::RingReduceScatter", 7},
            {"butterfly", "ns3::HalvingDoublingAllReduce", 6},
        };
        for (const auto& [kind, type, steps] : kinds)
        {
            for (bool jitter : {false, true})
            {
                Run(kind, type, steps, jitter);
            }
        }
    }

    /**
     * \param kind short name
     * \param type TypeId of the collective
     * \param steps its steps on 8 hosts
     * \param withJitter random extra flow delays
     */
    void Run(const std::string& kind, const std::string& type, uint32_t steps, bool withJitter)
    {
        const uint32_t n = 8;
        const uint32_t k = 4;
        const Time compute = MicroSeconds(13);
        FakeTransport transport;
        transport.fixedTime = !withJitter;
        if (withJitter)
        {
            transport.jitter = CreateObject<UniformRandomVariable>();
            transport.jitter->SetStream(5);
            transport.maxJitter = MicroSeconds(20);
        }
        Ptr<WorkloadRunner> runner = CreateObject<WorkloadRunner>();
        runner->SetLauncher(transport.Launcher());
        Ptr<TrainingLoop> loop = CreateObject<TrainingLoop>();
        loop->SetAttribute("Iterations", UintegerValue(k));
        loop->SetAttribute("ComputeTime", TimeValue(compute));
        loop->SetAttribute("StartTime", TimeValue(MicroSeconds(2)));
        loop->SetAttribute("FirstFlowId", UintegerValue(10));
        loop->SetCollective(type, "DataBytes", UintegerValue(80000));
        loop->SetHosts(n);
        loop->SetLauncher(runner->GetLauncher());
        std::vector<std::pair<uint32_t, Time>> traced;
        loop->TraceConnectWithoutContext(
            "IterationCompleted",
            MakeCallback(+[](std::vector<std::pair<uint32_t, Time>>* t, uint32_t i, Time d) {
                t->emplace_back(i, d);
            }).Bind(&traced));
        loop->Start();
        Simulator::Run();

        std::string what = kind + (withJitter ? " with jitter" : "");
        NS_TEST_ASSERT_MSG_EQ(loop->IsComplete(), true, what << " completes");
        uint32_t perIteration = n * steps;
        NS_TEST_ASSERT_MSG_EQ(loop->GetFlowCount(), k * perIteration, what << " flow count");
        NS_TEST_ASSERT_MSG_EQ(runner->GetTotal(), k * perIteration, what << " flows launched");
        const std::vector<Time>& it = loop->GetIterationTimes();
        const std::vector<Time>& coll = loop->GetCollectiveTimes();
        NS_TEST_ASSERT_MSG_EQ(it.size(), k, "one time per iteration");
        NS_TEST_ASSERT_MSG_EQ(traced.size(), k, "one trace per iteration");
        Time sum = Seconds(0);
        for (uint32_t i = 0; i < k; ++i)
        {
            sum += it[i];
            NS_TEST_ASSERT_MSG_EQ(traced[i].first, i, "trace in order");
            NS_TEST_ASSERT_MSG_EQ(traced[i].second, it[i], "trace gives the iteration time");
            NS_TEST_ASSERT_MSG_EQ(it[i], compute + coll[i], "iteration = compute + collective");
            if (!withJitter)
            {
                NS_TEST_ASSERT_MSG_EQ(coll[i], transport.latency * steps, "steps x flow time");
            }
        }
        NS_TEST_ASSERT_MSG_EQ(sum, loop->GetDuration(), what << ": iterations add up");
        NS_TEST_ASSERT_MSG_EQ(loop->GetStartTime(), MicroSeconds(2), "starts at StartTime");
        // Every flow of iteration i starts after its compute phase and ends before its end.
        std::vector<Time> begin(k + 1, MicroSeconds(2));
        for (uint32_t i = 0; i < k; ++i)
        {
            begin[i + 1] = begin[i] + it[i];
        }
        std::set<uint32_t> ids;
        for (const FlowStats::Record& r : runner->GetStats().GetRecords())
        {
            NS_TEST_ASSERT_MSG_EQ((r.flow.id >= 10 && r.flow.id < 10 + k * perIteration),
                                  true,
                                  "id range");
            ids.insert(r.flow.id);
            uint32_t i = (r.flow.id - 10) / perIteration;
            NS_TEST_ASSERT_MSG_EQ((r.flow.start >= begin[i] + compute), true, "after compute");
            NS_TEST_ASSERT_MSG_EQ((r.finished <= begin[i + 1]), true, "within its iteration");
            NS_TEST_ASSERT_MSG_EQ(r.flow.tag, "training", "tag");
        }
        NS_TEST_ASSERT_MSG_EQ(ids.size(), k * perIteration, "unique ids");
        FlowStats::Collective rec = loop->GetRecord();
        NS_TEST_ASSERT_MSG_EQ(rec.name, "training", "record name");
        NS_TEST_ASSERT_MSG_EQ(rec.iterations.size(), k, "record has the iterations");
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * Concurrent jobs: the host sets of JobPlacement are disjoint, cover every host and differ in
 * size by at most one (contiguous: consecutive blocks; interleaved: host i in job i mod J); a
 * collective per job, all sharing one runner, keeps every flow inside its job's set.
 */
class JobPlacementTestCase : public TestCase
{
  public:
    JobPlacementTestCase()
        : TestCase("Jobs: disjoint, covering host sets; every job's flows stay in its set")
    {
    }

  private:
    void DoRun() override
    {
        using Layout = JobPlacement::Layout;
        for (uint32_t n : {2U, 4U, 7U, 16U, 33U})
        {
            for (uint32_t jobs = 1; jobs <= n / 2; ++jobs)
            {
                for (Layout layout : {Layout::CONTIGUOUS, Layout::INTERLEAVED})
                {
                    auto sets = JobPlacement::Split(n, jobs, layout);
                    NS_TEST_ASSERT_MSG_EQ(sets.size(), jobs, "one set per job");
                    std::vector<uint32_t> owner(n, jobs);
                    for (uint32_t j = 0; j < jobs; ++j)
                    {
                        NS_TEST_ASSERT_MSG_EQ(
                            (sets[j].size() == n / jobs || sets[j].size() == n / jobs + 1),
                            true,
                            "balanced sizes");
                        for (uint32_t k = 0; k < sets[j].size(); ++k)
                        {
                            uint32_t h = sets[j][k];
                            NS_TEST_ASSERT_MSG_LT(h, n, "a host of the fabric");
                            NS_TEST_ASSERT_MSG_EQ(owner[h], jobs, "host " << h << " in one job");
                            owner[h] = j;
                            if (layout == Layout::INTERLEAVED)
                            {
                                NS_TEST_ASSERT_MSG_EQ(h % jobs, j, "interleaved: i mod J");
                            }
                            else if (k > 0)
                            {
                                NS_TEST_ASSERT_MSG_EQ(h, sets[j][k - 1] + 1, "contiguous");
                            }
                        }
                    }
                    for (uint32_t h = 0; h < n; ++h)
                    {
                        NS_TEST_ASSERT_MSG_LT(owner[h], jobs, "host " << h << " covered");
                    }
                }
            }
        }
        JobPlacement::Layout layout = Layout::CONTIGUOUS;
        NS_TEST_ASSERT_MSG_EQ(JobPlacement::LayoutFromName("interleaved", layout), true, "name");
        NS_TEST_ASSERT_MSG_EQ((layout == Layout::INTERLEAVED), true, "interleaved");
        NS_TEST_ASSERT_MSG_EQ(JobPlacement::LayoutFromName("striped", layout), false, "unknown");

        // Three jobs of 12 hosts, each its own collective, on one runner.
        for (Layout l : {Layout::CONTIGUOUS, Layout::INTERLEAVED})
        {
            FakeTransport transport;
            transport.jitter = CreateObject<UniformRandomVariable>();
            transport.jitter->SetStream(9);
            transport.maxJitter = MicroSeconds(5);
            Ptr<WorkloadRunner> runner = CreateObject<WorkloadRunner>();
            runner->SetLauncher(transport.Launcher());
            auto sets = JobPlacement::Split(12, 3, l);
            std::vector<Ptr<Collective>> jobs = {CreateObject<RingAllReduce>(),
                                                 CreateObject<HalvingDoublingAllReduce>(),
                                                 CreateObject<TrainingLoop>()};
            uint32_t firstId = 0;
            for (uint32_t j = 0; j < 3; ++j)
            {
                jobs[j]->SetAttribute("Group", UintegerValue(j + 1));
                jobs[j]->SetAttribute("FirstFlowId", UintegerValue(firstId));
                jobs[j]->SetHosts(sets[j]);
                jobs[j]->SetLauncher(runner->GetLauncher());
                jobs[j]->Start();
                firstId += jobs[j]->GetFlowCount();
            }
            Simulator::Run();
            NS_TEST_ASSERT_MSG_EQ(runner->GetTotal(), firstId, "every job's flows ran");
            std::set<uint32_t> ids;
            for (const FlowStats::Record& r : runner->GetStats().GetRecords())
            {
                NS_TEST_ASSERT_MSG_EQ((r.flow.group >= 1 && r.flow.group <= 3), true, "group");
                const std::vector<uint32_t>& set = sets[r.flow.group - 1];
                bool srcIn = std::find(set.begin(), set.end(), r.flow.src) != set.end();
                bool dstIn = std::find(set.begin(), set.end(), r.flow.dst) != set.end();
                NS_TEST_ASSERT_MSG_EQ(srcIn && dstIn, true, "flow within its job's hosts");
                ids.insert(r.flow.id);
            }
            NS_TEST_ASSERT_MSG_EQ(ids.size(), firstId, "flow ids unique across jobs");
            for (const Ptr<Collective>& c : jobs)
            {
                NS_TEST_ASSERT_MSG_EQ(c->IsComplete(), true, c->GetName() << " completes");
            }
            Simulator::Destroy();
        }
    }
};

/**
 * \ingroup reps-test
 * Trace replay: every flow of the trace runs once with its hosts and bytes; a flow without a
 * dependency starts at its start time, a dependent one exactly its start time after its
 * dependency completed; the replay completes with the last flow.
 */
class FlowTraceReplayTestCase : public TestCase
{
  public:
    FlowTraceReplayTestCase()
        : TestCase("Trace replay: start times, dependencies, hosts and bytes of every flow")
    {
    }

  private:
    void DoRun() override
    {
        FlowTrace trace;
        std::string error;
        bool ok = trace.Parse("0 0 1 1000\n"
                              "3us 2 3 2000\n"
                              "1us 1 2 3000 after=0\n"
                              "0 3 0 4000 after=line:3\n"
                              "2us 0 3 5000 after=0\n",
                              4,
                              error);
        NS_TEST_ASSERT_MSG_EQ(ok, true, error);
        FakeTransport transport;
        transport.jitter = CreateObject<UniformRandomVariable>();
        transport.jitter->SetStream(11);
        transport.maxJitter = MicroSeconds(4);
        Ptr<WorkloadRunner> runner = CreateObject<WorkloadRunner>();
        runner->SetLauncher(transport.Launcher());
        Ptr<FlowTraceReplay> replay = CreateObject<FlowTraceReplay>();
        replay->SetTrace(trace);
        replay->SetAttribute("StartTime", TimeValue(MicroSeconds(10)));
        replay->SetAttribute("FirstFlowId", UintegerValue(20));
        replay->SetHosts(std::vector<uint32_t>{4, 5, 6, 7});
        replay->SetLauncher(runner->GetLauncher());
        replay->Start();
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(replay->IsComplete(), true, "completes");
        NS_TEST_ASSERT_MSG_EQ(runner->GetTotal(), 5, "every flow once");
        std::map<uint32_t, const FlowStats::Record*> byId;
        Time last = Seconds(0);
        for (const FlowStats::Record& r : runner->GetStats().GetRecords())
        {
            byId[r.flow.id - 20] = &r;
            last = std::max(last, r.finished);
        }
        const auto& flows = trace.GetFlows();
        for (uint32_t i = 0; i < flows.size(); ++i)
        {
            const FlowStats::Record* r = byId.at(i);
            NS_TEST_ASSERT_MSG_EQ(r->flow.src, 4 + flows[i].src, "src of flow " << i);
            NS_TEST_ASSERT_MSG_EQ(r->flow.dst, 4 + flows[i].dst, "dst of flow " << i);
            NS_TEST_ASSERT_MSG_EQ(r->flow.bytes, flows[i].bytes, "bytes of flow " << i);
            NS_TEST_ASSERT_MSG_EQ(r->flow.tag, "trace", "tag");
            Time expected = flows[i].after == FlowTrace::NONE
                                ? MicroSeconds(10) + NanoSeconds(flows[i].startNs)
                                : byId.at(flows[i].after)->finished + NanoSeconds(flows[i].startNs);
            NS_TEST_ASSERT_MSG_EQ(r->flow.start, expected, "start of flow " << i);
            NS_TEST_ASSERT_MSG_EQ(replay->GetFlowStartTimes()[i], expected, "recorded start");
        }
        NS_TEST_ASSERT_MSG_EQ(replay->GetCompletionTime(), last, "completion = last flow");
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * Replay of a connection matrix with triggers: a flow waiting for a one-shot trigger starts
 * the instant the flow that activates it completes, a barrier's flow the instant the last of
 * its activations completes, a multi-shot trigger starts its targets one per activation.
 */
class ConnectionMatrixReplayTestCase : public TestCase
{
  public:
    ConnectionMatrixReplayTestCase()
        : TestCase("Trace replay: connection-matrix triggers (one-shot, barrier, multi-shot)")
    {
    }

  private:
    void DoRun() override
    {
        FlowTrace trace;
        std::string error;
        bool ok = trace.Parse("Nodes 4\n"
                              "Connections 6\n"
                              "Triggers 3\n"
                              "0->1 id 1 start 2000000 size 1000 send_done_trigger 1\n"
                              "0->2 id 2 trigger 1 size 2000 send_done_trigger 2\n"
                              "3->2 id 3 start 0 size 3000 send_done_trigger 2\n"
                              "2->1 id 4 trigger 2 size 4000 send_done_trigger 3\n"
                              "1->3 id 5 trigger 3 size 5000 send_done_trigger 3\n"
                              "1->0 id 6 trigger 3 size 6000\n"
                              "trigger id 1 oneshot\n"
                              "trigger id 2 barrier count 2\n"
                              "trigger id 3 multishot\n",
                              4,
                              error);
        NS_TEST_ASSERT_MSG_EQ(ok, true, error);
        FakeTransport transport;
        transport.jitter = CreateObject<UniformRandomVariable>();
        transport.jitter->SetStream(12);
        transport.maxJitter = MicroSeconds(4);
        Ptr<WorkloadRunner> runner = CreateObject<WorkloadRunner>();
        runner->SetLauncher(transport.Launcher());
        Ptr<FlowTraceReplay> replay = CreateObject<FlowTraceReplay>();
        replay->SetTrace(trace);
        replay->SetAttribute("StartTime", TimeValue(MicroSeconds(10)));
        replay->SetHosts(4);
        replay->SetLauncher(runner->GetLauncher());
        replay->Start();
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(replay->IsComplete(), true, "completes");
        NS_TEST_ASSERT_MSG_EQ(runner->GetTotal(), 6, "every flow once");
        const std::vector<Time>& start = replay->GetFlowStartTimes();
        const std::vector<Time>& end = replay->GetFlowEndTimes();
        NS_TEST_ASSERT_MSG_EQ(start[0], MicroSeconds(12), "a start time in picoseconds");
        NS_TEST_ASSERT_MSG_EQ(start[2], MicroSeconds(10), "start 0");
        NS_TEST_ASSERT_MSG_EQ(start[1], end[0], "one-shot: when its activation completes");
        NS_TEST_ASSERT_MSG_EQ(start[3], std::max(end[1], end[2]), "barrier: the last of two");
        NS_TEST_ASSERT_MSG_EQ(start[4], end[3], "multi-shot: first activation, first target");
        NS_TEST_ASSERT_MSG_EQ(start[5], end[4], "multi-shot: second activation, next target");
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * All-to-all as a collective: every ordered pair exchanges the asked bytes; staggered rounds
 * of one host never overlap.
 */
class AllToAllCollectiveTestCase : public TestCase
{
  public:
    AllToAllCollectiveTestCase()
        : TestCase("All-to-all collective covers every pair; staggered rounds do not overlap")
    {
    }

  private:
    void DoRun() override
    {
        for (bool staggered : {false, true})
        {
            uint32_t n = 5;
            FakeTransport transport;
            transport.jitter = CreateObject<UniformRandomVariable>();
            transport.jitter->SetStream(3);
            transport.maxJitter = MicroSeconds(10);
            Ptr<WorkloadRunner> runner = CreateObject<WorkloadRunner>();
            runner->SetLauncher(transport.Launcher());
            Ptr<AllToAllCollective> a2a = CreateObject<AllToAllCollective>();
            a2a->SetAttribute("BytesPerPeer", UintegerValue(10001));
            a2a->SetAttribute("FlowsPerPeer", UintegerValue(3));
            a2a->SetAttribute("Staggered", BooleanValue(staggered));
            a2a->SetHosts(n);
            a2a->SetLauncher(runner->GetLauncher());
            a2a->Start();
            Simulator::Run();
            NS_TEST_ASSERT_MSG_EQ(a2a->IsComplete(), true, "completes");
            NS_TEST_ASSERT_MSG_EQ(runner->GetTotal(), n * (n - 1) * 3, "flows");
            std::map<std::pair<uint32_t, uint32_t>, uint64_t> bytes;
            std::map<std::pair<uint32_t, uint32_t>, Time> roundStart;
            std::map<std::pair<uint32_t, uint32_t>, Time> roundEnd;
            std::set<uint32_t> ids;
            for (const FlowStats::Record& r : runner->GetStats().GetRecords())
            {
                bytes[{r.flow.src, r.flow.dst}] += r.flow.bytes;
                NS_TEST_ASSERT_MSG_EQ(r.flow.dst, (r.flow.src + r.flow.step) % n, "round = shift");
                auto key = std::make_pair(r.flow.src, r.flow.step);
                roundStart[key] =
                    roundStart.count(key) ? std::min(roundStart[key], r.flow.start) : r.flow.start;
                roundEnd[key] = std::max(roundEnd[key], r.finished);
                ids.insert(r.flow.id);
            }
            NS_TEST_ASSERT_MSG_EQ(ids.size(), n * (n - 1) * 3, "unique ids");
            NS_TEST_ASSERT_MSG_EQ(bytes.size(), n * (n - 1), "every ordered pair");
            for (const auto& [pair, b] : bytes)
            {
                NS_TEST_ASSERT_MSG_EQ(b, 10001, "bytes per pair");
            }
            for (uint32_t i = 0; i < n; ++i)
            {
                for (uint32_t r = 2; r < n; ++r)
                {
                    bool after = roundStart[{i, r}] >= roundEnd[{i, r - 1}];
                    NS_TEST_ASSERT_MSG_EQ(after, staggered, "round " << r << " of host " << i);
                }
            }
            Simulator::Destroy();
        }
    }
};

/**
 * \ingroup reps-test
 * The NCCL-style collective engine: every transfer of the schedule is launched once, as the
 * flow of its connection's queue pair, never before the transfers it waits for arrived, and
 * in order on every queue pair; with a fixed flow time a ring all-reduce takes 2(N-1) flow
 * times.
 */
class NcclCollectiveTestCase : public TestCase
{
  public:
    NcclCollectiveTestCase()
        : TestCase("NCCL collective engine: the schedule's transfers, in order, after their inputs")
    {
    }

  private:
    void DoRun() override
    {
        struct Case
        {
            std::string op;
            std::string algorithm;
            uint32_t window;
            bool split;
        };

        for (const Case& c : std::vector<Case>{{"allreduce", "ring", 0, false},
                                               {"allreduce", "tree", 0, true},
                                               {"allgather", "ring", 0, false},
                                               {"reducescatter", "ring", 0, true},
                                               {"broadcast", "ring", 0, false},
                                               {"alltoall", "ring", 2, false}})
        {
            Run(c.op, c.algorithm, c.window, c.split);
        }
        Timing();
    }

    void Run(const std::string& op, const std::string& algorithm, uint32_t window, bool split)
    {
        FakeTransport transport;
        transport.jitter = CreateObject<UniformRandomVariable>();
        transport.jitter->SetStream(11);
        transport.maxJitter = MicroSeconds(5);
        Ptr<WorkloadRunner> runner = CreateObject<WorkloadRunner>();
        runner->SetLauncher(transport.Launcher());
        Ptr<NcclCollective> nccl = CreateObject<NcclCollective>();
        nccl->SetAttribute("Operation", StringValue(op));
        nccl->SetAttribute("Algorithm", StringValue(algorithm));
        nccl->SetAttribute("DataBytes", UintegerValue(24000));
        nccl->SetAttribute("Channels", UintegerValue(2));
        nccl->SetAttribute("ChunkBytes", UintegerValue(1000));
        nccl->SetAttribute("ChunkSteps", UintegerValue(2));
        nccl->SetAttribute("Slots", UintegerValue(3));
        nccl->SetAttribute("QpsPerConnection", UintegerValue(2));
        nccl->SetAttribute("SplitDataOnQps", BooleanValue(split));
        nccl->SetAttribute("Root", UintegerValue(1));
        nccl->SetAttribute("AllToAllWindow", UintegerValue(window));
        nccl->SetAttribute("FirstFlowId", UintegerValue(50));
        const std::vector<uint32_t> hosts = {6, 2, 9, 4};
        nccl->SetHosts(hosts);
        nccl->SetLauncher(runner->GetLauncher());
        NS_TEST_ASSERT_MSG_EQ(nccl->Check(), "", op << " accepted");
        nccl->Start();
        Simulator::Run();

        const std::string what = op + "/" + algorithm;
        NS_TEST_ASSERT_MSG_EQ(nccl->IsComplete(), true, what << " completes");
        const std::vector<NcclTransfer>& ts = nccl->GetTransfers();
        NS_TEST_ASSERT_MSG_EQ(transport.launched.size(), ts.size(), what << ": one flow each");
        NS_TEST_ASSERT_MSG_EQ(nccl->GetFlowCount(), ts.size(), what << ": flow count");
        std::map<uint32_t, Time> finished;
        for (const FlowStats::Record& r : runner->GetStats().GetRecords())
        {
            finished[r.flow.id - 50] = r.finished;
        }
        std::map<std::tuple<uint32_t, uint32_t, uint32_t>, uint32_t> lastOnQp;
        std::set<uint32_t> seen;
        for (size_t i = 0; i < transport.launched.size(); ++i)
        {
            const FlowSpec& f = transport.launched[i];
            const uint32_t t = f.id - 50;
            NS_TEST_ASSERT_MSG_EQ((t < ts.size() && seen.insert(t).second), true, "once");
            const NcclTransfer& x = ts[t];
            NS_TEST_ASSERT_MSG_EQ(f.src, hosts[x.src], what << " source");
            NS_TEST_ASSERT_MSG_EQ(f.dst, hosts[x.dst], what << " destination");
            NS_TEST_ASSERT_MSG_EQ(f.bytes, x.bytes, what << " bytes");
            NS_TEST_ASSERT_MSG_EQ(f.subflow, x.channel * 2 + x.qp, what << " queue pair");
            for (uint32_t before : x.after)
            {
                NS_TEST_ASSERT_MSG_EQ((transport.launchTimes[i] >= finished.at(before)),
                                      true,
                                      what << ": transfer " << t << " before " << before);
            }
            auto key = std::make_tuple(f.src, f.dst, f.subflow);
            auto it = lastOnQp.find(key);
            NS_TEST_ASSERT_MSG_EQ((it == lastOnQp.end() || it->second < t),
                                  true,
                                  what << ": posted in order on its queue pair");
            lastOnQp[key] = t;
        }
        NS_TEST_ASSERT_MSG_EQ(nccl->GetName(), "nccl-" + op + "-" + algorithm, "name");
        Simulator::Destroy();
    }

    void Timing()
    {
        // One loop, one message per piece: 2(N-1) steps of one flow time each.
        const uint32_t n = 5;
        FakeTransport transport;
        Ptr<WorkloadRunner> runner = CreateObject<WorkloadRunner>();
        runner->SetLauncher(transport.Launcher());
        Ptr<NcclCollective> nccl = CreateObject<NcclCollective>();
        nccl->SetAttribute("DataBytes", UintegerValue(5000));
        nccl->SetAttribute("Channels", UintegerValue(1));
        nccl->SetAttribute("ChunkBytes", UintegerValue(1000));
        nccl->SetAttribute("ChunkSteps", UintegerValue(1));
        nccl->SetHosts(n);
        nccl->SetLauncher(runner->GetLauncher());
        nccl->Start();
        Simulator::Run();
        Time flowTime = transport.latency + transport.rate.CalculateBytesTxTime(1000);
        NS_TEST_ASSERT_MSG_EQ(nccl->GetDuration(), flowTime * (2 * (n - 1)), "2(N-1) flow times");
        NS_TEST_ASSERT_MSG_EQ(transport.launched.size(), n * 2 * (n - 1), "N x 2(N-1) messages");
        Simulator::Destroy();
        // A bad knob is named with its range.
        Ptr<NcclCollective> bad = CreateObject<NcclCollective>();
        bad->SetAttribute("Operation", StringValue("allgather"));
        bad->SetAttribute("DataBytes", UintegerValue(1001));
        bad->SetHosts(4);
        NS_TEST_ASSERT_MSG_EQ(bad->Check(),
                              "bytes = 1001 for allgather; allowed: a multiple of the 4 ranks",
                              "refused");
    }
};

/**
 * \ingroup reps-test
 * The runner starts flows at their start times, records the FCT the transport produced, and
 * calls its completion callback once, after the last flow.
 */
class WorkloadRunnerTestCase : public TestCase
{
  public:
    WorkloadRunnerTestCase()
        : TestCase("Runner starts flows on time and records their completion times")
    {
    }

  private:
    void DoRun() override
    {
        FakeTransport transport;
        Ptr<WorkloadRunner> runner = CreateObject<WorkloadRunner>();
        runner->SetLauncher(transport.Launcher());
        int calls = 0;
        Time doneAt;
        runner->SetAllCompletedCallback(Callback<void>([&calls, &doneAt]() {
            ++calls;
            doneAt = Simulator::Now();
        }));
        WorkloadHelper wl(4);
        wl.SetStartTime(MicroSeconds(3));
        std::vector<FlowSpec> flows = wl.Tornado(12500); // 10 us at 10 Gb/s
        flows[2].start = MicroSeconds(50);
        runner->Schedule(flows);
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(calls, 1, "all-completed fires once");
        NS_TEST_ASSERT_MSG_EQ(doneAt, MicroSeconds(50 + 11), "after the last flow");
        NS_TEST_ASSERT_MSG_EQ(transport.launchTimes.size(), 4, "launched");
        for (size_t i = 0; i < 4; ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(transport.launchTimes[i],
                                  transport.launched[i].start,
                                  "launched at its start time");
        }
        for (const FlowStats::Record& r : runner->GetStats().GetRecords())
        {
            NS_TEST_ASSERT_MSG_EQ(FlowStats::GetFct(r), MicroSeconds(11), "FCT = transport time");
        }
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * FCT, ideal FCT, slowdown and nearest-rank percentiles on known inputs.
 */
class FlowStatsTestCase : public TestCase
{
  public:
    FlowStatsTestCase()
        : TestCase("Flow statistics: slowdown against the ideal, percentiles")
    {
    }

  private:
    void DoRun() override
    {
        FlowStats stats;
        stats.SetIdeal(DataRate("8Gbps"), MicroSeconds(2)); // 1 byte per ns
        // 100 flows of 1000 bytes (ideal 1 us + 2 us = 3 us) with FCT i+1 us, i = 0..99.
        for (uint32_t i = 0; i < 100; ++i)
        {
            FlowSpec f;
            f.id = 1000 + i;
            f.bytes = 1000;
            f.start = MicroSeconds(10);
            stats.AddFlow(f);
        }
        FlowSpec lost;
        lost.id = 7;
        lost.bytes = 1;
        stats.AddFlow(lost);
        for (uint32_t i = 0; i < 100; ++i)
        {
            stats.RecordCompletion(1000 + i, MicroSeconds(10 + i + 1));
        }
        NS_TEST_ASSERT_MSG_EQ(stats.GetFlowCount(), 101, "flows");
        NS_TEST_ASSERT_MSG_EQ(stats.GetCompletedCount(), 100, "completed");
        NS_TEST_ASSERT_MSG_EQ(stats.GetIdealFct(stats.GetRecord(7)),
                              NanoSeconds(2001),
                              "ideal of 1 byte");
        // An ideal callback applies to the flows registered after it is set.
        stats.SetIdealCallback(Callback<Time, const FlowSpec&>(
            [](const FlowSpec& f) { return NanoSeconds(f.bytes) + MicroSeconds(f.src + f.dst); }));
        FlowSpec far;
        far.id = 8;
        far.src = 3;
        far.dst = 4;
        far.bytes = 1000;
        stats.AddFlow(far);
        NS_TEST_ASSERT_MSG_EQ(stats.GetIdealFct(stats.GetRecord(8)),
                              MicroSeconds(8),
                              "1 us of data + the pair's 7 us RTT");
        NS_TEST_ASSERT_MSG_EQ(stats.GetIdealFct(stats.GetRecord(7)),
                              NanoSeconds(2001),
                              "earlier flows keep their ideal");
        SampleSummary fct = stats.GetFctSummaryUs();
        NS_TEST_ASSERT_MSG_EQ(fct.count, 100, "only completed flows");
        NS_TEST_ASSERT_MSG_EQ_TOL(fct.mean, 50.5, 1e-9, "mean");
        NS_TEST_ASSERT_MSG_EQ_TOL(fct.p50, 50, 1e-9, "median (nearest rank)");
        NS_TEST_ASSERT_MSG_EQ_TOL(fct.p99, 99, 1e-9, "p99 (nearest rank)");
        NS_TEST_ASSERT_MSG_EQ_TOL(fct.max, 100, 1e-9, "max");
        NS_TEST_ASSERT_MSG_EQ_TOL(fct.min, 1, 1e-9, "min");
        SampleSummary sd = stats.GetSlowdownSummary();
        NS_TEST_ASSERT_MSG_EQ_TOL(sd.mean, 50.5 / 3, 1e-9, "mean slowdown");
        NS_TEST_ASSERT_MSG_EQ_TOL(sd.p99, 33, 1e-9, "p99 slowdown");
        NS_TEST_ASSERT_MSG_EQ_TOL(sd.min, 1.0 / 3, 1e-9, "min slowdown");
        NS_TEST_ASSERT_MSG_EQ(std::isnan(stats.GetCollectiveUs()), true, "no collective: NaN");
        FlowStats::Collective c;
        c.name = "allreduce";
        c.start = MicroSeconds(10);
        c.finished = MicroSeconds(35);
        c.completed = true;
        stats.AddCollective(c);
        NS_TEST_ASSERT_MSG_EQ_TOL(stats.GetCollectiveUs(), 25, 1e-9, "collective time");
        c.completed = false;
        stats.AddCollective(c);
        NS_TEST_ASSERT_MSG_EQ(std::isnan(stats.GetCollectiveUs()), true, "incomplete: NaN");
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * The JSON summary parses and has every field of the documented shape with the right values;
 * the CSV has a header and one row per flow with the documented columns.
 */
class ReportOutputTestCase : public TestCase
{
  public:
    ReportOutputTestCase()
        : TestCase("JSON summary has every field; CSV has one row per flow")
    {
    }

  private:
    void DoRun() override
    {
        ExperimentReport report;
        report.SetConfig("lb", "ecmp,reps");
        report.SetConfig("hosts", uint32_t(4));
        report.SetConfig("load", 0.5);
        report.SetConfig("trim", true);
        report.SetConfig("offset", -3);
        report.SetConfig("load", 0.7); // replaces
        for (const char* lb : {"ecmp", "reps"})
        {
            RunResult r;
            r.lb = lb;
            r.flows.SetIdeal(DataRate("8Gbps"), MicroSeconds(2));
            WorkloadHelper wl(4);
            for (const FlowSpec& f : wl.Permutation(1000))
            {
                r.flows.AddFlow(f);
            }
            r.flows.RecordCompletion(0, MicroSeconds(6));
            r.flows.RecordCompletion(1, MicroSeconds(12));
            r.flows.RecordCompletion(2, MicroSeconds(9));
            r.drops = 5;
            r.trims = 6;
            r.retransmissions = 7;
            r.ecnMarks = 8;
            r.freezes = 9;
            r.packets = 1000;
            r.maxQueueBytes = 4096;
            r.maxQueueBytesPerTier["leaf"] = 4096;
            r.linkBytes.push_back({"leaf0->spine0", "leaf-spine", 123, 400000000000ULL});
            TimeSeries q("queue_bytes", "bytes", {"leaf", "spine"});
            q.Append(MicroSeconds(1), {1, 2});
            q.Append(MicroSeconds(2), {3, 4});
            r.timeseries.push_back(q);
            r.events.push_back({MicroSeconds(5), "leaf0->spine0 down"});
            r.extra["ev_space"] = 256;
            r.simTime = MicroSeconds(20);
            r.wallSeconds = 0.25;
            report.AddResult(r);
        }
        nlohmann::json j = nlohmann::json::parse(report.ToJson());
        NS_TEST_ASSERT_MSG_EQ(j["config"]["lb"].get<std::string>(), "ecmp,reps", "config string");
        NS_TEST_ASSERT_MSG_EQ(j["config"]["hosts"].get<uint32_t>(), 4, "config integer");
        NS_TEST_ASSERT_MSG_EQ(j["config"]["load"].get<double>(), 0.7, "config replaced");
        NS_TEST_ASSERT_MSG_EQ(j["config"]["trim"].get<bool>(), true, "config bool");
        NS_TEST_ASSERT_MSG_EQ(j["config"]["offset"].get<int>(), -3, "config signed");
        NS_TEST_ASSERT_MSG_EQ(j["results"].size(), 2, "one result per scheme");
        const nlohmann::json& r = j["results"][1];
        for (const char* key : {"lb",
                                "flows",
                                "completed",
                                "fct_us",
                                "slowdown",
                                "collective_us",
                                "drops",
                                "trims",
                                "retransmissions",
                                "ecn_marks",
                                "freezes",
                                "max_queue_bytes",
                                "sim_time_us",
                                "wall_s",
                                "packets",
                                "max_queue_bytes_per_tier",
                                "link_bytes",
                                "timeseries",
                                "events",
                                "collectives",
                                "ev_space"})
        {
            NS_TEST_ASSERT_MSG_EQ(r.contains(key), true, "result has " << key);
        }
        for (const char* key : {"mean", "p50", "p99", "max"})
        {
            NS_TEST_ASSERT_MSG_EQ(r["fct_us"].contains(key), true, "fct_us." << key);
        }
        for (const char* key : {"mean", "p99"})
        {
            NS_TEST_ASSERT_MSG_EQ(r["slowdown"].contains(key), true, "slowdown." << key);
        }
        NS_TEST_ASSERT_MSG_EQ(r["lb"].get<std::string>(), "reps", "lb");
        NS_TEST_ASSERT_MSG_EQ(r["flows"].get<int>(), 4, "flows");
        NS_TEST_ASSERT_MSG_EQ(r["completed"].get<int>(), 3, "completed");
        NS_TEST_ASSERT_MSG_EQ_TOL(r["fct_us"]["max"].get<double>(), 12, 1e-9, "fct max");
        NS_TEST_ASSERT_MSG_EQ_TOL(r["fct_us"]["p50"].get<double>(), 9, 1e-9, "fct p50");
        NS_TEST_ASSERT_MSG_EQ(r["collective_us"].is_null(), true, "no collective: null");
        NS_TEST_ASSERT_MSG_EQ(r["ecn_marks"].get<int>(), 8, "ecn");
        NS_TEST_ASSERT_MSG_EQ(r["packets"].get<int>(), 1000, "packets");
        NS_TEST_ASSERT_MSG_EQ_TOL(r["sim_time_us"].get<double>(), 20, 1e-9, "sim time");
        NS_TEST_ASSERT_MSG_EQ(r["link_bytes"][0]["bytes"].get<int>(), 123, "link bytes");
        NS_TEST_ASSERT_MSG_EQ(r["timeseries"]["queue_bytes"]["series"]["spine"][1].get<double>(),
                              4,
                              "time series");
        NS_TEST_ASSERT_MSG_EQ(r["timeseries"]["queue_bytes"]["t_us"].size(), 2, "sample times");
        NS_TEST_ASSERT_MSG_EQ(r["events"][0]["label"].get<std::string>(),
                              "leaf0->spine0 down",
                              "event");

        std::string path = CreateTempDirFilename("reps-report.csv");
        std::string error;
        NS_TEST_ASSERT_MSG_EQ(report.WriteCsv(path, error), true, error);
        CsvReader csv(path);
        std::vector<std::string> columns = ExperimentReport::GetCsvColumns();
        uint32_t rows = 0;
        uint32_t completed = 0;
        bool header = true;
        while (csv.FetchNextRow())
        {
            NS_TEST_ASSERT_MSG_EQ(csv.ColumnCount(), columns.size(), "columns in every row");
            std::string first;
            csv.GetValue(0, first);
            if (header)
            {
                NS_TEST_ASSERT_MSG_EQ(first, "lb", "header row");
                header = false;
                continue;
            }
            ++rows;
            int done = 0;
            csv.GetValue(columns.size() - 1, done);
            completed += done;
        }
        NS_TEST_ASSERT_MSG_EQ(rows, 8, "one row per flow of every scheme");
        NS_TEST_ASSERT_MSG_EQ(completed, 6, "completed column");
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * Each statistic of the JSON summary sits under its own key: with 200 flows of FCTs 1 to 200 us
 * the mean, minimum, median, 99th percentile and maximum all differ, and "fct_us" and
 * "slowdown" hold exactly those of SampleSummary (nearest rank: p50 = 100 us, p99 = 198 us).
 */
class ReportStatisticsTestCase : public TestCase
{
  public:
    ReportStatisticsTestCase()
        : TestCase("JSON summary: mean, min, p50, p99 and max each under their own key")
    {
    }

  private:
    void DoRun() override
    {
        RunResult r;
        r.lb = "ecmp";
        r.flows.SetIdeal(DataRate("8Gbps"), MicroSeconds(2));
        const uint32_t n = 200;
        for (uint32_t i = 0; i < n; i++)
        {
            FlowSpec f;
            f.id = i;
            f.src = 0;
            f.dst = 1;
            f.bytes = 1000;
            f.tag = "permutation";
            r.flows.AddFlow(f);
        }
        for (uint32_t i = 0; i < n; i++)
        {
            // Completion order differs from FCT order.
            uint32_t id = (i * 7) % n;
            r.flows.RecordCompletion(id, MicroSeconds(id + 1));
        }
        ExperimentReport report;
        report.AddResult(r);
        nlohmann::json j = nlohmann::json::parse(report.ToJson());
        const nlohmann::json& fct = j["results"][0]["fct_us"];
        NS_TEST_ASSERT_MSG_EQ_TOL(fct["mean"].get<double>(), 100.5, 1e-9, "fct mean");
        NS_TEST_ASSERT_MSG_EQ_TOL(fct["min"].get<double>(), 1, 1e-9, "fct min");
        NS_TEST_ASSERT_MSG_EQ_TOL(fct["p50"].get<double>(), 100, 1e-9, "fct p50");
        NS_TEST_ASSERT_MSG_EQ_TOL(fct["p99"].get<double>(), 198, 1e-9, "fct p99");
        NS_TEST_ASSERT_MSG_EQ_TOL(fct["max"].get<double>(), 200, 1e-9, "fct max");

        SampleSummary sd = r.flows.GetSlowdownSummary();
        NS_TEST_ASSERT_MSG_LT(sd.p50, sd.p99, "slowdown p50 < p99");
        NS_TEST_ASSERT_MSG_LT(sd.p99, sd.max, "slowdown p99 < max");
        const nlohmann::json& slow = j["results"][0]["slowdown"];
        NS_TEST_ASSERT_MSG_EQ_TOL(slow["mean"].get<double>(), sd.mean, 1e-9, "slowdown mean");
        NS_TEST_ASSERT_MSG_EQ_TOL(slow["p50"].get<double>(), sd.p50, 1e-9, "slowdown p50");
        NS_TEST_ASSERT_MSG_EQ_TOL(slow["p99"].get<double>(), sd.p99, 1e-9, "slowdown p99");
        NS_TEST_ASSERT_MSG_EQ_TOL(slow["max"].get<double>(), sd.max, 1e-9, "slowdown max");
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * The shipped data files and the distributions built into the library agree, and the
 * EmpiricalRandomVariable built from a CDF samples its quantile function.
 */
class FlowSizeDataTestCase : public TestCase
{
  public:
    FlowSizeDataTestCase()
        : TestCase("Shipped CDF files equal the built-in distributions")
    {
    }

  private:
    void DoRun() override
    {
        for (const std::string& name : FlowSizeCdf::GetBuiltinNames())
        {
            std::string path = std::string(NS_TEST_SOURCEDIR) + "/../data/" + name + ".cdf";
            FlowSizeCdf file;
            FlowSizeCdf builtin;
            std::string error;
            NS_TEST_ASSERT_MSG_EQ(file.Load(path, error), true, error);
            NS_TEST_ASSERT_MSG_EQ(builtin.Load(name, error), true, error);
            NS_TEST_ASSERT_MSG_EQ(file.GetPoints().size(), builtin.GetPoints().size(), name);
            for (size_t i = 0; i < file.GetPoints().size(); ++i)
            {
                NS_TEST_ASSERT_MSG_EQ(file.GetPoints()[i].bytes,
                                      builtin.GetPoints()[i].bytes,
                                      name);
                NS_TEST_ASSERT_MSG_EQ(file.GetPoints()[i].cumulative,
                                      builtin.GetPoints()[i].cumulative,
                                      name);
            }
            // Sampling: the sample mean approaches the CDF's mean.
            Ptr<EmpiricalRandomVariable> rv = builtin.MakeRandomVariable();
            rv->SetStream(11);
            double sum = 0;
            const int samples = 200000;
            for (int i = 0; i < samples; ++i)
            {
                sum += rv->GetValue();
            }
            NS_TEST_ASSERT_MSG_EQ_TOL(sum / samples,
                                      builtin.GetMean(),
                                      builtin.GetMean() * 0.03,
                                      name << " sample mean");
        }
        FlowSizeCdf cdf;
        std::string error;
        NS_TEST_ASSERT_MSG_EQ(cdf.Load("no-such-distribution", error), false, "unknown name");
        NS_TEST_ASSERT_MSG_NE(error.find("websearch"), std::string::npos, "lists built-ins");
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * The progress reporter prints at most once per wall interval, stops when every flow is done
 * (so the simulation ends), and looks at the clock rarely when simulated time races ahead.
 */
class ProgressReporterTestCase : public TestCase
{
  public:
    ProgressReporterTestCase()
        : TestCase("Progress reporter: rare checks, prints, stops with the workload")
    {
    }

  private:
    void DoRun() override
    {
        // Sparse events over one simulated second, no wall time: the period grows, so only a
        // few dozen checks happen, and the reporter stops once the flows are done.
        {
            uint32_t done = 0;
            for (int i = 1; i <= 10; ++i)
            {
                Simulator::Schedule(MilliSeconds(100 * i), [&done]() { ++done; });
            }
            std::ostringstream out;
            Ptr<ProgressReporter> p = CreateObject<ProgressReporter>();
            p->SetStream(&out);
            p->SetFlowCounters(Callback<uint32_t>([&done]() { return done; }),
                               Callback<uint32_t>([]() { return 10U; }));
            p->Start();
            Simulator::Run();
            // The simulation ends at most one check period (MaxInterval) after the last flow.
            NS_TEST_ASSERT_MSG_EQ(
                (Simulator::Now() >= MilliSeconds(1000) && Simulator::Now() <= MilliSeconds(1100)),
                true,
                "ends with the flows");
            NS_TEST_ASSERT_MSG_LT(p->GetChecks(), 60U, "few checks");
            NS_TEST_ASSERT_MSG_EQ(p->GetLinesPrinted(), 0, "no line within one wall second");
            Simulator::Destroy();
        }
        // Slow events (each burns 3 ms of wall time) and a 1 ms wall interval: lines appear,
        // and the reporter does not outlive the other events.
        {
            uint32_t done = 0;
            for (int i = 1; i <= 20; ++i)
            {
                Simulator::Schedule(MicroSeconds(50 * i), [&done]() {
                    auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(3);
                    while (std::chrono::steady_clock::now() < until)
                    {
                    }
                    ++done;
                });
            }
            std::ostringstream out;
            Ptr<ProgressReporter> p = CreateObject<ProgressReporter>();
            p->SetAttribute("WallInterval", TimeValue(MilliSeconds(1)));
            p->SetStream(&out);
            p->SetLabel("test");
            p->SetFlowCounters(Callback<uint32_t>([&done]() { return done; }),
                               Callback<uint32_t>([]() { return 1000U; }));
            p->Start();
            Simulator::Run();
            NS_TEST_ASSERT_MSG_EQ((Simulator::Now() >= MicroSeconds(1000) &&
                                   Simulator::Now() <= MicroSeconds(1000) + MilliSeconds(100)),
                                  true,
                                  "ends with the events");
            NS_TEST_ASSERT_MSG_GT(p->GetLinesPrinted(), 0U, "printed");
            NS_TEST_ASSERT_MSG_LT_OR_EQ(p->GetLinesPrinted(), p->GetChecks(), "one per check");
            NS_TEST_ASSERT_MSG_NE(out.str().find("progress [test]: sim "),
                                  std::string::npos,
                                  "line format");
            NS_TEST_ASSERT_MSG_NE(out.str().find("/1000, wall "), std::string::npos, "flows");
            Simulator::Destroy();
        }
    }
};

/**
 * \ingroup reps-test
 * The workload tests.
 */
class RepsWorkloadTestSuite : public TestSuite
{
  public:
    RepsWorkloadTestSuite()
        : TestSuite("reps-workload", TestSuite::Type::UNIT)
    {
        AddTestCase(new PermutationTestCase(), reps::kQuick);
        AddTestCase(new PatternCountsTestCase(), reps::kQuick);
        AddTestCase(new PoissonLoadTestCase(), reps::kQuick);
        AddTestCase(new RingAllReduceTestCase(), reps::kQuick);
        AddTestCase(new AllToAllCollectiveTestCase(), reps::kQuick);
        AddTestCase(new NcclCollectiveTestCase(), reps::kQuick);
        AddTestCase(new SteppedCollectiveTestCase(), reps::kQuick);
        AddTestCase(new TrainingLoopTestCase(), reps::kQuick);
        AddTestCase(new JobPlacementTestCase(), reps::kQuick);
        AddTestCase(new FlowTraceReplayTestCase(), reps::kQuick);
        AddTestCase(new ConnectionMatrixReplayTestCase(), reps::kQuick);
        AddTestCase(new WorkloadRunnerTestCase(), reps::kQuick);
        AddTestCase(new FlowStatsTestCase(), reps::kQuick);
        AddTestCase(new ReportOutputTestCase(), reps::kQuick);
        AddTestCase(new ReportStatisticsTestCase(), reps::kQuick);
        AddTestCase(new FlowSizeDataTestCase(), reps::kQuick);
        AddTestCase(new ProgressReporterTestCase(), reps::kQuick);
    }
};

/// The one instance.
static RepsWorkloadTestSuite g_repsWorkloadTestSuite;
