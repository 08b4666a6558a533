/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "reps-test-compat.h"

#include "ns3/clos-fabric-helper.h"
#include "ns3/clos-fabric.h"
#include "ns3/error-model.h"
#include "ns3/fabric-link-error-model.h"
#include "ns3/failure-injector.h"
#include "ns3/failure-schedule.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <set>
#include <string>
#include <utility>
#include <vector>

using namespace ns3;

namespace
{

/**
 * \return a 2-tier fabric of 2 leaves x 2 hosts and 2 spines
 */
Ptr<ClosFabric>
SmallFabric()
{
    Ptr<ClosFabricHelper> h = CreateObject<ClosFabricHelper>();
    h->SetAttribute("Leaves", UintegerValue(2));
    h->SetAttribute("HostsPerLeaf", UintegerValue(2));
    h->SetAttribute("Spines", UintegerValue(2));
    return h->Build();
}

/**
 * Parse a schedule that must be valid.
 * \param text the schedule
 * \return its events
 */
std::vector<FailureSchedule::Event>
Events(const std::string& text)
{
    std::vector<FailureSchedule::Event> events;
    std::string error = FailureSchedule::Parse(text, events);
    NS_ABORT_MSG_UNLESS(error.empty(), error);
    return events;
}

/**
 * Every kind of event takes effect at its time to the nanosecond: a link down and up, a
 * switch (all its links) down and up, each repetition of a flap, a rate change, a loss model
 * installed and removed.
 */
class FailureTimingTestCase : public TestCase
{
  public:
    FailureTimingTestCase()
        : TestCase("Failure schedule: every kind of event at its time, to the nanosecond")
    {
    }

  private:
    /// A check to make at a time: whether link is up, its rate, whether it has a loss model.
    struct Probe
    {
        int64_t ns;       //!< When.
        uint32_t link;    //!< The link.
        bool up;          //!< Expected physical state.
        uint64_t rate;    //!< Expected rate (0: not checked).
        int loss;         //!< Expected loss model: 1 present, 0 absent, -1 not checked.
        const char* what; //!< For the message.
    };

    /**
     * Check a probe now.
     * \param fabric the fabric
     * \param p the probe
     */
    void Check(Ptr<ClosFabric> fabric, Probe p)
    {
        NS_TEST_EXPECT_MSG_EQ(fabric->IsLinkUp(p.link), p.up, p.what);
        if (p.rate)
        {
            NS_TEST_EXPECT_MSG_EQ(fabric->GetLinkRate(p.link).GetBitRate(), p.rate, p.what);
        }
        if (p.loss >= 0)
        {
            for (uint32_t side = 0; side < 2; ++side)
            {
                PointerValue v;
                fabric->GetLinkDevice(p.link, side)->GetAttribute("ReceiveErrorModel", v);
                bool has = v.Get<FabricLinkErrorModel>()->GetLossModel() != nullptr;
                NS_TEST_EXPECT_MSG_EQ(has, (p.loss == 1), p.what);
            }
        }
    }

    void DoRun() override
    {
        Ptr<ClosFabric> fabric = SmallFabric();
        Ptr<FailureInjector> injector = CreateObject<FailureInjector>();
        std::string error = injector->Schedule(fabric,
                                               Events("20us link:leaf0-spine0 down\n"
                                                      "35us link:leaf0-spine0 up\n"
                                                      "50us switch:spine1 down\n"
                                                      "60us switch:spine1 up\n"
                                                      "100us link:leaf1-spine0 flap 2us 10us 3\n"
                                                      "5us link:host0-leaf0 rate 10Gbps\n"
                                                      "7us link:host1-leaf0 loss 0.5\n"
                                                      "9us link:host1-leaf0 loss 0\n"));
        NS_TEST_ASSERT_MSG_EQ(error, "", "a valid schedule");
        uint32_t l00 = fabric->GetLeafSpineLink(0, 0);
        uint32_t l01 = fabric->GetLeafSpineLink(0, 1);
        uint32_t l11 = fabric->GetLeafSpineLink(1, 1);
        uint32_t l10 = fabric->GetLeafSpineLink(1, 0);
        uint32_t h0 = fabric->GetHostLink(0);
        uint32_t h1 = fabric->GetHostLink(1);
        std::vector<Probe> probes = {
            {19999, l00, true, 0, -1, "leaf0-spine0 up before 20 us"},
            {20000, l00, false, 0, -1, "leaf0-spine0 down at 20 us"},
            {34999, l00, false, 0, -1, "still down before 35 us"},
            {35000, l00, true, 0, -1, "up again at 35 us"},
            {49999, l01, true, 0, -1, "spine1's links up before 50 us"},
            {50000, l01, false, 0, -1, "leaf0-spine1 down with spine1"},
            {50000, l11, false, 0, -1, "leaf1-spine1 down with spine1"},
            {50000, l00, true, 0, -1, "spine0's link stays up"},
            {60000, l01, true, 0, -1, "spine1 back at 60 us"},
            {60000, l11, true, 0, -1, "spine1 back at 60 us"},
            {99999, l10, true, 0, -1, "flap not started"},
            {100000, l10, false, 0, -1, "flap 1 down"},
            {102000, l10, true, 0, -1, "flap 1 up after 2 us"},
            {110000, l10, false, 0, -1, "flap 2 down"},
            {112000, l10, true, 0, -1, "flap 2 up"},
            {120000, l10, false, 0, -1, "flap 3 down"},
            {122000, l10, true, 0, -1, "flap 3 up"},
            {130000, l10, true, 0, -1, "no fourth flap"},
            {4999, h0, true, 400000000000ULL, -1, "host0's link at its rate before 5 us"},
            {5000, h0, true, 10000000000ULL, -1, "10 Gb/s from 5 us"},
            {6999, h1, true, 0, 0, "no loss before 7 us"},
            {7000, h1, true, 0, 1, "loss from 7 us"},
            {9000, h1, true, 0, 0, "loss ends at 9 us"},
        };
        for (const Probe& p : probes)
        {
            // After the events of that nanosecond: they were scheduled first.
            Simulator::Schedule(NanoSeconds(p.ns), &FailureTimingTestCase::Check, this, fabric, p);
        }
        Simulator::Stop(MicroSeconds(200));
        Simulator::Run();
        std::vector<FailureInjector::Outcome> out = injector->GetOutcomes();
        NS_TEST_EXPECT_MSG_EQ(out.size(), 6, "one outcome per line but the ups");
        NS_TEST_EXPECT_MSG_EQ(out[0].line, 1, "in line order");
        NS_TEST_EXPECT_MSG_EQ(out[0].action, "down", "line 1");
        NS_TEST_EXPECT_MSG_EQ(out[2].action, "flap", "line 5");
        NS_TEST_EXPECT_MSG_EQ(out[2].at, MicroSeconds(100), "the flap's first down");
        Simulator::Destroy();
    }
};

/**
 * A schedule that is wrong against the fabric schedules nothing and names the line.
 */
class FailureRefusedTestCase : public TestCase
{
  public:
    FailureRefusedTestCase()
        : TestCase("Failure schedule: a bad line against the fabric schedules nothing")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<ClosFabric> fabric = SmallFabric();
        Ptr<FailureInjector> injector = CreateObject<FailureInjector>();
        std::string error = injector->Schedule(fabric,
                                               Events("20us link:leaf0-spine0 down\n"
                                                      "30us link:leaf0-spine7 down\n"));
        NS_TEST_EXPECT_MSG_EQ(error.rfind("line 2: element 'link:leaf0-spine7'", 0),
                              0,
                              "names line 2: " << error);
        Simulator::Stop(MicroSeconds(50));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(fabric->IsLinkUp(fabric->GetLeafSpineLink(0, 0)),
                              true,
                              "line 1 was not scheduled either");
        Simulator::Destroy();
    }
};

/**
 * Uplinks elements: the first uplinks of a leaf in order, or uplinks drawn from a stream; the
 * k-th acting k gaps after the line's time; every link of a loss line with its own model; a
 * count or a leaf the fabric does not have refused with the line.
 */
class FailureUplinksTestCase : public TestCase
{
  public:
    FailureUplinksTestCase()
        : TestCase("Failure schedule: uplinks of a leaf or drawn, staggered by their gap")
    {
    }

  private:
    /**
     * Check the state of a link now.
     * \param fabric the fabric
     * \param link the link
     * \param up whether it must be up
     * \param what for the message
     */
    void Up(Ptr<ClosFabric> fabric, uint32_t link, bool up, const char* what)
    {
        NS_TEST_EXPECT_MSG_EQ(fabric->IsLinkUp(link), up, what);
    }

    void DoRun() override
    {
        Ptr<ClosFabric> fabric = SmallFabric();
        Ptr<FailureInjector> injector = CreateObject<FailureInjector>();
        std::string error = injector->Schedule(fabric,
                                               Events("10us uplinks:2@leaf1+5us down\n"
                                                      "30us uplinks:2@leaf1+5us up\n"
                                                      "0 uplinks:1@leaf0 rate 10Gbps\n"
                                                      "0 uplinks:4#3 loss 0.5\n"));
        NS_TEST_ASSERT_MSG_EQ(error, "", "a valid schedule");
        NS_TEST_EXPECT_MSG_EQ(injector->AssignStreams(100), 4, "one loss model per link");
        const uint32_t l10 = fabric->GetLeafSpineLink(1, 0);
        const uint32_t l11 = fabric->GetLeafSpineLink(1, 1);
        std::vector<uint32_t> first = injector->GetEventLinks(0);
        NS_TEST_ASSERT_MSG_EQ(first.size(), 2, "two uplinks");
        NS_TEST_EXPECT_MSG_EQ(first[0], l10, "leaf 1's first uplink first");
        NS_TEST_EXPECT_MSG_EQ(first[1], l11, "then its second");
        NS_TEST_EXPECT_MSG_EQ((injector->GetEventLinks(1) == first), true, "the same for 'up'");
        NS_TEST_EXPECT_MSG_EQ(injector->GetEventLinks(2).at(0),
                              fabric->GetLeafSpineLink(0, 0),
                              "leaf 0's first uplink");
        std::vector<uint32_t> drawn = injector->GetEventLinks(3);
        NS_TEST_EXPECT_MSG_EQ(std::set<uint32_t>(drawn.begin(), drawn.end()).size(),
                              4,
                              "all four uplinks, each once");
        NS_TEST_EXPECT_MSG_EQ(injector->GetEventLinks(4).empty(), true, "no fifth event");

        struct At
        {
            int64_t ns;       //!< When.
            uint32_t link;    //!< The link.
            bool up;          //!< Expected state.
            const char* what; //!< For the message.
        };

        for (const At& a : std::vector<At>{{9999, l10, true, "first up before 10 us"},
                                           {10000, l10, false, "first down at 10 us"},
                                           {14999, l11, true, "second up before 15 us"},
                                           {15000, l11, false, "second down 5 us later"},
                                           {30000, l10, true, "first up at 30 us"},
                                           {34999, l11, false, "second still down"},
                                           {35000, l11, true, "second up at 35 us"}})
        {
            Simulator::Schedule(NanoSeconds(a.ns),
                                &FailureUplinksTestCase::Up,
                                this,
                                fabric,
                                a.link,
                                a.up,
                                a.what);
        }
        Simulator::Stop(MicroSeconds(50));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(fabric->GetLinkRate(fabric->GetLeafSpineLink(0, 0)).GetBitRate(),
                              10000000000ULL,
                              "degraded");
        std::set<Ptr<RateErrorModel>> models;
        for (uint32_t link : drawn)
        {
            PointerValue v;
            fabric->GetLinkDevice(link, 0)->GetAttribute("ReceiveErrorModel", v);
            models.insert(
                DynamicCast<RateErrorModel>(v.Get<FabricLinkErrorModel>()->GetLossModel()));
        }
        NS_TEST_EXPECT_MSG_EQ(models.size(), 4, "a model per link");
        NS_TEST_EXPECT_MSG_EQ(models.count(nullptr), 0, "every link loses packets");
        std::vector<FailureInjector::Outcome> out = injector->GetOutcomes();
        NS_TEST_ASSERT_MSG_EQ(out.size(), 3, "down, rate and loss lines");
        NS_TEST_EXPECT_MSG_EQ(out[0].element, "uplinks:2@leaf1+5us", "the element");
        NS_TEST_EXPECT_MSG_EQ(out[0].at, MicroSeconds(10), "the line's time");
        Simulator::Destroy();

        for (const auto& [text, want] : std::vector<std::pair<std::string, std::string>>{
                 {"\n0 uplinks:5#1 down\n",
                  "line 2: element 'uplinks:5#1': 5 uplinks asked, the fabric has 4"},
                 {"0 uplinks:3@leaf0 down\n",
                  "line 1: element 'uplinks:3@leaf0': 3 uplinks asked, leaf 0 has 2"},
                 {"0 uplinks:1@leaf2 down\n",
                  "line 1: element 'uplinks:1@leaf2': no leaf 2 in this fabric (leaves 0 to 1)"}})
        {
            Ptr<ClosFabric> f = SmallFabric();
            Ptr<FailureInjector> refused = CreateObject<FailureInjector>();
            std::string why = refused->Schedule(f, Events(text));
            NS_TEST_EXPECT_MSG_EQ(why.rfind(want, 0), 0, "refused: " << why);
            Simulator::Destroy();
        }
    }
};

/// The tests of failure schedules.
class RepsFailureTestSuite : public TestSuite
{
  public:
    RepsFailureTestSuite()
        : TestSuite("reps-failure", TestSuite::Type::UNIT)
    {
        AddTestCase(new FailureTimingTestCase(), reps::kQuick);
        AddTestCase(new FailureRefusedTestCase(), reps::kQuick);
        AddTestCase(new FailureUplinksTestCase(), reps::kQuick);
    }
};

} // namespace

/// Registers the suite.
static RepsFailureTestSuite g_repsFailureTestSuite;
