/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fabric-experiment.h"

#include "distributed-run.h"
#include "experiment-run.h"
#include "option-parser.h"

#include "ns3/abort.h"
#include "ns3/log.h"

#include <sstream>

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
    // An MPI run: every rank simulates, rank 0 alone holds the gathered results and writes.
    std::ostringstream otherRank;
    std::ostream& out = DistributedRun::GetRank() == 0 ? os : otherRank;
    PrintSetup(out);
    for (const PathSelectorNames::Choice& choice : GetSelectors())
    {
        report.AddResult(Run(choice));
        otherRank.str("");
    }
    out << "\n";
    report.PrintTable(out);
    if (DistributedRun::GetRank() == 0)
    {
        WriteOutputs(report);
    }
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
