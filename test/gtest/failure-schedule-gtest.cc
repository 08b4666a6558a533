/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Unit tests of FailureSchedule: the failure-schedule file format, its values and its errors.
 */

#include "ns3/failure-schedule.h"

#include <gtest/gtest.h>

using ns3::FailureSchedule;

namespace
{

/// Parse and expect an error containing \p what.
void
ExpectError(const std::string& text, const std::string& what)
{
    std::vector<FailureSchedule::Event> events;
    std::string error = FailureSchedule::Parse(text, events);
    EXPECT_NE(error.find(what), std::string::npos) << "text: " << text << "\nerror: " << error;
    EXPECT_TRUE(events.empty());
}

} // namespace

TEST(FailureSchedule, ParsesEveryAction)
{
    std::vector<FailureSchedule::Event> e;
    std::string text = "# time element action\n"
                       "\n"
                       "20us link:leaf0-spine1 down   # a comment\n"
                       "1.5ms\tlink:leaf0-spine1 up\n"
                       "0 switch:spine2 flap 5us 50us 10\n"
                       "30us link:agg0.1-core2#1 rate 100Gbps\n"
                       "40ns link:host3-leaf0 loss 0.01\n"
                       "2s link:leaf1-spine0 ber 1e-9\n";
    ASSERT_EQ(FailureSchedule::Parse(text, e), "");
    ASSERT_EQ(e.size(), 6U);
    EXPECT_EQ(e[0].line, 3U);
    EXPECT_EQ(e[0].timeNs, 20000);
    EXPECT_FALSE(e[0].isSwitch);
    EXPECT_EQ(e[0].nodeA, "leaf0");
    EXPECT_EQ(e[0].nodeB, "spine1");
    EXPECT_EQ(e[0].action, FailureSchedule::DOWN);
    EXPECT_EQ(e[0].GetElement(), "link:leaf0-spine1");
    EXPECT_EQ(e[1].timeNs, 1500000);
    EXPECT_EQ(e[1].action, FailureSchedule::UP);
    EXPECT_TRUE(e[2].isSwitch);
    EXPECT_EQ(e[2].GetElement(), "switch:spine2");
    EXPECT_EQ(e[2].action, FailureSchedule::FLAP);
    EXPECT_EQ(e[2].downNs, 5000);
    EXPECT_EQ(e[2].periodNs, 50000);
    EXPECT_EQ(e[2].count, 10U);
    EXPECT_EQ(e[3].parallel, 1U);
    EXPECT_EQ(e[3].GetElement(), "link:agg0.1-core2#1");
    EXPECT_EQ(e[3].rateBps, 100000000000ULL);
    EXPECT_EQ(e[4].timeNs, 40);
    EXPECT_DOUBLE_EQ(e[4].value, 0.01);
    EXPECT_EQ(e[5].timeNs, 2000000000LL);
    EXPECT_EQ(e[5].action, FailureSchedule::BER);
    EXPECT_DOUBLE_EQ(e[5].value, 1e-9);
}

TEST(FailureSchedule, TimesAreExactNanoseconds)
{
    int64_t ns = -1;
    EXPECT_EQ(FailureSchedule::ParseTimeNs("0", ns), "");
    EXPECT_EQ(ns, 0);
    EXPECT_EQ(FailureSchedule::ParseTimeNs("1000ps", ns), "");
    EXPECT_EQ(ns, 1);
    EXPECT_EQ(FailureSchedule::ParseTimeNs("0.000001s", ns), "");
    EXPECT_EQ(ns, 1000);
    EXPECT_EQ(FailureSchedule::ParseTimeNs("1000s", ns), "");
    EXPECT_EQ(ns, FailureSchedule::MAX_TIME_NS);
    EXPECT_NE(FailureSchedule::ParseTimeNs("1500ps", ns), ""); // not a whole nanosecond
    EXPECT_NE(FailureSchedule::ParseTimeNs("0.5ns", ns), "");
    EXPECT_NE(FailureSchedule::ParseTimeNs("1001s", ns), ""); // after 1000 s
    EXPECT_NE(FailureSchedule::ParseTimeNs("20", ns), "");    // no unit
    EXPECT_NE(FailureSchedule::ParseTimeNs("20 us", ns), "");
    EXPECT_NE(FailureSchedule::ParseTimeNs("-1us", ns), "");
    EXPECT_NE(FailureSchedule::ParseTimeNs("1e3us", ns), "");
    EXPECT_NE(FailureSchedule::ParseTimeNs("us", ns), "");
    EXPECT_NE(FailureSchedule::ParseTimeNs("1234567890123456789s", ns), ""); // too many digits
}

TEST(FailureSchedule, ErrorsNameTheLineAndTheField)
{
    ExpectError("", "no event");
    ExpectError("# only a comment\n", "no event");
    ExpectError("20us link:leaf0-spine1\n", "line 1: expected '<time> <element> <action>");
    ExpectError("\n\nsoon link:leaf0-spine1 down\n", "line 3: time 'soon'");
    ExpectError("20us router:r1 down\n",
                "line 1: element 'router:r1' is not a link, a switch, a plane or uplinks");
    ExpectError("20us link:leaf0 down\n", "line 1: element 'link:leaf0' must name two nodes");
    ExpectError("20us link:leaf0-leaf0 down\n", "must name two different nodes");
    ExpectError("20us link:leaf0-spine1#x down\n", "parallel link index");
    ExpectError("20us switch:Spine2 down\n", "is not a node name");
    ExpectError("20us link:leaf0-spine1 explode\n",
                "line 1: unknown action 'explode'; allowed: "
                "down, up, flap, rate, loss, ber");
    ExpectError("20us link:leaf0-spine1 down now\n", "action 'down' takes 0 value(s)");
    ExpectError("0 link:leaf0-spine1 flap 5us 50us\n", "action 'flap' takes 3 value(s)");
    ExpectError("0 link:leaf0-spine1 flap 0 50us 3\n", "flap down time '0': must be above 0");
    ExpectError("0 link:leaf0-spine1 flap 50us 50us 3\n", "flap period '50us': must be longer");
    ExpectError("0 link:leaf0-spine1 flap 5us 50us 0\n", "flap count '0'");
    ExpectError("0 link:leaf0-spine1 flap 5us 50us 2.5\n", "flap count '2.5'");
    ExpectError("999s link:leaf0-spine1 flap 1s 2s 3\n", "flap ends after 1000 s");
    ExpectError("0 switch:spine0 rate 10Gbps\n", "applies to links, not to a switch");
    ExpectError("0 link:leaf0-spine1 rate fast\n", "rate 'fast'");
    ExpectError("0 link:leaf0-spine1 rate 0Gbps\n", "rate '0Gbps': out of range");
    ExpectError("0 link:leaf0-spine1 rate 101Tbps\n", "rate '101Tbps'");
    ExpectError("0 link:leaf0-spine1 rate 1.5bps\n", "rate '1.5bps'");
    ExpectError("0 link:leaf0-spine1 loss 1.5\n", "loss '1.5': allowed: a number from 0 to 1");
    ExpectError("0 link:leaf0-spine1 loss nan\n", "loss 'nan'");
    ExpectError("0 link:leaf0-spine1 ber 0.01\n", "ber '0.01': allowed: a number from 0 to 1e-3");
    ExpectError("0 link:leaf0-spine1 down\n0 link:x-y \x01 down\n", "line 2: a character");
}

TEST(FailureSchedule, PlaneElements)
{
    std::vector<FailureSchedule::Event> e;
    ASSERT_EQ(FailureSchedule::Parse("20us plane:1 down\n"
                                     "40us plane:1 up\n"
                                     "0 plane:0 flap 5us 20us 3\n"
                                     "10us switch:p1.spine2 down\n"
                                     "10us link:host3-p1.leaf0 down\n"
                                     "10us link:p2.leaf0-p2.spine1#1 loss 0.5\n",
                                     e),
              "");
    ASSERT_EQ(e.size(), 6U);
    EXPECT_TRUE(e[0].isPlane);
    EXPECT_FALSE(e[0].isSwitch);
    EXPECT_EQ(e[0].plane, 1U);
    EXPECT_EQ(e[0].GetElement(), "plane:1");
    EXPECT_EQ(e[1].action, FailureSchedule::UP);
    EXPECT_EQ(e[2].plane, 0U);
    EXPECT_EQ(e[2].action, FailureSchedule::FLAP);
    EXPECT_EQ(e[3].GetElement(), "switch:p1.spine2");
    EXPECT_EQ(e[4].nodeB, "p1.leaf0");
    EXPECT_EQ(e[5].GetElement(), "link:p2.leaf0-p2.spine1#1");
}

TEST(FailureSchedule, PlaneErrorsNameTheLine)
{
    ExpectError("20us plane:8 down\n",
                "line 1: element 'plane:8': the plane after 'plane:' "
                "must be a number from 0 to 7");
    ExpectError("\n20us plane: down\n", "line 2: element 'plane:'");
    ExpectError("20us plane:01 down\n", "must be a number from 0 to 7");
    ExpectError("20us plane:-1 down\n", "must be a number from 0 to 7");
    ExpectError("20us plane:1 down\n0 plane:1 rate 10Gbps\n",
                "line 2: action 'rate' applies to links, not to a plane");
    ExpectError("0 plane:0 ber 1e-6\n", "applies to links, not to a plane");
    ExpectError("20us switch:p.spine0 down\n", "is not a node name");
    ExpectError("20us switch:px1.spine0 down\n", "is not a node name");
    ExpectError("20us switch:p1.Spine0 down\n", "is not a node name");
    ExpectError("20us switch:p1. down\n", "is not a node name");
}

TEST(FailureSchedule, UplinksElements)
{
    std::vector<FailureSchedule::Event> e;
    ASSERT_EQ(FailureSchedule::Parse("20us uplinks:3#7 down\n"
                                     "0 uplinks:2@leaf1 rate 100Gbps\n"
                                     "5us uplinks:2@leaf0+1500ns down\n"
                                     "1ms uplinks:4#3001+100us up\n"
                                     "0 uplinks:1#0 flap 1us 2us 3\n"
                                     "0 uplinks:2#9 loss 0.5   # '#' in the element\n",
                                     e),
              "");
    ASSERT_EQ(e.size(), 6U);
    EXPECT_TRUE(e[0].isUplinks);
    EXPECT_FALSE(e[0].isSwitch);
    EXPECT_FALSE(e[0].isPlane);
    EXPECT_EQ(e[0].uplinks, 3U);
    EXPECT_EQ(e[0].leaf, -1);
    EXPECT_EQ(e[0].stream, 7);
    EXPECT_EQ(e[0].gapNs, 0);
    EXPECT_EQ(e[0].GetElement(), "uplinks:3#7");
    EXPECT_EQ(e[1].leaf, 1);
    EXPECT_EQ(e[1].stream, -1);
    EXPECT_EQ(e[1].action, FailureSchedule::RATE);
    EXPECT_EQ(e[1].GetElement(), "uplinks:2@leaf1");
    EXPECT_EQ(e[2].gapNs, 1500);
    EXPECT_EQ(e[2].GetElement(), "uplinks:2@leaf0+1500ns");
    EXPECT_EQ(e[3].gapNs, 100000);
    EXPECT_EQ(e[3].GetElement(), "uplinks:4#3001+100us");
    EXPECT_EQ(e[4].action, FailureSchedule::FLAP);
    EXPECT_EQ(e[5].GetElement(), "uplinks:2#9");
    EXPECT_DOUBLE_EQ(e[5].value, 0.5);
}

TEST(FailureSchedule, UplinksErrorsNameTheLine)
{
    ExpectError("0 uplinks:3 down\n",
                "line 1: element 'uplinks:3': uplinks drawn at random "
                "need the stream of the draw, '#<stream>'");
    ExpectError("0 uplinks:0#1 down\n",
                "the count after 'uplinks:' must be a whole number "
                "from 1 to 100000");
    ExpectError("0 uplinks:100001#1 down\n", "from 1 to 100000");
    ExpectError("0 uplinks:#1 down\n", "from 1 to 100000");
    ExpectError("0 uplinks:2@leaf0#1 down\n", "the first uplinks of a leaf are not drawn");
    ExpectError("0 uplinks:2@leafx down\n", "the leaf after '@leaf' must be a number");
    ExpectError("0 uplinks:2@leaf65536 down\n", "from 0 to 65535");
    ExpectError("0 uplinks:2#2147483648 down\n", "the stream after '#' must be a number");
    ExpectError("0 uplinks:2#1+0 down\n", "gap '0': must be above 0");
    ExpectError("0 uplinks:2#1+5 down\n", "gap '5': no unit");
    ExpectError("0 uplinks:2#1x down\n", "unexpected 'x'");
    ExpectError("0 uplinks:2@spine0 down\n", "unexpected '@spine0'");
    ExpectError("\n999s uplinks:3#1+1s down\n",
                "line 2: the last of the 3 uplinks acts after 1000 s");
    ExpectError("0 uplinks:2#1+400s flap 1s 301s 2\n", "acts after 1000 s");
}

TEST(FailureSchedule, LoadNamesTheFile)
{
    std::vector<FailureSchedule::Event> e;
    std::string error = FailureSchedule::Load("/nonexistent-dir/failures.txt", e);
    EXPECT_NE(error.find("'/nonexistent-dir/failures.txt' cannot be read"), std::string::npos)
        << error;
}

TEST(FailureSchedule, ReadsHtsimFailureInputs)
{
    using ns3::FailureSchedule;
    const std::string reference = "Cable-Fail: ON\n"
                                  "Cable-Fail-Start-After: 20000000\n"
                                  "Cable-Fail-Period: 1499\n"
                                  "Cable-Fail-Max-Percent: 0.05\n"
                                  "Switch-Fail: OFF\n"
                                  "Switch-Fail-Period: 0\n";
    EXPECT_TRUE(FailureSchedule::IsHtsimFailures(reference));
    EXPECT_FALSE(FailureSchedule::IsHtsimFailures("20us link:leaf0-spine1 down\n"));
    FailureSchedule::HtsimCableFailures f;
    ASSERT_EQ(FailureSchedule::ParseHtsimFailures(reference, f), "");
    EXPECT_TRUE(f.on);
    EXPECT_DOUBLE_EQ(f.share, 0.05);
    EXPECT_EQ(f.startNs, 20000);
    EXPECT_EQ(f.periodNs, 1) << "picoseconds rounded to the nearest nanosecond";

    const std::vector<std::pair<std::string, std::string>> cases = {
        {"Cable-Fail: maybe\n", "line 1, Cable-Fail: 'maybe'; allowed: ON or OFF"},
        {"Cable-Fail-Max-Percent: 5\n", "line 1, Cable-Fail-Max-Percent: '5'; allowed: a share"},
        {"Cable-Fail-Period: 1us\n", "line 1, Cable-Fail-Period: '1us'; allowed: picoseconds"},
        {"Cable-Fail: ON\nSwitch-Fail: ON\n", "line 2, Switch-Fail: ON is not modelled"},
        {"Cable-Fail-Percent-Per-Switch: ON\n", "line 1, Cable-Fail-Percent-Per-Switch: ON is not"},
        {"Cable-Fail: ON\nColour-Fail: OFF\n", "line 2, Colour-Fail: is not a key"},
        {"Cable-Fail:\n", "line 1, Cable-Fail: expected 'Key: value'"},
    };
    for (const auto& [text, expected] : cases)
    {
        FailureSchedule::HtsimCableFailures g;
        const std::string error = FailureSchedule::ParseHtsimFailures(text, g);
        EXPECT_NE(error.find(expected), std::string::npos)
            << "input:\n" << text << "error: " << error << "\nexpected: " << expected;
        EXPECT_FALSE(g.on) << "a refused file sets nothing";
    }
}
