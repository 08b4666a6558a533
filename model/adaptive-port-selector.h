/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_ADAPTIVE_PORT_SELECTOR_H
#define REPS_ADAPTIVE_PORT_SELECTOR_H

#include "port-load-monitor.h"
#include "port-selector.h"

namespace ns3
{

/**
 * \ingroup reps
 * Per-packet adaptive routing: the equal-cost port that will be free soonest, i.e. with the
 * shortest drain time (PortLoadMonitor::GetDrainTime(): the rest of the packet on the wire plus
 * the bytes queued, at the port's rate); ties (idle ports, most often) are broken uniformly at
 * random.
 */
class AdaptivePortSelector : public PortSelector
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    AdaptivePortSelector();
    ~AdaptivePortSelector() override;

    /// \return the load of the switch's ports, as this selector sees it
    const PortLoadMonitor& GetPortLoad() const;

  protected:
    void DoDispose() override;
    void DoAddPort(uint32_t port, Ptr<NetDevice> device, Ptr<QueueDisc> queueDisc) override;
    uint32_t DoPick(const uint32_t* ports, uint32_t n, const Flow& flow) override;

  private:
    PortLoadMonitor m_load;       //!< Load of the ports.
    std::vector<int64_t> m_score; //!< Scratch space: drain time of each candidate (ns).
};

} // namespace ns3

#endif /* REPS_ADAPTIVE_PORT_SELECTOR_H */
