/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_MP_PATH_SELECTOR_H
#define REPS_MP_PATH_SELECTOR_H

#include "path-selector.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup reps
 * Multipath (MP) baseline: a fixed set of Paths distinct EVs, drawn at random when the
 * connection starts, used round-robin packet by packet, like a connection striped over several
 * queue pairs that each keep one ECMP path. Feedback is ignored.
 */
class MpPathSelector : public PathSelector
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    MpPathSelector();
    ~MpPathSelector() override;

    std::string GetName() const override;

    /**
     * Check a configuration (DoValidate() of a selector with these attributes).
     * \param paths the Paths attribute.
     * \param entropySpace the EntropySpace attribute.
     * \return an empty string if allowed, otherwise what is wrong.
     */
    static std::string CheckAttributes(uint32_t paths, uint32_t entropySpace);

    /// \return the connection's EVs, in the order they are used (valid once started).
    const std::vector<uint16_t>& GetEntropies() const;

  protected:
    uint16_t DoNextEntropy(bool retransmission, Choice& why) override;
    void DoStart() override;
    std::string DoValidate(const PathSelectorContext& context) const override;

  private:
    uint32_t m_paths;            //!< Paths attribute.
    std::vector<uint16_t> m_evs; //!< The EVs.
    std::size_t m_next;          //!< Index of the next EV to use.
};

} // namespace ns3

#endif /* REPS_MP_PATH_SELECTOR_H */
