/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "experiment-options.h"

#include "option-parser.h"

#include "ns3/clos-fabric-helper.h"
#include "ns3/fabric-trace-helper.h"
#include "ns3/flow-size-cdf.h"
#include "ns3/log.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <cmath>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ExperimentOptions");

namespace
{

const std::vector<std::string> g_patterns = {"permutation",
                                             "tornado",
                                             "incast",
                                             "outcastincast",
                                             "single",
                                             "bidir",
                                             "alltoall",
                                             "allreduce",
                                             "allgather",
                                             "reducescatter",
                                             "butterfly",
                                             "training",
                                             "trace",
                                             "nccl",
                                             "chakra",
                                             "websearch",
                                             "hadoop"};

} // namespace

ExperimentOptions::ExperimentOptions()
    : pattern("permutation"),
      flowSize("2MiB"),
      load(0.5),
      duration("100us"),
      cdf(""),
      incastSenders(8),
      outcastFlows(9),
      qpsPerPeer(1),
      ring("interleaved"),
      iterations(4),
      computeTime("10us"),
      collective("allreduce"),
      jobs(1),
      jobLayout("contiguous"),
      traceFile(""),
      traceStartUnit("ps"),
      chakraTrace(""),
      background(0),
      backgroundSize("8MiB"),
      tcpBackground(0),
      tcpBackgroundSize("8MiB"),
      tcpMinRto("1ms"),
      tcpVariant(""),
      degradedLinks(0),
      degradedRate("200Gbps"),
      degradeLeaf(-1),
      failedLinks(0),
      failAt("20us"),
      failFor("0"),
      failGap("0"),
      failLeaf(-1),
      failureFile(""),
      slowLinks(0),
      slowLinkFactor(0.25),
      rngRun(RngSeedManager::GetRun()),
      startTime("1us"),
      stopTime("100ms"),
      sampleInterval("10us"),
      linkSeries(false),
      json(""),
      csv(""),
      pcap(""),
      pcapNodes("hosts"),
      pcapSnapLen(0),
      quiet(false),
      systems(1)
{
    RegisterWorkloadOptions();
    RegisterIncastOptions();
    RegisterCollectiveOptions();
    RegisterTraceOptions();
    RegisterNcclOptions();
    RegisterChakraOptions();
    RegisterBackgroundOptions();
    RegisterFaultOptions();
    RegisterSlowLinkOptions();
    RegisterRunOptions();
    RegisterOutputOptions();
    RegisterDistributedOptions();
}

// Every help text ends with the unit or the allowed values, in parentheses.

void
ExperimentOptions::RegisterWorkloadOptions()
{
    OptionRegistry& o = m_options;
    o.AddChoice("pattern",
                "Traffic pattern (permutation, tornado, incast, outcastincast, single, bidir, "
                "alltoall, allreduce, allgather, reducescatter, butterfly, training, trace, "
                "nccl, chakra, websearch or hadoop; nccl: the NCCL-style collective "
                "--ncclOperation with --ncclAlgorithm, channels and queue pairs per connection; "
                "chakra: the Chakra execution trace --chakraTrace; single: one flow "
                "from host 0 to the last host; bidir: "
                "one each way; outcastincast: hosts 1 to --incastSenders into host 0, hosts 2 "
                "on also sending --outcastFlows flows each elsewhere)",
                &pattern,
                g_patterns);
    o.Add("flowSize",
          "Bytes per flow; alltoall: per pair of hosts; allreduce, allgather, reducescatter, "
          "butterfly: data per host; training: that of its --collective (bytes with optional "
          "unit, e.g. 4096, 64KiB, 8MiB, 1MB)",
          &flowSize,
          [this]() {
              m_parsed.flowBytes = OptionParser::BytesOrExit("--flowSize", flowSize, 1);
              std::string kind = GetCollectiveKind();
              if (!kind.empty() && kind != "alltoall" && m_parsed.flowBytes < GetHosts())
              {
                  OptionParser::Exit("--flowSize: " + kind + " needs at least one byte per host (" +
                                     std::to_string(GetHosts()) + " bytes)");
              }
              if (kind == "alltoall" && m_parsed.flowBytes < qpsPerPeer)
              {
                  OptionParser::Exit("--flowSize: alltoall needs at least one byte per queue pair");
              }
          });
    o.Add("load",
          "websearch/hadoop: offered load per host (fraction of the link rate, 0 to 1)",
          &load,
          [this]() {
              if (!(load > 0 && load <= 1))
              {
                  std::ostringstream msg;
                  msg << "--load: " << load << " is out of range; expected a value in (0, 1]";
                  OptionParser::Exit(msg.str());
              }
          });
    o.Add("duration",
          "websearch/hadoop: flows arrive during this window (Time, e.g. 100us)",
          &duration,
          [this]() {
              m_parsed.duration = OptionParser::TimeOrExit("--duration", duration);
              if ((pattern == "websearch" || pattern == "hadoop") &&
                  !m_parsed.duration.IsStrictlyPositive())
              {
                  OptionParser::Exit("--duration: must be greater than zero for " + pattern);
              }
          });
    o.Add("cdf",
          "websearch/hadoop: flow-size distribution (websearch, hadoop, or a file of '<bytes> "
          "<cumulative percent>' lines; empty: the pattern's own)",
          &cdf,
          [this]() { CheckCdf(); });
    o.AddRange("qpsPerPeer",
               "alltoall: queue pairs per pair of hosts (QPs)",
               &qpsPerPeer,
               OptionRegistry::Fixed(1),
               OptionRegistry::Fixed(1024));
    o.AddAttribute("connections", "ns3::RdmaFlowLauncher::ConnectionMapping");
    o.AddChoice("ring",
                "allreduce: ring order (sequential: host i to i+1; interleaved: each hop to the "
                "next leaf; random)",
                &ring,
                {"sequential", "interleaved", "random"});
}

void
ExperimentOptions::RegisterIncastOptions()
{
    OptionRegistry& o = m_options;
    o.Add(
        "incastSenders",
        "incast, outcastincast: senders into host 0 (hosts)",
        &incastSenders,
        [this]() {
            if (pattern == "incast" || pattern == "outcastincast")
            {
                OptionParser::CheckRangeOrExit("--incastSenders", incastSenders, 1, GetHosts() - 1);
            }
        });
    o.Add("outcastFlows",
          "outcastincast: flows each incast sender but host 1 also sends to hosts of its own, "
          "numbered on from --incastSenders + 1 (flows)",
          &outcastFlows,
          [this]() {
              if (pattern != "outcastincast")
              {
                  return;
              }
              // 1 receiver, the senders, and the outcast receivers of senders 2 on.
              const double spare = static_cast<double>(GetHosts()) - 1 - incastSenders;
              const double max = incastSenders > 1 ? std::floor(spare / (incastSenders - 1)) : 1e9;
              OptionParser::CheckRangeOrExit(
                  "--outcastFlows (with --incastSenders=" + std::to_string(incastSenders) + " on " +
                      std::to_string(GetHosts()) + " hosts)",
                  outcastFlows,
                  0,
                  max);
          });
}

void
ExperimentOptions::CheckCdf() const
{
    FlowSizeCdf sizes;
    std::string error;
    if (!sizes.Load(cdf.empty() ? (pattern == "hadoop" ? "hadoop" : "websearch") : cdf, error))
    {
        OptionParser::Exit("--cdf: " + error);
    }
    if (pattern != "websearch" && pattern != "hadoop")
    {
        return;
    }
    // Poisson arrivals: hosts x load x rate x duration / mean size flows in all.
    double flows = GetHosts() * load * m_parsed.linkRate.GetBitRate() *
                   m_parsed.duration.GetSeconds() / (8 * sizes.GetMean());
    if (flows > 1e7)
    {
        std::ostringstream msg;
        msg << "--duration, --load, --cdf: about " << flows
            << " flows would arrive (mean flow size " << sizes.GetMean()
            << " bytes); allowed: at most 10000000";
        OptionParser::Exit(msg.str());
    }
}

void
ExperimentOptions::RegisterBackgroundOptions()
{
    OptionRegistry& o = m_options;
    o.AddRange("background",
               "Share of hosts that also send one ECMP-pinned background flow (0 to 1)",
               &background,
               OptionRegistry::Fixed(0),
               OptionRegistry::Fixed(1));
    o.AddBytes("backgroundSize",
               "Size of a background flow (bytes with optional unit)",
               &backgroundSize,
               &m_parsed.backgroundBytes,
               1);
    o.AddRange("tcpBackground",
               "Share of hosts that also send one ns-3 TCP flow (BulkSend to a random other "
               "host) from the workload start (0 to 1)",
               &tcpBackground,
               OptionRegistry::Fixed(0),
               OptionRegistry::Fixed(1));
    o.AddBytes("tcpBackgroundSize",
               "Size of a TCP background flow (bytes with optional unit; 0: send until the run "
               "ends)",
               &tcpBackgroundSize,
               &m_parsed.tcpBackgroundBytes);
    o.Add("tcpMinRto",
          "Minimum retransmission timeout of the TCP background flows, also their SYN timeout "
          "and initial RTT estimate; their delayed-ACK timeout is a fifth of it (Time, > 0; "
          "ns-3's defaults: 1s, 3s, 1s, 200ms)",
          &tcpMinRto,
          [this]() {
              m_parsed.tcpMinRto = OptionParser::TimeOrExit("--tcpMinRto", tcpMinRto);
              if (!m_parsed.tcpMinRto.IsStrictlyPositive())
              {
                  OptionParser::Exit("--tcpMinRto: must be > 0, e.g. 1ms");
              }
          });
    o.Add("tcpVariant",
          "Congestion control of the TCP background flows (a TcpCongestionOps name, e.g. "
          "TcpNewReno, TcpDctcp, TcpBic, TcpCubic in newer ns-3; empty: ns-3's default)",
          &tcpVariant,
          [this]() {
              m_parsed.tcpVariant = TypeId();
              if (tcpVariant.empty())
              {
                  return;
              }
              std::string name =
                  tcpVariant.rfind("ns3::", 0) == 0 ? tcpVariant : "ns3::" + tcpVariant;
              TypeId tid;
              if (!TypeId::LookupByNameFailSafe(name, &tid) ||
                  !tid.IsChildOf(TypeId::LookupByName("ns3::TcpCongestionOps")) ||
                  !tid.HasConstructor())
              {
                  OptionParser::Exit("--tcpVariant: '" + tcpVariant +
                                     "' is not a TCP congestion control of this ns-3 (e.g. "
                                     "TcpNewReno, TcpDctcp, TcpBic, TcpVegas)");
              }
              m_parsed.tcpVariant = tid;
          });
}

void
ExperimentOptions::RegisterRunOptions()
{
    OptionRegistry& o = m_options;
    o.AddAttribute("evSpace", "ns3::PathSelector::EntropySpace");
    o.AddCheck([this]() {
        const auto space = static_cast<uint32_t>(GetAlias("evSpace").GetUnsigned());
        for (const PathSelectorNames::Choice& c : m_parsed.selectors)
        {
            PathSelectorNames::CheckEntropySpaceOrExit("--evSpace", c, space);
        }
    });
    o.Add("RngRun",
          "ns-3 run number: another run draws another workload, other hash salts and other "
          "random links (run number)",
          &rngRun,
          [this]() { RngSeedManager::SetRun(rngRun); });
    o.AddTime("startTime", "When the workload starts (Time)", &startTime, &m_parsed.start);
    o.AddTime("stopTime",
              "Simulated-time limit of a run; flows not done by then count as incomplete (Time)",
              &stopTime,
              &m_parsed.stop);
    o.AddCheck([this]() {
        if (m_parsed.stop <= m_parsed.start)
        {
            OptionParser::Exit("--stopTime: must be later than --startTime");
        }
    });
    o.AddTime("sampleInterval",
              "Interval of the time series written to the JSON; 0: none (Time)",
              &sampleInterval,
              &m_parsed.sample);
    o.AddCheck([this]() {
        const Time& sample = m_parsed.sample;
        if (sample.IsStrictlyPositive() && (m_parsed.stop - m_parsed.start) / sample > 1e6)
        {
            OptionParser::Exit("--sampleInterval: " + sampleInterval +
                               " gives more than 1000000 samples before --stopTime; allowed: 0 "
                               "(none) or at least (stopTime - startTime) / 1000000");
        }
    });
    o.AddCheck([this]() { CheckFabricShape(); });
    o.AddCheck([this]() {
        // The names of --pcapNodes, against the fabric's shape (checked above); a switch of
        // plane p > 0 (p1.leaf0) is checked as its plane-0 name, with p below --planes.
        std::string spec;
        std::istringstream items(pcapNodes);
        bool first = true;
        for (std::string item; std::getline(items, item, ','); first = false)
        {
            // One digit: at most 8 planes.
            if (item.size() > 3 && item[0] == 'p' && item[1] >= '1' && item[1] <= '9' &&
                item[2] == '.' && static_cast<uint32_t>(item[1] - '0') < planes)
            {
                item = item.substr(3);
            }
            spec += (first ? "" : ",") + item;
        }
        if (!pcapNodes.empty() && pcapNodes.back() == ',')
        {
            spec += ",";
        }
        std::string error = FabricTraceHelper::CheckNodes(spec,
                                                          tiers,
                                                          GetHosts(),
                                                          tiers == 3 ? pods * leaves : leaves,
                                                          spines,
                                                          pods,
                                                          spines,
                                                          cores);
        if (!error.empty())
        {
            OptionParser::Exit("--pcapNodes: " + error);
        }
    });
}

void
ExperimentOptions::RegisterOutputOptions()
{
    OptionRegistry& o = m_options;
    o.Add("linkSeries",
          "Also write, per --sampleInterval, every switch-to-switch link's utilization per "
          "direction and the queue depth of the 8 busiest switch ports (true/false)",
          &linkSeries);
    o.Add("json",
          "Write the JSON summary to this file (path; -: standard output)",
          &json,
          [this]() { OptionParser::CheckWritablePathOrExit("--json", json); });
    o.Add("csv",
          "Write one CSV row per flow to this file (path; -: standard output)",
          &csv,
          [this]() { OptionParser::CheckWritablePathOrExit("--csv", csv); });
    o.Add("pcap",
          "Capture the packets of the ports of --pcapNodes in pcap files "
          "PREFIX-<lb>-<node>-<peer>.pcap (path prefix; empty: none)",
          &pcap,
          [this]() { OptionParser::CheckWritablePrefixOrExit("--pcap", pcap); });
    o.Add("pcapNodes",
          "Nodes whose every port --pcap captures (hosts, switches, all, leaves, spines, aggs, "
          "cores, or a comma list of node names such as host0,leaf1,spine2)",
          &pcapNodes);
    o.Add("pcapSnapLen",
          "Bytes kept of each captured packet, from its PPP header; 0: whole packets (bytes, 0 or "
          "64 to 65535)",
          &pcapSnapLen,
          [this]() {
              if (pcapSnapLen != 0 && (pcapSnapLen < 64 || pcapSnapLen > 65535))
              {
                  OptionParser::Exit("--pcapSnapLen: " + std::to_string(pcapSnapLen) +
                                     " is out of range; allowed: 0 (whole packets) or 64 to "
                                     "65535 bytes");
              }
          });
    o.Add("quiet", "No progress lines on standard error (true/false)", &quiet);
}

void
ExperimentOptions::FillConfig(ExperimentReport& report) const
{
    m_options.FillConfig(report);
    // Values derived from the options, in the units a script reads without parsing.
    report.SetConfig("hosts", GetHosts());
    report.SetConfig("linkRate_bps", m_parsed.linkRate.GetBitRate());
    report.SetConfig("flowSize_bytes", m_parsed.flowBytes);
    // Every link runs at --linkRate: host capacity over up-link capacity is a count ratio.
    report.SetConfig("oversubscription", static_cast<double>(hostsPerLeaf) / spines);
    if (tiers == 3)
    {
        report.SetConfig("oversubscription_agg_core",
                         static_cast<double>(leaves) / (static_cast<double>(cores) / spines));
    }
    report.SetConfig("RngRun", RngSeedManager::GetRun());
    report.SetConfig("RngSeed", RngSeedManager::GetSeed());
}

void
ExperimentOptions::PrintSetup(std::ostream& os) const
{
    os << "fabric: " << tiers << " tiers, " << GetHosts() << " hosts, ";
    if (tiers == 2)
    {
        os << leaves << " leaves x " << hostsPerLeaf << " hosts, " << spines << " spines";
    }
    else
    {
        os << pods << " pods of " << leaves << " leaves x " << hostsPerLeaf << " hosts and "
           << spines << " aggregation switches, " << cores << " cores";
    }
    os << ", " << linkRate << " links, " << linkDelay << " delay, queues "
       << GetAlias("queuePackets").GetText() << " packets (ECN " << GetAlias("ecnKmin").GetText()
       << "-" << GetAlias("ecnKmax").GetText() << ")" << (trim ? ", trimming" : "");
    // Stated whenever up-links are fewer than down-links (spines fewer than hosts per leaf).
    const double leafRatio = static_cast<double>(hostsPerLeaf) / spines;
    os << "; oversubscription " << leafRatio << ":1 (" << hostsPerLeaf << " hosts x " << linkRate
       << " per leaf over " << spines << " up-links x " << linkRate << ")";
    if (tiers == 3)
    {
        os << ", agg-core " << static_cast<double>(leaves) * spines / cores << ":1";
    }
    if (slowLinks > 0)
    {
        const std::vector<std::pair<uint32_t, uint32_t>> slow = GetSlowLinkSelection();
        const SlowQueue q = GetSlowLinkQueue();
        os << "; " << slow.size()
           << (tiers == 3 ? " core-to-agg link directions" : " spines (both directions)")
           << " slowed (uet-htsim -failed " << slowLinks << ") to " << slowLinkFactor * 100
           << "% of " << linkRate << ", queues " << q.size << " packets, ECN " << q.kmin << "-"
           << q.kmax << " (the JSON's events list them)";
    }
    if (planes > 1)
    {
        os << "; " << planes << " identical planes (a NIC port per plane, plane = EV mod " << planes
           << ")";
    }
    const uint64_t gpus = GetAlias("gpusPerServer").GetUnsigned();
    if (gpus > 1)
    {
        const std::string wiring = GetAlias("wiring").GetText();
        os << "; servers of " << gpus << " GPUs (scale-up " << GetAlias("scaleUpRate").GetText()
           << ", " << GetAlias("scaleUpDelay").GetText() << "), wiring " << wiring
           << (wiring == "railonly" ? " (no spines)" : "");
    }
    os << "\n";
    PrintWorkload(os);
}

void
ExperimentOptions::PrintWorkload(std::ostream& os) const
{
    os << "workload: " << pattern;
    if (pattern == "websearch" || pattern == "hadoop")
    {
        os << " at load " << load << " for " << duration;
    }
    else if (pattern == "chakra")
    {
        os << " " << chakraTrace << ".<rank>.et (" << m_chakra.GetRanks() << " ranks)";
    }
    else if (pattern == "trace")
    {
        os << " " << traceFile;
    }
    else
    {
        os << ", " << flowSize << (pattern == "allreduce" ? " per host" : " per flow");
    }
    os << ", cc " << cc << ", EV space " << GetAlias("evSpace").GetText();
    if (degradedLinks)
    {
        os << ", " << degradedLinks << " uplinks at " << degradedRate;
    }
    if (failedLinks)
    {
        os << ", " << failedLinks << " uplinks fail at " << failAt << " for "
           << (m_parsed.failFor.IsZero() ? std::string("good") : failFor);
    }
    if (background > 0)
    {
        os << ", " << background * 100 << "% hosts send background flows";
    }
    if (tcpBackground > 0)
    {
        os << ", " << tcpBackground * 100 << "% hosts send a TCP flow ("
           << (m_parsed.tcpBackgroundBytes ? tcpBackgroundSize : std::string("unlimited"))
           << (tcpVariant.empty() ? std::string("") : ", " + tcpVariant) << ")";
    }
    os << "\n";
}

} // namespace ns3
