/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The options of the collectives beyond the ring all-reduce and the all-to-all: the training
// loop, concurrent jobs and the trace replay.

#include "experiment-options.h"
#include "option-parser.h"

#include "ns3/chakra-trace-replay.h"
#include "ns3/halving-doubling-all-reduce.h"
#include "ns3/job-placement.h"
#include "ns3/nccl-collective.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <map>
#include <string>
#include <vector>

namespace ns3
{

namespace
{
/// The collectives a training loop can run.
const std::vector<std::string> g_collectives = {"allreduce",
                                                "allgather",
                                                "reducescatter",
                                                "butterfly",
                                                "alltoall"};

} // namespace

void
ExperimentOptions::RegisterCollectiveOptions()
{
    OptionRegistry& o = m_options;
    o.AddRange("iterations",
               "training: iterations of compute then collective (iterations)",
               &iterations,
               OptionRegistry::Fixed(1),
               OptionRegistry::Fixed(100000));
    o.Add("computeTime",
          "training: compute phase before the collective of every iteration (Time, 0 to 10s)",
          &computeTime,
          [this]() {
              m_parsed.computeTime = OptionParser::TimeOrExit("--computeTime", computeTime);
              if (m_parsed.computeTime.IsNegative() || m_parsed.computeTime > Seconds(10))
              {
                  OptionParser::Exit("--computeTime: " + computeTime +
                                     " is out of range; allowed: a Time in [0, 10s]");
              }
          });
    o.AddChoice("collective",
                "training: collective of every iteration (allreduce, allgather, reducescatter, "
                "butterfly or alltoall)",
                &collective,
                g_collectives);
    o.Add("jobs",
          "collective patterns: concurrent jobs on disjoint host sets, each running the pattern "
          "(1 to hosts / 2)",
          &jobs,
          [this]() {
              uint32_t most = std::max<uint32_t>(1, GetHosts() / 2);
              OptionParser::CheckRangeOrExit("--jobs", jobs, 1, most);
              if (jobs > 1 && GetCollectiveKind().empty())
              {
                  OptionParser::Exit("--jobs: " + pattern +
                                     " is not a collective; allowed with it: 1 (more with "
                                     "allreduce, allgather, reducescatter, butterfly, alltoall "
                                     "or training)");
              }
          });
    o.AddChoice("jobLayout",
                "jobs: how hosts are dealt to jobs (contiguous: blocks of consecutive hosts; "
                "interleaved: host i to job i mod jobs)",
                &jobLayout,
                {"contiguous", "interleaved"});
    o.AddCheck([this]() {
        if (GetCollectiveKind() != "butterfly")
        {
            return;
        }
        std::string what = pattern == "training" ? "--collective" : "--pattern";
        if (jobs <= 1 && !HalvingDoublingAllReduce::IsValidSize(GetHosts()))
        {
            OptionParser::Exit(what + ": butterfly needs a power-of-two number of hosts, not " +
                               std::to_string(GetHosts()) + "; allowed: 2, 4, 8, 16, ...");
        }
        JobPlacement::Layout layout = JobPlacement::Layout::CONTIGUOUS;
        JobPlacement::LayoutFromName(jobLayout, layout);
        for (const std::vector<uint32_t>& job : JobPlacement::Split(GetHosts(), jobs, layout))
        {
            if (!HalvingDoublingAllReduce::IsValidSize(static_cast<uint32_t>(job.size())))
            {
                OptionParser::Exit("--jobs: " + what.substr(2) +
                                   "=butterfly needs a power-of-two number of hosts in every "
                                   "job, not " +
                                   std::to_string(job.size()) + " (" + std::to_string(GetHosts()) +
                                   " hosts in " + std::to_string(jobs) +
                                   " jobs); allowed: a number of jobs "
                                   "that divides the hosts into 2, 4, 8, ... each");
            }
        }
    });
}

void
ExperimentOptions::RegisterNcclOptions()
{
    OptionRegistry& o = m_options;
    o.AddAttribute("ncclOperation", "ns3::NcclCollective::Operation");
    o.AddAttribute("ncclAlgorithm", "ns3::NcclCollective::Algorithm");
    o.AddAttribute("ncclChannels", "ns3::NcclCollective::Channels");
    o.AddAttribute("ncclChunkBytes",
                   "ns3::NcclCollective::ChunkBytes",
                   AttributeAlias::Unit::BYTES);
    o.AddAttribute("ncclChunkSteps", "ns3::NcclCollective::ChunkSteps");
    o.AddAttribute("ncclSlots", "ns3::NcclCollective::Slots");
    o.AddAttribute("qpsPerConnection", "ns3::NcclCollective::QpsPerConnection");
    o.AddAttribute("splitDataOnQps", "ns3::NcclCollective::SplitDataOnQps");
    o.AddAttribute("ncclRoot", "ns3::NcclCollective::Root");
    o.AddAttribute("ncclAllToAllWindow", "ns3::NcclCollective::AllToAllWindow");
    o.AddAttribute("ncclPxn", "ns3::NcclCollective::Pxn");
    o.AddCheck([this]() {
        if (pattern != "nccl")
        {
            return;
        }
        // The schedule's own check, on the attribute defaults the options set.
        Ptr<NcclCollective> c = CreateObject<NcclCollective>();
        c->SetAttribute("DataBytes", UintegerValue(m_parsed.flowBytes));
        c->SetHosts(GetHosts());
        c->SetGpusPerServer(static_cast<uint32_t>(GetAlias("gpusPerServer").GetUnsigned()));
        std::string error = c->Check();
        if (!error.empty())
        {
            // The schedule names its parameters; give the option of each.
            static const std::map<std::string, std::string> options = {
                {"bytes", "--flowSize"},
                {"channels", "--ncclChannels"},
                {"chunkBytes", "--ncclChunkBytes"},
                {"chunkSteps", "--ncclChunkSteps"},
                {"slots", "--ncclSlots"},
                {"qpsPerConnection", "--qpsPerConnection"},
                {"algorithm", "--ncclAlgorithm"},
                {"root", "--ncclRoot"},
                {"allToAllWindow", "--ncclAllToAllWindow"},
                {"communicator", "--pattern=nccl: the hosts"},
            };
            const std::string parameter = error.substr(0, error.find_first_of(" :"));
            auto it = options.find(parameter);
            OptionParser::Exit((it == options.end() ? "--pattern=nccl" : it->second) + ": " +
                               error);
        }
    });
}

void
ExperimentOptions::RegisterTraceOptions()
{
    OptionRegistry& o = m_options;
    // Before --traceFile, whose check reads the file with it.
    o.AddChoice("traceStartUnit",
                "trace: unit of the start times of htsim connection-matrix lines (ps: htsim's "
                "ConnectionMatrix and the REPS artifact; us: uet-htsim's htsim_uec, which reads "
                "them as whole microseconds)",
                &traceStartUnit,
                {"ps", "us"});
    o.Add("traceFile",
          "trace: flow trace to replay, one flow per line 'start src dst bytes "
          "[after=ID|after=line:L]' (a file; see data/example.trace)",
          &traceFile,
          [this]() {
              if (pattern != "trace" && !traceFile.empty())
              {
                  OptionParser::Exit("--traceFile: only used by --pattern=trace; allowed: "
                                     "leave it out, or give --pattern=trace");
              }
              if (pattern != "trace")
              {
                  return;
              }
              std::string error;
              if (traceFile.empty())
              {
                  OptionParser::Exit("--traceFile: --pattern=trace needs a trace file; "
                                     "allowed: the path of a readable flow trace");
              }
              m_trace.SetMatrixStartUnit(traceStartUnit == "us" ? 1000000 : 1);
              if (!m_trace.Load(traceFile, GetHosts(), error))
              {
                  OptionParser::Exit("--traceFile: " + error);
              }
          });
}

const FlowTrace&
ExperimentOptions::GetTrace() const
{
    return m_trace;
}

void
ExperimentOptions::RegisterChakraOptions()
{
    m_options.AddAttribute("chakraPeakFlops", "ns3::ChakraTraceReplay::PeakFlops");
    m_options.AddAttribute("chakraMemoryBandwidth", "ns3::ChakraTraceReplay::MemoryBandwidth");
    m_options.AddCheck([this]() {
        for (const char* name : {"chakraPeakFlops", "chakraMemoryBandwidth"})
        {
            const std::string value = GetAlias(name).GetText();
            if (pattern != "chakra" && value != "0")
            {
                OptionParser::Exit(std::string("--") + name + ": only used by --pattern=chakra; " +
                                   "allowed: leave it out, or give --pattern=chakra");
            }
        }
    });
    m_options.Add(
        "chakraTrace",
        "chakra: Chakra execution trace to replay, the path of its per-rank files without "
        "'.<rank>.et' (PREFIX.0.et, PREFIX.1.et, ...; rank r runs on host r; "
        "utils/chakra-generate.py writes such traces) (a file prefix)",
        &chakraTrace,
        [this]() {
            if (pattern != "chakra" && !chakraTrace.empty())
            {
                OptionParser::Exit("--chakraTrace: only used by --pattern=chakra; allowed: "
                                   "leave it out, or give --pattern=chakra");
            }
            if (pattern != "chakra")
            {
                return;
            }
            if (chakraTrace.empty())
            {
                OptionParser::Exit("--chakraTrace: --pattern=chakra needs a trace; allowed: the "
                                   "prefix PREFIX of readable files PREFIX.0.et, PREFIX.1.et, ...");
            }
            std::string error;
            if (!m_chakra.Load(chakraTrace, error))
            {
                OptionParser::Exit("--chakraTrace: " + error);
            }
            error = m_chakra.CheckHosts(GetHosts());
            if (!error.empty())
            {
                OptionParser::Exit("--chakraTrace: " + error);
            }
            // Its collectives, with the attribute defaults the NCCL options set.
            Ptr<ChakraTraceReplay> replay = CreateObject<ChakraTraceReplay>();
            replay->SetGpusPerServer(
                static_cast<uint32_t>(GetAlias("gpusPerServer").GetUnsigned()));
            error = replay->SetTrace(m_chakra);
            replay->Dispose();
            if (!error.empty())
            {
                OptionParser::Exit("--chakraTrace: " + error);
            }
        });
}

const ChakraTrace&
ExperimentOptions::GetChakraTrace() const
{
    return m_chakra;
}

std::string
ExperimentOptions::GetCollectiveKind() const
{
    if (pattern == "training")
    {
        return collective;
    }
    for (const std::string& c : g_collectives)
    {
        if (pattern == c)
        {
            return c;
        }
    }
    return "";
}

} // namespace ns3
