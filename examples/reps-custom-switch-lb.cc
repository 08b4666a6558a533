/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup reps
 * A new switch load balancer written outside the module and compared with hash and adaptive
 * forwarding: DRILL-like, per packet the least loaded of two random equal-cost ports and the
 * port it chose last (DrillPortSelector, in drill-port-selector.h next to this file). It
 * overrides DoPick() and DoAddPort(), reads the port loads from the module's PortLoadMonitor,
 * and is registered by TypeId outside the module; the switches get it with
 * ClosFabricHelper::SetPortSelector("ns3::DrillPortSelector"), which --forwarding=drill calls,
 * with no change to the module. The manual's chapter "Writing your own switch load balancer"
 * explains it.
 *
 *   ./ns3 run "reps-custom-switch-lb"
 *   ./ns3 run "reps-custom-switch-lb --forwardingList=hash,drill --degradedLinks=2"
 *   ./ns3 run "reps-custom-switch-lb --ns3::DrillPortSelector::Samples=4 --json=drill.json"
 */

#include "drill-port-selector.h"

#include "ns3/core-module.h"
#include "ns3/reps-experiment-module.h"
#include "ns3/reps-module.h"

#include <iomanip>
#include <iostream>

using namespace ns3;

int
main(int argc, char* argv[])
{
    FabricExperiment experiment;
    experiment.lb = "ecmp";
    experiment.leaves = 4;
    experiment.hostsPerLeaf = 4;
    experiment.spines = 4;
    experiment.flowSize = "512KiB";
    std::string forwardingList = "hash,adaptive,drill";
    CommandLine cmd(__FILE__);
    cmd.Usage("Compares a switch load balancer defined in this file (drill) with hash and "
              "adaptive forwarding, every queue pair keeping one entropy value (--lb=ecmp).");
    OptionParser::AddValue(cmd,
                           "forwardingList",
                           "Comma list of switch forwardings to compare, each as --forwarding (" +
                               OptionParser::Join(PortSelectorNames::GetAvailableNames()) +
                               ", or a PortSelector TypeId)",
                           forwardingList);
    experiment.AddOptions(cmd);
    OptionParser::Parse(cmd, argc, argv);
    std::vector<std::string> forwardings = OptionParser::SplitList(forwardingList);
    for (const std::string& f : forwardings)
    {
        TypeId tid;
        std::string error;
        if (!PortSelectorNames::Lookup(f, tid, error))
        {
            OptionParser::Exit("--forwardingList: " + error);
        }
    }
    if (forwardings.empty())
    {
        OptionParser::Exit("--forwardingList: empty; allowed: a comma list of " +
                           OptionParser::Join(PortSelectorNames::GetAvailableNames()));
    }
    experiment.Check();

    ExperimentReport report;
    experiment.FillConfig(report);
    std::cout << std::left << std::setw(12) << "forwarding" << std::right << std::setw(9) << "done"
              << std::setw(11) << "fct mean" << std::setw(11) << "fct p99" << std::setw(11)
              << "fct max" << std::setw(9) << "drops" << std::setw(9) << "retx\n";
    for (const std::string& f : forwardings)
    {
        experiment.forwarding = f;
        experiment.Check();
        RunResult r = experiment.Run(experiment.GetSelectors()[0]);
        r.lb = f;
        SampleSummary fct = r.flows.GetFctSummaryUs();
        std::cout << std::left << std::setw(12) << f << std::right << std::setw(6)
                  << r.flows.GetCompletedCount() << "/" << std::left << std::setw(2)
                  << r.flows.GetFlowCount() << std::right << std::fixed << std::setprecision(1)
                  << std::setw(11) << fct.mean << std::setw(11) << fct.p99 << std::setw(11)
                  << fct.max << std::setw(9) << r.drops << std::setw(8) << r.retransmissions
                  << "\n";
        report.AddResult(r);
    }
    experiment.WriteOutputs(report);
    return 0;
}
