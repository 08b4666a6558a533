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

/// The example's knobs.
struct Options
{
    uint64_t size = 16 * 1024 * 1024;                    //!< Message size (bytes).
    uint32_t messages = 1;                               //!< Messages posted at time 0.
    std::string rate = "100Gbps";                        //!< Link rate.
    std::string delay = "1us";                           //!< Link delay.
    std::string cc = "ns3::RdmaWindowCongestionControl"; //!< Congestion control TypeId.
    std::string selector = "ns3::EcmpPathSelector";      //!< Path selector TypeId.
    double dropRate = 0.0;                               //!< Drop probability per direction.
    bool goBackN = false;                                //!< Go-back-N instead of SR.
    uint32_t mtu = 4096;                                 //!< Payload bytes per packet.
    std::string pcap;                                    //!< Pcap path prefix ("" = none).
    std::string ascii;                                   //!< ASCII trace path ("" = none).
};

/**
 * Parse the command line and check every option before it reaches an attribute (whose
 * checker would abort); exits with a message naming the option on a bad value. The names
 * of congestion control and path selector are resolved to TypeId names.
 * \param argc argument count
 * \param argv arguments
 * \return the options
 */
Options
ParseOptions(int argc, char* argv[])
{
    Options o;
    CommandLine cmd(__FILE__);
    OptionParser::AddValue(cmd, "size", "Message size (bytes, 1 to 2^40)", o.size);
    OptionParser::AddValue(cmd,
                           "messages",
                           "Number of messages, posted back to back at time 0 (1 to 1000000)",
                           o.messages);
    OptionParser::AddValue(cmd, "rate", "Link rate (DataRate)", o.rate);
    OptionParser::AddValue(cmd, "delay", "Link delay (Time)", o.delay);
    OptionParser::AddValue(cmd,
                           "cc",
                           "Congestion control (" +
                               OptionParser::Join(CongestionControlNames::GetAvailableNames()) +
                               ", or an RdmaCongestionControl TypeId)",
                           o.cc);
    OptionParser::AddValue(cmd,
                           "selector",
                           "Path selector (" +
                               OptionParser::Join(PathSelectorNames::GetAvailableNames()) +
                               ", or a PathSelector TypeId)",
                           o.selector);
    OptionParser::AddValue(cmd,
                           "dropRate",
                           "Probability that the link drops a packet, each direction (0 to 0.5)",
                           o.dropRate);
    OptionParser::AddValue(cmd, "goBackN", "Go-back-N instead of selective repeat", o.goBackN);
    OptionParser::AddValue(cmd, "mtu", "Payload bytes per packet (64 to 9000)", o.mtu);
    OptionParser::AddValue(cmd,
                           "pcap",
                           "Write a pcap file per host device, PREFIX-<node>-<device>.pcap "
                           "(path prefix; empty: none)",
                           o.pcap);
    OptionParser::AddValue(cmd,
                           "ascii",
                           "Write ns-3's ASCII trace of both devices, with every header decoded, "
                           "to this file (path; empty: none)",
                           o.ascii);
    OptionParser::Parse(cmd, argc, argv);

    OptionParser::CheckRangeOrExit("--size", o.size, 1, std::pow(2.0, 40));
    OptionParser::CheckRangeOrExit("--messages", o.messages, 1, 1000000);
    OptionParser::RateOrExit("--rate", o.rate);
    OptionParser::TimeOrExit("--delay", o.delay);
    TypeId ccTid;
    std::string error;
    if (!CongestionControlNames::Lookup(o.cc, ccTid, error))
    {
        OptionParser::Exit("--cc: " + error);
    }
    o.cc = ccTid.GetName();
    PathSelectorNames::Choice choice;
    if (!PathSelectorNames::Lookup(o.selector, choice, error))
    {
        OptionParser::Exit("--selector: " + error);
    }
    o.selector = choice.tid.GetName();
    OptionParser::CheckRangeOrExit("--dropRate", o.dropRate, 0, 0.5);
    OptionParser::CheckRangeOrExit("--mtu", o.mtu, 64, 9000);
    OptionParser::CheckWritablePrefixOrExit("--pcap", o.pcap);
    OptionParser::CheckWritablePathOrExit("--ascii", o.ascii);
    return o;
}

/**
 * Two hosts with the internet stack on one point-to-point link (FIFO queue discs), with
 * the traces asked for and the random drops of --dropRate.
 * \param o the options
 * \return the two hosts
 */
NodeContainer
BuildLink(const Options& o)
{
    if (!o.ascii.empty())
    {
        // Packet metadata lets the ASCII trace print every header's fields.
        Packet::EnablePrinting();
    }
    NodeContainer hosts;
    hosts.Create(2);
    InternetStackHelper internet;
    internet.Install(hosts);
    PointToPointHelper p2p;
    p2p.SetDeviceAttribute("DataRate", StringValue(o.rate));
    p2p.SetDeviceAttribute("Mtu", UintegerValue(std::max<uint32_t>(1500, o.mtu + 100)));
    p2p.SetChannelAttribute("Delay", StringValue(o.delay));
    NetDeviceContainer devices = p2p.Install(hosts);
    TrafficControlHelper tch;
    tch.SetRootQueueDisc("ns3::FifoQueueDisc", "MaxSize", StringValue("1000p"));
    tch.Install(devices);
    Ipv4AddressHelper ip("10.0.0.0", "255.255.255.0");
    ip.Assign(devices);
    if (!o.pcap.empty())
    {
        // Nanosecond timestamps: packets are tens of nanoseconds apart at 100 Gb/s and more.
        Config::SetDefault("ns3::PcapFileWrapper::NanosecMode", BooleanValue(true));
        p2p.EnablePcapAll(o.pcap);
    }
    if (!o.ascii.empty())
    {
        AsciiTraceHelper asciiHelper;
        p2p.EnableAsciiAll(asciiHelper.CreateFileStream(o.ascii));
    }
    if (o.dropRate > 0)
    {
        for (uint32_t i = 0; i < 2; ++i)
        {
            Ptr<RateErrorModel> em = CreateObject<RateErrorModel>();
            em->SetAttribute("ErrorRate", DoubleValue(o.dropRate));
            em->SetAttribute("ErrorUnit", StringValue("ERROR_UNIT_PACKET"));
            em->AssignStreams(1000 + i);
            devices.Get(i)->SetAttribute("ReceiveErrorModel", PointerValue(em));
        }
    }
    return hosts;
}

/**
 * The unloaded RTT: both propagation delays, one full data packet and one ACK serialized.
 * \param o the options
 * \return the base RTT
 */
Time
BaseRtt(const Options& o)
{
    DataRate lineRate(o.rate);
    return 2 * Time(o.delay) + lineRate.CalculateBytesTxTime(o.mtu + 46) +
           lineRate.CalculateBytesTxTime(RoceBthHeader::SIZE + RoceAckHeader::SIZE +
                                         RoceBthHeader::ICRC_SIZE + RdmaStack::WIRE_OVERHEAD);
}

/**
 * Print the scenario and the head of the table of messages.
 * \param o the options
 * \param baseRtt the base RTT
 * \param rto the sender's retransmission timeout
 */
void
PrintHeader(const Options& o, Time baseRtt, Time rto)
{
    std::cout << "reps-two-host: " << o.messages << " x " << o.size << " bytes over " << o.rate
              << ", " << o.delay << " per link, cc " << o.cc << ", selector " << o.selector
              << ", drop rate " << o.dropRate << (o.goBackN ? ", go-back-N" : ", selective repeat")
              << "\n"
              << "base RTT " << baseRtt.As(Time::US) << ", RTO " << rto.As(Time::US) << "\n\n"
              << std::setw(8) << "message" << std::setw(14) << "bytes" << std::setw(14)
              << "FCT (us)" << std::setw(14) << "ideal (us)" << std::setw(10) << "FCT/ideal"
              << "\n";
}

/**
 * Print the transport's counters of both ends.
 * \param results what the example measured
 * \param o the options
 * \param tx the sender's counters
 * \param rx the receiver's counters
 */
void
PrintCounters(const Results& results,
              const Options& o,
              const RdmaQueuePairStats& tx,
              const RdmaQueuePairStats& rx)
{
    std::cout << "\ncompleted " << results.completed << " of " << o.messages << " messages\n"
              << "sender:   packets " << tx.packetsSent << ", retransmissions "
              << tx.retransmissions << ", timeouts " << tx.timeouts << ", NACKs "
              << tx.nacksReceived << ", ECN-marked ACKs " << tx.ecnAcks << ", CNPs "
              << tx.cnpsReceived << "\n"
              << "receiver: packets " << rx.dataReceived << ", bytes placed " << rx.bytesReceived
              << ", duplicates " << rx.duplicates << ", ACKs " << rx.acksSent << ", NACKs "
              << rx.nacksSent << "\n";
}

} // namespace

int
main(int argc, char* argv[])
{
    const Options o = ParseOptions(argc, argv);
    NodeContainer hosts = BuildLink(o);
    const Time baseRtt = BaseRtt(o);

    RdmaHelper rdma;
    rdma.SetCongestionControl(o.cc);
    rdma.SetPathSelector(o.selector);
    rdma.SetQueuePairAttribute("Mtu", UintegerValue(o.mtu));
    rdma.SetQueuePairAttribute("BaseRtt", TimeValue(baseRtt));
    rdma.SetQueuePairAttribute("GoBackN", BooleanValue(o.goBackN));
    rdma.Install(hosts);
    auto qps = rdma.CreateQueuePair(hosts.Get(0), hosts.Get(1));
    rdma.AssignStreams(hosts, 1);

    Results results;
    results.ideal = DataRate(o.rate).CalculateBytesTxTime(o.size) + baseRtt;
    PrintHeader(o, baseRtt, qps.first->GetRto());
    for (uint32_t m = 0; m < o.messages; ++m)
    {
        qps.first->PostSend(o.size, MakeCallback(&Results::Done, &results));
    }
    Simulator::Stop(Seconds(10));
    Simulator::Run();

    PrintCounters(results, o, qps.first->GetStats(), qps.second->GetStats());
    Simulator::Destroy();
    return results.completed == o.messages ? 0 : 1;
}
