/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_ECMP_PATH_SELECTOR_H
#define REPS_ECMP_PATH_SELECTOR_H

#include "path-selector.h"

namespace ns3
{

/**
 * \ingroup reps
 * ECMP: one entropy value for the whole life of the connection, so every packet of a queue
 * pair follows one path. The EV is drawn at random when the connection starts, unless the
 * Entropy attribute pins it.
 */
class EcmpPathSelector : public PathSelector
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    EcmpPathSelector();
    ~EcmpPathSelector() override;

    std::string GetName() const override;

    /// \return the connection's EV (valid once started).
    uint16_t GetEntropy() const;

  protected:
    uint16_t DoNextEntropy(bool retransmission, Choice& why) override;
    void DoStart() override;
    std::string DoValidate(const PathSelectorContext& context) const override;

  private:
    uint32_t m_pinned; //!< Entropy attribute: the EV to use, or 65536 to draw one at random.
    uint16_t m_ev;     //!< The connection's EV.
};

} // namespace ns3

#endif /* REPS_ECMP_PATH_SELECTOR_H */
