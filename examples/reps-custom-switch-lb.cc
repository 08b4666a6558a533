/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup reps
 * A new switch load balancer written outside the module and compared with hash and adaptive
 * forwarding: DRILL-like, per packet the least loaded of two random equal-cost ports and the
 * port it chose last. It overrides DoPick() and DoAddPort(), reads the port loads from the
 * module's PortLoadMonitor, and is registered by TypeId in this file; the switches get it
 * with ClosFabricHelper::SetPortSelector("ns3::DrillPortSelector"), which --forwarding=drill
 * calls, with no change to the module. The manual's chapter "Writing your own load balancer"
 * explains it.
 *
 *   ./ns3 run "reps-custom-switch-lb"
 *   ./ns3 run "reps-custom-switch-lb --forwardingList=hash,drill --degradedLinks=2"
 *   ./ns3 run "reps-custom-switch-lb --ns3::DrillPortSelector::Samples=4 --json=drill.json"
 */

#include "ns3/core-module.h"
#include "ns3/reps-experiment-module.h"
#include "ns3/reps-module.h"

#include <algorithm>
#include <iomanip>
#include <iostream>

using namespace ns3;

/**
 * \ingroup reps
 * DRILL-like forwarding: per packet, Samples random equal-cost ports and the port chosen last
 * (when it is one of them); the one with the fewest bytes still to send wins.
 */
class DrillPortSelector : public PortSelector
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId()
    {
        static TypeId tid =
            TypeId("ns3::DrillPortSelector")
                .SetParent<PortSelector>()
                .SetGroupName("Reps")
                .AddConstructor<DrillPortSelector>()
                .AddAttribute("Samples",
                              "Random equal-cost ports compared for every packet (1 to 16).",
                              UintegerValue(2),
                              MakeUintegerAccessor(&DrillPortSelector::m_samples),
                              MakeUintegerChecker<uint32_t>(1, 16));
        return tid;
    }

  protected:
    void DoAddPort(uint32_t port, Ptr<NetDevice> device, Ptr<QueueDisc> queueDisc) override
    {
        m_load.AddPort(device, queueDisc);
    }

    uint32_t DoPick(const uint32_t* ports, uint32_t n, const Flow& flow) override
    {
        uint32_t best = ports[RandomInteger(n - 1)];
        for (uint32_t s = 1; s < m_samples; s++)
        {
            uint32_t port = ports[RandomInteger(n - 1)];
            if (m_load.GetBacklogBytes(port) < m_load.GetBacklogBytes(best))
            {
                best = port;
            }
        }
        if (std::find(ports, ports + n, m_last) != ports + n &&
            m_load.GetBacklogBytes(m_last) < m_load.GetBacklogBytes(best))
        {
            best = m_last; // the memory of DRILL: the last choice, if still less loaded
        }
        m_last = best;
        return best;
    }

    void DoDispose() override
    {
        m_load.Clear();
        PortSelector::DoDispose();
    }

  private:
    PortLoadMonitor m_load;      //!< Backlog of every port of the switch.
    uint32_t m_samples{2};       //!< Samples attribute.
    uint32_t m_last{UINT32_MAX}; //!< The port chosen last (none yet).
};

NS_OBJECT_ENSURE_REGISTERED(DrillPortSelector);

int
main(int argc, char* argv[])
{
    FabricExperiment experiment;
    experiment.lb = "ecmp";
    experiment.leaves = 4;
    experiment.hostsPerLeaf = 4;
    experiment.spines = 4;
    experiment.flowSize = "512KiB";
    std::string forwardingList = "hash,adaptive,drill";
    CommandLine cmd(__FILE__);
    cmd.Usage("Compares a switch load balancer defined in this file (drill) with hash and "
              "adaptive forwarding, every queue pair keeping one entropy value (--lb=ecmp).");
    OptionParser::AddValue(cmd,
                           "forwardingList",
                           "Comma list of switch forwardings to compare, each as --forwarding (" +
                               OptionParser::Join(PortSelectorNames::GetAvailableNames()) +
                               ", or a PortSelector TypeId)",
                           forwardingList);
    experiment.AddOptions(cmd);
    OptionParser::Parse(cmd, argc, argv);
    std::vector<std::string> forwardings = OptionParser::SplitList(forwardingList);
    for (const std::string& f : forwardings)
    {
        TypeId tid;
        std::string error;
        if (!PortSelectorNames::Lookup(f, tid, error))
        {
            OptionParser::Exit("--forwardingList: " + error);
        }
    }
    if (forwardings.empty())
    {
        OptionParser::Exit("--forwardingList: empty; allowed: a comma list of " +
                           OptionParser::Join(PortSelectorNames::GetAvailableNames()));
    }
    experiment.Check();

    ExperimentReport report;
    experiment.FillConfig(report);
    std::cout << std::left << std::setw(12) << "forwarding" << std::right << std::setw(9) << "done"
              << std::setw(11) << "fct mean" << std::setw(11) << "fct p99" << std::setw(11)
              << "fct max" << std::setw(9) << "drops" << std::setw(9) << "retx\n";
    for (const std::string& f : forwardings)
    {
        experiment.forwarding = f;
        experiment.Check();
        RunResult r = experiment.Run(experiment.GetSelectors()[0]);
        r.lb = f;
        SampleSummary fct = r.flows.GetFctSummaryUs();
        std::cout << std::left << std::setw(12) << f << std::right << std::setw(6)
                  << r.flows.GetCompletedCount() << "/" << std::left << std::setw(2)
                  << r.flows.GetFlowCount() << std::right << std::fixed << std::setprecision(1)
                  << std::setw(11) << fct.mean << std::setw(11) << fct.p99 << std::setw(11)
                  << fct.max << std::setw(9) << r.drops << std::setw(8) << r.retransmissions
                  << "\n";
        report.AddResult(r);
    }
    experiment.WriteOutputs(report);
    return 0;
}
