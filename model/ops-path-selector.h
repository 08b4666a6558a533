/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_OPS_PATH_SELECTOR_H
#define REPS_OPS_PATH_SELECTOR_H

#include "path-selector.h"

#include <array>

namespace ns3
{

/**
 * \ingroup reps
 * Oblivious packet spraying (OPS): every packet, new data and retransmissions alike, carries
 * an EV chosen without looking at feedback. Two variants (Variant attribute):
 * - UNIFORM (the default): an EV drawn uniformly at random from the entropy space for every
 *   packet. This is the OPS of the REPS paper and of its authors' simulator.
 * - DECK: a shuffled round-robin. Each round deals every EV of the entropy space once, in an
 *   order drawn afresh for the round, so that no EV repeats before all were used. The order
 *   is a keyed pseudo-random permutation (a four-round Feistel network on the EV index, with
 *   cycle walking into the entropy space), so the deck costs a few bytes per connection
 *   whatever the entropy space.
 */
class OpsPathSelector : public PathSelector
{
  public:
    /// How the EV of the next packet is chosen.
    enum Variant
    {
        UNIFORM, //!< Uniformly random per packet.
        DECK,    //!< Every EV once per round, in a shuffled order.
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    OpsPathSelector();
    ~OpsPathSelector() override;

    std::string GetName() const override;

  protected:
    uint16_t DoNextEntropy(bool retransmission, Choice& why) override;
    void DoStart() override;

  private:
    /**
     * The round's permutation of [0, entropy space).
     * \param index a position in the round
     * \return the EV index dealt at that position
     */
    uint32_t Permute(uint32_t index) const;

    Variant m_variant;                //!< Variant attribute.
    std::array<uint32_t, 4> m_keys{}; //!< Round keys of the current round's permutation.
    uint32_t m_position{0};           //!< Position in the current round.
    uint32_t m_halfBits{0};           //!< Bits of each Feistel half.
};

} // namespace ns3

#endif /* REPS_OPS_PATH_SELECTOR_H */
