/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_DRILL_PORT_SELECTOR_H
#define REPS_DRILL_PORT_SELECTOR_H

/**
 * \file
 * \ingroup reps
 * The port selector of examples/reps-custom-switch-lb.cc and of the manual's chapter "Writing
 * your own switch load balancer", written outside the module as a user would: the example
 * runs it on a fabric, and the reps-switch-lb test suite checks it and runs it too.
 */

#include "ns3/port-load-monitor.h"
#include "ns3/port-selector.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cstdint>

namespace ns3
{

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

} // namespace ns3

#endif /* REPS_DRILL_PORT_SELECTOR_H */
