/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "reps-test-compat.h"

#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/reps-module.h"

#include <map>
#include <set>
#include <sstream>
#include <vector>

using namespace ns3;

/**
 * \file
 * \ingroup reps-test
 * Multi-plane fabrics (ClosFabricHelper Planes): the planes are disjoint and addressed per
 * plane; the NIC sends every packet on plane EV mod P, so OPS and REPS use every plane and
 * ECMP one; a whole plane that fails mid-run is seen at its time and the sprayed flows still
 * deliver every byte once, in order, and MRC moves its data off the failed plane within a
 * few RTOs; Planes = 1 builds the single-plane fabric; bad Planes
 * values are refused.
 */

namespace
{

/**
 * A small 2-tier fabric of some planes: 2 leaves of 2 hosts, 2 spines, 100 Gb/s.
 * \param planes the number of planes
 * \return the helper, ready to Build()
 */
Ptr<ClosFabricHelper>
PlaneFabric(uint32_t planes)
{
    Ptr<ClosFabricHelper> h = CreateObject<ClosFabricHelper>();
    h->SetAttribute("Leaves", UintegerValue(2));
    h->SetAttribute("HostsPerLeaf", UintegerValue(2));
    h->SetAttribute("Spines", UintegerValue(2));
    h->SetAttribute("HostLinkRate", DataRateValue(DataRate("100Gbps")));
    h->SetAttribute("LeafUplinkRate", DataRateValue(DataRate("100Gbps")));
    h->SetAttribute("Planes", UintegerValue(planes));
    return h;
}

/**
 * The UDP source port of a RoCEv2 packet as it leaves a device (PPP header first), and whether
 * it is a CNP (which takes the plane of the packet it answers, not of its own port).
 * \param p the packet
 * \param[out] sport its UDP source port
 * \return false when it is not a RoCEv2 packet other than a CNP
 */
bool
SourcePort(Ptr<const Packet> p, uint16_t& sport)
{
    Ptr<Packet> c = p->Copy();
    PppHeader ppp;
    c->RemoveHeader(ppp);
    Ipv4Header ip;
    c->RemoveHeader(ip);
    if (ip.GetProtocol() != 17)
    {
        return false;
    }
    UdpHeader udp;
    c->RemoveHeader(udp);
    RoceBthHeader bth;
    if (udp.GetDestinationPort() != RoceBthHeader::UDP_PORT || c->PeekHeader(bth) == 0)
    {
        return false;
    }
    c->RemoveHeader(bth);
    sport = udp.GetSourcePort();
    return bth.GetOpCode() != RoceBthHeader::CNP;
}

/// Packets seen leaving the host ports, per plane, and those on the wrong plane.
struct PlaneTally
{
    uint32_t planes{1};                //!< Number of planes.
    std::map<uint32_t, uint64_t> sent; //!< RoCEv2 packets per plane.
    uint64_t wrongPlane{0};            //!< Packets whose EV maps to another plane.
    std::set<uint32_t> evPlanes;       //!< Planes of the EVs seen.

    /**
     * PhyTxBegin of a host port.
     * \param plane the port's plane
     * \param p the packet
     */
    void Sent(uint32_t plane, Ptr<const Packet> p)
    {
        uint16_t sport = 0;
        if (!SourcePort(p, sport))
        {
            return;
        }
        ++sent[plane];
        evPlanes.insert(PathSelector::PlaneOfEntropy(sport, planes));
        if (PathSelector::PlaneOfEntropy(sport, planes) != plane)
        {
            ++wrongPlane;
        }
    }
};

/**
 * Watch every host port of a fabric.
 * \param f the fabric
 * \param tally where to count
 */
void
WatchHostPorts(Ptr<ClosFabric> f, PlaneTally* tally)
{
    tally->planes = f->GetNPlanes();
    for (uint32_t h = 0; h < f->GetNHosts(); ++h)
    {
        for (uint32_t p = 0; p < f->GetNPlanes(); ++p)
        {
            f->GetLinkDevice(f->GetHostLink(h, p), 0)
                ->TraceConnectWithoutContext("PhyTxBegin",
                                             MakeCallback(&PlaneTally::Sent, tally).Bind(p));
        }
    }
}

/// One queue pair and what its receiver saw.
struct PlaneFlow
{
    Ptr<RdmaQueuePair> sender;       //!< Sender.
    Ptr<RdmaQueuePair> receiver;     //!< Receiver.
    std::vector<uint64_t> posted;    //!< Message sizes posted.
    std::vector<uint64_t> received;  //!< Message sizes delivered, in order.
    std::vector<uint64_t> completed; //!< Message sizes completed at the sender.

    /// Receiver callback. \param id message \param size bytes \param t time
    void Received(uint64_t id, uint64_t size, Time t)
    {
        received.push_back(size);
    }

    /// Sender callback. \param id message \param size bytes \param fct completion time
    void Completed(uint64_t id, uint64_t size, Time fct)
    {
        completed.push_back(size);
    }

    /// \return whether every message arrived once, in order, and every byte was placed once
    bool Exact() const
    {
        uint64_t bytes = 0;
        for (uint64_t b : posted)
        {
            bytes += b;
        }
        return received == posted && completed == posted &&
               receiver->GetStats().bytesReceived == bytes;
    }
};

/**
 * Connect src -> dst and post messages.
 * \param f the fabric
 * \param rdma the helper (stacks installed)
 * \param src sender host
 * \param dst receiver host
 * \param sizes message sizes
 * \param flow what is seen
 */
void
Connect(Ptr<ClosFabric> f,
        RdmaHelper& rdma,
        uint32_t src,
        uint32_t dst,
        const std::vector<uint64_t>& sizes,
        PlaneFlow& flow)
{
    rdma.SetQueuePairAttribute("BaseRtt", TimeValue(f->GetBaseRtt(src, dst, 4140, 66)));
    auto qps = rdma.CreateQueuePair(f->GetHost(src), f->GetHost(dst));
    flow.sender = qps.first;
    flow.receiver = qps.second;
    flow.receiver->SetReceiveCallback(MakeCallback(&PlaneFlow::Received, &flow));
    for (uint64_t s : sizes)
    {
        flow.posted.push_back(s);
        flow.sender->PostSend(s, MakeCallback(&PlaneFlow::Completed, &flow));
    }
}

} // namespace

/**
 * \ingroup reps-test
 * Three planes are disjoint: every switch is in exactly one plane and named after it, every
 * link joins a host or switches of one plane, every host has one port and one address per
 * plane, the host's routes reach a plane's addresses over that plane's port only, and the
 * switches of a plane route every host of the fabric.
 */
class PlanesDisjointTestCase : public TestCase
{
  public:
    PlanesDisjointTestCase()
        : TestCase("Planes: disjoint switches, links, addresses and routes per plane")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t planes = 3;
        Ptr<ClosFabric> f = PlaneFabric(planes)->Build();
        NS_TEST_ASSERT_MSG_EQ(f->GetNPlanes(), planes, "three planes");
        const uint32_t perPlane = f->GetPlane(1)->GetNLinks();
        NS_TEST_ASSERT_MSG_EQ(f->GetNLinks(), planes * perPlane, "links numbered across planes");
        NS_TEST_ASSERT_MSG_EQ(f->GetNSwitches(), planes * 4, "4 switches per plane");
        // Every switch in exactly one plane, named after it.
        std::set<uint32_t> ids;
        NodeContainer switches = f->GetSwitches();
        for (uint32_t i = 0; i < switches.GetN(); ++i)
        {
            Ptr<Node> sw = switches.Get(i);
            NS_TEST_ASSERT_MSG_EQ(ids.insert(sw->GetId()).second, true, "a switch listed once");
            uint32_t p = f->GetPlaneOfNode(sw);
            // Every plane is a ClosPlane of its own: a switch is in exactly one (its plane).
            std::set<uint32_t> owners;
            for (uint32_t q = 0; q < planes; ++q)
            {
                NodeContainer c = f->GetPlane(q)->GetSwitches();
                for (uint32_t k = 0; k < c.GetN(); ++k)
                {
                    if (c.Get(k) == sw)
                    {
                        owners.insert(q);
                    }
                }
            }
            NS_TEST_ASSERT_MSG_EQ(owners.size(), 1U, "a switch is in one plane");
            NS_TEST_ASSERT_MSG_EQ(owners.count(p), 1U, "its own plane");
            std::string name = f->GetNodeName(sw);
            const bool prefixed = name.rfind("p", 0) == 0;
            NS_TEST_ASSERT_MSG_EQ(prefixed, (p > 0), "only planes > 0 carry a prefix: " + name);
            if (p > 0)
            {
                NS_TEST_ASSERT_MSG_EQ(name.rfind("p" + std::to_string(p) + ".", 0),
                                      0,
                                      "plane prefix of " + name);
            }
        }
        // Every link within one plane; links of a plane are contiguous.
        for (uint32_t link = 0; link < f->GetNLinks(); ++link)
        {
            uint32_t p = f->GetPlaneOfLink(link);
            NS_TEST_ASSERT_MSG_EQ(p, link / perPlane, "links of a plane are contiguous");
            for (uint32_t side = 0; side < 2; ++side)
            {
                Ptr<Node> n = f->GetLinkNode(link, side);
                if (f->GetRole(n) != ClosFabric::HOST)
                {
                    NS_TEST_ASSERT_MSG_EQ(f->GetPlaneOfNode(n),
                                          p,
                                          "link " + f->GetLinkName(link) + " stays in its plane");
                }
            }
        }
        // Addresses and host routes per plane.
        for (uint32_t h = 0; h < f->GetNHosts(); ++h)
        {
            Ptr<Ipv4> ipv4 = f->GetHost(h)->GetObject<Ipv4>();
            NS_TEST_ASSERT_MSG_EQ(ipv4->GetNInterfaces(), 1 + planes, "loopback + one per plane");
            for (uint32_t p = 0; p < planes; ++p)
            {
                Ipv4Address a = f->GetHostAddress(h, p);
                NS_TEST_ASSERT_MSG_EQ(a, Ipv4Address((10 + p) << 24 | (1 + h)), "the scheme");
                NS_TEST_ASSERT_MSG_EQ(ipv4->GetAddress(1 + p, 0).GetLocal(), a, "port address");
                NS_TEST_ASSERT_MSG_EQ(ipv4->GetNetDevice(1 + p),
                                      f->GetLinkDevice(f->GetHostLink(h, p), 0),
                                      "the port of plane p is the host's link in plane p");
                NS_TEST_ASSERT_MSG_EQ(f->GetHostIndex(a), h, "any plane's address names host");
                // The route to another host's plane-p address leaves on the plane-p port.
                Ipv4Header header;
                header.SetDestination(f->GetHostAddress((h + 1) % f->GetNHosts(), p));
                Socket::SocketErrno err;
                Ptr<Ipv4Route> route =
                    ipv4->GetRoutingProtocol()->RouteOutput(nullptr, header, nullptr, err);
                NS_TEST_ASSERT_MSG_EQ((route != nullptr), true, "a route");
                NS_TEST_ASSERT_MSG_EQ(route->GetOutputDevice(),
                                      ipv4->GetNetDevice(1 + p),
                                      "no host route crosses planes");
            }
        }
        // Every switch routes to every host, over ports of its own plane.
        for (uint32_t p = 0; p < planes; ++p)
        {
            Ptr<ClosPlane> plane = f->GetPlane(p);
            NS_TEST_ASSERT_MSG_EQ(plane->RecomputeRoutes(), 0, "every host reachable in a plane");
            NS_TEST_ASSERT_MSG_EQ(plane->GetNEqualCostPaths(0, 3), 2, "two spines per plane");
        }
        // Names resolve to links of the right plane.
        uint32_t l = f->FindLink(f->GetPlane(1)->GetLeaf(0), f->GetPlane(1)->GetSpine(1));
        NS_TEST_ASSERT_MSG_EQ(f->GetLinkName(l), "p1.leaf0-p1.spine1", "plane 1 link name");
        NS_TEST_ASSERT_MSG_EQ(f->GetPlaneOfLink(l), 1, "plane 1 link");
        NS_TEST_ASSERT_MSG_EQ(f->GetLinkName(f->GetHostLink(2, 2)), "host2-p2.leaf1", "host link");
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * On two planes, every packet leaves on plane PlaneOfEntropy(EV, 2): one OPS or REPS queue pair
 * uses both planes, one ECMP queue pair one plane only; a permutation under OPS loads every
 * plane's spines; every byte arrives once, in order.
 */
class PlanesSprayTestCase : public TestCase
{
  public:
    PlanesSprayTestCase()
        : TestCase("Planes: each packet leaves on plane EV mod P; OPS and REPS use every plane, "
                   "ECMP one")
    {
    }

  private:
    /**
     * One queue pair host 0 -> host 3 with a selector.
     * \param selector its TypeId name
     * \param[out] tally what the host ports sent
     * \return whether the messages arrived exactly once, in order
     */
    bool OneQp(const std::string& selector, PlaneTally& tally)
    {
        Ptr<ClosFabric> f = PlaneFabric(2)->Build();
        WatchHostPorts(f, &tally);
        RdmaHelper rdma;
        rdma.SetPathSelector(selector);
        rdma.Install(f->GetHosts());
        rdma.AssignStreams(f->GetHosts(), 7);
        PlaneFlow flow;
        Connect(f, rdma, 0, 3, {300000, 1, 65536}, flow);
        Simulator::Stop(MilliSeconds(5));
        Simulator::Run();
        // The context reaches the selector when the first packet leaves.
        NS_TEST_EXPECT_MSG_EQ(flow.sender->GetPathSelector()->GetPlanes(),
                              2,
                              "the queue pair tells its selector the planes");
        bool exact = flow.Exact();
        Simulator::Destroy();
        return exact;
    }

    void DoRun() override
    {
        for (const char* sel : {"ns3::OpsPathSelector", "ns3::RepsPathSelector"})
        {
            PlaneTally t;
            NS_TEST_ASSERT_MSG_EQ(OneQp(sel, t), true, std::string(sel) + ": every byte once");
            NS_TEST_ASSERT_MSG_EQ(t.wrongPlane, 0, std::string(sel) + ": plane = EV mod P");
            NS_TEST_ASSERT_MSG_GT(t.sent[0], 20, std::string(sel) + ": plane 0 used");
            NS_TEST_ASSERT_MSG_GT(t.sent[1], 20, std::string(sel) + ": plane 1 used");
        }
        PlaneTally ecmp;
        NS_TEST_ASSERT_MSG_EQ(OneQp("ns3::EcmpPathSelector", ecmp), true, "ECMP: every byte");
        NS_TEST_ASSERT_MSG_EQ(ecmp.wrongPlane, 0, "ECMP: plane = EV mod P");
        NS_TEST_ASSERT_MSG_EQ(ecmp.evPlanes.size(), 1, "ECMP keeps one plane (data and ACKs)");
        NS_TEST_ASSERT_MSG_EQ(ecmp.sent.size(), 1, "ECMP: one plane's ports only");

        // A permutation under OPS: every plane's spine links carry traffic.
        Ptr<ClosFabric> f = PlaneFabric(2)->Build();
        RdmaHelper rdma;
        rdma.SetPathSelector("ns3::OpsPathSelector");
        rdma.Install(f->GetHosts());
        rdma.AssignStreams(f->GetHosts(), 11);
        std::vector<PlaneFlow> flows(4);
        for (uint32_t h = 0; h < 4; ++h)
        {
            Connect(f, rdma, h, (h + 2) % 4, {200000}, flows[h]);
        }
        Simulator::Stop(MilliSeconds(5));
        Simulator::Run();
        for (uint32_t h = 0; h < 4; ++h)
        {
            NS_TEST_ASSERT_MSG_EQ(flows[h].Exact(), true, "permutation: every byte once");
        }
        for (uint32_t p = 0; p < 2; ++p)
        {
            for (uint32_t link : f->GetPlane(p)->GetLinks(ClosFabric::LEAF_SPINE))
            {
                uint32_t global = f->GetPlaneFirstLink(p) + link;
                NS_TEST_ASSERT_MSG_GT(f->GetLinkCounters(global, 0).bytes,
                                      0,
                                      "every plane carries traffic: " + f->GetLinkName(global));
            }
        }
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * A whole plane fails mid-run (failure schedule "plane:1 down"): every link of plane 1, host
 * links included, goes down at that time and no other; OPS and REPS queue pairs still deliver
 * every message once and in order, over plane 0; the schedule's outcome counts the drops.
 */
class PlaneFailureTestCase : public TestCase
{
  public:
    PlaneFailureTestCase()
        : TestCase("Planes: a plane failed mid-run is seen at its time; OPS and REPS still deliver "
                   "exactly once, in order")
    {
    }

  private:
    /// LinkState trace: a link changed state.
    /// \param downs where to record \param link the link \param up its state
    static void LinkState(std::vector<std::pair<uint32_t, int64_t>>* downs, uint32_t link, bool up)
    {
        if (!up)
        {
            downs->emplace_back(link, Simulator::Now().GetNanoSeconds());
        }
    }

    void DoRun() override
    {
        for (const char* sel : {"ns3::OpsPathSelector", "ns3::RepsPathSelector"})
        {
            Ptr<ClosFabric> f = PlaneFabric(2)->Build();
            std::vector<std::pair<uint32_t, int64_t>> downs;
            f->TraceConnectWithoutContext("LinkState", MakeBoundCallback(&LinkState, &downs));
            std::vector<FailureSchedule::Event> events;
            NS_TEST_ASSERT_MSG_EQ(FailureSchedule::Parse("15us plane:1 down\n", events), "", "");
            Ptr<FailureInjector> injector = CreateObject<FailureInjector>();
            NS_TEST_ASSERT_MSG_EQ(injector->Schedule(f, events), "", "a valid schedule");
            RdmaHelper rdma;
            rdma.SetPathSelector(sel);
            rdma.Install(f->GetHosts());
            rdma.AssignStreams(f->GetHosts(), 3);
            std::vector<PlaneFlow> flows(2);
            Connect(f, rdma, 0, 2, {100000, 4096, 100000}, flows[0]);
            Connect(f, rdma, 3, 1, {150000, 50000}, flows[1]);
            Simulator::Stop(MilliSeconds(50));
            Simulator::Run();
            const uint32_t perPlane = f->GetPlane(1)->GetNLinks();
            NS_TEST_ASSERT_MSG_EQ(downs.size(), perPlane, "every link of plane 1 went down");
            for (const auto& [link, ns] : downs)
            {
                NS_TEST_ASSERT_MSG_EQ(f->GetPlaneOfLink(link), 1, "only plane 1's links");
                NS_TEST_ASSERT_MSG_EQ(ns, 15000, "at the time of the schedule");
            }
            for (const PlaneFlow& flow : flows)
            {
                NS_TEST_ASSERT_MSG_EQ(flow.Exact(),
                                      true,
                                      std::string(sel) + ": every message once, in order");
            }
            std::vector<FailureInjector::Outcome> out = injector->GetOutcomes();
            NS_TEST_ASSERT_MSG_EQ(out.size(), 1, "one outcome");
            NS_TEST_ASSERT_MSG_EQ(out[0].element, "plane:1", "the element as written");
            NS_TEST_ASSERT_MSG_GT(out[0].drops, 0, "packets sent into the dead plane were lost");
            Simulator::Destroy();
        }
    }
};

/**
 * \ingroup reps-test
 * MRC on two planes, plane 1 failed mid-run (every link of it, host ports included): the
 * senders' data leaves plane 1 within a few RTOs of the failure (the EVs of plane 1 time out,
 * become ASSUMED_BAD and carry only probes), plane 0 carries the rest, and every message is
 * delivered exactly once and in order; OPS, which never learns, keeps spraying plane 1.
 */
class MrcPlaneFailoverTestCase : public TestCase
{
  public:
    MrcPlaneFailoverTestCase()
        : TestCase("Planes: MRC moves data off a failed plane within a few RTOs, exactly once")
    {
    }

  private:
    /// Data packets leaving the host ports, per plane, and the last one's time.
    struct DataLog
    {
        Time failAt;                        //!< When plane 1 fails.
        std::map<uint32_t, Time> last;      //!< Last data packet sent, per plane.
        std::map<uint32_t, uint64_t> after; //!< Data packets sent after the failure, per plane.

        /**
         * PhyTxBegin of a host port.
         * \param plane the port's plane
         * \param p the packet
         */
        void Sent(uint32_t plane, Ptr<const Packet> p)
        {
            Ptr<Packet> c = p->Copy();
            PppHeader ppp;
            c->RemoveHeader(ppp);
            Ipv4Header ip;
            c->RemoveHeader(ip);
            UdpHeader udp;
            RoceBthHeader bth;
            if (ip.GetProtocol() != 17 || c->RemoveHeader(udp) == 0 ||
                udp.GetDestinationPort() != RoceBthHeader::UDP_PORT || c->PeekHeader(bth) == 0 ||
                bth.GetOpCode() > RoceBthHeader::RC_SEND_ONLY)
            {
                return; // ACKs, CNPs, probes and their replies
            }
            last[plane] = Simulator::Now();
            if (Simulator::Now() > failAt)
            {
                ++after[plane];
            }
        }
    };

    /**
     * A permutation of 1 MiB per host on two planes, plane 1 down at 20 us.
     * \param selector the path selector's TypeId name
     * \param[out] log what the host ports sent
     * \param[out] rto the first sender's RTO
     * \return whether every message arrived exactly once, in order
     */
    bool Run(const std::string& selector, DataLog& log, Time& rto)
    {
        Ptr<ClosFabric> f = PlaneFabric(2)->Build();
        log.failAt = MicroSeconds(20);
        std::vector<FailureSchedule::Event> events;
        NS_TEST_EXPECT_MSG_EQ(FailureSchedule::Parse("20us plane:1 down\n", events), "", "");
        Ptr<FailureInjector> injector = CreateObject<FailureInjector>();
        NS_TEST_EXPECT_MSG_EQ(injector->Schedule(f, events), "", "a valid schedule");
        for (uint32_t h = 0; h < f->GetNHosts(); ++h)
        {
            for (uint32_t p = 0; p < f->GetNPlanes(); ++p)
            {
                f->GetLinkDevice(f->GetHostLink(h, p), 0)
                    ->TraceConnectWithoutContext("PhyTxBegin",
                                                 MakeCallback(&DataLog::Sent, &log).Bind(p));
            }
        }
        RdmaHelper rdma;
        rdma.SetPathSelector(selector);
        rdma.Install(f->GetHosts());
        rdma.AssignStreams(f->GetHosts(), 5);
        std::vector<PlaneFlow> flows(4);
        for (uint32_t h = 0; h < 4; ++h)
        {
            Connect(f, rdma, h, (h + 2) % 4, {1 << 20}, flows[h]);
        }
        Simulator::Stop(MilliSeconds(50));
        Simulator::Run();
        rto = flows[0].sender->GetRto();
        bool exact = true;
        for (const PlaneFlow& flow : flows)
        {
            exact = exact && flow.Exact();
        }
        Simulator::Destroy();
        return exact;
    }

    void DoRun() override
    {
        DataLog mrc;
        Time rto;
        NS_TEST_ASSERT_MSG_EQ(Run("ns3::MrcPathSelector", mrc, rto),
                              true,
                              "MRC: every message once, in order");
        std::ostringstream os;
        os << "RTO " << rto.As(Time::US) << ", last data on plane 1 at " << mrc.last[1].As(Time::US)
           << ", " << mrc.after[1] << " data packets into it after "
           << "the failure, " << mrc.after[0] << " on plane 0, last at "
           << mrc.last[0].As(Time::US);
        NS_TEST_EXPECT_MSG_GT(mrc.after[1], 0, "data was lost before MRC learned: " + os.str());
        NS_TEST_EXPECT_MSG_LT(mrc.last[1],
                              mrc.failAt + 3 * rto,
                              "data off the failed plane within a few RTOs: " + os.str());
        NS_TEST_EXPECT_MSG_GT(mrc.last[0],
                              mrc.failAt + 3 * rto,
                              "plane 0 carries the rest: " + os.str());

        DataLog ops;
        NS_TEST_ASSERT_MSG_EQ(Run("ns3::OpsPathSelector", ops, rto), true, "OPS: exactly once");
        NS_TEST_EXPECT_MSG_GT(ops.last[1],
                              mrc.failAt + 3 * rto,
                              "OPS keeps spraying the failed plane");
    }
};

/**
 * \ingroup reps-test
 * Planes = 1 builds the single-plane fabric exactly (node ids, names, addresses, links, and the
 * same completion time of a flow); Planes outside 1 .. 8 and addressing without room for the
 * planes' networks are refused with a message naming the attribute.
 */
class PlanesOneAndBadValuesTestCase : public TestCase
{
  public:
    PlanesOneAndBadValuesTestCase()
        : TestCase("Planes: Planes=1 is the single-plane fabric; bad values refused")
    {
    }

  private:
    /**
     * Build a fabric, describe it, run one OPS flow.
     * \param helper the helper
     * \return a description: node ids and names, addresses, links, the flow's completion time
     */
    static std::string Describe(Ptr<ClosFabricHelper> helper)
    {
        Ptr<ClosFabric> f = helper->Build();
        ClosFabricHelper::AssignStreams(f, 100);
        std::ostringstream os;
        NodeContainer all(f->GetHosts(), f->GetSwitches());
        for (uint32_t i = 0; i < all.GetN(); ++i)
        {
            os << all.Get(i)->GetId() << ":" << f->GetNodeName(all.Get(i)) << " ";
        }
        for (uint32_t h = 0; h < f->GetNHosts(); ++h)
        {
            os << f->GetHostAddress(h) << " ";
        }
        for (uint32_t l = 0; l < f->GetNLinks(); ++l)
        {
            os << f->GetLinkName(l) << " ";
        }
        RdmaHelper rdma;
        rdma.SetPathSelector("ns3::OpsPathSelector");
        rdma.Install(f->GetHosts());
        rdma.AssignStreams(f->GetHosts(), 5);
        PlaneFlow flow;
        Connect(f, rdma, 0, 3, {500000}, flow);
        Time done;
        flow.sender->PostSend(1,
                              MakeBoundCallback(
                                  +[](Time* t, uint64_t, uint64_t, Time) { *t = Simulator::Now(); },
                                  &done));
        Simulator::Run();
        os << done.GetPicoSeconds() << " " << flow.Exact();
        Simulator::Destroy();
        return os.str();
    }

    void DoRun() override
    {
        Ptr<ClosFabricHelper> plain = CreateObject<ClosFabricHelper>();
        plain->SetAttribute("Leaves", UintegerValue(2));
        plain->SetAttribute("HostsPerLeaf", UintegerValue(2));
        plain->SetAttribute("Spines", UintegerValue(2));
        plain->SetAttribute("HostLinkRate", DataRateValue(DataRate("100Gbps")));
        plain->SetAttribute("LeafUplinkRate", DataRateValue(DataRate("100Gbps")));
        std::string single = Describe(plain);
        NS_TEST_ASSERT_MSG_EQ(Describe(PlaneFabric(1)), single, "Planes=1: the same fabric");
        NS_TEST_ASSERT_MSG_NE(Describe(PlaneFabric(2)), single, "Planes=2: another fabric");

        Ptr<ClosFabricHelper> h = PlaneFabric(1);
        for (uint32_t bad : {0U, 9U})
        {
            NS_TEST_ASSERT_MSG_EQ(h->SetAttributeFailSafe("Planes", UintegerValue(bad)),
                                  false,
                                  "Planes checker refuses " + std::to_string(bad));
        }
        h->SetAttribute("Planes", UintegerValue(8));
        h->SetAttribute("HostAddressBase", Ipv4AddressValue("250.0.0.0"));
        std::string error = h->Validate();
        NS_TEST_ASSERT_MSG_NE(error.find("no room for the networks of 8 planes"),
                              std::string::npos,
                              "address space too small for the planes: " + error);
        h->SetAttribute("HostAddressBase", Ipv4AddressValue("10.0.0.0"));
        NS_TEST_ASSERT_MSG_EQ(h->Validate(), "", "8 planes from 10.0.0.0/8 fit");
        h->SetAttribute("Pfc", BooleanValue(true));
        NS_TEST_ASSERT_MSG_NE(h->Validate().find("Pfc needs Planes = 1"),
                              std::string::npos,
                              "PFC refused on several planes");
    }
};

/**
 * \ingroup reps-test
 * The reps-planes test suite.
 */
class RepsPlanesTestSuite : public TestSuite
{
  public:
    RepsPlanesTestSuite()
        : TestSuite("reps-planes", TestSuite::Type::UNIT)
    {
        AddTestCase(new PlanesDisjointTestCase(), reps::kQuick);
        AddTestCase(new PlanesSprayTestCase(), reps::kQuick);
        AddTestCase(new PlaneFailureTestCase(), reps::kQuick);
        AddTestCase(new MrcPlaneFailoverTestCase(), reps::kQuick);
        AddTestCase(new PlanesOneAndBadValuesTestCase(), reps::kQuick);
    }
};

/// The suite instance.
static RepsPlanesTestSuite g_repsPlanesTestSuite;
