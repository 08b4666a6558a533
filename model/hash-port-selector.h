/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_HASH_PORT_SELECTOR_H
#define REPS_HASH_PORT_SELECTOR_H

#include "port-selector.h"

namespace ns3
{

/**
 * \ingroup reps
 * The forwarding of ECMP switches, and the default of FabricSwitch: the port of the flow hash
 * (ns-3's Murmur3 hash of the 5-tuple and the switch's salt, modulo the number of equal-cost
 * ports; Flow::hashPort). One 5-tuple always takes one port, so the UDP source port of RoCEv2
 * (the entropy value) picks the path. FabricSwitch::GetFlowHashPort() gives the same port
 * without a packet.
 */
class HashPortSelector : public PortSelector
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    HashPortSelector();
    ~HashPortSelector() override;

  protected:
    uint32_t DoPick(const uint32_t* ports, uint32_t n, const Flow& flow) override;
};

} // namespace ns3

#endif /* REPS_HASH_PORT_SELECTOR_H */
