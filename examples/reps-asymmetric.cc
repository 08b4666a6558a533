/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup reps
 * An asymmetric fabric: some leaf uplinks run at half rate (400 -> 200 Gb/s by default), as
 * after a partial failure or with mixed optics. For each path selector the example prints the
 * flow completion times and how the bytes spread over healthy and degraded uplinks: oblivious
 * spraying (OPS) puts the same load on every uplink, so the slow ones become the bottleneck;
 * REPS recycles the entropy values whose packets came back unmarked and moves load away from
 * the degraded links.
 *
 *   ./ns3 run "reps-asymmetric --degradedLinks=8 --json=asym.json"
 *   utils/plot.py asym.json --only link_load
 */

#include "ns3/core-module.h"
#include "ns3/reps-experiment-module.h"
#include "ns3/reps-module.h"

#include <array>
#include <iomanip>
#include <iostream>
#include <map>

using namespace ns3;

int
main(int argc, char* argv[])
{
    FabricExperiment experiment;
    experiment.leaves = 8;
    experiment.hostsPerLeaf = 8;
    experiment.spines = 8;
    experiment.flowSize = "4MiB";
    experiment.degradedLinks = 8;
    experiment.degradedRate = "200Gbps";

    CommandLine cmd(__FILE__);
    cmd.Usage("Slows some leaf uplinks down and prints, per path selector, flow completion "
              "times and the bytes carried per healthy and per degraded uplink.");
    experiment.AddOptions(cmd);
    OptionParser::Parse(cmd, argc, argv);
    experiment.Check();

    ExperimentReport report;
    experiment.RunAll(std::cout, report);

    uint64_t fullRate = OptionParser::RateOrExit("--linkRate", experiment.linkRate).GetBitRate();
    std::cout << "\nbytes per switch-to-switch link, by direction (MB, mean over the links):\n"
              << std::left << std::setw(10) << "lb" << std::setw(16) << "direction" << std::right
              << std::setw(10) << "healthy" << std::setw(10) << "degraded" << std::setw(12)
              << "deg/healthy" << std::setw(12) << "max/mean"
              << "\n";
    for (const RunResult& r : report.GetResults())
    {
        // tier -> (sum, count) for healthy and degraded links, and the largest link.
        std::map<std::string, std::array<double, 5>> byTier;
        for (const LinkLoad& l : r.linkBytes)
        {
            std::array<double, 5>& t = byTier[l.tier];
            bool degraded = l.rateBps < fullRate;
            t[degraded ? 2 : 0] += l.bytes;
            t[degraded ? 3 : 1] += 1;
            t[4] = std::max(t[4], static_cast<double>(l.bytes));
        }
        for (const auto& [tier, t] : byTier)
        {
            double healthy = t[1] ? t[0] / t[1] : 0;
            double degraded = t[3] ? t[2] / t[3] : 0;
            double mean = (t[0] + t[2]) / (t[1] + t[3]);
            std::cout << std::left << std::setw(10) << r.lb << std::setw(16) << tier << std::right
                      << std::fixed << std::setprecision(2) << std::setw(10) << healthy / 1e6
                      << std::setw(10) << (t[3] ? degraded / 1e6 : 0.0) << std::setw(12)
                      << (t[3] && healthy > 0 ? degraded / healthy : 0.0) << std::setw(12)
                      << (mean > 0 ? t[4] / mean : 0.0) << "\n";
        }
    }
    std::cout << "(deg/healthy near the rate ratio, "
              << OptionParser::RateOrExit("--degradedRate", experiment.degradedRate).GetBitRate() *
                     1.0 / fullRate
              << ", means load follows capacity; near 1, load ignores it)\n";
    return 0;
}
