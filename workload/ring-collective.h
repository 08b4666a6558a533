/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_RING_COLLECTIVE_H
#define REPS_RING_COLLECTIVE_H

#include "stepped-collective.h"

namespace ns3
{

/**
 * \ingroup reps
 * Base of the ring collectives over N hosts h[0..N-1] (ring all-reduce, all-gather and
 * reduce-scatter): at step k host h[i] sends one chunk, GetChunk(i, k), to its right neighbour
 * h[i+1 mod N], and starts step k only when the chunk its left neighbour h[i-1 mod N] sent it
 * at step k-1 has arrived. A subclass gives the number of steps and the chunk of each step.
 */
class RingCollective : public SteppedCollective
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    RingCollective();
    ~RingCollective() override;

    /**
     * \param i host position.
     * \param k step.
     * \return the chunk host i sends at step k.
     */
    virtual uint32_t GetChunk(uint32_t i, uint32_t k) const = 0;

  protected:
    /// \return the right neighbour, i+1 mod N.
    uint32_t GetPeer(uint32_t i, uint32_t k) const override;
    /// \return the size of GetChunk(i, k).
    uint64_t GetStepBytes(uint32_t i, uint32_t k) const override;
    /// \return the left neighbour, i-1 mod N.
    uint32_t GetInputSource(uint32_t i, uint32_t k) const override;
};

} // namespace ns3

#endif /* REPS_RING_COLLECTIVE_H */
