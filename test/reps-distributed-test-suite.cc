/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The parts of a distributed (MPI) run that can be tested in one process: how the fabric is
// cut into ranks, what is refused, and how rank 0 merges the ranks' results. The 2-rank run
// itself is compared with the sequential one by utils/check-mpi.py (utils/check-in-tree.sh).

#include "reps-test-compat.h"

#include "ns3/clos-fabric-helper.h"
#include "ns3/clos-fabric.h"
#include "ns3/distributed-run.h"
#include "ns3/nstime.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <string>
#include <vector>

using namespace ns3;

namespace
{

/**
 * \param leaves leaves
 * \param hostsPerLeaf hosts per leaf
 * \param spines spines
 * \param systems ranks
 * \return a 2-tier helper cut into ranks
 */
Ptr<ClosFabricHelper>
TwoTier(uint32_t leaves, uint32_t hostsPerLeaf, uint32_t spines, uint32_t systems)
{
    Ptr<ClosFabricHelper> h = CreateObject<ClosFabricHelper>();
    h->SetAttribute("Tiers", UintegerValue(2));
    h->SetAttribute("Leaves", UintegerValue(leaves));
    h->SetAttribute("HostsPerLeaf", UintegerValue(hostsPerLeaf));
    h->SetAttribute("Spines", UintegerValue(spines));
    h->SetAttribute("Systems", UintegerValue(systems));
    return h;
}

/**
 * \param fabric a fabric
 * \return the links whose two ends are on different ranks
 */
uint32_t
CutLinks(Ptr<ClosFabric> fabric)
{
    uint32_t cut = 0;
    for (uint32_t link = 0; link < fabric->GetNLinks(); ++link)
    {
        if (fabric->GetLinkNode(link, 0)->GetSystemId() !=
            fabric->GetLinkNode(link, 1)->GetSystemId())
        {
            ++cut;
        }
    }
    return cut;
}

} // namespace

/**
 * \ingroup reps-test
 * The Systems attribute cuts the fabric into ranks: a leaf with its hosts (2 tiers) or a pod
 * (3 tiers) on one rank, in contiguous blocks; spines and cores round-robin; only switch to
 * switch links cross ranks.
 */
class DistributedPartitionTestCase : public TestCase
{
  public:
    DistributedPartitionTestCase()
        : TestCase("ClosFabricHelper Systems: every node on a rank, leaves or pods kept whole")
    {
    }

  private:
    /**
     * Check what holds for every partition.
     * \param f the fabric
     * \param systems its ranks
     */
    void CheckEveryNode(Ptr<ClosFabric> f, uint32_t systems)
    {
        std::vector<uint32_t> hosts(systems, 0);
        for (uint32_t h = 0; h < f->GetNHosts(); ++h)
        {
            uint32_t s = f->GetHost(h)->GetSystemId();
            NS_TEST_ASSERT_MSG_LT(s, systems, "host " << h << " on no rank");
            NS_TEST_ASSERT_MSG_EQ(s,
                                  f->GetLeaf(f->GetLeafOfHost(h))->GetSystemId(),
                                  "host " << h << " shares the rank of its leaf");
            ++hosts[s];
        }
        for (uint32_t i = 0; i < f->GetSwitches().GetN(); ++i)
        {
            NS_TEST_ASSERT_MSG_LT(f->GetSwitches().Get(i)->GetSystemId(), systems, "switch");
        }
        for (uint32_t s = 0; s < systems; ++s)
        {
            NS_TEST_ASSERT_MSG_EQ(hosts[s],
                                  f->GetNHosts() / systems,
                                  "rank " << s << " gets an equal share of the hosts");
        }
        for (uint32_t link = 0; link < f->GetNLinks(); ++link)
        {
            if (f->GetLinkTier(link) == ClosFabric::HOST_LEAF)
            {
                NS_TEST_ASSERT_MSG_EQ(f->GetLinkNode(link, 0)->GetSystemId(),
                                      f->GetLinkNode(link, 1)->GetSystemId(),
                                      "a host link never crosses ranks");
            }
        }
    }

    void DoRun() override
    {
        // 2 tiers, 4 leaves x 2 hosts, 3 spines, 2 ranks: leaves 0-1 and their hosts on rank
        // 0, leaves 2-3 on rank 1; spines 0, 1, 2 on ranks 0, 1, 0.
        Ptr<ClosFabric> a = TwoTier(4, 2, 3, 2)->Build();
        CheckEveryNode(a, 2);
        NS_TEST_ASSERT_MSG_EQ(a->GetHost(3)->GetSystemId(), 0, "host 3 (leaf 1) on rank 0");
        NS_TEST_ASSERT_MSG_EQ(a->GetHost(4)->GetSystemId(), 1, "host 4 (leaf 2) on rank 1");
        NS_TEST_ASSERT_MSG_EQ(a->GetLeaf(1)->GetSystemId(), 0, "leaf 1 on rank 0");
        NS_TEST_ASSERT_MSG_EQ(a->GetLeaf(2)->GetSystemId(), 1, "leaf 2 on rank 1");
        NS_TEST_ASSERT_MSG_EQ(a->GetSpine(0)->GetSystemId(), 0, "spine 0 on rank 0");
        NS_TEST_ASSERT_MSG_EQ(a->GetSpine(1)->GetSystemId(), 1, "spine 1 on rank 1");
        NS_TEST_ASSERT_MSG_EQ(a->GetSpine(2)->GetSystemId(), 0, "spine 2 on rank 0");
        // Leaves 0-1 reach spine 1, leaves 2-3 spines 0 and 2.
        NS_TEST_ASSERT_MSG_EQ(CutLinks(a), 2 + 4, "leaf-spine links between ranks");
        Simulator::Destroy();

        // 4 ranks: one leaf each; spine s on rank s.
        Ptr<ClosFabric> b = TwoTier(4, 2, 3, 4)->Build();
        CheckEveryNode(b, 4);
        for (uint32_t leaf = 0; leaf < 4; ++leaf)
        {
            NS_TEST_ASSERT_MSG_EQ(b->GetLeaf(leaf)->GetSystemId(), leaf, "a leaf per rank");
        }
        NS_TEST_ASSERT_MSG_EQ(CutLinks(b), 3 * 2 + 3, "leaf-spine links between ranks");
        Simulator::Destroy();

        // A k = 4 fat tree on 4 ranks: a pod per rank, core c on rank c; each core reaches
        // three other pods.
        Ptr<ClosFabricHelper> k4 = CreateObject<ClosFabricHelper>();
        k4->SetFatTree(4);
        k4->SetAttribute("Systems", UintegerValue(4));
        Ptr<ClosFabric> c = k4->Build();
        CheckEveryNode(c, 4);
        for (uint32_t pod = 0; pod < 4; ++pod)
        {
            NS_TEST_ASSERT_MSG_EQ(c->GetAgg(pod, 1)->GetSystemId(), pod, "aggs with their pod");
        }
        NS_TEST_ASSERT_MSG_EQ(c->GetCore(3)->GetSystemId(), 3, "cores round-robin");
        NS_TEST_ASSERT_MSG_EQ(CutLinks(c), 4 * 3, "agg-core links between ranks");
        Simulator::Destroy();

        // The same fat tree on 2 ranks: pods 0-1 and 2-3.
        Ptr<ClosFabricHelper> k4two = CreateObject<ClosFabricHelper>();
        k4two->SetFatTree(4);
        k4two->SetAttribute("Systems", UintegerValue(2));
        Ptr<ClosFabric> d = k4two->Build();
        CheckEveryNode(d, 2);
        NS_TEST_ASSERT_MSG_EQ(d->GetAgg(1, 0)->GetSystemId(), 0, "pod 1 on rank 0");
        NS_TEST_ASSERT_MSG_EQ(d->GetAgg(2, 0)->GetSystemId(), 1, "pod 2 on rank 1");
        NS_TEST_ASSERT_MSG_EQ(CutLinks(d), 4 * 2, "agg-core links between ranks");
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * A partition that cannot be made is refused with a message naming the attribute and the
 * allowed range; a distributed run without the MPI engine (or with the wrong number of
 * processes) is refused.
 */
class DistributedRefusalTestCase : public TestCase
{
  public:
    DistributedRefusalTestCase()
        : TestCase("ClosFabricHelper Systems and DistributedRun: bad partitions refused")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<ClosFabricHelper> tooMany = TwoTier(4, 2, 2, 5);
        NS_TEST_ASSERT_MSG_NE(
            tooMany->Validate().find("Systems (5) must be at most the number of leaves (4)"),
            std::string::npos,
            "more ranks than leaves: " << tooMany->Validate());

        Ptr<ClosFabricHelper> pods = CreateObject<ClosFabricHelper>();
        pods->SetFatTree(4);
        pods->SetAttribute("Systems", UintegerValue(8));
        NS_TEST_ASSERT_MSG_NE(
            pods->Validate().find("Systems (8) must be at most the number of pods (4)"),
            std::string::npos,
            "more ranks than pods: " << pods->Validate());

        Ptr<ClosFabricHelper> noDelay = TwoTier(4, 2, 2, 2);
        noDelay->SetAttribute("LeafUplinkDelay", TimeValue(Seconds(0)));
        NS_TEST_ASSERT_MSG_NE(noDelay->Validate().find("LeafUplinkDelay must be > 0"),
                              std::string::npos,
                              "no lookahead: " << noDelay->Validate());
        noDelay->SetAttribute("Systems", UintegerValue(1));
        NS_TEST_ASSERT_MSG_EQ(noDelay->Validate(), "", "one rank needs no lookahead");
        NS_TEST_ASSERT_MSG_EQ(TwoTier(4, 2, 2, 4)->Validate(), "", "a leaf per rank is fine");

        Ptr<ClosFabricHelper> zero = CreateObject<ClosFabricHelper>();
        NS_TEST_ASSERT_MSG_EQ(zero->SetAttributeFailSafe("Systems", UintegerValue(0)),
                              false,
                              "Systems = 0 is refused by the attribute's checker");

        // One process, not started by mpirun: one rank is fine, two are refused.
        if (DistributedRun::GetLauncherSize() == 1)
        {
            NS_TEST_ASSERT_MSG_EQ(DistributedRun::Enable(1), "", "one rank");
            std::string error = DistributedRun::Enable(2);
            NS_TEST_ASSERT_MSG_NE(
                error.find(DistributedRun::IsAvailable() ? "mpirun -np 2" : "--enable-mpi"),
                std::string::npos,
                "two ranks in one process: " << error);
            NS_TEST_ASSERT_MSG_EQ(DistributedRun::IsEnabled(), false, "MPI not started");
            NS_TEST_ASSERT_MSG_EQ(DistributedRun::GetRank(), 0, "rank 0");
            NS_TEST_ASSERT_MSG_EQ(DistributedRun::GetSize(), 1, "one rank");
        }
    }
};

/**
 * \ingroup reps-test
 * Rank 0 merges the ranks' parts of a result: counters summed, maxima kept, link bytes summed
 * link by link, every rank's completed flows collected once; a part that does not fit is
 * refused.
 */
class DistributedMergeTestCase : public TestCase
{
  public:
    DistributedMergeTestCase()
        : TestCase("DistributedRun: Pack and Merge add the ranks' parts up")
    {
    }

  private:
    /**
     * \param rank which part
     * \return a rank's part of a result of two flows on two links
     */
    static RunResult Part(uint32_t rank)
    {
        RunResult r;
        r.lb = "ops";
        r.packets = 100 + rank;
        r.retransmissions = rank;
        r.drops = 2 * rank;
        r.trims = 3;
        r.ecnMarks = 10 * (rank + 1);
        r.freezes = 1;
        r.maxQueueBytes = rank == 0 ? 5000 : 9000;
        r.maxQueueBytesPerTier = {{"leaf", rank == 0 ? 5000u : 1000u},
                                  {"spine", rank == 0 ? 0u : 9000u}};
        r.linkBytes = {{"leaf0->spine0", "leaf-spine:up", 1000 * (rank + 1), 400000000000},
                       {"spine0->leaf0", "leaf-spine:down", 7, 400000000000}};
        r.extra = {{"timeouts", 1.0 + rank},
                   {"nacks", 0},
                   {"nacks_last_hop", 0},
                   {"ecn_acks", 4},
                   {"link_packets", 50}};
        // Each rank counts what its own hosts sent into each plane.
        r.planes = {{0, 10 + rank, 1000u + rank, 0.5}, {1, 20, 3000u - rank, 0.5}};
        r.simTime = MicroSeconds(rank == 0 ? 30 : 20);
        r.wallSeconds = rank == 0 ? 1.5 : 2.5;
        r.flows.SetIdeal(DataRate("400Gbps"), MicroSeconds(2));
        FlowSpec f;
        f.id = rank;
        f.src = rank;
        f.dst = 1 - rank;
        f.bytes = 4096;
        r.flows.AddFlow(f);
        r.flows.RecordCompletion(rank, MicroSeconds(10 + rank) + NanoSeconds(3));
        return r;
    }

    void DoRun() override
    {
        RunResult merged = Part(0);
        DistributedRun::ClearCounters(merged);
        NS_TEST_ASSERT_MSG_EQ(merged.packets, 0, "cleared");
        NS_TEST_ASSERT_MSG_EQ(merged.linkBytes[0].bytes, 0, "cleared");
        std::map<uint32_t, Time> done;
        for (uint32_t rank = 0; rank < 2; ++rank)
        {
            NS_TEST_ASSERT_MSG_EQ(
                DistributedRun::Merge(merged, DistributedRun::Pack(Part(rank)), done),
                "",
                "part of rank " << rank << " fits");
        }
        NS_TEST_ASSERT_MSG_EQ(merged.packets, 201, "packets summed");
        NS_TEST_ASSERT_MSG_EQ(merged.retransmissions, 1, "retransmissions summed");
        NS_TEST_ASSERT_MSG_EQ(merged.drops, 2, "drops summed");
        NS_TEST_ASSERT_MSG_EQ(merged.trims, 6, "trims summed");
        NS_TEST_ASSERT_MSG_EQ(merged.ecnMarks, 30, "marks summed");
        NS_TEST_ASSERT_MSG_EQ(merged.freezes, 2, "freezes summed");
        NS_TEST_ASSERT_MSG_EQ(merged.maxQueueBytes, 9000, "deepest queue of all ranks");
        NS_TEST_ASSERT_MSG_EQ(merged.maxQueueBytesPerTier["leaf"], 5000, "per tier maximum");
        NS_TEST_ASSERT_MSG_EQ(merged.maxQueueBytesPerTier["spine"], 9000, "per tier maximum");
        NS_TEST_ASSERT_MSG_EQ(merged.linkBytes[0].bytes, 3000, "link bytes summed");
        NS_TEST_ASSERT_MSG_EQ(merged.linkBytes[1].bytes, 14, "link bytes summed");
        NS_TEST_ASSERT_MSG_EQ(merged.linkBytes[1].link, "spine0->leaf0", "link names kept");
        NS_TEST_ASSERT_MSG_EQ(merged.planes[0].packets, 21, "plane packets summed");
        NS_TEST_ASSERT_MSG_EQ(merged.planes[1].packets, 40, "plane packets summed");
        NS_TEST_ASSERT_MSG_EQ(merged.planes[0].bytes, 2001, "plane bytes summed");
        NS_TEST_ASSERT_MSG_EQ(merged.planes[1].bytes, 5999, "plane bytes summed");
        NS_TEST_ASSERT_MSG_EQ_TOL(merged.planes[0].share,
                                  2001.0 / 8000,
                                  1e-12,
                                  "share of all ranks' bytes");
        NS_TEST_ASSERT_MSG_EQ(merged.extra["timeouts"], 3.0, "timeouts summed");
        NS_TEST_ASSERT_MSG_EQ(merged.extra["link_packets"], 100.0, "link packets summed");
        NS_TEST_ASSERT_MSG_EQ(merged.simTime, MicroSeconds(30), "the later end");
        NS_TEST_ASSERT_MSG_EQ(merged.wallSeconds, 2.5, "the slower rank");
        NS_TEST_ASSERT_MSG_EQ(done.size(), 2, "both flows");
        NS_TEST_ASSERT_MSG_EQ(done[1], MicroSeconds(11) + NanoSeconds(3), "to the nanosecond");

        // A flow completed on two ranks, a part of another fabric, a truncated part.
        std::map<uint32_t, Time> again = done;
        NS_TEST_ASSERT_MSG_NE(
            DistributedRun::Merge(merged, DistributedRun::Pack(Part(0)), again).find("two ranks"),
            std::string::npos,
            "a flow counted twice");
        RunResult other = Part(1);
        other.linkBytes.pop_back();
        std::map<uint32_t, Time> none;
        NS_TEST_ASSERT_MSG_NE(
            DistributedRun::Merge(merged, DistributedRun::Pack(other), none).find("1 links"),
            std::string::npos,
            "another fabric");
        RunResult onePlane = Part(1);
        onePlane.planes.pop_back();
        NS_TEST_ASSERT_MSG_NE(
            DistributedRun::Merge(merged, DistributedRun::Pack(onePlane), none).find("planes"),
            std::string::npos,
            "another number of planes");
        std::vector<uint64_t> cut = DistributedRun::Pack(Part(1));
        cut.pop_back();
        NS_TEST_ASSERT_MSG_NE(DistributedRun::Merge(merged, cut, none), "", "truncated");
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * What a distributed run is made of, testable in one process.
 */
class RepsDistributedTestSuite : public TestSuite
{
  public:
    RepsDistributedTestSuite()
        : TestSuite("reps-distributed", TestSuite::Type::UNIT)
    {
        AddTestCase(new DistributedPartitionTestCase, reps::kQuick);
        AddTestCase(new DistributedRefusalTestCase, reps::kQuick);
        AddTestCase(new DistributedMergeTestCase, reps::kQuick);
    }
};

/// The suite instance.
static RepsDistributedTestSuite g_repsDistributedTestSuite;
