/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Unit tests of FlowTrace: parsing of flow traces, dependencies, and the error of every bad
 * input, which names the line and the field.
 */

#include "ns3/flow-trace.h"

#include <cstdio>
#include <fstream>
#include <gtest/gtest.h>

using ns3::FlowTrace;

TEST(FlowTrace, ParsesFlowsUnitsAndDependencies)
{
    FlowTrace trace;
    std::string error;
    ASSERT_TRUE(trace.Parse("# start src dst bytes\n"
                            "\n"
                            "0 0 5 1MiB\n"
                            "2.5us 3 1 65536   # a comment\n"
                            "1us 5 2 4KB after=0\n"
                            "0 2 4 10 after=line:4\n",
                            8,
                            error))
        << error;
    const auto& f = trace.GetFlows();
    ASSERT_EQ(f.size(), 4U);
    EXPECT_EQ(f[0].startNs, 0U);
    EXPECT_EQ(f[0].src, 0U);
    EXPECT_EQ(f[0].dst, 5U);
    EXPECT_EQ(f[0].bytes, 1048576U);
    EXPECT_EQ(f[0].after, FlowTrace::NONE);
    EXPECT_EQ(f[0].line, 3U);
    EXPECT_EQ(f[1].startNs, 2500U);
    EXPECT_EQ(f[1].bytes, 65536U);
    EXPECT_EQ(f[2].startNs, 1000U);
    EXPECT_EQ(f[2].bytes, 4000U);
    EXPECT_EQ(f[2].after, 0U);
    EXPECT_EQ(f[3].after, 1U) << "line 4 holds flow 1";
    EXPECT_EQ(f[3].line, 6U);
}

/// \return the error of parsing \p text on 4 hosts (empty when accepted).
static std::string
ErrorOf(const std::string& text)
{
    FlowTrace trace;
    std::string error;
    return trace.Parse(text, 4, error) ? std::string() : error;
}

TEST(FlowTrace, RejectsBadInputNamingLineAndField)
{
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"", "no flows"},
        {"# only a comment\n\n", "no flows"},
        {"0 0 1\n", "line 1, fields: 3 fields"},
        {"0 0 1 5 after=0 x\n", "line 1, fields: 6 fields"},
        {"soon 0 1 5\n", "line 1, start: 'soon' is not a time"},
        {"-5us 0 1 5\n", "line 1, start: '-5us' is not a time"},
        {"5 0 1 5\n", "line 1, start: '5' has no unit"},
        {"5parsecs 0 1 5\n", "line 1, start: '5parsecs' has an unknown unit"},
        {"2000s 0 1 5\n", "line 1, start: '2000s' is too late"},
        {"0.5ns 0 1 5\n", "line 1, start: '0.5ns' is not a whole number of nanoseconds"},
        {"1.2.3us 0 1 5\n", "line 1, start"},
        {"0 0 1 5\n0 4 1 5\n",
         "line 2, src: '4' is not a known host; allowed: a host index "
         "in [0, 3]"},
        {"0 0 -1 5\n", "line 1, dst: '-1' is not a known host"},
        {"0 0 x 5\n", "line 1, dst"},
        {"0 2 2 5\n", "line 1, dst: equals src"},
        {"0 0 1 0\n", "line 1, bytes: '0' is out of range"},
        {"0 0 1 1.5\n", "line 1, bytes: '1.5' is not a size"},
        {"0 0 1 2TiB\n", "line 1, bytes: '2TiB' is not a size"},
        {"0 0 1 2048GiB\n", "line 1, bytes: '2048GiB' is out of range"},
        {"0 0 1 99999999999999999999999\n", "line 1, bytes"},
        {"0 0 1 5 after=0\n", "line 1, after: 'after=0' is not an earlier flow"},
        {"0 0 1 5\n0 1 2 5 after=1\n", "line 2, after: 'after=1' is not an earlier flow"},
        {"0 0 1 5\n0 1 2 5 after=7\n", "line 2, after"},
        {"0 0 1 5\n0 1 2 5 after=line:2\n",
         "line 2, after: 'after=line:2' is not an earlier "
         "line with a flow"},
        {"# c\n0 0 1 5\n0 1 2 5 after=line:1\n", "line 3, after"},
        {"0 0 1 5\n0 1 2 5 before=0\n", "line 2, after: 'before=0' is not a dependency"},
    };
    for (const auto& [text, expected] : cases)
    {
        std::string error = ErrorOf(text);
        EXPECT_EQ(error.compare(0, expected.size(), expected), 0)
            << "input: " << text << "\nerror: " << error;
    }
    FlowTrace trace;
    std::string error;
    EXPECT_FALSE(trace.Parse("0 0 1 5\n", 1, error));
    EXPECT_NE(error.find("at least 2 hosts"), std::string::npos) << error;
}

TEST(FlowTrace, RejectedTextKeepsThePreviousTrace)
{
    FlowTrace trace;
    std::string error;
    ASSERT_TRUE(trace.Parse("0 0 1 5\n1us 1 0 6\n", 2, error)) << error;
    EXPECT_FALSE(trace.Parse("0 0 1 5\n0 0 9 5\n", 2, error));
    ASSERT_EQ(trace.GetFlows().size(), 2U);
    EXPECT_EQ(trace.GetFlows()[1].bytes, 6U);
}

TEST(FlowTrace, LoadsFilesAndNamesThePath)
{
    FlowTrace trace;
    std::string error;
    EXPECT_FALSE(trace.Load("/no/such/file.trace", 4, error));
    EXPECT_NE(error.find("/no/such/file.trace: cannot read"), std::string::npos) << error;
    std::string path = testing::TempDir() + "flow-trace-gtest.trace";
    {
        std::ofstream out(path);
        out << "0 0 1 5\n0 1 7 5\n";
    }
    EXPECT_FALSE(trace.Load(path, 4, error));
    EXPECT_NE(error.find(path + ": line 2, dst"), std::string::npos) << error;
    std::remove(path.c_str());
}

TEST(FlowTrace, ReadsHtsimConnectionMatrices)
{
    FlowTrace trace;
    std::string error;
    // The REPS evaluation's form: start in picoseconds.
    ASSERT_TRUE(trace.Parse("Nodes 8\n"
                            "Connections 3\n"
                            "0->5 id 1 start 0 size 3611\n"
                            "1->4 id 2 start 99499 size 7689\n"
                            "5->0 id 3 start 4999596000 size 35132521\n",
                            8,
                            error))
        << error;
    ASSERT_EQ(trace.GetFlows().size(), 3U);
    EXPECT_EQ(trace.GetFlows()[1].src, 1U);
    EXPECT_EQ(trace.GetFlows()[1].dst, 4U);
    EXPECT_EQ(trace.GetFlows()[1].startNs, 99U);
    EXPECT_EQ(trace.GetFlows()[1].bytes, 7689U);
    EXPECT_EQ(trace.GetFlows()[2].startNs, 4999596U);
    EXPECT_EQ(trace.GetFlows()[2].line, 5U);
    EXPECT_TRUE(trace.GetTriggers().empty());

    // The UEC simulator's collectives: a chain of one-shot triggers and a barrier.
    ASSERT_TRUE(trace.Parse("# a serial all-to-all step, then a barrier\n"
                            "Nodes 4\n"
                            "Connections 4\n"
                            "Triggers 2\n"
                            "0->1 id 1 start 0 size 2000 send_done_trigger 1\n"
                            "0->2 id 2 trigger 1 size 2000 send_done_trigger 2\n"
                            "3->2 id 3 start 0 size 2000 send_done_trigger 2\n"
                            "2->1 id 4 trigger 2 size 100\n"
                            "trigger id 1 oneshot\n"
                            "trigger id 2 barrier count 2\n",
                            4,
                            error))
        << error;
    const auto& f = trace.GetFlows();
    const auto& g = trace.GetTriggers();
    ASSERT_EQ(g.size(), 2U);
    EXPECT_EQ(f[0].activates, 0U);
    EXPECT_EQ(f[1].trigger, 0U);
    EXPECT_EQ(f[1].activates, 1U);
    EXPECT_EQ(f[3].trigger, 1U);
    EXPECT_EQ(g[0].kind, FlowTrace::Trigger::ONE_SHOT);
    EXPECT_EQ(g[1].kind, FlowTrace::Trigger::BARRIER);
    EXPECT_EQ(g[1].count, 2U);
    EXPECT_EQ(g[1].targets, std::vector<uint32_t>{3});

    // A multi-shot trigger starts its targets one per activation.
    ASSERT_TRUE(trace.Parse("Nodes 3\n"
                            "0->1 id 1 start 0 size 10 send_done_trigger 7\n"
                            "1->2 id 2 trigger 7 size 10 send_done_trigger 7\n"
                            "2->0 id 3 trigger 7 size 10\n"
                            "trigger id 7 multishot\n",
                            3,
                            error))
        << error;
    EXPECT_EQ(trace.GetTriggers()[0].targets, (std::vector<uint32_t>{1, 2}));
}

TEST(FlowTrace, RejectsBadConnectionMatricesNamingLineAndField)
{
    const std::string head = "Nodes 4\n";
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"Nodes 9\n0->1 id 1 start 0 size 1\n", "line 1, Nodes: 9 hosts; allowed: a number of hosts in [2, 4]"},
        {"Nodes x\n", "line 1, Nodes: 'x' is not a number of hosts"},
        {head + "0->4 id 1 start 0 size 1\n", "line 2, src->dst: '0->4' is not a pair of hosts; allowed: two different hosts in [0, 3]"},
        {head + "2->2 id 1 start 0 size 1\n", "line 2, src->dst: '2->2' is not a pair"},
        {head + "0->1 id 1 start 1.5 size 1\n", "line 2, start: '1.5' is not a time in picoseconds"},
        {head + "0->1 id 1 size 1\n", "line 2, start: no start and no trigger"},
        {head + "0->1 id 1 start 0 size 0\n", "line 2, size: 0; allowed"},
        {head + "0->1 id 1 start 0\n", "line 2, size: missing"},
        {head + "0->1 id 1 start 0 size 1\n0->2 id 1 start 0 size 1\n", "line 3, id: id 1 is used twice"},
        {head + "0->1 id 1 start 0 size 1 prio 3\n", "line 2, prio: 'prio' is not modelled"},
        {head + "0->1 id 1 start 0 size 1 recv_done_trigger 1\n", "line 2, recv_done_trigger: 'recv_done_trigger' is not modelled"},
        {head + "0->1 id 1 start 0 size 1 colour red\n", "line 2, colour: unknown keyword 'colour'"},
        {head + "0->1 id 1 start 0 trigger 1 size 1\ntrigger id 1 oneshot\n", "line 2, start: both a start and a trigger"},
        {head + "0->1 id 1 trigger 1 size 1\n", "line 2, trigger: trigger 1 has no 'trigger id G ...' line"},
        {head + "0->1 id 1 trigger 1 size 1 send_done_trigger 1\ntrigger id 1 oneshot\n", "line 2, trigger: the flow waits for trigger 1, which never fires"},
        {head + "0->1 id 1 start 0 size 1 send_done_trigger 1\n1->2 id 2 trigger 1 size 1\ntrigger id 1 barrier count 2\n", "line 3, trigger: the flow waits for trigger 1, which never fires"},
        {head + "trigger id 1 sometimes\n", "line 2, trigger: unknown keyword 'sometimes'"},
        {head + "trigger id 1 barrier\n", "line 2, trigger: expected 'trigger id G oneshot'"},
        {"Nodes 4\nConnections 2\n0->1 id 1 start 0 size 1\n", "line 2, Connections: the header says 2, the matrix has 1"},
        {"Connections 2\n", "line 1, Connections: before the Nodes line"},
        {head + "failure switch_type TOR\n", "line 2, failure: unknown line"},
        {head, "no flows (the matrix has no connections)"},
    };
    for (const auto& [text, expected] : cases)
    {
        const std::string error = ErrorOf(text);
        EXPECT_NE(error.find(expected), std::string::npos)
            << "input:\n" << text << "error: " << error << "\nexpected: " << expected;
    }
}
