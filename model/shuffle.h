/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_SHUFFLE_H
#define REPS_SHUFFLE_H

#include "ns3/ptr.h"
#include "ns3/random-variable-stream.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup reps
 * Shuffle a vector in place (Fisher-Yates), drawing from an ns-3 random stream, so that the
 * order follows --RngRun and the stream assigned to the caller. The one shuffle of the module:
 * the same stream and the same input give the same order on every platform.
 * \tparam T element type
 * \param items the vector
 * \param rng the random stream
 */
template <typename T>
void
Shuffle(std::vector<T>& items, Ptr<UniformRandomVariable> rng)
{
    for (size_t i = items.size(); i > 1; --i)
    {
        std::swap(items[i - 1], items[rng->GetInteger(0, static_cast<uint32_t>(i - 1))]);
    }
}

} // namespace ns3

#endif /* REPS_SHUFFLE_H */
