/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup reps
 * Ring all-reduce, the collective of data-parallel training, on a 2-tier and a 3-tier fabric,
 * once per path selector. Every host contributes --flowSize bytes; the ring runs 2(N-1) steps
 * of --flowSize / N bytes, each host starting a step only when its left neighbour's previous
 * chunk has arrived, so one slow step delays the whole ring. By default consecutive ring
 * positions sit on different leaves (--ring=interleaved), so every step crosses the fabric.
 * The example prints the collective completion time per scheme and fabric, next to the
 * bandwidth bound 2(N-1)/N x data / link rate.
 *
 *   ./ns3 run "reps-allreduce --tierList=3 --flowSize=16MiB --json=allreduce.json"
 */

#include "ns3/core-module.h"
#include "ns3/reps-experiment-module.h"
#include "ns3/reps-module.h"

#include <algorithm>
#include <iomanip>
#include <iostream>

using namespace ns3;

namespace
{

/// One line of the all-reduce table.
struct Row
{
    std::string lb;      //!< Scheme.
    uint32_t tiers;      //!< Fabric tiers.
    uint32_t hosts;      //!< Ring size.
    double collectiveUs; //!< Completion time.
    double boundUs;      //!< Bandwidth bound.
};

/**
 * \param tierList the value of --tierList.
 * \return its tier counts; exits with a message on a bad list.
 */
std::vector<uint32_t>
ParseTierList(const std::string& tierList)
{
    std::vector<uint32_t> tiers;
    for (const std::string& item : OptionParser::SplitList(tierList))
    {
        uint64_t t = 0;
        std::string error;
        if (!OptionParser::ParseUnsigned("--tierList", item, 2, 3, t, error))
        {
            OptionParser::Exit(error);
        }
        if (std::find(tiers.begin(), tiers.end(), t) != tiers.end())
        {
            OptionParser::Exit("--tierList: " + item + " is listed twice; allowed: 2, 3 or 2,3");
        }
        tiers.push_back(static_cast<uint32_t>(t));
    }
    if (tiers.empty())
    {
        OptionParser::Exit("--tierList: '" + tierList + "' names no fabric; allowed: 2, 3 or 2,3");
    }

    return tiers;
}

/**
 * Print the all-reduce table.
 * \param rows its lines.
 * \param flowSize the data per host, as given.
 */
void
PrintRows(const std::vector<Row>& rows, const std::string& flowSize)
{
    std::cout << "\nring all-reduce of " << flowSize << " per host:\n"
              << std::left << std::setw(10) << "lb" << std::right << std::setw(7) << "tiers"
              << std::setw(7) << "hosts" << std::setw(14) << "allreduce us" << std::setw(12)
              << "bound us" << std::setw(10) << "x bound"
              << "\n";
    for (const Row& row : rows)
    {
        std::cout << std::left << std::setw(10) << row.lb << std::right << std::setw(7) << row.tiers
                  << std::setw(7) << row.hosts << std::fixed << std::setprecision(1)
                  << std::setw(14) << row.collectiveUs << std::setw(12) << row.boundUs
                  << std::setprecision(2) << std::setw(10) << row.collectiveUs / row.boundUs
                  << "\n";
    }
}

} // namespace

int
main(int argc, char* argv[])
{
    FabricExperiment experiment;
    experiment.pattern = "allreduce";
    experiment.flowSize = "4MiB";
    experiment.leaves = 4;
    experiment.hostsPerLeaf = 4;
    experiment.spines = 4;
    experiment.pods = 2;
    experiment.cores = 16;
    std::string tierList = "2,3";

    CommandLine cmd(__FILE__);
    cmd.Usage("Runs a ring all-reduce once per path selector on a 2-tier and a 3-tier fabric "
              "and prints its completion time. --tiers is replaced by --tierList.");
    experiment.AddOptions(cmd);
    OptionParser::AddValue(
        cmd,
        "tierList",
        "Fabrics to run, comma list of tier counts (2 and/or 3); the shape options "
        "apply to each as documented for --tiers",
        tierList);
    OptionParser::Parse(cmd, argc, argv);
    if (experiment.tiers != 2)
    {
        OptionParser::Exit(
            "--tiers: not used by reps-allreduce; allowed: leave it out and give the "
            "tier counts to --tierList (2, 3 or 2,3)");
    }

    std::vector<uint32_t> tiers = ParseTierList(tierList);

    ExperimentReport report;

    std::vector<Row> rows;
    for (uint32_t t : tiers)
    {
        experiment.tiers = t;
        experiment.Check();
        experiment.FillConfig(report);
        std::cout << (rows.empty() ? "" : "\n");
        experiment.PrintSetup(std::cout);
        uint32_t n = experiment.GetHosts();
        double data = OptionParser::BytesOrExit("--flowSize", experiment.flowSize, 1);
        double rate = OptionParser::RateOrExit("--linkRate", experiment.linkRate).GetBitRate();
        double bound = 2.0 * (n - 1) / n * data * 8 / rate * 1e6;
        for (const PathSelectorNames::Choice& c : experiment.GetSelectors())
        {
            RunResult r = experiment.Run(c);
            r.lb = c.name + ":" + std::to_string(t) + "-tier";
            r.extra["tiers"] = t;
            r.extra["allreduce_bound_us"] = bound;
            rows.push_back({c.name, t, n, r.flows.GetCollectiveUs(), bound});
            report.AddResult(r);
        }
    }
    report.SetConfig("tiers", tierList);
    report.SetConfig("tierList", tierList);

    std::cout << "\n";
    report.PrintTable(std::cout);
    PrintRows(rows, experiment.flowSize);
    experiment.WriteOutputs(report);
    return 0;
}
