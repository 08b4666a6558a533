/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fabric-options.h"

#include "option-parser.h"

#include "ns3/boolean.h"
#include "ns3/clos-fabric-helper.h"
#include "ns3/flow-size-cdf.h"
#include "ns3/log.h"
#include "ns3/object-factory.h"
#include "ns3/rccc-pull-pacer.h"
#include "ns3/rccc-sender.h"
#include "ns3/rdma-congestion-control.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <fstream>
#include <limits>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FabricOptions");

namespace
{

/**
 * Exit unless a time option lies in a range.
 * \param option the option, for the message.
 * \param text its value as given.
 * \param allowed what is allowed, for the message.
 * \param ok whether it is in range.
 */
void
TimeInRangeOrExit(const std::string& option,
                  const std::string& text,
                  const std::string& allowed,
                  bool ok)
{
    if (!ok)
    {
        OptionParser::Exit(option + ": " + text + " is out of range; allowed: " + allowed);
    }
}

} // namespace

FabricOptions::FabricOptions()
    : lb("ecmp,ops,flowlet,reps"),
      tiers(2),
      leaves(0),
      hostsPerLeaf(0),
      spines(0),
      pods(0),
      cores(0),
      linkRate("400Gbps"),
      linkDelay("1us"),
      mtu(4096),
      trim(false),
      baseRtt("pair"),
      rto("reference"),
      forwarding("hash"),
      cc("window"),
      pfc(false),
      planes(1),
      m_checked(false)
{
    RegisterFabricOptions();
    RegisterServerOptions();
    RegisterLinkOptions();
    RegisterSwitchOptions();
    RegisterTransportOptions();
    RegisterAckOptions();
    RegisterPfcOptions();
}

void
FabricOptions::RegisterPfcOptions()
{
    OptionRegistry& o = m_options;
    o.Add("pfc",
          "Lossless fabric: PFC (IEEE 802.1Qbb) PAUSE frames on every link (true/false)",
          &pfc);
    o.AddAttribute("pfcMode", "ns3::PfcSwitch::ThresholdMode");
    o.AddAttribute("pfcAlpha", "ns3::PfcSwitch::Alpha");
    o.AddAttribute("pfcThreshold", "ns3::PfcSwitch::StaticThreshold", AttributeAlias::Unit::BYTES);
    o.AddAttribute("pfcBuffer", "ns3::PfcSwitch::SharedBufferSize", AttributeAlias::Unit::BYTES);
}

void
FabricOptions::RegisterFabricOptions()
{
    OptionRegistry& o = m_options;
    o.Add("lb",
          "Path selectors to compare (comma list of " +
              OptionParser::Join(PathSelectorNames::GetAvailableNames()) +
              ", or PathSelector TypeIds)",
          &lb,
          [this]() { m_parsed.selectors = PathSelectorNames::ParseListOrExit("--lb", lb); });
    o.Add("tiers",
          "Fabric tiers (2: leaf-spine, 3: pods of leaves and aggregation switches under cores)",
          &tiers,
          [this]() {
              if (tiers != 2 && tiers != 3)
              {
                  OptionParser::Exit("--tiers: " + std::to_string(tiers) +
                                     " is not allowed; allowed: 2 (leaf-spine) or 3 (pods)");
              }
              ApplyTierDefaults();
          });
    // A shape option left at 0 takes its tier's default: the REPS paper's 128-host fabrics, the
    // 2-tier one (16 leaves x 8 hosts, 8 spines) or the k = 8 fat tree (8 pods of 4 leaves x 4
    // hosts and 4 aggregation switches, 16 cores), both without oversubscription.
    o.AddRange("leaves",
               "Leaf switches; with 3 tiers, leaves per pod (switches; 0: 16 with 2 tiers, 4 "
               "with 3)",
               &leaves,
               OptionRegistry::Fixed(1),
               OptionRegistry::Fixed(4096));
    o.AddRange("hostsPerLeaf",
               "Hosts under every leaf (hosts; 0: 8 with 2 tiers, 4 with 3)",
               &hostsPerLeaf,
               OptionRegistry::Fixed(1),
               OptionRegistry::Fixed(4096));
    o.AddRange("spines",
               "Spine switches; with 3 tiers, aggregation switches per pod (switches; 0: 8 with "
               "2 tiers, 4 with 3)",
               &spines,
               OptionRegistry::Fixed(1),
               OptionRegistry::Fixed(4096));
    // Ignored with 2 tiers: any value passes.
    auto threeTiers = [this](double max) {
        return [this, max]() { return tiers == 3 ? max : 1e18; };
    };
    o.AddRange("pods",
               "Pods, 3 tiers only (pods; 0: 8)",
               &pods,
               OptionRegistry::Fixed(0),
               threeTiers(4096));
    o.AddRange("cores",
               "Core switches, 3 tiers only, a multiple of --spines (switches; 0: 16)",
               &cores,
               OptionRegistry::Fixed(0),
               threeTiers(65536));
    o.AddRange("planes",
               "Identical, disjoint network planes; every host has one NIC port per plane and "
               "a packet leaves on plane (its EV mod planes) (planes, 1 to 8)",
               &planes,
               OptionRegistry::Fixed(1),
               OptionRegistry::Fixed(8));
    o.AddCheck([this]() {
        if (planes > 1 && pfc)
        {
            OptionParser::Exit("--planes: " + std::to_string(planes) +
                               " planes with --pfc=true is not supported; allowed: --planes=1 "
                               "with --pfc, or --pfc=false");
        }
    });
    o.AddCheck([this]() {
        // In 64 bits: the product of three counts up to 4096 overflows GetHosts().
        double hosts = static_cast<double>(tiers == 3 ? pods : 1) * leaves * hostsPerLeaf;
        OptionParser::CheckRangeOrExit(tiers == 3 ? "--hosts (pods x leaves x hostsPerLeaf)"
                                                  : "--hosts (leaves x hostsPerLeaf)",
                                       hosts,
                                       2,
                                       1 << 20);
    });
}

void
FabricOptions::RegisterServerOptions()
{
    // Servers of several GPUs and their wiring to the leaves: attributes of the fabric helper.
    OptionRegistry& o = m_options;
    o.AddAttribute("gpusPerServer", "ns3::ClosFabricHelper::GpusPerServer");
    o.AddAttribute("scaleUpRate", "ns3::ClosFabricHelper::ScaleUpRate");
    o.AddAttribute("scaleUpDelay", "ns3::ClosFabricHelper::ScaleUpDelay");
    o.AddAttribute("wiring", "ns3::ClosFabricHelper::Wiring");
}

void
FabricOptions::RegisterLinkOptions()
{
    OptionRegistry& o = m_options;
    o.AddRate("linkRate",
              "Rate of every link (DataRate, e.g. 400Gbps)",
              &linkRate,
              &m_parsed.linkRate);
    o.AddTime("linkDelay",
              "Propagation delay of every link (Time, e.g. 1us)",
              &linkDelay,
              &m_parsed.linkDelay);
    o.AddRange("mtu",
               "Payload of a full packet (bytes, 64 to 9000)",
               &mtu,
               OptionRegistry::Fixed(64),
               OptionRegistry::Fixed(9000));
    o.AddAttribute("queuePackets", "ns3::EcnQueueDisc::MaxSize", AttributeAlias::Unit::PACKETS);
    o.AddAttribute("ecnKmin", "ns3::EcnQueueDisc::Kmin", AttributeAlias::Unit::PACKETS);
    o.AddAttribute("ecnKmax", "ns3::EcnQueueDisc::Kmax", AttributeAlias::Unit::PACKETS);
    o.AddCheck([this]() { CheckQueueOptions(); });
    o.Add("forwarding",
          "How switches pick among equal-cost ports (" +
              OptionParser::Join(PortSelectorNames::GetAvailableNames()) +
              ", or a PortSelector TypeId; hash: the 5-tuple with the entropy value, as ECMP "
              "switches do; random: per packet; adaptive: per packet, the port free soonest; "
              "dlb: per flowlet, the port of best recent load and queue depth; glb: per "
              "flowlet, the leaf up-link of the least congested path to the destination leaf, "
              "learnt through the fabric)",
          &forwarding,
          [this]() {
              TypeId tid;
              std::string error;
              if (!PortSelectorNames::Lookup(forwarding, tid, error))
              {
                  OptionParser::Exit("--forwarding: " + error);
              }
              m_parsed.portSelector = tid.GetName();
          });
    o.Add("trim",
          "Full switch queues trim packets to headers instead of dropping them (true/false)",
          &trim);
    o.AddAttribute("markOn", "ns3::EcnQueueDisc::MarkOn");
    o.AddAttribute("controlPriority", "ns3::EcnQueueDisc::ControlPriority");
    o.AddAttribute("lastHopEcn", "ns3::EcnQueueDisc::LastHopEcn");
}

void
FabricOptions::RegisterSwitchOptions()
{
    OptionRegistry& o = m_options;
    // The flowlet table of --forwarding=dlb and of glb, which is built on it.
    o.AddAttribute("dlbTimeout", "ns3::DlbPortSelector::FlowletTimeout");
    o.AddAttribute("dlbTableSize", "ns3::DlbPortSelector::FlowletTableSize");
    o.AddAttribute("trimMode", "ns3::EcnQueueDisc::TrimMode");
    o.AddAttribute("trimSize", "ns3::EcnQueueDisc::TrimSize");
}

void
FabricOptions::RegisterTransportOptions()
{
    OptionRegistry& o = m_options;
    o.AddChoice("baseRtt",
                "Base RTT given to each queue pair (pair: its own path's unloaded RTT; fabric: "
                "the fabric's longest), which sets its window, REPS's failure threshold and "
                "exploration, the flowlet gap",
                &baseRtt,
                {"pair", "fabric"});
    o.Add("rto",
          "Retransmission timeout of the queue pairs (reference: the fabric's longest unloaded "
          "RTT plus the drain time of four full queues, with --pfc the largest switch buffer "
          "as a full queue; basertt: 5 x the queue pair's base RTT; or a Time, e.g. 50us)",
          &rto,
          [this]() {
              m_parsed.rto = Time(0);
              if (rto != "reference" && rto != "basertt")
              {
                  m_parsed.rto =
                      OptionParser::TimeOrExit("--rto (reference, basertt or a Time)", rto);
                  TimeInRangeOrExit("--rto",
                                    rto,
                                    "reference, basertt, or a Time in (0, 10s]",
                                    m_parsed.rto.IsStrictlyPositive() &&
                                        m_parsed.rto <= Seconds(10));
              }
          });
    o.AddAttribute("minRto", "ns3::RdmaQueuePair::MinRto");
    o.AddAttribute("rtoBackoff", "ns3::RdmaQueuePair::RtoBackoff");
    o.AddAttribute("opsVariant", "ns3::OpsPathSelector::Variant");
    o.AddAttribute("freezing", "ns3::RepsPathSelector::FreezingEnabled");
    o.AddAttribute("freezeDuration", "ns3::RepsPathSelector::FreezeDuration");
    o.AddAttribute("lastHopNacks", "ns3::PathSelector::LastHopNacks");
    o.Add("cc",
          "Congestion control (" + OptionParser::Join(CongestionControlNames::GetAvailableNames()) +
              ", or an RdmaCongestionControl TypeId)",
          &cc,
          [this]() {
              TypeId tid;
              std::string error;
              if (!CongestionControlNames::Lookup(cc, tid, error))
              {
                  OptionParser::Exit("--cc: " + error);
              }
              m_parsed.ccType = tid.GetName();
              CheckCongestionControl(tid, mtu);
          });
    o.AddAttribute("credits", "ns3::RdmaQueuePair::ReceiverCredits");
    o.AddCheck([this]() { CheckReceiverCredits(); });
}

void
FabricOptions::RegisterAckOptions()
{
    OptionRegistry& o = m_options;
    o.AddAttribute("ackEvery", "ns3::RdmaQueuePair::AckEvery");
    o.AddAttribute("ackEveryBytes",
                   "ns3::RdmaQueuePair::AckEveryBytes",
                   AttributeAlias::Unit::BYTES);
    o.AddAttribute("ackDelay", "ns3::RdmaQueuePair::AckDelay");
}

void
FabricOptions::AddOptions(CommandLine& cmd)
{
    m_options.AddToCommandLine(cmd);
}

std::vector<std::string>
FabricOptions::GetOptionNames() const
{
    return m_options.GetNames();
}

void
FabricOptions::ApplyTierDefaults()
{
    NS_LOG_FUNCTION(this);
    auto orDefault = [](uint32_t& value, uint32_t def) {
        if (value == 0)
        {
            value = def;
        }
    };
    if (tiers == 3)
    {
        orDefault(leaves, 4);
        orDefault(hostsPerLeaf, 4);
        orDefault(spines, 4);
        orDefault(pods, 8);
        orDefault(cores, 16);
    }
    else
    {
        orDefault(leaves, 16);
        orDefault(hostsPerLeaf, 8);
        orDefault(spines, 8);
        orDefault(pods, 1);
        orDefault(cores, 1);
    }
}

uint32_t
FabricOptions::GetHosts() const
{
    return tiers == 3 ? pods * leaves * hostsPerLeaf : leaves * hostsPerLeaf;
}

void
FabricOptions::Check()
{
    m_options.CheckAll();
    m_checked = true;
}

bool
FabricOptions::IsChecked() const
{
    return m_checked;
}

bool
FabricOptions::Set(const std::string& name, const std::string& value, std::string& error)
{
    return m_options.Set(name, value, error);
}

void
FabricOptions::Set(const std::string& name, const std::string& value)
{
    std::string error;
    if (!Set(name, value, error))
    {
        OptionParser::Exit(error);
    }
}

const AttributeAlias&
FabricOptions::GetAlias(const std::string& name) const
{
    return m_options.GetAlias(name);
}

const OptionRegistry&
FabricOptions::GetRegistry() const
{
    return m_options;
}

void
FabricOptions::CheckQueueOptions() const
{
    // The queue disc's attributes take any size; an experiment's queues are packet counts.
    const double queue = static_cast<double>(GetAlias("queuePackets").GetUnsigned());
    const double kmin = static_cast<double>(GetAlias("ecnKmin").GetUnsigned());
    const uint64_t kmax = GetAlias("ecnKmax").GetUnsigned();
    OptionParser::CheckRangeOrExit("--queuePackets", queue, 1, 1000000);
    OptionParser::CheckRangeOrExit("--ecnKmin", kmin, 0, queue);
    OptionParser::CheckRangeOrExit("--ecnKmax", static_cast<double>(kmax), kmin, queue);
    if (static_cast<double>(kmax) <= kmin)
    {
        OptionParser::Exit("--ecnKmax: " + std::to_string(kmax) + " must be above --ecnKmin (" +
                           GetAlias("ecnKmin").GetText() +
                           "); allowed: " + std::to_string(static_cast<uint64_t>(kmin) + 1) +
                           " to --queuePackets (" + GetAlias("queuePackets").GetText() + ")");
    }
}

void
FabricOptions::CheckCongestionControl(TypeId tid, uint32_t mtu)
{
    // The attributes that contradict each other whatever the connection: Validate() on one
    // whose window is too large to matter (RdmaCongestionControl::Init() checks the others).
    ObjectFactory factory(tid.GetName());
    Ptr<RdmaCongestionControl> cc = factory.Create<RdmaCongestionControl>();
    RdmaCcContext context;
    context.mtu = mtu;
    context.bdpBytes = std::numeric_limits<uint32_t>::max();
    const std::string error = cc->Validate(context);
    if (!error.empty())
    {
        OptionParser::Exit("--cc=" + cc->GetName() + ": " + error);
    }
}

void
FabricOptions::CheckReceiverCredits()
{
    ObjectFactory factory(m_parsed.ccType.empty() ? "ns3::RdmaWindowCongestionControl"
                                                  : m_parsed.ccType);
    m_parsed.receiverCredits = GetAlias("credits").GetText() == "true" ||
                               factory.Create<RdmaCongestionControl>()->UsesReceiverCredits();
    if (!m_parsed.receiverCredits)
    {
        return;
    }
    std::string error = CreateObject<RcccPullPacer>()->Validate();
    if (error.empty())
    {
        // The shortest connection: two hosts of one leaf, four link delays and no queueing.
        RdmaCcContext context;
        context.lineRate = m_parsed.linkRate;
        context.mtu = mtu;
        context.packetBytes = mtu + 52; // IPv4, UDP, BTH, credit request, ICRC
        context.baseRtt = 4 * m_parsed.linkDelay;
        error = CreateObject<RcccSender>()->Validate(context);
    }
    if (!error.empty())
    {
        OptionParser::Exit("receiver credits (--cc=" + cc +
                           ", --credits=" + GetAlias("credits").GetText() + "): " + error);
    }
}

void
FabricOptions::CheckFabricShape() const
{
    Ptr<ClosFabricHelper> helper = CreateObject<ClosFabricHelper>();
    helper->SetAttribute("Tiers", UintegerValue(tiers));
    helper->SetAttribute("HostsPerLeaf", UintegerValue(hostsPerLeaf));
    helper->SetAttribute("Planes", UintegerValue(planes));
    helper->SetAttribute("Pfc", BooleanValue(pfc));
    if (tiers == 2)
    {
        helper->SetAttribute("Leaves", UintegerValue(leaves));
        helper->SetAttribute("Spines", UintegerValue(spines));
    }
    else
    {
        helper->SetAttribute("Pods", UintegerValue(pods));
        helper->SetAttribute("LeavesPerPod", UintegerValue(leaves));
        helper->SetAttribute("AggsPerPod", UintegerValue(spines));
        helper->SetAttribute("Cores", UintegerValue(cores));
    }
    std::string error = helper->Validate();
    if (!error.empty())
    {
        OptionParser::Exit("fabric (--tiers, --leaves, --spines, --pods, --cores, --planes, "
                           "--gpusPerServer, --wiring): " +
                           error);
    }
}

const std::vector<PathSelectorNames::Choice>&
FabricOptions::GetSelectors() const
{
    return m_parsed.selectors;
}

const FabricOptions::Parsed&
FabricOptions::GetParsed() const
{
    return m_parsed;
}

} // namespace ns3
