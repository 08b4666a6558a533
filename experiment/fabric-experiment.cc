/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fabric-experiment.h"

#include "experiment-run.h"
#include "option-parser.h"

#include "ns3/abort.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FabricExperiment");

void
FabricExperiment::SetBuiltCallback(BuiltCallback cb)
{
    m_built = cb;
}

const FabricExperiment::BuiltCallback&
FabricExperiment::GetBuiltCallback() const
{
    return m_built;
}

RunResult
FabricExperiment::Run(const PathSelectorNames::Choice& choice)
{
    NS_LOG_FUNCTION(this << choice.name);
    NS_ABORT_MSG_UNLESS(IsChecked(), "FabricExperiment: call Check() before Run()");
    ExperimentRun run(*this, choice);
    return run.Execute();
}

void
FabricExperiment::RunAll(std::ostream& os, ExperimentReport& report)
{
    NS_LOG_FUNCTION(this);
    FillConfig(report);
    PrintSetup(os);
    for (const PathSelectorNames::Choice& choice : GetSelectors())
    {
        report.AddResult(Run(choice));
    }
    os << "\n";
    report.PrintTable(os);
    WriteOutputs(report);
}

void
FabricExperiment::WriteOutputs(const ExperimentReport& report) const
{
    std::string error;
    if (!json.empty() && !report.WriteJson(json, error))
    {
        OptionParser::Exit("--json: " + error);
    }
    if (!csv.empty() && !report.WriteCsv(csv, error))
    {
        OptionParser::Exit("--csv: " + error);
    }
}

} // namespace ns3
