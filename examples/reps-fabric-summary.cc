/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Builds a Clos fabric with ClosFabricHelper, prints its summary, runs a UDP permutation
 * (every host sends to one other host, every host receives from one) with ns-3's own
 * OnOffApplication and PacketSink, and prints the load of every fabric link. The options use
 * the same names as the other examples (--failedLinks, --reconverge, --forwarding, ...).
 *
 *   ./reps-fabric-summary --leaves=8 --hostsPerLeaf=4 --spines=4
 *   ./reps-fabric-summary --fatTreeK=4 --failedLinks=2 --reconverge=50us
 */

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/reps-experiment-module.h"
#include "ns3/reps-module.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iostream>
#include <numeric>
#include <sstream>

using namespace ns3;

namespace
{

/// The options of the example.
struct Options
{
    uint32_t tiers{2};                   //!< 2 or 3.
    uint32_t leaves{8};                  //!< Leaves; with 3 tiers, leaves per pod.
    uint32_t hostsPerLeaf{4};            //!< Hosts per leaf.
    uint32_t spines{4};                  //!< Spines; with 3 tiers, aggregation switches per pod.
    uint32_t pods{2};                    //!< Pods (3 tiers).
    uint32_t cores{4};                   //!< Cores (3 tiers).
    uint32_t fatTreeK{0};                //!< k of a k-ary fat tree (0: the shape above).
    uint32_t parallel{1};                //!< Parallel links between linked switches.
    std::string hostRate{"400Gbps"};     //!< Host link rate.
    std::string linkRate{"400Gbps"};     //!< Switch-to-switch link rate.
    std::string linkDelay{"1us"};        //!< Delay of every link.
    double oversubscription{0};          //!< Uplink rates for this ratio (0: --linkRate).
    double load{0.8};                    //!< Sending rate of each host, fraction of its link.
    uint32_t packetSize{4096};           //!< UDP payload bytes.
    std::string duration{"200us"};       //!< Traffic duration.
    std::string forwarding{"hash"};      //!< A port selector (word or TypeId).
    uint32_t failedLinks{0};             //!< Uplinks failed at time 0.
    uint32_t degradedLinks{0};           //!< Uplinks degraded.
    std::string degradedRate{"200Gbps"}; //!< Their rate.
    std::string reconverge{"never"};     //!< Routing convergence delay.
    uint32_t seed{1};                    //!< Streams of the random choices.
    bool trim{false};                    //!< Trim instead of dropping.
    bool hostLinks{false};               //!< Host links in the load table.
};

/**
 * Check the options before any of them reaches the helper (whose attribute checkers and
 * SetOversubscription() would abort); exits with a message naming the option on a bad value.
 * \param o the options.
 */
void
Check(const Options& o)
{
    if (o.tiers != 2 && o.tiers != 3)
    {
        OptionParser::Exit("--tiers: " + std::to_string(o.tiers) +
                           " is not allowed; allowed: 2 (leaf-spine) or 3 (pods)");
    }
    for (const auto& [name, value] : {std::make_pair("--leaves", o.leaves),
                                      std::make_pair("--hostsPerLeaf", o.hostsPerLeaf),
                                      std::make_pair("--spines", o.spines),
                                      std::make_pair("--pods", o.pods),
                                      std::make_pair("--cores", o.cores),
                                      std::make_pair("--parallel", o.parallel)})
    {
        OptionParser::CheckRangeOrExit(name, value, 1, 4096);
    }
    if (o.fatTreeK != 0 && (o.fatTreeK % 2 != 0 || o.fatTreeK > 64))
    {
        OptionParser::Exit("--fatTreeK: " + std::to_string(o.fatTreeK) +
                           " is not allowed; allowed: 0 (off) or an even k from 2 to 64");
    }
    double hosts = o.fatTreeK
                       ? std::pow(o.fatTreeK, 3) / 4.0
                       : static_cast<double>(o.tiers == 3 ? o.pods : 1) * o.leaves * o.hostsPerLeaf;
    OptionParser::CheckRangeOrExit("--hosts (leaves x hostsPerLeaf, x pods with 3 tiers)",
                                   hosts,
                                   2,
                                   65536);
    TypeId forwarding;
    std::string error;
    if (!PortSelectorNames::Lookup(o.forwarding, forwarding, error))
    {
        OptionParser::Exit("--forwarding: " + error);
    }
    if (!(o.load > 0 && o.load <= 1))
    {
        std::ostringstream msg;
        msg << "--load: " << o.load << " is out of range; expected a value in (0, 1]";
        OptionParser::Exit(msg.str());
    }
    OptionParser::CheckRangeOrExit("--packetSize", o.packetSize, 1, 65000);
    OptionParser::RateOrExit("--hostRate", o.hostRate);
    OptionParser::RateOrExit("--linkRate", o.linkRate);
    OptionParser::RateOrExit("--degradedRate", o.degradedRate);
    OptionParser::TimeOrExit("--linkDelay", o.linkDelay);
    if (!OptionParser::TimeOrExit("--duration", o.duration).IsStrictlyPositive())
    {
        OptionParser::Exit("--duration: must be greater than zero, e.g. 200us");
    }
    if (o.reconverge != "never")
    {
        OptionParser::TimeOrExit("--reconverge (a Time or never)", o.reconverge);
    }
    if (o.oversubscription != 0 && !(o.oversubscription >= 1 && o.oversubscription <= 1000))
    {
        std::ostringstream msg;
        msg << "--oversubscription: " << o.oversubscription
            << " is out of range; allowed: 0 (off) or 1 to 1000";
        OptionParser::Exit(msg.str());
    }
}

/**
 * Parse and check the command line; exits with a message on a bad value.
 * \param argc argument count.
 * \param argv arguments.
 * \return the options.
 */
Options
Parse(int argc, char* argv[])
{
    Options o;
    CommandLine cmd(__FILE__);
    // Numbers and booleans parsed strictly: "1.5" is not taken for 1.
    auto add = [&cmd](const char* name, const char* help, auto& value) {
        OptionParser::AddValue(cmd, name, help, value);
    };
    add("tiers", "Fabric tiers (2: leaf-spine, 3: pods and cores)", o.tiers);
    add("leaves", "Leaf switches; with 3 tiers, leaves per pod (switches, 1 to 4096)", o.leaves);
    add("hostsPerLeaf", "Hosts under every leaf (hosts, 1 to 4096)", o.hostsPerLeaf);
    add("spines",
        "Spine switches; with 3 tiers, aggregation switches per pod (switches, 1 to 4096)",
        o.spines);
    add("pods", "Pods, 3 tiers only (pods, 1 to 4096)", o.pods);
    add("cores", "Core switches, 3 tiers only (switches, 1 to 4096)", o.cores);
    add("fatTreeK", "Build the k-ary fat tree instead (k, even, 2 to 64; 0: off)", o.fatTreeK);
    add("parallel", "Parallel links between linked switches (links, 1 to 4096)", o.parallel);
    add("hostRate", "Rate of the host links (DataRate)", o.hostRate);
    add("linkRate", "Rate of the switch-to-switch links (DataRate)", o.linkRate);
    add("linkDelay", "Propagation delay of every link (Time)", o.linkDelay);
    add("oversubscription",
        "Uplink rates for this ratio (1 to 1000; 0: --linkRate)",
        o.oversubscription);
    add("load", "Sending rate of each host (fraction of its link, > 0 and <= 1)", o.load);
    add("packetSize", "UDP payload (bytes, 1 to 65000)", o.packetSize);
    add("duration", "Traffic duration (Time, > 0)", o.duration);
    const std::string forwardingHelp = "Switch forwarding (" +
                                       OptionParser::Join(PortSelectorNames::GetAvailableNames()) +
                                       ", or a PortSelector TypeId)";
    add("forwarding", forwardingHelp.c_str(), o.forwarding);
    add("failedLinks", "Uplinks failed at time 0, drawn at random (links)", o.failedLinks);
    add("degradedLinks", "Uplinks degraded, drawn at random (links)", o.degradedLinks);
    add("degradedRate", "Rate of the degraded links (DataRate)", o.degradedRate);
    add("reconverge",
        "Routing stops using a failed link this long after it fails (Time, or never)",
        o.reconverge);
    add("seed",
        "ns-3 stream of the failed links (seed), the degraded links (seed + 1) and the "
        "permutation (seed + 2), and the hash salts; the choices follow --RngRun too",
        o.seed);
    add("trim", "Trim RoCEv2 packets instead of dropping them (true/false)", o.trim);
    add("hostLinks", "Print host links in the load table too (true/false)", o.hostLinks);
    OptionParser::Parse(cmd, argc, argv);
    Check(o);
    return o;
}

/**
 * \param o the options.
 * \return the configured helper; exits with the helper's message on an impossible fabric.
 */
Ptr<ClosFabricHelper>
MakeHelper(const Options& o)
{
    Ptr<ClosFabricHelper> helper = CreateObject<ClosFabricHelper>();
    helper->SetAttribute("Tiers", UintegerValue(o.tiers));
    helper->SetAttribute("HostsPerLeaf", UintegerValue(o.hostsPerLeaf));
    helper->SetAttribute(o.tiers == 3 ? "LeavesPerPod" : "Leaves", UintegerValue(o.leaves));
    helper->SetAttribute(o.tiers == 3 ? "AggsPerPod" : "Spines", UintegerValue(o.spines));
    helper->SetAttribute("Pods", UintegerValue(o.pods));
    helper->SetAttribute("Cores", UintegerValue(o.cores));
    if (o.fatTreeK > 0)
    {
        helper->SetFatTree(o.fatTreeK);
    }
    helper->SetAttribute("ParallelLinks", UintegerValue(o.parallel));
    helper->SetAttribute("HostLinkRate", DataRateValue(DataRate(o.hostRate)));
    helper->SetAttribute("LeafUplinkRate", DataRateValue(DataRate(o.linkRate)));
    helper->SetAttribute("AggUplinkRate", DataRateValue(DataRate(o.linkRate)));
    for (const char* delay : {"HostLinkDelay", "LeafUplinkDelay", "AggUplinkDelay"})
    {
        helper->SetAttribute(delay, TimeValue(Time(o.linkDelay)));
    }
    if (o.oversubscription > 0)
    {
        helper->SetOversubscription(o.oversubscription);
    }
    TypeId forwarding;
    std::string unused;
    PortSelectorNames::Lookup(o.forwarding, forwarding, unused); // checked by Check()
    helper->SetPortSelector(forwarding.GetName());
    helper->SetAttribute("HashSeed", UintegerValue(o.seed));
    helper->SetSwitchQueueDisc("ns3::EcnQueueDisc", "Trimming", BooleanValue(o.trim));
    if (o.reconverge != "never")
    {
        helper->SetPlaneAttribute("RoutingConvergenceDelay", TimeValue(Time(o.reconverge)));
    }
    std::string error = helper->Validate();
    if (!error.empty())
    {
        OptionParser::Exit(
            "fabric (--tiers, --leaves, --hostsPerLeaf, --spines, --pods, --cores, --parallel, "
            "--fatTreeK, --oversubscription): " +
            error);
    }
    return helper;
}

/**
 * Fail and degrade uplinks drawn at random, and say which: a failure schedule of two lines
 * (uplinks:<n>#<stream>), played by a FailureInjector.
 * \param fabric the fabric.
 * \param o the options.
 * \return the injector (it must live until the end of the simulation), or null
 */
Ptr<FailureInjector>
InjectFaults(Ptr<ClosFabric> fabric, const Options& o)
{
    uint32_t ups = fabric->GetNTiers() == 2 ? fabric->GetNSpines() : fabric->GetNAggsPerPod();
    uint32_t uplinks = fabric->GetNLeaves() * ups;
    OptionParser::CheckRangeOrExit("--failedLinks", o.failedLinks, 0, uplinks);
    OptionParser::CheckRangeOrExit("--degradedLinks", o.degradedLinks, 0, uplinks);
    std::ostringstream text;
    if (o.failedLinks > 0)
    {
        text << "0 uplinks:" << o.failedLinks << "#" << o.seed << " down\n";
    }
    if (o.degradedLinks > 0)
    {
        text << "0 uplinks:" << o.degradedLinks << "#" << o.seed + 1 << " rate "
             << DataRate(o.degradedRate).GetBitRate() << "bps\n";
    }
    if (text.str().empty())
    {
        return nullptr;
    }
    std::vector<FailureSchedule::Event> events;
    std::string error = FailureSchedule::Parse(text.str(), events);
    Ptr<FailureInjector> injector = CreateObject<FailureInjector>();
    if (error.empty())
    {
        error = injector->Schedule(fabric, events);
    }
    if (!error.empty())
    {
        OptionParser::Exit("--failedLinks, --degradedLinks, --seed: " + error);
    }
    for (size_t i = 0; i < events.size(); ++i)
    {
        std::cout << (events[i].action == FailureSchedule::DOWN
                          ? "failed at t = 0:"
                          : "degraded to " + o.degradedRate + ":");
        std::vector<uint32_t> links = injector->GetEventLinks(i);
        std::sort(links.begin(), links.end());
        for (uint32_t l : links)
        {
            std::cout << " " << fabric->GetLinkName(l);
        }
        std::cout << "\n";
    }
    return injector;
}

/**
 * A UDP permutation without fixed points at the given share of the host rate.
 * \param fabric the fabric.
 * \param o the options.
 * \return the sinks.
 */
ApplicationContainer
InstallPermutation(Ptr<ClosFabric> fabric, const Options& o)
{
    uint32_t n = fabric->GetNHosts();
    std::vector<uint32_t> perm(n);
    std::iota(perm.begin(), perm.end(), 0);
    Ptr<UniformRandomVariable> rng = CreateObject<UniformRandomVariable>();
    rng->SetStream(o.seed + 2); // seed and seed + 1 choose the failed and the degraded links
    auto hasFixedPoint = [&perm]() {
        for (uint32_t i = 0; i < perm.size(); i++)
        {
            if (perm[i] == i)
            {
                return true;
            }
        }
        return false;
    };
    while (n > 1 && hasFixedPoint())
    {
        Shuffle(perm, rng);
    }
    DataRate rate(static_cast<uint64_t>(DataRate(o.hostRate).GetBitRate() * o.load));
    ApplicationContainer sinks;
    ApplicationContainer sources;
    for (uint32_t i = 0; i < n && n > 1; i++)
    {
        PacketSinkHelper sink("ns3::UdpSocketFactory", InetSocketAddress(Ipv4Address::GetAny(), 9));
        sinks.Add(sink.Install(fabric->GetHost(perm[i])));
        OnOffHelper onoff("ns3::UdpSocketFactory",
                          InetSocketAddress(fabric->GetHostAddress(perm[i]), 9));
        onoff.SetConstantRate(rate, o.packetSize);
        sources.Add(onoff.Install(fabric->GetHost(i)));
    }
    sinks.Start(Seconds(0));
    sources.Start(Seconds(0));
    sources.Stop(Time(o.duration));
    return sinks;
}

} // namespace

int
main(int argc, char* argv[])
{
    Options o = Parse(argc, argv);
    Ptr<ClosFabricHelper> helper = MakeHelper(o);
    auto start = std::chrono::steady_clock::now();
    Ptr<ClosFabric> fabric = helper->Build();
    double buildSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    ClosFabricHelper::AssignStreams(fabric, 1000);
    Ptr<FailureInjector> injector = InjectFaults(fabric, o);
    fabric->PrintSummary(std::cout);
    std::cout << "  built in " << buildSeconds << " s\n\n";

    ApplicationContainer sinks = InstallPermutation(fabric, o);
    Time stop(o.duration);
    start = std::chrono::steady_clock::now();
    // Counters cover the traffic interval; packets still in flight at its end are not counted.
    Simulator::Stop(stop);
    Simulator::Run();
    double runSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    uint64_t received = 0;
    for (uint32_t i = 0; i < sinks.GetN(); i++)
    {
        received += DynamicCast<PacketSink>(sinks.Get(i))->GetTotalRx();
    }
    uint64_t rate = static_cast<uint64_t>(DataRate(o.hostRate).GetBitRate() * o.load);
    uint64_t offered = static_cast<uint64_t>(rate * stop.GetSeconds() / 8) * fabric->GetNHosts();
    std::cout << "UDP permutation at " << o.load * 100 << "% of the host rate for "
              << stop.As(Time::US) << ": " << received / 1e6 << " MB received of about "
              << offered / 1e6 << " MB offered (" << runSeconds << " s wall clock)\n\n";
    fabric->PrintLinkLoad(std::cout, stop, o.hostLinks);
    Simulator::Destroy();
    return 0;
}
