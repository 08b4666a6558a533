/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// --systems: a run on ns-3's MPI engine, and what such a run refuses.

#include "distributed-run.h"
#include "experiment-options.h"
#include "option-parser.h"

#include <algorithm>
#include <string>
#include <vector>

namespace ns3
{

namespace
{

/// The patterns whose flows are all known before the run: a rank starts those of its hosts.
const std::vector<std::string> g_distributedPatterns =
    {"permutation", "tornado", "incast", "outcastincast", "single", "bidir", "websearch", "hadoop"};

} // namespace

void
ExperimentOptions::RegisterDistributedOptions()
{
    OptionRegistry& o = m_options;
    o.Add("systems",
          "MPI ranks the fabric is cut into, each a process of mpirun -np N (whole leaves with "
          "their hosts in 2 tiers, whole pods in 3 tiers; needs an ns-3 tree configured with "
          "--enable-mpi; 1 to leaves or pods)",
          &systems);
    // Registered last: it starts the MPI engine once every other option is known to be good.
    o.AddCheck([this]() {
        const uint32_t groups = tiers == 3 ? pods : leaves;
        const std::string what = tiers == 3 ? "pods" : "leaves";
        if (systems < 1 || systems > groups)
        {
            OptionParser::Exit("--systems: " + std::to_string(systems) +
                               " is out of range; allowed: 1 to " + std::to_string(groups) +
                               " (the " + what + ": a rank holds whole " + what + ")");
        }
        if (systems > 1 && !DistributedRun::IsAvailable())
        {
            // No MPI engine in this build: say that before anything else.
            OptionParser::Exit("--systems: " + DistributedRun::Enable(systems));
        }
        if (systems > 1)
        {
            // What a rank cannot run or measure alone.
            auto refuse = [this](bool bad, const std::string& what) {
                if (bad)
                {
                    OptionParser::Exit("--systems: " + std::to_string(systems) +
                                       " must be 1 with " + what);
                }
            };
            refuse(std::find(g_distributedPatterns.begin(), g_distributedPatterns.end(), pattern) ==
                       g_distributedPatterns.end(),
                   "--pattern=" + pattern +
                       " (a collective waits for flows of other ranks; the patterns allowed with "
                       "more ranks: permutation, tornado, incast, websearch, hadoop)");
            refuse(!m_parsed.linkDelay.IsStrictlyPositive(),
                   "--linkDelay=0 (the links between ranks give the MPI engine its lookahead, "
                   "which must be > 0)");
            refuse(pfc, "--pfc (PAUSE frames are handed to the far end directly)");
            refuse(tcpBackground > 0, "--tcpBackground (its completion is counted in one process)");
            refuse(failedLinks > 0 || !failureFile.empty() ||
                       std::stod(GetAlias("failedCables").GetText()) > 0,
                   "--failedLinks, --failedCables or --failureFile (link failures and route "
                   "changes are not synchronized between ranks)");
            refuse(m_parsed.sample.IsStrictlyPositive(),
                   "--sampleInterval=" + sampleInterval +
                       " (the time series are sampled per process and not gathered; give "
                       "--sampleInterval=0)");
            refuse(!pcap.empty(), "--pcap (every process would write the same capture files)");
        }
        std::string error = DistributedRun::Enable(systems);
        if (!error.empty())
        {
            OptionParser::Exit("--systems: " + error);
        }
    });
}

} // namespace ns3
