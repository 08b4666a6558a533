/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_CABLE_FAILURE_CONTROLLER_H
#define REPS_CABLE_FAILURE_CONTROLLER_H

#include "clos-fabric.h"

#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/packet.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <set>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup reps
 * The REPS evaluation's model of failed cables: from StartTime on, a switch-to-switch link
 * direction fails at the first packet that crosses it (that packet is the first lost), one
 * direction after another (at least Period apart), until the failed directions outnumber
 * MaxShare of the fabric's links; a direction whose failure would leave some pair of hosts
 * without an equal-cost path is spared. A failed direction loses every packet for good (or
 * for Duration), and routing is not told: it is a blackhole, as in the reference.
 *
 * Which directions fail is thus decided by the traffic: with a permutation starting at once,
 * the first uplinks and downlinks its packets reach, at every tier of switches. Host links
 * never fail (the failure would cut their host off). The counters of a failed direction count
 * its lost packets as drops (ClosFabric::GetLinkCounters), and the CableFailed trace source
 * reports each failure.
 */
class CableFailureController : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    CableFailureController();
    ~CableFailureController() override;

    /**
     * TracedCallback signature of the CableFailed trace source.
     * \param [in] link the link (numbered across the planes)
     * \param [in] direction 0 (side 0 to side 1, up) or 1
     */
    typedef void (*CableFailedTracedCallback)(uint32_t link, uint32_t direction);

    /**
     * Watch every switch-to-switch link direction of a fabric (call before the simulation
     * reaches StartTime; once).
     * \param fabric the fabric
     */
    void Install(Ptr<ClosFabric> fabric);

    /// \return the failed directions so far: (link, direction), in the order they failed
    const std::vector<std::pair<uint32_t, uint32_t>>& GetFailed() const;

    /// \return the largest number of failed directions MaxShare allows on the fabric
    uint32_t GetBudget() const;

  protected:
    void DoDispose() override;

  private:
    /**
     * A packet reaches the end of a direction that is up: fail it now?
     * \param link the link
     * \param direction its direction
     * \param packet the packet
     * \return whether the direction fails
     */
    bool Consider(uint32_t link, uint32_t direction, Ptr<const Packet> packet);
    /**
     * \param link a link
     * \param direction a direction
     * \return whether failing it too keeps every pair of hosts connected in its plane
     */
    bool KeepsConnectivity(uint32_t link, uint32_t direction) const;
    /**
     * A failed direction comes back (Duration elapsed).
     * \param link the link
     * \param direction its direction
     */
    void Recover(uint32_t link, uint32_t direction);

    double m_maxShare;                                   //!< MaxShare attribute.
    Time m_start;                                        //!< StartTime attribute.
    Time m_period;                                       //!< Period attribute.
    Time m_duration;                                     //!< Duration attribute.
    Ptr<ClosFabric> m_fabric;                            //!< The fabric watched.
    std::set<std::pair<uint32_t, uint32_t>> m_down;      //!< Failed directions now.
    std::set<std::pair<uint32_t, uint32_t>> m_needed;    //!< Spared: they keep pairs connected.
    std::vector<std::pair<uint32_t, uint32_t>> m_failed; //!< Every failure, in order.
    Time m_nextFailure;                                  //!< No failure before.
    bool m_paused;                                       //!< The share was reached.
    TracedCallback<uint32_t, uint32_t> m_cableFailed;    //!< CableFailed trace source.
};

} // namespace ns3

#endif /* REPS_CABLE_FAILURE_CONTROLLER_H */
