/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup reps
 * A training step on a rail-optimised fabric, once per load-balancing arm: the ways the field
 * fights ECMP collisions in AI fabrics side by side. The step is a Chakra execution trace
 * (--chakraTrace=PREFIX, the files PREFIX.<rank>.et) or a built-in one, written as a Chakra
 * trace and replayed the same way (--step):
 *
 * - dp: data parallel, --steps x (forward of --layers layers of --layerTime each, then the
 *   backward at twice that; the --layerBytes gradients of each layer all-reduced as soon as its
 *   backward is done, overlapping the backward of the layers below; the next forward of a layer
 *   waits for its all-reduce);
 * - moe: a mixture-of-experts layer, --steps x (attention, an all-to-all dispatch of
 *   --expertBytes among the ranks of an expert-parallel group of --expertParallel ranks, the
 *   experts at twice --layerTime, an all-to-all combine, the backward at three times, then an
 *   all-reduce of --layerBytes of dense gradients among all ranks).
 *
 * The arms (--arms): a path selector (ecmp, ops, reps, mrc, ...), optionally with -qpN for N
 * queue pairs per connection (NCCL_IB_QPS_PER_CONNECTION: "more flows"), or a switch forwarding
 * (dlb, adaptive, glb, random) under ECMP at the NICs. Every other option is
 * reps-lb-comparison's (the fabric, the transport, the NCCL knobs).
 *
 *   ./ns3 run "reps-ai-training --arms=ecmp-qp1,ecmp-qp4,reps --step=moe"
 *
 * It prints, per arm, the mean iteration time, the slowest collective call, the mean exposed
 * communication (the time a GPU waits for the network with nothing to compute) and the
 * transport's counters; --json writes them per arm, --csv one line per arm.
 */

#include "ns3/chakra-trace.h"
#include "ns3/core-module.h"
#include "ns3/reps-experiment-module.h"
#include "ns3/reps-module.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>
#include <tuple>

using namespace ns3;

namespace
{

/// The built-in step's options.
struct StepOptions
{
    std::string step{"dp"};          //!< dp or moe.
    uint32_t layers{2};              //!< dp: layers.
    std::string layerBytes{"8MiB"};  //!< dp: gradient of a layer; moe: the dense gradients.
    std::string layerTime{"20us"};   //!< Forward time of a layer (whole microseconds).
    uint32_t steps{2};               //!< Training iterations.
    std::string expertBytes{"4MiB"}; //!< moe: each rank's all-to-all send buffer.
    uint32_t expertParallel{0};      //!< moe: ranks of an expert-parallel group (0: all).
    std::string writeTrace; //!< Where to keep the built-in trace (empty: a temporary folder).
};

/// One arm: a path selector at the NICs, its queue pairs per connection, the switches' forwarding.
struct Arm
{
    std::string name;       //!< As given in --arms.
    std::string lb;         //!< Path selector.
    uint32_t qps{1};        //!< Queue pairs per connection.
    std::string forwarding; //!< Switch forwarding.
};

/// What one arm measured.
struct Row
{
    Arm arm;                 //!< The arm.
    bool completed{false};   //!< Every node of every rank ran.
    double iterationUs{0};   //!< Mean iteration time.
    double stepUs{0};        //!< The whole replay.
    double slowestCallUs{0}; //!< The slowest collective call.
    double exposedUs{0};     //!< Mean exposed communication per GPU.
    RunResult result;        //!< The run.
};

/// The arms of \p list (exits naming --arms on a bad one).
std::vector<Arm>
ParseArms(const std::string& list)
{
    std::vector<Arm> arms;
    const std::vector<std::string> switchWords = {"dlb", "adaptive", "glb", "random"};
    for (const std::string& item : OptionParser::SplitList(list))
    {
        Arm arm;
        arm.name = item;
        arm.forwarding = "hash";
        std::string base = item;
        size_t qp = item.rfind("-qp");
        if (qp != std::string::npos)
        {
            base = item.substr(0, qp);
            std::string digits = item.substr(qp + 3);
            if (digits.empty() || digits.size() > 3 ||
                !std::all_of(digits.begin(), digits.end(), ::isdigit) || std::stoul(digits) < 1 ||
                std::stoul(digits) > 128)
            {
                OptionParser::Exit("--arms: '" + item +
                                   "': queue pairs per connection must be 1 to 128; allowed: "
                                   "NAME or NAME-qpN, e.g. ecmp-qp4");
            }
            arm.qps = static_cast<uint32_t>(std::stoul(digits));
        }
        if (std::find(switchWords.begin(), switchWords.end(), base) != switchWords.end())
        {
            arm.lb = "ecmp";
            arm.forwarding = base;
        }
        else
        {
            arm.lb = base;
            PathSelectorNames::Choice choice;
            std::string error;
            if (!PathSelectorNames::Lookup(base, choice, error))
            {
                OptionParser::Exit(
                    "--arms: '" + item + "': " + base +
                    " is neither a path selector nor a switch forwarding; allowed: " +
                    OptionParser::Join(PathSelectorNames::GetAvailableNames()) +
                    ", or dlb, adaptive, glb, random (with ECMP at the NICs), each "
                    "optionally with -qpN");
            }
        }
        for (const Arm& other : arms)
        {
            if (other.name == arm.name)
            {
                OptionParser::Exit("--arms: '" + item +
                                   "' is listed twice; allowed: each arm once");
            }
        }
        arms.push_back(arm);
    }
    if (arms.empty())
    {
        OptionParser::Exit("--arms: '" + list +
                           "' names no arm; allowed: a comma list, e.g. ecmp-qp1,ecmp-qp4,reps");
    }
    return arms;
}

/// A compute node of \p micros.
ChakraTrace::Node
Compute(uint64_t id, const std::string& name, uint64_t micros, uint32_t iteration)
{
    ChakraTrace::Node n;
    n.id = id;
    n.name = name;
    n.kind = ChakraTrace::Kind::COMPUTE;
    n.durationMicros = micros;
    n.iteration = iteration;
    return n;
}

/// A collective node.
ChakraTrace::Node
Collective(uint64_t id,
           const std::string& name,
           ChakraTrace::Collective what,
           uint64_t bytes,
           const std::string& group,
           uint32_t iteration)
{
    ChakraTrace::Node n;
    n.id = id;
    n.name = name;
    n.kind = ChakraTrace::Kind::COLLECTIVE;
    n.collective = what;
    n.bytes = bytes;
    n.group = group;
    n.iteration = iteration;
    return n;
}

/// The built-in dp step of one rank.
std::vector<ChakraTrace::Node>
DataParallel(const StepOptions& o, uint64_t layerBytes, uint64_t micros)
{
    std::vector<ChakraTrace::Node> nodes;
    std::vector<int64_t> reduced(o.layers, -1);
    auto add = [&nodes](ChakraTrace::Node n) {
        nodes.push_back(std::move(n));
        return static_cast<int64_t>(nodes.size() - 1);
    };
    int64_t prev = -1;
    for (uint32_t it = 0; it < o.steps; ++it)
    {
        for (uint32_t l = 0; l < o.layers; ++l)
        {
            std::string name = "forward." + std::to_string(it) + ".layer" + std::to_string(l);
            ChakraTrace::Node n = Compute(nodes.size(), name, micros, it);
            if (reduced[l] >= 0)
            {
                n.dataDeps.push_back(reduced[l]);
            }
            if (prev >= 0)
            {
                n.ctrlDeps.push_back(prev);
            }
            prev = add(n);
        }
        for (uint32_t i = o.layers; i-- > 0;)
        {
            std::string suffix = std::to_string(it) + ".layer" + std::to_string(i);
            ChakraTrace::Node b = Compute(nodes.size(), "backward." + suffix, 2 * micros, it);
            b.ctrlDeps.push_back(prev);
            prev = add(b);
            ChakraTrace::Node ar = Collective(nodes.size(),
                                              "allreduce." + suffix,
                                              ChakraTrace::Collective::ALL_REDUCE,
                                              layerBytes,
                                              "",
                                              it);
            ar.dataDeps.push_back(prev);
            reduced[i] = add(ar);
        }
    }
    return nodes;
}

/// The built-in moe step of rank \p rank, in its expert-parallel group \p group.
std::vector<ChakraTrace::Node>
MixtureOfExperts(const StepOptions& o,
                 uint64_t denseBytes,
                 uint64_t expertBytes,
                 uint64_t micros,
                 const std::string& group)
{
    std::vector<ChakraTrace::Node> nodes;
    auto add = [&nodes](ChakraTrace::Node n, int64_t dep) {
        if (dep >= 0)
        {
            n.dataDeps.push_back(dep);
        }
        nodes.push_back(std::move(n));
        return static_cast<int64_t>(nodes.size() - 1);
    };
    int64_t reduced = -1;
    for (uint32_t it = 0; it < o.steps; ++it)
    {
        std::string i = std::to_string(it);
        int64_t attn = add(Compute(nodes.size(), "attention." + i, micros, it), reduced);
        int64_t dispatch = add(Collective(nodes.size(),
                                          "dispatch." + i,
                                          ChakraTrace::Collective::ALL_TO_ALL,
                                          expertBytes,
                                          group,
                                          it),
                               attn);
        int64_t experts = add(Compute(nodes.size(), "experts." + i, 2 * micros, it), dispatch);
        int64_t combine = add(Collective(nodes.size(),
                                         "combine." + i,
                                         ChakraTrace::Collective::ALL_TO_ALL,
                                         expertBytes,
                                         group,
                                         it),
                              experts);
        int64_t back = add(Compute(nodes.size(), "backward." + i, 3 * micros, it), combine);
        reduced = add(Collective(nodes.size(),
                                 "allreduce." + i,
                                 ChakraTrace::Collective::ALL_REDUCE,
                                 denseBytes,
                                 "dp",
                                 it),
                      back);
    }
    return nodes;
}

/**
 * Exits when an option of the built-in step is given but not used: with --chakraTrace (no
 * built-in step), or an option of the other step.
 */
void
CheckStepOptionsUsed(const StepOptions& o, bool trace)
{
    const StepOptions d;
    const std::vector<std::tuple<std::string, bool, bool>> given = {
        // option, given, used by the step
        {"step", o.step != d.step, true},
        {"layers", o.layers != d.layers, o.step == "dp"},
        {"layerBytes", o.layerBytes != d.layerBytes, true},
        {"layerTime", o.layerTime != d.layerTime, true},
        {"steps", o.steps != d.steps, true},
        {"expertBytes", o.expertBytes != d.expertBytes, o.step == "moe"},
        {"expertParallel", o.expertParallel != d.expertParallel, o.step == "moe"},
        {"writeTrace", o.writeTrace != d.writeTrace, true},
    };
    for (const auto& [name, set, used] : given)
    {
        if (set && trace)
        {
            OptionParser::Exit("--" + name +
                               ": only used by the built-in step; allowed: leave it out with "
                               "--chakraTrace");
        }
        if (set && !used)
        {
            OptionParser::Exit("--" + name + ": not used by --step=" + o.step +
                               "; allowed: leave it out, or give the step that uses it (" +
                               (name == "layers" ? "dp" : "moe") + ")");
        }
    }
}

/**
 * Writes the built-in step for \p ranks ranks (exits naming the option on bad values).
 * \param o the options
 * \param ranks the ranks
 * \param [out] tempFolder the temporary folder made for it (left empty with --writeTrace)
 * \return the trace's prefix
 */
std::string
WriteStep(const StepOptions& o, uint32_t ranks, std::string& tempFolder)
{
    if (o.step != "dp" && o.step != "moe")
    {
        OptionParser::Exit("--step: '" + o.step + "'; allowed: dp or moe");
    }
    OptionParser::CheckRangeOrExit("--layers", o.layers, 1, 1000);
    OptionParser::CheckRangeOrExit("--steps", o.steps, 1, 1000);
    const uint64_t layerBytes = OptionParser::BytesOrExit("--layerBytes", o.layerBytes, 1);
    const uint64_t expertBytes = OptionParser::BytesOrExit("--expertBytes", o.expertBytes, 1);
    const Time layerTime = OptionParser::TimeOrExit("--layerTime", o.layerTime);
    if (layerTime.IsNegative() || layerTime > Seconds(1) || layerTime.GetNanoSeconds() % 1000 != 0)
    {
        OptionParser::Exit("--layerTime: " + o.layerTime +
                           " is out of range; allowed: whole microseconds (Chakra's "
                           "duration_micros) in [0, 1s]");
    }
    const auto micros = static_cast<uint64_t>(layerTime.GetMicroSeconds());
    const uint32_t ep = o.expertParallel == 0 ? ranks : o.expertParallel;
    std::map<std::string, std::vector<uint32_t>> groups;
    if (o.step == "moe")
    {
        if (ep < 2 || ep > ranks || ranks % ep != 0)
        {
            OptionParser::Exit("--expertParallel: " + std::to_string(o.expertParallel) +
                               "; allowed: 0 (all " + std::to_string(ranks) +
                               " ranks) or a divisor of the ranks of at least 2");
        }
        if (expertBytes % ep != 0)
        {
            OptionParser::Exit("--expertBytes: " + std::to_string(expertBytes) +
                               "; allowed: a multiple of the " + std::to_string(ep) +
                               " ranks of an expert-parallel group");
        }
        for (uint32_t r = 0; r < ranks; ++r)
        {
            groups["ep" + std::to_string(r / ep)].push_back(r);
            groups["dp"].push_back(r);
        }
    }
    std::string prefix = o.writeTrace;
    if (!prefix.empty() && (prefix.back() == '/' || SystemPath::Exists(prefix)))
    {
        OptionParser::Exit("--writeTrace: '" + prefix +
                           "' names a folder or file; allowed: a file prefix PREFIX in a "
                           "writable folder (the trace is PREFIX.<rank>.et)");
    }
    if (prefix.empty())
    {
        // A folder of its own (mkdtemp), so that runs started together never share one.
        const char* tmp = std::getenv("TMPDIR");
        std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/reps-ai-training-XXXXXX";
        std::vector<char> name(pattern.begin(), pattern.end());
        name.push_back('\0');
        if (!mkdtemp(name.data()))
        {
            OptionParser::Exit("the built-in step: cannot create a folder " + pattern +
                               "; allowed: a writable TMPDIR, or --writeTrace=PREFIX");
        }
        tempFolder = name.data();
        prefix = SystemPath::Append(tempFolder, o.step);
    }
    for (uint32_t r = 0; r < ranks; ++r)
    {
        std::vector<ChakraTrace::Node> nodes =
            o.step == "dp" ? DataParallel(o, layerBytes, micros)
                           : MixtureOfExperts(o,
                                              layerBytes,
                                              expertBytes,
                                              micros,
                                              "ep" + std::to_string(r / ep));
        std::string file = prefix + "." + std::to_string(r) + ".et";
        std::string error = ChakraTrace::WriteFile(file, nodes, groups);
        if (!error.empty())
        {
            OptionParser::Exit((o.writeTrace.empty() ? "the built-in step: " : "--writeTrace: ") +
                               error + "; allowed: a file prefix in a writable folder");
        }
    }
    return prefix;
}

/// Runs every arm.
std::vector<Row>
RunArms(FabricExperiment& experiment, const std::vector<Arm>& arms)
{
    std::vector<Row> rows;
    for (const Arm& arm : arms)
    {
        experiment.Set("lb", arm.lb);
        experiment.Set("forwarding", arm.forwarding);
        experiment.Set("qpsPerConnection", std::to_string(arm.qps));
        experiment.Check();
        if (rows.empty())
        {
            experiment.PrintSetup(std::cout);
        }
        Row row;
        row.arm = arm;
        row.result = experiment.Run(experiment.GetSelectors().at(0));
        const FlowStats::Collective& c = row.result.flows.GetCollectives().at(0);
        row.completed = c.completed;
        row.stepUs = c.completed ? (c.finished - c.start).GetSeconds() * 1e6 : 0.0;
        double sum = 0;
        for (const Time& t : c.iterations)
        {
            sum += t.GetSeconds() * 1e6;
        }
        row.iterationUs = c.iterations.empty() ? row.stepUs : sum / c.iterations.size();
        for (const auto& call : c.calls)
        {
            if (call.completed)
            {
                row.slowestCallUs =
                    std::max(row.slowestCallUs, (call.finished - call.start).GetSeconds() * 1e6);
            }
        }
        double exposed = 0;
        for (const Time& t : c.exposedComm)
        {
            exposed += t.GetSeconds() * 1e6;
        }
        // Per GPU and iteration.
        row.exposedUs = c.exposedComm.empty() ? 0.0
                                              : exposed / c.exposedComm.size() /
                                                    std::max<size_t>(1, c.iterations.size());
        rows.push_back(std::move(row));
    }
    return rows;
}

/// The table.
void
PrintRows(const std::vector<Row>& rows, const std::string& what)
{
    std::cout << "\n"
              << what << "\n"
              << std::left << std::setw(12) << "arm" << std::right << std::setw(13) << "iter us"
              << std::setw(13) << "step us" << std::setw(13) << "max coll us" << std::setw(13)
              << "exposed us" << std::setw(10) << "drops" << std::setw(10) << "retx"
              << std::setw(10) << "ecn" << std::setw(9) << "wall s"
              << "\n";
    for (const Row& row : rows)
    {
        const RunResult& r = row.result;
        std::cout << std::left << std::setw(12) << row.arm.name << std::right << std::fixed
                  << std::setprecision(1) << std::setw(13) << row.iterationUs << std::setw(13)
                  << row.stepUs << std::setw(13) << row.slowestCallUs << std::setw(13)
                  << row.exposedUs << std::setw(10) << r.drops << std::setw(10) << r.retransmissions
                  << std::setw(10) << r.ecnMarks << std::setprecision(2) << std::setw(9)
                  << r.wallSeconds << (row.completed ? "" : "  (incomplete)") << "\n";
    }
}

/// --json. \return whether it was written
bool
WriteJson(const std::string& path,
          const FabricExperiment& experiment,
          const std::string& what,
          const std::vector<Row>& rows)
{
    nlohmann::ordered_json out;
    out["config"] = {{"workload", what},
                     {"ranks", experiment.GetHosts()},
                     {"gpusPerServer", experiment.GetAlias("gpusPerServer").GetUnsigned()},
                     {"wiring", experiment.GetAlias("wiring").GetText()},
                     {"RngRun", RngSeedManager::GetRun()}};
    nlohmann::ordered_json arms = nlohmann::ordered_json::array();
    for (const Row& row : rows)
    {
        const RunResult& r = row.result;
        arms.push_back({{"arm", row.arm.name},
                        {"lb", row.arm.lb},
                        {"qps_per_connection", row.arm.qps},
                        {"forwarding", row.arm.forwarding},
                        {"completed", row.completed},
                        {"iteration_us", row.iterationUs},
                        {"step_us", row.stepUs},
                        {"slowest_call_us", row.slowestCallUs},
                        {"exposed_comm_us", row.exposedUs},
                        {"drops", r.drops},
                        {"retransmissions", r.retransmissions},
                        {"ecn_marks", r.ecnMarks},
                        {"wall_s", r.wallSeconds}});
    }
    out["arms"] = arms;
    std::ofstream f(path);
    f << out.dump(2) << "\n";
    return bool(f);
}

/// --csv. \return whether it was written
bool
WriteCsv(const std::string& path, const std::vector<Row>& rows)
{
    std::ofstream f(path);
    f << "arm,lb,qps_per_connection,forwarding,completed,iteration_us,step_us,slowest_call_us,"
         "exposed_comm_us,drops,retransmissions,ecn_marks\n";
    for (const Row& row : rows)
    {
        f << row.arm.name << "," << row.arm.lb << "," << row.arm.qps << "," << row.arm.forwarding
          << "," << (row.completed ? "true" : "false") << "," << row.iterationUs << ","
          << row.stepUs << "," << row.slowestCallUs << "," << row.exposedUs << ","
          << row.result.drops << "," << row.result.retransmissions << "," << row.result.ecnMarks
          << "\n";
    }
    return bool(f);
}

/// The options of the arms and the built-in step, on \p cmd.
void
AddStepOptions(CommandLine& cmd, std::string& arms, StepOptions& step)
{
    OptionParser::AddValue(cmd,
                           "arms",
                           "Arms, comma list: a path selector (ecmp, ops, reps, mrc, ...) "
                           "optionally with -qpN (N queue pairs per connection, 1 to 128), or a "
                           "switch forwarding (dlb, adaptive, glb, random) under ECMP at the NICs",
                           arms);
    OptionParser::AddValue(cmd,
                           "step",
                           "Built-in step when --chakraTrace is not given (dp: data parallel; "
                           "moe: mixture of experts)",
                           step.step);
    OptionParser::AddValue(cmd, "layers", "dp: layers (1 to 1000)", step.layers);
    OptionParser::AddValue(cmd,
                           "layerBytes",
                           "dp: gradient bytes of each layer; moe: the dense gradients (bytes "
                           "with optional unit)",
                           step.layerBytes);
    OptionParser::AddValue(cmd,
                           "layerTime",
                           "Forward compute of a layer, whole microseconds; backward twice "
                           "(dp), experts twice and backward three times (moe)",
                           step.layerTime);
    OptionParser::AddValue(cmd,
                           "steps",
                           "Training iterations of the built-in step (1 to 1000)",
                           step.steps);
    OptionParser::AddValue(cmd,
                           "expertBytes",
                           "moe: each rank's all-to-all send buffer (bytes with optional unit)",
                           step.expertBytes);
    OptionParser::AddValue(cmd,
                           "expertParallel",
                           "moe: ranks of an expert-parallel group (0: all ranks)",
                           step.expertParallel);
    OptionParser::AddValue(cmd,
                           "writeTrace",
                           "Keep the built-in step's trace as PREFIX.<rank>.et (default: a "
                           "temporary folder)",
                           step.writeTrace);
}

/// Exits on an option of reps-lb-comparison that reps-ai-training sets itself.
void
CheckExperimentOptions(const FabricExperiment& experiment,
                       const std::string& defaultLb,
                       const std::string& defaultForwarding)
{
    if (experiment.pattern != "chakra")
    {
        OptionParser::Exit("--pattern: " + experiment.pattern +
                           " is not used by reps-ai-training; allowed: chakra (leave it out)");
    }
    if (experiment.flowSize != "-")
    {
        OptionParser::Exit("--flowSize: not used by reps-ai-training; allowed: leave it out "
                           "(the step's sizes are --layerBytes and --expertBytes)");
    }
    if (experiment.lb != defaultLb)
    {
        OptionParser::Exit("--lb: not used by reps-ai-training; allowed: leave it out and "
                           "give the arms to --arms");
    }
    for (const auto& [option, path] :
         {std::make_pair("--json", experiment.json), std::make_pair("--csv", experiment.csv)})
    {
        if (!path.empty() && !std::ofstream(path))
        {
            OptionParser::Exit(std::string(option) + ": cannot write " + path +
                               "; allowed: the path of a file in a writable folder");
        }
    }
    if (experiment.forwarding != defaultForwarding)
    {
        OptionParser::Exit("--forwarding: not used by reps-ai-training; allowed: leave it out "
                           "and give switch forwarding as an arm of --arms (dlb, adaptive, glb, "
                           "random)");
    }
    if (experiment.GetAlias("qpsPerConnection").GetUnsigned() != 1)
    {
        OptionParser::Exit("--qpsPerConnection: not used by reps-ai-training; allowed: leave it "
                           "out and give queue pairs per connection in --arms (e.g. ecmp-qp4)");
    }
}

} // namespace

int
main(int argc, char* argv[])
{
    FabricExperiment experiment;
    // 4 servers of 8 GPUs, rail-optimised: 8 rail leaves of 4 GPUs, 4 spines (no
    // oversubscription), NCCL's ring with 8 channels (one per rail).
    experiment.Set("gpusPerServer", "8");
    experiment.Set("wiring", "RailOptimised");
    experiment.leaves = 8;
    experiment.hostsPerLeaf = 4;
    experiment.spines = 4;
    experiment.Set("ncclChannels", "8");
    experiment.pattern = "chakra";
    experiment.flowSize = "-";
    std::string arms = "ecmp-qp1,ecmp-qp2,ecmp-qp4,ecmp-qp8,ops,reps,mrc,dlb,adaptive";
    StepOptions step;
    const std::string defaultLb = experiment.lb;
    const std::string defaultForwarding = experiment.forwarding;
    std::string tempFolder;

    CommandLine cmd(__FILE__);
    cmd.Usage("Runs a training step (a Chakra trace, or the built-in dp or moe step) on a "
              "rail-optimised fabric once per load-balancing arm of --arms and compares "
              "iteration time, the slowest collective and the exposed communication.");
    experiment.AddOptions(cmd);
    AddStepOptions(cmd, arms, step);
    OptionParser::Parse(cmd, argc, argv);
    CheckExperimentOptions(experiment, defaultLb, defaultForwarding);
    const std::string json = experiment.json;
    const std::string csv = experiment.csv;
    std::vector<Arm> parsed = ParseArms(arms);
    CheckStepOptionsUsed(step, !experiment.chakraTrace.empty());
    experiment.flowSize = "1";
    std::string what = "Chakra trace " + experiment.chakraTrace;
    if (experiment.chakraTrace.empty())
    {
        experiment.Set("lb", parsed[0].lb);
        experiment.ApplyTierDefaults();
        experiment.chakraTrace = WriteStep(step, experiment.GetHosts(), tempFolder);
        what = "built-in " + step.step + " step (" + experiment.chakraTrace + ".<rank>.et)";
    }
    experiment.json.clear();
    experiment.csv.clear();
    experiment.quiet = true;

    std::vector<Row> rows = RunArms(experiment, parsed);
    if (!tempFolder.empty())
    {
        for (uint32_t r = 0; r < experiment.GetHosts(); ++r)
        {
            std::remove((experiment.chakraTrace + "." + std::to_string(r) + ".et").c_str());
        }
        std::remove(tempFolder.c_str());
        what = "built-in " + step.step + " step";
    }
    PrintRows(rows, what);
    bool ok = json.empty() || WriteJson(json, experiment, what, rows);
    ok = (csv.empty() || WriteCsv(csv, rows)) && ok;
    for (const Row& row : rows)
    {
        ok = ok && row.completed;
    }
    return ok ? 0 : 1;
}
