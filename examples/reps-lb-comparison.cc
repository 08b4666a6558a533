/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup reps
 * The headline experiment: one Clos fabric and one workload, run once per path selector
 * (ECMP, OPS, flowlet, REPS, ...) with everything else equal, and a side-by-side table of flow
 * completion times, slowdowns, drops, retransmissions, ECN marks and queue depths.
 *
 * The default is the REPS paper's 128-host 2-tier fabric (16 leaves x 8 hosts, 8 spines, every
 * link 400 Gb/s and 1 us, 4 KiB MTU, 100-packet queues with ECN between 20 and 80 packets)
 * under a permutation of 2 MiB per host; ECMP's hash collisions make it clearly slower than
 * packet spraying.
 *
 *   ./ns3 run "reps-lb-comparison --lb=ecmp,ops,reps --flowSize=8MiB --json=lb.json"
 *   ./ns3 run "reps-lb-comparison --pattern=websearch --load=0.6 --csv=flows.csv"
 *   utils/plot.py lb.json flows.csv --out plots
 */

#include "ns3/core-module.h"
#include "ns3/reps-experiment-module.h"
#include "ns3/reps-module.h"

#include <iostream>

using namespace ns3;

int
main(int argc, char* argv[])
{
    FabricExperiment experiment;
    CommandLine cmd(__FILE__);
    cmd.Usage("Runs one fabric and workload once per path selector and prints the results side "
              "by side (FCT in microseconds, slowdown = FCT / ideal FCT).");
    experiment.AddOptions(cmd);
    OptionParser::Parse(cmd, argc, argv);
    experiment.Check();

    ExperimentReport report;
    experiment.RunAll(std::cout, report);
    return 0;
}
