/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The plain ns-3 baseline of the benchmark harness (utils/benchmark.py): the Clos fabric of the
 * module's experiments built from ns-3's own parts only, to compare the cost of a simulated
 * packet. Every host and switch has ns-3's internet stack; links are PointToPointHelper links
 * with a 100-packet FIFO queue disc; switches route with Ipv4GlobalRouting and
 * RandomEcmpRouting (a random equal-cost port per packet); every host sends one UDP flow of
 * --flowSize bytes (an OnOffApplication at line rate) to another host, a random permutation,
 * and a PacketSink counts what arrives. Data only: no ACKs, no congestion control, no
 * retransmission.
 *
 *   ./reps-ns3-baseline --leaves=16 --hostsPerLeaf=8 --spines=8 --flowSize=8MiB
 *   ./reps-ns3-baseline --tiers=3 --pods=8 --leaves=4 --hostsPerLeaf=4 --spines=4 --cores=16
 *
 * Prints the run's link packets (transmissions over links), simulated and wall time, and the
 * wall time per link packet; --json writes them.
 */

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/reps-experiment-module.h"
#include "ns3/traffic-control-module.h"

#include <chrono>
#include <fstream>
#include <iostream>
#include <numeric>

using namespace ns3;

namespace
{

/// The options of the example.
struct Options
{
    uint32_t tiers{2};               //!< 2 or 3.
    uint32_t leaves{16};             //!< Leaves; with 3 tiers, leaves per pod.
    uint32_t hostsPerLeaf{8};        //!< Hosts per leaf.
    uint32_t spines{8};              //!< Spines; with 3 tiers, aggregation switches per pod.
    uint32_t pods{8};                //!< Pods (3 tiers).
    uint32_t cores{16};              //!< Cores (3 tiers).
    std::string linkRate{"400Gbps"}; //!< Rate of every link.
    std::string linkDelay{"1us"};    //!< Delay of every link.
    uint32_t packetSize{4096};       //!< UDP payload bytes.
    uint32_t queuePackets{100};      //!< Queue disc size of every device.
    std::string flowSize{"8MiB"};    //!< Bytes per flow.
    std::string json;                //!< JSON output path ("" = none).
};

/**
 * Parse and check the command line; exits with a message naming the option on a bad value.
 * \param argc argument count
 * \param argv arguments
 * \param o the options
 * \param flowBytes --flowSize in bytes
 */
void
Parse(int argc, char* argv[], Options& o, uint64_t& flowBytes)
{
    CommandLine cmd(__FILE__);
    auto add = [&cmd](const char* name, const char* help, auto& value) {
        OptionParser::AddValue(cmd, name, help, value);
    };
    add("tiers", "Fabric tiers (2: leaf-spine, 3: pods and cores)", o.tiers);
    add("leaves", "Leaf switches; with 3 tiers, leaves per pod (1 to 1024)", o.leaves);
    add("hostsPerLeaf", "Hosts under every leaf (1 to 1024)", o.hostsPerLeaf);
    add("spines", "Spines; with 3 tiers, aggregation switches per pod (1 to 1024)", o.spines);
    add("pods", "Pods, 3 tiers only (1 to 1024)", o.pods);
    add("cores", "Core switches, 3 tiers only (a multiple of --spines, 1 to 1024)", o.cores);
    add("linkRate", "Rate of every link (DataRate)", o.linkRate);
    add("linkDelay", "Propagation delay of every link (Time)", o.linkDelay);
    add("packetSize", "UDP payload (bytes, 1 to 8972)", o.packetSize);
    add("queuePackets", "Queue disc size of every device (packets, 1 to 1000000)", o.queuePackets);
    add("flowSize", "Bytes each host sends (e.g. 8MiB)", o.flowSize);
    add("json", "Write the results to this JSON file", o.json);
    OptionParser::Parse(cmd, argc, argv);

    if (o.tiers != 2 && o.tiers != 3)
    {
        OptionParser::Exit("--tiers: " + std::to_string(o.tiers) +
                           " is not allowed; allowed: 2 (leaf-spine) or 3 (pods)");
    }
    OptionParser::CheckRangeOrExit("--leaves", o.leaves, 1, 1024);
    OptionParser::CheckRangeOrExit("--hostsPerLeaf", o.hostsPerLeaf, 1, 1024);
    OptionParser::CheckRangeOrExit("--spines", o.spines, 1, 1024);
    OptionParser::CheckRangeOrExit("--pods", o.pods, 1, 1024);
    OptionParser::CheckRangeOrExit("--cores", o.cores, 1, 1024);
    if (o.tiers == 3 && o.cores % o.spines != 0)
    {
        OptionParser::Exit("--cores: " + std::to_string(o.cores) +
                           " is not allowed; allowed: a multiple of --spines (" +
                           std::to_string(o.spines) + ")");
    }
    const double hosts = static_cast<double>(o.tiers == 3 ? o.pods : 1) * o.leaves * o.hostsPerLeaf;
    OptionParser::CheckRangeOrExit("--hosts (leaves x hostsPerLeaf, x pods with 3 tiers)",
                                   hosts,
                                   2,
                                   16384);
    OptionParser::RateOrExit("--linkRate", o.linkRate);
    OptionParser::TimeOrExit("--linkDelay", o.linkDelay);
    OptionParser::CheckRangeOrExit("--packetSize", o.packetSize, 1, 8972);
    OptionParser::CheckRangeOrExit("--queuePackets", o.queuePackets, 1, 1000000);
    flowBytes = OptionParser::BytesOrExit("--flowSize", o.flowSize, 1);
    if (!o.json.empty() && !std::ofstream(o.json))
    {
        OptionParser::Exit("--json: cannot write '" + o.json +
                           "'; allowed: the path of a writable file, or empty (none)");
    }
}

/// The fabric: hosts, switches and every link's devices.
struct Fabric
{
    NodeContainer hosts;                   //!< Hosts, leaf by leaf.
    NodeContainer switches;                //!< Leaves, then spines or aggregation and cores.
    std::vector<NetDeviceContainer> links; //!< Every link's two devices.
};

/**
 * Build the fabric, address every link as its own /30 and fill the routing tables.
 * \param o the options
 * \return the fabric
 */
Fabric
Build(const Options& o)
{
    Fabric f;
    const uint32_t pods = o.tiers == 3 ? o.pods : 1;
    const uint32_t leaves = pods * o.leaves;
    f.hosts.Create(leaves * o.hostsPerLeaf);
    NodeContainer leafNodes;
    leafNodes.Create(leaves);
    NodeContainer middle; // spines (2 tiers) or aggregation switches (3 tiers)
    middle.Create(pods * o.spines);
    NodeContainer cores;
    if (o.tiers == 3)
    {
        cores.Create(o.cores);
    }
    f.switches.Add(leafNodes);
    f.switches.Add(middle);
    f.switches.Add(cores);

    InternetStackHelper internet;
    internet.SetIpv6StackInstall(false);
    internet.Install(f.hosts);
    internet.Install(f.switches);

    PointToPointHelper p2p;
    p2p.SetDeviceAttribute("DataRate", StringValue(o.linkRate));
    p2p.SetDeviceAttribute("Mtu", UintegerValue(9000));
    p2p.SetChannelAttribute("Delay", StringValue(o.linkDelay));
    p2p.SetQueue("ns3::DropTailQueue", "MaxSize", StringValue("1p"));
    auto link = [&](Ptr<Node> a, Ptr<Node> b) { f.links.push_back(p2p.Install(a, b)); };
    for (uint32_t h = 0; h < f.hosts.GetN(); ++h)
    {
        link(f.hosts.Get(h), leafNodes.Get(h / o.hostsPerLeaf));
    }
    for (uint32_t l = 0; l < leaves; ++l)
    {
        const uint32_t pod = l / o.leaves;
        for (uint32_t s = 0; s < o.spines; ++s)
        {
            link(leafNodes.Get(l), middle.Get(pod * o.spines + s));
        }
    }
    if (o.tiers == 3)
    {
        const uint32_t perAgg = o.cores / o.spines;
        for (uint32_t a = 0; a < middle.GetN(); ++a)
        {
            for (uint32_t c = 0; c < perAgg; ++c)
            {
                link(middle.Get(a), cores.Get((a % o.spines) * perAgg + c));
            }
        }
    }

    TrafficControlHelper tch;
    tch.SetRootQueueDisc("ns3::FifoQueueDisc",
                         "MaxSize",
                         QueueSizeValue(QueueSize(QueueSizeUnit::PACKETS, o.queuePackets)));
    Ipv4AddressHelper address("10.0.0.0", "255.255.255.252");
    for (NetDeviceContainer& d : f.links)
    {
        tch.Install(d);
        address.Assign(d);
        address.NewNetwork();
    }
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();
    return f;
}

/// Counts packet transmissions over links and notes the last arrival.
struct Counter
{
    uint64_t packets{0}; //!< Transmissions started.
    Time lastRx;         //!< When a sink last received a packet.

    /// PhyTxBegin.
    void Tx(Ptr<const Packet>)
    {
        ++packets;
    }

    /// PacketSink Rx.
    void Rx(Ptr<const Packet>, const Address&)
    {
        lastRx = Simulator::Now();
    }
};

/**
 * A random permutation without fixed points (a host never sends to itself), from stream 1.
 * \param n how many hosts
 * \return the peer of every host
 */
std::vector<uint32_t>
RandomPeers(uint32_t n)
{
    std::vector<uint32_t> peer(n);
    std::iota(peer.begin(), peer.end(), 0);
    Ptr<UniformRandomVariable> rng = CreateObject<UniformRandomVariable>();
    rng->SetStream(1);
    for (uint32_t i = n - 1; i > 0; --i)
    {
        // Sattolo's algorithm: one cycle through every host.
        std::swap(peer[i], peer[rng->GetInteger(0, i - 1)]);
    }
    return peer;
}

/**
 * One UDP flow of flowBytes per host to its peer, at line rate, and a sink at every peer;
 * the counter sees every arrival and every link transmission.
 * \param f the fabric
 * \param o the options
 * \param flowBytes bytes per flow
 * \param peer the peer of every host
 * \param counter the counter
 * \return the sinks
 */
std::vector<Ptr<PacketSink>>
InstallFlows(const Fabric& f,
             const Options& o,
             uint64_t flowBytes,
             const std::vector<uint32_t>& peer,
             Counter& counter)
{
    const uint16_t port = 9;
    std::vector<Ptr<PacketSink>> sinks;
    for (uint32_t i = 0; i < f.hosts.GetN(); ++i)
    {
        Ptr<Node> dst = f.hosts.Get(peer[i]);
        Ipv4Address to = dst->GetObject<Ipv4>()->GetAddress(1, 0).GetLocal();
        OnOffHelper onOff("ns3::UdpSocketFactory", InetSocketAddress(to, port));
        onOff.SetConstantRate(DataRate(o.linkRate), o.packetSize);
        onOff.SetAttribute("MaxBytes", UintegerValue(flowBytes));
        ApplicationContainer app = onOff.Install(f.hosts.Get(i));
        app.Start(MicroSeconds(1));
        PacketSinkHelper sink("ns3::UdpSocketFactory",
                              InetSocketAddress(Ipv4Address::GetAny(), port));
        ApplicationContainer s = sink.Install(dst);
        s.Start(Time(0));
        sinks.push_back(DynamicCast<PacketSink>(s.Get(0)));
        sinks.back()->TraceConnectWithoutContext("Rx", MakeCallback(&Counter::Rx, &counter));
    }

    for (const NetDeviceContainer& d : f.links)
    {
        for (uint32_t i = 0; i < 2; ++i)
        {
            d.Get(i)->TraceConnectWithoutContext("PhyTxBegin",
                                                 MakeCallback(&Counter::Tx, &counter));
        }
    }
    return sinks;
}

/// What a run measured.
struct Report
{
    uint32_t hosts{0};       //!< Hosts (and flows).
    uint32_t switches{0};    //!< Switches.
    size_t links{0};         //!< Links.
    double buildSeconds{0};  //!< Wall time of the fabric's construction.
    double wall{0};          //!< Wall time of the run.
    double simUs{0};         //!< Simulated time of the last arrival (us).
    uint64_t received{0};    //!< Bytes received by the sinks.
    uint32_t completed{0};   //!< Flows received in full.
    uint64_t dataPackets{0}; //!< Data packets sent by the hosts.
    uint64_t linkPackets{0}; //!< Transmissions over links.
};

/**
 * Print the report as text and, with --json, write it.
 * \param o the options
 * \param flowBytes bytes per flow
 * \param r the report
 */
void
Print(const Options& o, uint64_t flowBytes, const Report& r)
{
    const double usPerLinkPacket = r.linkPackets ? r.wall * 1e6 / r.linkPackets : 0;
    std::cout << "plain ns-3: " << r.hosts << " hosts, " << r.switches << " switches, " << r.links
              << " links, " << o.tiers << " tiers, global routing with "
              << "random ECMP; UDP permutation of " << flowBytes << " bytes per host\n"
              << "built in " << r.buildSeconds << " s\n"
              << "flows completed " << r.completed << "/" << r.hosts << ", bytes received "
              << r.received << ", data packets " << r.dataPackets << "\n"
              << "link packets " << r.linkPackets << ", simulated " << r.simUs << " us, wall "
              << r.wall << " s, " << usPerLinkPacket << " us per link packet\n";
    if (!o.json.empty())
    {
        std::ofstream out(o.json);
        out << "{\"hosts\": " << r.hosts << ", \"tiers\": " << o.tiers << ", \"flows\": " << r.hosts
            << ", \"completed\": " << r.completed << ", \"bytes_received\": " << r.received
            << ", \"packets\": " << r.dataPackets << ", \"link_packets\": " << r.linkPackets
            << ", \"sim_time_us\": " << r.simUs << ", \"build_s\": " << r.buildSeconds
            << ", \"wall_s\": " << r.wall << ", \"wall_us_per_link_packet\": " << usPerLinkPacket
            << "}\n";
    }
}

} // namespace

int
main(int argc, char* argv[])
{
    Options o;
    uint64_t flowBytes = 0;
    Parse(argc, argv, o, flowBytes);
    Config::SetDefault("ns3::Ipv4GlobalRouting::RandomEcmpRouting", BooleanValue(true));

    Report r;
    const auto start = std::chrono::steady_clock::now();
    Fabric f = Build(o);
    r.buildSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    r.hosts = f.hosts.GetN();
    r.switches = f.switches.GetN();
    r.links = f.links.size();

    Counter counter;
    std::vector<Ptr<PacketSink>> sinks =
        InstallFlows(f, o, flowBytes, RandomPeers(r.hosts), counter);

    const auto runStart = std::chrono::steady_clock::now();
    Simulator::Run();
    r.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - runStart).count();
    // The OnOff applications leave their next on/off switch scheduled far ahead: the run's
    // simulated length is the last arrival.
    r.simUs = counter.lastRx.GetSeconds() * 1e6;
    for (const Ptr<PacketSink>& s : sinks)
    {
        r.received += s->GetTotalRx();
        r.completed += s->GetTotalRx() >= flowBytes ? 1 : 0;
    }
    r.dataPackets = r.hosts * ((flowBytes + o.packetSize - 1) / o.packetSize);
    r.linkPackets = counter.packets;
    Simulator::Destroy();

    Print(o, flowBytes, r);
    return 0;
}
