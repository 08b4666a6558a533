/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_RANDOM_PORT_SELECTOR_H
#define REPS_RANDOM_PORT_SELECTOR_H

#include "port-selector.h"

namespace ns3
{

/**
 * \ingroup reps
 * Packet spraying in the switches (ns-3 mainline's per-packet random ECMP): a uniformly random
 * equal-cost port for every packet, from the selector's stream.
 */
class RandomPortSelector : public PortSelector
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    RandomPortSelector();
    ~RandomPortSelector() override;

  protected:
    uint32_t DoPick(const uint32_t* ports, uint32_t n, const Flow& flow) override;
};

} // namespace ns3

#endif /* REPS_RANDOM_PORT_SELECTOR_H */
