/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup reps
 * A new path selector written outside the module and compared with OPS and REPS: round-robin
 * over a fixed set of EVs, skipping once an EV whose last feedback was an ECN mark, a NACK or a
 * loss. It overrides DoNextEntropy() and DoFeedback(), gives itself a short name with
 * GetName(), and is registered by TypeId in this file; --lb finds it by that name with no
 * change to the module. The manual's chapter "Writing your own path selector" explains it.
 *
 *   ./ns3 run "reps-custom-selector"
 *   ./ns3 run "reps-custom-selector --lb=ops,reps,rrskip --failedLinks=1 --failAt=20us"
 *   ./ns3 run "reps-custom-selector --lb=ns3::SkipRoundRobinPathSelector --json=rr.json"
 */

#include "ns3/core-module.h"
#include "ns3/reps-experiment-module.h"
#include "ns3/reps-module.h"

#include <iostream>
#include <map>
#include <set>

using namespace ns3;

/**
 * \ingroup reps
 * Round-robin over the EVs [EntropyBase, EntropyBase + Paths), skipping once every EV whose
 * last feedback was bad (ECN, NACK or LOST); a good ACK clears the mark.
 */
class SkipRoundRobinPathSelector : public PathSelector
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId()
    {
        static TypeId tid =
            TypeId("ns3::SkipRoundRobinPathSelector")
                .SetParent<PathSelector>()
                .SetGroupName("Reps")
                .AddConstructor<SkipRoundRobinPathSelector>()
                .AddAttribute("Paths",
                              "Number of EVs taken in turn (at most EntropySpace are used).",
                              UintegerValue(32),
                              MakeUintegerAccessor(&SkipRoundRobinPathSelector::m_paths),
                              MakeUintegerChecker<uint32_t>(1, 65536));
        return tid;
    }

    std::string GetName() const override
    {
        return "rrskip";
    }

  protected:
    uint16_t DoNextEntropy(bool retransmission, Choice& why) override
    {
        why = ROUND_ROBIN;
        const uint32_t n = std::min(m_paths, GetEntropySpace());
        while (true) // ends: every skip erases one mark
        {
            auto ev = static_cast<uint16_t>(GetEntropyBase() + m_next % n);
            m_next = (m_next + 1) % n;
            if (m_bad.erase(ev) == 0)
            {
                return ev;
            }
        }
    }

    void DoFeedback(uint16_t ev, Feedback kind) override
    {
        if (kind == GOOD)
        {
            m_bad.erase(ev);
        }
        else
        {
            m_bad.insert(ev);
        }
    }

  private:
    uint32_t m_paths{32};     //!< Paths attribute.
    uint32_t m_next{0};       //!< Position of the next EV in the round.
    std::set<uint16_t> m_bad; //!< EVs to skip once.
};

NS_OBJECT_ENSURE_REGISTERED(SkipRoundRobinPathSelector);

/// Feedback seen per path selector (by short name), from every selector's Feedback trace.
static std::map<std::string, std::map<std::string, uint64_t>> g_feedback;

/**
 * Feedback trace sink.
 * \param name the selector's short name
 * \param ev the EV
 * \param kind what came back
 */
static void
CountFeedback(std::string name, uint16_t ev, PathSelector::Feedback kind)
{
    ++g_feedback[name][PathSelector::FeedbackName(kind)];
}

/**
 * Connect the Feedback trace of every queue pair's path selector (FabricExperiment's built
 * callback).
 * \param fabric the fabric
 * \param qps the queue pairs of the workload
 */
static void
Built(Ptr<ClosFabric> fabric, const std::vector<Ptr<RdmaQueuePair>>& qps)
{
    for (const Ptr<RdmaQueuePair>& qp : qps)
    {
        Ptr<PathSelector> ps = qp->GetPathSelector();
        ps->TraceConnectWithoutContext("Feedback",
                                       MakeBoundCallback(&CountFeedback, ps->GetName()));
    }
}

int
main(int argc, char* argv[])
{
    FabricExperiment experiment;
    experiment.lb = "ops,reps,rrskip";
    experiment.leaves = 4;
    experiment.hostsPerLeaf = 4;
    experiment.spines = 4;
    experiment.flowSize = "512KiB";
    CommandLine cmd(__FILE__);
    cmd.Usage("Compares a path selector defined in this file (rrskip) with OPS and REPS.");
    experiment.AddOptions(cmd);
    OptionParser::Parse(cmd, argc, argv);
    experiment.Check();
    experiment.SetBuiltCallback(MakeCallback(&Built));

    ExperimentReport report;
    experiment.RunAll(std::cout, report);

    std::cout << "\nfeedback per path selector (Feedback trace):\n";
    for (const auto& [name, kinds] : g_feedback)
    {
        std::cout << "  " << name << ":";
        for (const auto& [kind, count] : kinds)
        {
            std::cout << " " << kind << " " << count;
        }
        std::cout << "\n";
    }
    return 0;
}
