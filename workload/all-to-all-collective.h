/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_ALL_TO_ALL_COLLECTIVE_H
#define REPS_ALL_TO_ALL_COLLECTIVE_H

#include "collective.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup reps
 * All-to-all as a collective (the exchange of expert-parallel training): every host sends
 * BytesPerPeer to every other host, split over FlowsPerPeer parallel flows (queue pairs). The
 * collective completes when the last flow has arrived.
 *
 * Without Staggered, every flow starts at once. With Staggered, the exchange runs in N-1
 * rounds of a shift pattern: in round r (1 to N-1) host h[i] sends to h[i+r mod N], and it
 * starts round r+1 only when its own round-r flows have all arrived.
 *
 * Flow ids: FirstFlowId + (i * (N-1) + r - 1) * FlowsPerPeer + q for host position i, round
 * (shift) r and parallel flow q.
 */
class AllToAllCollective : public Collective
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    AllToAllCollective();
    ~AllToAllCollective() override;

    uint32_t GetFlowCount() const override;
    std::string GetName() const override;

  protected:
    void DoStart() override;

  private:
    /**
     * Launch round \p r of host \p i.
     * \param i host position.
     * \param r round (shift), 1 to N-1.
     */
    void LaunchRound(uint32_t i, uint32_t r);

    /**
     * One flow of round \p r of host \p i arrived.
     * \param i host position.
     * \param r round.
     */
    void FlowArrived(uint32_t i, uint32_t r);

    uint64_t m_bytesPerPeer;         //!< BytesPerPeer attribute.
    uint32_t m_flowsPerPeer;         //!< FlowsPerPeer attribute.
    bool m_staggered;                //!< Staggered attribute.
    std::vector<uint32_t> m_pending; //!< Flows of the current round still in flight, per host.
};

} // namespace ns3

#endif /* REPS_ALL_TO_ALL_COLLECTIVE_H */
