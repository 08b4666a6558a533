/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup reps
 * Multi-plane fabrics: a permutation on a fabric of --planes identical planes (2 by default,
 * 32 hosts, each with one NIC port per plane; a packet leaves on plane EV mod planes), run for
 * every path selector of --lb (ECMP, OPS, REPS and MRC by default; any name of the selector
 * registry) in six scenarios, with routing that never reacts (a failed element is a
 * blackhole):
 *
 * - healthy: nothing fails;
 * - spine: spine 0 of the last plane fails at --failAt;
 * - plane: the whole last plane fails at --failAt (every link of it, host ports included;
 *   only with more than one plane);
 * - cables1, cables5: 1% and 5% of the leaf uplinks of all planes (at least one) fail at
 *   --failAt, drawn at random (the same links for every selector);
 * - flap: the link between leaf 0 and spine 0 of the last plane flaps (down 5 us every 20 us,
 *   20 times) from --failAt on.
 *
 * It prints, per scenario and selector, the flow completion times, the share of the bytes each
 * plane carried, drops and retransmissions, and writes every run to --json (the scheme of each
 * result is "<scenario>:<selector>").
 *
 *   ./ns3 run "reps-planes --json=planes.json"
 *   ./ns3 run "reps-planes --planes=4 --lb=ecmp,ops,reps --flowSize=4MiB"
 */

#include "ns3/core-module.h"
#include "ns3/reps-experiment-module.h"
#include "ns3/reps-module.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <string>
#include <unistd.h>
#include <vector>

using namespace ns3;

namespace
{

/// The scenarios, in the order they run.
const std::vector<std::string> kScenarios =
    {"healthy", "spine", "plane", "cables1", "cables5", "flap"};

/**
 * The defaults of the example, before the command line.
 * \param e the experiment
 */
void
SetDefaults(FabricExperiment& e)
{
    e.lb = "ecmp,ops,reps,mrc";
    e.planes = 2;
    e.leaves = 4;
    e.hostsPerLeaf = 8;
    e.spines = 4;
    e.flowSize = "1MiB";
    e.failAt = "5us";
    e.sampleInterval = "0";
    e.quiet = true;
}

/**
 * Write a failure schedule to a temporary file.
 * \param text the schedule
 * \return the file's path (the caller removes it)
 */
std::string
WriteSchedule(const std::string& text)
{
    char path[] = "/tmp/reps-planes-XXXXXX";
    int fd = mkstemp(path);
    NS_ABORT_MSG_IF(fd < 0, "reps-planes: cannot create a temporary failure schedule");
    close(fd);
    std::ofstream(path) << text;
    return path;
}

/**
 * Set up one scenario on an experiment whose options are parsed, and check them.
 * \param e the experiment
 * \param scenario the scenario
 */
void
ApplyScenario(FabricExperiment& e, const std::string& scenario)
{
    const std::string last = e.planes > 1 ? "p" + std::to_string(e.planes - 1) + "." : "";
    const uint32_t uplinks = (e.tiers == 3 ? e.pods * e.leaves : e.leaves) * e.spines * e.planes;
    std::string schedule;
    if (scenario == "spine")
    {
        // A whole switch of one plane: spine 0 (2 tiers) or core 0 (3 tiers).
        schedule = e.failAt + " switch:" + last + (e.tiers == 3 ? "core0" : "spine0") + " down\n";
    }
    else if (scenario == "plane")
    {
        schedule = e.failAt + " plane:" + std::to_string(e.planes - 1) + " down\n";
    }
    else if (scenario == "flap")
    {
        schedule = e.failAt + " link:" + last + "leaf0-" + last +
                   (e.tiers == 3 ? "agg0.0" : "spine0") + " flap 5us 20us 20\n";
    }
    else if (scenario == "cables1" || scenario == "cables5")
    {
        double share = scenario == "cables1" ? 0.01 : 0.05;
        e.failedLinks = std::max<uint32_t>(1, std::lround(share * uplinks));
    }
    std::string path;
    if (!schedule.empty())
    {
        path = WriteSchedule(schedule);
        e.failureFile = path;
    }
    e.Check();
    if (!path.empty())
    {
        std::remove(path.c_str());
    }
}

/// Print the header of the table of results.
void
PrintHeader()
{
    std::cout << std::left << std::setw(10) << "scenario" << std::setw(10) << "lb" << std::right
              << std::setw(8) << "done" << std::setw(11) << "fct mean" << std::setw(11) << "fct p99"
              << std::setw(9) << "drops" << std::setw(9) << "retx"
              << "  plane share (%)\n";
}

} // namespace

int
main(int argc, char* argv[])
{
    // The options as the user gave them (their --help and checks), then one experiment per
    // scenario with the same options and the scenario's failures.
    FabricExperiment options;
    SetDefaults(options);
    CommandLine cmd(__FILE__);
    cmd.Usage("Compares path selectors on a multi-plane fabric: healthy, one plane's spine "
              "failed, one whole plane failed, 1% and 5% of the uplinks failed, a flapping "
              "link.");
    options.AddOptions(cmd);
    OptionParser::Parse(cmd, argc, argv);
    if (!options.failureFile.empty() || options.failedLinks != 0)
    {
        OptionParser::Exit("--failureFile, --failedLinks: set by the scenarios of reps-planes; "
                           "allowed: leave them out (use reps-lb-comparison for a schedule of "
                           "your own)");
    }
    options.Check();
    const std::string json = options.json;

    ExperimentReport report;
    report.SetConfig("planes", options.planes);
    report.SetConfig("hosts", options.GetHosts());
    report.SetConfig("flowSize", options.flowSize);
    report.SetConfig("lb", options.lb);
    report.SetConfig("failAt", options.failAt);
    std::cout << "reps-planes: " << options.planes << " planes of " << options.GetHosts()
              << " hosts, permutation of " << options.flowSize << " per host, failures at "
              << options.failAt << ", routing never reconverges\n\n";
    PrintHeader();
    for (const std::string& scenario : kScenarios)
    {
        if (scenario == "plane" && options.planes < 2)
        {
            continue; // one plane: nothing would be left to carry the traffic
        }
        FabricExperiment e;
        SetDefaults(e);
        CommandLine c(__FILE__);
        e.AddOptions(c);
        OptionParser::Parse(c, argc, argv);
        e.json = "";
        e.csv = "";
        ApplyScenario(e, scenario);
        for (const PathSelectorNames::Choice& choice : e.GetSelectors())
        {
            RunResult r = e.Run(choice);
            r.lb = scenario + ":" + r.lb;
            SampleSummary fct = r.flows.GetFctSummaryUs();
            uint64_t total = 0;
            for (const PlaneLoad& p : r.planes)
            {
                total += p.bytes;
            }
            std::cout << std::left << std::setw(10) << scenario << std::setw(10) << choice.name
                      << std::right << std::setw(8)
                      << (std::to_string(r.flows.GetCompletedCount()) + "/" +
                          std::to_string(r.flows.GetFlowCount()))
                      << std::fixed << std::setprecision(1) << std::setw(11)
                      << (fct.count ? fct.mean : 0.0) << std::setw(11)
                      << (fct.count ? fct.p99 : 0.0) << std::setw(9) << r.drops << std::setw(9)
                      << r.retransmissions << " ";
            for (const PlaneLoad& p : r.planes)
            {
                std::cout << " " << std::setw(5)
                          << (total ? 100.0 * static_cast<double>(p.bytes) / total : 0.0);
            }
            std::cout << std::defaultfloat << std::setprecision(6) << "\n";
            report.AddResult(r);
        }
    }
    std::string error;
    if (!json.empty() && !report.WriteJson(json, error))
    {
        OptionParser::Exit("--json: " + error);
    }
    return 0;
}
