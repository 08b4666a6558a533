/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The fault options of ExperimentOptions: degraded and failed uplinks, the failure schedule,
// failed cables, and the slow links of uet-htsim's -failed N.

#include "experiment-options.h"
#include "option-parser.h"

#include "ns3/log.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ExperimentOptionsFaults");

void
ExperimentOptions::RegisterFaultOptions()
{
    OptionRegistry& o = m_options;
    // How many uplinks may be picked: those of one leaf, or of every leaf.
    auto uplinks = [this](int32_t leaf) {
        uint32_t nLeaves = tiers == 3 ? pods * leaves : leaves;
        // Every plane's uplinks (of the leaf of that number in every plane).
        return (leaf >= 0 ? spines : nLeaves * spines) * planes;
    };
    auto lastLeaf = [this]() { return (tiers == 3 ? pods * leaves : leaves) - 1.0; };
    o.Add("degradedLinks", "Leaf uplinks slowed down to --degradedRate (links)", &degradedLinks);
    o.AddRate("degradedRate",
              "Rate of the degraded links (DataRate, e.g. 200Gbps)",
              &degradedRate,
              &m_parsed.degradedRate);
    o.Add("degradeLeaf",
          "Degrade the first uplinks of this leaf; -1: uplinks drawn at random (leaf index)",
          &degradeLeaf,
          [this, uplinks, lastLeaf]() {
              OptionParser::CheckRangeOrExit("--degradeLeaf", degradeLeaf, -1, lastLeaf());
              OptionParser::CheckRangeOrExit("--degradedLinks",
                                             degradedLinks,
                                             0,
                                             uplinks(degradeLeaf));
          });
    o.Add("failedLinks", "Leaf uplinks that fail (links)", &failedLinks);
    o.AddTime("failAt", "When the first failure happens (Time)", &failAt, &m_parsed.failAt);
    o.AddTime("failFor",
              "How long each failed link stays down; 0: for good (Time)",
              &failFor,
              &m_parsed.failFor);
    o.AddTime("failGap",
              "Time between two successive failures (Time)",
              &failGap,
              &m_parsed.failGap);
    o.Add("failLeaf",
          "Fail the first uplinks of this leaf; -1: uplinks drawn at random (leaf index)",
          &failLeaf,
          [this, uplinks, lastLeaf]() {
              OptionParser::CheckRangeOrExit("--failLeaf", failLeaf, -1, lastLeaf());
              OptionParser::CheckRangeOrExit("--failedLinks", failedLinks, 0, uplinks(failLeaf));
          });
    o.AddAttribute("reconverge",
                   "ns3::ClosPlane::RoutingConvergenceDelay",
                   AttributeAlias::Unit::NEVER);
    o.AddAttribute("failedCables", "ns3::CableFailureController::MaxShare");
    o.AddAttribute("cableFailStart", "ns3::CableFailureController::StartTime");
    o.AddAttribute("cableFailPeriod", "ns3::CableFailureController::Period");
    o.Add("failureFile",
          "Failure schedule: one event per line, '<time> <element> <action> [<value>...]', e.g. "
          "'20us link:leaf0-spine1 down' or '0 switch:spine2 flap 5us 50us 10' (path; empty: "
          "none; format in the manual)",
          &failureFile,
          [this]() {
              m_failureEvents.clear();
              m_htsimCables = FailureSchedule::HtsimCableFailures();
              if (failureFile.empty())
              {
                  return;
              }
              std::ifstream file(failureFile);
              std::ostringstream text;
              text << file.rdbuf();
              std::string error;
              if (file && FailureSchedule::IsHtsimFailures(text.str()))
              {
                  error = FailureSchedule::ParseHtsimFailures(text.str(), m_htsimCables);
                  error = error.empty() ? "" : failureFile + ": " + error;
              }
              else
              {
                  error = FailureSchedule::Load(failureFile, m_failureEvents);
              }
              if (!error.empty())
              {
                  OptionParser::Exit("--failureFile: " + error);
              }
          });
}

void
ExperimentOptions::RegisterSlowLinkOptions()
{
    OptionRegistry& o = m_options;
    // uet-htsim's -failed N (FatTreeTopology: _failed_link_ratio 0.25): the links keep a share
    // of their rate, and of their queue and ECN thresholds so that they hold as much delay.
    o.Add("slowLinks",
          "Links slowed down as uet-htsim's -failed N does, with their egress queues and ECN "
          "thresholds scaled by --slowLinkFactor: 3 tiers, the core-to-aggregation direction "
          "of the l-th core link of aggregation switch g (over all pods) when l + g x "
          "aggsPerPod < N; 2 tiers, both directions of every link of the first N spines "
          "(links; 0: none)",
          &slowLinks,
          [this]() {
              if (slowLinks == 0)
              {
                  return;
              }
              const double max = tiers == 3 ? static_cast<double>(pods) * cores : spines;
              OptionParser::CheckRangeOrExit(
                  tiers == 3 ? "--slowLinks (3 tiers: up to pods x cores agg-core links)"
                             : "--slowLinks (2 tiers: up to --spines spines)",
                  slowLinks,
                  0,
                  max);
              if (planes > 1)
              {
                  OptionParser::Exit("--slowLinks: " + std::to_string(slowLinks) +
                                     " with --planes=" + std::to_string(planes) +
                                     " is not supported; allowed: --planes=1");
              }
          });
    o.AddRange("slowLinkFactor",
               "Share of the link rate, queue size and ECN thresholds the --slowLinks keep "
               "(uet-htsim: 0.25; (0, 1], queue and thresholds rounded to whole packets)",
               &slowLinkFactor,
               OptionRegistry::Fixed(1e-6),
               OptionRegistry::Fixed(1));
}

std::vector<std::pair<uint32_t, uint32_t>>
ExperimentOptions::GetSlowLinkSelection() const
{
    std::vector<std::pair<uint32_t, uint32_t>> links;
    if (tiers == 2)
    {
        for (uint32_t s = 0; s < std::min(slowLinks, spines); ++s)
        {
            links.emplace_back(s, 0);
        }
        return links;
    }
    const uint32_t aggs = pods * spines;
    const uint32_t perAgg = spines > 0 ? cores / spines : 0;
    for (uint32_t g = 0; g < aggs; ++g)
    {
        for (uint32_t l = 0; l < perAgg; ++l)
        {
            if (static_cast<uint64_t>(l) + static_cast<uint64_t>(g) * spines < slowLinks)
            {
                links.emplace_back(g, l);
            }
        }
    }
    return links;
}

ExperimentOptions::SlowQueue
ExperimentOptions::GetSlowLinkQueue() const
{
    auto scale = [this](uint64_t packets) {
        return static_cast<uint32_t>(std::llround(static_cast<double>(packets) * slowLinkFactor));
    };
    SlowQueue q;
    q.size = std::max<uint32_t>(1, scale(GetAlias("queuePackets").GetUnsigned()));
    q.kmax = std::min(q.size, std::max<uint32_t>(1, scale(GetAlias("ecnKmax").GetUnsigned())));
    q.kmin = std::min(q.kmax - 1, scale(GetAlias("ecnKmin").GetUnsigned()));
    return q;
}

const std::vector<FailureSchedule::Event>&
ExperimentOptions::GetFailureEvents() const
{
    return m_failureEvents;
}

const FailureSchedule::HtsimCableFailures&
ExperimentOptions::GetHtsimCableFailures() const
{
    return m_htsimCables;
}
} // namespace ns3
