/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_OPS_PATH_SELECTOR_H
#define REPS_OPS_PATH_SELECTOR_H

#include "path-selector.h"

namespace ns3
{

/**
 * \ingroup reps
 * Oblivious packet spraying (OPS): every packet, new data and retransmissions alike, carries
 * an EV drawn uniformly at random from the entropy space. Feedback is ignored.
 */
class OpsPathSelector : public PathSelector
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    OpsPathSelector();
    ~OpsPathSelector() override;

  protected:
    uint16_t DoNextEntropy(bool retransmission, Choice& why) override;
};

} // namespace ns3

#endif /* REPS_OPS_PATH_SELECTOR_H */
