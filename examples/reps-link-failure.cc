/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup reps
 * Transient link failures, the REPS paper's micro scenario: during a permutation, two uplinks
 * of one leaf go down for a few hundred microseconds each (one after the other), and come back.
 * Routing does not react (the links are blackholes while down), so only the senders can steer
 * around them. For each path selector the example prints the flow completion times and, in
 * time bins, the packets dropped and the bytes delivered to hosts: ECMP flows hashed onto a
 * failed link stall until it comes back, OPS keeps spraying into it and loses packets, REPS
 * freezes on its cached good paths.
 *
 *   ./ns3 run "reps-link-failure --failFor=300us --json=failure.json"
 *   utils/plot.py failure.json --only ts     # ts_drops.png: drops over time around the failure
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

/**
 * \param r a run.
 * \param name a time series.
 * \return it, or null.
 */
const TimeSeries*
FindSeries(const RunResult& r, const std::string& name)
{
    for (const TimeSeries& ts : r.timeseries)
    {
        if (ts.GetName() == name)
        {
            return &ts;
        }
    }
    return nullptr;
}

/**
 * Sum a time series (all its series) into bins.
 * \param ts the series.
 * \param bin bin width in microseconds.
 * \param bins number of bins.
 * \return the sum per bin.
 */
std::vector<double>
Bin(const TimeSeries* ts, double bin, size_t bins)
{
    std::vector<double> out(bins, 0.0);
    if (!ts)
    {
        return out;
    }
    for (size_t i = 0; i < ts->GetSize(); ++i)
    {
        // Sample i covers (t[i-1], t[i]]: put it in the bin of its start.
        double start = i ? ts->GetTimesUs()[i - 1] : 0.0;
        size_t b = std::min(bins - 1, static_cast<size_t>(start / bin));
        for (size_t s = 0; s < ts->GetSeriesNames().size(); ++s)
        {
            out[b] += ts->GetValues(s)[i];
        }
    }
    return out;
}

} // namespace

int
main(int argc, char* argv[])
{
    FabricExperiment experiment;
    experiment.lb = "ecmp,ops,reps";
    experiment.leaves = 4;
    experiment.hostsPerLeaf = 8;
    experiment.spines = 8;
    experiment.flowSize = "8MiB";
    experiment.failedLinks = 2;
    experiment.failLeaf = 0;
    experiment.failAt = "20us";
    experiment.failFor = "200us";
    experiment.failGap = "100us";
    experiment.sampleInterval = "10us";
    std::string binWidth = "50us";

    CommandLine cmd(__FILE__);
    cmd.Usage("Fails leaf uplinks for a while during a workload and prints, per path selector, "
              "flow completion times and the drops and delivered throughput over time.");
    experiment.AddOptions(cmd);
    OptionParser::AddValue(cmd,
                           "binWidth",
                           "Width of a time bin of the printed drops and throughput (Time)",
                           binWidth);
    OptionParser::Parse(cmd, argc, argv);
    experiment.Check();
    Time bin = OptionParser::TimeOrExit("--binWidth", binWidth);
    const FabricOptions::Parsed& parsed = experiment.GetParsed();
    if (!bin.IsStrictlyPositive() || (parsed.stop - parsed.start) / bin > 100000)
    {
        OptionParser::Exit("--binWidth: " + binWidth +
                           " is not allowed; allowed: a Time > 0 that cuts --stopTime - "
                           "--startTime into at most 100000 bins");
    }

    ExperimentReport report;
    report.SetConfig("binWidth", binWidth);
    experiment.RunAll(std::cout, report);

    // Drops and delivered throughput over time, one column pair per scheme.
    double binUs = bin.ToDouble(Time::US);
    double endUs = 0;
    for (const RunResult& r : report.GetResults())
    {
        endUs = std::max(endUs, r.simTime.ToDouble(Time::US));
    }
    size_t bins = static_cast<size_t>(endUs / binUs) + 1;
    std::cout << "\nfailures:";
    for (const RunEvent& e : report.GetResults().front().events)
    {
        std::cout << "  " << e.label << " at " << e.time.ToDouble(Time::US) << " us;";
    }
    std::cout << "\ndrops (packets) and throughput delivered to hosts (Gb/s) per " << binWidth
              << " bin:\n"
              << std::setw(10) << "from us";
    for (const RunResult& r : report.GetResults())
    {
        std::cout << std::setw(12) << r.lb + " drops" << std::setw(12) << r.lb + " Gb/s";
    }
    std::cout << "\n";
    std::vector<std::vector<double>> drops;
    std::vector<std::vector<double>> bytes;
    for (const RunResult& r : report.GetResults())
    {
        drops.push_back(Bin(FindSeries(r, "drops"), binUs, bins));
        bytes.push_back(Bin(FindSeries(r, "delivered_bytes"), binUs, bins));
    }
    for (size_t b = 0; b < bins; ++b)
    {
        std::cout << std::setw(10) << std::fixed << std::setprecision(0) << b * binUs;
        for (size_t k = 0; k < drops.size(); ++k)
        {
            std::cout << std::setw(12) << drops[k][b] << std::setw(12) << std::setprecision(1)
                      << bytes[k][b] * 8 / (binUs * 1e3) << std::setprecision(0);
        }
        std::cout << "\n";
    }
    return 0;
}
