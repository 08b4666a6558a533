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

/// The example's knobs.
struct Options
{
    std::string selector = "ns3::EcmpPathSelector"; //!< Path selector name or TypeId.
    uint32_t packets = 32;                          //!< Packets to send.
    uint32_t ecnEvery = 4;                          //!< Every n-th ACK is marked (0: none).
    uint32_t timeoutAt = 0;                         //!< Timeout after this packet (0: never).
    uint32_t evSpace = 65536;                       //!< Number of distinct EVs.
    bool quiet = false;                             //!< Print only the totals.
    TypeId tid;                                     //!< The selector's TypeId.
};

/**
 * Parse and check the command line; exits with a message naming the option on a bad value.
 * \param argc argument count
 * \param argv arguments
 * \return the options, the selector's TypeId resolved
 */
Options
ParseOptions(int argc, char* argv[])
{
    Options o;
    CommandLine cmd(__FILE__);
    OptionParser::AddValue(cmd,
                           "selector",
                           "Path selector (" +
                               OptionParser::Join(PathSelectorNames::GetAvailableNames()) +
                               ", or a PathSelector TypeId such as ns3::EcmpPathSelector)",
                           o.selector);
    OptionParser::AddValue(cmd,
                           "packets",
                           "Number of packets to send (packets, 1 to 1000000)",
                           o.packets);
    OptionParser::AddValue(cmd,
                           "ecnEvery",
                           "Every n-th ACK is ECN-marked (0: none) [ACKs]",
                           o.ecnEvery);
    OptionParser::AddValue(cmd,
                           "timeoutAt",
                           "Fire a retransmission timeout after this packet (0: never; at most "
                           "--packets)",
                           o.timeoutAt);
    OptionParser::AddValue(cmd,
                           "evSpace",
                           "Entropy space: number of distinct EVs (1 to 65536)",
                           o.evSpace);
    OptionParser::AddValue(cmd, "quiet", "Print only the totals", o.quiet);
    OptionParser::Parse(cmd, argc, argv);

    PathSelectorNames::Choice choice;
    std::string error;
    if (!PathSelectorNames::Lookup(o.selector, choice, error))
    {
        OptionParser::Exit("--selector: " + error);
    }
    OptionParser::CheckRangeOrExit("--packets", o.packets, 1, 1000000);
    OptionParser::CheckRangeOrExit("--timeoutAt", o.timeoutAt, 0, o.packets);
    OptionParser::CheckRangeOrExit("--evSpace", o.evSpace, 1, 65536);
    PathSelectorNames::CheckEntropySpaceOrExit("--evSpace", choice, o.evSpace);
    o.tid = choice.tid;
    return o;
}

/**
 * Feed the selector the scripted feedback: an ACK per packet, every --ecnEvery-th marked,
 * and a timeout after packet --timeoutAt.
 * \param ps the started selector
 * \param o the options
 */
void
Drive(Ptr<PathSelector> ps, const Options& o)
{
    for (uint32_t i = 1; i <= o.packets; ++i)
    {
        uint16_t ev = ps->NextEntropy(false);
        bool marked = o.ecnEvery > 0 && i % o.ecnEvery == 0;
        ps->OnAck(ev, marked, MicroSeconds(10));
        if (o.timeoutAt != 0 && i == o.timeoutAt)
        {
            ps->OnTimeout();
        }
    }
}

} // namespace

int
main(int argc, char* argv[])
{
    const Options o = ParseOptions(argc, argv);

    ObjectFactory factory;
    factory.SetTypeId(o.tid);
    factory.Set("EntropySpace", UintegerValue(o.evSpace));
    Ptr<PathSelector> ps = factory.Create<PathSelector>();
    ps->AssignStreams(0);

    Printer printer;
    printer.quiet = o.quiet;
    ps->TraceConnectWithoutContext("EntropyChosen", MakeCallback(&Printer::Chosen, &printer));
    ps->Start(PathSelectorContext());

    if (!o.quiet)
    {
        std::cout << std::setw(8) << "packet" << std::setw(8) << "EV"
                  << "  reason\n";
    }
    Drive(ps, o);
    std::cout << "\n" << o.tid.GetName() << ": " << printer.packet << " packets\n";
    for (const auto& [reason, count] : printer.why)
    {
        std::cout << "  " << std::setw(12) << std::left << PathSelector::ChoiceName(reason)
                  << std::right << std::setw(8) << count << "\n";
    }
    Simulator::Destroy();
    return 0;
}
