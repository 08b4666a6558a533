/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_RING_REDUCE_SCATTER_H
#define REPS_RING_REDUCE_SCATTER_H

#include "ring-collective.h"

#include <string>

namespace ns3
{

/**
 * \ingroup reps
 * Ring reduce-scatter over N hosts h[0..N-1]: every host holds DataBytes cut into N chunks and
 * ends with chunk i reduced over all hosts; in N-1 steps host h[i] sends its partial sum of
 * chunk (i - k - 1) mod N to its right neighbour h[i+1 mod N] at step k, after adding the
 * partial sum of that chunk its left neighbour sent at step k-1, so that it starts step k only
 * when that has arrived. Each host sends N-1 chunks of DataBytes / N; (N-1) x DataBytes move in
 * all (the first phase of the ring all-reduce).
 */
class RingReduceScatter : public RingCollective
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    RingReduceScatter();
    ~RingReduceScatter() override;

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

#endif /* REPS_RING_REDUCE_SCATTER_H */
