/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Builds a Clos fabric with ClosFabricHelper, prints its summary, runs a UDP permutation
 * (every host sends to one other host, every host receives from one) with ns-3's own
 * OnOffApplication and PacketSink, and prints the load of every fabric link.
 *
 *   ./reps-fabric-summary --leaves=8 --hostsPerLeaf=4 --spines=4
 *   ./reps-fabric-summary --fatTreeK=4 --failLinks=2 --convergence=50us
 */

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/reps-module.h"

#include <algorithm>
#include <chrono>
#include <iostream>
#include <numeric>

using namespace ns3;

int
main(int argc, char* argv[])
{
    uint32_t tiers = 2;
    uint32_t leaves = 8;
    uint32_t hostsPerLeaf = 4;
    uint32_t spines = 4;
    uint32_t pods = 2;
    uint32_t leavesPerPod = 2;
    uint32_t aggsPerPod = 2;
    uint32_t cores = 4;
    uint32_t fatTreeK = 0;
    uint32_t parallel = 1;
    std::string hostRate = "400Gbps";
    std::string fabricRate = "400Gbps";
    Time delay = MicroSeconds(1);
    double oversubscription = 0;
    double load = 0.8;
    uint32_t packetSize = 4096;
    Time duration = MicroSeconds(200);
    std::string mode = "FlowHash";
    uint32_t failLinks = 0;
    uint32_t degradeLinks = 0;
    std::string degradeRate = "200Gbps";
    Time convergence = Seconds(-1);
    uint32_t seed = 1;
    bool trimming = false;
    bool hostLinks = false;

    CommandLine cmd(__FILE__);
    cmd.AddValue("tiers", "2 (leaf-spine) or 3 (pods + cores)", tiers);
    cmd.AddValue("leaves", "leaves (2-tier)", leaves);
    cmd.AddValue("hostsPerLeaf", "hosts per leaf", hostsPerLeaf);
    cmd.AddValue("spines", "spines (2-tier)", spines);
    cmd.AddValue("pods", "pods (3-tier)", pods);
    cmd.AddValue("leavesPerPod", "leaves per pod (3-tier)", leavesPerPod);
    cmd.AddValue("aggsPerPod", "aggregation switches per pod (3-tier)", aggsPerPod);
    cmd.AddValue("cores", "core switches (3-tier)", cores);
    cmd.AddValue("fatTreeK", "build the k-ary fat tree instead (0: off)", fatTreeK);
    cmd.AddValue("parallel", "parallel links between linked switches", parallel);
    cmd.AddValue("hostRate", "host link rate", hostRate);
    cmd.AddValue("fabricRate", "switch-to-switch link rate", fabricRate);
    cmd.AddValue("delay", "one-way delay of every link (e.g. 1us)", delay);
    cmd.AddValue("oversubscription",
                 "set up-link rates for this ratio (0: use fabricRate)",
                 oversubscription);
    cmd.AddValue("load", "sending rate of each host as a fraction of its link", load);
    cmd.AddValue("packetSize", "UDP payload bytes", packetSize);
    cmd.AddValue("duration", "traffic duration (e.g. 200us)", duration);
    cmd.AddValue("mode", "switch forwarding: FlowHash, Random or Adaptive", mode);
    cmd.AddValue("failLinks",
                 "switch-to-switch links failed at time 0 (random, seeded)",
                 failLinks);
    cmd.AddValue("degradeLinks", "switch-to-switch links degraded (random, seeded)", degradeLinks);
    cmd.AddValue("degradeRate", "rate of the degraded links", degradeRate);
    cmd.AddValue("convergence",
                 "routing convergence delay (e.g. 50us; negative: never)",
                 convergence);
    cmd.AddValue("seed",
                 "ns-3 stream of the failed links (seed), the degraded links (seed + 1) and the "
                 "permutation (seed + 2), and the hash salts; the choices follow --RngRun too",
                 seed);
    cmd.AddValue("trimming", "trim RoCEv2 packets instead of dropping them", trimming);
    cmd.AddValue("hostLinks", "print host links in the load table too", hostLinks);
    cmd.Parse(argc, argv);

    Ptr<ClosFabricHelper> helper = CreateObject<ClosFabricHelper>();
    helper->SetAttribute("Tiers", UintegerValue(tiers));
    helper->SetAttribute("Leaves", UintegerValue(leaves));
    helper->SetAttribute("HostsPerLeaf", UintegerValue(hostsPerLeaf));
    helper->SetAttribute("Spines", UintegerValue(spines));
    helper->SetAttribute("Pods", UintegerValue(pods));
    helper->SetAttribute("LeavesPerPod", UintegerValue(leavesPerPod));
    helper->SetAttribute("AggsPerPod", UintegerValue(aggsPerPod));
    helper->SetAttribute("Cores", UintegerValue(cores));
    if (fatTreeK > 0)
    {
        helper->SetFatTree(fatTreeK);
    }
    helper->SetAttribute("ParallelLinks", UintegerValue(parallel));
    helper->SetAttribute("HostLinkRate", DataRateValue(DataRate(hostRate)));
    helper->SetAttribute("LeafUplinkRate", DataRateValue(DataRate(fabricRate)));
    helper->SetAttribute("AggUplinkRate", DataRateValue(DataRate(fabricRate)));
    helper->SetAttribute("HostLinkDelay", TimeValue(delay));
    helper->SetAttribute("LeafUplinkDelay", TimeValue(delay));
    helper->SetAttribute("AggUplinkDelay", TimeValue(delay));
    if (oversubscription > 0)
    {
        helper->SetOversubscription(oversubscription);
    }
    helper->SetAttribute("ForwardingMode", StringValue(mode));
    helper->SetAttribute("HashSeed", UintegerValue(seed));
    helper->SetAttribute("Trimming", BooleanValue(trimming));
    if (!convergence.IsNegative())
    {
        helper->SetAttribute("RoutingConvergenceDelay", TimeValue(convergence));
    }

    auto start = std::chrono::steady_clock::now();
    Ptr<ClosFabric> fabric = helper->Build();
    double buildSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    ClosFabricHelper::AssignStreams(fabric, 1000);

    ClosFabric::Tier upTier =
        fabric->GetNTiers() == 2 ? ClosFabric::LEAF_SPINE : ClosFabric::LEAF_AGG;
    if (failLinks > 0)
    {
        std::vector<uint32_t> failed = fabric->FailRandomLinks(upTier, failLinks, seed);
        std::cout << "failed at t = 0:";
        for (uint32_t l : failed)
        {
            std::cout << " " << fabric->GetLinkName(l);
        }
        std::cout << "\n";
    }
    if (degradeLinks > 0)
    {
        std::vector<uint32_t> slow =
            fabric->DegradeRandomLinks(upTier, degradeLinks, DataRate(degradeRate), seed + 1);
        std::cout << "degraded to " << degradeRate << ":";
        for (uint32_t l : slow)
        {
            std::cout << " " << fabric->GetLinkName(l);
        }
        std::cout << "\n";
    }

    fabric->PrintSummary(std::cout);
    std::cout << "  built in " << buildSeconds << " s\n\n";

    // A permutation without fixed points: host i sends to perm[i].
    uint32_t n = fabric->GetNHosts();
    std::vector<uint32_t> perm(n);
    std::iota(perm.begin(), perm.end(), 0);
    Ptr<UniformRandomVariable> rng = CreateObject<UniformRandomVariable>();
    rng->SetStream(seed + 2); // seed and seed + 1 choose the failed and the degraded links
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

    Time stop = duration;
    DataRate rate(static_cast<uint64_t>(DataRate(hostRate).GetBitRate() * load));
    ApplicationContainer sinks;
    ApplicationContainer sources;
    for (uint32_t i = 0; i < n && n > 1; i++)
    {
        PacketSinkHelper sink("ns3::UdpSocketFactory", InetSocketAddress(Ipv4Address::GetAny(), 9));
        sinks.Add(sink.Install(fabric->GetHost(perm[i])));
        OnOffHelper onoff("ns3::UdpSocketFactory",
                          InetSocketAddress(fabric->GetHostAddress(perm[i]), 9));
        onoff.SetConstantRate(rate, packetSize);
        sources.Add(onoff.Install(fabric->GetHost(i)));
    }
    sinks.Start(Seconds(0));
    sources.Start(Seconds(0));
    sources.Stop(stop);

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
    uint64_t offered = static_cast<uint64_t>(rate.GetBitRate() * stop.GetSeconds() / 8) * n;
    std::cout << "UDP permutation at " << load * 100 << "% of the host rate for "
              << duration.As(Time::US) << ": " << received / 1e6 << " MB received of about "
              << offered / 1e6 << " MB offered (" << runSeconds << " s wall clock)\n\n";
    fabric->PrintLinkLoad(std::cout, stop, hostLinks);

    Simulator::Destroy();
    return 0;
}
