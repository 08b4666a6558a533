/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "reps-test-compat.h"

#include "ns3/data-rate.h"
#include "ns3/dcqcn-congestion-control.h"
#include "ns3/double.h"
#include "ns3/no-congestion-control.h"
#include "ns3/nstime.h"
#include "ns3/rdma-window-congestion-control.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <cmath>
#include <vector>

using namespace ns3;

/**
 * \file
 * \ingroup reps-test
 * The congestion controllers of RdmaQueuePair, driven directly with scripted events.
 */

namespace
{

/// A connection with round numbers: 1000-byte packets, 10 kB BDP, 100 Gb/s.
RdmaCcContext
Context()
{
    RdmaCcContext c;
    c.lineRate = DataRate("100Gbps");
    c.mtu = 1000;
    c.packetBytes = 1044;
    c.baseRtt = MicroSeconds(1);
    c.bdpBytes = 10000;
    return c;
}

} // namespace

/**
 * \ingroup reps-test
 * The window controller follows the REPS evaluation's rules on a scripted sequence of ACKs,
 * NACKs and losses: the expected window is computed by hand at every step.
 */
class WindowCcScriptTestCase : public TestCase
{
  public:
    WindowCcScriptTestCase()
        : TestCase("Window CC: cwnd follows the rules on a scripted ACK sequence")
    {
    }

  private:
    std::vector<uint32_t> m_traced; //!< CongestionWindow trace values.

    void Traced(uint32_t oldValue, uint32_t newValue)
    {
        m_traced.push_back(newValue);
    }

    void DoRun() override
    {
        Ptr<RdmaWindowCongestionControl> cc = CreateObject<RdmaWindowCongestionControl>();
        cc->SetAttribute("InitialWindow", DoubleValue(1.5));
        cc->SetAttribute("MaxWindow", DoubleValue(2.0));
        cc->TraceConnectWithoutContext("CongestionWindow",
                                       MakeCallback(&WindowCcScriptTestCase::Traced, this));
        cc->Init(Context());
        const double tol = 1e-9;
        // initial: 1.5 BDP
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetExactWindow(), 15000.0, tol, "initial window 1.5 BDP");
        NS_TEST_ASSERT_MSG_EQ(cc->GetWindow(), 15000u, "GetWindow");
        NS_TEST_ASSERT_MSG_EQ(cc->GetRate(), DataRate("100Gbps"), "window CC sends at line rate");
        // unmarked ACK of 1000 bytes: += 1000 * 1000 / 15000
        cc->OnAck(1000, false, MicroSeconds(1));
        double w = 15000.0 + 1000.0 * 1000.0 / 15000.0;
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetExactWindow(), w, tol, "unmarked ACK");
        NS_TEST_ASSERT_MSG_EQ(cc->GetWindow(), 15066u, "window rounded down");
        // marked ACK of 1000 bytes: -= 250
        cc->OnAck(1000, true, MicroSeconds(1));
        w -= 250.0;
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetExactWindow(), w, tol, "marked ACK: -acked/4");
        // marked ACK covering 3 packets: -= 750
        cc->OnAck(3000, true, MicroSeconds(1));
        w -= 750.0;
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetExactWindow(), w, tol, "marked ACK of 3 packets");
        // NACK of a 1000-byte packet, loss of a 600-byte packet
        cc->OnNack(1000, false);
        w -= 1000.0;
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetExactWindow(), w, tol, "NACK: -packet size");
        cc->OnLoss(600);
        w -= 600.0;
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetExactWindow(), w, tol, "RTO loss: -packet size");
        // a duplicate ACK (nothing newly acknowledged) does not grow the window
        cc->OnAck(0, false, Time(0));
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetExactWindow(), w, tol, "duplicate ACK");
        // many losses: never below one MTU
        for (int i = 0; i < 100; ++i)
        {
            cc->OnLoss(1000);
        }
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetExactWindow(), 1000.0, tol, "floor at one MTU");
        // additive increase: about one MTU per window of ACKs
        w = 1000.0;
        for (int i = 0; i < 10; ++i)
        {
            cc->OnAck(1000, false, MicroSeconds(1));
            w += 1000.0 * 1000.0 / w;
        }
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetExactWindow(), w, 1e-6, "ten unmarked ACKs");
        // capped at the maximum window (2 BDP)
        for (int i = 0; i < 10000; ++i)
        {
            cc->OnAck(1000, false, MicroSeconds(1));
        }
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetExactWindow(), 20000.0, tol, "capped at MaxWindow");
        NS_TEST_ASSERT_MSG_EQ(cc->GetMaxWindow(), 20000.0, "max window");
        NS_TEST_ASSERT_MSG_GT(m_traced.size(), 10, "CongestionWindow traced");
        NS_TEST_ASSERT_MSG_EQ(m_traced.back(), 20000u, "last traced window");
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * A tiny BDP still gives a window of at least one packet.
 */
class WindowCcFloorTestCase : public TestCase
{
  public:
    WindowCcFloorTestCase()
        : TestCase("Window CC: initial window never below one MTU")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<RdmaWindowCongestionControl> cc = CreateObject<RdmaWindowCongestionControl>();
        RdmaCcContext c = Context();
        c.bdpBytes = 1000;
        cc->SetAttribute("InitialWindow", DoubleValue(0.1));
        cc->SetAttribute("MaxWindow", DoubleValue(1.0));
        cc->Init(c);
        NS_TEST_ASSERT_MSG_EQ(cc->GetWindow(), 1000u, "one MTU");
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * DCQCN reaction point: CNPs cut the rate with alpha, a CNP inside RateDecreaseInterval is
 * ignored, fast recovery halves the distance to the target rate, and without CNPs the rate
 * returns to line rate (and the timer stops).
 */
class DcqcnRateTestCase : public TestCase
{
  public:
    DcqcnRateTestCase()
        : TestCase("DCQCN: rate falls on CNPs and recovers to line rate without them")
    {
    }

  private:
    Ptr<DcqcnCongestionControl> m_cc; //!< Under test.
    std::vector<double> m_at;         //!< Rates sampled by the script, Gb/s.

    void Sample()
    {
        m_at.push_back(m_cc->GetRate().GetBitRate() / 1e9);
    }

    void DoRun() override
    {
        m_cc = CreateObject<DcqcnCongestionControl>();
        m_cc->SetAttribute("AlphaGain", DoubleValue(1.0 / 16));
        m_cc->SetAttribute("RateIncreaseInterval", TimeValue(MicroSeconds(55)));
        m_cc->SetAttribute("AlphaUpdateInterval", TimeValue(MicroSeconds(55)));
        m_cc->SetAttribute("RateDecreaseInterval", TimeValue(MicroSeconds(4)));
        m_cc->Init(Context());
        NS_TEST_ASSERT_MSG_EQ(m_cc->GetWindow(),
                              RdmaCongestionControl::UNLIMITED,
                              "DCQCN does not limit the window");
        NS_TEST_ASSERT_MSG_EQ(m_cc->GetCnpInterval(), MicroSeconds(50), "CNP interval");
        const double g = 1.0 / 16;
        // t = 0: CNP with alpha = 1 -> 50 Gb/s, alpha stays 1
        Simulator::Schedule(Time(0), &DcqcnCongestionControl::OnCnp, m_cc);
        Simulator::Schedule(NanoSeconds(1), &DcqcnRateTestCase::Sample, this); // [0]
        // t = 2 us: inside RateDecreaseInterval: ignored
        Simulator::Schedule(MicroSeconds(2), &DcqcnCongestionControl::OnCnp, m_cc);
        Simulator::Schedule(MicroSeconds(2) + NanoSeconds(1),
                            &DcqcnRateTestCase::Sample,
                            this); // [1]
        // t = 10 us: second cut, alpha still 1 (no whole K period) -> 25 Gb/s
        Simulator::Schedule(MicroSeconds(10), &DcqcnCongestionControl::OnCnp, m_cc);
        Simulator::Schedule(MicroSeconds(10) + NanoSeconds(1),
                            &DcqcnRateTestCase::Sample,
                            this); // [2]
        // t = 65 us: first timer event (fast recovery): (50 + 25) / 2 = 37.5
        Simulator::Schedule(MicroSeconds(66), &DcqcnRateTestCase::Sample, this); // [3]
        // t = 120 us: second: (50 + 37.5) / 2 = 43.75
        Simulator::Schedule(MicroSeconds(121), &DcqcnRateTestCase::Sample, this); // [4]
        Simulator::Stop(MilliSeconds(100));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(m_at.size(), 5, "samples");
        NS_TEST_EXPECT_MSG_EQ_TOL(m_at[0], 50.0, 1e-6, "first cut: Rc (1 - alpha/2)");
        NS_TEST_EXPECT_MSG_EQ_TOL(m_at[1], 50.0, 1e-6, "CNP inside RateDecreaseInterval ignored");
        NS_TEST_EXPECT_MSG_EQ_TOL(m_at[2], 25.0, 1e-6, "second cut");
        NS_TEST_EXPECT_MSG_EQ_TOL(m_at[3], 37.5, 1e-6, "fast recovery step 1");
        NS_TEST_EXPECT_MSG_EQ_TOL(m_at[4], 43.75, 1e-6, "fast recovery step 2");
        // After two CNPs alpha = (1 - g) ((1 - g) 1 + g) + g = 1 (alpha was 1).
        NS_TEST_EXPECT_MSG_EQ_TOL(m_cc->GetAlpha(), 1.0, 1e-12, "alpha");
        NS_TEST_EXPECT_MSG_EQ(m_cc->GetRate(), DataRate("100Gbps"), "back at line rate");
        NS_TEST_EXPECT_MSG_EQ(Simulator::IsFinished(), true, "the timer stopped at line rate");

        // Alpha decays lazily: a CNP 10 K periods later uses alpha (1 - g)^10.
        Time t = Simulator::Now();
        Simulator::Schedule(MicroSeconds(550), &DcqcnCongestionControl::OnCnp, m_cc);
        Simulator::Schedule(MicroSeconds(550) + NanoSeconds(1), &DcqcnRateTestCase::Sample, this);
        Simulator::Stop(MicroSeconds(551));
        Simulator::Run();
        // alpha was last updated by the CNP at 10 us
        const Time cnp3 = t + MicroSeconds(550);
        const double periods = std::floor((cnp3 - MicroSeconds(10)).GetMicroSeconds() / 55.0);
        const double alpha = std::pow(1 - g, periods);
        NS_TEST_EXPECT_MSG_EQ_TOL(m_at.back(),
                                  100.0 * (1 - alpha / 2),
                                  1e-3,
                                  "cut with the decayed alpha");
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * Hyper increase: with a small byte counter both counters pass F and the target rate climbs
 * by RHai steps.
 */
class DcqcnHyperIncreaseTestCase : public TestCase
{
  public:
    DcqcnHyperIncreaseTestCase()
        : TestCase("DCQCN: additive then hyper increase of the target rate")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<DcqcnCongestionControl> cc = CreateObject<DcqcnCongestionControl>();
        cc->SetAttribute("ByteCounter", UintegerValue(1000));
        cc->SetAttribute("AdditiveIncrease", DataRateValue(DataRate("1Gbps")));
        cc->SetAttribute("HyperIncrease", DataRateValue(DataRate("5Gbps")));
        cc->SetAttribute("RateIncreaseInterval", TimeValue(Seconds(1))); // timer out of play
        cc->Init(Context());
        cc->OnCnp(); // Rc = 50, Rt = 100
        // Byte-counter events only (T = 0): max(T, B) < 5 -> fast recovery.
        for (int i = 0; i < 4; ++i)
        {
            cc->OnSend(1000);
        }
        NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetTargetRate().GetBitRate() / 1e9, 100.0, 1e-6, "Rt");
        NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetRate().GetBitRate() / 1e9,
                                  100.0 - 50.0 / 16,
                                  1e-6,
                                  "four fast recovery steps");
        cc->OnCnp(); // ignored (same time)
        Simulator::Destroy();

        // A fresh controller, cut twice to get Rt below line rate.
        cc = CreateObject<DcqcnCongestionControl>();
        cc->SetAttribute("ByteCounter", UintegerValue(1000));
        cc->SetAttribute("AdditiveIncrease", DataRateValue(DataRate("1Gbps")));
        cc->SetAttribute("HyperIncrease", DataRateValue(DataRate("5Gbps")));
        cc->SetAttribute("RateIncreaseInterval", TimeValue(MicroSeconds(10)));
        cc->SetAttribute("RateDecreaseInterval", TimeValue(Time(0)));
        cc->Init(Context());
        cc->OnCnp();
        cc->OnCnp(); // Rc = 25, Rt = 50
        NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetTargetRate().GetBitRate() / 1e9, 50.0, 1e-6, "Rt");
        // 6 timer events (T = 6 > F) with B = 0: additive: Rt grows by 1 Gb/s on event 6.
        Simulator::Stop(MicroSeconds(61));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetTargetRate().GetBitRate() / 1e9,
                                  51.0,
                                  1e-6,
                                  "additive increase once T > F");
        // 6 byte-counter events: B = 6 > F and T = 6 > F: hyper increase, i = 1: +5.
        for (int i = 0; i < 6; ++i)
        {
            cc->OnSend(1000);
        }
        // B = 1..5 while T = 6: additive (+1 each, 5 times), B = 6: hyper (+5).
        NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetTargetRate().GetBitRate() / 1e9,
                                  51.0 + 5 * 1.0 + 5.0,
                                  1e-6,
                                  "hyper increase when both counters exceed F");
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * No congestion control: line rate, fixed window, deaf to feedback.
 */
class NoCcTestCase : public TestCase
{
  public:
    NoCcTestCase()
        : TestCase("No CC: fixed window and line rate whatever happens")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<NoCongestionControl> cc = CreateObject<NoCongestionControl>();
        cc->Init(Context());
        NS_TEST_EXPECT_MSG_EQ(cc->GetWindow(), RdmaCongestionControl::UNLIMITED, "unlimited");
        cc = CreateObject<NoCongestionControl>();
        cc->SetAttribute("Window", UintegerValue(5000));
        cc->Init(Context());
        cc->OnAck(1000, true, MicroSeconds(1));
        cc->OnNack(1000, false);
        cc->OnLoss(1000);
        cc->OnTimeout();
        cc->OnCnp();
        NS_TEST_EXPECT_MSG_EQ(cc->GetWindow(), 5000u, "fixed window");
        NS_TEST_EXPECT_MSG_EQ(cc->GetRate(), DataRate("100Gbps"), "line rate");
        NS_TEST_EXPECT_MSG_EQ(cc->GetCnpInterval(), Time(0), "no CNPs");
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * Congestion controllers of RdmaQueuePair.
 */
class RepsCongestionControlTestSuite : public TestSuite
{
  public:
    RepsCongestionControlTestSuite()
        : TestSuite("reps-congestion-control", TestSuite::Type::UNIT)
    {
        AddTestCase(new WindowCcScriptTestCase, reps::kQuick);
        AddTestCase(new WindowCcFloorTestCase, reps::kQuick);
        AddTestCase(new DcqcnRateTestCase, reps::kQuick);
        AddTestCase(new DcqcnHyperIncreaseTestCase, reps::kQuick);
        AddTestCase(new NoCcTestCase, reps::kQuick);
    }
};

/// The one instance of the suite.
static RepsCongestionControlTestSuite g_repsCongestionControlTestSuite;
