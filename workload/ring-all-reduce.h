/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_RING_ALL_REDUCE_H
#define REPS_RING_ALL_REDUCE_H

#include "ring-collective.h"

namespace ns3
{

/**
 * \ingroup reps
 * Ring all-reduce over N hosts h[0..N-1]: the data of every host is cut into N chunks; in
 * 2(N-1) steps (N-1 of reduce-scatter, then N-1 of all-gather) host h[i] sends chunk
 * (i - k) mod N to its right neighbour h[i+1 mod N] at step k. Host h[i] starts step k only
 * when its input for it, the step k-1 chunk of its left neighbour h[i-1], has arrived; step 0
 * starts at once everywhere. Each host thus sends 2(N-1) chunks of about DataBytes / N bytes
 * (exactly DataBytes / N when N divides it; otherwise chunk c has one byte more for
 * c < DataBytes mod N).
 *
 * Flow ids: FirstFlowId + i * 2(N-1) + k for host position i and step k.
 */
class RingAllReduce : public RingCollective
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    RingAllReduce();
    ~RingAllReduce() override;

    std::string GetName() const override;
    /// \return the number of steps, 2(N-1).
    uint32_t GetSteps() const override;

    /**
     * \param i host position.
     * \param k step.
     * \return the chunk host i sends at step k, (i - k) mod N.
     */
    uint32_t GetChunk(uint32_t i, uint32_t k) const override;
};

} // namespace ns3

#endif /* REPS_RING_ALL_REDUCE_H */
