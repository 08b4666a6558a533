/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup reps
 * One RoCEv2 queue pair between two hosts on one point-to-point link: posts messages, and
 * prints each message's flow completion time against the ideal (size / rate + base RTT) with
 * the transport's counters. Knobs: message size and count, link rate and delay, congestion
 * control and path selector TypeIds, random drop rate, go-back-N.
 *
 *   ./ns3 run "reps-two-host --size=16777216 --rate=100Gbps --delay=1us"
 *   ./ns3 run "reps-two-host --dropRate=0.01 --cc=ns3::DcqcnCongestionControl"
 */

#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/reps-experiment-module.h"
#include "ns3/reps-module.h"
#include "ns3/traffic-control-module.h"

#include <cmath>
#include <iomanip>
#include <iostream>

using namespace ns3;

namespace
{

/// What the example measures.
struct Results
{
    uint32_t completed{0}; //!< Messages completed.
    Time ideal;            //!< Ideal FCT of one message.

    /**
     * Completion callback.
     * \param id message id
     * \param size its size
     * \param fct its flow completion time
     */
    void Done(uint64_t id, uint64_t size, Time fct)
    {
        ++completed;
        std::cout << std::setw(8) << id << std::setw(14) << size << std::setw(14) << std::fixed
                  << std::setprecision(3) << fct.GetNanoSeconds() / 1000.0 << std::setw(14)
                  << ideal.GetNanoSeconds() / 1000.0 << std::setw(10) << std::setprecision(4)
                  << fct.GetSeconds() / ideal.GetSeconds() << "\n";
    }
};

} // namespace

int
main(int argc, char* argv[])
{
    uint64_t size = 16 * 1024 * 1024;
    uint32_t messages = 1;
    std::string rate = "100Gbps";
    std::string delay = "1us";
    std::string cc = "ns3::RdmaWindowCongestionControl";
    std::string selector = "ns3::EcmpPathSelector";
    double dropRate = 0.0;
    bool goBackN = false;
    uint32_t mtu = 4096;
    std::string pcap;
    std::string ascii;

    CommandLine cmd(__FILE__);
    OptionParser::AddValue(cmd, "size", "Message size (bytes, 1 to 2^40)", size);
    OptionParser::AddValue(cmd,
                           "messages",
                           "Number of messages, posted back to back at time 0 (1 to 1000000)",
                           messages);
    OptionParser::AddValue(cmd, "rate", "Link rate (DataRate)", rate);
    OptionParser::AddValue(cmd, "delay", "Link delay (Time)", delay);
    OptionParser::AddValue(cmd,
                           "cc",
                           "Congestion control (" +
                               OptionParser::Join(CongestionControlNames::GetAvailableNames()) +
                               ", or an RdmaCongestionControl TypeId)",
                           cc);
    OptionParser::AddValue(cmd,
                           "selector",
                           "Path selector (" +
                               OptionParser::Join(PathSelectorNames::GetAvailableNames()) +
                               ", or a PathSelector TypeId)",
                           selector);
    OptionParser::AddValue(cmd,
                           "dropRate",
                           "Probability that the link drops a packet, each direction (0 to 0.5)",
                           dropRate);
    OptionParser::AddValue(cmd, "goBackN", "Go-back-N instead of selective repeat", goBackN);
    OptionParser::AddValue(cmd, "mtu", "Payload bytes per packet (64 to 9000)", mtu);
    OptionParser::AddValue(cmd,
                           "pcap",
                           "Write a pcap file per host device, PREFIX-<node>-<device>.pcap "
                           "(path prefix; empty: none)",
                           pcap);
    OptionParser::AddValue(cmd,
                           "ascii",
                           "Write ns-3's ASCII trace of both devices, with every header decoded, "
                           "to this file (path; empty: none)",
                           ascii);
    OptionParser::Parse(cmd, argc, argv);

    // Check every option before it reaches an attribute (whose checker would abort).
    OptionParser::CheckRangeOrExit("--size", size, 1, std::pow(2.0, 40));
    OptionParser::CheckRangeOrExit("--messages", messages, 1, 1000000);
    OptionParser::RateOrExit("--rate", rate);
    OptionParser::TimeOrExit("--delay", delay);
    TypeId ccTid;
    std::string error;
    if (!CongestionControlNames::Lookup(cc, ccTid, error))
    {
        OptionParser::Exit("--cc: " + error);
    }
    cc = ccTid.GetName();
    PathSelectorNames::Choice choice;
    if (!PathSelectorNames::Lookup(selector, choice, error))
    {
        OptionParser::Exit("--selector: " + error);
    }
    selector = choice.tid.GetName();
    OptionParser::CheckRangeOrExit("--dropRate", dropRate, 0, 0.5);
    OptionParser::CheckRangeOrExit("--mtu", mtu, 64, 9000);
    OptionParser::CheckWritablePrefixOrExit("--pcap", pcap);
    OptionParser::CheckWritablePathOrExit("--ascii", ascii);
    if (!ascii.empty())
    {
        // Packet metadata lets the ASCII trace print every header's fields.
        Packet::EnablePrinting();
    }

    NodeContainer hosts;
    hosts.Create(2);
    InternetStackHelper internet;
    internet.Install(hosts);
    PointToPointHelper p2p;
    p2p.SetDeviceAttribute("DataRate", StringValue(rate));
    p2p.SetDeviceAttribute("Mtu", UintegerValue(std::max<uint32_t>(1500, mtu + 100)));
    p2p.SetChannelAttribute("Delay", StringValue(delay));
    NetDeviceContainer devices = p2p.Install(hosts);
    TrafficControlHelper tch;
    tch.SetRootQueueDisc("ns3::FifoQueueDisc", "MaxSize", StringValue("1000p"));
    tch.Install(devices);
    Ipv4AddressHelper ip("10.0.0.0", "255.255.255.0");
    ip.Assign(devices);
    if (!pcap.empty())
    {
        // Nanosecond timestamps: packets are tens of nanoseconds apart at 100 Gb/s and more.
        Config::SetDefault("ns3::PcapFileWrapper::NanosecMode", BooleanValue(true));
        p2p.EnablePcapAll(pcap);
    }
    if (!ascii.empty())
    {
        AsciiTraceHelper asciiHelper;
        p2p.EnableAsciiAll(asciiHelper.CreateFileStream(ascii));
    }
    if (dropRate > 0)
    {
        for (uint32_t i = 0; i < 2; ++i)
        {
            Ptr<RateErrorModel> em = CreateObject<RateErrorModel>();
            em->SetAttribute("ErrorRate", DoubleValue(dropRate));
            em->SetAttribute("ErrorUnit", StringValue("ERROR_UNIT_PACKET"));
            em->AssignStreams(1000 + i);
            devices.Get(i)->SetAttribute("ReceiveErrorModel", PointerValue(em));
        }
    }

    // Unloaded RTT: both propagation delays, one full data packet and one ACK serialized.
    DataRate lineRate(rate);
    Time baseRtt =
        2 * Time(delay) + lineRate.CalculateBytesTxTime(mtu + 46) +
        lineRate.CalculateBytesTxTime(RoceBthHeader::SIZE + RoceAckHeader::SIZE +
                                      RoceBthHeader::ICRC_SIZE + RdmaStack::WIRE_OVERHEAD);

    RdmaHelper rdma;
    rdma.SetCongestionControl(cc);
    rdma.SetPathSelector(selector);
    rdma.SetQueuePairAttribute("Mtu", UintegerValue(mtu));
    rdma.SetQueuePairAttribute("BaseRtt", TimeValue(baseRtt));
    rdma.SetQueuePairAttribute("GoBackN", BooleanValue(goBackN));
    rdma.Install(hosts);
    auto qps = rdma.CreateQueuePair(hosts.Get(0), hosts.Get(1));
    rdma.AssignStreams(hosts, 1);

    Results results;
    results.ideal = lineRate.CalculateBytesTxTime(size) + baseRtt;
    std::cout << "reps-two-host: " << messages << " x " << size << " bytes over " << rate << ", "
              << delay << " per link, cc " << cc << ", selector " << selector << ", drop rate "
              << dropRate << (goBackN ? ", go-back-N" : ", selective repeat") << "\n"
              << "base RTT " << baseRtt.As(Time::US) << ", RTO " << qps.first->GetRto().As(Time::US)
              << "\n\n"
              << std::setw(8) << "message" << std::setw(14) << "bytes" << std::setw(14)
              << "FCT (us)" << std::setw(14) << "ideal (us)" << std::setw(10) << "FCT/ideal"
              << "\n";
    for (uint32_t m = 0; m < messages; ++m)
    {
        qps.first->PostSend(size, MakeCallback(&Results::Done, &results));
    }
    Simulator::Stop(Seconds(10));
    Simulator::Run();

    const RdmaQueuePairStats& tx = qps.first->GetStats();
    const RdmaQueuePairStats& rx = qps.second->GetStats();
    std::cout << "\ncompleted " << results.completed << " of " << messages << " messages\n"
              << "sender:   packets " << tx.packetsSent << ", retransmissions "
              << tx.retransmissions << ", timeouts " << tx.timeouts << ", NACKs "
              << tx.nacksReceived << ", ECN-marked ACKs " << tx.ecnAcks << ", CNPs "
              << tx.cnpsReceived << "\n"
              << "receiver: packets " << rx.dataReceived << ", bytes placed " << rx.bytesReceived
              << ", duplicates " << rx.duplicates << ", ACKs " << rx.acksSent << ", NACKs "
              << rx.nacksSent << "\n";
    Simulator::Destroy();
    return results.completed == messages ? 0 : 1;
}
