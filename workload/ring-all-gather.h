/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_RING_ALL_GATHER_H
#define REPS_RING_ALL_GATHER_H

#include "ring-collective.h"

#include <string>

namespace ns3
{

/**
 * \ingroup reps
 * Ring all-gather over N hosts h[0..N-1]: host h[i] starts with chunk i of the DataBytes every
 * host ends with; in N-1 steps host h[i] sends chunk (i - k) mod N to its right neighbour
 * h[i+1 mod N] at step k, forwarding at step k the chunk it received at step k-1 from its left
 * neighbour, so that it starts step k only when that chunk has arrived. Each host sends N-1
 * chunks of DataBytes / N; (N-1) x DataBytes move in all.
 */
class RingAllGather : public RingCollective
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    RingAllGather();
    ~RingAllGather() override;

    std::string GetName() const override;
    /// \return N-1.
    uint32_t GetSteps() const override;

    /**
     * \param i host position.
     * \param k step.
     * \return the chunk host i sends at step k.
     */
    uint32_t GetChunk(uint32_t i, uint32_t k) const override;
};

} // namespace ns3

#endif /* REPS_RING_ALL_GATHER_H */
