/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_RDMA_PSN_H
#define REPS_RDMA_PSN_H

#include <cstdint>

/**
 * \file
 * \ingroup reps
 * RoCEv2 packet sequence numbers (PSNs) are 24 bits wide and wrap; the queue pair and its
 * windows count packets with 64-bit sequence numbers that never wrap, whose low 24 bits are the
 * PSN. These two functions convert between the two.
 */

namespace ns3
{

/// \ingroup reps
/// Number of distinct PSNs (2^24).
constexpr uint64_t RDMA_PSN_SPACE = uint64_t(1) << 24;

/**
 * \ingroup reps
 * The sequence number whose PSN is psn and which is nearest to ref.
 *
 * A PSN less than 2^23 ahead of ref's PSN is taken as ahead of ref, anything else as behind it
 * (RoCEv2 PSN comparison). A PSN behind ref by more than ref itself maps to 0: sequence numbers
 * start at the initial PSN, so such a packet is from before the connection and is treated as
 * old.
 *
 * \param psn a PSN (only its low 24 bits are used)
 * \param ref a sequence number near which the answer lies
 * \return the sequence number
 */
inline uint64_t
RdmaUnwrapPsn(uint32_t psn, uint64_t ref)
{
    const uint64_t diff = (psn - ref) & (RDMA_PSN_SPACE - 1);
    if (diff >= RDMA_PSN_SPACE / 2)
    {
        const uint64_t back = RDMA_PSN_SPACE - diff;
        return back > ref ? 0 : ref - back;
    }
    return ref + diff;
}

/**
 * \ingroup reps
 * \param seq a sequence number
 * \return its 24-bit PSN
 */
inline uint32_t
RdmaPsnOf(uint64_t seq)
{
    return static_cast<uint32_t>(seq & (RDMA_PSN_SPACE - 1));
}

} // namespace ns3

#endif /* REPS_RDMA_PSN_H */
