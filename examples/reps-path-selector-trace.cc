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
#include "ns3/reps-experiment-module.h"
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
    OptionParser::AddValue(cmd,
                           "selector",
                           "Path selector (" +
                               OptionParser::Join(PathSelectorNames::GetAvailableNames()) +
                               ", or a PathSelector TypeId such as ns3::EcmpPathSelector)",
                           selector);
    OptionParser::AddValue(cmd,
                           "packets",
                           "Number of packets to send (packets, 1 to 1000000)",
                           packets);
    OptionParser::AddValue(cmd,
                           "ecnEvery",
                           "Every n-th ACK is ECN-marked (0: none) [ACKs]",
                           ecnEvery);
    OptionParser::AddValue(cmd,
                           "timeoutAt",
                           "Fire a retransmission timeout after this packet (0: never; at most "
                           "--packets)",
                           timeoutAt);
    OptionParser::AddValue(cmd,
                           "evSpace",
                           "Entropy space: number of distinct EVs (1 to 65536)",
                           evSpace);
    OptionParser::AddValue(cmd, "quiet", "Print only the totals", quiet);
    OptionParser::Parse(cmd, argc, argv);

    PathSelectorNames::Choice choice;
    std::string error;
    if (!PathSelectorNames::Lookup(selector, choice, error))
    {
        OptionParser::Exit("--selector: " + error);
    }
    OptionParser::CheckRangeOrExit("--packets", packets, 1, 1000000);
    OptionParser::CheckRangeOrExit("--timeoutAt", timeoutAt, 0, packets);
    OptionParser::CheckRangeOrExit("--evSpace", evSpace, 1, 65536);
    PathSelectorNames::CheckEntropySpaceOrExit("--evSpace", choice, evSpace);
    TypeId tid = choice.tid;

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
    std::cout << "\n" << tid.GetName() << ": " << printer.packet << " packets\n";
    for (const auto& [reason, count] : printer.why)
    {
        std::cout << "  " << std::setw(12) << std::left << PathSelector::ChoiceName(reason)
                  << std::right << std::setw(8) << count << "\n";
    }
    Simulator::Destroy();
    return 0;
}
