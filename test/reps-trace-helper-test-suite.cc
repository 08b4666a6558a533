/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "reps-test-compat.h"

#include "ns3/clos-fabric-helper.h"
#include "ns3/clos-fabric.h"
#include "ns3/fabric-trace-helper.h"
#include "ns3/packet.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <cstdio>
#include <fstream>
#include <set>

using namespace ns3;

namespace
{

/**
 * A fabric of the given shape.
 * \param tiers 2 or 3
 * \return the fabric
 */
Ptr<ClosFabric>
MakeFabric(uint32_t tiers)
{
    Ptr<ClosFabricHelper> h = CreateObject<ClosFabricHelper>();
    h->SetAttribute("Tiers", UintegerValue(tiers));
    h->SetAttribute("HostsPerLeaf", UintegerValue(2));
    if (tiers == 2)
    {
        h->SetAttribute("Leaves", UintegerValue(3));
        h->SetAttribute("Spines", UintegerValue(2));
    }
    else
    {
        h->SetAttribute("Pods", UintegerValue(2));
        h->SetAttribute("LeavesPerPod", UintegerValue(2));
        h->SetAttribute("AggsPerPod", UintegerValue(2));
        h->SetAttribute("Cores", UintegerValue(4));
    }
    return h->Build();
}

/**
 * \param fabric a fabric
 * \param spec a node list
 * \return what CheckNodes() says of it, with the fabric's shape
 */
std::string
Check(Ptr<ClosFabric> fabric, const std::string& spec)
{
    return FabricTraceHelper::CheckNodes(spec,
                                         fabric->GetNTiers(),
                                         fabric->GetNHosts(),
                                         fabric->GetNLeaves(),
                                         fabric->GetNSpines(),
                                         fabric->GetNPods(),
                                         fabric->GetNAggsPerPod(),
                                         fabric->GetNCores());
}

/**
 * Node lists: every node's own name selects exactly that node, the groups select their role,
 * and a name the fabric does not have is refused, before the build (CheckNodes) and after
 * (ParseNodes), with the same message, in 2 and 3 tiers.
 */
class TraceHelperNodeListTestCase : public TestCase
{
  public:
    TraceHelperNodeListTestCase()
        : TestCase("--pcapNodes names: every node by name, groups, refusals before and after "
                   "the build")
    {
    }

  private:
    void DoRun() override
    {
        for (uint32_t tiers : {2u, 3u})
        {
            Ptr<ClosFabric> fabric = MakeFabric(tiers);
            NodeContainer all;
            all.Add(fabric->GetHosts());
            all.Add(fabric->GetSwitches());
            for (uint32_t i = 0; i < all.GetN(); ++i)
            {
                std::string name = fabric->GetNodeName(all.Get(i));
                NS_TEST_EXPECT_MSG_EQ(Check(fabric, name), "", name << " passes the check");
                NodeContainer nodes;
                NS_TEST_EXPECT_MSG_EQ(FabricTraceHelper::ParseNodes(fabric, name, nodes),
                                      "",
                                      name << " is found");
                NS_TEST_EXPECT_MSG_EQ(nodes.GetN(), 1, name << " selects one node");
                if (nodes.GetN() == 1)
                {
                    NS_TEST_EXPECT_MSG_EQ(nodes.Get(0), all.Get(i), name << " is that node");
                }
            }
            NodeContainer nodes;
            FabricTraceHelper::ParseNodes(fabric, "hosts", nodes);
            NS_TEST_EXPECT_MSG_EQ(nodes.GetN(), fabric->GetNHosts(), "hosts");
            FabricTraceHelper::ParseNodes(fabric, "switches", nodes);
            NS_TEST_EXPECT_MSG_EQ(nodes.GetN(), fabric->GetNSwitches(), "switches");
            FabricTraceHelper::ParseNodes(fabric, "all,host0,leaves", nodes);
            NS_TEST_EXPECT_MSG_EQ(nodes.GetN(), all.GetN(), "all, each node once");
            FabricTraceHelper::ParseNodes(fabric, "leaves,host1", nodes);
            NS_TEST_EXPECT_MSG_EQ(nodes.GetN(), fabric->GetNLeaves() + 1, "leaves and a host");

            std::vector<std::string> bad = {"",
                                            ",",
                                            "host0,",
                                            "host0,,leaf0",
                                            "host" + std::to_string(fabric->GetNHosts()),
                                            "host01",
                                            "host-1",
                                            "leaf" + std::to_string(fabric->GetNLeaves()),
                                            "router0",
                                            tiers == 2 ? "agg0.0" : "spine0",
                                            tiers == 2 ? "core0" : "agg2.0",
                                            tiers == 2 ? "spine2" : "agg0.2"};
            for (const std::string& spec : bad)
            {
                std::string before = Check(fabric, spec);
                NodeContainer none;
                std::string after = FabricTraceHelper::ParseNodes(fabric, spec, none);
                NS_TEST_EXPECT_MSG_NE(before, "", "'" << spec << "' is refused before the build");
                NS_TEST_EXPECT_MSG_EQ(before, after, "'" << spec << "': the same message after");
            }
            Simulator::Destroy();
        }
    }
};

/**
 * Pcap files: one per port of the chosen nodes, named after the link, in libpcap format with
 * nanosecond timestamps (magic 0xa1b23c4d), link type PPP (9) and the snapshot length asked;
 * snapshot lengths out of range are refused.
 */
class TraceHelperPcapFilesTestCase : public TestCase
{
  public:
    TraceHelperPcapFilesTestCase()
        : TestCase("pcap files: one per port, named after the link, nanosecond PPP captures")
    {
    }

  private:
    /**
     * Build a fabric, capture leaf 1 and host 0, and send one packet from host 0 at 1 us.
     * The files are complete when this returns: the fabric, its devices and the captures
     * are gone.
     * \param prefix the files' prefix
     * \return the files
     */
    std::vector<std::string> Capture(const std::string& prefix)
    {
        Ptr<ClosFabric> fabric = MakeFabric(2);
        FabricTraceHelper trace;
        NS_TEST_EXPECT_MSG_NE(trace.SetSnapLength(63), "", "63 bytes refused");
        NS_TEST_EXPECT_MSG_NE(trace.SetSnapLength(65536), "", "65536 bytes refused");
        NS_TEST_EXPECT_MSG_EQ(trace.SetSnapLength(96), "", "96 bytes");
        NodeContainer nodes;
        FabricTraceHelper::ParseNodes(fabric, "leaf1,host0", nodes);
        std::vector<std::string> files = trace.EnablePcap(prefix, fabric, nodes);
        // A packet sent by host 0 lands in its file, cut to the snapshot length.
        Ptr<PointToPointNetDevice> dev = fabric->GetLinkDevice(fabric->GetHostLink(0), 0);
        Simulator::Schedule(MicroSeconds(1), [dev]() {
            dev->Send(Create<Packet>(1000), dev->GetBroadcast(), 0x0800);
        });
        Simulator::Stop(MicroSeconds(10));
        Simulator::Run();
        Simulator::Destroy();
        return files;
    }

    void DoRun() override
    {
        std::string prefix = CreateTempDirFilename("cap");
        std::vector<std::string> files = Capture(prefix);
        std::set<std::string> want = {prefix + "-host0-leaf0.pcap",
                                      prefix + "-leaf1-host2.pcap",
                                      prefix + "-leaf1-host3.pcap",
                                      prefix + "-leaf1-spine0.pcap",
                                      prefix + "-leaf1-spine1.pcap"};
        NS_TEST_EXPECT_MSG_EQ(files.size(), want.size(), "one file per port");
        NS_TEST_EXPECT_MSG_EQ((std::set<std::string>(files.begin(), files.end()) == want),
                              true,
                              "file names");
        for (const std::string& f : files)
        {
            std::ifstream in(f, std::ios::binary);
            uint32_t header[6] = {};
            in.read(reinterpret_cast<char*>(header), sizeof(header));
            NS_TEST_EXPECT_MSG_EQ(in.good(), true, f << " has a pcap header");
            NS_TEST_EXPECT_MSG_EQ(header[0], 0xa1b23c4d, f << ": nanosecond timestamps");
            NS_TEST_EXPECT_MSG_EQ(header[4], 96, f << ": snapshot length");
            NS_TEST_EXPECT_MSG_EQ(header[5], 9, f << ": link type PPP");
        }
        std::ifstream in(prefix + "-host0-leaf0.pcap", std::ios::binary);
        in.seekg(24);
        uint32_t record[4] = {};
        in.read(reinterpret_cast<char*>(record), sizeof(record));
        NS_TEST_EXPECT_MSG_EQ(in.good(), true, "one packet record");
        NS_TEST_EXPECT_MSG_EQ(record[0], 0, "sent at 1 us: seconds");
        NS_TEST_EXPECT_MSG_EQ(record[1], 1000, "sent at 1 us: nanoseconds");
        NS_TEST_EXPECT_MSG_EQ(record[2], 96, "captured bytes: the snapshot length");
        NS_TEST_EXPECT_MSG_EQ(record[3], 1002, "original length: payload and PPP header");
    }
};

/// The tests of FabricTraceHelper.
class RepsTraceHelperTestSuite : public TestSuite
{
  public:
    RepsTraceHelperTestSuite()
        : TestSuite("reps-trace-helper", TestSuite::Type::UNIT)
    {
        AddTestCase(new TraceHelperNodeListTestCase(), reps::kQuick);
        AddTestCase(new TraceHelperPcapFilesTestCase(), reps::kQuick);
    }
};

} // namespace

/// Registers the suite.
static RepsTraceHelperTestSuite g_repsTraceHelperTestSuite;
