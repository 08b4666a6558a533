/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "python-experiment.h"

#include "python-exit-guard.h"
#include "python-simulator.h"
#include "python-trace.h"

#include "ns3/clos-fabric.h"
#include "ns3/config.h"
#include "ns3/global-value.h"
#include "ns3/rdma-congestion-control.h"
#include "ns3/rdma-queue-pair.h"
#include "ns3/simulator.h"
#include "ns3/string.h"

#include <sstream>

namespace py = pybind11;

namespace ns3
{

namespace
{

/**
 * Bind one of ns-3's global values that a command line may set (--RngSeed=2), with a check
 * first (ns-3 aborts on a value it cannot read).
 * \param name the global value
 * \param value its value
 * \return false when \p name is none of them
 */
bool
ApplyGlobal(const std::string& name, const std::string& value)
{
    std::string error;
    bool ok = true;
    if (name == "RngSeed")
    {
        uint64_t seed = 0;
        ok = OptionParser::ParseUnsigned("--RngSeed", value, 1, UINT32_MAX, seed, error);
    }
    else if (name == "ChecksumEnabled")
    {
        bool b = false;
        ok = OptionParser::ParseBool("--ChecksumEnabled", value, b, error);
    }
    else if (name == "SchedulerType")
    {
        TypeId tid;
        ok = TypeId::LookupByNameFailSafe(value, &tid) &&
             tid.IsChildOf(TypeId::LookupByName("ns3::Scheduler"));
        error = "--SchedulerType: '" + value +
                "' is not a scheduler; allowed: the TypeId of a Scheduler "
                "(ns3::PriorityQueueScheduler, "
                "the default, ns3::MapScheduler, ns3::HeapScheduler, ns3::ListScheduler, "
                "ns3::CalendarScheduler)";
    }
    else
    {
        return false;
    }
    if (!ok)
    {
        throw py::value_error(error);
    }
    GlobalValue::Bind(name, StringValue(value));
    return true;
}

/**
 * \param name an option of the experiment, an attribute default (ns3::Type::Attribute) or an
 *        ns-3 global value (RngSeed, SchedulerType, ...)
 * \param value its value
 * \param exp the experiment it is given to
 */
void
ApplyOption(const std::string& name, const std::string& value, FabricExperiment& exp)
{
    std::string error;
    if (exp.Set(name, value, error))
    {
        return;
    }
    if (name.find("::") != std::string::npos)
    {
        // --ns3::Type::Attribute=value on the command line: a default for every object made.
        std::string why;
        if (!OptionParser::CheckAttributeDefault(name, value, why))
        {
            throw py::value_error(why);
        }
        Config::SetDefault(name, StringValue(value));
        return;
    }
    if (ApplyGlobal(name, value))
    {
        return;
    }
    throw py::value_error(error);
}

/// Resets ns-3's attribute defaults and global values when it goes out of scope.
struct ConfigResetAtExit
{
    ~ConfigResetAtExit()
    {
        Config::Reset();
    }
};

} // namespace

PythonExperiment::PythonExperiment(Options options)
    : m_options(std::move(options))
{
    ConfigResetAtExit reset;
    Prepare({});
}

std::unique_ptr<FabricExperiment>
PythonExperiment::Prepare(const Options& extra) const
{
    PythonExitGuard guard;
    Config::Reset();
    OptionParser::PreferFastScheduler(); // as the programs do; SchedulerType= still chooses
    auto exp = std::make_unique<FabricExperiment>();
    for (const auto& [name, value] : m_options)
    {
        ApplyOption(name, value, *exp);
    }
    for (const auto& [name, value] : extra)
    {
        ApplyOption(name, value, *exp);
    }
    exp->Check();
    return exp;
}

std::string
PythonExperiment::GetConfig() const
{
    ConfigResetAtExit reset;
    std::unique_ptr<FabricExperiment> exp = Prepare({});
    ExperimentReport report;
    exp->FillConfig(report);
    return report.ToJson(-1);
}

std::pair<std::string, std::string>
PythonExperiment::Run(const std::vector<std::string>& lb)
{
    ConfigResetAtExit reset;
    Options extra;
    if (!lb.empty())
    {
        extra.emplace_back("lb", OptionParser::Join(lb, ","));
    }
    std::unique_ptr<FabricExperiment> exp = Prepare(extra);
    exp->SetBuiltCallback(MakeCallback(&PythonExperiment::Built, this));
    ExperimentReport report;
    exp->FillConfig(report);
    std::ostringstream text;
    exp->PrintSetup(text);
    PythonExitGuard guard;
    try
    {
        for (const PathSelectorNames::Choice& choice : exp->GetSelectors())
        {
            report.AddResult(exp->Run(choice));
            PythonTraceHooks::ThrowIfFailed();
            PythonTraceHooks::Clear();
        }
    }
    catch (...)
    {
        // A run that stopped half-way (a hook raised, a refusal while building): its objects
        // go with the simulator, the hooks with them.
        PythonSimulator::Destroy();
        throw;
    }
    PythonSimulator::Destroy(); // objects of the runs are gone: their handles must raise
    text << "\n";
    report.PrintTable(text);
    exp->WriteOutputs(report); // json= and csv=, as the command line writes them
    return {report.ToJson(2), text.str()};
}

void
PythonExperiment::Connect(const std::string& target, py::function fn, bool context)
{
    const std::size_t cut = target.rfind('/');
    if (cut == std::string::npos || cut + 1 == target.size())
    {
        throw py::value_error("connect: '" + target +
                              "' names no trace source; allowed: QueuePair/NAME, "
                              "PathSelector/NAME, CongestionControl/NAME, Fabric/NAME or a "
                              "Config path ending in /NAME");
    }
    std::string kind = target.substr(0, cut);
    std::string source = target.substr(cut + 1);
    std::string error;
    if (kind == "QueuePair" || kind == "PathSelector" || kind == "CongestionControl")
    {
        error = PythonTraceHooks::CheckQueuePairSource(kind, source);
    }
    else if (kind == "Fabric")
    {
        error = PythonTraceHooks::CheckSource(ClosFabric::GetTypeId(), source);
    }
    else if (kind.empty() || kind[0] != '/')
    {
        error = "connect: unknown target '" + kind +
                "'; allowed: QueuePair, PathSelector, CongestionControl, Fabric or a Config "
                "path (starting with /)";
    }
    if (!error.empty())
    {
        throw py::value_error(error);
    }
    m_hooks.push_back(Hook{kind, source, std::move(fn), context});
}

void
PythonExperiment::Built(Ptr<ClosFabric> fabric, const std::vector<Ptr<RdmaQueuePair>>& senders)
{
    for (const Hook& hook : m_hooks)
    {
        if (hook.kind != "Fabric" && hook.kind[0] != '/')
        {
            PythonTraceHooks::ConnectQueuePairs(senders,
                                                hook.kind,
                                                hook.source,
                                                hook.fn,
                                                hook.context);
            continue;
        }
        std::vector<std::pair<Ptr<Object>, std::string>> objects;
        if (hook.kind == "Fabric")
        {
            objects.emplace_back(fabric, "Fabric");
        }
        else
        {
            Config::MatchContainer matches = Config::LookupMatches(hook.kind);
            for (std::size_t i = 0; i < matches.GetN(); ++i)
            {
                objects.emplace_back(matches.Get(i), matches.GetMatchedPath(i));
            }
        }
        for (const auto& [object, where] : objects)
        {
            TypeId::TraceSourceInformation info;
            if (!object || !object->GetInstanceTypeId().LookupTraceSourceByName(hook.source, &info))
            {
                continue; // a matched object without the source
            }
            std::string error = PythonTraceHooks::Connect(PeekPointer(object),
                                                          hook.source,
                                                          hook.fn,
                                                          hook.context ? where : "");
            if (!error.empty())
            {
                throw py::value_error(error);
            }
        }
    }
}

std::vector<std::string>
PythonExperiment::GetOptionNames()
{
    ConfigResetAtExit reset;
    FabricExperiment exp;
    return exp.GetOptionNames();
}

} // namespace ns3
