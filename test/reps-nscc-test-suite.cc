/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "reps-test-compat.h"

#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/fabric-experiment.h"
#include "ns3/nscc-congestion-control.h"
#include "ns3/nstime.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

using namespace ns3;

/**
 * \file
 * \ingroup reps-test
 * NSCC (NsccCongestionControl): its defaults and their derivation, its traces and checks, and
 * whole fabrics under --cc=nscc (incast convergence, a REPS permutation, reproducibility).
 * The rules themselves are unit-tested on NsccCore (test/gtest/nscc-core-gtest.cc).
 */

namespace
{

/// The reference network of the UEC's simulator: 100 Gb/s, 12 us, 4096-byte packets.
RdmaCcContext
ReferenceContext(bool trimming)
{
    RdmaCcContext c;
    c.lineRate = DataRate("100Gbps");
    c.mtu = 4096;
    c.packetBytes = 4140;
    c.baseRtt = MicroSeconds(12);
    c.bdpBytes = 150000;
    c.trimming = trimming;
    return c;
}

/// Jain's fairness index of the flows' mean rates (1: all equal).
double
JainIndex(const FlowStats& flows)
{
    double sum = 0;
    double squares = 0;
    for (const FlowStats::Record& r : flows.GetRecords())
    {
        const double rate = r.flow.bytes / FlowStats::GetFct(r).GetSeconds();
        sum += rate;
        squares += rate * rate;
    }
    const double n = flows.GetRecords().size();
    return sum * sum / (n * squares);
}

} // namespace

/**
 * \ingroup reps-test
 * The defaults are the reference simulator's, derived as it derives them: the target delay is
 * 0.75 network RTT on a trimming fabric and one network RTT otherwise, the scaling factors are
 * 1 on the reference network, the first window is the largest (1.5 BDP); bad values are
 * refused naming the attribute.
 */
class NsccDefaultsTestCase : public TestCase
{
  public:
    NsccDefaultsTestCase()
        : TestCase("NSCC: defaults and derived constants of the reference simulator")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<NsccCongestionControl> cc = CreateObject<NsccCongestionControl>();
        NS_TEST_EXPECT_MSG_EQ(cc->GetName(), "nscc", "short name");
        cc->Init(ReferenceContext(true));
        NS_TEST_EXPECT_MSG_EQ(cc->GetTargetDelay(), MicroSeconds(9), "0.75 x 12 us trimming");
        const NsccParameters& p = cc->GetParameters();
        NS_TEST_EXPECT_MSG_EQ(p.networkRttNs, 12000, "network RTT = the connection's");
        NS_TEST_EXPECT_MSG_EQ(p.adjustPeriodNs, 12000, "adjustment period = network RTT");
        NS_TEST_EXPECT_MSG_EQ_TOL(p.gamma, 0.8, 1e-12, "gamma");
        NS_TEST_EXPECT_MSG_EQ_TOL(p.delayEwma, 0.0125, 1e-12, "delay EWMA");
        NS_TEST_EXPECT_MSG_EQ(p.quickAdaptGate, 3u, "quick-adapt gate 2^3");
        NS_TEST_EXPECT_MSG_EQ(cc->GetWindow(), 225000u, "initial window 1.5 BDP");
        NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetMaxWindow(), 225000.0, 1e-9, "max window 1.5 BDP");
        NS_TEST_EXPECT_MSG_EQ(cc->GetRate(), DataRate("100Gbps"), "no pacing");

        cc = CreateObject<NsccCongestionControl>();
        cc->Init(ReferenceContext(false));
        NS_TEST_EXPECT_MSG_EQ(cc->GetTargetDelay(), MicroSeconds(12), "1 x 12 us dropping");
        cc = CreateObject<NsccCongestionControl>();
        cc->SetAttribute("TargetDelay", TimeValue(MicroSeconds(4)));
        cc->SetAttribute("NetworkRtt", TimeValue(MicroSeconds(24)));
        cc->Init(ReferenceContext(true));
        NS_TEST_EXPECT_MSG_EQ(cc->GetTargetDelay(), MicroSeconds(4), "explicit target");
        NS_TEST_EXPECT_MSG_EQ(cc->GetParameters().networkRttNs, 24000, "explicit network RTT");

        // Out of range: refused by the checker (the command line names attribute and range).
        cc = CreateObject<NsccCongestionControl>();
        NS_TEST_EXPECT_MSG_EQ(cc->SetAttributeFailSafe("Gamma", DoubleValue(1.5)),
                              false,
                              "Gamma is in [0, 1]");
        NS_TEST_EXPECT_MSG_EQ(cc->SetAttributeFailSafe("QuickAdaptGate", UintegerValue(31)),
                              false,
                              "gate in [0, 30]");
        // Inconsistent: refused by Validate(), naming both attributes.
        cc->SetAttribute("InitialWindow", DoubleValue(2));
        const std::string error = cc->Validate(ReferenceContext(true));
        NS_TEST_EXPECT_MSG_NE(error.find("NsccCongestionControl: MaxWindow (1.5 BDP) must be >= "
                                         "InitialWindow (2 BDP)"),
                              std::string::npos,
                              error);
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * The traces: Decision names each case with the window before and after, CongestionWindow
 * follows the window, SmoothedDelay the EWMA; a NACK after a quick-adapt period drops the
 * window to the achieved bytes.
 */
class NsccTracesTestCase : public TestCase
{
  public:
    NsccTracesTestCase()
        : TestCase("NSCC: Decision, CongestionWindow and SmoothedDelay traces")
    {
    }

  private:
    std::vector<NsccDecision> m_decisions; //!< Decisions traced.
    std::vector<uint32_t> m_windows;       //!< New windows of the Decision trace.
    uint32_t m_cwndChanges{0};             //!< CongestionWindow trace calls.
    Time m_delay;                          //!< Last SmoothedDelay.

    void Decision(NsccDecision d, uint32_t oldWindow, uint32_t newWindow)
    {
        m_decisions.push_back(d);
        m_windows.push_back(newWindow);
    }

    void Window(uint32_t oldValue, uint32_t newValue)
    {
        ++m_cwndChanges;
    }

    void Delay(Time oldValue, Time newValue)
    {
        m_delay = newValue;
    }

    void DoRun() override
    {
        Ptr<NsccCongestionControl> cc = CreateObject<NsccCongestionControl>();
        cc->SetAttribute("DelayEwmaWeight", DoubleValue(1.0));
        cc->TraceConnectWithoutContext("Decision",
                                       MakeCallback(&NsccTracesTestCase::Decision, this));
        cc->TraceConnectWithoutContext("CongestionWindow",
                                       MakeCallback(&NsccTracesTestCase::Window, this));
        cc->TraceConnectWithoutContext("SmoothedDelay",
                                       MakeCallback(&NsccTracesTestCase::Delay, this));
        cc->Init(ReferenceContext(true));
        const uint32_t header = 4140 + 2 - 4096;
        for (int i = 0; i < 40; ++i)
        {
            cc->OnSend(4096 + header);
        }
        Simulator::Schedule(MicroSeconds(1), [cc]() {
            cc->OnAck(4096, true, MicroSeconds(12 + 20)); // ECN, 20 us of delay: a cut
        });
        Simulator::Schedule(MicroSeconds(40), [cc]() { cc->OnNack(4096, false); });
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(m_decisions.size(), 2u, "one decision per event");
        NS_TEST_EXPECT_MSG_EQ(NsccDecisionName(m_decisions[0]),
                              std::string("multiplicative_decrease"),
                              "ECN above target");
        // x max(1 - 0.8 (20 - 9) / 20, 0.5) = 0.56
        NS_TEST_EXPECT_MSG_EQ(m_windows[0], 126000u, "225000 x 0.56");
        NS_TEST_EXPECT_MSG_EQ(NsccDecisionName(m_decisions[1]),
                              std::string("quick_adapt"),
                              "a NACK after the period");
        NS_TEST_EXPECT_MSG_EQ(m_windows[1], 4096u, "the achieved bytes (least window)");
        NS_TEST_EXPECT_MSG_EQ(cc->GetWindow(), 4096u, "window");
        NS_TEST_EXPECT_MSG_EQ(m_cwndChanges, 3u, "initial, cut, quick adapt");
        NS_TEST_EXPECT_MSG_EQ(m_delay, MicroSeconds(12), "the NACK's sample: one network RTT");
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * An 8:1 incast on a trimming fabric under NSCC converges: after the first burst the
 * receiver's leaf queue stays near the target delay (below 1.25 target delays of line rate,
 * in a queue of 5.3; without congestion control it stays full), nothing times out, every flow
 * finishes and the shares are fair (Jain's index of the flows' rates above 0.9).
 */
class NsccIncastTestCase : public TestCase
{
  public:
    NsccIncastTestCase()
        : TestCase("NSCC: an 8:1 incast converges near the target delay, fairly, no timeouts")
    {
    }

  private:
    void DoRun() override
    {
        FabricExperiment e;
        e.lb = "reps";
        e.cc = "nscc";
        e.pattern = "incast";
        e.incastSenders = 8;
        e.leaves = 2;
        e.hostsPerLeaf = 8;
        e.spines = 4;
        e.flowSize = "2MiB";
        e.trim = true;
        e.Set("queuePackets", "400"); // 5.3 target delays: room for a queue NSCC must not build
        e.sampleInterval = "5us";
        e.quiet = true;
        e.Check();
        RunResult r = e.Run(e.GetSelectors()[0]);
        e.Set("queuePackets", "100"); // the default again, for the cases after this one
        NS_TEST_ASSERT_MSG_EQ(r.flows.GetCompletedCount(), 8u, "every flow finishes");
        NS_TEST_EXPECT_MSG_EQ(r.extra["timeouts"], 0, "no timeouts");
        // 400 Gb/s: the target (0.75 x base RTT) in bytes of queue.
        const double targetBytes = 0.75 * r.extra["base_rtt_us"] * 1e-6 * 400e9 / 8;
        const TimeSeries* queue = nullptr;
        for (const TimeSeries& ts : r.timeseries)
        {
            queue = ts.GetName() == "queue_bytes" ? &ts : queue;
        }
        NS_TEST_ASSERT_MSG_NE(queue, nullptr, "queue series");
        double peak = 0;
        double sum = 0;
        uint32_t samples = 0;
        const Time last = r.flows.GetLastCompletion();
        for (size_t i = 0; i < queue->GetSize(); ++i)
        {
            const double t = queue->GetTimesUs()[i];
            // After the first burst of 1.5 BDP per sender has drained, before the end.
            if (t >= 60 && t < last.GetMicroSeconds() - 20)
            {
                peak = std::max(peak, queue->GetValues(0)[i]);
                sum += queue->GetValues(0)[i];
                ++samples;
            }
        }
        NS_TEST_ASSERT_MSG_GT(samples, 10u, "samples of the steady state");
        NS_TEST_EXPECT_MSG_LT(peak, 1.25 * targetBytes, "queue bounded near the target");
        NS_TEST_EXPECT_MSG_GT(sum / samples, 0.3 * targetBytes, "and used: the link is busy");
        NS_TEST_EXPECT_MSG_GT(JainIndex(r.flows), 0.9, "fair shares");
        // Busy bottleneck: the last flow ends within 15% of 16 MiB at 400 Gb/s.
        const double ideal = 8.0 * 2 * 1048576 * 8 / 400e9;
        NS_TEST_EXPECT_MSG_LT(last.GetSeconds(), 1.15 * ideal + 20e-6, "link kept busy");
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * A permutation with REPS under NSCC completes on a fabric that drops, and the same run
 * number reproduces every completion time bit for bit.
 */
class NsccPermutationTestCase : public TestCase
{
  public:
    NsccPermutationTestCase()
        : TestCase("NSCC: a REPS permutation completes and reproduces bit for bit")
    {
    }

  private:
    void DoRun() override
    {
        FabricExperiment e;
        e.lb = "reps";
        e.cc = "nscc";
        e.leaves = 4;
        e.hostsPerLeaf = 4;
        e.spines = 4;
        e.flowSize = "512KiB";
        e.quiet = true;
        e.Check();
        RunResult a = e.Run(e.GetSelectors()[0]);
        RunResult b = e.Run(e.GetSelectors()[0]);
        NS_TEST_ASSERT_MSG_EQ(a.flows.GetCompletedCount(), 16u, "every flow finishes");
        NS_TEST_EXPECT_MSG_EQ(a.packets, b.packets, "same packets");
        for (size_t i = 0; i < a.flows.GetRecords().size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(a.flows.GetRecords()[i].finished,
                                  b.flows.GetRecords()[i].finished,
                                  "flow " << i << " reproduced");
        }
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * NSCC.
 */
class RepsNsccTestSuite : public TestSuite
{
  public:
    RepsNsccTestSuite()
        : TestSuite("reps-nscc", TestSuite::Type::UNIT)
    {
        AddTestCase(new NsccDefaultsTestCase, reps::kQuick);
        AddTestCase(new NsccTracesTestCase, reps::kQuick);
        AddTestCase(new NsccIncastTestCase, reps::kQuick);
        AddTestCase(new NsccPermutationTestCase, reps::kQuick);
    }
};

/// The one instance of the suite.
static RepsNsccTestSuite g_repsNsccTestSuite;
