/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup reps
 * Host-side against switch-side load balancing: REPS and OPS (hosts choose an entropy value
 * per packet, switches hash) against DLB and GLB in the switches (hosts keep one entropy value
 * per queue pair, as ECMP), on a permutation in four fabrics: symmetric; asymmetric (some leaf
 * uplinks degraded to --degradedRate); a degraded spine down-link (spine 0 to the last leaf at
 * --downlinkRate, in that direction only: a leaf-local scheme cannot see it); and failed leaf
 * uplinks (--failedLinks at --failAt).
 *
 *   ./build/examples/reps-switch-lb
 *   ./build/examples/reps-switch-lb --schemes=ops,dlb,glb,adaptive --scenarios=downlink
 */

#include "ns3/core-module.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/reps-experiment-module.h"
#include "ns3/reps-module.h"

#include <algorithm>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// A scheme: a path selector with a forwarding mode.
struct Scheme
{
    std::string name;       //!< As given in --schemes.
    std::string lb;         //!< --lb.
    std::string forwarding; //!< --forwarding.
};

const std::vector<Scheme> g_schemes = {
    {"reps", "reps", "hash"},
    {"ops", "ops", "hash"},
    {"ecmp", "ecmp", "hash"},
    {"adaptive", "ecmp", "adaptive"},
    {"dlb", "ecmp", "dlb"},
    {"glb", "ecmp", "glb"},
};

const std::vector<std::string> g_scenarios = {"symmetric", "asymmetric", "downlink", "failure"};

/**
 * Split a comma list and check every item.
 * \param option the option, for messages
 * \param text its value
 * \param allowed the allowed items
 * \return the items
 */
std::vector<std::string>
ListOrExit(const std::string& option,
           const std::string& text,
           const std::vector<std::string>& allowed)
{
    std::vector<std::string> items;
    std::stringstream ss(text);
    std::string item;
    while (std::getline(ss, item, ','))
    {
        items.push_back(OptionParser::ChoiceOrExit(option, item, allowed));
    }
    if (items.empty())
    {
        OptionParser::Exit(option + ": empty; allowed: a comma list of " +
                           OptionParser::Join(allowed));
    }
    return items;
}

/**
 * Degrade spine 0's down-link to the last leaf (that direction only).
 * \param rate the rate
 * \param f the fabric
 * \param qps the queue pairs (unused)
 */
void
DegradeDownlink(DataRate rate, Ptr<ClosFabric> f, const std::vector<Ptr<RdmaQueuePair>>& qps)
{
    f->GetLinkDevice(f->GetLeafSpineLink(f->GetNLeaves() - 1, 0), 1)->SetDataRate(rate);
}

/// What a scenario changes.
struct Scenario
{
    std::string name;  //!< symmetric, asymmetric, downlink or failure.
    uint32_t degraded; //!< asymmetric: degraded leaf uplinks.
    uint32_t failed;   //!< failure: failed leaf uplinks.
    DataRate downlink; //!< downlink: rate of the degraded down-link.
};

/// Print the head of the table.
void
PrintHeader()
{
    std::cout << std::left << std::setw(12) << "scenario" << std::setw(10) << "scheme"
              << std::setw(10) << "forward" << std::right << std::setw(9) << "done" << std::setw(11)
              << "fct mean" << std::setw(11) << "fct p99" << std::setw(11) << "fct max"
              << std::setw(9) << "drops" << std::setw(9) << "retx"
              << "\n"
              << std::setw(42) << "" << std::setw(11) << "us" << std::setw(11) << "us"
              << std::setw(11) << "us"
              << "\n";
}

/**
 * Run one scheme in one scenario and print its row.
 * \param e the experiment (its fields are changed)
 * \param sc the scenario
 * \param name the scheme
 * \return the result, named scenario:scheme
 */
RunResult
RunOne(FabricExperiment& e, const Scenario& sc, const std::string& name)
{
    const Scheme& s = *std::find_if(g_schemes.begin(), g_schemes.end(), [&name](const Scheme& x) {
        return x.name == name;
    });
    e.lb = s.lb;
    e.forwarding = s.forwarding;
    e.degradedLinks = sc.name == "asymmetric" ? sc.degraded : 0;
    e.failedLinks = sc.name == "failure" ? sc.failed : 0;
    e.SetBuiltCallback(sc.name == "downlink" ? MakeBoundCallback(&DegradeDownlink, sc.downlink)
                                             : FabricExperiment::BuiltCallback());
    e.Check();
    RunResult r = e.Run(e.GetSelectors()[0]);
    r.lb = sc.name + ":" + s.name;
    SampleSummary fct = r.flows.GetFctSummaryUs();
    std::ostringstream done;
    done << r.flows.GetCompletedCount() << "/" << r.flows.GetFlowCount();
    std::cout << std::left << std::setw(12) << sc.name << std::setw(10) << s.name << std::setw(10)
              << s.forwarding << std::right << std::setw(9) << done.str() << std::fixed
              << std::setprecision(1) << std::setw(11) << fct.mean << std::setw(11) << fct.p99
              << std::setw(11) << fct.max << std::setw(9) << r.drops << std::setw(9)
              << r.retransmissions << "\n";
    return r;
}

} // namespace

int
main(int argc, char* argv[])
{
    FabricExperiment e;
    e.leaves = 4;
    e.hostsPerLeaf = 4;
    e.spines = 4;
    e.flowSize = "1MiB";
    e.degradedLinks = 2;
    e.failedLinks = 1;
    e.failAt = "5us";
    std::string schemes = "reps,ops,dlb,glb";
    std::string scenarios = "symmetric,asymmetric,downlink,failure";
    std::string downlinkRate = "100Gbps";

    CommandLine cmd(__FILE__);
    cmd.Usage("Runs host-side (REPS, OPS) and switch-side (DLB, GLB with ECMP entropy values) "
              "load balancing on a permutation in a symmetric fabric, with degraded leaf "
              "uplinks, with a degraded spine down-link and with failed uplinks, and prints "
              "one table. --lb and --forwarding are set per scheme, --degradedLinks and "
              "--failedLinks per scenario.");
    std::vector<std::string> schemeNames;
    for (const Scheme& s : g_schemes)
    {
        schemeNames.push_back(s.name);
    }
    OptionParser::AddValue(cmd,
                           "schemes",
                           "Comma list of schemes (" + OptionParser::Join(schemeNames) +
                               "; adaptive, dlb and glb keep one entropy value per queue pair)",
                           schemes);
    OptionParser::AddValue(cmd,
                           "scenarios",
                           "Comma list of scenarios (" + OptionParser::Join(g_scenarios) + ")",
                           scenarios);
    OptionParser::AddValue(
        cmd,
        "downlinkRate",
        "downlink scenario: rate of spine 0's down-link to the last leaf (DataRate)",
        downlinkRate);
    e.AddOptions(cmd);
    OptionParser::Parse(cmd, argc, argv);
    std::vector<std::string> runSchemes = ListOrExit("--schemes", schemes, schemeNames);
    std::vector<std::string> runScenarios = ListOrExit("--scenarios", scenarios, g_scenarios);
    DataRate downlink = OptionParser::RateOrExit("--downlinkRate", downlinkRate);
    e.Check();
    const uint32_t degraded = e.degradedLinks;
    const uint32_t failed = e.failedLinks;

    ExperimentReport report;
    e.FillConfig(report);
    std::cout << "fabric: " << e.GetHosts() << " hosts, permutation of " << e.flowSize
              << " per host; asymmetric: " << degraded << " leaf uplinks at " << e.degradedRate
              << "; downlink: spine 0 to the last leaf at " << downlinkRate
              << "; failure: " << failed << " leaf uplinks down at " << e.failAt << "\n\n";
    PrintHeader();
    for (const std::string& scenario : runScenarios)
    {
        for (const std::string& name : runSchemes)
        {
            Scenario sc{scenario, degraded, failed, downlink};
            report.AddResult(RunOne(e, sc, name));
        }
    }
    e.WriteOutputs(report);
    return 0;
}
