/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup reps
 * A new path selector written outside the module and compared with OPS and REPS: round-robin
 * over a fixed set of EVs, skipping once an EV whose last feedback was an ECN mark, a NACK or a
 * loss (SkipRoundRobinPathSelector, in skip-round-robin-path-selector.h next to this file). It
 * overrides DoNextEntropy() and DoFeedback(), gives itself a short name with GetName(), and is
 * registered by TypeId in this program; --lb finds it by that name with no change to the
 * module. The manual's chapter "Writing your own path selector" explains it.
 *
 *   ./ns3 run "reps-custom-selector"
 *   ./ns3 run "reps-custom-selector --lb=ops,reps,rrskip --failedLinks=1 --failAt=20us"
 *   ./ns3 run "reps-custom-selector --lb=ns3::SkipRoundRobinPathSelector --json=rr.json"
 */

#include "skip-round-robin-path-selector.h"

#include "ns3/core-module.h"
#include "ns3/reps-experiment-module.h"
#include "ns3/reps-module.h"

#include <iostream>
#include <map>

using namespace ns3;

/// Feedback seen per path selector (by short name), from every selector's Feedback trace.
static std::map<std::string, std::map<std::string, uint64_t>> g_feedback;

/**
 * Feedback trace sink.
 * \param name the selector's short name
 * \param ev the EV
 * \param kind what came back
 */
static void
CountFeedback(std::string name, uint16_t ev, PathSelector::Feedback::Kind kind)
{
    ++g_feedback[name][PathSelector::FeedbackName(kind)];
}

/**
 * Connect the Feedback trace of every queue pair's path selector (FabricExperiment's built
 * callback).
 * \param fabric the fabric
 * \param qps the queue pairs of the workload
 */
static void
Built(Ptr<ClosFabric> fabric, const std::vector<Ptr<RdmaQueuePair>>& qps)
{
    for (const Ptr<RdmaQueuePair>& qp : qps)
    {
        Ptr<PathSelector> ps = qp->GetPathSelector();
        ps->TraceConnectWithoutContext("Feedback",
                                       MakeBoundCallback(&CountFeedback, ps->GetName()));
    }
}

int
main(int argc, char* argv[])
{
    FabricExperiment experiment;
    experiment.lb = "ops,reps,rrskip";
    experiment.leaves = 4;
    experiment.hostsPerLeaf = 4;
    experiment.spines = 4;
    experiment.flowSize = "512KiB";
    CommandLine cmd(__FILE__);
    cmd.Usage("Compares a path selector defined in this file (rrskip) with OPS and REPS.");
    experiment.AddOptions(cmd);
    OptionParser::Parse(cmd, argc, argv);
    experiment.Check();
    experiment.SetBuiltCallback(MakeCallback(&Built));

    ExperimentReport report;
    experiment.RunAll(std::cout, report);

    std::cout << "\nfeedback per path selector (Feedback trace):\n";
    for (const auto& [name, kinds] : g_feedback)
    {
        std::cout << "  " << name << ":";
        for (const auto& [kind, count] : kinds)
        {
            std::cout << " " << kind << " " << count;
        }
        std::cout << "\n";
    }
    return 0;
}
