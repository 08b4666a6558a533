/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "reps-test-compat.h"

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/reps-module.h"

#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

/**
 * \file
 * \ingroup reps-test
 * The RDMA NIC's own IPv4/UDP path (RdmaStack BypassIpStack) against ns-3's UDP and IPv4: the
 * same bytes leave every device at the same times, the queue pairs see the same results, and
 * TCP on the same hosts still goes through ns-3's IPv4.
 */

namespace
{

/// What one run put on the wire and what it delivered.
struct Wire
{
    std::vector<std::string> frames; //!< "time device bytes(hex)" of every transmission.
    uint64_t tcpBytes{0};            //!< Bytes the TCP sink received.
    uint64_t rdmaBytes{0};           //!< Bytes the RDMA receivers placed.
    uint64_t acks{0};                //!< ACKs the RDMA senders received.
    uint64_t ecnAcks{0};             //!< ACKs echoing CE.
    uint64_t stackReceived{0};       //!< RoCEv2 packets the stacks took in.

    /// PhyTxBegin of every point-to-point device.
    void Tx(std::string context, Ptr<const Packet> p)
    {
        std::vector<uint8_t> bytes(p->GetSize());
        p->CopyData(bytes.data(), bytes.size());
        std::ostringstream os;
        os << Simulator::Now().GetTimeStep() << ' ' << context << ' ' << std::hex;
        for (uint8_t b : bytes)
        {
            os << static_cast<uint32_t>(b) << '.';
        }
        frames.push_back(os.str());
    }

    /// PacketSink Rx.
    void TcpRx(Ptr<const Packet> p, const Address& from)
    {
        tcpBytes += p->GetSize();
    }
};

} // namespace

/**
 * \ingroup reps-test
 * A sprayed RDMA permutation with ECN marks, and one TCP flow, over a small Clos fabric, once
 * through the NIC's own IPv4/UDP path and once through ns-3's: every frame on every device is
 * the same, byte for byte and at the same time step, with checksums off or on.
 */
class RdmaNicBypassWireTestCase : public TestCase
{
  public:
    /**
     * \param checksums whether Node::ChecksumEnabled() is on
     */
    RdmaNicBypassWireTestCase(bool checksums)
        : TestCase(std::string("NIC IPv4 and UDP path: the same bytes on the wire as through ns-3 "
                               "UDP and IPv4") +
                   (checksums ? ", checksums on" : "")),
          m_checksums(checksums)
    {
    }

  private:
    bool m_checksums; //!< Checksums on.

    /**
     * Run the scenario.
     * \param bypass RdmaStack BypassIpStack
     * \return what was seen
     */
    Wire Once(bool bypass)
    {
        GlobalValue::Bind("ChecksumEnabled", BooleanValue(m_checksums));
        Config::SetDefault("ns3::RdmaStack::BypassIpStack", BooleanValue(bypass));
        Ptr<ClosFabricHelper> h = CreateObject<ClosFabricHelper>();
        h->SetAttribute("Leaves", UintegerValue(2));
        h->SetAttribute("HostsPerLeaf", UintegerValue(4));
        h->SetAttribute("Spines", UintegerValue(2));
        h->SetAttribute("HostLinkRate", DataRateValue(DataRate("100Gbps")));
        h->SetAttribute("LeafUplinkRate", DataRateValue(DataRate("100Gbps")));
        h->SetSwitchQueueDisc("ns3::EcnQueueDisc",
                              "MaxSize",
                              QueueSizeValue(QueueSize("40p")),
                              "Kmin",
                              QueueSizeValue(QueueSize("2p")),
                              "Kmax",
                              QueueSizeValue(QueueSize("10p")));
        Ptr<ClosFabric> fabric = h->Build();
        ClosFabricHelper::AssignStreams(fabric, 100);
        // The TCP flow crosses marking queues, which drop its non-ECT packets: retry soon.
        Config::SetDefault("ns3::TcpSocket::ConnTimeout", TimeValue(MilliSeconds(1)));
        Config::SetDefault("ns3::TcpSocketBase::MinRto", TimeValue(MilliSeconds(1)));

        Wire wire;
        Config::Connect("/NodeList/*/DeviceList/*/$ns3::PointToPointNetDevice/PhyTxBegin",
                        MakeCallback(&Wire::Tx, &wire));

        RdmaHelper rdma;
        rdma.SetPathSelector("ns3::OpsPathSelector");
        rdma.Install(fabric->GetHosts());
        std::vector<Ptr<RdmaQueuePair>> senders;
        std::vector<Ptr<RdmaQueuePair>> receivers;
        for (uint32_t i = 0; i < 8; ++i)
        {
            // Two flows into host 4 (incast: queues build and mark), the rest a permutation.
            const uint32_t dst = i < 4 ? 4 + (i + 1) % 4 : (i + 3) % 4;
            rdma.SetQueuePairAttribute("BaseRtt", TimeValue(fabric->GetBaseRtt(i, dst, 4140, 66)));
            auto qps = rdma.CreateQueuePair(fabric->GetHost(i), fabric->GetHost(dst));
            qps.first->PostSend(i == 0 ? 200000 : 100000, MessageCallbackNull());
            senders.push_back(qps.first);
            receivers.push_back(qps.second);
        }
        rdma.AssignStreams(fabric->GetHosts(), 17);

        // A TCP flow from host 1 to host 6 beside the RDMA traffic.
        const uint16_t port = 5001;
        Ipv4Address sinkAddress = fabric->GetHostAddress(6);
        PacketSinkHelper sink("ns3::TcpSocketFactory",
                              InetSocketAddress(Ipv4Address::GetAny(), port));
        ApplicationContainer sinks = sink.Install(fabric->GetHost(6));
        sinks.Get(0)->TraceConnectWithoutContext("Rx", MakeCallback(&Wire::TcpRx, &wire));
        BulkSendHelper bulk("ns3::TcpSocketFactory", InetSocketAddress(sinkAddress, port));
        bulk.SetAttribute("MaxBytes", UintegerValue(100000));
        ApplicationContainer apps = bulk.Install(fabric->GetHost(1));
        apps.Start(MicroSeconds(1));
        sinks.Start(Time(0));

        Simulator::Stop(MilliSeconds(20));
        Simulator::Run();
        for (uint32_t i = 0; i < senders.size(); ++i)
        {
            wire.rdmaBytes += receivers[i]->GetStats().bytesReceived;
            wire.acks += senders[i]->GetStats().acksReceived;
            wire.ecnAcks += senders[i]->GetStats().ecnAcks;
        }
        for (uint32_t i = 0; i < fabric->GetNHosts(); ++i)
        {
            wire.stackReceived +=
                fabric->GetHost(i)->GetObject<RdmaStack>()->GetStats().packetsReceived;
        }
        Simulator::Destroy();
        Config::Reset();
        GlobalValue::Bind("ChecksumEnabled", BooleanValue(false));
        return wire;
    }

    /// \return a null message callback
    static RdmaQueuePair::MessageCallback MessageCallbackNull()
    {
        return RdmaQueuePair::MessageCallback();
    }

    void DoRun() override
    {
        Wire direct = Once(true);
        Wire stack = Once(false);
        NS_TEST_EXPECT_MSG_EQ(direct.rdmaBytes, 200000 + 7 * 100000, "every RDMA byte arrives");
        NS_TEST_EXPECT_MSG_EQ(direct.tcpBytes, 100000, "TCP beside it still gets through");
        NS_TEST_EXPECT_MSG_GT(direct.ecnAcks, 0, "queues marked CE (the IPv4 ECN field)");
        NS_TEST_EXPECT_MSG_GT(direct.stackReceived, 0, "the stacks took packets in");
        NS_TEST_EXPECT_MSG_EQ(direct.rdmaBytes, stack.rdmaBytes, "same RDMA bytes");
        NS_TEST_EXPECT_MSG_EQ(direct.tcpBytes, stack.tcpBytes, "same TCP bytes");
        NS_TEST_EXPECT_MSG_EQ(direct.acks, stack.acks, "same ACKs");
        NS_TEST_EXPECT_MSG_EQ(direct.ecnAcks, stack.ecnAcks, "same CE echoes");
        NS_TEST_EXPECT_MSG_EQ(direct.stackReceived, stack.stackReceived, "same packets taken in");
        NS_TEST_ASSERT_MSG_EQ(direct.frames.size(), stack.frames.size(), "as many frames");
        uint32_t first = direct.frames.size();
        for (uint32_t i = 0; i < direct.frames.size(); ++i)
        {
            if (direct.frames[i] != stack.frames[i])
            {
                first = i;
                break;
            }
        }
        // The headers are at the front: show the first 200 characters of the first difference.
        NS_TEST_EXPECT_MSG_EQ(
            first,
            direct.frames.size(),
            "frame " << first << " differs:\n  NIC path: "
                     << direct.frames[std::min<size_t>(first, direct.frames.size() - 1)].substr(0,
                                                                                                200)
                     << "\n  ns-3 UDP/IPv4: "
                     << stack.frames[std::min<size_t>(first, stack.frames.size() - 1)].substr(0,
                                                                                              200));
    }
};

/**
 * \ingroup reps-test
 * The NIC path leaves ns-3's IPv4 alone for what it cannot take: with the NIC's interface down
 * nothing is delivered, and when it comes back up the transfer completes.
 */
class RdmaNicBypassInterfaceDownTestCase : public TestCase
{
  public:
    RdmaNicBypassInterfaceDownTestCase()
        : TestCase("NIC IPv4 and UDP path: nothing sent or taken while the IPv4 interface is down")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<ClosFabricHelper> h = CreateObject<ClosFabricHelper>();
        h->SetAttribute("Leaves", UintegerValue(2));
        h->SetAttribute("HostsPerLeaf", UintegerValue(1));
        h->SetAttribute("Spines", UintegerValue(1));
        Ptr<ClosFabric> fabric = h->Build();
        RdmaHelper rdma;
        rdma.Install(fabric->GetHosts());
        rdma.SetQueuePairAttribute("BaseRtt", TimeValue(fabric->GetBaseRtt(0, 1, 4140, 66)));
        auto qps = rdma.CreateQueuePair(fabric->GetHost(0), fabric->GetHost(1));
        Ptr<Ipv4> receiver = fabric->GetHost(1)->GetObject<Ipv4>();
        receiver->SetDown(1);
        qps.first->PostSend(100000, RdmaQueuePair::MessageCallback());
        uint64_t placedWhileDown = 0;
        Simulator::Schedule(MicroSeconds(100), [&]() {
            placedWhileDown = qps.second->GetStats().bytesReceived;
            receiver->SetUp(1);
        });
        Simulator::Stop(MilliSeconds(20));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(placedWhileDown, 0, "nothing taken while the interface is down");
        NS_TEST_EXPECT_MSG_EQ(qps.second->GetStats().bytesReceived, 100000, "all after it is up");
        NS_TEST_EXPECT_MSG_EQ(qps.first->IsIdle(), true, "the message completed");
        Simulator::Destroy();
    }
};

/**
 * \ingroup reps-test
 * The NIC's own IPv4/UDP path of the RDMA stack.
 */
class RepsNicBypassTestSuite : public TestSuite
{
  public:
    RepsNicBypassTestSuite()
        : TestSuite("reps-nic-bypass", TestSuite::Type::UNIT)
    {
        AddTestCase(new RdmaNicBypassWireTestCase(false), reps::kQuick);
        AddTestCase(new RdmaNicBypassWireTestCase(true), reps::kQuick);
        AddTestCase(new RdmaNicBypassInterfaceDownTestCase, reps::kQuick);
    }
};

/// The static instance of the suite.
static RepsNicBypassTestSuite g_repsNicBypassTestSuite;
