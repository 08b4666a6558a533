/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_HALVING_DOUBLING_ALL_REDUCE_H
#define REPS_HALVING_DOUBLING_ALL_REDUCE_H

#include "stepped-collective.h"

#include <string>

namespace ns3
{

/**
 * \ingroup reps
 * Halving-doubling (butterfly) all-reduce over N = 2^m hosts (Rabenseifner's algorithm): m
 * steps of reduce-scatter by recursive halving, then m steps of all-gather by recursive
 * doubling, 2 log2 N steps in all. At reduce-scatter step s (0 <= s < m) host position i
 * exchanges with i XOR N/2^(s+1) and sends the half of its current block that the partner
 * keeps (N/2^(s+1) chunks); after m steps host i holds chunk i reduced. At all-gather step s
 * host i exchanges with i XOR 2^s and sends the 2^s chunks it holds. A host starts a step only
 * when its partner's chunk of the step before has arrived. Each host sends 2 (DataBytes -
 * DataBytes / N), as in the ring, but in 2 log2 N steps instead of 2(N-1).
 */
class HalvingDoublingAllReduce : public SteppedCollective
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    HalvingDoublingAllReduce();
    ~HalvingDoublingAllReduce() override;

    std::string GetName() const override;
    /// \return 2 log2 N.
    uint32_t GetSteps() const override;

    /**
     * \param n a number of hosts.
     * \return whether the algorithm runs on n hosts (a power of two, at least 2).
     */
    static bool IsValidSize(uint32_t n);

  protected:
    void CheckSize() const override;
    uint32_t GetPeer(uint32_t i, uint32_t k) const override;
    uint64_t GetStepBytes(uint32_t i, uint32_t k) const override;
    uint32_t GetInputSource(uint32_t i, uint32_t k) const override;

  private:
    /// \return log2 N.
    uint32_t GetLog2() const;

    /**
     * \param k step.
     * \return the distance to the partner at step k.
     */
    uint32_t GetDistance(uint32_t k) const;
};

} // namespace ns3

#endif /* REPS_HALVING_DOUBLING_ALL_REDUCE_H */
