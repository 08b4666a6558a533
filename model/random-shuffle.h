/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_RANDOM_SHUFFLE_H
#define REPS_RANDOM_SHUFFLE_H

#include "ns3/ptr.h"
#include "ns3/random-variable-stream.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup reps
 * Put \p items in a uniformly random order drawn from an ns-3 random stream (Fisher-Yates, from
 * the last position down: position i - 1 is swapped with GetInteger(0, i - 1), for i = n down
 * to 2). Every random order of the module (workload permutations, host orders, randomly chosen
 * links) is drawn with it, so that they all follow --RngRun and the stream numbers assigned.
 * \tparam T the element type.
 * \param items the sequence, shuffled in place.
 * \param rng the random stream; n - 1 values are drawn for n items.
 */
template <typename T>
void
RandomShuffle(std::vector<T>& items, Ptr<UniformRandomVariable> rng)
{
    for (std::size_t i = items.size(); i > 1; --i)
    {
        std::swap(items[i - 1], items[rng->GetInteger(0, static_cast<uint32_t>(i - 1))]);
    }
}

} // namespace ns3

#endif /* REPS_RANDOM_SHUFFLE_H */
