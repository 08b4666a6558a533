/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup reps
 * nccl-tests for the simulated fabric: one NCCL-style collective (--pattern=nccl, the options
 * of the manual's chapter "NCCL-style collectives") over a list of message sizes, once per
 * path selector, printed as nccl-tests prints it: size, time, algorithm bandwidth and bus
 * bandwidth (algorithm bandwidth x the collective's factor: all-reduce 2(n-1)/n; all-gather,
 * reduce-scatter and all-to-all (n-1)/n; broadcast 1).
 *
 *   ./ns3 run "reps-collective-bench --sizes=1MiB,4MiB,16MiB --lb=ecmp,reps"
 *
 * --json writes per path selector a "sizes" array of rows (bytes, time_us, algbw_GBps,
 * busbw_GBps); --csv one line per path selector and size.
 */

#include "ns3/core-module.h"
#include "ns3/nccl-collective.h"
#include "ns3/reps-experiment-module.h"
#include "ns3/reps-module.h"

#include <fstream>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>

using namespace ns3;

namespace
{

/// One line of the table.
struct Row
{
    std::string lb; //!< Path selector.
    uint64_t bytes; //!< Size.
    double timeUs;  //!< Collective time.
    double algbw;   //!< Size / time, GB/s.
    double busbw;   //!< algbw x the collective's factor, GB/s.
    bool completed; //!< Every transfer arrived.
};

/// The sizes of --sizes, in bytes (exits on a bad list).
std::vector<uint64_t>
ParseSizes(const std::string& sizes)
{
    std::vector<uint64_t> bytes;
    for (const std::string& item : OptionParser::SplitList(sizes))
    {
        bytes.push_back(OptionParser::BytesOrExit("--sizes", item, 1));
    }
    if (bytes.empty())
    {
        OptionParser::Exit("--sizes: '" + sizes +
                           "' names no size; allowed: a comma list of sizes, e.g. 1MiB,4MiB");
    }
    return bytes;
}

/// nccl-tests' bus bandwidth factor of the collective named \p operation on \p n ranks.
double
BusFactor(const std::string& operation, uint32_t n)
{
    for (auto op : {NcclOperation::ALL_REDUCE,
                    NcclOperation::ALL_GATHER,
                    NcclOperation::REDUCE_SCATTER,
                    NcclOperation::BROADCAST,
                    NcclOperation::ALL_TO_ALL,
                    NcclOperation::REDUCE,
                    NcclOperation::GATHER,
                    NcclOperation::SCATTER})
    {
        if (operation == NcclOperationName(op))
        {
            return NcclSchedule::BusBandwidthFactor(op, n);
        }
    }
    return 1.0;
}

/// Runs every size with every path selector; the rows in that order.
std::vector<Row>
RunSizes(FabricExperiment& experiment, const std::vector<uint64_t>& bytes)
{
    std::vector<Row> rows;
    for (uint64_t size : bytes)
    {
        experiment.flowSize = std::to_string(size);
        experiment.Check();
        if (rows.empty())
        {
            experiment.PrintSetup(std::cout);
        }
        const double factor =
            BusFactor(experiment.GetAlias("ncclOperation").GetText(), experiment.GetHosts());
        for (const PathSelectorNames::Choice& c : experiment.GetSelectors())
        {
            RunResult r = experiment.Run(c);
            const FlowStats::Collective& coll = r.flows.GetCollectives().at(0);
            // An unfinished collective has no end time: its time is 0, "completed" says why.
            double us = coll.completed ? (coll.finished - coll.start).GetSeconds() * 1e6 : 0.0;
            double algbw = coll.completed ? size / (us * 1e3) : 0.0; // bytes per ns = GB/s
            rows.push_back({c.name, size, us, algbw, algbw * factor, coll.completed});
        }
    }
    return rows;
}

/// The table, as nccl-tests prints it.
void
PrintRows(const FabricExperiment& experiment, const std::vector<Row>& rows)
{
    std::cout << "\n"
              << experiment.GetAlias("ncclOperation").GetText() << " ("
              << experiment.GetAlias("ncclAlgorithm").GetText() << "), " << experiment.GetHosts()
              << " ranks:\n"
              << std::left << std::setw(10) << "lb" << std::right << std::setw(14) << "size B"
              << std::setw(12) << "time us" << std::setw(14) << "algbw GB/s" << std::setw(14)
              << "busbw GB/s"
              << "\n";
    for (const Row& row : rows)
    {
        std::cout << std::left << std::setw(10) << row.lb << std::right << std::setw(14)
                  << row.bytes << std::fixed << std::setprecision(1) << std::setw(12) << row.timeUs
                  << std::setprecision(2) << std::setw(14) << row.algbw << std::setw(14)
                  << row.busbw << (row.completed ? "" : "  (incomplete)") << "\n";
    }
}

/// --json: per path selector a "sizes" array. \return whether the file was written
bool
WriteJson(const std::string& path,
          const FabricExperiment& experiment,
          const std::string& sizes,
          const std::vector<Row>& rows)
{
    nlohmann::ordered_json out;
    out["config"] = {{"operation", experiment.GetAlias("ncclOperation").GetText()},
                     {"algorithm", experiment.GetAlias("ncclAlgorithm").GetText()},
                     {"ranks", experiment.GetHosts()},
                     {"linkRate_bps", experiment.GetParsed().linkRate.GetBitRate()},
                     {"sizes", sizes},
                     {"lb", experiment.lb},
                     {"RngRun", RngSeedManager::GetRun()}};
    nlohmann::ordered_json selectors = nlohmann::ordered_json::object();
    for (const Row& row : rows)
    {
        selectors[row.lb]["sizes"].push_back({{"bytes", row.bytes},
                                              {"time_us", row.timeUs},
                                              {"algbw_GBps", row.algbw},
                                              {"busbw_GBps", row.busbw},
                                              {"completed", row.completed}});
    }
    out["selectors"] = selectors;
    std::ofstream f(path);
    f << out.dump(2) << "\n";
    if (!f)
    {
        std::cerr << "error: --json: cannot write " << path << "\n";
    }
    return bool(f);
}

/// --csv: one line per path selector and size. \return whether the file was written
bool
WriteCsv(const std::string& path, const std::vector<Row>& rows)
{
    std::ofstream f(path);
    f << "lb,bytes,time_us,algbw_GBps,busbw_GBps,completed\n";
    for (const Row& row : rows)
    {
        f << row.lb << "," << row.bytes << "," << row.timeUs << "," << row.algbw << "," << row.busbw
          << "," << (row.completed ? "true" : "false") << "\n";
    }
    if (!f)
    {
        std::cerr << "error: --csv: cannot write " << path << "\n";
    }
    return bool(f);
}

} // namespace

int
main(int argc, char* argv[])
{
    FabricExperiment experiment;
    experiment.pattern = "nccl";
    experiment.leaves = 4;
    experiment.hostsPerLeaf = 4;
    experiment.spines = 4;
    experiment.lb = "ecmp,ops,reps";
    experiment.flowSize = "-"; // replaced by --sizes: any other value was given
    std::string sizes = "1MiB,4MiB,16MiB";

    CommandLine cmd(__FILE__);
    cmd.Usage("Runs one NCCL-style collective (--ncclOperation, --ncclAlgorithm, ...) for every "
              "size of --sizes and every path selector, and prints size, time, algorithm and "
              "bus bandwidth as nccl-tests does. --flowSize is replaced by --sizes.");
    experiment.AddOptions(cmd);
    OptionParser::AddValue(cmd,
                           "sizes",
                           "Sizes of the collective, comma list of bytes with optional unit "
                           "(as nccl-tests' size: each rank's buffer, output, input or send "
                           "buffer)",
                           sizes);
    OptionParser::Parse(cmd, argc, argv);
    if (experiment.pattern != "nccl")
    {
        OptionParser::Exit("--pattern: " + experiment.pattern +
                           " is not used by reps-collective-bench; allowed: nccl (leave it out)");
    }
    if (experiment.flowSize != "-")
    {
        OptionParser::Exit("--flowSize: not used by reps-collective-bench; allowed: leave it "
                           "out and give the sizes to --sizes");
    }
    // The JSON and CSV are this program's own; the experiment writes none.
    const std::string json = experiment.json;
    const std::string csv = experiment.csv;
    for (const auto& [option, path] :
         {std::make_pair("--json", json), std::make_pair("--csv", csv)})
    {
        if (!path.empty() && !std::ofstream(path))
        {
            OptionParser::Exit(std::string(option) + ": cannot write " + path +
                               "; allowed: the path of a file in a writable folder");
        }
    }
    std::vector<uint64_t> bytes = ParseSizes(sizes);
    experiment.json.clear();
    experiment.csv.clear();
    experiment.quiet = true;

    std::vector<Row> rows = RunSizes(experiment, bytes);
    PrintRows(experiment, rows);
    bool ok = json.empty() || WriteJson(json, experiment, sizes, rows);
    ok = (csv.empty() || WriteCsv(csv, rows)) && ok;
    for (const Row& row : rows)
    {
        ok = ok && row.completed;
    }
    return ok ? 0 : 1;
}
