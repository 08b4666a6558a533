/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup reps
 * Drives one path selector with a scripted stream of feedback and prints, packet by packet,
 * the entropy value it chose and why. A quick way to see how a selector reacts to ECN marks
 * and timeouts without building a fabric.
 *
 *   ./ns3 run "reps-path-selector-trace --selector=ns3::EcmpPathSelector --packets=16"
 */

#include "ns3/core-module.h"
#include "ns3/reps-module.h"

#include <iomanip>
#include <iostream>
#include <map>

using namespace ns3;

namespace
{

/// Prints one row per chosen EV and counts the reasons.
struct Printer
{
    uint32_t packet{0};                           //!< Packets so far.
    std::map<PathSelector::Choice, uint32_t> why; //!< Count per reason.
    bool quiet{false};                            //!< Print only the totals.

    /**
     * EntropyChosen trace sink.
     * \param ev the EV
     * \param reason why it was chosen
     * \param retx whether the packet is a retransmission
     */
    void Chosen(uint16_t ev, PathSelector::Choice reason, bool retx)
    {
        ++why[reason];
        if (!quiet)
        {
            std::cout << std::setw(8) << packet << std::setw(8) << ev << "  " << std::setw(12)
                      << std::left << PathSelector::ChoiceName(reason) << std::right
                      << (retx ? "  retx" : "") << "\n";
        }
        ++packet;
    }
};

} // namespace

int
main(int argc, char* argv[])
{
    std::string selector = "ns3::EcmpPathSelector";
    uint32_t packets = 32;
    uint32_t ecnEvery = 4;
    uint32_t timeoutAt = 0;
    uint32_t evSpace = 65536;
    bool quiet = false;

    CommandLine cmd(__FILE__);
    cmd.AddValue("selector", "Path selector TypeId (e.g. ns3::EcmpPathSelector)", selector);
    cmd.AddValue("packets", "Number of packets to send [packets]", packets);
    cmd.AddValue("ecnEvery", "Every n-th ACK is ECN-marked (0: none) [ACKs]", ecnEvery);
    cmd.AddValue("timeoutAt",
                 "Fire a retransmission timeout after this packet (0: never)",
                 timeoutAt);
    cmd.AddValue("evSpace", "Entropy space: number of distinct EVs (1 to 65536)", evSpace);
    cmd.AddValue("quiet", "Print only the totals", quiet);
    cmd.Parse(argc, argv);

    TypeId tid;
    NS_ABORT_MSG_UNLESS(TypeId::LookupByNameFailSafe(selector, &tid),
                        "--selector: unknown TypeId '" << selector << "'");
    NS_ABORT_MSG_UNLESS(tid.IsChildOf(PathSelector::GetTypeId()),
                        "--selector: '" << selector << "' is not a PathSelector");
    NS_ABORT_MSG_IF(evSpace < 1 || evSpace > 65536, "--evSpace must be in [1, 65536]");

    ObjectFactory factory;
    factory.SetTypeId(tid);
    factory.Set("EntropySpace", UintegerValue(evSpace));
    Ptr<PathSelector> ps = factory.Create<PathSelector>();
    ps->AssignStreams(0);

    Printer printer;
    printer.quiet = quiet;
    ps->TraceConnectWithoutContext("EntropyChosen", MakeCallback(&Printer::Chosen, &printer));
    ps->Start(PathSelectorContext());

    if (!quiet)
    {
        std::cout << std::setw(8) << "packet" << std::setw(8) << "EV"
                  << "  reason\n";
    }
    for (uint32_t i = 1; i <= packets; ++i)
    {
        uint16_t ev = ps->NextEntropy(false);
        bool marked = ecnEvery > 0 && i % ecnEvery == 0;
        ps->OnAck(ev, marked, MicroSeconds(10));
        if (timeoutAt != 0 && i == timeoutAt)
        {
            ps->OnTimeout();
        }
    }
    std::cout << "\n" << selector << ": " << printer.packet << " packets\n";
    for (const auto& [reason, count] : printer.why)
    {
        std::cout << "  " << std::setw(12) << std::left << PathSelector::ChoiceName(reason)
                  << std::right << std::setw(8) << count << "\n";
    }
    Simulator::Destroy();
    return 0;
}
