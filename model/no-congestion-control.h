/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_NO_CONGESTION_CONTROL_H
#define REPS_NO_CONGESTION_CONTROL_H

#include "rdma-congestion-control.h"

namespace ns3
{

/**
 * \ingroup reps
 * No congestion control: the queue pair sends at line rate with a fixed window, whatever the
 * network says. Isolates load balancing from congestion control.
 */
class NoCongestionControl : public RdmaCongestionControl
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    NoCongestionControl();
    ~NoCongestionControl() override;

    std::string GetName() const override;

    std::string Validate(const RdmaCcContext& context) const override;

  protected:
    void DoInit() override;

  private:
    uint32_t m_window; //!< Window attribute, payload bytes (0: unlimited).
};

} // namespace ns3

#endif /* REPS_NO_CONGESTION_CONTROL_H */
